// Runs the execution suites of one form and selector on a backend: random cases from the generators, the named
// special-value set, and undefined-behaviour cases in isolation. Judges every case by both tiers (case_judgement.h),
// keeps the counts (suite_result.h), shrinks the first failure and the first deviation into case files, and replays
// failing cases to tell intermittent ones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "judge/model_tier.h"
#include "judge/suite_result.h"
#include "oracle/mma_case.h"

namespace mmasp {

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
  // Cases the special suite runs first (a compact set, judge/compact_set.h), named "compact #i". May be empty.
  std::function<std::vector<MmaCase>(const Form&, int selector)> first_cases = {};
};

SuiteResult run_suite(SuiteContext& context, const Form& form, int selector, Suite suite, const SuiteLimits& limits);

// The seed of the random suite's stream for one selector: case i of the pair is gen::CaseSeeds(this, form).of(i).
uint64_t random_stream_seed(uint64_t seed, int selector);
// The special suite's cases, in the order it runs them: the named special-value set, then `generated` cases of the
// special-value profile.
void special_suite_cases(const Form& form, int selector, uint64_t seed, uint32_t generated, std::vector<MmaCase>& cases,
                         std::vector<std::string>& names);
// Cases of the random suite at these indices, regenerated, run and judged like any batch (saved, shrunk, counted in
// `result`, named "random #<index>"); the digest is left alone. How the resident path's deviating cases come back
// to the host (resident/resident.h).
void judge_random_indices(SuiteContext& context, SuiteResult& result, const Form& form, int selector,
                          const std::vector<uint64_t>& indices, const SuiteLimits& limits);

// Undefined behaviour: runs 64 cases whose registers are laid out for selector `value` mod count with the instruction
// compiled for the out-of-range `value` (the spec calls it undefined; ptxas accepts some, finding F-0002). Returns
// "ran: k of 64 cases gave exactly the result of selector s", or "failed: <why>" (compiler rejection, a trap). A trap
// can leave the GPU context unusable, so on hardware run it in a process of its own (mmasp ub-probe).
std::string probe_out_of_range_selector(Backend& backend, const Form& form, int value, uint64_t seed);

}  // namespace mmasp
