#include "judge/suites.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "generators/bulk.h"
#include "generators/reproduction.h"
#include "generators/shrink.h"
#include "generators/special_cases.h"
#include "generators/splitmix.h"
#include "harness/fragment_packing.h"
#include "harness/parallel.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model.h"
#include "oracle/reference.h"
#include "generators/stream_salts.h"
#include "oracle/sparse.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

using Clock = std::chrono::steady_clock;

// The stream of one suite of one selector: each suite (salt) and selector draws its own cases from the run's seed.
uint64_t suite_seed(uint64_t seed, uint64_t salt, int selector) {
  return (seed ^ salt) + uint64_t(selector) * kSplitMixGamma;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Runs body(i) for i in [0, count) on `threads` threads.

std::string describe_origin(const SuiteContext& context, const Form& form, int selector, const std::string& name) {
  return std::string(context.backend.description()) + "; " + form.opcode + " selector " + std::to_string(selector) +
         "; " + name + "; seed " + std::to_string(context.seed);
}

void shrink_and_keep(SuiteContext& context, SuiteResult& result, const Form& form, int selector, const MmaCase& test,
                     const std::vector<uint32_t>& observed, const CaseVerdict& verdict, const std::string& name,
                     const SuiteLimits& limits) {
  if (result.failure) return;
  CaseFailure failure{name, test, observed, verdict, 0, ""};
  auto still_fails = [&](const MmaCase& candidate) {
    auto d = execute(context.backend, form, selector, {candidate});
    return is_failure(judge(candidate, d[0]).status);
  };
  gen::ShrinkStats stats;
  failure.test = gen::shrink_case(test, still_fails, limits.shrink_attempts, &stats);
  failure.shrink_attempts = stats.attempts;
  failure.observed = execute(context.backend, form, selector, {failure.test})[0];
  failure.verdict = judge(failure.test, failure.observed);
  if (!is_failure(failure.verdict.status)) {  // flaky: keep the original
    failure.test = test;
    failure.observed = observed;
    failure.verdict = verdict;
  }
  if (!context.failure_dir.empty()) {
    std::string line = gen::save_failure(failure.test, std::span<const uint32_t>(failure.observed),
                                         describe_origin(context, form, selector, name), {}, context.failure_dir,
                                         context.backend.architecture());
    failure.saved_to = line;
    if (context.log) context.log(line);
  }
  result.failure = std::move(failure);
}

// Shrinks a case whose D differs from the model's (while the difference stays) and keeps the first such case.
void shrink_and_keep_deviation(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                               const ModelParameters& parameters, const MmaCase& test, const std::vector<uint32_t>& observed,
                               Status spec_status, const std::string& name, const SuiteLimits& limits) {
  if (result.deviation) return;
  auto still_deviates = [&](const MmaCase& candidate) {
    const auto predicted = model_prediction(candidate, parameters);
    if (!predicted) return false;
    const auto d = execute(context.backend, form, selector, {candidate});
    return d[0] != *predicted && !is_failure(judge(candidate, d[0]).status);
  };
  ModelDeviationReport report;
  report.case_name = name;
  gen::ShrinkStats stats;
  report.test = gen::shrink_case(test, still_deviates, limits.shrink_attempts, &stats);
  report.shrink_attempts = stats.attempts;
  report.observed = execute(context.backend, form, selector, {report.test})[0];
  auto predicted = model_prediction(report.test, parameters);
  if (!predicted || *predicted == report.observed) {   // intermittent: keep the original
    report.test = test;
    report.observed = observed;
    predicted = model_prediction(test, parameters);
  }
  report.predicted = predicted.value_or(std::vector<uint32_t>{});
  report.spec_status = spec_status;
  for (size_t e = 0; e < report.observed.size() && e < report.predicted.size(); ++e)
    if (report.observed[e] != report.predicted[e]) {
      if (!report.deviating_elements) {
        report.row = int(e) / form.shape.n;
        report.col = int(e) % form.shape.n;
      }
      ++report.deviating_elements;
    }
  if (!context.failure_dir.empty() && !report.predicted.empty()) {
    const size_t e = size_t(report.row * form.shape.n + report.col);
    const std::vector<std::string> comments = {
        "model deviation: D[" + std::to_string(report.row) + "][" + std::to_string(report.col) + "] observed " +
            hex_code(report.observed[e]) + ", model " + hex_code(report.predicted[e]) + ", differing bits " +
            hex_code(report.observed[e] ^ report.predicted[e]) + " (" + std::to_string(report.deviating_elements) +
            " elements differ; spec tier: " + std::string(mmasp::name(spec_status)) + ")",
        "model: " + context.model.description + ": " + parameters.str()};
    report.saved_to = gen::save_failure(report.test, std::span<const uint32_t>(report.observed),
                                        describe_origin(context, form, selector, name + " (model deviation)"), comments,
                                        std::filesystem::path(context.failure_dir) / ".." / "deviations",
                                        context.backend.architecture());
    // "repro: mmasp eval FILE   # origin": the same model judges it again only when eval is told which record it was.
    if (const size_t comment = report.saved_to.find("   # "); comment != std::string::npos && !context.model.eval_options.empty())
      report.saved_to.insert(comment, " " + context.model.eval_options);
    if (context.log) context.log(report.saved_to);
  }
  result.deviation = std::move(report);
}

// An intermittent result is never a Pass nor an ordinary Fail: the failing and deviating cases of a batch (up to
// limits.replays per suite) run again, together, and a case whose D is not bit for bit the first run's becomes
// Intermittent, with both results kept and its case file saved.
void replay_failures(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                     const std::vector<MmaCase>& cases, const std::vector<std::string>& names,
                     const std::vector<std::vector<uint32_t>>& observed, std::vector<CaseJudgement>& judgements,
                     const SuiteLimits& limits) {
  std::vector<size_t> chosen;
  for (size_t i = 0; i < cases.size() && result.replayed + chosen.size() < limits.replays; ++i)
    if (is_failure(judgements[i].verdict.status)) chosen.push_back(i);
  if (chosen.empty()) return;
  std::vector<MmaCase> again;
  for (size_t i : chosen) again.push_back(cases[i]);
  const auto replay = execute(context.backend, form, selector, again, context.threads);
  result.replayed += chosen.size();
  for (size_t k = 0; k < chosen.size(); ++k) {
    const size_t i = chosen[k];
    if (replay[k] == observed[i]) continue;
    judgements[i].verdict.status = Status::intermittent;
    ++result.intermittent;
    if (result.intermittent_case) continue;
    IntermittentReport report{names.empty() ? "random" : names[i], cases[i], observed[i], replay[k], 0, 0, 0, ""};
    for (size_t e = 0; e < replay[k].size(); ++e)
      if (replay[k][e] != observed[i][e] && report.differing_elements++ == 0) {
        report.row = int(e) / form.shape.n;
        report.col = int(e) % form.shape.n;
      }
    if (!context.failure_dir.empty()) {
      const size_t e = size_t(report.row * form.shape.n + report.col);
      const std::vector<std::string> comments = {
          "intermittent: run again, D[" + std::to_string(report.row) + "][" + std::to_string(report.col) + "] was " +
          hex_code(report.replay[e]) + " instead of " + hex_code(report.first[e]) + " (" +
          std::to_string(report.differing_elements) + " elements differ between the two runs); observed_d is the first run's"};
      report.saved_to = gen::save_failure(report.test, std::span<const uint32_t>(report.first),
                                          describe_origin(context, form, selector, report.case_name + " (intermittent)"),
                                          comments, std::filesystem::path(context.failure_dir) / ".." / "intermittent",
                                          context.backend.architecture());
      if (context.log) context.log(report.saved_to);
    }
    result.intermittent_case = std::move(report);
  }
}

// first_index: the suite-wide index of cases[0] (which random cases the exact reference samples).
void judge_batch(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                 const std::vector<MmaCase>& cases, const std::vector<std::string>& names, const SuiteLimits& limits,
                 uint64_t first_index = 0) {
  const auto observed = execute(context.backend, form, selector, cases, context.threads);
  for (size_t i = 0; i < cases.size(); ++i) result.digest.add(first_index + i, observed[i]);
  std::vector<CaseJudgement> judgements(cases.size());
  const std::optional<ModelParameters> model =
      context.model.active_for(form) ? context.model.parameters(form) : std::nullopt;
  parallel_for(cases.size(), context.threads, [&](size_t i) {
    const uint64_t index = first_index + i;
    const bool sampled = !names.empty() || index < context.model.reference_first ||
                         (context.model.reference_every && index % context.model.reference_every == 0);
    judgements[i] = judge_case(cases[i], observed[i], model ? &*model : nullptr, context.model.mode, sampled);
  });
  replay_failures(context, result, form, selector, cases, names, observed, judgements, limits);
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseJudgement& judged = judgements[i];
    const CaseVerdict& verdict = judged.verdict;
    const std::string name = names.empty() ? "random" : names[i];
    // An intermittent case is kept with both results; nothing to shrink, it does not reproduce.
    if (judged.deviation && verdict.status != Status::intermittent)
      shrink_and_keep_deviation(context, result, form, selector, *model, cases[i], observed[i], judged.spec_status, name, limits);
    if (verdict.status == Status::quality_warning) {
      double worst = 0;
      for (const auto& e : verdict.elements) worst = std::max(worst, e.error_relative_to_bound);
      double previous = 0;
      if (result.closest_to_bound)
        for (const auto& e : result.closest_to_bound->verdict.elements) previous = std::max(previous, e.error_relative_to_bound);
      if (!result.closest_to_bound || worst > previous)
        result.closest_to_bound = CaseFailure{name, cases[i], observed[i], verdict, 0, ""};
    }
    result.count(judged);
    if (!names.empty() && names[i].find('#') == std::string::npos) result.named_cases.push_back({names[i], verdict.status});
    if (is_failure(verdict.status)) {
      if (!names.empty()) result.failing_special_cases.push_back(names[i]);
      if (verdict.status == Status::deviation) continue;   // kept above, with the model's prediction
      if (verdict.status == Status::intermittent) continue;   // nothing to shrink: it does not reproduce
      shrink_and_keep(context, result, form, selector, cases[i], observed[i], verdict, name, limits);
    }
  }
}

}  // namespace

