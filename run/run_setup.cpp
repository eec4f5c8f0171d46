#include "run/run_setup.h"

#include "run/budget_plan.h"

#include <filesystem>
#include <map>
#include <set>

#include "oracle/numeric_model_table.h"
#include "run/usage_error.h"
#include "run/emulated_arithmetic.h"

namespace mmasp::run {
namespace {

using Note = std::function<void(const std::string&)>;

// Where the model tier's parameters come from (judge/model_source.h): on a GPU, --model-record, the default search
// path, then the built-in table; on the emulator, --model-record alone (the emulator has no architecture).
ModelSource model_source_for(const NightlyOptions& o, const Backends& backends) {
  ModelSourceRequest request;
  request.record = o.model_record;
  request.candidates = o.model_candidates;
  if (backends.hardware()) {
    const DeviceFingerprint d = backends.device->fingerprint();
    request.architecture = "sm_" + std::to_string(d.sm);
    request.driver_version = d.driver_version;
    request.device_uuid = d.uuid;
  } else if (o.model_record.empty()) {
    return {};
  }
  try {
    return resolve_model_source(request);
  } catch (const ModelRecordError& error) {
    throw UsageError(std::string(o.model_record.empty() ? "model record search path: " : "--model-record: ") + error.what());
  }
}

}  // namespace

RunSetup::RunSetup(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs, const Note& say,
                   const Note& note) {
  choose_backends(o, say, note);
  const bool hardware = backends_->hardware();
  extras_ = hardware && (o.extras == AutoOnOff::on || (o.extras == AutoOnOff::automatic && o.budget <= 0));
  if (hardware && !extras_)
    note("layout discovery, SASS and the compile-path comparison were skipped (--budget run; use --cases or --extras on)");
  layouts_ = hardware ? extras_ && o.layouts.value_or(true) : o.layouts.value_or(false);
  choose_model_tier(o, pairs, note);
  wrap_primary(o, note);
  choose_resident(o, pairs, note);
}

Backend& RunSetup::primary() const {
  if (watched_) return *watched_;
  return faulty_ ? *faulty_ : backends_->primary();
}

void RunSetup::choose_backends(const NightlyOptions& o, const Note& say, const Note& note) {
  BackendRequest request;
  request.choice = o.backend;
  request.gpu_required_by = o.gpu_required_by;
  request.device = o.device;
  request.paths = o.paths;
  request.ptxas = o.compile.ptxas;
  request.cache_dir = o.compile.cache_dir;
  request.modules = o.modules;
  request.jobs = o.compile.jobs;
  request.threads = o.threads;
  if (!o.emulate.empty()) {
    try {
      emulated_ = emulated_arithmetic(o.emulate, &request.emulator_arithmetic_name);
    } catch (const std::exception& error) {
      throw UsageError("--emulate: " + std::string(error.what()));
    }
    request.emulator_arithmetic = emulated_;
  }
  backends_.emplace(make_backends(request));
  if (!o.emulate.empty() && backends_->hardware())
    throw UsageError("--emulate sets the CPU emulator's arithmetic; this run is on a GPU (add --emulator)");
  if (backends_->hardware()) {
    const DeviceFingerprint d = backends_->device->fingerprint();
    say("mmasp run: GPU " + std::to_string(o.device) + " " + d.name + " (sm_" + std::to_string(d.sm) + "), driver " +
        d.driver_version + ", CUDA driver API " + std::to_string(d.driver_api_version) + ".");
  } else {
    say("mmasp run: " + backends_->why_emulated + ".");
    note("Running compile conformance and the CPU emulator: every result below is emulated, not a hardware result.");
    if (!o.emulate.empty())
      note("the emulator computes float forms with " + request.emulator_arithmetic_name + " (--emulate), not the exact reference");
    note("sm_120a forms (kind::f8f6f4, block scale) are compile-checked and emulated only: not executed: no sm_120a device.");
  }
}

// A test-only fault around the primary backend (its numerics faults change the arithmetic the device computes with:
// the emulator's --emulate, else the model that judges), and a worker's watch.
void RunSetup::wrap_primary(const NightlyOptions& o, const Note& note) {
  heartbeat_ = Heartbeat(o.heartbeat_fd);
  if (!o.inject_fault.empty()) {
    const Fault* fault = find_fault(o.inject_fault);
    if (!fault) throw UsageError("--inject-fault: no fault '" + o.inject_fault + "' in the catalogue (mmasp selftest --faults lists them)");
    ModelLookup truth = emulated_ ? emulated_ : model_source_.lookup;
    if (!truth) truth = [](const Form& form) { return verified_model(form, "sm_90"); };
    faulty_ = std::make_unique<FaultyBackend>(backends_->primary(), *fault, truth);
    note("test-only fault injected into every batch: " + fault->id + " (" + fault->description + ")");
  }
  if (heartbeat_.active() || !o.inject_worker_fault.empty()) {
    std::optional<WorkerFault> fault;
    if (!o.inject_worker_fault.empty()) fault = parse_worker_fault(o.inject_worker_fault);
    GpuBackend* gpu = backends_->gpu.empty() ? nullptr : backends_->gpu.front();
    watched_ = std::make_unique<WatchedBackend>(faulty_ ? *faulty_ : backends_->primary(), heartbeat_, fault,
                                                gpu ? &gpu->device() : nullptr,
                                                gpu ? std::optional<Target>(gpu->target()) : std::nullopt);
  }
}

void RunSetup::choose_model_tier(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                                 const Note& note) {
  model_source_ = model_source_for(o, *backends_);
  for (const std::string& warning : model_source_.warnings) note("warning: " + warning);
  // A record that judges none of the forms this run selects is a record that turned the model tier off for them: say
  // so in every report, whatever the reason (an empty "forms", a record of other forms, a filter).
  if (model_source_.record && o.model != ModelChoice::off) {
    std::set<std::string> selected, judged;
    for (const auto& [form, selector] : pairs) {
      if (!model_applies(*form)) continue;
      selected.insert(form->opcode);
      if (model_source_.record->find(form->opcode)) judged.insert(form->opcode);
    }
    if (!selected.empty() && judged.empty())
      note("warning: the model record " + model_source_.record_path.string() + " judges none of the " +
           std::to_string(selected.size()) + " float forms this run selected (it records " +
           std::to_string(model_source_.record->forms.size()) + " forms): their model tier " +
           (backends_->hardware() && builtin_models_enabled() ? "falls back to the built-in table" : "is off"));
  }
  const std::string where = backends_->hardware() ? "sm_" + std::to_string(backends_->sm()) : "the emulator";
  if (o.model == ModelChoice::off) return;
  if (!model_source_.any) {
    if (o.model != ModelChoice::automatic)
      throw UsageError("--model " + std::string(name(o.model)) + ": no bit-exact model for " + where +
                       " (make one with mmasp characterize --save, and give it with --model-record)");
    if (backends_->hardware())
      note("model tier off: no bit-exact model for " + where + " (mmasp characterize --save makes one on this GPU: "
           "docs/architectures.md)");
    return;
  }
  model_tier_.mode = o.model == ModelChoice::warn ? ModelMode::warn : ModelMode::strict;
  model_tier_.parameters = model_source_.lookup;
  model_tier_.description = model_source_.description;
  if (!model_source_.record_path.empty())
    model_tier_.eval_options = "--model-record " + std::filesystem::absolute(model_source_.record_path).string();
  note("model tier " + std::string(name(model_tier_.mode)) + ": " + model_tier_.description +
       "; float forms without a model are judged by the spec tier alone");
}

std::string RunSetup::host_path_reason(const Form& form) const {
  if (!resident_) return resident_refused_;
  std::string why;
  if (!resident_->covers(form, &why)) return why;
  if (form.is_integer()) return "";
  if (model_tier_.mode != ModelMode::strict) return "the model tier is not strict (the GPU judges float cases by the model alone)";
  if (!model_tier_.active_for(form)) return "no model of this float form on this device (the spec tier judges it, on the host)";
  return "";
}

void RunSetup::choose_resident(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                               const Note& note) {
  if (o.resident == AutoOnOff::off) {
    resident_refused_ = "--resident off";
    return;
  }
  std::string& why = resident_refused_;
  if (!backends_->hardware()) why = "no GPU";
  else if (!ResidentPath::built()) why = "this build has no resident kernel (no nvcc at build time)";
  else if (faulty_ || (watched_ && !o.inject_worker_fault.empty())) why = "a test-only fault is injected into the host path";
  if (why.empty()) {
    try {
      resident_ = std::make_unique<ResidentPath>(*backends_->device, o.resident_image, "", backends_->store.get());
    } catch (const std::exception& error) {
      why = error.what();
    }
  }
  if (!resident_ && o.resident == AutoOnOff::on) throw UsageError("--resident on: " + why);
  if (!resident_) {
    if (backends_->hardware()) note("GPU-resident path not used: " + why);
    return;
  }
  note_resident_pairs(o, pairs, note);
}

// Which pairs the resident path takes, and why each other pair stays on the host path, grouped by the reason.
void RunSetup::note_resident_pairs(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                                   const Note& note) const {
  std::map<std::string, std::vector<std::string>> on_host;   // reason -> "opcode selector"
  size_t taken = 0, executed = 0;
  const std::optional<Target> target = target_for_sm(backends_->sm());
  for (const auto& [form, selector] : pairs) {
    // Pairs the device cannot run at all are NotSupported, on no path: not counted here.
    if (target && !form->legal_on(*target, form->version_for(*target))) continue;
    ++executed;
    const std::string why = host_path_reason(*form);
    if (why.empty()) ++taken;
    else on_host[why].push_back(form->opcode + " (selector " + std::to_string(selector) + ")");
  }
  char load[32];
  std::snprintf(load, sizeof load, "%.2f", resident_->load_seconds());
  std::string how;
  if (resident_->image_load() == ResidentPath::ImageLoad::from_store) {
    how = ", its JIT for this GPU and driver from the module store";
  } else if (resident_->image_load() == ResidentPath::ImageLoad::jit_compiled) {
    how = ", JIT-compiled for this GPU by the driver" + std::string(o.budget > 0 ? ", within --budget" : "") +
          (resident_->store_problem().empty()
               ? "; kept in the module store " + backends_->module_dir.string() + " for later runs (mmasp prepare does it ahead)"
               : "; " + resident_->store_problem());
  }
  note("GPU-resident path (" + std::string(name(resident_->image())) + " image, loaded in " + load + " s" + how + "): " +
       std::to_string(taken) + " of the " + std::to_string(executed) + " pairs this GPU runs; their random cases beyond the first " + std::to_string(o.resident_sample) +
       (o.budget > 0 ? " of each float pair (" + std::to_string(host_sample_cases(true, o.resident_sample, true)) +
                           " of each integer pair)"
                         : " of each") +
       " are drawn, run and judged on the GPU (model or exact integer result); the host path judges those "
       "first cases by the exact reference and the model, and replays every case the GPU finds deviating");
  for (const auto& [why, listed] : on_host) {
    std::string line = std::to_string(listed.size()) + " pairs stay on the host path: " + why + ": ";
    for (size_t i = 0; i < listed.size(); ++i) line += (i ? ", " : "") + listed[i];
    note(line);
  }
}

}  // namespace mmasp::run
