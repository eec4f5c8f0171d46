// The arithmetic of the bit-exact model (numeric_model.h) for one element of D, written once for two compilers: the
// host's, where model_result() runs it, and nvcc's, where the GPU-resident check (resident/resident.h) runs the very
// same code on every case it judges. Plain C++ with no CUDA: under nvcc MMASP_PORTABLE marks the functions
// __host__ __device__, elsewhere it is `inline`. No exceptions, no allocation, no standard-library calls on the
// device path; the caller checks its inputs first (model_result throws for what this code cannot take).
//
// What the model computes, and where each parameter comes from, is said in numeric_model.h and numeric_model_table.cpp.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
// Inlined by force: the resident kernels' speed rests on every call of this code being inlined, and nvcc's own choice
// moves with the kernels around it (a kernel added beside the others can leave draw_codes, decode_narrow and the
// narrow judge outlined in every kernel, and the lean kernels spilling). What must stay a call says so
// (MMASP_SHARED_CODE, __noinline__).
#define MMASP_PORTABLE __host__ __device__ __forceinline__
#else
#define MMASP_PORTABLE inline
#endif
// nvcc unrolls the loop that follows, or keeps it a loop; host compilers take no pragma (gcc would warn of an unknown
// one).
#if defined(__CUDA_ARCH__)
#define MMASP_UNROLL _Pragma("unroll")
#define MMASP_NO_UNROLL _Pragma("unroll 1")
#else
#define MMASP_UNROLL
#define MMASP_NO_UNROLL
#endif
// A lambda inlined by force on a GPU, as MMASP_PORTABLE functions are (after its parameter list): nvcc outlined the
// ones marked so when the kernels around them changed. Host compilers choose for themselves.
#if defined(__CUDACC__)
#define MMASP_INLINE_LAMBDA __attribute__((always_inline))
#else
#define MMASP_INLINE_LAMBDA
#endif

