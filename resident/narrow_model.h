// The GPU-resident kernels' judge: the bit-exact model's arithmetic (oracle/model_arithmetic.h) for the verified
// sm_90 choices, in 32-bit products and f32 words where the numbers allow it. The same terms, the same sum and the same
// rounding as the model, so the same result bit for bit (Resident.TheNarrowModelIsTheModelOnEveryInput); it lives
// beside the kernels that run it, and oracle/ keeps the model it must equal. Written for the host's compiler and
// nvcc, as model_arithmetic.h is.
#pragma once

#include "oracle/model_arithmetic.h"

namespace mmasp {
namespace model {

// --- The narrow arithmetic: the same model, cheaper, where the numbers allow it. ------------------------------------
// The GPU-resident check spends most of its time here, so the verified sm_90 choices (FixedChoices with chained blocks,
// exponent-sum alignment, truncated shifted-out bits, every zero result +0) get a version of Block whose products are
// 32-bit: operands of at most 11 significand bits (f16, bf16, tf32, fp8) are packed into one 64-bit word each, laid
// out so that a product's two exponents and two alignment fields are one 32-bit addition; a product's significand has
// at most 22 bits, and with fraction_bits <= kNarrowFractionBits every aligned product is below 2^31 (an aligned term
// is below 2^(fraction_bits + 2), as for Block). The sum is 64-bit as in Block<..., false>, C and the running sum are
// full Values, and the rounding is round_to's. Same terms, same sum, same rounding: the result is element()'s bit for
// bit, which Resident.TheNarrowModelIsTheModelOnEveryInput checks on every form's case distributions and on
// constructed extremes.
namespace narrow {

inline constexpr int kSignificandBits = 11, kExponentOffset = 256;
// The packed word. Low half: exponent + 256 (bits 0-15, below 512) and field + 768 (bits 16-31, 512 to 1023), so
// that the sum of two low halves holds both sums without a carry between them, and a product of two finite values has
// a field sum of at least 1024 where one with a zero or special factor (low half 0) has less: the largest low-half
// sum of a block's products is its largest finite product's, found without a test. High half: significand (bits
// 0-10), NaN (bit 11, with special), negative (12), finite and non-zero (13), Inf or NaN (14), and a caller's tag in
// the top bits (15-31; the kernel keeps there the byte offset of the B row an A element meets), so that the tag is
// one shift: with it below the flags, finding a B word takes two more instructions per product in each pass. Zeros
// and specials have significand 0 and a low half 0.
inline constexpr uint32_t kNaN = 1u << 11, kNegative = 1u << 12, kFiniteBit = 13, kFinite = 1u << kFiniteBit,
                          kSpecial = 1u << 14, kTagShift = 15, kTagBits = 32 - kTagShift;
inline constexpr int kFieldOffset = 3 * kExponentOffset;
inline constexpr uint32_t kFinitePair = uint32_t(2 * (kFieldOffset - kExponentOffset)) << 16;
inline constexpr int kNarrowFractionBits = 29;

// Whether every code of `f` packs: at most 11 significand bits, exponents and fields within 9 bits.
MMASP_PORTABLE bool fits(const OperandFormat& f) {
  const int lowest = 1 - f.bias - f.mantissa_bits, highest = (1 << f.exponent_bits) - 1 - f.bias;
  const int lowest_field = 1 - (f.fp8_fields_as_f16 ? kF16Bias : f.bias);
  return f.mantissa_bits + 1 <= kSignificandBits && lowest >= -kExponentOffset && lowest_field >= -kExponentOffset &&
         highest < kExponentOffset;
}
// A packed word with a caller's tag in its top bits (a word packed without one, or a table's: their tag bits are 0),
// and the tag read back. pack() puts its tag in the high half itself, where with_tag's 64-bit shift changed the code
// of the kernels that pack (a new kernel to measure for no gain); ModelArithmetic.NarrowTagsAreOnePlace checks that
// the two agree on every tag.
MMASP_PORTABLE uint64_t with_tag(uint64_t word, uint32_t tag) { return word | uint64_t(tag) << (32 + kTagShift); }
MMASP_PORTABLE uint32_t tag(uint64_t x) { return uint32_t(x >> (32 + kTagShift)); }
MMASP_PORTABLE uint64_t pack(const Value& v, uint32_t tag = 0) {
  uint32_t high = (v.negative ? kNegative : 0) | tag << kTagShift, low = 0;
  switch (v.cls) {
    case Value::zero: break;
    case Value::infinite: high |= kSpecial; break;
    case Value::nan: high |= kSpecial | kNaN; break;
    case Value::finite:
      high |= kFinite | uint32_t(v.significand);
      low = uint32_t(v.exponent + kExponentOffset) | uint32_t(v.field + kFieldOffset) << 16;
      break;
  }
  return uint64_t(high) << 32 | low;
}

// --- f32 words: the same Value packed for pass 2 by f32 multiplication (the resident fp8 kernel's words). ---------
// Where every value of an operand format is an f32 value and every product of two is exact in f32, with room to scale
// it (f32_words_fit: the fp8 formats), a product aligned as sum_product_32 aligns it, floor(|a * b| * 2^-lsb) with
// a's and b's sign, is the f32 product times 2^-lsb converted to an integer toward zero: two multiplications and one
// conversion (Block::sum_f32_product) where the packed word takes two masks, an integer product, a shift and a signed
// sum. The f32 word keeps pass 1's numbers in its low half as pack() has them, the field + 768 in bits 16-25 (0 for a
// zero or a special), with kF32Special (bit 29) for Inf and NaN and a caller's tag in bits 0-13; its high half is the
// value's f32 bits (a zero's sign kept, Inf, a NaN). The sum of two low halves holds the field sum in bits 16-26 and
// nothing carries into it (a tag below 2^14), so pass 1's largest sum is pack()'s; and a product with an Inf or NaN
// factor has a sum of at least kF32Special, above every finite pair's (two fields below 1024, so below 2^27), so that
// the largest sum says too whether the special pass must run (Block::special_f32_products): no OR of flags a product.
inline constexpr uint32_t kF32TagBits = 14, kF32TagMask = (1u << kF32TagBits) - 1, kF32Special = 1u << 29;
static_assert(uint32_t(2 * (kExponentOffset + kFieldOffset)) << 16 <= kF32Special && kF32Special <= 0x7FFFFFFFu - kF32Special,
              "a finite pair's sum is below kF32Special, and two specials' sum fits 32 bits");

MMASP_PORTABLE float f32_of_bits(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  return std::bit_cast<float>(bits);
#endif
}
MMASP_PORTABLE uint32_t bits_of_f32(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  return std::bit_cast<uint32_t>(x);
#endif
}

// rounded_code for an f32 result rounded toward zero (the sm_90 records' block rounding) where 2^exponent is a normal
// f32 (-126 <= exponent <= 127) and `total`, the signed magnitude, is not zero: the magnitude truncated to 24
// significant bits is an f32 value, and times 2^exponent it is a normal f32 or at least 2^128, so one f32
// multiplication (exact unless it overflows, which rounds to Inf) gives rounded_code's code, overflow to Inf
// included. The truncation is the device's conversion toward zero (cvt.rz.f32.s64); the host clears the bits below the
// 24th, in place of rounded_code's 64-bit bit length, shifts and branches for every element. ModelArithmetic.
// F32TowardZeroCodeIsRoundedCode compares the two on every exponent it takes; the GPU resident tests compare the
// device's with the host's.
MMASP_PORTABLE uint32_t f32_toward_zero_code(long long total, int exponent) {
#if defined(__CUDA_ARCH__)
  const float truncated = __ll2float_rz(total);
#else
  const uint64_t magnitude = total < 0 ? 0 - uint64_t(total) : uint64_t(total);
  const int dropped = max_of(bit_length(magnitude) - 24, 0);
  const float truncated = float(magnitude >> dropped << dropped) * (total < 0 ? -1.0f : 1.0f);   // exact
#endif
  return bits_of_f32(truncated * f32_of_bits(uint32_t(127 + exponent) << 23));
}

// Whether f32 words judge a format's products exactly with `fraction_bits`: every value an f32 value and every
// product of two an exact normal f32 product (significands of at most 12 bits, exponents within f32's normal range
// twice over), and 2^-lsb, and every aligned product, normal f32 numbers for any block's lsb. A block's top is a
// product's field sum, or the field of an accumulator, the chained blocks' earlier sum: at most kTopMargin bits above
// the largest product (16 products and a carry), and at least one lsb of that block (the top less fraction_bits) where
// it is not zero. lsb is the top minus fraction_bits; the alignment floor only raises it, and only below these
// ranges. fits() for the field. Every finite product below 2^103, so that the special pass's f32 sum never rounds a
// finite sum to an Inf (Block::scan_f32_special_sum).
MMASP_PORTABLE bool f32_words_fit(const OperandFormat& f, int fraction_bits) {
  constexpr int kTopMargin = 6;
  const int lowest = 1 - f.bias - f.mantissa_bits, highest = (1 << f.exponent_bits) - 1 - f.bias;
  const int lowest_field = 1 - (f.fp8_fields_as_f16 ? kF16Bias : f.bias);
  const int highest_top = 2 * (highest + 1) + kTopMargin;
  return fits(f) && f.mantissa_bits + 1 <= 12 && 2 * lowest >= -126 && 2 * (highest + 1) <= 103 &&
         2 * (fraction_bits - lowest_field) <= 127 && fraction_bits - highest_top >= -126 &&
         2 * lowest + fraction_bits - highest_top >= -126 && fraction_bits + 2 < 31;
}
// Whether an accumulator's f32 word (any f32 or f16 value, tag 0) sums exactly with `fraction_bits`
// (Block::sum_f32_term): its scale 2^-lsb, or 2^(-lsb - 100) below lsb -100, a normal f32 for every lsb an f32 field
// (-126 to 127) can set, and the aligned C, below 2^(fraction_bits + 1), within the conversion's 32 signed bits.
MMASP_PORTABLE bool f32_accumulator_fits(int fraction_bits) { return fraction_bits >= 1 && fraction_bits + 2 < 31; }
MMASP_PORTABLE uint64_t with_f32_tag(uint64_t word, uint32_t tag) { return word | tag; }
MMASP_PORTABLE uint32_t f32_tag(uint64_t x) { return uint32_t(x) & kF32TagMask; }
MMASP_PORTABLE uint64_t pack_f32(const Value& v, uint32_t tag = 0) {
  uint32_t low = tag, value = v.negative ? 0x80000000u : 0u;
  switch (v.cls) {
    case Value::zero: break;
    case Value::infinite: low |= kF32Special; value |= 0x7F800000u; break;
    case Value::nan: low |= kF32Special; value |= 0x7FC00000u; break;
    case Value::finite:
      low |= uint32_t(v.field + kFieldOffset) << 16;
    {
      // significand * 2^exponent as a normal f32 (f32_words_fit: at most 12 significand bits, normal exponents)
      int top = 0;
      while ((v.significand >> (top + 1)) != 0) ++top;
      value |= uint32_t(v.exponent + top + 127) << 23 | (uint32_t(v.significand << (23 - top)) & 0x7FFFFFu);
      break;
    }
  }
  return uint64_t(value) << 32 | low;
}

// An f32 code's f32 word (pack_f32 of its decoded value, subnormals kept, tag 0), from the code's bits: the low half
// its field + kFieldOffset (kF32Special for Inf and NaN), the high half the code itself (a judge reads only a NaN's
// class). A chained block's f32 result as the next block's term (elements_of_blocks), and an f32 C in the resident f16
// kernels (resident_abi.h's accumulator_word). Resident.AccumulatorWordsArePackedValues compares it with pack_f32.
MMASP_PORTABLE uint64_t f32_code_word(uint32_t code) {
  const uint32_t exponent = (code >> 23) & 255u;
  uint32_t low = 0;
  if (exponent == 255u) low = kF32Special;
  else if (code & 0x7FFFFFFFu)   // the field: the exponent, at least the smallest normal one's
    low = uint32_t((exponent ? int(exponent) : 1) - 127 + kFieldOffset) << 16;
  return uint64_t(code) << 32 | low;
}

// Whether the narrow arithmetic computes element() for parameters of type P with these numbers.
template <class P>
MMASP_PORTABLE bool applies(const P& p) { return p.fraction_bits <= kNarrowFractionBits; }

// Whether `products` aligned products always sum exactly in 32 signed bits. Each factor is below 2^(field + 1)
// (decode_operand: a field is at least its value's binade), so a product is below 2^(field sum + 2), and the block's
// least significant bit is at least (largest field sum) - fraction_bits: an aligned product is below
// 2^(fraction_bits + 2). Sixteen of them at 25 fraction bits (every sm_90 record) fit.
MMASP_PORTABLE bool products_fit_32(int products, int fraction_bits) {
  return fraction_bits + 2 < 31 && uint64_t(products) * ((uint64_t(1) << (fraction_bits + 2)) - 1) <= 0x7FFFFFFFu;
}

// value * 2^(32 - m), the bits below 2^0 cut off (m of at least 0, and value * 2^(32 - m) below 2^32): the low word of
// (value << 32) >> m, 0 once m reaches 64 (PTX shr.b64 clamps its shift amount so). So one number, m, aligns a value
// either way: m below 32 shifts it left, above 32 right. On sm_90 that is one funnel shift in place of a left shift,
// a right shift, a negation and an OR.
MMASP_PORTABLE uint32_t aligned_at(uint32_t value, uint32_t m) {
#if defined(__CUDA_ARCH__)
  uint64_t r;
  asm("shr.b64 %0, %1, %2;" : "=l"(r) : "l"(uint64_t(value) << 32), "r"(m));
  return uint32_t(r);
#else
  return m >= 64 ? 0u : uint32_t((uint64_t(value) << 32) >> m);
#endif
}

// Block for the choices above: the same two passes, products from packed words.
template <class P>
class Block {
  static_assert(P::alignment == AlignmentExponent::exponent_sum && P::shifted_out == ShiftedOut::truncate &&
                    !P::signed_zero_results,
                "the narrow Block covers exponent-sum alignment, truncation and unsigned zero results only");

