// mmasp selftest --faults: runs the default suites (the special set and random cases, both judging tiers) through
// every injected fault of the catalogue (fault_injection.h) on every selected form and selector, and reports whether
// the run caught each fault where it changed any result, and which tier caught it. A clean run comes first: the
// selftest means nothing if the suites fail without a fault.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "judge/suites.h"
#include "harness/fault_injection.h"

namespace mmasp {

struct FaultPairOutcome {
  const Form* form = nullptr;
  int selector = 0;
  uint64_t cases = 0, changed = 0;   // cases run, cases whose D the fault changed
  Status status = Status::pass;      // the worst suite status
  bool spec_caught = false;          // a Fail, Crash or Timeout
  bool model_caught = false;         // a Deviation
  bool model_judged = false;         // a bit-exact model tier judged the pair (else only the spec bound, or exact integers)
  bool caught() const { return spec_caught || model_caught; }
};

struct FaultOutcome {
  const Fault* fault = nullptr;
  std::vector<FaultPairOutcome> pairs;   // the pairs the fault applies to
  size_t affected() const;               // pairs where it changed at least one result
  size_t caught() const;                 // affected pairs the run caught
  size_t caught_by_model_only() const;   // ... by the model tier alone
  std::vector<const FaultPairOutcome*> missed() const;   // affected and not caught, where the tiers could see it
  // Affected and not caught where nothing could: an in-bound fault (Fault::in_bound) on a float pair that no bit-exact
  // model judges, whose changes the spec bound allowed. Listed, never counted as caught.
  std::vector<const FaultPairOutcome*> unseeable() const;
};

struct SelftestOptions {
  uint64_t random_cases = 2000;
  uint32_t special_generated = 64;
  uint64_t seed = 1;
  unsigned threads = 1;
};

struct SelftestReport {
  std::vector<FaultPairOutcome> control;   // the run without a fault
  std::vector<FaultOutcome> faults;
  bool control_clean() const;
  bool all_caught() const;
};

// `arithmetic`: the true model of the backend (numerics faults change it); `tier`: the model tier of the run.
SelftestReport run_fault_selftest(Backend& backend, const std::vector<std::pair<const Form*, int>>& pairs,
                                  const std::vector<const Fault*>& faults, const ModelTier& tier,
                                  const ModelLookup& arithmetic, const SelftestOptions& options,
                                  const std::function<void(const std::string&)>& progress = {});

}  // namespace mmasp
