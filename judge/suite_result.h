// What a suite of one form and selector found: its counts, statistics, digests and the cases worth keeping (the first
// failure, shrunk; the first deviation from the model; the first intermittent case; the QualityWarning closest to its
// bound). The counts change only through the methods below, which keep them consistent: cases = passed + warnings +
// failed + not_judged, a result's status the worst of its cases'.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "judge/case_judgement.h"
#include "judge/fault_coverage.h"
#include "oracle/classification.h"
#include "oracle/mma_case.h"

namespace mmasp {

enum class Suite { random, special, undefined };
std::string_view name(Suite suite);   // "random", "special", "ub"
std::optional<Suite> suite_named(std::string_view text);

// Buckets of |D - D*| in ulps of D's type: exact, <=0.5, <=1, <=2, <=4, <=16, <=256, more.
inline constexpr std::array<double, 7> kErrorBucketBounds = {0, 0.5, 1, 2, 4, 16, 256};

struct CaseFailure {
  std::string case_name;            // the special case's name, or "random #index"
  MmaCase test;                     // shrunk
  std::vector<uint32_t> observed;   // M x N codes for the shrunk case
  CaseVerdict verdict;
  int shrink_attempts = 0;
  std::string saved_to;             // the case file, when saved
};

struct ModelDeviationReport {
  MmaCase test;                     // shrunk
  std::vector<uint32_t> observed, predicted;
  int row = 0, col = 0;             // the first element that differs
  Status spec_status = Status::pass;   // what the spec tier says of the case
  int deviating_elements = 0;
  int shrink_attempts = 0;
  std::string case_name, saved_to;
};

// A failing or deviating case that gave another D when it ran again, alone: both results, and the case file.
struct IntermittentReport {
  std::string case_name;
  MmaCase test;
  std::vector<uint32_t> first, replay;   // M x N codes of each run
  int row = 0, col = 0;                  // the first element that differs between the two
  int differing_elements = 0;
  std::string saved_to;
};

// Every bit of every D a suite observed, in case order (issue #14): a digest of all of it, and one per chunk of
// kDigestChunkCases cases (the first kDigestChunks chunks), so that two runs of the same cases can tell whether any
// bit changed and in which cases, without storing D. Case i's D (M x N codes) is hashed word by word with i;
// 64-bit FNV-1a over the words, then mixed (splitmix64) into the chunk's and the suite's digest in order.
inline constexpr uint64_t kDigestChunkCases = 1024;
inline constexpr size_t kDigestChunks = 64;
class ResultDigest {
 public:
  void add(uint64_t case_index, std::span<const uint32_t> d);
  uint64_t total() const { return total_; }
  const std::vector<uint64_t>& chunks() const { return chunks_; }   // complete chunks only
  uint64_t cases() const { return cases_; }

