// The exact reference result D* = A.B + C of one case (PTX ISA 9.7.14.6.3), with block scales applied
// (D = (A*scale_A)*(B*scale_B) + C, 9.7.14.3), computed exactly and rounded only once, at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "oracle/exact_sum.h"
#include "oracle/mma_case.h"

namespace mmasp {

struct ExpectedElement {
  enum class Kind { finite, infinite, nan };
  Kind kind = Kind::finite;
  bool negative = false;          // sign of Inf, or of a non-zero finite D*
  ExactSum exact;                 // D* when finite
  double exact_double = 0;        // D* rounded once to double (for error arithmetic only)
  uint32_t rounded_code = 0;      // D* rounded once, to nearest even, to D's type (IEEE overflow to Inf); also the
                                  // expected s32 code of integer forms, after wrap-around or .satfinite clamping
  int nonzero_products = 0;       // n
  double magnitude_sum = 0;       // S = |c| + sum |a_i b_i|
  double subnormal_allowance = 0; // sum of |term| over terms with a subnormal input, |c| if c is subnormal
  int64_t integer_sum = 0;        // integer forms: the exact sum before wrap or clamp
};

struct ReferenceResult {
  std::vector<ExpectedElement> d;  // M x N, row-major
};

// Throws std::invalid_argument when the case's metadata is undefined (nothing can be expected of it) or its sizes
// are wrong. Elements not stored in compressed A take no part in the product: for row i, D[i][j] = C[i][j] +
// sum over stored s of A_s * B[col(s)][j].
ReferenceResult reference(const MmaCase& test);

namespace detail {
// window = false: every product term is added to the wide accumulator on its own, as the definition reads; the
// public reference() sums terms that lie close together in a 128-bit window first (same result, faster).
ReferenceResult reference(const MmaCase& test, bool window);
}  // namespace detail

}  // namespace mmasp