 public:
  // Default-constructible (a pointer to the parameters, not a reference) so that elements_of_blocks can keep an
  // array of them, one per element; a default-constructed Block is assigned one made from the parameters before use.
  Block() = default;
  MMASP_PORTABLE explicit Block(const P& p) : p_(&p) {}

  // --- Pass 1. ---
  MMASP_PORTABLE void scan(const Value& v) {
    if (v.cls == Value::nan) specials_ |= kIsNaN;
    else if (v.cls == Value::infinite) specials_ |= v.negative ? kIsNegativeInf : kIsPositiveInf;
    else if (v.cls == Value::finite) note(v.field);
  }
  // The largest low-half sum orders the products by their field sums first (the packed word's layout, above); the
  // flags say whether any factor was Inf or NaN, and then scan_special() must see every product of the block.
  MMASP_PORTABLE void scan_product(uint64_t a, uint64_t b) {
    top_products_ = max_u32(top_products_, uint32_t(a) + uint32_t(b));
    flags_ |= uint32_t(a >> 32) | uint32_t(b >> 32);
  }
  MMASP_PORTABLE bool special_products() const { return flags_ & kSpecial; }
  MMASP_PORTABLE void scan_special(uint64_t a, uint64_t b) {
    const uint32_t a_high = uint32_t(a >> 32), b_high = uint32_t(b >> 32);
    if ((a_high | b_high) & kSpecial) special(a_high, b_high);
  }
  MMASP_PORTABLE bool needs_sum() {
    if (specials_) return false;
    if (top_products_ >= kFinitePair) note(int(top_products_ >> 16) - 2 * kFieldOffset);
    if (!terms_) return false;
    lsb_ = top_ - p_->fraction_bits;
    if (p_->alignment_floor_guard >= 0) lsb_ = max_of(lsb_, kF32MinSubnormalExponent - p_->alignment_floor_guard);
    product_base_ = lsb_ + 2 * kExponentOffset;
    product_top_ = uint32_t(32 + product_base_);
    return true;
  }