namespace mmasp {

// --- The parameter space (numeric_model.h documents each value). -----------------------------------------------------
enum class ShiftedOut { truncate, floor, nearest_even, floor_in_largest_sign };
enum class Rounding { toward_zero, nearest_even };
enum class AlignmentExponent { leading_bit, exponent_sum };
enum class CPlacement { first_block, after_products, fadd_after };
enum class NarrowOutput { from_sum, via_f32 };
enum class BlockCombination { chained, fadd };
enum class Subnormals { kept, flushed };
enum class SubnormalRounding { as_normal, nearest_even, nearest_after_truncation };
enum class SumOverflow { to_infinity, saturate };
enum class ScalePlacement { product, block_sum };

// Model events (issue #17; numeric_model.h lists what each value means).
enum class ModelEvent : uint8_t {
  block_terms, alignment_from_c, shifted_out, shifted_out_lost, carry, cancellation, rounding, result, special,
  rounding_bits, second_term_gap,
};
inline constexpr int kModelEventKinds = 11;
inline constexpr int kModelEventValues = 72;
enum class ModelStage : uint8_t { first_block, later_block, c_addition };
inline constexpr int kModelStages = 3;

namespace model {

MMASP_PORTABLE int bit_length(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 64 - __clzll((long long)x);
#else
  return x ? 64 - __builtin_clzll(x) : 0;
#endif
}
MMASP_PORTABLE int max_of(int a, int b) { return a > b ? a : b; }
// A bool known at compile time, where a function takes a bool or one of these (std::integral_constant's conversion
// is a host function to nvcc).
template <bool kValue>
struct KnownBool {
  static constexpr bool value = kValue;
  MMASP_PORTABLE constexpr operator bool() const { return kValue; }
};

// A finite value as significand * 2^exponent, or a special. `field` is the exponent the hardware's exponent field
// gives it (subnormals: the format's smallest normal exponent), used by AlignmentExponent::exponent_sum.
struct Value {
  enum Class : uint8_t { zero, finite, infinite, nan };
  Class cls = zero;
  bool negative = false;
  uint64_t significand = 0;
  int exponent = 0;
  int field = 0;
};

// Where a fault of the datapath enters the arithmetic (oracle/fault_model.h, issue #71): nowhere, unless the events
// policy is the fault model's. Every call of a hook sits under `if constexpr (Events::faulty())`, so the fault-free
// arithmetic, on the host and in the resident kernels, compiles to exactly the code it had without them.
//  - lane(s): stored product s's operands come next (sum_block says so before each product);
//  - product(significand): the product significand of the current lane;
//  - alignment_change(product, distance): how many places further right the faulty alignment shifts a term whose
//    alignment exponent is `distance` below the block's largest (a product of the current lane, or the accumulator's
//    or C's term);
//  - block_sum(sum): the block's aligned two's-complement sum, before normalisation;
//  - normalise(significand, exponent): the block's sum as the normaliser hands it to the rounding;
//  - sticky(bit), round_up(decision): the rounding's sticky bit and its increment;
//  - accumulator(value): the rounded partial sum carried into the next block.
struct NoFaults {
  MMASP_PORTABLE static constexpr bool faulty() { return false; }
  MMASP_PORTABLE void lane(int) const {}
  MMASP_PORTABLE uint64_t product(uint64_t significand) const { return significand; }
  MMASP_PORTABLE int alignment_change(bool, int) const { return 0; }
  template <class Sum>
  MMASP_PORTABLE Sum block_sum(Sum sum) const { return sum; }
  MMASP_PORTABLE void normalise(uint64_t&, int&) const {}
  MMASP_PORTABLE bool sticky(bool bit) const { return bit; }
  MMASP_PORTABLE bool round_up(bool decision) const { return decision; }
  MMASP_PORTABLE Value accumulator(const Value& value) const { return value; }
};

// Where the events go: nowhere (the device, and the host when no sink is installed), or to the host's sink
// (numeric_model.cpp). `on()` guards the work of computing an event's value.
struct NoEvents : NoFaults {
  MMASP_PORTABLE static constexpr bool on() { return false; }
  MMASP_PORTABLE void report(ModelEvent, int) const {}
  MMASP_PORTABLE void stage(ModelStage) const {}
};

// An operand's float encoding, from number_format's FloatFormat (the host fills it: operand_format()).
struct OperandFormat {
  int exponent_bits = 0, mantissa_bits = 0, bias = 0, low_pad_bits = 0;
  uint8_t specials = 0;        // 0: IEEE (all-ones exponent is Inf/NaN), 1: only all ones is NaN, 2: every code finite
  bool fp8_fields_as_f16 = false;   // the alignment exponent field is f16's (ModelParameters::fp8_fields_as_f16)
  int code_bits() const { return 1 + exponent_bits + mantissa_bits; }
};
// f16's exponent bias, and below the result formats' fields: restated here because device code cannot read
// number_format's table; ModelArithmetic.FormatConstantsAreNumberFormats checks them against it.
inline constexpr int kF16Bias = 15;

MMASP_PORTABLE Value decode_operand(uint32_t code, const OperandFormat& f, Subnormals subnormals) {
  Value v;
  const uint32_t mantissa_mask = (1u << f.mantissa_bits) - 1, exponent_mask = (1u << f.exponent_bits) - 1;
  v.negative = (code >> (f.low_pad_bits + f.mantissa_bits + f.exponent_bits)) & 1;
  const uint32_t exponent = (code >> (f.low_pad_bits + f.mantissa_bits)) & exponent_mask;
  const uint32_t mantissa = (code >> f.low_pad_bits) & mantissa_mask;
  if (f.specials == 0 && exponent == exponent_mask) {
    v.cls = mantissa ? Value::nan : Value::infinite;
    return v;
  }
  if (f.specials == 1 && exponent == exponent_mask && mantissa == mantissa_mask) {
    v.cls = Value::nan;
    return v;
  }
  if (exponent == 0 && (mantissa == 0 || subnormals == Subnormals::flushed)) return v;   // a (signed) zero
  v.cls = Value::finite;
  v.significand = exponent ? (mantissa | (1u << f.mantissa_bits)) : mantissa;
  v.exponent = (exponent ? int(exponent) : 1) - f.bias - f.mantissa_bits;
  const int smallest_normal = 1 - (f.fp8_fields_as_f16 ? kF16Bias : f.bias);
  // The value's binade, at least the smallest normal one. Taking a normal code's from its exponent field instead (no
  // leading bit to find) is the same field, but it gives ptxas's allocation of the lean resident kernel a stack frame
  // that slows every float form.
  v.field = max_of(bit_length(v.significand) - 1 + v.exponent, smallest_normal);
  return v;
}

// A result format: the accumulator's f32 and an f16 D. The canonical NaN (every bit but the sign) is what the
// hardware returns; the default quiet NaN is IEEE's (the top mantissa bit).
struct ResultFormat {
  int mantissa_bits, min_exponent, max_exponent;
  uint32_t sign_bit, canonical_nan, default_nan, infinity;
};
MMASP_PORTABLE constexpr ResultFormat result_format(int exponent_bits, int mantissa_bits, int bias) {
  const uint32_t sign = 1u << (exponent_bits + mantissa_bits);
  const uint32_t infinity = ((1u << exponent_bits) - 1) << mantissa_bits;
  return {mantissa_bits, 1 - bias, (1 << exponent_bits) - 2 - bias, sign, sign - 1, infinity | (1u << (mantissa_bits - 1)),
          infinity};
}
// Functions, not variables: device code may not take a host variable's address.
MMASP_PORTABLE constexpr ResultFormat f32_format() { return result_format(8, 23, 127); }
MMASP_PORTABLE constexpr ResultFormat f16_format() { return result_format(5, 10, 15); }
MMASP_PORTABLE constexpr bool is_f32(const ResultFormat& format) {
  return format.mantissa_bits == 23 && format.max_exponent == 127;
}
inline constexpr int kF32MinSubnormalExponent = -149;

// The parameters the arithmetic reads (a copy of ModelParameters' fields, trivially copyable to a GPU).
struct Parameters {
  int block_products = 16;
  int block_interleave = 0;
  int fraction_bits = 25;
  ShiftedOut shifted_out = ShiftedOut::truncate;
  AlignmentExponent alignment = AlignmentExponent::leading_bit;
  bool fp8_fields_as_f16 = false;
  Rounding block_rounding = Rounding::toward_zero;
  Rounding output_rounding = Rounding::nearest_even;
  NarrowOutput narrow_output = NarrowOutput::from_sum;
  CPlacement c_placement = CPlacement::first_block;
  BlockCombination block_combination = BlockCombination::chained;
  Subnormals subnormal_inputs = Subnormals::kept;
  Subnormals subnormal_results = Subnormals::kept;
  SubnormalRounding subnormal_rounding = SubnormalRounding::as_normal;
  int alignment_floor_guard = -1;
  SumOverflow overflow = SumOverflow::to_infinity;
  bool signed_zero_results = true;
  bool canonical_nan = true;
  // Block scale only (kind::mxf8f6f4, mxf4, mxf4nvf4; numeric_model.h): where the scale factors multiply, and how the
  // product of a row's and a column's scale is rounded (to scale_bits significant bits; 8 holds any ue4m3 x ue4m3
  // product exactly, and a ue8m0 x ue8m0 product is a power of two).
  ScalePlacement scale_placement = ScalePlacement::product;
  int scale_bits = 8;
  Rounding scale_rounding = Rounding::nearest_even;
  bool operator==(const Parameters&) const = default;
};

// The parameters with every choice but the four numbers fixed at compile time. The arithmetic below is a template
// over its parameters' type: instantiated with these, the compiler folds every branch on a fixed choice (the
// GPU-resident kernel's fast path, resident/resident_abi.h, which uses an instantiation only where matches() says the
// runtime parameters are exactly its choices). The values themselves still come from the table.
template <ShiftedOut kShiftedOut, AlignmentExponent kAlignment, Rounding kBlockRounding, Rounding kOutputRounding,
          NarrowOutput kNarrowOutput, CPlacement kCPlacement, BlockCombination kCombination, Subnormals kInputs,
          Subnormals kResults, SubnormalRounding kSubnormalRounding, SumOverflow kOverflow, bool kSignedZero,
          bool kCanonicalNan>
struct FixedChoices {
  int block_products = 16, block_interleave = 0, fraction_bits = 25, alignment_floor_guard = -1;
  bool fp8_fields_as_f16 = false;   // read by the operands' decoding only, never by the arithmetic
  static constexpr ShiftedOut shifted_out = kShiftedOut;
  static constexpr AlignmentExponent alignment = kAlignment;
  static constexpr Rounding block_rounding = kBlockRounding, output_rounding = kOutputRounding;
  static constexpr NarrowOutput narrow_output = kNarrowOutput;
  static constexpr CPlacement c_placement = kCPlacement;
  static constexpr BlockCombination block_combination = kCombination;
  static constexpr Subnormals subnormal_inputs = kInputs, subnormal_results = kResults;
  static constexpr SubnormalRounding subnormal_rounding = kSubnormalRounding;
  static constexpr SumOverflow overflow = kOverflow;
  static constexpr bool signed_zero_results = kSignedZero, canonical_nan = kCanonicalNan;

