// Number formats of mma.sp operands: exact decoding, round-to-nearest-even encoding, and packing into .b32
// registers. Pure C++; every format parameter lives in the table in number_format.cpp.
//
// Sources: PTX ISA 5.2.3 (alternate floating-point formats e4m3/e5m2/e3m2/e2m3/e2m1, ue8m0/ue4m3), 5.2.5.1 (packed
// f16x2), 9.7.14.6.3 (8-bit containers for kind::f8f6f4 / kind::mxf8f6f4, tight e2m1 for mxf4/mxf4nvf4), IEEE 754
// binary16/binary32, and the OCP 8-bit floating point (OFP8) and Microscaling (MX) v1.0 specifications.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "oracle/element_type.h"
#include "oracle/instruction_space.h"

namespace mmasp {

// How a float format spends its top exponent code.
enum class Specials {
  ieee,            // E all ones: M == 0 is Inf, otherwise NaN (f16, bf16, tf32, f32, e5m2)
  nan_all_ones,    // only E and M all ones is NaN, no Inf (e4m3, ue4m3, and ue8m0 whose M is empty)
  none,            // every code is finite (e3m2, e2m3, e2m1)
};

struct FloatFormat {
  ElemType type;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_sign;
  Specials specials;
  bool has_subnormals;   // false for ue8m0, whose E = 0 is the normal value 2^-127
  int code_bits;         // bits that carry the encoding (19 for tf32)
  int low_pad_bits;      // bits below the encoding in its register slot (13 for tf32)
};

// The format of a float element or scale type; nullptr for integers.
const FloatFormat* float_format(ElemType type);

enum class FloatClass { zero, subnormal, normal, infinite, nan };

// |value| = significand * 2^exponent, exactly. Zero, Inf and NaN have significand 0.
struct ExactValue {
  FloatClass cls = FloatClass::zero;
  bool negative = false;
  uint64_t significand = 0;
  int exponent = 0;
  double to_double() const;  // exact: every format here fits in a double
};

// Decodes one code (the encoding's own bits, right-aligned; tf32 as the full 32-bit register). Returns nullopt for
// codes the format does not define (ue4m3 with its top bit set).
std::optional<ExactValue> decode(ElemType type, uint32_t code);
double decode_to_double(ElemType type, uint32_t code);  // NaN for undefined codes

enum class Overflow {
  saturate,        // clamp to the largest finite value (.satfinite; also what OCP MX conversions do)
  infinity,        // IEEE: Inf where the format has it, NaN where it has only NaN, and nullopt where it has neither
};

// Rounds to nearest, ties to even. nullopt where no code represents the result (NaN in a format without NaN, a
// negative value in an unsigned format, or an unrepresentable overflow).
std::optional<uint32_t> encode(ElemType type, double value, Overflow overflow = Overflow::infinity);

uint32_t max_finite_code(ElemType type);  // positive

// Integers: two's complement for s8/s4, plain for u8/u4; codes are right-aligned.
int64_t decode_integer(ElemType type, uint32_t code);
struct IntegerRange {
  int64_t min = 0, max = 0;
};
IntegerRange integer_range(ElemType type);  // s8 -128..127, u4 0..15, s32 INT32_MIN..INT32_MAX, ...
uint32_t encode_integer(ElemType type, int64_t value);  // wraps to the type's width

// --- Packing inside .b32 registers. ---------------------------------------------------------------------------------
// Element i of a register sits in bits [w*i + w - 1 : w*i] of it, lowest element lowest (9.7.14.6.2 "Elements (low to
// high)", 5.2.5.1 for f16x2), w being the container width.

// Where a code sits inside its container: under kind::f8f6f4 / kind::mxf8f6f4, e2m1 occupies bits 5..2 of a byte and
// e3m2/e2m3 bits 5..0 (9.7.14.6.3); everywhere else the container is the code.
struct Container {
  int bits;    // container width in the register
  int shift;   // the code's lowest bit inside the container
};
Container container_of(ElemType type, Kind kind);
uint32_t to_container(ElemType type, Kind kind, uint32_t code);
uint32_t from_container(ElemType type, Kind kind, uint32_t container);  // drops the padding bits

// Packs container values (each < 2^bits) into registers, 32/bits to a register.
std::vector<uint32_t> pack_registers(std::span<const uint32_t> containers, int bits);
std::vector<uint32_t> unpack_registers(std::span<const uint32_t> registers, int bits);

}  // namespace mmasp
