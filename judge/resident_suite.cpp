#include "judge/resident_suite.h"

#include <algorithm>
#include <chrono>

namespace mmasp {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

LaunchTotals run_launches(ResidentPath& path, const Form& form, int selector, const ModelParameters* model,
                          uint64_t stream_seed, const LaunchPlan& plan) {
  LaunchTotals totals;
  totals.next_index = plan.first_index;
  const uint64_t end = plan.cases ? plan.first_index + *plan.cases : UINT64_MAX;
  const auto start = Clock::now();
  uint64_t launch = uint64_t(1) << 20;
  for (bool first = true;; first = false) {
    // Every pair gets at least one launch, even when what came before used up its time.
    if (plan.seconds && !first && seconds_since(start) >= *plan.seconds) break;
    if (!plan.seconds && totals.next_index >= end) break;
    if (plan.stop && plan.stop()) {
      totals.stopped = true;
      break;
    }
    const uint64_t count = plan.seconds ? launch : std::min(launch, end - totals.next_index);
    if (plan.before) plan.before(count);
    const uint32_t room = uint32_t(plan.kept - std::min<size_t>(plan.kept, totals.deviating_indices.size()));
    const ResidentResult r = path.check(form, selector, model, stream_seed, totals.next_index, count, plan.fault, room);
    if (plan.after) plan.after();
    totals.counts.generated += r.counts.generated;
    totals.counts.checked += r.counts.checked;
    totals.counts.deviating += r.counts.deviating;
    totals.counts.recorded += r.counts.recorded;
    totals.counts.fault_changed += r.counts.fault_changed;
    totals.seconds += r.seconds;
    totals.kernel = r.kernel;
    totals.deviating_indices.insert(totals.deviating_indices.end(), r.deviating_indices.begin(), r.deviating_indices.end());
    totals.next_index += count;
    // About half a second per launch: short enough to stop promptly, long enough to keep the GPU busy.
    if (r.seconds > 0) launch = std::clamp<uint64_t>(uint64_t(double(count) * 0.5 / r.seconds), uint64_t(1) << 16, uint64_t(1) << 32);
    if (plan.seconds)
      launch = std::min<uint64_t>(launch, uint64_t(std::max(1.0, double(count) / std::max(r.seconds, 1e-6) *
                                                                     std::max(0.05, *plan.seconds - seconds_since(start)))));
  }
  return totals;
}

SuiteResult run_resident_random(SuiteContext& context, ResidentPath& path, const Form& form, int selector,
                                const SuiteLimits& limits, const ResidentSuitePlan& plan) {
  const bool budgeted = limits.seconds > 0;
  const uint64_t planned = budgeted ? uint64_t(1) << 62 : limits.max_cases;
  const auto start = Clock::now();
  SuiteLimits host = limits;
  host.min_cases = host.max_cases = std::min<uint64_t>(planned, plan.host_sample);
  host.seconds = 0;
  // The sample stands for the resident cases before the spec: the exact reference judges every one of them, beside
  // the model tier.
  const uint64_t every = context.model.reference_every;
  context.model.reference_every = 1;
  SuiteResult result = run_suite(context, form, selector, Suite::random, host);
  context.model.reference_every = every;
  const double host_seconds = seconds_since(start);
  if (result.interrupted || (is_failure(result.status) && result.status != Status::deviation)) return result;
  const std::optional<ModelParameters> model = form.is_integer() ? std::nullopt : context.model.parameters(form);
  LaunchPlan launches;
  launches.first_index = result.cases;
  if (budgeted) launches.seconds = limits.seconds - seconds_since(start);
  else launches.cases = planned - std::min(planned, result.cases);
  launches.stop = context.stop;
  launches.before = plan.before_launch;
  launches.after = plan.after_launch;
  const LaunchTotals gpu = run_launches(path, form, selector, model ? &*model : nullptr, random_stream_seed(context.seed, selector), launches);
  result.interrupted = gpu.stopped;
  ResidentSummary summary;
  summary.host_sample = result.cases;
  summary.first_index = result.cases;
  summary.generated = gpu.counts.generated;
  summary.checked = gpu.counts.checked;
  summary.deviating = gpu.counts.deviating;
  summary.recorded = gpu.counts.recorded;
  summary.seconds = gpu.seconds;
  summary.host_seconds = host_seconds;
  summary.kernel = gpu.kernel;
  result.count_gpu_cases(summary, !form.is_integer());
  if (!gpu.deviating_indices.empty()) {
    // The host's verdict on each: a failure or deviation reproduces there; a case whose D there is the model's is
    // intermittent (the GPU computed something else once).
    const SuiteResult before = result;
    const std::vector<uint64_t> replay(gpu.deviating_indices.begin(),
                                       gpu.deviating_indices.begin() + std::min<size_t>(gpu.deviating_indices.size(), plan.replays));
    judge_random_indices(context, result, form, selector, replay, limits);
    summary.replayed = replay.size();
    result.settle_replay(before, replay.size(), replay.front());
  }
  result.count_unreplayed(summary);
  result.resident = summary;
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace mmasp