 private:
  uint64_t total_ = 0x6a09e667f3bcc908ull, chunk_ = 0x6a09e667f3bcc908ull, cases_ = 0;
  std::vector<uint64_t> chunks_;
};

// What the GPU-resident path did for one random suite. The host path ran cases [0, host_sample) of the pair's stream
// (the exact reference and the model tier on hardware data); the GPU drew, ran and judged [first_index, first_index
// + checked). Nothing is lost: generated == checked, recorded + overflowed == deviating, replayed <= recorded.
struct ResidentSummary {
  uint64_t host_sample = 0;        // cases the host path judged first (indices 0 .. host_sample - 1)
  uint64_t first_index = 0;        // the first case the GPU judged
  uint64_t generated = 0, checked = 0;
  uint64_t deviating = 0;          // cases the GPU found unlike the model (or the exact integer result)
  uint64_t recorded = 0;           // of which the indices came back (the rest overflowed the kernel's buffer)
  uint64_t replayed = 0;           // of which the host regenerated, ran and judged through the normal path
  double seconds = 0;              // kernel time
  double host_seconds = 0;         // the host sample's time
  std::string kernel;              // which resident kernel judged the cases (resident/resident.h resident_kernel_for)
  uint64_t overflowed() const { return deviating - recorded; }
};

struct SuiteResult {
  const Form* form = nullptr;
  int selector = 0;
  Suite suite = Suite::random;
  std::string backend;
  bool emulated = false;
  Status status = Status::pass;
  std::string note;                 // NotSupported / Crash reason, or what the UB run observed
  uint64_t cases = 0, passed = 0, warnings = 0, failed = 0, not_judged = 0;
  double max_error_ulps = 0;
  double max_error_vs_bound = 0;    // the largest error as a fraction of its spec bound
  std::array<uint64_t, kErrorBucketBounds.size() + 1> error_histogram{};
  std::vector<std::string> failing_special_cases;
  std::vector<std::pair<std::string, Status>> named_cases;  // special suite: each named case's status
  std::optional<CaseFailure> failure;
  // The passing case closest to its spec bound (largest error / bound), saved when it is a QualityWarning: the
  // near-misses a reader of a nightly report wants to look at.
  std::optional<CaseFailure> closest_to_bound;
  uint64_t ub_like_sp = 0;          // UB suite: unordered-metadata cases whose D equals what .sp computes
  uint64_t ub_unordered_only = 0;
  // UB suite: what an out-of-range selector does (the spec calls it undefined; ptxas accepts some, finding F-0002).
  // Per selector value: "rejected by the compiler: ...", or how many of the cases packed for selector s mod count
  // gave exactly that selector's result.
  std::vector<std::pair<int, std::string>> out_of_range_selectors;
  double seconds = 0;
  uint64_t seed = 0;
  // The model tier (when active for this form): cases the model judged, cases the exact reference judged, and cases
  // whose D differed from the model's.
  std::string model;                // the tier's description and mode; empty when off for this form
  uint64_t model_judged = 0, reference_judged = 0;
  uint64_t deviations = 0;         // cases inside the spec bound whose D differs from the model's (status Deviation)
  uint64_t model_mismatches = 0;   // every case whose D differs from the model's, failures of the spec tier included
  std::optional<ModelDeviationReport> deviation;
  // Every failing or deviating case (up to SuiteLimits::replays) runs again; those whose D changed are Intermittent.
  uint64_t replayed = 0, intermittent = 0;
  ResultDigest digest;              // random and special suites (UB outputs are not results)
  std::optional<IntermittentReport> intermittent_case;   // the first
  bool interrupted = false;        // context.stop ended the suite before its cases were done: an incomplete result
  // The GPU-resident path (resident/resident.h), when it judged this random suite beside the host path.
  std::optional<ResidentSummary> resident;
  // The fault coverage of the pair's stream (judge/fault_coverage.h), on its random suite's result, where the run
  // computed it: through the emitted module, and of the resident kernel's share.
  std::optional<CoverageSummary> coverage, resident_coverage;

  // --- The counts change only here. ---
  // One judged case: its status, its error statistics and, where the model tier judged it, the model tier's counts.
  void count(const CaseJudgement& judgement);
  // The cases the GPU-resident path judged: each that matched the model (or the exact integer result) is a Pass; the
  // deviating ones are counted once each, by settle_replay() or count_unreplayed().
  void count_gpu_cases(const ResidentSummary& summary, bool model_judged);
  // The host's replay of deviating GPU cases was judged into this result after `before` (this result as it was):
  // each replayed case counts once, as a GPU case — a failure or deviation that reproduced as the host judged it,
  // one whose D on the host was right as Intermittent (the GPU computed something else once).
  void settle_replay(const SuiteResult& before, uint64_t replayed, uint64_t first_replayed_index);
  // Deviating GPU cases that were not replayed (beyond the replay limit, or whose index the kernel could not keep):
  // failures on the GPU's word.
  void count_unreplayed(const ResidentSummary& summary);
  // Whether the spec tier failed a case (a Fail, Crash or Timeout), apart from the model tier's deviations.
  bool spec_tier_failed() const;
};

}  // namespace mmasp
