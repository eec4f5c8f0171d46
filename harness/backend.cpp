#include "harness/backend.h"

#include "harness/parallel.h"

#include <stdexcept>

#include "harness/fragment_packing.h"
#include "harness/ptx_emitter.h"
#include "oracle/reference.h"

namespace mmasp {

std::string_view name(CompilePath path) { return path == CompilePath::driver_jit ? "driver-jit" : "toolkit"; }

std::optional<Target> target_for_sm(int sm) {
  // The architecture-specific target where there is one (sm_90a, sm_100a, sm_120a), else the plain one.
  if (auto target = find_target("sm_" + std::to_string(sm) + "a")) return target;
  return find_target("sm_" + std::to_string(sm));
}

std::vector<uint32_t> EmulatorBackend::run(const Form& form, int selector, const std::vector<uint32_t>& input,
                                           uint32_t cases) {
  const LaneRecordLayout layout = lane_record_layout(instruction_for(form, selector));
  const size_t words_in = 32 * size_t(layout.input_words), words_out = 32 * size_t(layout.output_words);
  if (input.size() != cases * words_in) throw std::invalid_argument("emulator: input has the wrong size");
  std::vector<uint32_t> output(cases * words_out);
  const std::optional<ModelParameters> model = arithmetic_ && model_applies(form) ? arithmetic_(form) : std::nullopt;
  parallel_for(cases, threads_, [&](size_t c) {
    const MmaCase test = from_registers(form, registers_from_records(form, selector, input.data() + c * words_in));
    uint32_t* out = output.data() + c * words_out;
    try {
      if (model) {
        pack_d(form, model_result(test, *model), out);
        return;
      }
      const ReferenceResult result = reference(test);
      std::vector<uint32_t> d;
      d.reserve(result.d.size());
      for (const auto& e : result.d) d.push_back(e.rounded_code);
      pack_d(form, d, out);
    } catch (const std::invalid_argument&) {
      std::fill(out, out + words_out, 0x7FBADBADu);
    }
  });
  return output;
}

GpuBackend::GpuBackend(std::shared_ptr<CudaDevice> device, CompilePath path, const ModuleStore* store)
    : device_(std::move(device)), path_(path), store_(store) {
  auto target = target_for_sm(device_->sm());
  if (!target) throw std::runtime_error("mmasp knows no target for sm_" + std::to_string(device_->sm()));
  target_ = *target;
  if (path_ == CompilePath::toolkit && !store_) throw std::invalid_argument("the toolkit path needs a module store");
}

std::string GpuBackend::description() const {
  return device_->name() + " (sm_" + std::to_string(device_->sm()) + ", " + target_.name + "), " +
         std::string(name(path_));
}

bool GpuBackend::supports(const Form& form, std::string* why) const {
  if (form.legal_on(target_, form.version_for(target_))) return true;
  if (why) {
    const TargetRule& rule = form.target;
    const std::string needed = rule.type == TargetRule::Type::exact_arch ? rule.exact.front()
                               : rule.type == TargetRule::Type::family_specific ? "sm_" + std::to_string(rule.sm) + "a"
                                                                                : "sm_" + std::to_string(rule.sm);
    *why = "not executed: no " + needed + " device (this GPU is " + target_.name + "; the form needs " + rule.describe() + ")";
  }
  return false;
}

std::string GpuBackend::ptx(const Form& form, int selector) const {
  return form_module(form, selector, target_);
}

std::shared_ptr<CudaModule> GpuBackend::module(const Form& form, int selector) {
  auto& slot = modules_[{&form, selector}];
  if (slot) return slot;
  if (path_ == CompilePath::driver_jit) {
    slot = device_->load_cubin(cubin(form, selector));
  } else {
    std::string why;
    auto bytes = store_->cubin(ptx(form, selector), target_.name, &why);
    if (!bytes) throw std::runtime_error("toolkit path: " + why);
    slot = device_->load_cubin(*bytes);
  }
  return slot;
}

std::string GpuBackend::cubin(const Form& form, int selector) {
  const std::string text = ptx(form, selector);
  if (path_ == CompilePath::driver_jit) {
    // The driver's JIT, once per module: the code that runs and the code that is disassembled are the same.
    auto& slot = jit_cubins_[{&form, selector}];
    if (slot.empty()) slot = device_->jit_cubin(text);
    return slot;
  }
  std::string why;
  auto bytes = store_->cubin(text, target_.name, &why);
  if (!bytes) throw std::runtime_error("toolkit path: " + why);
  return *bytes;
}

std::vector<uint32_t> GpuBackend::run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) {
  auto loaded = module(form, selector);
  return device_->run(*loaded, input, form.regs.d, cases);
}

std::vector<std::vector<uint32_t>> execute(Backend& backend, const Form& form, int selector, const std::vector<MmaCase>& cases,
                                           unsigned threads) {
  const size_t input_words = case_record_words(form, selector);
  std::vector<uint32_t> records(cases.size() * input_words);
  parallel_for(cases.size(), threads, [&](size_t i) {
    pack_case_into(cases[i], std::span<uint32_t>(records.data() + i * input_words, input_words));
  });
  const std::vector<uint32_t> output = backend.run(form, selector, records, uint32_t(cases.size()));
  std::vector<std::vector<uint32_t>> d(cases.size());
  const size_t output_words = 32 * size_t(form.regs.d);
  parallel_for(cases.size(), threads, [&](size_t i) { d[i] = unpack_d(form, output.data() + i * output_words); });
  return d;
}

}  // namespace mmasp
