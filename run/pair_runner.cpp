#include "run/pair_runner.h"

#include <algorithm>

#include "generators/bulk.h"
#include "generators/stream_salts.h"
#include "harness/layout_discovery.h"
#include "harness/parallel.h"
#include "harness/sass.h"
#include "run/pair_coverage.h"
#include "resident/resident_source.h"
#include "judge/resident_suite.h"
#include "run/nightly.h"

namespace mmasp::run {

using Clock = std::chrono::steady_clock;

std::vector<SassRecord> disassemble_all(const std::vector<SassJob>& jobs, unsigned threads) {
  std::vector<SassRecord> sass(jobs.size());
  parallel_for(
      jobs.size(), threads,
      [&](size_t i) {
        const SassJob& job = jobs[i];
        std::string why_not = job.why_not;
        std::optional<SassSummary> summary;
        if (why_not.empty()) {
          try {
            summary = disassemble(job.cubin, &why_not);
          } catch (const std::exception& error) {
            why_not = error.what();
          }
        }
        sass[i] = sass_record(*job.form, job.selector, job.path, summary, why_not);
      },
      1);
  return sass;
}

PairRunner::PairRunner(const NightlyOptions& options, RunSetup& setup, SuiteContext& context, const IsolatedUb& isolated_ub,
                       PhaseClock& clock, std::function<double()> elapsed, std::function<bool()> stop, BudgetPlan plan)
    : o_(options), setup_(setup), context_(context), isolated_ub_(isolated_ub), clock_(clock), elapsed_(std::move(elapsed)),
      stop_(std::move(stop)), plan_(std::move(plan)) {}

void PairRunner::add(PairWork& work, ResultRecord result) {
  if (result.emulated)
    if (const Form* form = find_form(result.form))
      result.note = result.note.empty() ? emulation_label(*form) : emulation_label(*form) + "; " + result.note;
  work.cases += result.cases;
  work.failures += is_failure(result.status);
  work.journal.results.push_back(std::move(result));
}

PairWork PairRunner::run(size_t index, const Form& form, int selector) {
  const auto pair_start = Clock::now();
  setup_.heartbeat().send(WorkerMessage::pair(index, !setup_.hardware(), selector, form.opcode));
  PairWork work;
  work.journal.form = form.opcode;
  work.journal.selector = selector;
  std::string why;
  if (!setup_.primary().supports(form, &why)) {
    for (Suite suite : {Suite::random, Suite::special})
      add(work, result_record(form.opcode, selector, suite, Status::not_supported, setup_.primary().description(), why));
    work.journal.elapsed_seconds = elapsed_();
    return work;
  }
  SuiteLimits limits;
  limits.special_generated = special_generated_for(index);
  add(work, record_of(clock_("special suites", [&] { return run_suite(context_, form, selector, Suite::special, limits); })));
  if (stop_()) return PairWork{.interrupted = true};
  if (o_.ub) undefined(form, selector, limits, work);
  if (setup_.extras() || setup_.layouts()) extras(form, selector, work);
  if (stop_()) return PairWork{.interrupted = true};
  // Before the random suite: its time is part of the pair's fixed work the --budget plan measures.
  std::optional<CoverageSummary> coverage;
  if (coverage_on()) coverage = clock_("fault coverage", [&] { return fault_coverage_of(form, selector, limits); });
  const SuiteLimits random = random_limits(index, pair_start);
  SuiteResult result = random_suite(form, selector, random);
  if (result.interrupted) return PairWork{.interrupted = true};
  result.coverage = std::move(coverage);
  if (coverage_on() && result.resident)
    result.resident_coverage = clock_("fault coverage", [&] { return resident_coverage_of(form, selector, *result.resident); });
  ResultRecord record = record_of(result);
  if (o_.budget > 0) {
    record.planned = PlannedShare{plan_.weight(index), plan_.share(index), random.seconds};
    if (plan_.weight(index) > 0) {
      overrun_seconds_ += std::max(0.0, record.seconds - random.seconds);
      ++overrun_pairs_;
    }
  }
  add(work, std::move(record));
  work.journal.elapsed_seconds = elapsed_();
  return work;
}

// --budget is the whole run's wall time, whatever the machine's load: when the fixed work of the pairs left (their
// special suites, measured on the pairs so far) no longer fits the time left, the generated special cases — most of that
// work — are cut in the same proportion. The named special cases always run, and the reports say how many pairs were
// cut. The measure follows the clock, so a machine that slows down mid-run is seen at the next pair.
uint32_t PairRunner::special_generated_for(size_t index) {
  if (o_.budget <= 0 || fixed_pairs_ == 0) return o_.special_generated;
  const double tail = std::min(1.0, 0.01 * o_.budget);
  const double left = o_.budget - elapsed_() - tail;
  const double per_pair = fixed_seconds_ / double(fixed_pairs_);
  const double pairs_left = double(plan_.weighted_after(index) + (plan_.weight(index) > 0 ? 1 : 0));
  const double needed = per_pair * pairs_left;
  if (needed <= left || pairs_left == 0) return o_.special_generated;
  const uint32_t cut = left <= 0 ? 0u : uint32_t(double(o_.special_generated) * left / needed);
  ++special_cut_pairs_;
  fewest_special_generated_ = std::min(fewest_special_generated_, cut);
  return cut;
}

// auto: on a GPU, without --budget. A run's first simulation of a build costs seconds per pair (later runs read the
// cache), which a --budget run would take from its random cases.
bool PairRunner::coverage_on() const {
  return o_.coverage == AutoOnOff::on ||
         (o_.coverage == AutoOnOff::automatic && setup_.hardware() && o_.budget <= 0);
}

// Whether the fault model can simulate the form's datapath here: integer forms always, float forms where the run
// knows the device's arithmetic (`p`).
bool PairRunner::datapath_of(const Form& form, std::optional<ModelParameters>& p) const {
  if (!fault_model_applies(form)) return false;
  if (form.is_integer()) return true;
  if (const ModelLookup arithmetic = setup_.arithmetic()) p = arithmetic(form);
  return p.has_value();
}

// The pair's stream as the run draws it: the compact set, the special suite, and the random suite's first cases — as
// many as the host path judges here (on the resident path, the host sample; the GPU draws the same stream further),
// at most kCoverageRandomCases.
std::optional<CoverageSummary> PairRunner::fault_coverage_of(const Form& form, int selector, const SuiteLimits& special) {
  std::optional<ModelParameters> p;
  if (!datapath_of(form, p)) return std::nullopt;
  CoverageStream stream;
  stream.seed = o_.seed;
  stream.special_generated = special.special_generated;
  stream.random_cases = std::min<uint64_t>(resident_judges(form) || o_.budget > 0 ? host_sample(form) : random_cases(),
                                           kCoverageRandomCases);
  if (context_.first_cases) stream.files = context_.first_cases(form, selector);
  return pair_coverage(form, selector, p ? &*p : nullptr, stream, o_.threads, default_coverage_cache_dir());
}

// The resident kernel's share of the random stream: the cases after the host sample, the first
// kCoverageRandomCases of them (coverage only grows with more cases of the same stream).
std::optional<CoverageSummary> PairRunner::resident_coverage_of(const Form& form, int selector,
                                                                const ResidentSummary& resident) {
  std::optional<ModelParameters> p;
  if (resident.checked == 0 || !datapath_of(form, p)) return std::nullopt;
  CoverageStream stream;
  stream.seed = o_.seed;
  stream.special = false;
  stream.random_first = resident.first_index;
  stream.random_cases = std::min<uint64_t>(resident.checked, kCoverageRandomCases);
  return pair_coverage(form, selector, p ? &*p : nullptr, stream, o_.threads, default_coverage_cache_dir());
}

uint64_t PairRunner::random_cases() const { return o_.cases ? o_.cases : (setup_.hardware() ? 10000 : 64); }

// --budget is the whole run's wall time. The random suite gets its planned share (run/budget_plan.h) of what is left
// once the pairs after this one have done their own fixed work (special suites, UB, extras: estimated by the mean of
// the pairs so far), have run past their own shares as the pairs so far did on average, and the reports are written.
// Without that second estimate every pair's small overrun (a host sample and a first launch a short share cannot hold)
// fell on the last pairs, and the last pair was left no time.
SuiteLimits PairRunner::random_limits(size_t index, Clock::time_point pair_start) {
  SuiteLimits limits;
  limits.special_generated = o_.special_generated;
  if (o_.budget <= 0) {
    limits.min_cases = limits.max_cases = random_cases();
    return limits;
  }
  fixed_seconds_ += std::chrono::duration<double>(Clock::now() - pair_start).count();
  ++fixed_pairs_;
  const double tail = std::min(1.0, 0.01 * o_.budget);   // disassembly and the reports
  const double overrun = overrun_pairs_ ? overrun_seconds_ / double(overrun_pairs_) : 0.0;
  const double left = o_.budget - elapsed_() -
                      (fixed_seconds_ / double(fixed_pairs_) + overrun) * double(plan_.weighted_after(index)) - tail;
  limits.min_cases = 64;
  limits.seconds = plan_.seconds_for(index, left);
  // Nothing left for this pair (the pairs before it took longer than estimated): the floor of cases, no more — a suite
  // without a time limit would run its whole first batch.
  limits.max_cases = limits.seconds > 0 ? uint64_t(1) << 40 : limits.min_cases;
  return limits;
}

uint64_t PairRunner::host_sample(const Form& form) const {
  return host_sample_cases(form.is_integer(), o_.resident_sample, o_.budget > 0);
}

bool PairRunner::resident_judges(const Form& form) const {
  if (!setup_.host_path_reason(form).empty()) return false;
  // --cases N within the host sample: the host path judges them all, as without the resident path.
  return o_.budget > 0 || random_cases() > o_.resident_sample;
}

// On the GPU-resident path (judge/resident_suite.h) where it judges the pair, with the worker's heartbeat around each
// launch (a GPU case costs about a thousandth of a host one); else on the host path.
SuiteResult PairRunner::random_suite(const Form& form, int selector, const SuiteLimits& limits) {
  if (!resident_judges(form))
    return clock_("random suites", [&] { return run_suite(context_, form, selector, Suite::random, limits); });
  ResidentSuitePlan plan;
  plan.host_sample = host_sample(form);
  Heartbeat& heartbeat = setup_.heartbeat();
  plan.before_launch = [&heartbeat](uint64_t cases) { heartbeat.send(WorkerMessage::batch(std::max<uint64_t>(1, cases / 1000))); };
  plan.after_launch = [&heartbeat] { heartbeat.send(WorkerMessage::beat()); };
  return clock_("random suites (resident)",
                [&] { return run_resident_random(context_, *setup_.resident(), form, selector, limits, plan); });
}

void PairRunner::undefined(const Form& form, int selector, const SuiteLimits& limits, PairWork& work) {
  clock_("undefined behaviour (incl. its processes)", [&] {
    if (setup_.hardware()) {
      add(work, isolated_ub_.result(form, selector, setup_.primary().description()));
      return;
    }
    SuiteResult ub = run_suite(context_, form, selector, Suite::undefined, limits);
    if (selector == form.selectors.front())
      for (int value = int(form.selectors.size()); value < kSelectorOperandValues; ++value)
        ub.out_of_range_selectors.push_back({value, probe_out_of_range_selector(setup_.primary(), form, value, o_.seed)});
    add(work, record_of(ub));
  });
}

CompilePathComparison PairRunner::compare_compile_paths(const Form& form, int selector) const {
  CompilePathComparison compare{form.opcode, selector, std::nullopt, std::nullopt, false, ""};
  try {
    std::vector<MmaCase> cases(1024);
    gen::Options options;
    options.selector = selector;
    for (size_t i = 0; i < cases.size(); ++i) {
      gen::BulkGenerator generator(gen::case_seed(o_.seed ^ gen::salt::kCompilePaths, form, i));
      generator.next(form, cases[i], options);
    }
    const auto first = execute(*setup_.backends().all[0], form, selector, cases, o_.threads);
    const auto second = execute(*setup_.backends().all[1], form, selector, cases, o_.threads);
    uint64_t differing = 0;
    for (size_t i = 0; i < cases.size(); ++i) differing += first[i] != second[i];
    compare.cases = cases.size();
    compare.identical = differing == 0;
    compare.differing_cases = differing;
    if (differing) compare.note = std::to_string(differing) + " of 1024 cases differ between toolkit and driver JIT";
  } catch (const std::exception& error) {
    compare.note = std::string("could not compare: ") + error.what();
  }
  return compare;
}

std::vector<SassJob> PairRunner::sass_of(const Form& form, int selector) const {
  std::vector<SassJob> jobs;
  for (GpuBackend* gpu : setup_.backends().gpu) {
    SassJob job{&form, selector, std::string(name(gpu->path())), "", ""};
    try {
      job.cubin = gpu->cubin(form, selector);
    } catch (const std::exception& error) {
      job.why_not = error.what();
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

void PairRunner::extras(const Form& form, int selector, PairWork& work) {
  if (setup_.extras()) clock_("SASS and compile-path comparison", [&] {
    work.sass = sass_of(form, selector);
    if (setup_.backends().all.size() > 1) work.journal.compile_path = compare_compile_paths(form, selector);
  });
  if (setup_.layouts())
    work.journal.layout = clock_("layout discovery", [&] { return record_of(discover_layout(setup_.primary(), form, selector)); });
}

}  // namespace mmasp::run
