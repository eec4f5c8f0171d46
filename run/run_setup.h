// What a run runs on and judges with, decided before --out is touched: the backends (run/backends.h), the test-only
// faults around the primary one, a worker's heartbeat, the model tier, the GPU-resident path and whether the per-pair
// extras run. Every refusal — no GPU for --backend gpu, no verified model for --model strict, no resident kernel for
// --resident on, a model record of another architecture — is a UsageError from the constructor, so a refused run
// leaves --out as it was.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/fault_injection.h"
#include "resident/resident.h"
#include "judge/model_source.h"
#include "judge/model_tier.h"
#include "run/backends.h"
#include "run/run_options.h"
#include "run/worker.h"

namespace mmasp::run {

class RunSetup {
 public:
  // `note`: a line for the run's notes (and the terminal), in the order a person reads them. `pairs`: the run's
  // form x selector pairs, for the resident path's account of which it takes.
  RunSetup(const NightlyOptions& options, const std::vector<std::pair<const Form*, int>>& pairs,
           const std::function<void(const std::string&)>& say, const std::function<void(const std::string&)>& note);

  Backends& backends() { return *backends_; }
  const Backends& backends() const { return *backends_; }
  bool hardware() const { return backends_->hardware(); }
  // The backend the suites run on: the device (or the emulator), behind a test-only fault and a worker's watch.
  Backend& primary() const;
  Heartbeat& heartbeat() { return heartbeat_; }
  const ModelTier& model_tier() const { return model_tier_; }
  // What the device computes with, as far as the run knows: the emulator's --emulate arithmetic, else the model
  // tier's (empty where neither is known).
  ModelLookup arithmetic() const { return emulated_ ? emulated_ : model_tier_.parameters; }
  const ModelSource& model_source() const { return model_source_; }
  ResidentPath* resident() const { return resident_.get(); }
  // Why the resident path does not judge this form's random cases (empty: it does): no resident path, the image does
  // not hold the form, or a float form without a strict model.
  std::string host_path_reason(const Form& form) const;
  bool extras() const { return extras_; }     // SASS and the compile-path comparison
  bool layouts() const { return layouts_; }   // layout discovery
  EnvironmentRecord environment() const { return backends_->environment(); }

 private:
  void choose_backends(const NightlyOptions& o, const std::function<void(const std::string&)>& say,
                       const std::function<void(const std::string&)>& note);
  void choose_model_tier(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                         const std::function<void(const std::string&)>& note);
  void wrap_primary(const NightlyOptions& o, const std::function<void(const std::string&)>& note);
  void choose_resident(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                       const std::function<void(const std::string&)>& note);
  void note_resident_pairs(const NightlyOptions& o, const std::vector<std::pair<const Form*, int>>& pairs,
                           const std::function<void(const std::string&)>& note) const;

  std::optional<Backends> backends_;
  Heartbeat heartbeat_{-1};
  std::unique_ptr<FaultyBackend> faulty_;     // --inject-fault (test-only)
  std::unique_ptr<WatchedBackend> watched_;   // a worker's primary backend (run/worker.h)
  ModelTier model_tier_;
  ModelSource model_source_;
  ModelLookup emulated_;                      // --emulate: what the emulator computes with
  std::unique_ptr<ResidentPath> resident_;
  std::string resident_refused_;              // why there is no resident path
  bool extras_ = false, layouts_ = false;
};

}  // namespace mmasp::run
