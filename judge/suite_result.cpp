#include "judge/suite_result.h"

#include <algorithm>

#include "generators/splitmix.h"

namespace mmasp {

void ResultDigest::add(uint64_t case_index, std::span<const uint32_t> d) {
  uint64_t h = 0xcbf29ce484222325ull ^ case_index;
  for (uint32_t word : d) h = (h ^ word) * 0x100000001b3ull;
  total_ = splitmix_finalize(total_ ^ h);
  chunk_ = splitmix_finalize(chunk_ ^ h);
  if (++cases_ % kDigestChunkCases == 0) {
    if (chunks_.size() < kDigestChunks) chunks_.push_back(chunk_);
    chunk_ = 0x6a09e667f3bcc908ull;
  }
}

std::string_view name(ModelMode mode) {
  switch (mode) {
    case ModelMode::off: return "off";
    case ModelMode::warn: return "warn";
    case ModelMode::strict: return "strict";
  }
  return "?";
}

std::optional<Suite> suite_named(std::string_view text) {
  for (Suite suite : {Suite::random, Suite::special, Suite::undefined})
    if (name(suite) == text) return suite;
  return std::nullopt;
}

std::string_view name(Suite suite) {
  switch (suite) {
    case Suite::random: return "random";
    case Suite::special: return "special";
    case Suite::undefined: return "ub";
  }
  return "?";
}

void SuiteResult::count(const CaseJudgement& judgement) {
  if (judgement.model_active) {
    ++model_judged;
    reference_judged += judgement.reference_ran;
    deviations += judgement.deviation;
    model_mismatches += judgement.model_mismatch;
  }
  const CaseVerdict& verdict = judgement.verdict;
  ++cases;
  switch (verdict.status) {
    case Status::pass: ++passed; break;
    case Status::quality_warning: ++warnings; break;
    case Status::ub_not_judged: ++not_judged; return;
    default: ++failed; break;
  }
  status = worse(status, verdict.status);
  for (const auto& e : verdict.elements) {
    max_error_ulps = std::max(max_error_ulps, e.error_ulps);
    max_error_vs_bound = std::max(max_error_vs_bound, e.error_relative_to_bound);
    size_t bucket = 0;
    while (bucket < kErrorBucketBounds.size() && e.error_ulps > kErrorBucketBounds[bucket]) ++bucket;
    ++error_histogram[bucket];
  }
}

void SuiteResult::count_gpu_cases(const ResidentSummary& summary, bool model_judges) {
  cases += summary.checked;
  passed += summary.checked - summary.deviating;
  if (model_judges) model_judged += summary.checked;
}

void SuiteResult::settle_replay(const SuiteResult& before, uint64_t replayed, uint64_t first_replayed_index) {
  // The replay judged each case as a host case; it is a GPU case already counted by count_gpu_cases, so its counts
  // become one failure each: what reproduced stays a failure (or deviation), what did not is intermittent.
  const uint64_t reproduced = failed - before.failed;
  cases -= replayed;
  passed = before.passed;
  warnings = before.warnings;
  failed += replayed - reproduced;
  if (reproduced < replayed) {
    status = worse(status, Status::intermittent);
    intermittent += replayed - reproduced;
    note += (note.empty() ? "" : "; ") + std::to_string(replayed - reproduced) + " of " + std::to_string(replayed) +
            " cases the GPU-resident check found deviating gave the model's result when replayed through the host path "
            "(first: random #" + std::to_string(first_replayed_index) + ")";
  }
}

void SuiteResult::count_unreplayed(const ResidentSummary& summary) {
  failed += summary.deviating - summary.replayed;
  if (summary.deviating > summary.replayed) status = worse(status, Status::deviation);
  if (summary.overflowed())
    note += (note.empty() ? "" : "; ") + std::to_string(summary.overflowed()) +
            " further deviating cases were counted on the GPU but their indices were not kept";
}

bool SuiteResult::spec_tier_failed() const {
  // failed counts the model tier's deviations too.
  return status == Status::fail || status == Status::crash || status == Status::timeout || failed > deviations;
}

}  // namespace mmasp