  MMASP_PORTABLE static bool matches(const Parameters& p) {
    return p.shifted_out == shifted_out && p.alignment == alignment && p.block_rounding == block_rounding &&
           p.output_rounding == output_rounding && p.narrow_output == narrow_output && p.c_placement == c_placement &&
           p.block_combination == block_combination && p.subnormal_inputs == subnormal_inputs &&
           p.subnormal_results == subnormal_results && p.subnormal_rounding == subnormal_rounding &&
           p.overflow == overflow && p.signed_zero_results == signed_zero_results && p.canonical_nan == canonical_nan;
  }
  MMASP_PORTABLE static FixedChoices from(const Parameters& p) {
    return {p.block_products, p.block_interleave, p.fraction_bits, p.alignment_floor_guard, p.fp8_fields_as_f16};
  }
};

// Any parameters as the runtime struct (for the exact additions, which change a few of them).
template <class P>
MMASP_PORTABLE Parameters as_runtime(const P& p) {
  Parameters r;
  r.block_products = p.block_products;
  r.block_interleave = p.block_interleave;
  r.fraction_bits = p.fraction_bits;
  r.shifted_out = p.shifted_out;
  r.alignment = p.alignment;
  r.fp8_fields_as_f16 = p.fp8_fields_as_f16;
  r.block_rounding = p.block_rounding;
  r.output_rounding = p.output_rounding;
  r.narrow_output = p.narrow_output;
  r.c_placement = p.c_placement;
  r.block_combination = p.block_combination;
  r.subnormal_inputs = p.subnormal_inputs;
  r.subnormal_results = p.subnormal_results;
  r.subnormal_rounding = p.subnormal_rounding;
  r.alignment_floor_guard = p.alignment_floor_guard;
  r.overflow = p.overflow;
  r.signed_zero_results = p.signed_zero_results;
  r.canonical_nan = p.canonical_nan;
  return r;
}

// Rounds (-1)^negative * magnitude * 2^exponent (magnitude != 0) to `format`.
template <class P, class Events>
MMASP_PORTABLE Value round_to(const ResultFormat& format, bool negative, uint64_t magnitude, int exponent,
                              Rounding rounding, const P& p, const Events& events) {
  const Subnormals subnormals = p.subnormal_results;
  Value v;
  v.negative = negative;
  const int leading = bit_length(magnitude) - 1 + exponent;
  if (leading < format.min_exponent) {
    if (p.subnormal_rounding == SubnormalRounding::nearest_even) rounding = Rounding::nearest_even;
    if (p.subnormal_rounding == SubnormalRounding::nearest_after_truncation) {
      const int excess = bit_length(magnitude) - (format.mantissa_bits + 1);
      if (excess > 0) magnitude = (magnitude >> excess) << excess;
      rounding = Rounding::nearest_even;
    }
  }
  const int quantum = max_of(leading, format.min_exponent) - format.mantissa_bits;
  const int shift = quantum - exponent;
  uint64_t significand;
  if (shift <= 0) {
    significand = magnitude << -shift;
    events.report(ModelEvent::rounding, 0);
  } else if (shift >= 64) {
    significand = 0;
    // Shifted 64 places, bit 63 is the half: above it only with a lower bit set (2^63 itself is a tie, to the even 0).
    if (rounding == Rounding::nearest_even && shift == 64 && magnitude > (uint64_t(1) << 63)) significand = 1;
    events.report(ModelEvent::rounding, magnitude == 0 ? 0 : significand ? 2 : 1);
  } else {
    significand = magnitude >> shift;
    const uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
    bool up = rounding == Rounding::nearest_even && (rest > half || (rest == half && (significand & 1)));
    if constexpr (Events::faulty()) {
      const bool guard = (rest >> (shift - 1)) & 1, sticky = events.sticky((rest & (half - 1)) != 0);
      up = events.round_up(rounding == Rounding::nearest_even && guard && (sticky || (significand & 1)));
    }
    if (events.on()) {
      const int guard = int((magnitude >> (shift - 1)) & 1), round = shift >= 2 ? int((magnitude >> (shift - 2)) & 1) : 0;
      const int sticky = shift >= 3 && (magnitude & ((uint64_t(1) << (shift - 2)) - 1)) != 0;
      events.report(ModelEvent::rounding_bits, 4 * guard + 2 * round + sticky);
    }
    if (up) ++significand;
    events.report(ModelEvent::rounding, rest == 0 ? 0 : up ? 2 : 1);
  }
  if (significand == 0) {
    events.report(ModelEvent::result, 0);
    v.cls = Value::zero;
    v.negative = negative && p.signed_zero_results;
    return v;
  }
  v.cls = Value::finite;
  v.significand = significand;
  v.exponent = quantum;
  const int result_leading = bit_length(significand) - 1 + quantum;
  if (result_leading > format.max_exponent) {
    events.report(ModelEvent::result, p.overflow == SumOverflow::to_infinity ? 4 : 3);
    if (p.overflow == SumOverflow::to_infinity) {
      v.cls = Value::infinite;
      return v;
    }
    v.significand = (uint64_t(1) << (format.mantissa_bits + 1)) - 1;
    v.exponent = format.max_exponent - format.mantissa_bits;
  } else {
    events.report(ModelEvent::result,
                  result_leading < format.min_exponent ? (subnormals == Subnormals::flushed ? 5 : 1) : 2);
  }
  if (result_leading < format.min_exponent && subnormals == Subnormals::flushed) {
    v.cls = Value::zero;
    v.negative = negative && p.signed_zero_results;
    return v;
  }
  v.field = max_of(bit_length(v.significand) - 1 + v.exponent, format.min_exponent);
  return v;
}

MMASP_PORTABLE uint32_t encode_value(const ResultFormat& format, const Value& v, bool canonical_nan) {
  const uint32_t sign = v.negative ? format.sign_bit : 0;
  switch (v.cls) {
    case Value::zero: return sign;
    case Value::infinite: return sign | format.infinity;
    case Value::nan: return canonical_nan ? format.canonical_nan : format.default_nan;
    case Value::finite: break;
  }
  const int leading = bit_length(v.significand) - 1 + v.exponent;
  const uint32_t mantissa_mask = (1u << format.mantissa_bits) - 1;
  if (leading < format.min_exponent) {
    // Subnormal: the significand sits on the quantum 2^(min_exponent - mantissa_bits).
    return sign | uint32_t(v.significand << (v.exponent - (format.min_exponent - format.mantissa_bits)));
  }
  // A rounding that carried (1.11..1 up to 10.00..0) leaves one bit more than the format holds, all below it zero:
  // shift right then (a left shift by a negative count is undefined; found by model_fuzz under UBSan).
  const int excess = bit_length(v.significand) - 1 - format.mantissa_bits;
  const uint64_t normalised = excess >= 0 ? v.significand >> excess : v.significand << -excess;
  return sign | (uint32_t(leading - format.min_exponent + 1) << format.mantissa_bits) | (uint32_t(normalised) & mantissa_mask);
}

// encode_value(format, round_to(format, negative, magnitude, exponent, rounding, p, NoEvents{}), p.canonical_nan) in
// one pass, for parameters whose result choices are fixed at compile time as the sm_90 records have them: subnormal
// results kept and rounded as normal ones, overflow to Inf, zero results unsigned; rounding toward zero or to nearest
// even. A finite result's code is (max(leading, min_exponent) - min_exponent) << mantissa_bits plus its significand:
// the significand's implicit bit (or a rounding's carry into the next binade, or a subnormal's into the smallest
// normal) adds one to the exponent field by itself, so there is one bit length to find instead of round_to's and
// encode_value's four. ModelArithmetic.RoundedCodeIsRoundToEncoded compares it with the two on every boundary.
template <class P>
MMASP_PORTABLE uint32_t rounded_code(const ResultFormat& format, bool negative, uint64_t magnitude, int exponent,
                                     Rounding rounding, const P&) {
  static_assert(P::subnormal_results == Subnormals::kept && P::subnormal_rounding == SubnormalRounding::as_normal &&
                    P::overflow == SumOverflow::to_infinity && !P::signed_zero_results,
                "rounded_code covers kept subnormal results rounded as normal, overflow to Inf, unsigned zeros");
  const int leading = bit_length(magnitude) - 1 + exponent;
  const uint32_t sign = negative ? format.sign_bit : 0;
  if (leading > format.max_exponent) return sign | format.infinity;   // no rounding brings it back below
  const int floored = max_of(leading, format.min_exponent);
  const int shift = floored - format.mantissa_bits - exponent;
  uint64_t significand;
  if (shift <= 0) {
    significand = magnitude << -shift;
  } else if (shift >= 64) {   // as round_to: above the half only past 2^63 at a shift of 64
    significand = rounding == Rounding::nearest_even && shift == 64 && magnitude > (uint64_t(1) << 63) ? 1 : 0;
  } else {
    significand = magnitude >> shift;
    if (rounding == Rounding::nearest_even) {
      const uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
      significand += rest > half || (rest == half && (significand & 1));
    }
  }
  if (significand == 0) return 0;
  const uint32_t code = (uint32_t(floored - format.min_exponent) << format.mantissa_bits) + uint32_t(significand);
  return sign | (code >= format.infinity ? format.infinity : code);
}

struct Term {
  bool negative;
  uint64_t significand;
  int exponent;
  int reference;   // its alignment exponent
  bool product;    // a product (else C or the running sum)
};

// One block: the terms' specials, then their aligned exact sum, rounded once. The terms are handed over twice and in
// the same order, without being stored: first (scan) to find the alignment exponent, the specials and what the
// events need, then (sum) to align and add them. Two passes over the operands cost a few integer operations more
// than a list of terms, and keep the block in registers on a GPU, where a list would live in local memory.
// The aligned sum's integer: 128 bits in general, 64 where fraction_bits <= kNarrowSumFractionBits. An aligned term
// is below 2^(fraction_bits + 2) (its value is below 2^(alignment exponent + 2), the alignment exponent at most the
// block's), so the sum of at most 64 terms stays below 2^(fraction_bits + 8): exactly the same sum either way, at a
// third of the cost on a GPU (no 128-bit shifts).
inline constexpr int kNarrowSumFractionBits = 54;
template <bool wide> struct SumType { using Signed = __int128; using Unsigned = unsigned __int128; };
template <> struct SumType<false> { using Signed = long long; using Unsigned = unsigned long long; };

template <class Events, bool wide = true, class P = Parameters>
class Block {
  using Signed = typename SumType<wide>::Signed;
  using Unsigned = typename SumType<wide>::Unsigned;

