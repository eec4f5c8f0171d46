// How a --budget run shares its time among the random suites of its form x selector pairs (issue #28).
//
// The random suite of a pair (on the GPU-resident path: the host sample, then the GPU's launches) gets a planned share
// of what is left of the budget when the pair starts, after the fixed work of the pairs still to come (their special
// suites, measured on the pairs so far) and the reports:
//     seconds(i) = left * weight(i) / (weight(i) + weight(i+1) + ... + weight(last)).
// Time a pair does not use flows to the pairs after it, so the last pairs take up whatever the estimates missed. The
// weights are declared here, per family, and say why (random_suite_weight); a pair that runs no random suite here
// (NotSupported) weighs nothing. Each result records the share it was planned and what it got (run.json: "planned",
// "resident"), so that the split is measured, not assumed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp::run {

// The weight of a form's random suite in a --budget run. Float forms weigh 5 integer ones: float arithmetic is where a
// driver, toolkit or hardware change moves D inside the spec bound, which only the bit-exact model sees, while an
// integer result is exact and a few cases settle it. Forms whose operands are 8 bits or narrower (fp8, kind::f8f6f4,
// the block-scale kinds) weigh 3 times a float form again: the resident kernel judges such a case several times slower
// than an m16n8k16 f16 one (docs/performance.md), and their host sample is slower too.
double random_suite_weight(const Form& form);
// One line that says the weights, for run.json's notes and the reports.
std::string random_suite_weights_note();

// What a float pair of a --budget run on a GPU should reach (issue #28's acceptance, for `--budget 60` on an H100);
// a run whose float pairs got fewer says so, and what budget would do.
inline constexpr double kFloatCaseTarget = 2e7;

// The random cases of a pair that the host path judges before the GPU-resident path takes over: `resident_sample`,
// but under --budget an integer pair takes a tenth. The GPU judges an integer case by the same exact result as the
// host, so its sample only cross-checks that, while a float pair's sample is where the spec tier (the exact reference
// and its bound) judges hardware data; 10,000 integer cases cost as much time as about 10^7 on the GPU.
uint64_t host_sample_cases(bool integer_form, uint64_t resident_sample, bool budget);

class BudgetPlan {
 public:
  // One weight per pair, in the run's order (0: the pair runs no random suite).
  explicit BudgetPlan(std::vector<double> weights);
  // The seconds pair `index` may spend on its random suite, when `left` seconds remain for the random suites of
  // this pair and every pair after it.
  double seconds_for(size_t index, double left) const;
  double weight(size_t index) const { return weights_.at(index); }
  // The pair's part of the whole run's random-suite time: weight / the sum of every pair's weight.
  double share(size_t index) const;
  // Pairs after `index` that run a random suite (weight > 0): each does its fixed work too.
  size_t weighted_after(size_t index) const;

 private:
  std::vector<double> weights_;
  std::vector<double> suffix_;          // suffix_[i]: the weights of pairs i..last
  std::vector<size_t> weighted_suffix_; // weighted_suffix_[i]: pairs i..last with a weight
};

}  // namespace mmasp::run
