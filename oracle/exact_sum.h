// An exact accumulator for sums of products of mma.sp operands, and correct rounding of the exact sum.
//
// Why not double: bf16 and tf32 products span 2^-266 .. 2^256 and block-scaled fp8/fp4 products 2^-272 .. 2^287,
// so a sum of such terms needs far more than 53 bits to be exact (issue #3). The
// accumulator is a two's-complement fixed-point number whose lowest bit is 2^kLowestExponent; every finite term of
// every catalog form lies on that grid and far below its top, so adding is exact and order-independent.
#pragma once

#include <array>
#include <cstdint>

namespace mmasp {

class ExactSum {
 public:
  static constexpr int kLimbs = 12;
  static constexpr int kLowestExponent = -384;   // value of bit 0; the grid spans 2^-384 .. 2^383

  // Adds (-1)^negative * significand * 2^exponent. Throws std::out_of_range when the term is off the grid.
  void add(bool negative, unsigned __int128 significand, int exponent);
  void add(const ExactSum& other);

  bool is_zero() const;
  bool is_negative() const;

  // Rounds to nearest, ties to even, onto a binary format with `mantissa_bits` stored fraction bits whose normal
  // exponents start at `min_exponent` (subnormals below it) — unbounded above. Returns the rounded value as
  // significand * 2^exponent with the sign; exact, one rounding only.
  struct Rounded {
    bool negative = false;
    uint64_t significand = 0;
    int exponent = 0;
    double to_double() const;  // exact whenever the rounded value fits a double (all of mmasp's formats do)
  };
  Rounded round(int mantissa_bits, int min_exponent) const;

  // The nearest double (round to nearest even, once). Every sum mmasp forms lies inside double's exponent range.
  double to_double() const;

  bool operator==(const ExactSum& other) const = default;   // the same exact value

 private:
  std::array<uint64_t, kLimbs> limbs_{};
};

}  // namespace mmasp