 public:
  MMASP_PORTABLE Block(const P& p, const Events& events) : p_(p), events_(events) {}
  MMASP_PORTABLE const Events& events() const { return events_; }

  // --- Pass 1. ---
  MMASP_PORTABLE void scan(const Value& v) {
    switch (v.cls) {
      case Value::zero: all_zero_negative_ &= v.negative; return;
      case Value::nan: nan_ = true; return;
      case Value::infinite: (v.negative ? negative_inf_ : positive_inf_) = true; return;
      case Value::finite: break;
    }
    all_zero_negative_ = false;
    note(term_of(v));
  }
  MMASP_PORTABLE void scan_product(const Value& a, const Value& b) {
    const bool negative = a.negative != b.negative;
    if (a.cls == Value::finite && b.cls == Value::finite) {
      all_zero_negative_ = false;
      note(product_of(a, b));
      return;
    }
    if (a.cls == Value::nan || b.cls == Value::nan) {
      events_.report(ModelEvent::special, 0);
      nan_ = true;
      return;
    }
    if (a.cls == Value::infinite || b.cls == Value::infinite) {
      if (a.cls == Value::zero || b.cls == Value::zero) {
        events_.report(ModelEvent::special, 1);
        nan_ = true;
      } else {
        (negative ? negative_inf_ : positive_inf_) = true;
      }
      return;
    }
    all_zero_negative_ &= negative;   // a zero times anything finite
  }
  // Whether pass 2 is needed: false when a special or zero settles the result.
  MMASP_PORTABLE bool needs_sum() const { return !nan_ && !positive_inf_ && !negative_inf_ && count_ > 0; }