  // --- Pass 2 (after needs_sum()). ---
  // A scanned value (its field at most the block's largest) is below 2^(field + 1), so aligned it is below
  // 2^(fraction_bits + 1) <= 2^30 (applies()): it is found in 32 bits, shifted as sum_product_32 shifts a product.
  // Its significand has at most 25 bits (C in f32 or f16, or an f32 block sum rounded), so it fits one word.
  MMASP_PORTABLE void sum(const Value& v) {
    if (v.cls != Value::finite) return;
    const uint32_t aligned = aligned_at(uint32_t(v.significand), uint32_t(32 + lsb_ - v.exponent));
    sum_ += v.negative ? -(long long)aligned : (long long)aligned;
  }
  // A zero's significand is 0, so its product adds nothing whatever its shift; no test for it.
  MMASP_PORTABLE void sum_product(uint64_t a, uint64_t b) {
    const uint32_t a_high = uint32_t(a >> 32), b_high = uint32_t(b >> 32);
    const uint32_t product = (a_high & kSignificandMask) * (b_high & kSignificandMask);
    const int shift = int((uint32_t(a) + uint32_t(b)) & 0xFFFFu) - product_base_;
    // A finite product's left shift is at most fraction_bits - 2 * mantissa bits (below 2^31, above), and a zero's
    // product is 0: `& 31` changes neither. A right shift of 31 or more leaves nothing of a product below 2^22.
    const uint32_t aligned = shift >= 0 ? product << (shift & 31) : product >> (-shift < 31 ? -shift : 31);
    sum_ += ((a_high ^ b_high) & kNegative) ? -(long long)aligned : (long long)aligned;
  }
  // sum_product where products_fit_32(the block's products, fraction_bits): the same aligned product, summed in 32
  // bits. Its shift is (exponent sum) - product_base_, so aligned_at's m is product_top_ - (exponent sum), at least 2
  // for a finite product (its shift is below 31: products_fit_32); a zero's product is 0 at any m.
  MMASP_PORTABLE void sum_product_32(uint64_t a, uint64_t b) {
    const uint32_t a_high = uint32_t(a >> 32), b_high = uint32_t(b >> 32);
    const uint32_t product = (a_high & kSignificandMask) * (b_high & kSignificandMask);
    const uint32_t aligned = aligned_at(product, product_top_ - ((uint32_t(a) + uint32_t(b)) & 0xFFFFu));
    products_ += ((a_high ^ b_high) & kNegative) ? -int32_t(aligned) : int32_t(aligned);
  }

