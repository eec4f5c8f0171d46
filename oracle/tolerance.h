// What the PTX ISA guarantees about float results of mma.sp, turned into numbers. Every constant is derived in
// tolerance.cpp from the "Precision and rounding" text of 9.7.14.6.3 (quoted there) and explained in
// docs/tolerances.md; nothing else in mmasp may hold a tolerance.
#pragma once

#include "oracle/element_type.h"
#include "oracle/instruction_space.h"

namespace mmasp {

struct FloatTolerance {
  ElemType accumulation;       // the narrowest accumulation format the spec allows for this form
  ElemType output;             // D's type
  double epsilon_acc = 0;      // one ulp, relative: 2^(1-p) of the accumulation format (rounding is unspecified)
  double min_normal_acc = 0;   // the accumulation format's smallest normal: what one flushed subnormal can lose
  double max_finite_acc = 0;   // partial sums beyond this may overflow to Inf
  double epsilon_out = 0;      // one ulp, relative, of D's type, for the conversion when it is narrower
  double min_normal_out = 0;
  double max_finite_out = 0;
  int output_mantissa_bits = 0;
  int output_min_exponent = 0; // the exponent of D's smallest normal
};

// Throws std::invalid_argument for integer forms (they are exact).
FloatTolerance tolerance_for(const Form& form);

// Higham's gamma_k = k*eps / (1 - k*eps): the relative bound on k roundings compounded.
double gamma(int k, double epsilon);

// The two bounds on |D - D*| for one element.
struct ElementBounds {
  double spec = 0;    // beyond this the result violates the PTX ISA's guarantee: Fail
  double tight = 0;   // within this the result is as good as one rounding at accumulation precision: Pass;
                      // between tight and spec: QualityWarning
  bool overflow_possible = false;  // some order of accumulation could overflow the accumulator or D
};
// n: the number of non-zero products; magnitude_sum: S = |c| + sum |a_i b_i|; exact_result: |D*|;
// subnormal_allowance: the summed magnitudes of the terms the hardware may flush (subnormal inputs, see .cpp).
ElementBounds element_bounds(const FloatTolerance& tolerance, int n, double magnitude_sum, double exact_result,
                             double subnormal_allowance);

}  // namespace mmasp