std::string probe_out_of_range_selector(Backend& backend, const Form& form, int value, uint64_t seed) {
  const int count = int(form.selectors.size());
  std::vector<MmaCase> probes;
  gen::Options in_range;
  in_range.selector = value % count;
  for (uint64_t i = 0; i < 64; ++i) {
    gen::BulkGenerator generator(gen::case_seed((seed ^ gen::salt::kOutOfRangeSelector) + uint64_t(value), form, i));
    MmaCase test;
    generator.next(form, test, in_range);
    probes.push_back(std::move(test));
  }
  std::vector<std::vector<uint32_t>> observed;
  try {
    observed = execute(backend, form, value, probes);
  } catch (const std::exception& error) {
    return std::string("failed: ") + error.what();
  }
  uint64_t same = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    const ReferenceResult expected = reference(probes[i]);
    bool equal = true;
    for (size_t e = 0; e < expected.d.size() && equal; ++e) equal = expected.d[e].rounded_code == observed[i][e];
    same += equal;
  }
  return "ran: " + std::to_string(same) + " of " + std::to_string(probes.size()) +
         " cases gave exactly the result of selector " + std::to_string(value % count);
}

uint64_t random_stream_seed(uint64_t seed, int selector) { return suite_seed(seed, gen::salt::kRandomSuite, selector); }