  // --- The passes on f32 words (pack_f32), where products_fit_32 and f32_words_fit hold. ---
  // Pass 1 as scan_product: the low halves hold the same numbers, and kF32Special, which the largest sum keeps
  // (special_f32_products). One addition and maximum a product, where an OR of the two words' flags followed.
  MMASP_PORTABLE void scan_f32_product(uint64_t a, uint64_t b) {
    top_products_ = max_u32(top_products_, uint32_t(a) + uint32_t(b));
  }
  // special_products() for f32 words: a product or term with an Inf or NaN (pack_f32's kF32Special) made the largest
  // sum at least kF32Special.
  MMASP_PORTABLE bool special_f32_products() const { return top_products_ >= kF32Special; }
  // The special pass on f32 words (special_f32_products()): the classes scan_special finds, from the f32 sum of the
  // block's products in any order, started at the accumulator's value where it is an f32 word (0 where it is a
  // Value, which scan() classed in pass 1): one fused multiply-add a product (special_sum_step) where classing each
  // product took a test, a product and branches. IEEE arithmetic's classes are special()'s: a NaN factor or Inf times
  // zero makes a NaN product, an Inf factor times a non-zero finite one an Inf of the product's sign, a NaN or +Inf
  // plus -Inf a NaN sum, and Inf plus a finite value that Inf. A finite sum never becomes an Inf: every finite product
  // is below 2^103 (f32_words_fit), so each addition to an f32 value of at most FLT_MAX rounds to at most FLT_MAX.
  MMASP_PORTABLE static float special_sum_step(uint64_t a, uint64_t b, float sum) {
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(f32_of_bits(uint32_t(a >> 32)), f32_of_bits(uint32_t(b >> 32)), sum);
#else
    return std::fma(f32_of_bits(uint32_t(a >> 32)), f32_of_bits(uint32_t(b >> 32)), sum);
#endif
  }
  MMASP_PORTABLE void scan_f32_special_sum(float sum) {
    const uint32_t bits = bits_of_f32(sum) & 0x7FFFFFFFu;
    if (bits > 0x7F800000u) specials_ |= kIsNaN;
    else if (bits == 0x7F800000u) specials_ |= (bits_of_f32(sum) >> 31) ? kIsNegativeInf : kIsPositiveInf;
  }
  // 2^-lsb as an f32 (after needs_sum(); f32_words_fit keeps it normal), or 0 for a block whose finish() reads no sum
  // (a special, or no term), so that its products add zeros when another element of sum_blocks needs pass 2.
  MMASP_PORTABLE float f32_product_scale() const {
    if (specials_ || !terms_) return 0.0f;
    return f32_of_bits(uint32_t(127 - lsb_) << 23);
  }
  // sum_product_32's aligned product: (a * b) * 2^-lsb is exact in f32 (f32_words_fit), and its conversion toward zero
  // is floor(|a * b| * 2^-lsb) with the product's sign. A product with an Inf or NaN factor only meets a scale of 0
  // in a block whose sum is read (f32_product_scale), and the device's conversion gives 0 for the NaN that makes.
  MMASP_PORTABLE void sum_f32_product(uint64_t a, uint64_t b, float scale) {
    const float aligned = (f32_of_bits(uint32_t(a >> 32)) * f32_of_bits(uint32_t(b >> 32))) * scale;
    products_ = int32_t(uint32_t(products_) + uint32_t(toward_zero(aligned)));
  }

