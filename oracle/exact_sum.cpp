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

}  // namespace

void ExactSum::add(bool negative, unsigned __int128 significand, int exponent) {
  if (significand == 0) return;
  const int shift = exponent - kLowestExponent;
  const uint64_t low = uint64_t(significand), high = uint64_t(significand >> 64);
  const int length = high ? 128 - std::countl_zero(high) : 64 - std::countl_zero(low);
  const int top = shift + length - 1;
  // Leave 8 bits of headroom below the sign bit so that no sum of up to 256 terms can wrap.
  if (shift < 0 || top > kLimbs * 64 - 9) throw std::out_of_range("ExactSum: term outside the accumulator's grid");
  const size_t limb = size_t(shift / 64);
  const int bit = shift % 64;
  // The term spans at most three limbs; add or subtract them, then carry or borrow only as far as needed.
  uint64_t parts[3] = {low << bit, (bit ? low >> (64 - bit) : 0) | (high << bit), bit ? high >> (64 - bit) : 0};
  if (!negative) {
    unsigned __int128 carry = 0;
    for (size_t i = limb; i < limbs_.size(); ++i) {
      const uint64_t part = i - limb < 3 ? parts[i - limb] : 0;
      carry += (unsigned __int128)limbs_[i] + part;
      limbs_[i] = uint64_t(carry);
      carry >>= 64;
      if (carry == 0 && i - limb >= 2) break;
    }
  } else {
    uint64_t borrow = 0;
    for (size_t i = limb; i < limbs_.size(); ++i) {
      const uint64_t part = i - limb < 3 ? parts[i - limb] : 0;
      const uint64_t before = limbs_[i];
      const uint64_t after = before - part - borrow;
      borrow = (before < part) || (before - part < borrow) ? 1 : 0;
      limbs_[i] = after;
      if (borrow == 0 && i - limb >= 2) break;
    }
  }
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
  result.exponent = quantum_exponent;
  if (quantum_bit <= 0) {
    // The grid is at least as fine as needed: nothing to round (the value has at most 64 significant bits here).
    uint64_t kept = 0;
    for (int position = top; position >= 0; --position) kept = (kept << 1) | uint64_t(bit_at(magnitude, position));
    result.significand = kept << -quantum_bit;
    return result;
  }
  auto bits_from = [&](int position) -> uint64_t {  // 64 bits of the magnitude starting at `position`
    const size_t limb = size_t(position / 64);
    const int offset = position % 64;
    uint64_t value = limb < magnitude.size() ? magnitude[limb] >> offset : 0;
    if (offset && limb + 1 < magnitude.size()) value |= magnitude[limb + 1] << (64 - offset);
    return value;
  };
  uint64_t kept = quantum_bit > top ? 0 : bits_from(quantum_bit);
  const int kept_bits = top - quantum_bit + 1;
  if (kept_bits > 0 && kept_bits < 64) kept &= (uint64_t(1) << kept_bits) - 1;
  const bool half = bit_at(magnitude, quantum_bit - 1);
  bool sticky = false;
  const int below = quantum_bit - 1;  // bits [0, below) decide the sticky bit
  for (size_t i = 0; i < size_t(below / 64) && !sticky; ++i) sticky = magnitude[i] != 0;
  if (!sticky && below % 64) sticky = (magnitude[size_t(below / 64)] & ((uint64_t(1) << (below % 64)) - 1)) != 0;
  if (half && (sticky || (kept & 1))) ++kept;
  result.significand = kept;
  return result;
}

double ExactSum::Rounded::to_double() const {
  double magnitude = std::ldexp(double(significand), exponent);
  return negative ? -magnitude : magnitude;
}

double ExactSum::to_double() const { return round(52, -1022).to_double(); }

}  // namespace mmasp
