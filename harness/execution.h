// Runs the execution suites of one form and selector on a backend: random cases from the generators, the named
// special-value set, and undefined-behaviour cases in isolation. Judges every case with the oracle, keeps statistics,
// and shrinks the first failure into a case file.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/backend.h"
#include "oracle/classification.h"
#include "oracle/mma_case.h"

namespace mmasp {

enum class Suite { random, special, undefined };
std::string_view name(Suite suite);   // "random", "special", "ub"

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

// The model tier: on a device whose arithmetic has a verified bit-exact model (oracle/numeric_model_table.h), every
// element is also compared bit for bit with the model. The model judges every case; the exact reference (the spec
// tier) judges every case the model does not predict, the whole special set and a sample of the random cases. A
// result inside the spec bound that differs from the model is a Deviation (strict) or a QualityWarning (warn).
enum class ModelMode { off, warn, strict };
std::string_view name(ModelMode mode);   // "off", "warn", "strict"
struct ModelTier {
  ModelMode mode = ModelMode::off;
  ModelLookup parameters;          // the verified parameters of a form, or nullopt
  std::string description;         // e.g. "sm_90 model (verified on NVIDIA H100 80GB HBM3)"
  uint64_t reference_first = 1024; // random suite: the exact reference also judges the first cases of each pair ...
  uint64_t reference_every = 16;   // ... and every Nth after them
  bool active_for(const Form& form) const { return mode != ModelMode::off && parameters && parameters(form).has_value(); }
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
  // The GPU-resident path (harness/resident.h), when it judged this random suite beside the host path.
  std::optional<ResidentSummary> resident;
};

struct SuiteLimits {
  uint64_t min_cases = 10000;       // random suite: at least this many
  uint64_t max_cases = 10000;       // and at most this many
  double seconds = 0;               // between the two, keep going until this much time has passed
  uint32_t batch = 4096;
  int shrink_attempts = 400;
  uint32_t replays = 16;            // failing or deviating cases replayed per suite, to tell intermittent results
  uint32_t special_generated = 512; // special suite: generated special-value-profile cases beside the named ones
};

struct SuiteContext {
  Backend& backend;
  uint64_t seed = 1;
  unsigned threads = 1;
  std::string failure_dir;          // where shrunk failures are saved; empty: not saved
  std::function<void(const std::string&)> log;  // progress lines; may be empty
  ModelTier model = {};
  // Asked before each batch of the random suite; true ends the suite early with `interrupted` set (a signal: the
  // batch in flight finishes, no new one starts). May be empty.
  std::function<bool()> stop = {};
};

SuiteResult run_suite(SuiteContext& context, const Form& form, int selector, Suite suite, const SuiteLimits& limits);

// The seed of the random suite's stream for one selector: case i of the pair is gen::CaseSeeds(this, form).of(i).
uint64_t random_stream_seed(uint64_t seed, int selector);
// Cases of the random suite at these indices, regenerated, run and judged like any batch (saved, shrunk, counted in
// `result`, named "random #<index>"); the digest is left alone. How the resident path's deviating cases come back
// to the host (harness/resident.h).
void judge_random_indices(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                          const std::vector<uint64_t>& indices, const SuiteLimits& limits);

// Undefined behaviour: runs 64 cases whose registers are laid out for selector `value` mod count with the instruction
// compiled for the out-of-range `value` (the spec calls it undefined; ptxas accepts some, finding F-0002). Returns
// "ran: k of 64 cases gave exactly the result of selector s", or "failed: <why>" (compiler rejection, a trap). A trap
// can leave the GPU context unusable, so on hardware run it in a process of its own (mmasp ub-probe).
std::string probe_out_of_range_selector(Backend& backend, const Form& form, int value, uint64_t seed);

// Packs a batch, runs it, and returns each case's D (M x N codes). `selector` is the instruction's; each case's
// registers are laid out for its own selector (the two differ only in undefined-behaviour probes). Packing and
// unpacking use `threads` host threads: on a GPU runner they, not the GPU, bound the throughput.
std::vector<std::vector<uint32_t>> execute(Backend& backend, const Form& form, int selector,
                                           const std::vector<MmaCase>& cases, unsigned threads = 1);

}  // namespace mmasp