  // --- The accumulator as an f32 word (pack_f32's, tag 0), where it is C of one block judged on f32 words. ---
  // Decoding C into a Value and passing it through scan() and sum() is a large share of the m16n8k16 f16 judge's
  // own work; as a word C is one term more of the passes.
  // Pass 1 as scan_f32_product of C and 1.0, whose word's low half is kF32UnitLow (field 0, no tag): C's field sum is
  // its field + 2 * kFieldOffset, at least kFinitePair where C is finite and not zero, and at least kF32Special where
  // C is Inf or NaN (special_f32_products).
  MMASP_PORTABLE void scan_f32_term(uint64_t c) {
    top_products_ = max_u32(top_products_, uint32_t(c) + kF32UnitLow);
  }
  // sum(C) from its word (after needs_sum()): floor(|c| * 2^-lsb) with C's sign, by f32 multiplication and a conversion
  // toward zero, added to the 64-bit sum (C's term would need products_fit_32 for one product more in the 32-bit one).
  // C's field is at most the block's top, so aligned it is below 2^(fraction_bits + 1). Multiplying by powers of two
  // is exact unless the result leaves the normal range: above it never (that bound), below it only under 2^-126,
  // which truncates to 0 as the exact value does. 2^-lsb is a normal f32 for lsb >= -126; a lower lsb (an f32 C below
  // 2^-100 with no product above it, the products then all zero) takes 2^100 first, C then a normal f32 below 2^29
  // (f32_accumulator_fits).
  // A block whose finish() reads no sum (a special, or no term) adds 0.
  MMASP_PORTABLE void sum_f32_term(uint64_t c) {
    const bool read = !specials_ && terms_;
    const bool below = lsb_ < -100;
    const float lifted = f32_of_bits(uint32_t(c >> 32)) * (below ? 0x1p100f : 1.0f);
    const float scale = read ? f32_of_bits(uint32_t(127 - (below ? lsb_ + 100 : lsb_)) << 23) : 0.0f;
    sum_ += toward_zero(lifted * scale);
  }

  MMASP_PORTABLE Value finish(const ResultFormat& format, Rounding rounding) const {
    Value v;
    if (specials_ & kIsNaN || specials_ == (kIsPositiveInf | kIsNegativeInf)) {
      v.cls = Value::nan;
      return v;
    }
    if (specials_) {
      v.cls = Value::infinite;
      v.negative = specials_ & kIsNegativeInf;
      return v;
    }
    const long long total = sum_ + products_;
    if (!terms_ || total == 0) return v;   // +0: zero results carry no sign under these choices
    const bool negative = total < 0;
    return round_to(format, negative, uint64_t(negative ? -total : total), lsb_, rounding, *p_, NoEvents{});
  }
  // encode_value(format, finish(format, rounding), canonical NaN as P says), by rounded_code (whose static_assert
  // names the result choices it covers: the sm_90 records').
  MMASP_PORTABLE uint32_t finish_code(const ResultFormat& format, Rounding rounding) const {
    if (specials_) {   // one test where no product or term was Inf or NaN: Inf of one sign, else NaN
      if (specials_ == kIsPositiveInf || specials_ == kIsNegativeInf)
        return (specials_ == kIsNegativeInf ? format.sign_bit : 0) | format.infinity;
      return P::canonical_nan ? format.canonical_nan : format.default_nan;
    }
    if (!terms_) return 0;
    const long long total = sum_ + products_;
    // A total of 0 is +0 there too (0 converted, times 2^lsb), so the test for it comes after.
    if (is_f32(format) && rounding == Rounding::toward_zero && lsb_ >= -126 && lsb_ <= 127)
      return f32_toward_zero_code(total, lsb_);   // rounded_code's code, under the choices its static_assert asks
    if (total == 0) return 0;
    const bool negative = total < 0;
    return rounded_code(format, negative, uint64_t(negative ? -total : total), lsb_, rounding, *p_);
  }

