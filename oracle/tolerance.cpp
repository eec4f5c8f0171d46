#include "oracle/tolerance.h"

#include <cmath>
#include <stdexcept>

#include "oracle/number_format.h"

namespace mmasp {
namespace {

// PTX ISA 9.7.14.6.3, "Precision and rounding":
//   .f16: "Element-wise multiplication of matrix A and B is performed with at least single precision. When .ctype or
//          .dtype is .f32, accumulation of the intermediate values is performed with at least single precision. When
//          both .ctype and .dtype are specified as .f16, the accumulation is performed with at least half precision."
//   .e4m3, .e5m2, .e3m2, .e2m3, .e2m1, .bf16, .tf32: "multiplication ... with specified precision. Accumulation of
//          the intermediate values is performed with at least single precision."
//   all:  "The accumulation order, rounding and handling of subnormal inputs are unspecified."
ElemType accumulation_format(const Form& form) {
  if (form.family == "f16" && form.c == ElemType::f16 && form.d == ElemType::f16) return ElemType::f16;
  return ElemType::f32;
}

}  // namespace

double gamma(int k, double epsilon) {
  double ke = double(k) * epsilon;
  return ke / (1.0 - ke);
}

FloatTolerance tolerance_for(const Form& form) {
  if (form.is_integer()) throw std::invalid_argument("tolerance_for: integer forms are exact");
  FloatTolerance t;
  t.accumulation = accumulation_format(form);
  t.output = form.d;
  const FloatFormat& acc = *float_format(t.accumulation);
  const FloatFormat& out = *float_format(t.output);
  // Rounding is unspecified, so an operation may be off by up to one whole ulp (round toward zero or away), not
  // half: epsilon = 2^(1-p) = 2^-mantissa_bits.
  t.epsilon_acc = std::ldexp(1.0, -acc.mantissa_bits);
  t.epsilon_out = std::ldexp(1.0, -out.mantissa_bits);
  t.min_normal_acc = std::ldexp(1.0, 1 - acc.bias);
  t.min_normal_out = std::ldexp(1.0, 1 - out.bias);
  t.max_finite_acc = decode_to_double(t.accumulation, max_finite_code(t.accumulation));
  t.max_finite_out = decode_to_double(t.output, max_finite_code(t.output));
  t.output_mantissa_bits = out.mantissa_bits;
  t.output_min_exponent = 1 - out.bias;
  return t;
}

ElementBounds element_bounds(const FloatTolerance& t, int n, double magnitude_sum, double exact_result,
                             double subnormal_allowance) {
  ElementBounds bounds;
  // Products: every catalog form's products are exact in single precision (at most 11x11 significand bits, times
  // power-of-two or 4-bit ue4m3 scales), so the only roundings are the n additions that combine the n+1 summands
  // c, a_1 b_1, ..., a_n b_n — in any order or tree, each an error of at most epsilon_acc times the magnitudes it
  // combines, which never exceed S. Higham (Accuracy and Stability, 2nd ed., 4.2) gives gamma_n * S for this.
  // A multi-operand adder that aligns to the largest summand and truncates (the "block FMA" of Fasi et al. 2021)
  // errs by at most one ulp of its largest input per block, so it is covered too.
  const double accumulation = gamma(n, t.epsilon_acc) * magnitude_sum;
  // Underflow: a product or a partial sum that falls below the accumulation format's normal range may be flushed
  // ("handling of subnormal inputs is unspecified" and nothing is said of subnormal intermediates); each of the n
  // product roundings and n additions may then lose at most min_normal_acc.
  const double underflow = 2.0 * n * t.min_normal_acc;
  bounds.spec = accumulation + underflow + subnormal_allowance;
  // The tight bound: one rounding, at accumulation precision, of a quantity no larger than S — what an accumulator
  // that aligns every summand to the largest and rounds once gives.
  // Near zero the accumulator's spacing is its subnormal quantum, not epsilon times the value: one rounding there
  // may cost one quantum.
  bounds.tight = (n > 0 ? t.epsilon_acc * magnitude_sum + t.min_normal_acc * t.epsilon_acc : 0.0) + subnormal_allowance;
  if (t.output != t.accumulation) {
    // D narrower than the accumulator (kind::f8f6f4 with f16 D): one more rounding of the accumulated value, and a
    // possible flush of a subnormal D.
    const double conversion = t.epsilon_out * (exact_result + accumulation + underflow) + t.min_normal_out;
    bounds.spec += conversion;
    // Near zero D's spacing is its own subnormal quantum (epsilon_out * min_normal_out), as for the accumulator above:
    // the exact value rounded once to a subnormal D may be a quantum off. (Without that term the few_terms profile's
    // tiny f16 results, rounded once by the emulator, were QualityWarnings.)
    bounds.tight += t.epsilon_out * (exact_result + t.min_normal_out);
  }
  bounds.overflow_possible = magnitude_sum * (1 + gamma(n, t.epsilon_acc)) >= t.max_finite_acc ||
                             exact_result + bounds.spec >= t.max_finite_out;
  return bounds;
}

}  // namespace mmasp