  // --- Pass 2 (the same terms, in the same order). ---
  MMASP_PORTABLE void sum(const Value& v) {
    if (v.cls == Value::finite) add_aligned(term_of(v));
  }
  MMASP_PORTABLE void sum_product(const Value& a, const Value& b) {
    if (a.cls == Value::finite && b.cls == Value::finite) add_aligned(product_of(a, b));
  }

  // The block's result in `format`.
  MMASP_PORTABLE Value finish(const ResultFormat& format, Rounding rounding) const {
    const Value v = unrounded();
    if (v.cls != Value::finite) return v;
    return round_to(format, v.negative, v.significand, v.exponent, rounding, p_, events_);
  }

  // The block's result before any rounding: a special, a zero, or the aligned sum itself (kept to 64 bits, the rest as
  // a sticky bit: aligned sums stay far below 2^64). Block scale's sums of a scale block's products use it whole.
  MMASP_PORTABLE Value unrounded() const {
    Value v;
    if (nan_ || (positive_inf_ && negative_inf_)) {
      events_.report(ModelEvent::special, nan_ ? 0 : 3);
      v.cls = Value::nan;
      return v;
    }
    if (positive_inf_ || negative_inf_) {
      events_.report(ModelEvent::special, 2);
      v.cls = Value::infinite;
      v.negative = negative_inf_;
      return v;
    }
    if (count_ == 0) {
      if (all_zero_negative_) events_.report(ModelEvent::special, 4);
      v.negative = all_zero_negative_ && p_.signed_zero_results;
      return v;
    }
    const int top = top_;
    events_.report(ModelEvent::block_terms, count_);
    if (events_.on()) {
      events_.report(ModelEvent::alignment_from_c, have_non_product_ && non_product_top_ == top);
      if (count_ > 1) events_.report(ModelEvent::second_term_gap, top - second_);
    }
    Signed sum = sum_;
    if constexpr (Events::faulty()) sum = events_.block_sum(sum);
    if (sum == 0) {
      events_.report(ModelEvent::cancellation, 64);
      events_.report(ModelEvent::result, 0);
      v.negative = false;
      return v;
    }
    const int lsb = lsb_();
    const bool negative = sum < 0;
    const Unsigned magnitude = negative ? Unsigned(0) - Unsigned(sum) : Unsigned(sum);
    const uint64_t high = wide ? uint64_t(magnitude >> (wide ? 64 : 0)) : 0;
    if (events_.on()) {
      // Where the sum's leading bit is against the alignment exponent (top, at lsb + fraction_bits): above is a carry,
      // below a cancellation.
      const int leading = (high ? 64 + bit_length(high) : bit_length(uint64_t(magnitude))) - 1 + lsb;
      if (leading > top) events_.report(ModelEvent::carry, leading - top);
      else events_.report(ModelEvent::cancellation, top - leading);
    }
    // Aligned sums stay far below 2^64 (at most 33 terms of fraction_bits + 3 bits); keep 64 bits regardless.
    uint64_t narrow = uint64_t(magnitude);
    int exponent = lsb;
    if (high) {
      const int extra = bit_length(high);
      narrow = uint64_t(magnitude >> extra) | uint64_t((magnitude & ((Unsigned(1) << extra) - 1)) != 0);
      exponent += extra;
    }
    if constexpr (Events::faulty()) events_.normalise(narrow, exponent);
    v.cls = Value::finite;
    v.negative = negative;
    v.significand = narrow;
    v.exponent = exponent;
    v.field = bit_length(narrow) - 1 + exponent;
    return v;
  }

