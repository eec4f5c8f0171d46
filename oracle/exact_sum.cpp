#include "oracle/exact_sum.h"

#include <bit>
#include <cmath>
#include <stdexcept>

namespace mmasp {
namespace {

using Limbs = std::array<uint64_t, ExactSum::kLimbs>;

void add_limbs(Limbs& to, const Limbs& from) {
  unsigned __int128 carry = 0;
  for (size_t i = 0; i < to.size(); ++i) {
    carry += (unsigned __int128)to[i] + from[i];
    to[i] = uint64_t(carry);
    carry >>= 64;
  }
}

void negate(Limbs& limbs) {
  for (auto& limb : limbs) limb = ~limb;
  Limbs one{};
  one[0] = 1;
  add_limbs(limbs, one);
}

bool bit_at(const Limbs& limbs, int position) {
  if (position < 0) return false;
  return (limbs[size_t(position / 64)] >> (position % 64)) & 1;
}

// Highest set bit, or -1 for zero.
int highest_bit(const Limbs& limbs) {
  for (int i = int(limbs.size()) - 1; i >= 0; --i)
    if (limbs[size_t(i)] != 0) return i * 64 + 63 - std::countl_zero(limbs[size_t(i)]);
  return -1;
}

bool any_bit_below(const Limbs& limbs, int position) {
  for (int i = 0; i < position && i < int(limbs.size()) * 64; ++i)
    if (bit_at(limbs, i)) return true;
  return false;
}

}  // namespace

void ExactSum::add(bool negative, unsigned __int128 significand, int exponent) {
  if (significand == 0) return;
  const int shift = exponent - kLowestExponent;
  const uint64_t low = uint64_t(significand), high = uint64_t(significand >> 64);
  const int length = high ? 128 - std::countl_zero(high) : 64 - std::countl_zero(low);
  const int top = shift + length - 1;
  // Leave 8 bits of headroom below the sign bit so that no sum of up to 256 terms can wrap.
  if (shift < 0 || top > kLimbs * 64 - 9) throw std::out_of_range("ExactSum: term outside the accumulator's grid");
  Limbs term{};
  const size_t limb = size_t(shift / 64);
  const int bit = shift % 64;
  term[limb] = low << bit;
  if (limb + 1 < term.size()) term[limb + 1] = (bit ? low >> (64 - bit) : 0) | (high << bit);
  if (limb + 2 < term.size() && bit) term[limb + 2] = high >> (64 - bit);
  if (negative) negate(term);
  add_limbs(limbs_, term);
}

void ExactSum::add(const ExactSum& other) { add_limbs(limbs_, other.limbs_); }

bool ExactSum::is_zero() const {
  for (uint64_t limb : limbs_)
    if (limb) return false;
  return true;
}

bool ExactSum::is_negative() const { return limbs_.back() >> 63; }

ExactSum::Rounded ExactSum::round(int mantissa_bits, int min_exponent) const {
  Rounded result;
  Limbs magnitude = limbs_;
  result.negative = is_negative();
  if (result.negative) negate(magnitude);
  const int top = highest_bit(magnitude);
  if (top < 0) return result;
  // The quantum of the result's binade, clamped to the subnormal quantum of the format.
  const int top_exponent = top + kLowestExponent;
  const int quantum_exponent = std::max(top_exponent, min_exponent) - mantissa_bits;
  const int quantum_bit = quantum_exponent - kLowestExponent;
  uint64_t kept = 0;
  for (int position = top; position >= std::max(quantum_bit, 0); --position)
    kept = (kept << 1) | uint64_t(bit_at(magnitude, position));
  if (quantum_bit > top) kept = 0;
  if (quantum_bit < 0) kept <<= -quantum_bit;  // the grid is finer than needed: nothing to round
  const bool half = bit_at(magnitude, quantum_bit - 1);
  const bool sticky = any_bit_below(magnitude, quantum_bit - 1);
  if (half && (sticky || (kept & 1))) ++kept;
  result.significand = kept;
  result.exponent = quantum_exponent;
  return result;
}

double ExactSum::Rounded::to_double() const {
  double magnitude = std::ldexp(double(significand), exponent);
  return negative ? -magnitude : magnitude;
}

double ExactSum::to_double() const { return round(52, -1022).to_double(); }

}  // namespace mmasp