 private:
  static constexpr uint32_t kSignificandMask = (1u << kSignificandBits) - 1;
  static constexpr uint32_t kF32UnitLow = uint32_t(kFieldOffset) << 16;   // pack_f32(1.0)'s low half
  // An aligned term's f32 value converted toward zero (a NaN, from a special factor times a scale of 0, to 0).
  MMASP_PORTABLE static int32_t toward_zero(float aligned) {
#if defined(__CUDA_ARCH__)
    return __float2int_rz(aligned);
#else
    return aligned > -2147483648.0f && aligned < 2147483648.0f ? int32_t(aligned) : 0;   // NaN: 0
#endif
  }
  MMASP_PORTABLE static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
  // A product with an Inf or NaN factor: NaN, Inf times zero, or an Inf of the product's sign.
  MMASP_PORTABLE void special(uint32_t a_high, uint32_t b_high) {
    if ((a_high & kNaN) || (b_high & kNaN) || !(a_high & (kFinite | kSpecial)) || !(b_high & (kFinite | kSpecial))) {
      specials_ |= kIsNaN;
      return;
    }
    specials_ |= ((a_high ^ b_high) & kNegative) ? kIsNegativeInf : kIsPositiveInf;
  }
  MMASP_PORTABLE void note(int reference) {
    top_ = terms_ ? max_of(top_, reference) : reference;
    terms_ = true;
  }
  const P* p_ = nullptr;
  static constexpr uint32_t kIsNaN = 1, kIsPositiveInf = 2, kIsNegativeInf = 4;
  bool terms_ = false;
  uint32_t specials_ = 0;   // kIsNaN | kIsPositiveInf | kIsNegativeInf: the block's special classes in one word
  uint32_t top_products_ = 0, flags_ = 0;
  int top_ = 0, lsb_ = 0, product_base_ = 0;
  uint32_t product_top_ = 0;   // 32 + product_base_: sum_product_32's m for an exponent sum of 0
  long long sum_ = 0;
  int32_t products_ = 0;   // sum_product_32's sum
};

// How sum_blocks sums a block's products: Block::sum_product (64 bits), sum_product_32 (the caller has made sure
// that products_fit_32), or sum_f32_product from f32 words (pack_f32; the caller has made sure that products_fit_32
// and f32_words_fit, and its products give f32 words).
enum ProductSum : int { kProductsIn64 = 0, kProductsIn32 = 1, kProductsOfF32Words = 2 };

// Which halves of the B words a pass reads: pass 1 on f32 words their low halves (scan_f32_product), the special pass
// and pass 2 their high halves (special_sum_step, sum_f32_product). A `products` that takes a fourth argument, a
// WordHalvesOf, may fill only those (the resident fp8 and narrow f16 kernels' B words, whose halves lie in two
// planes, so that a pass loads 4 bytes a B word, not 8); one that takes three fills whole words.
enum class WordHalves : int { both, low, high };
template <WordHalves kHalves>
using WordHalvesOf = std::integral_constant<WordHalves, kHalves>;
template <WordHalves kHalves, class Products>
MMASP_PORTABLE void products_of_halves(const Products& products, int s, uint64_t& a, uint64_t* b) {
  if constexpr (std::is_invocable_v<const Products&, int, uint64_t&, uint64_t*, WordHalvesOf<kHalves>>)
    products(s, a, b, WordHalvesOf<kHalves>{});
  else
    products(s, a, b);
}

// A block's two passes over its products (and the accumulator, where there is one), for kN elements of D in one row
// (kN columns), which share every A word: `products(s, a, b)` gives stored product s's packed A element and, in
// b[0 .. kN - 1], the packed B element it meets in each element's column; `each(f)` calls f(s) for every stored
// product s of the block. sums[n] and accumulators[n] are element n's. kN = 1 is one element; with kN = 2 the resident
// kernel loads an A word once for two elements of D (judged_narrow_pair). A Block whose needs_sum() is false still sees
// pass 2's sums when another element's needs them: finish() does not read its sum then (a special or no term).
template <int kN, int kProductSum = kProductsIn64, class P, class Accumulator, class Products, class Each>
MMASP_PORTABLE void sum_blocks(Block<P>* sums, bool has_accumulator, const Accumulator* accumulators,
                               const Products& products, const Each& each) {
  constexpr bool kF32Words = kProductSum == kProductsOfF32Words;
  // The accumulators as decoded Values, or (with f32 words) as f32 words themselves (Block's *_f32_term).
  constexpr bool kAccumulatorWords = std::is_same_v<Accumulator, uint64_t>;
  static_assert(std::is_same_v<Accumulator, Value> || (kAccumulatorWords && kF32Words),
                "accumulators as Values, or as f32 words beside products of f32 words");
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) {
    if (!has_accumulator) continue;
    if constexpr (kAccumulatorWords) sums[n].scan_f32_term(accumulators[n]);
    else sums[n].scan(accumulators[n]);
  }
  each([&](int s) {
    uint64_t a, b[kN];
    products_of_halves<kF32Words ? WordHalves::low : WordHalves::both>(products, s, a, b);
MMASP_UNROLL
    for (int n = 0; n < kN; ++n) {
      if constexpr (kF32Words) sums[n].scan_f32_product(a, b[n]);
      else sums[n].scan_product(a, b[n]);
    }
  });
  bool special = false;
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) {
    if constexpr (kF32Words) special |= sums[n].special_f32_products();
    else special |= sums[n].special_products();
  }
  if (special) {
    if constexpr (kF32Words) {   // Block::scan_f32_special_sum: the classes from one f32 sum an element
      float special_sums[kN];
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) {
        special_sums[n] = 0.0f;
        if constexpr (kAccumulatorWords)
          if (has_accumulator) special_sums[n] = f32_of_bits(uint32_t(accumulators[n] >> 32));
      }
      each([&](int s) {
        uint64_t a, b[kN];
        products_of_halves<WordHalves::high>(products, s, a, b);
MMASP_UNROLL
        for (int n = 0; n < kN; ++n) special_sums[n] = Block<P>::special_sum_step(a, b[n], special_sums[n]);
      });
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) sums[n].scan_f32_special_sum(special_sums[n]);
    } else {
      each([&](int s) {
        uint64_t a, b[kN];
        products(s, a, b);
MMASP_UNROLL
        for (int n = 0; n < kN; ++n) sums[n].scan_special(a, b[n]);
      });
    }
  }
  bool needs_sum = false;
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) needs_sum |= sums[n].needs_sum();   // every element's: needs_sum() sets its alignment
  if (needs_sum) {
    float scales[kN];
MMASP_UNROLL
    for (int n = 0; n < kN; ++n) {
      if (has_accumulator) {
        if constexpr (kAccumulatorWords) sums[n].sum_f32_term(accumulators[n]);
        else sums[n].sum(accumulators[n]);
      }
      if constexpr (kF32Words) scales[n] = sums[n].f32_product_scale();
    }
    each([&](int s) {
      uint64_t a, b[kN];
      products_of_halves<kF32Words ? WordHalves::high : WordHalves::both>(products, s, a, b);
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) {
        if constexpr (kF32Words) sums[n].sum_f32_product(a, b[n], scales[n]);
        else if constexpr (kProductSum == kProductsIn32) sums[n].sum_product_32(a, b[n]);
        else sums[n].sum_product(a, b[n]);
      }
    });
  }
}

// The code of a + c for f32 codes a and c: ieee_add's result (one IEEE binary32 addition rounded to nearest even,
// subnormals kept) encoded with the sm_90 choices' results, a NaN canonical and a zero +0 (zero results are unsigned:
// IEEE's -0 + -0 is -0). The addition itself is the device's fadd.rn, or the host compiler's float addition (IEEE
// binary32, round to nearest even, no flush to zero): one instruction on the GPU in place of ieee_add's exact
// 128-bit block.
// ModelArithmetic.F32SumCodeIsIeeeAdd compares the two on every class of operand and on random codes.
MMASP_PORTABLE uint32_t f32_sum_code(uint32_t a, uint32_t c) {
#if defined(__CUDA_ARCH__)
  const uint32_t code = __float_as_uint(__fadd_rn(__uint_as_float(a), __uint_as_float(c)));
#else
  static_assert(FLT_EVAL_METHOD == 0, "a float addition is one binary32 addition");
  const uint32_t code = std::bit_cast<uint32_t>(std::bit_cast<float>(a) + std::bit_cast<float>(c));
#endif
  const ResultFormat f32 = f32_format();
  if ((code & ~f32.sign_bit) > f32.infinity) return f32.canonical_nan;
  return (code & ~f32.sign_bit) == 0 ? 0u : code;
}

