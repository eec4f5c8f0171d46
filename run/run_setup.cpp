#include "run/run_setup.h"

#include "oracle/numeric_model_table.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace {

// The model tier of a run on a device of compute capability `sm` (0: the emulator, which has none).
ModelTier model_tier_for(int sm, ModelChoice requested, bool candidates) {
  ModelTier tier;
  if (requested == ModelChoice::off || sm == 0) return tier;
  const std::string architecture = "sm_" + std::to_string(sm);
  bool any = false;
  std::string evidence;
  for (const auto& record : model_records())
    if (record.architecture == architecture && (record.verified || candidates)) {
      any = true;
      evidence = record.evidence;
    }
  if (!any) {
    if (requested != ModelChoice::automatic)
      throw UsageError("--model " + std::string(name(requested)) + ": no verified bit-exact model for " + architecture);
    return tier;
  }
  tier.mode = requested == ModelChoice::warn ? ModelMode::warn : ModelMode::strict;
  tier.parameters = [architecture, candidates](const Form& form) { return verified_model(form, architecture, candidates); };
  tier.description = architecture + (candidates ? " candidate bit-exact model (unverified records included; " : " bit-exact model (") +
                     evidence.substr(0, evidence.find(':')) + ")";
  return tier;
}

}  // namespace

RunSetup::RunSetup(const NightlyOptions& o, const std::function<void(const std::string&)>& say,
                   const std::function<void(const std::string&)>& note) {
  choose_backends(o, say, note);
  const bool hardware = backends_->hardware();
  extras_ = hardware && (o.extras == AutoOnOff::on || (o.extras == AutoOnOff::automatic && o.budget <= 0));
  if (hardware && !extras_)
    note("layout discovery, SASS and the compile-path comparison were skipped (--budget run; use --cases or --extras on)");
  layouts_ = hardware ? extras_ && o.layouts.value_or(true) : o.layouts.value_or(false);
  choose_model_tier(o, note);
  choose_resident(o, note);
}

Backend& RunSetup::primary() const {
  if (watched_) return *watched_;
  return faulty_ ? *faulty_ : backends_->primary();
}

void RunSetup::choose_backends(const NightlyOptions& o, const std::function<void(const std::string&)>& say,
                               const std::function<void(const std::string&)>& note) {
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
  backends_.emplace(make_backends(request));
  heartbeat_ = Heartbeat(o.heartbeat_fd);
  if (!o.inject_fault.empty()) {
    const Fault* fault = find_fault(o.inject_fault);
    if (!fault) throw UsageError("--inject-fault: no fault '" + o.inject_fault + "' in the catalogue (mmasp selftest --faults lists them)");
    const std::string architecture = "sm_" + std::to_string(backends_->sm() ? backends_->sm() : 90);
    faulty_ = std::make_unique<FaultyBackend>(backends_->primary(), *fault,
                                              [architecture](const Form& form) { return verified_model(form, architecture); });
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
  if (backends_->hardware()) {
    const DeviceFingerprint d = backends_->device->fingerprint();
    say("mmasp run: GPU " + std::to_string(o.device) + " " + d.name + " (sm_" + std::to_string(d.sm) + "), driver " +
        d.driver_version + ", CUDA driver API " + std::to_string(d.driver_api_version) + ".");
  } else {
    say("mmasp run: " + backends_->why_emulated + ".");
    note("Running compile conformance and the CPU emulator: every result below is emulated, not a hardware result.");
    note("sm_120a forms (kind::f8f6f4, block scale) are compile-checked and emulated only: not executed: no sm_120a device.");
  }
}

void RunSetup::choose_model_tier(const NightlyOptions& o, const std::function<void(const std::string&)>& note) {
  model_tier_ = model_tier_for(backends_->sm(), o.model, o.model_candidates);
  if (model_tier_.mode != ModelMode::off)
    note("model tier " + std::string(name(model_tier_.mode)) + ": " + model_tier_.description +
         "; float forms without a verified model are judged by the spec tier alone");
  else if (backends_->hardware() && o.model == ModelChoice::automatic)
    note("model tier off: no verified bit-exact model for sm_" + std::to_string(backends_->sm()));
}

void RunSetup::choose_resident(const NightlyOptions& o, const std::function<void(const std::string&)>& note) {
  if (o.resident == AutoOnOff::off) return;
  std::string why;
  if (!backends_->hardware()) why = "no GPU";
  else if (!ResidentPath::built()) why = "this build has no resident kernel (no nvcc at build time)";
  else if (faulty_ || (watched_ && !o.inject_worker_fault.empty())) why = "a test-only fault is injected into the host path";
  else if (model_tier_.mode != ModelMode::strict) why = "the model tier is not strict";
  if (why.empty()) {
    try {
      resident_ = std::make_unique<ResidentPath>(*backends_->device);
    } catch (const std::exception& error) {
      why = error.what();
    }
  }
  if (!resident_ && o.resident == AutoOnOff::on) throw UsageError("--resident on: " + why);
  if (resident_)
    note("GPU-resident path: the random suites' cases beyond the first " + std::to_string(o.resident_sample) +
         " of each pair are drawn, run and judged on the GPU (model or exact integer result); the host path judges those "
         "first cases by the exact reference and the model, and replays every case the GPU finds deviating");
  else if (backends_->hardware())
    note("GPU-resident path not used: " + why);
}

}  // namespace mmasp::run
