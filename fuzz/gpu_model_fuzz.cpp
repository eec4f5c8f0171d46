// libFuzzer target (issue #17): coverage-guided differential fuzzing of a device against the bit-exact model, steered
// by the model's own decisions. Every byte string decodes to one defined case of a modelled float form
// (fuzz/bytes_draw.h); the case runs on the device and on the model, and any bit of difference is a crash with the
// case file written. libFuzzer cannot see inside a GPU, so the model's events (oracle/numeric_model.h: bits shifted
// out, carries, cancellations, rounding directions, ... per stage) are its coverage, through extra counters: a case
// that makes the model decide something new is kept and mutated further.
//
// Options after libFuzzer's (each starts with --, which libFuzzer leaves to the target):
//   --gpu              run on GPU 0 (driver-JIT path) instead of the emulator
//   --family=F         only forms of family F (f16, bf16, tf32, fp8); default every modelled family
//   --fault=ID         the emulator with a fault of the catalogue (harness/fault_injection.h), e.g. fraction-bits-24:
//                      how CI proves that the target finds an in-bound arithmetic change
//   --events-out=FILE  at exit, the events reached, one "family stage event value" per line
//   --case-dir=DIR     where a differing case is written (default: the current directory)
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/bytes_draw.h"
#include "generators/distributions.h"
#include "harness/backend.h"
#include "judge/suites.h"
#include "harness/fault_injection.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"

namespace {

using namespace mmasp;

const std::vector<std::string> kFamilies = {"f16", "bf16", "tf32", "fp8"};
constexpr size_t kFeatures = 4 * kModelStages * kModelEventKinds * kModelEventValues;

// libFuzzer's extra coverage: one counter per (family, stage, event, value).
__attribute__((section("__libfuzzer_extra_counters"))) uint8_t g_event_counters[kFeatures];
std::vector<uint8_t> g_reached(kFeatures);   // over the whole campaign, for --events-out

struct Setup {
  std::vector<const Form*> forms;
  std::shared_ptr<CudaDevice> device;
  std::unique_ptr<Backend> base, faulty;
  Backend* device_backend = nullptr;
  std::string events_out, case_dir = ".", device_name;
};
Setup* g_setup = nullptr;

size_t family_index(const Form& form) {
  for (size_t f = 0; f < kFamilies.size(); ++f)
    if (form.family == kFamilies[f]) return f;
  return 0;
}

struct EventContext {
  size_t family;
};
void count_event(void* context, ModelEvent event, ModelStage stage, int value) {
  const size_t family = static_cast<EventContext*>(context)->family;
  const size_t index = ((family * kModelStages + size_t(stage)) * kModelEventKinds + size_t(event)) * kModelEventValues + size_t(value);
  if (g_event_counters[index] < 255) ++g_event_counters[index];
  g_reached[index] = 1;
}

void write_events() {
  if (!g_setup || g_setup->events_out.empty()) return;
  std::ofstream out(g_setup->events_out);
  size_t reached = 0;
  for (size_t i = 0; i < kFeatures; ++i) {
    if (!g_reached[i]) continue;
    ++reached;
    const size_t value = i % kModelEventValues, event = i / kModelEventValues % kModelEventKinds;
    const size_t stage = i / kModelEventValues / kModelEventKinds % kModelStages, family = i / kModelEventValues / kModelEventKinds / kModelStages;
    out << kFamilies[family] << " " << stage << " " << event << " " << value << "\n";
  }
  std::cerr << "gpu_model_fuzz: " << reached << " model events reached; written to " << g_setup->events_out << "\n";
}

std::string option(int argc, char** argv, const std::string& name) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == name) return "1";
    if (arg.rfind(name + "=", 0) == 0) return arg.substr(name.size() + 1);
  }
  return "";
}

}  // namespace