void special_suite_cases(const Form& form, int selector, uint64_t seed, uint32_t generated, std::vector<MmaCase>& cases,
                         std::vector<std::string>& names) {
  for (auto& named : gen::special_value_cases(form, selector)) {
    cases.push_back(std::move(named.test));
    names.push_back(named.name);
  }
  // Plus generated cases of the special-value profile, seeded like the random suite.
  gen::Options options;
  options.profile = gen::Profile::special_values;
  options.selector = selector;
  for (uint64_t i = 0; i < generated; ++i) {
    gen::BulkGenerator generator(gen::case_seed(suite_seed(seed, gen::salt::kSpecialSuite, selector), form, i));
    MmaCase test;
    generator.next(form, test, options);
    cases.push_back(std::move(test));
    names.push_back("special-profile #" + std::to_string(i));
  }
}

void judge_random_indices(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                          const std::vector<uint64_t>& indices, const SuiteLimits& limits) {
  if (indices.empty()) return;
  gen::Options options;
  options.selector = selector;
  const gen::CaseSeeds seeds(random_stream_seed(context.seed, selector), form);
  std::vector<MmaCase> cases(indices.size());
  std::vector<std::string> names(indices.size());
  parallel_for(indices.size(), context.threads, [&](size_t i) {
    gen::BulkGenerator(seeds.of(indices[i])).next(form, cases[i], options);
    names[i] = "random #" + std::to_string(indices[i]);
  });
  const ResultDigest digest = result.digest;   // the digest is of the host path's own cases, in order
  judge_batch(context, result, form, selector, cases, names, limits);
  result.digest = digest;
}