// element() for these choices (and narrow::applies(p)) over `blocks` blocks, for kN elements of one row (sum_blocks):
// `each_of_block(block, f)` calls f(s) for every stored product s of `block` in increasing order (for_block's set);
// `products(s, a, b)` as sum_blocks takes it; c[n] is element n's decoded C element, and codes[n] its D code.
// kProductSum: how sum_blocks sums the products (ProductSum; kProductsIn32 and kProductsOfF32Words ask the caller to
// have made sure of products_fit_32(a block's products, fraction_bits), the latter of f32 words too). `f16_d` (whether
// D is f16) is a bool, or a KnownBool where the caller knows it at compile time, so that the roundings and the
// encoding are those of one known format. kCCodes: C's f32 codes are at
// c_codes[0 .. kN - 1], and where C is added after the blocks to an f32 D (fadd_after) the addition is f32_sum_code's,
// the same result as ieee_add's from one f32 addition (the resident fp8 kernel's judge).
template <int kProductSum, int kN, bool kCCodes = false, class P, class Products, class F16D, class EachOfBlock>
MMASP_PORTABLE void elements_of_blocks(const P& p, int blocks, const Products& products, const Value* c, F16D f16_d,
                                       const EachOfBlock& each_of_block, uint32_t* codes,
                                       const uint32_t* c_codes = nullptr) {
  static_assert(P::block_combination == BlockCombination::chained && P::narrow_output == NarrowOutput::from_sum &&
                    (P::c_placement == CPlacement::first_block || P::c_placement == CPlacement::fadd_after),
                "the narrow element covers chained blocks, a narrow output from the sum, C first or added after");
  const ResultFormat out = f16_d ? f16_format() : f32_format();
  constexpr bool c_first = P::c_placement == CPlacement::first_block;
  if constexpr (kCCodes && !c_first && kProductSum == kProductsOfF32Words && std::is_same_v<F16D, KnownBool<false>>) {
    // The fp8 kernel's chain for an f32 D (C added after the blocks by an f32 addition, products of f32 words): a
    // block's f32 result goes on to the next block as an f32 word (f32_code_word of its finish_code; Block's
    // *_f32_term) rather than as a Value: the same number, without finish() (round_to) and the Value's scan and sum,
    // which were most of the finishing. The caller has made sure of f32_accumulator_fits (resident.cpp's
    // narrow_fp8_blocks).
    // An f16 D (no sm_90 fp8 form has one) keeps the Value chain below.
    uint64_t chained[kN] = {};
    for (int block = 0; block < blocks; ++block) {
      Block<P> sums[kN];
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) sums[n] = Block<P>(p);
      sum_blocks<kN, kProductSum>(sums, block > 0, chained, products, [&](const auto& f) { each_of_block(block, f); });
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) {
        const uint32_t code = sums[n].finish_code(f32_format(), p.block_rounding);
        if (block == blocks - 1) codes[n] = f32_sum_code(code, c_codes[n]);   // C by one f32 addition
        else chained[n] = f32_code_word(code);
      }
    }
    if (blocks == 0)   // +0 + C
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) codes[n] = f32_sum_code(0u, c_codes[n]);
    return;
  }
  bool have_accumulator = c_first;
  Value accumulator[kN], result[kN];
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) accumulator[n] = c[n];
  for (int block = 0; block < blocks; ++block) {
    Block<P> sums[kN];
MMASP_UNROLL
    for (int n = 0; n < kN; ++n) sums[n] = Block<P>(p);
    sum_blocks<kN, kProductSum>(sums, have_accumulator, accumulator, products,
                                [&](const auto& f) { each_of_block(block, f); });
    if constexpr (!c_first) {
      if (kCCodes && block == blocks - 1 && !f16_d) {   // C added by an f32 addition of codes (f32_sum_code)
MMASP_UNROLL
        for (int n = 0; n < kN; ++n) codes[n] = f32_sum_code(sums[n].finish_code(f32_format(), p.block_rounding), c_codes[n]);
        return;
      }
    }
MMASP_UNROLL
    for (int n = 0; n < kN; ++n) {
      if (block == blocks - 1 && c_first && f16_d) {
        result[n] = sums[n].finish(f16_format(), p.output_rounding);
      } else {
        accumulator[n] = sums[n].finish(f32_format(), p.block_rounding);
        result[n] = accumulator[n];
      }
    }
    if (!(block == blocks - 1 && c_first && f16_d)) have_accumulator = true;
  }
  if constexpr (!c_first) {
    if (kCCodes && !f16_d) {   // no blocks: +0 + C
MMASP_UNROLL
      for (int n = 0; n < kN; ++n) codes[n] = f32_sum_code(0u, c_codes[n]);
      return;
    }
  }
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) {
    if (!c_first) {
      if (!f16_d) {
        result[n] = ieee_add(have_accumulator ? accumulator[n] : Value{}, c[n], p, NoEvents{});
      } else {
        Block<P> sum(p);
        if (have_accumulator) sum.scan(accumulator[n]);
        sum.scan(c[n]);
        if (sum.needs_sum()) {
          if (have_accumulator) sum.sum(accumulator[n]);
          sum.sum(c[n]);
        }
        result[n] = sum.finish(f16_format(), p.output_rounding);
      }
    }
    codes[n] = encode_value(out, result[n], p.canonical_nan);
  }
}