 private:
  MMASP_PORTABLE Term term_of(const Value& v) const {
    const int leading = bit_length(v.significand) - 1 + v.exponent;
    return {v.negative, v.significand, v.exponent, p_.alignment == AlignmentExponent::leading_bit ? leading : v.field, false};
  }
  MMASP_PORTABLE Term product_of(const Value& a, const Value& b) const {
    uint64_t significand = a.significand * b.significand;
    if constexpr (Events::faulty()) significand = events_.product(significand);
    const int exponent = a.exponent + b.exponent;
    return {a.negative != b.negative, significand, exponent,
            p_.alignment == AlignmentExponent::leading_bit ? bit_length(significand) - 1 + exponent : a.field + b.field, true};
  }
  // Pass 1 bookkeeping: the largest and second-largest alignment exponents, the largest non-product's, and the term
  // of largest exact magnitude (the first of equals), for floor_in_largest_sign.
  MMASP_PORTABLE void note(const Term& term) {
    if (count_ == 0) {
      top_ = term.reference;
    } else if (term.reference > top_) {
      second_ = top_;
      top_ = term.reference;
    } else {
      second_ = count_ == 1 ? term.reference : max_of(second_, term.reference);
    }
    if (!term.product) {
      non_product_top_ = have_non_product_ ? max_of(non_product_top_, term.reference) : term.reference;
      have_non_product_ = true;
    }
    if (p_.shifted_out == ShiftedOut::floor_in_largest_sign) {
      const int length = bit_length(term.significand);
      const int leading = length - 1 + term.exponent;
      uint64_t normalised;
      if constexpr (Events::faulty()) normalised = length ? term.significand << (64 - length) : 0;   // a product a stuck bit cleared
      else normalised = term.significand << (64 - length);
      if (count_ == 0 || leading > largest_leading_ || (leading == largest_leading_ && normalised > largest_normalised_)) {
        largest_leading_ = leading;
        largest_normalised_ = normalised;
        largest_negative_ = term.negative;
      }
    }
    ++count_;
  }
  MMASP_PORTABLE int lsb_() const {
    int lsb = top_ - p_.fraction_bits;
    if (p_.alignment_floor_guard >= 0) lsb = max_of(lsb, kF32MinSubnormalExponent - p_.alignment_floor_guard);
    return lsb;
  }
  MMASP_PORTABLE void add_aligned(const Term& term) {
    int shift = term.exponent - lsb_();
    if constexpr (Events::faulty()) shift -= events_.alignment_change(term.product, top_ - term.reference);
    const bool largest_negative = largest_negative_;
    Unsigned aligned;
    if (shift >= 0) {
      aligned = Unsigned(term.significand) << shift;
    } else if (-shift >= 64) {
      events_.report(ModelEvent::shifted_out, 64);
      events_.report(ModelEvent::shifted_out_lost, 64);
      // Every bit shifted out: nothing survives except what floor or rounding up keeps.
      aligned = (p_.shifted_out == ShiftedOut::floor && term.negative) ||
                        (p_.shifted_out == ShiftedOut::floor_in_largest_sign && term.negative != largest_negative)
                    ? 1 : 0;
    } else {
      const int s = -shift;
      aligned = term.significand >> s;
      const uint64_t rest = term.significand & ((uint64_t(1) << s) - 1), half = uint64_t(1) << (s - 1);
      events_.report(ModelEvent::shifted_out, s);
      if (rest) events_.report(ModelEvent::shifted_out_lost, s);
      if (p_.shifted_out == ShiftedOut::floor && term.negative && rest) ++aligned;
      if (p_.shifted_out == ShiftedOut::floor_in_largest_sign && term.negative != largest_negative && rest) ++aligned;
      if (p_.shifted_out == ShiftedOut::nearest_even && (rest > half || (rest == half && (aligned & 1)))) ++aligned;
    }
    sum_ += term.negative ? -Signed(aligned) : Signed(aligned);
  }