// AddressSanitizer's defaults for this target (ASAN_OPTIONS still overrides them): the CUDA driver maps memory where
// ASan's shadow gap lies (cuInit fails "out of memory" without protect_shadow_gap=0), keeps allocations to the end of
// the process (leaks reported at exit are the driver's), and installs a SIGSEGV handler of its own.
extern "C" const char* __asan_default_options() {
  return "protect_shadow_gap=0:detect_leaks=0:allow_user_segv_handler=1";
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  auto* setup = new Setup;
  const std::string family = option(*argc, *argv, "--family"), fault = option(*argc, *argv, "--fault");
  setup->events_out = option(*argc, *argv, "--events-out");
  if (const std::string dir = option(*argc, *argv, "--case-dir"); !dir.empty()) setup->case_dir = dir;
  for (const auto& form : instruction_space())
    if (verified_model(form, "sm_90") && (family.empty() || form.family == family)) setup->forms.push_back(&form);
  if (setup->forms.empty()) {
    std::cerr << "gpu_model_fuzz: no modelled form of family '" << family << "' (f16, bf16, tf32, fp8)\n";
    std::exit(2);
  }
  const ModelLookup sm90 = [](const Form& form) { return verified_model(form, "sm_90"); };
  if (!option(*argc, *argv, "--gpu").empty()) {
    setup->device = std::make_shared<CudaDevice>(0);
    setup->base = std::make_unique<GpuBackend>(setup->device, CompilePath::driver_jit, nullptr);
    setup->device_name = setup->device->name();
  } else {
    // The emulator computing the verified sm_90 model stands in for an sm_90 device.
    setup->base = std::make_unique<EmulatorBackend>(1, sm90, "sm_90");
    setup->device_name = "emulator (sm_90 model)";
  }
  setup->device_backend = setup->base.get();
  if (!fault.empty()) {
    const Fault* found = find_fault(fault);
    if (!found) {
      std::cerr << "gpu_model_fuzz: no fault '" << fault << "' in the catalogue (mmasp selftest --list-faults)\n";
      std::exit(2);
    }
    setup->faulty = std::make_unique<FaultyBackend>(*setup->base, *found, sm90);
    setup->device_backend = setup->faulty.get();
    setup->device_name += " with fault " + fault;
  }
  std::cerr << "gpu_model_fuzz: " << setup->forms.size() << " forms on " << setup->device_name << "\n";
  g_setup = setup;
  std::atexit(write_events);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return -1;
  Setup& setup = *g_setup;
  const Form& form = *setup.forms[data[0] % setup.forms.size()];
  fuzz::BytesDraw draw(data + 1, size - 1, /*random_tail=*/true);
  gen::Options options;
  options.undefined_behaviour = false;
  MmaCase test;
  gen::draw_case(draw, form, options, test);
  if (!undefined_behaviour(test).empty()) return -1;   // never judged, so never worth keeping
  const ModelParameters parameters = *verified_model(form, "sm_90");
  std::vector<uint32_t> model;
  {
    EventContext context{family_index(form)};
    ModelEventScope scope(count_event, &context);
    model = model_result(test, parameters);
  }
  const std::vector<uint32_t> device = execute(*setup.device_backend, form, test.selector, {test})[0];
  if (device == model) return 0;
  int differing = 0, first = -1;
  for (size_t e = 0; e < model.size(); ++e)
    if (device[e] != model[e] && differing++ == 0) first = int(e);
  const int row = first / form.shape.n, col = first % form.shape.n;
  CaseFile file{test,
                {"gpu_model_fuzz: " + setup.device_name + " differs from the verified sm_90 model in " +
                 std::to_string(differing) + " elements; first D[" + std::to_string(row) + "][" + std::to_string(col) +
                 "] device " + hex_code(device[size_t(first)]) + ", model " + hex_code(model[size_t(first)]),
                 "model: " + parameters.str()},
                {},
                device,
                {},
                {}};
  const std::filesystem::path path = std::filesystem::path(setup.case_dir) / "gpu-model-difference.json";
  save_case_file(file, path);
  std::cerr << "gpu_model_fuzz: the device differs from the model: " << file.comment.front() << "\n  case file: " << path.string()
            << " (mmasp eval / mmasp repro)\n";
  std::abort();
}
