#include "oracle/classification.h"

#include <cmath>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/text.h"
#include "oracle/tolerance.h"

namespace mmasp {
namespace {

}  // namespace

int severity(Status status) {
  switch (status) {
    case Status::pass: return 0;
    case Status::not_supported: return 1;
    case Status::ub_not_judged: return 2;
    case Status::waived: return 3;
    case Status::quality_warning: return 4;
    case Status::deviation: return 5;
    case Status::fail: return 6;
    case Status::intermittent: return 7;
    case Status::timeout: return 8;
    case Status::crash: return 9;
  }
  return 0;
}

namespace {

// One unit in the last place of D's type at |x|.
double ulp_at(const FloatTolerance& t, double x) {
  int binade = x == 0 ? t.output_min_exponent : std::max(std::ilogb(x), t.output_min_exponent);
  return std::ldexp(1.0, binade - t.output_mantissa_bits);
}

ElementVerdict judge_float(const Form& form, const FloatTolerance& t, const ExpectedElement& e, uint32_t observed) {
  ElementVerdict v;
  v.observed = observed;
  v.expected = e.rounded_code;
  const auto value = decode(form.d, observed);
  const bool observed_nan = value->cls == FloatClass::nan;
  const bool observed_inf = value->cls == FloatClass::infinite;
  if (e.kind == ExpectedElement::Kind::nan) {
    if (!observed_nan) { v.status = Status::fail; v.reason = "expected NaN (a NaN input, Inf*0 or Inf-Inf)"; }
    return v;
  }
  if (e.kind == ExpectedElement::Kind::infinite) {
    if (!observed_inf || value->negative != e.negative) {
      v.status = Status::fail;
      v.reason = std::string("expected ") + (e.negative ? "-Inf" : "+Inf") + " from an infinite input";
    }
    return v;
  }
  const ElementBounds bounds = element_bounds(t, e.nonzero_products, e.magnitude_sum, std::fabs(e.exact_double),
                                              e.subnormal_allowance);
  v.spec_bound = bounds.spec;
  v.tight_bound = bounds.tight;
  if (observed_nan) { v.status = Status::fail; v.reason = "NaN where the exact result is finite"; return v; }
  const bool exact_overflows = decode(form.d, e.rounded_code)->cls == FloatClass::infinite;
  if (observed_inf) {
    if (exact_overflows && value->negative == e.negative) return v;
    if (bounds.overflow_possible) {
      v.status = Status::quality_warning;
      v.reason = "Inf: a partial sum may overflow in some accumulation order, the exact result does not";
      return v;
    }
    v.status = Status::fail;
    v.reason = "Inf where no accumulation order can overflow";
    return v;
  }
  v.error = std::fabs(value->to_double() - e.exact_double);
  // Ulps at the larger of D* and D: where cancellation leaves D* near zero, ulps of D* alone would be astronomically
  // large for an error that is tiny against S (error_relative_to_bound says that).
  v.error_ulps = v.error / ulp_at(t, std::max(std::fabs(e.exact_double), std::fabs(value->to_double())));
  if (v.error == 0) return v;
  v.error_relative_to_bound = bounds.spec > 0 ? v.error / bounds.spec : HUGE_VAL;
  if (v.error <= bounds.tight) return v;
  if (v.error <= bounds.spec) {
    v.status = Status::quality_warning;
    v.reason = "error " + nine_digits(v.error) + " is within the spec bound " + nine_digits(bounds.spec) +
               " but above the tight bound " + nine_digits(bounds.tight);
    return v;
  }
  v.status = Status::fail;
  v.reason = "error " + nine_digits(v.error) + " exceeds the spec bound " + nine_digits(bounds.spec) + " (n=" +
             std::to_string(e.nonzero_products) + ", S=" + nine_digits(e.magnitude_sum) + ")";
  return v;
}

ElementVerdict judge_integer(const ExpectedElement& e, uint32_t observed) {
  ElementVerdict v;
  v.observed = observed;
  v.expected = e.rounded_code;
  if (observed != e.rounded_code) {
    v.status = Status::fail;
    v.error = std::fabs(double(int32_t(observed)) - double(int32_t(e.rounded_code)));
    v.reason = "s32 mismatch: expected " + std::to_string(int32_t(e.rounded_code)) + ", observed " +
               std::to_string(int32_t(observed));
  }
  return v;
}

}  // namespace

std::string_view name(Status status) {
  switch (status) {
    case Status::pass: return "Pass";
    case Status::quality_warning: return "QualityWarning";
    case Status::deviation: return "Deviation";
    case Status::fail: return "Fail";
    case Status::intermittent: return "Intermittent";
    case Status::ub_not_judged: return "UB-not-judged";
    case Status::not_supported: return "NotSupported";
    case Status::crash: return "Crash";
    case Status::timeout: return "Timeout";
    case Status::waived: return "Waived";
  }
  return "?";
}

std::optional<Status> status_named(std::string_view text) {
  for (Status status : kAllStatuses)
    if (name(status) == text) return status;
  return std::nullopt;
}


bool is_failure(Status status) {
  return status == Status::fail || status == Status::deviation || status == Status::intermittent ||
         status == Status::crash || status == Status::timeout;
}

bool is_skipped(Status status) { return status == Status::not_supported || status == Status::ub_not_judged; }

Status worse(Status a, Status b) { return severity(a) >= severity(b) ? a : b; }

CaseVerdict classify(const MmaCase& test, const ReferenceResult& expected, std::span<const uint32_t> observed_d) {
  const Form& form = *test.form;
  const int n = form.shape.n;
  if (observed_d.size() != expected.d.size()) throw std::invalid_argument("classify: observed D has the wrong size");
  CaseVerdict verdict;
  std::optional<FloatTolerance> tolerance;
  if (!form.is_integer()) tolerance = tolerance_for(form);
  for (size_t index = 0; index < observed_d.size(); ++index) {
    ElementVerdict v = form.is_integer() ? judge_integer(expected.d[index], observed_d[index])
                                         : judge_float(form, *tolerance, expected.d[index], observed_d[index]);
    v.row = int(index) / n;
    v.col = int(index) % n;
    verdict.failing_elements += v.status == Status::fail;
    verdict.warning_elements += v.status == Status::quality_warning;
    const bool decides = severity(v.status) > severity(verdict.worst.status) ||
                         (v.status == verdict.worst.status && v.error > verdict.worst.error);
    if (index == 0 || decides) verdict.worst = v;
    verdict.status = worse(verdict.status, v.status);
    verdict.elements.push_back(std::move(v));
  }
  return verdict;
}

CaseVerdict judge(const MmaCase& test, std::span<const uint32_t> observed_d) {
  std::vector<std::string> reasons = undefined_behaviour(test);
  if (!reasons.empty()) {
    CaseVerdict verdict;
    verdict.status = Status::ub_not_judged;
    verdict.undefined_reasons = std::move(reasons);
    return verdict;
  }
  return classify(test, reference(test), observed_d);
}

}  // namespace mmasp
