#include "run/budget_plan.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/number_format.h"

namespace mmasp::run {
namespace {

// The weights, with the reasons random_suite_weight()'s comment gives.
constexpr double kIntegerWeight = 1;
constexpr double kFloatWeight = 5;
constexpr double kNarrowFloatWeight = 15;   // operands of 8 bits or fewer

bool narrow_float(ElemType type) {
  const FloatFormat* format = float_format(type);
  return format && format->code_bits <= 8;
}

}  // namespace

double random_suite_weight(const Form& form) {
  if (form.is_integer()) return kIntegerWeight;
  return narrow_float(form.a) || narrow_float(form.b) ? kNarrowFloatWeight : kFloatWeight;
}

std::string random_suite_weights_note() {
  return "--budget plan: each pair's random suite gets a share of the time left, by weight: integer forms 1, f16/bf16/"
         "tf32 5, forms with 8-bit or narrower float operands 15 (run/budget_plan.h says why); on the GPU-resident "
         "path the host sample is part of the share; time a pair leaves goes to the pairs after it";
}

uint64_t host_sample_cases(bool integer_form, uint64_t resident_sample, bool budget) {
  return budget && integer_form ? std::max<uint64_t>(1, resident_sample / 10) : resident_sample;
}

BudgetPlan::BudgetPlan(std::vector<double> weights)
    : weights_(std::move(weights)), suffix_(weights_.size() + 1, 0.0), weighted_suffix_(weights_.size() + 1, 0) {
  for (size_t i = weights_.size(); i-- > 0;) {
    if (weights_[i] < 0) throw std::invalid_argument("BudgetPlan: a negative weight");
    suffix_[i] = suffix_[i + 1] + weights_[i];
    weighted_suffix_[i] = weighted_suffix_[i + 1] + (weights_[i] > 0);
  }
}

double BudgetPlan::seconds_for(size_t index, double left) const {
  if (weights_.at(index) <= 0 || left <= 0) return 0;
  return left * weights_[index] / suffix_[index];
}

double BudgetPlan::share(size_t index) const { return suffix_[0] > 0 ? weights_.at(index) / suffix_[0] : 0; }

size_t BudgetPlan::weighted_after(size_t index) const { return weighted_suffix_.at(index + 1); }

}  // namespace mmasp::run
