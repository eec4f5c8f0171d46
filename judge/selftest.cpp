#include "judge/selftest.h"

namespace mmasp {
namespace {

FaultPairOutcome run_pair(Backend& backend, const Form& form, int selector, const ModelTier& tier,
                          const SelftestOptions& options) {
  FaultPairOutcome outcome;
  outcome.form = &form;
  outcome.selector = selector;
  SuiteContext context{backend, options.seed, options.threads, "", {}};
  context.model = tier;
  outcome.model_judged = tier.active_for(form);
  SuiteLimits limits;
  limits.min_cases = limits.max_cases = options.random_cases;
  limits.special_generated = options.special_generated;
  limits.shrink_attempts = 0;   // what was caught matters here, not the minimal case
  for (Suite suite : {Suite::special, Suite::random}) {
    const SuiteResult result = run_suite(context, form, selector, suite, limits);
    outcome.cases += result.cases;
    outcome.status = worse(outcome.status, result.status);
    outcome.spec_caught |= result.spec_tier_failed();
    outcome.model_caught |= result.deviations > 0;
  }
  return outcome;
}

}  // namespace

size_t FaultOutcome::affected() const {
  size_t count = 0;
  for (const auto& p : pairs) count += p.changed > 0;
  return count;
}
size_t FaultOutcome::caught() const {
  size_t count = 0;
  for (const auto& p : pairs) count += p.changed > 0 && p.caught();
  return count;
}
size_t FaultOutcome::caught_by_model_only() const {
  size_t count = 0;
  for (const auto& p : pairs) count += p.changed > 0 && p.model_caught && !p.spec_caught;
  return count;
}
namespace {
// Whether nothing could have seen the fault in this pair: it may stay inside the spec bound, the pair is a float form
// (integer results are exact), and no bit-exact model judged it.
bool beyond_the_tiers(const Fault& fault, const FaultPairOutcome& p) {
  return fault.in_bound && !p.model_judged && !p.form->is_integer();
}
}  // namespace

std::vector<const FaultPairOutcome*> FaultOutcome::missed() const {
  std::vector<const FaultPairOutcome*> out;
  for (const auto& p : pairs)
    if (p.changed > 0 && !p.caught() && !beyond_the_tiers(*fault, p)) out.push_back(&p);
  return out;
}
std::vector<const FaultPairOutcome*> FaultOutcome::unseeable() const {
  std::vector<const FaultPairOutcome*> out;
  for (const auto& p : pairs)
    if (p.changed > 0 && !p.caught() && beyond_the_tiers(*fault, p)) out.push_back(&p);
  return out;
}

bool SelftestReport::control_clean() const {
  for (const auto& p : control)
    if (p.caught()) return false;
  return true;
}
bool SelftestReport::all_caught() const {
  for (const auto& f : faults)
    if (!f.missed().empty()) return false;
  return true;
}

SelftestReport run_fault_selftest(Backend& backend, const std::vector<std::pair<const Form*, int>>& pairs,
                                  const std::vector<const Fault*>& faults, const ModelTier& tier,
                                  const ModelLookup& arithmetic, const SelftestOptions& options,
                                  const std::function<void(const std::string&)>& progress) {
  SelftestReport report;
  for (const auto& [form, selector] : pairs) report.control.push_back(run_pair(backend, *form, selector, tier, options));
  if (progress) progress(std::string("control run without a fault: ") + (report.control_clean() ? "clean" : "NOT clean"));
  for (const Fault* fault : faults) {
    FaultOutcome outcome;
    outcome.fault = fault;
    for (const auto& [form, selector] : pairs) {
      if (!fault->applies(*form, selector)) continue;
      if ((fault->kind == FaultKind::numerics || (fault->kind == FaultKind::datapath && !form->is_integer())) &&
          !(arithmetic && arithmetic(*form)))
        continue;   // no arithmetic to change, or to simulate the datapath of
      FaultyBackend faulty(backend, *fault, arithmetic);
      FaultPairOutcome pair = run_pair(faulty, *form, selector, tier, options);
      pair.changed = faulty.changed_cases();
      outcome.pairs.push_back(pair);
    }
    if (progress)
      progress(fault->id + ": " + std::to_string(outcome.caught()) + " of " + std::to_string(outcome.affected()) +
               " affected pairs caught (" + std::to_string(outcome.caught_by_model_only()) + " by the model tier alone; " +
               std::to_string(outcome.pairs.size()) + " pairs applicable)");
    report.faults.push_back(std::move(outcome));
  }
  return report;
}

}  // namespace mmasp
