// oracle/exact_sum: the exact accumulator against int128, order independence, its grid and its rounding.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "generators/bulk.h"
#include "oracle/exact_sum.h"

namespace mmasp {
namespace {

RC_GTEST_PROP(ExactSum, MatchesInt128OnAWindowWhereInt128IsExact, ()) {
  // Terms significand * 2^e with e in [-30, 30] and significands below 2^20 are integers in units of 2^-30 that
  // fit an __int128; compilers convert __int128 to double and float with one correct rounding.
  const auto count = *rc::gen::inRange(1, 40);
  ExactSum sum;
  __int128 reference = 0;
  for (int i = 0; i < count; ++i) {
    const bool negative = *rc::gen::arbitrary<bool>();
    const uint64_t significand = *rc::gen::inRange<uint64_t>(0, 1u << 20);
    const int exponent = *rc::gen::inRange(-30, 31);
    sum.add(negative, significand, exponent);
    __int128 units = (__int128)significand << (exponent + 30);
    reference += negative ? -units : units;
  }
  RC_ASSERT(sum.to_double() == std::ldexp(double(reference), -30));
  RC_ASSERT(float(sum.round(23, -126).to_double()) == std::ldexp(float(reference), -30));
  RC_ASSERT(sum.is_zero() == (reference == 0));
}

TEST(ExactSum, IsIndependentOfOrder) {
  ExactSum forward, backward;
  const int exponents[] = {200, -250, 3, -3, 120, -149, 0};
  for (int e : exponents) forward.add(e < 0, 0xABCDEFu, e);
  for (int i = 6; i >= 0; --i) backward.add(exponents[i] < 0, 0xABCDEFu, exponents[i]);
  EXPECT_EQ(forward.to_double(), backward.to_double());
  ExactSum difference = forward;
  for (int e : exponents) difference.add(e >= 0, 0xABCDEFu, e);
  EXPECT_TRUE(difference.is_zero());
}

TEST(ExactSum, RejectsTermsOffItsGrid) {
  ExactSum sum;
  EXPECT_THROW(sum.add(false, 1, ExactSum::kLowestExponent - 1), std::out_of_range);
  EXPECT_THROW(sum.add(false, 1, 700), std::out_of_range);
}

TEST(ExactSum, RoundsTiesToEvenAndIntoSubnormals) {
  ExactSum tie;  // 1 + 2^-24: a tie between 1 and 1 + 2^-23 in f32 -> 1
  tie.add(false, 1, 0);
  tie.add(false, 1, -24);
  EXPECT_EQ(tie.round(23, -126).to_double(), 1.0);
  ExactSum odd_tie = tie;  // 1 + 2^-23 + 2^-24: a tie between odd 1 + 2^-23 and 1 + 2^-22 -> 1 + 2^-22
  odd_tie.add(false, 1, -23);
  EXPECT_EQ(odd_tie.round(23, -126).to_double(), 1.0 + std::ldexp(1.0, -22));
  ExactSum tiny;  // 3 * 2^-151 is 0.75 of the smallest f32 subnormal -> 2^-149
  tiny.add(true, 3, -151);
  EXPECT_EQ(tiny.round(23, -126).to_double(), -std::ldexp(1.0, -149));
}

// --- The float reference on cases where a double sum is wrong (issue #3 acceptance) ---------------------------------

// A naive double sum of the same terms in storage order, then one conversion to f32.

}  // namespace
}  // namespace mmasp