  const P& p_;
  const Events& events_;
  int count_ = 0;
  int top_ = 0, second_ = 0;           // the largest alignment exponent scanned so far, and the second largest
  int non_product_top_ = 0;
  bool have_non_product_ = false;
  int largest_leading_ = 0;
  uint64_t largest_normalised_ = 0;
  bool largest_negative_ = false;
  Signed sum_ = 0;
  bool nan_ = false, positive_inf_ = false, negative_inf_ = false;
  bool all_zero_negative_ = true;   // every term so far is a negative zero (IEEE: -0 + -0 = -0)
};

// a + b as an IEEE f32 addition rounded to nearest even (exact sum, one rounding), with the model's handling of
// zeros, subnormals and specials.
template <class P, class Events>
MMASP_PORTABLE Value ieee_add(const Value& a, const Value& b, const P& p, const Events& events) {
  Parameters exact = as_runtime(p);
  exact.fraction_bits = 60;
  exact.alignment = AlignmentExponent::leading_bit;
  exact.shifted_out = ShiftedOut::truncate;
  exact.alignment_floor_guard = -1;
  exact.subnormal_rounding = SubnormalRounding::as_normal;
  Block<Events> add(exact, events);
  add.scan(a);
  add.scan(b);
  if (add.needs_sum()) {
    add.sum(a);
    add.sum(b);
  }
  return add.finish(f32_format(), Rounding::nearest_even);
}

// Which block stored product s belongs to, of `blocks`.
template <class P>
MMASP_PORTABLE int block_of(const P& p, int s, int blocks) {
  return p.block_interleave ? (s / p.block_interleave) % blocks : s / p.block_products;
}

// One block's two passes: the accumulator term (if any), then the block's products in stored order.
template <class Events, bool wide, class P, class Operands>
MMASP_PORTABLE void sum_block(Block<Events, wide, P>& sum, const P& p, int block, int blocks, int stored,
                              const Operands& operands, const Value* accumulator) {
  Value a, b;
  if (accumulator) sum.scan(*accumulator);
  for (int s = 0; s < stored; ++s) {
    if (block_of(p, s, blocks) != block) continue;
    operands(s, a, b);
    if constexpr (Events::faulty()) sum.events().lane(s);
    sum.scan_product(a, b);
  }
  if (!sum.needs_sum()) return;
  if (accumulator) sum.sum(*accumulator);
  for (int s = 0; s < stored; ++s) {
    if (block_of(p, s, blocks) != block) continue;
    operands(s, a, b);
    if constexpr (Events::faulty()) sum.events().lane(s);
    sum.sum_product(a, b);
  }
}

// D[i][j] from its blocks: `fill(sum, block, accumulator)` hands block `block`'s terms to `sum` in its two passes (the
// accumulator term first when there is one), as sum_block() does with the products (element_with() below).
template <bool wide, class P, class Fill, class Events>
MMASP_PORTABLE uint32_t element_filled(const P& p, int blocks, const Fill& fill, const Value& c, bool f16_d,
                                       const Events& events) {
  const ResultFormat out = f16_d ? f16_format() : f32_format();
  const bool c_first = p.c_placement == CPlacement::first_block;
  Value result;
  if (p.block_combination == BlockCombination::fadd && !f16_d) {
    // Separate additions: every block from zero, then C + r0 + r1 + ... each rounded to nearest even.
    bool started = false;
    if (c_first) {
      result = c;
      started = true;
    }
    for (int block = 0; block < blocks; ++block) {
      events.stage(block == 0 ? ModelStage::first_block : ModelStage::later_block);
      Block<Events, wide, P> sum(p, events);
      fill(sum, block, static_cast<const Value*>(nullptr));
      const Value partial = sum.finish(f32_format(), p.block_rounding);
      events.stage(ModelStage::c_addition);
      result = started ? ieee_add(result, partial, p, events) : partial;
      started = true;
    }
    if (!c_first) result = ieee_add(result, c, p, events);
    return encode_value(out, result, p.canonical_nan);
  }
  bool have_accumulator = c_first;
  Value accumulator = c;
  for (int block = 0; block < blocks; ++block) {
    events.stage(block == 0 ? ModelStage::first_block : ModelStage::later_block);
    Block<Events, wide, P> sum(p, events);
    fill(sum, block, have_accumulator ? &accumulator : static_cast<const Value*>(nullptr));
    const bool last = block == blocks - 1 && c_first;
    if (last && f16_d && p.narrow_output == NarrowOutput::from_sum) {
      result = sum.finish(f16_format(), p.output_rounding);
    } else {
      accumulator = sum.finish(f32_format(), p.block_rounding);
      if constexpr (Events::faulty())
        if (block + 1 < blocks) accumulator = events.accumulator(accumulator);
      have_accumulator = true;
      result = accumulator;
    }
  }
  events.stage(ModelStage::c_addition);
  if (p.c_placement == CPlacement::fadd_after && !f16_d) {
    result = ieee_add(have_accumulator ? accumulator : Value{}, c, p, events);
  } else if (!c_first) {
    Block<Events, wide, P> sum(p, events);
    if (have_accumulator) sum.scan(accumulator);
    sum.scan(c);
    if (sum.needs_sum()) {
      if (have_accumulator) sum.sum(accumulator);
      sum.sum(c);
    }
    if (f16_d && p.narrow_output == NarrowOutput::from_sum) result = sum.finish(f16_format(), p.output_rounding);
    else result = sum.finish(f32_format(), p.block_rounding);
  }
  if (f16_d && p.narrow_output == NarrowOutput::via_f32) {
    Value narrow = result;
    if (result.cls == Value::finite)
      narrow = round_to(f16_format(), result.negative, result.significand, result.exponent, p.output_rounding, p, events);
    return encode_value(f16_format(), narrow, p.canonical_nan);
  }
  return encode_value(out, result, p.canonical_nan);
}

// D[i][j] as the model computes it (see element() below).
template <bool wide, class P, class Operands, class Events>
MMASP_PORTABLE uint32_t element_with(const P& p, int stored, const Operands& operands, const Value& c, bool f16_d,
                                     const Events& events) {
  const int blocks = (stored + p.block_products - 1) / p.block_products;
  const auto fill = [&](Block<Events, wide, P>& sum, int block, const Value* accumulator) MMASP_INLINE_LAMBDA {
    sum_block(sum, p, block, blocks, stored, operands, accumulator);
  };
  return element_filled<wide>(p, blocks, fill, c, f16_d, events);
}

// D[i][j] as the model computes it. `operands(s, a, b)` gives the decoded A element of stored product s (in stored
// order, 0 .. stored-1) and the B element it meets; `c` is the decoded C element; `f16_d`: D is f16, else f32.
template <class P, class Operands, class Events>
MMASP_PORTABLE uint32_t element(const P& p, int stored, const Operands& operands, const Value& c, bool f16_d,
                                const Events& events) {
  return p.fraction_bits <= kNarrowSumFractionBits ? element_with<false>(p, stored, operands, c, f16_d, events)
                                                   : element_with<true>(p, stored, operands, c, f16_d, events);
}

// Calls f(s) for every stored product s of `block` (block_of(p, s, blocks) == block), in increasing order: block_of's
// set enumerated without a division per product (ModelArithmetic.ForBlockEnumeratesBlockOf keeps the two together).
template <class P, class F>
MMASP_PORTABLE void for_block(const P& p, int block, int blocks, int stored, const F& f) {
  if (p.block_interleave) {
    for (int base = block * p.block_interleave; base < stored; base += p.block_interleave * blocks)
      for (int q = 0; q < p.block_interleave && base + q < stored; ++q) f(base + q);
    return;
  }
  const int end = (block + 1) * p.block_products < stored ? (block + 1) * p.block_products : stored;
  for (int s = block * p.block_products; s < end; ++s) f(s);
}

// --- Block scale (kind::mxf8f6f4, kind::mxf4, kind::mxf4nvf4; PTX ISA 9.7.14.3: D = (A * scale_A) * (B * scale_B) + C,
// each scale factor covering a block of consecutive K elements of a row of A or a column of B). ---------------------

// A scale factor's value: ue8m0 (2^(E-127); 0xFF NaN; no zero) or ue4m3 (unsigned e4m3 in the low 7 bits, bias 7,
// subnormals, 0x7F NaN). The caller refuses codes the type does not define (a ue4m3 code with bit 7 set).
MMASP_PORTABLE Value decode_scale(uint32_t code, bool ue4m3) {
  Value v;
  if (!ue4m3) {
    if (code == 0xFF) {
      v.cls = Value::nan;
      return v;
    }
    v.cls = Value::finite;
    v.significand = 1;
    v.exponent = int(code) - 127;
    v.field = v.exponent;
    return v;
  }
  if (code == 0x7F) {
    v.cls = Value::nan;
    return v;
  }
  const uint32_t exponent = (code >> 3) & 0xF, mantissa = code & 7;
  if (exponent == 0 && mantissa == 0) return v;   // +0
  v.cls = Value::finite;
  v.significand = exponent ? (mantissa | 8u) : mantissa;
  v.exponent = (exponent ? int(exponent) : 1) - 7 - 3;
  v.field = bit_length(v.significand) - 1 + v.exponent;
  return v;
}

// The product of a row's scale and a column's scale, rounded to p.scale_bits significant bits per p.scale_rounding
// (a carry to one bit more leaves zeros below it: still exact). NaN if either is NaN; +0 if either is zero.
template <class P>
MMASP_PORTABLE Value scale_product(const Value& row, const Value& column, const P& p) {
  Value v;
  if (row.cls == Value::nan || column.cls == Value::nan) {
    v.cls = Value::nan;
    return v;
  }
  if (row.cls == Value::zero || column.cls == Value::zero) return v;
  uint64_t significand = row.significand * column.significand;
  int exponent = row.exponent + column.exponent;
  const int excess = bit_length(significand) - p.scale_bits;
  if (excess > 0) {
    const uint64_t rest = significand & ((uint64_t(1) << excess) - 1), half = uint64_t(1) << (excess - 1);
    significand >>= excess;
    exponent += excess;
    if (p.scale_rounding == Rounding::nearest_even && (rest > half || (rest == half && (significand & 1)))) ++significand;
  }
  v.cls = Value::finite;
  v.significand = significand;
  v.exponent = exponent;
  v.field = bit_length(significand) - 1 + exponent;
  return v;
}

// x * scale, exactly (IEEE specials: NaN with a NaN; Inf * 0 is NaN; a zero keeps x's sign). Its exponent field (for
// exponent-sum alignment) is x's plus the scale's leading-bit exponent.
MMASP_PORTABLE Value scaled(const Value& x, const Value& scale) {
  Value v;
  if (x.cls == Value::nan || scale.cls == Value::nan || (x.cls == Value::infinite && scale.cls == Value::zero)) {
    v.cls = Value::nan;
    return v;
  }
  v.negative = x.negative;
  if (x.cls == Value::infinite) {
    v.cls = Value::infinite;
    return v;
  }
  if (x.cls == Value::zero || scale.cls == Value::zero) return v;   // a zero of x's sign
  v.cls = Value::finite;
  v.significand = x.significand * scale.significand;
  v.exponent = x.exponent + scale.exponent;
  v.field = x.field + scale.field;
  return v;
}

// D[i][j] of a block-scale form. `operands(s, a, b)` gives stored product s's A and B elements, unscaled; `group(s)`
// its scale block; `scale(g)` the rounded product of the row's and the column's scale of scale block g (scale_product).
//  - ScalePlacement::product: each product is a * b * scale, exactly, and the block FMA runs over them as over any
//    products (the B element is scaled first: the specials of a * (b * scale) are those of the triple product).
//  - ScalePlacement::block_sum: within each block, the unscaled products of one scale block are aligned and summed as a
//    block of their own (fraction_bits, shifted_out; not rounded), that sum is multiplied by the scale exactly, and
//    these scaled sums are the block's terms beside the accumulator.
template <class P, class Operands, class Group, class Scale, class Events>
MMASP_PORTABLE uint32_t scaled_element(const P& p, int stored, int groups, const Operands& operands, const Group& group,
                                       const Scale& scale, const Value& c, const Events& events) {
  if (p.scale_placement == ScalePlacement::product) {
    const auto scaled_operands = [&](int s, Value& a, Value& b) {
      Value unscaled;
      operands(s, a, unscaled);
      b = scaled(unscaled, scale(group(s)));
    };
    return element(p, stored, scaled_operands, c, false, events);
  }
  constexpr int kMaxGroups = 4;   // .scale_vec::4X
  const int blocks = (stored + p.block_products - 1) / p.block_products;
  const auto fill = [&](Block<Events, true, P>& sum, int block, const Value* accumulator) {
    Value terms[kMaxGroups];
    bool present[kMaxGroups] = {};
    for (int g = 0; g < groups && g < kMaxGroups; ++g) {
      Block<Events, true, P> inner(p, events);
      Value a, b;
      for_block(p, block, blocks, stored, [&](int s) {
        if (group(s) != g) return;
        present[g] = true;
        operands(s, a, b);
        inner.scan_product(a, b);
      });
      if (!present[g]) continue;
      if (inner.needs_sum())
        for_block(p, block, blocks, stored, [&](int s) {
          if (group(s) != g) return;
          operands(s, a, b);
          inner.sum_product(a, b);
        });
      terms[g] = scaled(inner.unrounded(), scale(g));
    }
    if (accumulator) sum.scan(*accumulator);
    for (int g = 0; g < groups && g < kMaxGroups; ++g)
      if (present[g]) sum.scan(terms[g]);
    if (!sum.needs_sum()) return;
    if (accumulator) sum.sum(*accumulator);
    for (int g = 0; g < groups && g < kMaxGroups; ++g)
      if (present[g]) sum.sum(terms[g]);
  };
  return element_filled<true>(p, blocks, fill, c, false, events);
}


}  // namespace model
}  // namespace mmasp