SuiteResult run_suite(SuiteContext& context, const Form& form, int selector, Suite suite, const SuiteLimits& limits) {
  SuiteResult result;
  result.form = &form;
  result.selector = selector;
  result.suite = suite;
  result.backend = context.backend.description();
  result.emulated = !context.backend.is_hardware();
  result.seed = context.seed;
  if (context.model.active_for(form) && suite != Suite::undefined)
    result.model = context.model.description + " (" + std::string(name(context.model.mode)) + ")";
  const auto start = Clock::now();
  std::string why;
  if (!context.backend.supports(form, &why)) {
    result.status = Status::not_supported;
    result.note = why;
    return result;
  }
  try {
    if (suite == Suite::special) {
      std::vector<MmaCase> cases;
      std::vector<std::string> names;
      if (context.first_cases) cases = context.first_cases(form, selector);
      for (size_t i = 0; i < cases.size(); ++i) names.push_back("compact #" + std::to_string(i));
      special_suite_cases(form, selector, context.seed, limits.special_generated, cases, names);
      judge_batch(context, result, form, selector, cases, names, limits);
    } else if (suite == Suite::random) {
      gen::Options options;
      options.selector = selector;
      uint64_t index = 0;
      // Under a time limit the batches follow the measured rate, so that the last one ends near the limit instead of
      // up to a whole batch of 4096 slow cases (a k128 form on the emulator) after it.
      uint64_t batch = limits.seconds > 0 ? std::min<uint64_t>(limits.batch, std::max<uint64_t>(limits.min_cases, 64)) : limits.batch;
      while (index < limits.min_cases || (index < limits.max_cases && seconds_since(start) < limits.seconds)) {
        uint64_t count = std::min<uint64_t>(batch, std::max(limits.min_cases, limits.max_cases) - index);
        if (index < limits.min_cases) count = std::min<uint64_t>(count, std::max<uint64_t>(limits.min_cases - index, batch));
        if (count == 0) break;
        const auto batch_start = Clock::now();
        if (context.stop && context.stop()) {
          result.interrupted = true;
          break;
        }
        std::vector<MmaCase> cases(count);
        const gen::CaseSeeds seeds(suite_seed(context.seed, gen::salt::kRandomSuite, selector), form);
        parallel_for(count, context.threads, [&](size_t i) { gen::BulkGenerator(seeds.of(index + i)).next(form, cases[i], options); });
        judge_batch(context, result, form, selector, cases, {}, limits, index);
        index += count;
        if (limits.seconds > 0) {
          const double took = seconds_since(batch_start), left = limits.seconds - seconds_since(start);
          if (took > 0 && left > 0)
            batch = std::clamp<uint64_t>(uint64_t(double(count) / took * left * 0.5), 16, limits.batch);
        }
      }
    } else {
      // Undefined behaviour, in its own launches: cases that are UB for a stated reason, never judged. The run only
      // has to survive them; what the hardware did is noted.
      gen::Options options;
      options.undefined_behaviour = true;
      options.selector = selector;
      std::vector<MmaCase> cases;
      for (uint64_t i = 0; cases.size() < limits.special_generated && i < 100000; ++i) {
        gen::BulkGenerator generator(gen::case_seed(suite_seed(context.seed, gen::salt::kUndefinedSuite, selector), form, i));
        MmaCase test;
        generator.next(form, test, options);
        if (!undefined_behaviour(test).empty()) cases.push_back(std::move(test));
      }
      const auto observed = execute(context.backend, form, selector, cases, context.threads);
      for (size_t i = 0; i < cases.size(); ++i) {
        ++result.cases;
        ++result.not_judged;
        // Unordered metadata under ::ordered_metadata is the only UB here that .sp defines: compare with that.
        bool unordered_only = true;
        for (uint32_t nibble : cases[i].nibbles)
          if (validity(form.sparsity, nibble) == MetadataValidity::undefined) unordered_only = false;
        if (std::find(form.selectors.begin(), form.selectors.end(), cases[i].selector) == form.selectors.end()) unordered_only = false;
        if (form.block_scale) unordered_only = false;
        if (!unordered_only) continue;
        ++result.ub_unordered_only;
        const ReferenceResult sp = reference(cases[i]);
        bool same = true;
        for (size_t e = 0; e < sp.d.size() && same; ++e) same = sp.d[e].rounded_code == observed[i][e];
        result.ub_like_sp += same;
      }
      result.status = Status::ub_not_judged;
      result.note = "UB: not judged; " + std::to_string(result.cases) + " cases survived";

      if (result.ub_unordered_only)
        result.note += "; " + std::to_string(result.ub_like_sp) + " of " + std::to_string(result.ub_unordered_only) +
                       " unordered-metadata cases gave exactly what .sp computes";
    }
  } catch (const std::exception& error) {
    result.status = Status::crash;
    result.note = error.what();
  }
  if (result.closest_to_bound && !context.failure_dir.empty()) {
    result.closest_to_bound->saved_to =
        gen::save_failure(result.closest_to_bound->test, std::span<const uint32_t>(result.closest_to_bound->observed),
                          describe_origin(context, form, selector, "closest to the spec bound (QualityWarning)"), {},
                          std::filesystem::path(context.failure_dir) / ".." / "closest-to-bound", context.backend.architecture());
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace mmasp
