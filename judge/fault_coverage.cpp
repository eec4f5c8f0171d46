#include "judge/fault_coverage.h"

#include <chrono>
#include <cstdio>

#include "generators/bulk.h"
#include "harness/parallel.h"
#include "judge/case_judgement.h"
#include "judge/suites.h"

namespace mmasp {
namespace {

struct StreamCase {
  MmaCase test;
  std::string name;
  uint64_t index = 0;
  std::optional<std::vector<uint32_t>> clean;  // nullopt: undefined inputs (excluded)
};

}  // namespace

CoverageCases::CoverageCases(const Form& form, int selector, const CoverageStream& stream)
    : form_(form), stream_(stream), random_seeds_(random_stream_seed(stream.seed, selector), form) {
  cases_ = stream.files;
  names_ = stream.file_names;
  names_.resize(cases_.size());
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i].empty()) names_[i] = "case file #" + std::to_string(i);
  for (MmaCase& test : cases_) test.selector = selector;
  if (stream.special) special_suite_cases(form, selector, stream.seed, stream.special_generated, cases_, names_);
  options_.selector = selector;
}

void CoverageCases::get(uint64_t index, MmaCase& test, std::string& name) const {
  if (index < cases_.size()) {
    test = cases_[size_t(index)];
    name = names_[size_t(index)];
    return;
  }
  const uint64_t random = stream_.random_first + index - cases_.size();
  gen::BulkGenerator(random_seeds_.of(random)).next(form_, test, options_);
  name = "random #" + std::to_string(random);
}

std::string_view name(FaultState state) {
  switch (state) {
    case FaultState::detected:
      return "detected";
    case FaultState::not_detected:
      return "not detected";
    case FaultState::undetectable:
      return "undetectable";
  }
  return "?";
}

std::string_view name(DetectionTier tier) {
  return tier == DetectionTier::spec ? "spec" : "model";
}

uint64_t PairCoverage::detectable() const {
  uint64_t n = 0;
  for (const SimulatedFault& o : stuck) n += o.state != FaultState::undetectable;
  return n;
}
uint64_t PairCoverage::detected() const {
  uint64_t n = 0;
  for (const SimulatedFault& o : stuck) n += o.state == FaultState::detected;
  return n;
}
double PairCoverage::percent() const {
  const uint64_t total = detectable();
  return total ? 100.0 * double(detected()) / double(total) : 100.0;
}
uint64_t PairCoverage::transients_changed() const {
  uint64_t n = 0;
  for (const SimulatedFault& o : transients) n += o.state == FaultState::detected;
  return n;
}
std::string coverage_percent_text(uint64_t detected, uint64_t detectable) {
  const double percent = detectable ? 100.0 * double(detected) / double(detectable) : 100.0;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %%", detected < detectable ? std::min(percent, 99.99) : percent);
  return text;
}

std::string coverage_summary_text(uint64_t detected, uint64_t detectable) {
  return "stuck-at coverage " + coverage_percent_text(detected, detectable) + " of " + std::to_string(detectable) +
         " detectable faults; " + std::to_string(detectable - detected) + " undetected";
}

std::string PairCoverage::summary() const {
  return coverage_summary_text(detected(), detectable());
}

double CoverageSummary::percent() const {
  return detectable ? 100.0 * double(detected) / double(detectable) : 100.0;
}
std::string CoverageSummary::summary() const {
  return coverage_summary_text(detected, detectable);
}

CoverageSummary summarize(const PairCoverage& coverage, const std::string& stream) {
  CoverageSummary out;
  out.faults = coverage.stuck.size();
  out.detectable = coverage.detectable();
  out.detected = coverage.detected();
  out.cases = coverage.cases + coverage.undefined;
  out.stream = stream;
  for (const SimulatedFault& o : coverage.stuck) {
    if (o.state == FaultState::not_detected)
      out.not_detected.push_back(o.fault.id() + " (" + std::string(name(o.fault.site.stage())) + ")");
    if (o.state == FaultState::undetectable) out.undetectable.push_back(o.fault.id() + ": " + o.reason);
  }
  out.transients = coverage.transients.size();
  out.transients_changed = coverage.transients_changed();
  return out;
}

PairCoverage fault_coverage(const Form& form, int selector, const ModelParameters* p, const CoverageStream& stream,
                            unsigned threads, const std::function<bool()>& stop) {
  const auto start = std::chrono::steady_clock::now();
  PairCoverage out;
  out.form = &form;
  out.selector = selector;
  if (!fault_model_applies(form)) return out;
  for (const DatapathFault& fault : stuck_at_faults(form, p)) {
    SimulatedFault outcome;
    outcome.fault = fault;
    outcome.reason = undetectable_reason(form, p, fault);
    if (!outcome.reason.empty()) outcome.state = FaultState::undetectable;
    out.stuck.push_back(std::move(outcome));
  }
  for (const DatapathFault& fault : transient_faults(form, p)) {
    SimulatedFault& outcome = out.transients.emplace_back();
    outcome.fault = fault;
  }
  // The faults still simulated: pointers into stuck and transients.
  std::vector<SimulatedFault*> live;
  for (SimulatedFault& o : out.stuck)
    if (o.state == FaultState::not_detected) live.push_back(&o);
  for (SimulatedFault& o : out.transients) live.push_back(&o);

  const CoverageCases cases(form, selector, stream);
  constexpr uint64_t kChunk = 256;
  std::vector<StreamCase> chunk;
  for (uint64_t first = 0; first < cases.size() && !live.empty(); first += kChunk) {
    if (stop && stop()) break;
    const uint64_t count = std::min<uint64_t>(kChunk, cases.size() - first);
    chunk.assign(size_t(count), {});
    parallel_for(
        size_t(count), threads,
        [&](size_t i) {
          StreamCase& c = chunk[i];
          c.index = first + i;
          cases.get(c.index, c.test, c.name);
          c.clean = datapath_result(c.test, p);
        },
        4);
    for (const StreamCase& c : chunk) (c.clean ? out.cases : out.undefined) += 1;
    parallel_for(
        live.size(), threads,
        [&](size_t f) {
          SimulatedFault& outcome = *live[f];
          for (const StreamCase& c : chunk) {
            if (!c.clean || !outcome.fault.strikes(c.index)) continue;
            const auto faulty = faulty_result(c.test, p, outcome.fault, c.index);
            if (!faulty || *faulty == *c.clean) continue;
            outcome.state = FaultState::detected;
            outcome.cases_to_detect = c.index + 1;
            outcome.detected_by = c.name;
            const CaseJudgement judged = judge_case(c.test, *faulty, nullptr, ModelMode::off, true);
            outcome.tier = judged.verdict.status == Status::fail ? DetectionTier::spec : DetectionTier::model;
            return;
          }
        },
        1);
    std::erase_if(live, [](const SimulatedFault* o) { return o->state == FaultState::detected; });
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace mmasp