// elements_of_blocks for one element: `products(s, a, b)` gives stored product s's A element and the B element it meets.
template <int kProductSum, class P, class Products, class F16D, class EachOfBlock>
MMASP_PORTABLE uint32_t element_of_blocks(const P& p, int blocks, const Products& products, const Value& c, F16D f16_d,
                                          const EachOfBlock& each_of_block) {
  uint32_t code = 0;
  elements_of_blocks<kProductSum, 1>(
      p, blocks, [&](int s, uint64_t& a, uint64_t* b) { products(s, a, b[0]); }, &c, f16_d, each_of_block, &code);
  return code;
}

// element() with the blocks of the parameters: for_block's enumeration, block sizes known only at run time.
template <class P, class Products>
MMASP_PORTABLE uint32_t element(const P& p, int stored, const Products& products, const Value& c, bool f16_d) {
  const int blocks = (stored + p.block_products - 1) / p.block_products;
  return element_of_blocks<kProductsIn64>(p, blocks, products, c, f16_d,
                           [&](int block, const auto& f) { for_block(p, block, blocks, stored, f); });
}

// for_block for blocks known at compile time: kStored products in blocks of kBlockProducts, interleaved by kInterleave
// (0: consecutive), each block walked in groups of kGroup unrolled. For kStored = 32, 16 per block, interleave 2 (the
// sm_90 fp8 record) for_block's loop control is a large share of the resident kernel's work on an e4m3 k64 case.
// ModelArithmetic.ForBlockEnumeratesBlockOf compares it.
template <int kStored, int kBlockProducts, int kInterleave, int kGroup, class F>
MMASP_PORTABLE void for_fixed_block(int block, const F& f) {
  constexpr int kBlocks = kStored / kBlockProducts;
  static_assert(kStored % kBlockProducts == 0 && kBlockProducts % kGroup == 0, "whole blocks of whole groups");
  static_assert(kInterleave == 0 || (kGroup % kInterleave == 0 && kBlockProducts % kInterleave == 0),
                "groups of whole interleaved runs");
MMASP_NO_UNROLL
  for (int base = 0; base < kBlockProducts; base += kGroup) {
MMASP_UNROLL
    for (int g = 0; g < kGroup; ++g) {
      // Product base + g of the block; with interleave I, block b holds runs of I starting at b * I, every I * blocks.
      if constexpr (kInterleave == 0) f(block * kBlockProducts + base + g);
      else f(block * kInterleave + base * kBlocks + (g / kInterleave) * kInterleave * kBlocks + g % kInterleave);
    }
  }
}

// Calls f(s) for s = 0 .. kStored-1 in order: groups of kGroup unrolled, the groups a loop (a 16-product loop unrolled
// whole made the resident kernel's judge of m16n8k32 bf16 half as fast on the H100).
template <int kStored, int kGroup, class F>
MMASP_PORTABLE void for_each_product(const F& f) {
  static_assert(kStored % kGroup == 0, "whole groups");
MMASP_NO_UNROLL
  for (int base = 0; base < kStored; base += kGroup) {
MMASP_UNROLL
    for (int g = 0; g < kGroup; ++g) f(base + g);
  }
}

// element() where every stored product is in one block with C (C first, one block of at least kStored products), for
// kN elements of one row (sum_blocks; `products`, c and codes as elements_of_blocks takes them): the same Block, the
// same passes and roundings, with the product loops unrolled by groups of kGroup (the resident kernel's f16, bf16 and
// tf32 forms; Resident tests check it against the model on every sm_90 pair). The products are summed in 32 bits: the
// caller has made sure that products_fit_32(kStored, fraction_bits). `f16_d` as in elements_of_blocks. kProductSum:
// kProductsIn32 from pack()'s words, or kProductsOfF32Words from pack_f32's (the caller has made sure that
// f32_words_fit: the resident f16 kernels', resident_abi.h's f16_word). With f32 words, c may be C's f32 words too
// (pack_f32's, tag 0; the caller has made sure of f32_accumulator_fits): the f16 kernels' C, as Block's *_f32_term.
template <int kStored, int kGroup, int kN, int kProductSum = kProductsIn32, class P, class Products, class Accumulator,
          class F16D>
MMASP_PORTABLE void one_block_elements(const P& p, const Products& products, const Accumulator* c, F16D f16_d,
                                       uint32_t* codes) {
  static_assert(kProductSum == kProductsIn32 || kProductSum == kProductsOfF32Words, "products summed in 32 bits");
  static_assert(P::c_placement == CPlacement::first_block && P::block_combination == BlockCombination::chained &&
                    P::narrow_output == NarrowOutput::from_sum,
                "one block with C first");
  Block<P> sums[kN];
MMASP_UNROLL
  for (int n = 0; n < kN; ++n) sums[n] = Block<P>(p);
  sum_blocks<kN, kProductSum>(sums, true, c, products, [](const auto& f) { for_each_product<kStored, kGroup>(f); });
MMASP_UNROLL
  for (int n = 0; n < kN; ++n)
    codes[n] = f16_d ? sums[n].finish_code(f16_format(), p.output_rounding) : sums[n].finish_code(f32_format(), p.block_rounding);
}

// one_block_elements for one element: `products(s, a, b)` gives stored product s's A element and the B element it meets.
template <int kStored, int kGroup, class P, class Products, class F16D>
MMASP_PORTABLE uint32_t one_block_element(const P& p, const Products& products, const Value& c, F16D f16_d) {
  uint32_t code = 0;
  one_block_elements<kStored, kGroup, 1>(p, [&](int s, uint64_t& a, uint64_t* b) { products(s, a, b[0]); }, &c, f16_d,
                                         &code);
  return code;
}

}  // namespace narrow

}  // namespace model
}  // namespace mmasp
