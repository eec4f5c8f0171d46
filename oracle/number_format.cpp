#include "oracle/number_format.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <iterator>
#include <stdexcept>

namespace mmasp {
namespace {

// 2^exponent for -1074 <= exponent <= 1023, exactly.
double power_of_two(int exponent) {
  if (exponent >= -1022) return std::bit_cast<double>(uint64_t(exponent + 1023) << 52);
  return std::bit_cast<double>(uint64_t(1) << (exponent + 1074));
}

using T = ElemType;

// PTX ISA 5.2.3 and IEEE 754. tf32 is the top 19 bits of a 32-bit register: 1 sign, 8 exponent, 10 mantissa bits.
// What mma does with the 13 bits below is not stated for mma (the ISA's wgmma text says they are ignored); the oracle
// models them as ignored. The special case tf32-low-bits-set checks it on every run; it held for every tf32 form on an
// H100 (driver 580.159.04; the committed baselines in evidence/baselines/).
const FloatFormat kFloatFormats[] = {
    {T::f16, 5, 10, 15, true, Specials::ieee, true, 16, 0},
    {T::bf16, 8, 7, 127, true, Specials::ieee, true, 16, 0},
    {T::tf32, 8, 10, 127, true, Specials::ieee, true, 19, 13},
    {T::f32, 8, 23, 127, true, Specials::ieee, true, 32, 0},
    {T::e4m3, 4, 3, 7, true, Specials::nan_all_ones, true, 8, 0},
    {T::e5m2, 5, 2, 15, true, Specials::ieee, true, 8, 0},
    {T::e3m2, 3, 2, 3, true, Specials::none, true, 6, 0},
    {T::e2m3, 2, 3, 1, true, Specials::none, true, 6, 0},
    {T::e2m1, 2, 1, 1, true, Specials::none, true, 4, 0},
    // ue8m0: 2^(E-127) for E = 0..254, 0xFF NaN; no zero, no subnormals (OCP MX v1.0 E8M0).
    {T::ue8m0, 8, 0, 127, false, Specials::nan_all_ones, false, 8, 0},
    // ue4m3: e4m3 without its sign bit, in a byte whose top bit must be 0.
    {T::ue4m3, 4, 3, 7, false, Specials::nan_all_ones, true, 7, 0},
};

int max_exponent_code(const FloatFormat& f) { return (1 << f.exponent_bits) - 1; }
uint32_t mantissa_mask(const FloatFormat& f) { return (1u << f.mantissa_bits) - 1; }

uint32_t assemble(const FloatFormat& f, bool negative, uint32_t exponent, uint32_t mantissa) {
  uint32_t code = (exponent << f.mantissa_bits) | mantissa;
  if (f.has_sign && negative) code |= 1u << (f.exponent_bits + f.mantissa_bits);
  return code << f.low_pad_bits;
}

uint32_t nan_code(const FloatFormat& f) {
  uint32_t mantissa = f.specials == Specials::ieee ? 1u << (f.mantissa_bits - 1) : mantissa_mask(f);
  return assemble(f, false, uint32_t(max_exponent_code(f)), mantissa);
}

// The largest finite code: the top exponent is reserved for Inf/NaN in IEEE formats, only its all-ones mantissa for
// NaN in nan_all_ones formats, and nothing in the others.
uint32_t largest_finite(const FloatFormat& f) {
  switch (f.specials) {
    case Specials::ieee: return assemble(f, false, uint32_t(max_exponent_code(f) - 1), mantissa_mask(f));
    case Specials::nan_all_ones:
      if (f.mantissa_bits == 0) return assemble(f, false, uint32_t(max_exponent_code(f) - 1), 0);
      return assemble(f, false, uint32_t(max_exponent_code(f)), mantissa_mask(f) - 1);
    case Specials::none: return assemble(f, false, uint32_t(max_exponent_code(f)), mantissa_mask(f));
  }
  return 0;
}

}  // namespace

const FloatFormat* float_format(ElemType type) {
  // Indexed by the enum rather than searched: encode and decode ask for every element of every result.
  static const auto by_type = [] {
    std::array<const FloatFormat*, size_t(ElemType::ue4m3) + 1> table{};
    for (const auto& format : kFloatFormats) table[size_t(format.type)] = &format;
    return table;
  }();
  return size_t(type) < by_type.size() ? by_type[size_t(type)] : nullptr;
}

double ExactValue::to_double() const {
  switch (cls) {
    case FloatClass::nan: return std::numeric_limits<double>::quiet_NaN();
    case FloatClass::infinite: return negative ? -HUGE_VAL : HUGE_VAL;
    case FloatClass::zero: return negative ? -0.0 : 0.0;
    default: {
      double magnitude = double(significand) * power_of_two(exponent);   // exact: the product is in range
      return negative ? -magnitude : magnitude;
    }
  }
}

std::optional<ExactValue> decode(ElemType type, uint32_t code) {
  const FloatFormat* f = float_format(type);
  if (!f) throw std::invalid_argument("decode: not a float type");
  uint32_t bits = code >> f->low_pad_bits;
  if (f->code_bits < 32 && (bits >> f->code_bits) != 0) return std::nullopt;
  ExactValue value;
  value.negative = f->has_sign && ((bits >> (f->exponent_bits + f->mantissa_bits)) & 1);
  int exponent = int((bits >> f->mantissa_bits) & uint32_t(max_exponent_code(*f)));
  uint32_t mantissa = bits & mantissa_mask(*f);
  bool top_exponent = exponent == max_exponent_code(*f);
  if (f->specials == Specials::ieee && top_exponent) {
    value.cls = mantissa == 0 ? FloatClass::infinite : FloatClass::nan;
    return value;
  }
  if (f->specials == Specials::nan_all_ones && top_exponent && mantissa == mantissa_mask(*f)) {
    value.cls = FloatClass::nan;
    return value;
  }
  if (exponent == 0 && f->has_subnormals) {
    value.cls = mantissa == 0 ? FloatClass::zero : FloatClass::subnormal;
    value.significand = mantissa;
    value.exponent = 1 - f->bias - f->mantissa_bits;
    return value;
  }
  value.cls = FloatClass::normal;
  value.significand = (uint64_t(1) << f->mantissa_bits) | mantissa;
  value.exponent = exponent - f->bias - f->mantissa_bits;
  return value;
}

double decode_to_double(ElemType type, uint32_t code) {
  auto value = decode(type, code);
  return value ? value->to_double() : std::numeric_limits<double>::quiet_NaN();
}

uint32_t max_finite_code(ElemType type) {
  const FloatFormat* f = float_format(type);
  if (!f) throw std::invalid_argument("max_finite_code: not a float type");
  return largest_finite(*f);
}

namespace {

// encode() runs once per element of every reference result: these replace ilogb, ldexp and a decode per call
// (power_of_two, above, too).
// x rounded to an integer, ties to even, for 0 <= x < 2^52: x + 2^52 has no fraction bits, so the addition rounds
// (in the default rounding mode, which nearbyint also uses) and the subtraction is exact. IEEE arithmetic (no
// -ffast-math, which the build never sets) keeps the compiler from folding the pair away.
double round_to_integer(double x) { return (x + 0x1p52) - 0x1p52; }
// floor(log2(x)) for finite x > 0, like ilogb.
int binade_of(double x) {
  const int biased = int(std::bit_cast<uint64_t>(x) >> 52 & 0x7FF);
  return biased ? biased - 1023 : std::ilogb(x);
}
double largest_finite_value(const FloatFormat& f) {
  static const auto values = [] {
    std::array<double, std::size(kFloatFormats)> out{};
    for (size_t i = 0; i < out.size(); ++i) out[i] = decode_to_double(kFloatFormats[i].type, largest_finite(kFloatFormats[i]));
    return out;
  }();
  return values[size_t(&f - kFloatFormats)];
}

}  // namespace

std::optional<uint32_t> encode(ElemType type, double value, Overflow overflow) {
  const FloatFormat* f = float_format(type);
  if (!f) throw std::invalid_argument("encode: not a float type");
  if (std::isnan(value)) {
    if (f->specials == Specials::none) return std::nullopt;
    return nan_code(*f);
  }
  bool negative = std::signbit(value) && f->has_sign;
  if (std::signbit(value) && !f->has_sign && value != 0) return std::nullopt;
  double magnitude = std::fabs(value);
  const double max_finite = largest_finite_value(*f);
  auto overflowed = [&]() -> std::optional<uint32_t> {
    if (overflow == Overflow::saturate) return largest_finite(*f) | assemble(*f, negative, 0, 0);
    if (f->specials == Specials::ieee) return assemble(*f, negative, uint32_t(max_exponent_code(*f)), 0);
    if (f->specials == Specials::nan_all_ones) return nan_code(*f);
    return std::nullopt;
  };
  if (std::isinf(magnitude)) return overflowed();
  if (magnitude == 0) {
    if (!f->has_subnormals) return std::nullopt;  // ue8m0 has no zero
    return assemble(*f, negative, 0, 0);
  }

  // The quantum (value of one unit in the last place) at magnitude's binade, clamped to the subnormal quantum;
  // scaling by it is exact, so round_to_integer (ties to even) rounds exactly once.
  // (Scaling by a power of two is exact here: every intermediate lies between 2^-1074 and 2^(mantissa bits + 1).)
  const int min_normal_exponent = f->has_subnormals ? 1 - f->bias : -f->bias;
  int binade = binade_of(magnitude);
  int quantum_exponent = std::max(binade, min_normal_exponent) - f->mantissa_bits;
  double units = round_to_integer(magnitude * power_of_two(-quantum_exponent));   // < 2^(mantissa bits + 1)
  double rounded = units * power_of_two(quantum_exponent);
  if (rounded > max_finite) return overflowed();
  if (rounded == 0) {
    // Without subnormals there is no zero either (ue8m0): the smallest code, 2^-bias, is the nearest value.
    return assemble(*f, negative && f->has_subnormals, 0, 0);
  }
  int rounded_binade = binade_of(rounded);
  if (rounded_binade < min_normal_exponent) {
    auto mantissa = uint32_t(rounded * power_of_two(-(min_normal_exponent - f->mantissa_bits)));
    return assemble(*f, negative, 0, mantissa);
  }
  uint32_t exponent_code = uint32_t(rounded_binade + f->bias);
  auto significand = uint32_t(rounded * power_of_two(f->mantissa_bits - rounded_binade));
  return assemble(*f, negative, exponent_code, significand & mantissa_mask(*f));
}

int64_t decode_integer(ElemType type, uint32_t code) {
  switch (type) {
    case T::u8: return code & 0xFF;
    case T::s8: return int64_t(int8_t(uint8_t(code)));
    case T::u4: return code & 0xF;
    case T::s4: return (code & 0x8) ? int64_t(code & 0xF) - 16 : int64_t(code & 0xF);
    case T::s32: return int64_t(int32_t(code));
    default: throw std::invalid_argument("decode_integer: not an integer type");
  }
}

IntegerRange integer_range(ElemType type) {
  if (info(type).is_float) throw std::invalid_argument("integer_range: not an integer type");
  const int bits = info(type).bits;
  const bool is_signed = type == T::s8 || type == T::s4 || type == T::s32;
  if (is_signed) return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
  return {0, (int64_t(1) << bits) - 1};
}

uint32_t encode_integer(ElemType type, int64_t value) {
  int width = info(type).bits;
  if (info(type).is_float) throw std::invalid_argument("encode_integer: not an integer type");
  return width == 32 ? uint32_t(value) : uint32_t(value) & ((1u << width) - 1);
}

Container container_of(ElemType type, Kind kind) {
  if (kind == Kind::f8f6f4 || kind == Kind::mxf8f6f4) return {8, type == T::e2m1 ? 2 : 0};
  return {info(type).bits, 0};
}

uint32_t to_container(ElemType type, Kind kind, uint32_t code) { return code << container_of(type, kind).shift; }

uint32_t from_container(ElemType type, Kind kind, uint32_t container) {
  Container where = container_of(type, kind);
  int code_bits = info(type).bits;
  uint32_t mask = code_bits == 32 ? ~0u : (1u << code_bits) - 1;
  return (container >> where.shift) & mask;
}

std::vector<uint32_t> pack_registers(std::span<const uint32_t> containers, int bits) {
  const int per_register = 32 / bits;
  std::vector<uint32_t> registers((containers.size() + per_register - 1) / per_register, 0);
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  for (size_t i = 0; i < containers.size(); ++i) {
    if ((containers[i] & ~mask) != 0) throw std::invalid_argument("pack_registers: value wider than its container");
    registers[i / per_register] |= containers[i] << (bits * (i % per_register));
  }
  return registers;
}

std::vector<uint32_t> unpack_registers(std::span<const uint32_t> registers, int bits) {
  const int per_register = 32 / bits;
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  std::vector<uint32_t> containers;
  for (uint32_t reg : registers)
    for (int i = 0; i < per_register; ++i) containers.push_back((reg >> (bits * i)) & mask);
  return containers;
}

}  // namespace mmasp
