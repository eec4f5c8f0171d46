#include "oracle/numeric_model.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

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

int bit_length(uint64_t x) { return 64 - std::countl_zero(x); }

// The installed event sink (ModelEventScope) and the stage the element's computation is in.
thread_local ModelEventSink t_sink = nullptr;
thread_local void* t_sink_context = nullptr;
thread_local ModelStage t_stage = ModelStage::first_block;
inline void report(ModelEvent event, int value) {
  if (t_sink) [[unlikely]]
    t_sink(t_sink_context, event, t_stage, std::clamp(value, 0, kModelEventValues - 1));
}

Value decode_value(ElemType type, uint32_t code, Subnormals subnormals) {
  const FloatFormat& f = *float_format(type);
  Value v;
  const auto exact = decode(type, code);
  if (!exact) throw std::invalid_argument("model: undefined code");
  v.negative = exact->negative;
  switch (exact->cls) {
    case FloatClass::zero: v.cls = Value::zero; return v;
    case FloatClass::infinite: v.cls = Value::infinite; return v;
    case FloatClass::nan: v.cls = Value::nan; return v;
    case FloatClass::subnormal:
      if (subnormals == Subnormals::flushed) { v.cls = Value::zero; return v; }
      [[fallthrough]];
    case FloatClass::normal: break;
  }
  v.cls = Value::finite;
  v.significand = exact->significand;
  v.exponent = exact->exponent;
  v.field = std::max(bit_length(v.significand) - 1 + v.exponent, 1 - f.bias);
  return v;
}

// Operands of 8 bits or fewer decode through a table built once per (type, subnormal handling).
const Value& table_value(ElemType type, uint32_t code, Subnormals subnormals) {
  constexpr size_t kTypes = size_t(ElemType::ue4m3) + 1;
  static const auto tables = [] {
    std::array<std::array<std::vector<Value>, 2>, kTypes> built;
    for (size_t t = 0; t < kTypes; ++t) {
      const auto type = ElemType(t);
      if (!info(type).is_float || info(type).bits > 8 || type == ElemType::ue8m0 || type == ElemType::ue4m3) continue;
      for (int s = 0; s < 2; ++s)
        for (uint32_t c = 0; c < (1u << info(type).bits); ++c)
          built[t][size_t(s)].push_back(decode_value(type, c, Subnormals(s)));
    }
    return built;
  }();
  const auto& table = tables[size_t(type)][size_t(subnormals)];
  if (code >= table.size()) throw std::invalid_argument("model: code wider than its type");
  return table[code];
}

// An IEEE-style format (all-ones exponent is Inf/NaN: f16, bf16, tf32, f32, e5m2) straight from its bits, with its
// parameters from number_format's table (tf32: its low 13 register bits ignored). The model decodes every element
// of a case; a 64 Ki-entry table for the 16-bit types would not stay in cache.
Value ieee_operand(uint32_t code, const FloatFormat& f, Subnormals subnormals) {
  Value v;
  const uint32_t mantissa_mask = (1u << f.mantissa_bits) - 1, exponent_mask = (1u << f.exponent_bits) - 1;
  v.negative = (code >> (f.low_pad_bits + f.mantissa_bits + f.exponent_bits)) & 1;
  const uint32_t exponent = (code >> (f.low_pad_bits + f.mantissa_bits)) & exponent_mask;
  const uint32_t mantissa = (code >> f.low_pad_bits) & mantissa_mask;
  if (exponent == exponent_mask) { v.cls = mantissa ? Value::nan : Value::infinite; return v; }
  if (exponent == 0 && (mantissa == 0 || subnormals == Subnormals::flushed)) return v;   // a (signed) zero
  v.cls = Value::finite;
  v.significand = exponent ? (mantissa | (1u << f.mantissa_bits)) : mantissa;
  v.exponent = (exponent ? int(exponent) : 1) - f.bias - f.mantissa_bits;
  v.field = std::max(bit_length(v.significand) - 1 + v.exponent, 1 - f.bias);
  return v;
}

// Decodes the codes of one operand type, with the lookup resolved once per case rather than per element.
class OperandDecoder {
 public:
  OperandDecoder(ElemType type, const ModelParameters& p) : p_(p) {
    const FloatFormat* f = float_format(type);
    if (f && f->specials == Specials::ieee) {
      ieee_ = f;
      width_ = f->code_bits + f->low_pad_bits;
    } else {
      table_ = &table_value(type, 0, p.subnormal_inputs);
      width_ = info(type).bits;
    }
    fp8_as_f16_ = p.fp8_fields_as_f16 && (type == ElemType::e4m3 || type == ElemType::e5m2);
  }
  Value operator()(uint32_t code) const {
    if (width_ < 32 && (code >> width_)) throw std::invalid_argument("model: code wider than its type");
    Value v = ieee_ ? ieee_operand(code, *ieee_, p_.subnormal_inputs) : table_[code];
    if (fp8_as_f16_ && v.cls == Value::finite)
      v.field = std::max(bit_length(v.significand) - 1 + v.exponent, 1 - float_format(ElemType::f16)->bias);
    return v;
  }

 private:
  const ModelParameters& p_;
  const FloatFormat* ieee_ = nullptr;   // decoded from the bits
  const Value* table_ = nullptr;        // otherwise (8 bits or fewer) from a table
  int width_ = 0;
  bool fp8_as_f16_ = false;
};

// A result format, from number_format's table: the accumulator's f32 and an f16 D. The canonical NaN (every bit but
// the sign) is what the hardware returns; the default quiet NaN is IEEE's (the top mantissa bit).
struct Format {
  int mantissa_bits, min_exponent, max_exponent;
  uint32_t sign_bit, canonical_nan, default_nan, infinity;
};
Format result_format(ElemType type) {
  const FloatFormat& f = *float_format(type);
  const uint32_t sign = 1u << (f.exponent_bits + f.mantissa_bits);
  const uint32_t infinity = ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
  return {f.mantissa_bits, 1 - f.bias, (1 << f.exponent_bits) - 2 - f.bias, sign, sign - 1,
          infinity | (1u << (f.mantissa_bits - 1)), infinity};
}
const Format kF32 = result_format(ElemType::f32);
const Format kF16 = result_format(ElemType::f16);
const int kF32MinSubnormalExponent = kF32.min_exponent - kF32.mantissa_bits;   // -149

// Rounds (-1)^negative * magnitude * 2^exponent (magnitude != 0) to `format`.
Value round_to(const Format& format, bool negative, uint64_t magnitude, int exponent, Rounding rounding,
               const ModelParameters& p) {
  const Subnormals subnormals = p.subnormal_results;
  const SumOverflow overflow = p.overflow;
  const bool signed_zero_results = p.signed_zero_results;
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
  const int quantum = std::max(leading, format.min_exponent) - format.mantissa_bits;
  const int shift = quantum - exponent;
  uint64_t significand;
  if (shift <= 0) {
    significand = magnitude << -shift;
    report(ModelEvent::rounding, 0);
  } else if (shift >= 64) {
    significand = 0;
    if (rounding == Rounding::nearest_even && shift == 64 && (magnitude >> 63)) significand = 1;  // above the half
    report(ModelEvent::rounding, magnitude == 0 ? 0 : significand ? 2 : 1);
  } else {
    significand = magnitude >> shift;
    const uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
    const bool up = rounding == Rounding::nearest_even && (rest > half || (rest == half && (significand & 1)));
    if (t_sink) [[unlikely]] {
      const int guard = int((magnitude >> (shift - 1)) & 1), round = shift >= 2 ? int((magnitude >> (shift - 2)) & 1) : 0;
      const int sticky = shift >= 3 && (magnitude & ((uint64_t(1) << (shift - 2)) - 1)) != 0;
      report(ModelEvent::rounding_bits, 4 * guard + 2 * round + sticky);
    }
    if (up) ++significand;
    report(ModelEvent::rounding, rest == 0 ? 0 : up ? 2 : 1);
  }
  if (significand == 0) {
    report(ModelEvent::result, 0);
    v.cls = Value::zero;
    v.negative = negative && signed_zero_results;
    return v;
  }
  v.cls = Value::finite;
  v.significand = significand;
  v.exponent = quantum;
  const int result_leading = bit_length(significand) - 1 + quantum;
  if (result_leading > format.max_exponent) {
    report(ModelEvent::result, overflow == SumOverflow::to_infinity ? 4 : 3);
    if (overflow == SumOverflow::to_infinity) { v.cls = Value::infinite; return v; }
    v.significand = (uint64_t(1) << (format.mantissa_bits + 1)) - 1;
    v.exponent = format.max_exponent - format.mantissa_bits;
  } else {
    report(ModelEvent::result, result_leading < format.min_exponent ? (subnormals == Subnormals::flushed ? 5 : 1) : 2);
  }
  if (result_leading < format.min_exponent && subnormals == Subnormals::flushed) {
    v.cls = Value::zero;
    v.negative = negative && signed_zero_results;
    return v;
  }
  v.field = std::max(bit_length(v.significand) - 1 + v.exponent, format.min_exponent);
  return v;
}

uint32_t encode_value(const Format& format, const Value& v, bool canonical_nan) {
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

struct Term {
  bool negative;
  uint64_t significand;
  int exponent;
  int reference;   // its alignment exponent
  bool product;    // a product (else C or the running sum)
};

// One block: the terms' specials, then their aligned exact sum, rounded once.
class Block {
 public:
  explicit Block(const ModelParameters& p) : p_(p) {}

  void add(const Value& v) {
    switch (v.cls) {
      case Value::zero: all_zero_negative_ &= v.negative; return;
      case Value::nan: nan_ = true; return;
      case Value::infinite: (v.negative ? negative_inf_ : positive_inf_) = true; return;
      case Value::finite: break;
    }
    all_zero_negative_ = false;
    const int leading = bit_length(v.significand) - 1 + v.exponent;
    push({v.negative, v.significand, v.exponent, p_.alignment == AlignmentExponent::leading_bit ? leading : v.field, false});
  }
  void add_product(const Value& a, const Value& b) {
    const bool negative = a.negative != b.negative;
    if (a.cls == Value::finite && b.cls == Value::finite) [[likely]] {
      all_zero_negative_ = false;
      const uint64_t significand = a.significand * b.significand;
      const int exponent = a.exponent + b.exponent;
      push({negative, significand, exponent,
            p_.alignment == AlignmentExponent::leading_bit ? bit_length(significand) - 1 + exponent : a.field + b.field, true});
      return;
    }
    if (a.cls == Value::nan || b.cls == Value::nan) { report(ModelEvent::special, 0); nan_ = true; return; }
    if (a.cls == Value::infinite || b.cls == Value::infinite) {
      if (a.cls == Value::zero || b.cls == Value::zero) report(ModelEvent::special, 1), nan_ = true;
      else (negative ? negative_inf_ : positive_inf_) = true;
      return;
    }
    if (a.cls == Value::zero || b.cls == Value::zero) { all_zero_negative_ &= negative; return; }
    all_zero_negative_ = false;
    const uint64_t significand = a.significand * b.significand;
    const int exponent = a.exponent + b.exponent;
    const int reference = p_.alignment == AlignmentExponent::leading_bit ? bit_length(significand) - 1 + exponent
                                                                         : a.field + b.field;
    push({negative, significand, exponent, reference, true});
  }

  // The block's result in `format`.
  Value finish(const Format& format, Rounding rounding) const {
    Value v;
    if (nan_ || (positive_inf_ && negative_inf_)) {
      report(ModelEvent::special, nan_ ? 0 : 3);
      v.cls = Value::nan;
      return v;
    }
    if (positive_inf_ || negative_inf_) { report(ModelEvent::special, 2); v.cls = Value::infinite; v.negative = negative_inf_; return v; }
    if (count_ == 0) {
      if (all_zero_negative_) report(ModelEvent::special, 4);
      v.negative = all_zero_negative_ && p_.signed_zero_results;
      return v;
    }
    const int top = top_;
    report(ModelEvent::block_terms, int(count_));
    if (t_sink) [[unlikely]] {
      bool from_c = false;
      int second = INT32_MIN;
      bool top_seen = false;
      for (size_t t = 0; t < count_; ++t) {
        from_c |= !terms_[t].product && terms_[t].reference == top;
        if (terms_[t].reference == top && !top_seen) top_seen = true;
        else second = std::max(second, terms_[t].reference);
      }
      report(ModelEvent::alignment_from_c, from_c);
      if (second != INT32_MIN) report(ModelEvent::second_term_gap, top - second);
    }
    int lsb = top - p_.fraction_bits;
    if (p_.alignment_floor_guard >= 0) lsb = std::max(lsb, kF32MinSubnormalExponent - p_.alignment_floor_guard);
    // The sign of the largest term (by exact magnitude), for floor_in_largest_sign.
    bool largest_negative = false;
    if (p_.shifted_out == ShiftedOut::floor_in_largest_sign) {
      size_t largest = 0;
      auto magnitude_key = [&](const Term& t) {
        const int length = bit_length(t.significand);
        return std::pair<int, uint64_t>(length - 1 + t.exponent, t.significand << (64 - length));
      };
      for (size_t t = 1; t < count_; ++t)
        if (magnitude_key(terms_[t]) > magnitude_key(terms_[largest])) largest = t;
      largest_negative = terms_[largest].negative;
    }
    __int128 sum = 0;
    for (size_t t = 0; t < count_; ++t) {
      const Term& term = terms_[t];
      const int shift = term.exponent - lsb;
      unsigned __int128 aligned;
      if (shift >= 0) {
        aligned = (unsigned __int128)term.significand << shift;
      } else if (-shift >= 64) {
        report(ModelEvent::shifted_out, 64);
        report(ModelEvent::shifted_out_lost, 64);
        // Every bit shifted out: nothing survives except what floor or rounding up keeps.
        aligned = (p_.shifted_out == ShiftedOut::floor && term.negative) ||
                          (p_.shifted_out == ShiftedOut::floor_in_largest_sign && term.negative != largest_negative)
                      ? 1 : 0;
      } else {
        const int s = -shift;
        aligned = term.significand >> s;
        const uint64_t rest = term.significand & ((uint64_t(1) << s) - 1), half = uint64_t(1) << (s - 1);
        report(ModelEvent::shifted_out, s);
        if (rest) report(ModelEvent::shifted_out_lost, s);
        if (p_.shifted_out == ShiftedOut::floor && term.negative && rest) ++aligned;
        if (p_.shifted_out == ShiftedOut::floor_in_largest_sign && term.negative != largest_negative && rest) ++aligned;
        if (p_.shifted_out == ShiftedOut::nearest_even && (rest > half || (rest == half && (aligned & 1)))) ++aligned;
      }
      sum += term.negative ? -__int128(aligned) : __int128(aligned);
    }
    if (sum == 0) {
      report(ModelEvent::cancellation, 64);
      report(ModelEvent::result, 0);
      v.negative = false;
      return v;
    }
    const bool negative = sum < 0;
    const unsigned __int128 magnitude = negative ? -(unsigned __int128)sum : (unsigned __int128)sum;
    if (t_sink) [[unlikely]] {
      // Where the sum's leading bit is against the alignment exponent (top, at lsb + fraction_bits): above is a carry,
      // below a cancellation.
      const int leading = (magnitude >> 64 ? 64 + bit_length(uint64_t(magnitude >> 64)) : bit_length(uint64_t(magnitude))) - 1 + lsb;
      if (leading > top) report(ModelEvent::carry, leading - top);
      else report(ModelEvent::cancellation, top - leading);
    }
    // Aligned sums stay far below 2^64 (at most 33 terms of fraction_bits + 3 bits); keep 64 bits regardless.
    uint64_t narrow = uint64_t(magnitude);
    int exponent = lsb;
    if (magnitude >> 64) {
      const int extra = bit_length(uint64_t(magnitude >> 64));
      narrow = uint64_t(magnitude >> extra) | uint64_t((magnitude & ((unsigned __int128)1 << extra) - 1) != 0);
      exponent += extra;
    }
    return round_to(format, negative, narrow, exponent, rounding, p_);
  }

 private:
  void push(const Term& term) {
    if (count_ == terms_.size()) throw std::logic_error("model: more than 64 terms in a block");
    top_ = count_ ? std::max(top_, term.reference) : term.reference;
    terms_[count_++] = term;
  }
  int top_ = 0;   // the largest alignment exponent pushed so far

  const ModelParameters& p_;
  std::array<Term, 40> terms_;   // at most 32 products, the accumulator and C
  size_t count_ = 0;
  bool nan_ = false, positive_inf_ = false, negative_inf_ = false;
  bool all_zero_negative_ = true;   // every term so far is a negative zero (IEEE: -0 + -0 = -0)
};

// a + b as an IEEE f32 addition rounded to nearest even (exact sum, one rounding), with the model's handling of
// zeros, subnormals and specials.
Value ieee_add(const Value& a, const Value& b, const ModelParameters& p) {
  ModelParameters exact = p;
  exact.fraction_bits = 60;
  exact.alignment = AlignmentExponent::leading_bit;
  exact.shifted_out = ShiftedOut::truncate;
  exact.alignment_floor_guard = -1;
  exact.subnormal_rounding = SubnormalRounding::as_normal;
  Block add(exact);
  add.add(a);
  add.add(b);
  return add.finish(kF32, Rounding::nearest_even);
}

}  // namespace

bool model_applies(const Form& form) { return !form.is_integer() && !form.block_scale; }

ModelEventScope::ModelEventScope(ModelEventSink sink, void* context) {
  t_sink = sink;
  t_sink_context = context;
}
ModelEventScope::~ModelEventScope() {
  t_sink = nullptr;
  t_sink_context = nullptr;
}

std::vector<uint32_t> model_result(const MmaCase& test, const ModelParameters& p) {
  check_shape(test);
  const Form& form = *test.form;
  if (!model_applies(form)) throw std::invalid_argument("model: only float forms without block scale");
  if (p.block_products < 1 || p.fraction_bits < 0 || p.fraction_bits > 60)
    throw std::invalid_argument("model: parameters out of range");
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k, stored = k / 2;
  const int chunks = k / form.chunk_width;
  for (uint32_t nibble : test.nibbles)
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined)
      throw std::invalid_argument("model: metadata holds an undefined index value");
  const Format& out = form.d == ElemType::f16 ? kF16 : kF32;
  std::vector<Value> b(test.b.size());
  const OperandDecoder decode_a(form.a, p), decode_b(form.b, p), decode_c(form.c, p);
  for (size_t x = 0; x < b.size(); ++x) b[x] = decode_b(test.b[x]);
  std::vector<Value> a_row(static_cast<size_t>(stored));
  std::vector<int> columns(static_cast<size_t>(stored));
  std::vector<uint32_t> d(size_t(m * n));
  // Which stored products each block fuses (the same for every element).
  const int blocks = (stored + p.block_products - 1) / p.block_products;
  std::vector<std::vector<int>> members(static_cast<size_t>(blocks));
  for (int s = 0; s < stored; ++s)
    members[size_t(p.block_interleave ? (s / p.block_interleave) % blocks : s / p.block_products)].push_back(s);
  for (int i = 0; i < m; ++i) {
    const uint32_t* row_nibbles = test.nibbles.data() + size_t(i * chunks);
    for (int s = 0; s < stored; ++s) {
      columns[size_t(s)] = logical_column(form, row_nibbles, s);
      a_row[size_t(s)] = decode_a(test.a_compressed[size_t(i * stored + s)]);
    }
    for (int j = 0; j < n; ++j) {
      const Value c = decode_c(test.c[size_t(i * n + j)]);
      const bool c_first = p.c_placement == CPlacement::first_block;
      std::optional<Value> accumulator;
      if (c_first) accumulator = c;
      Value result;
      if (p.block_combination == BlockCombination::fadd && &out == &kF32) {
        // Separate additions: every block from zero, then C + r0 + r1 + ... each rounded to nearest even.
        std::vector<Value> partials;
        for (int block = 0; block < blocks; ++block) {
          t_stage = block == 0 ? ModelStage::first_block : ModelStage::later_block;
          Block sum(p);
          for (int s : members[size_t(block)]) sum.add_product(a_row[size_t(s)], b[size_t(columns[size_t(s)] * n + j)]);
          partials.push_back(sum.finish(kF32, p.block_rounding));
        }
        t_stage = ModelStage::c_addition;
        if (c_first) partials.insert(partials.begin(), c);
        else partials.push_back(c);
        result = partials.front();
        for (size_t x = 1; x < partials.size(); ++x) result = ieee_add(result, partials[x], p);
        d[size_t(i * n + j)] = encode_value(out, result, p.canonical_nan);
        continue;
      }
      for (int block = 0; block < blocks; ++block) {
        t_stage = block == 0 ? ModelStage::first_block : ModelStage::later_block;
        Block sum(p);
        if (accumulator) sum.add(*accumulator);
        for (int s : members[size_t(block)]) sum.add_product(a_row[size_t(s)], b[size_t(columns[size_t(s)] * n + j)]);
        const bool last = block == blocks - 1 && c_first;
        if (last && &out == &kF16 && p.narrow_output == NarrowOutput::from_sum) {
          result = sum.finish(kF16, p.output_rounding);
        } else {
          accumulator = sum.finish(kF32, p.block_rounding);
          result = *accumulator;
        }
      }
      t_stage = ModelStage::c_addition;
      if (p.c_placement == CPlacement::fadd_after && &out == &kF32) {
        result = ieee_add(accumulator.value_or(Value{}), c, p);
        accumulator = result;
      } else if (!c_first) {
        Block sum(p);
        if (accumulator) sum.add(*accumulator);
        sum.add(c);
        if (&out == &kF16 && p.narrow_output == NarrowOutput::from_sum) {
          result = sum.finish(kF16, p.output_rounding);
        } else {
          result = sum.finish(kF32, p.block_rounding);
        }
        accumulator = result;
      }
      uint32_t code;
      if (&out == &kF16 && p.narrow_output == NarrowOutput::via_f32) {
        Value narrow = result;
        if (result.cls == Value::finite)
          narrow = round_to(kF16, result.negative, result.significand, result.exponent, p.output_rounding, p);
        code = encode_value(kF16, narrow, p.canonical_nan);
      } else {
        code = encode_value(out, result, p.canonical_nan);
      }
      d[size_t(i * n + j)] = code;
    }
  }
  return d;
}

// --- The parameter space as data. ----------------------------------------------------------------------------------
namespace {

template <typename E>
struct Names {
  std::vector<std::pair<E, std::string_view>> list;
  std::string of(E value) const {
    for (const auto& [v, text] : list) if (v == value) return std::string(text);
    return "?";
  }
  E from(std::string_view text) const {
    for (const auto& [v, name] : list) if (name == text) return v;
    throw std::invalid_argument("unknown model parameter value '" + std::string(text) + "'");
  }
  std::vector<std::string> all() const {
    std::vector<std::string> out;
    for (const auto& [v, text] : list) out.emplace_back(text);
    return out;
  }
};

const Names<ShiftedOut> kShiftedOut{{{ShiftedOut::truncate, "truncate"}, {ShiftedOut::floor, "floor"},
                                     {ShiftedOut::nearest_even, "nearest-even"},
                                     {ShiftedOut::floor_in_largest_sign, "floor-in-largest-sign"}}};
const Names<Rounding> kRounding{{{Rounding::toward_zero, "toward-zero"}, {Rounding::nearest_even, "nearest-even"}}};
const Names<AlignmentExponent> kAlignment{{{AlignmentExponent::leading_bit, "leading-bit"},
                                           {AlignmentExponent::exponent_sum, "exponent-sum"}}};
const Names<CPlacement> kCPlacement{{{CPlacement::first_block, "first-block"},
                                     {CPlacement::after_products, "after-products"},
                                     {CPlacement::fadd_after, "fadd-after"}}};
const Names<BlockCombination> kCombination{{{BlockCombination::chained, "chained"}, {BlockCombination::fadd, "fadd"}}};
const Names<NarrowOutput> kNarrow{{{NarrowOutput::from_sum, "from-sum"}, {NarrowOutput::via_f32, "via-f32"}}};
const Names<Subnormals> kSubnormals{{{Subnormals::kept, "kept"}, {Subnormals::flushed, "flushed"}}};
const Names<SumOverflow> kOverflow{{{SumOverflow::to_infinity, "infinity"}, {SumOverflow::saturate, "saturate"}}};
const Names<bool> kNan{{{true, "canonical"}, {false, "default-quiet"}}};
const Names<SubnormalRounding> kSubnormalRounding{{{SubnormalRounding::as_normal, "as-normal"},
                                                   {SubnormalRounding::nearest_even, "nearest-even"},
                                                   {SubnormalRounding::nearest_after_truncation, "nearest-after-truncation"}}};
const Names<bool> kFp8Fields{{{false, "own"}, {true, "f16"}}};
const Names<bool> kZeroSign{{{true, "ieee"}, {false, "positive"}}};

int parse_int(std::string_view text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("not a number: '" + std::string(text) + "'");
    value = value * 10 + (c - '0');
  }
  return value;
}

std::vector<std::string> numbers(int from, int to) {
  std::vector<std::string> out;
  for (int v = from; v <= to; ++v) out.push_back(std::to_string(v));
  return out;
}


// A parameter that is one of a named set of values, and one that is a whole number (-1 allowed where listed).
template <typename E>
ModelParameter choice(std::string_view name, const Names<E>& names, E ModelParameters::*field) {
  return {name, names.all(), [&names, field](const ModelParameters& p) { return names.of(p.*field); },
          [&names, field](ModelParameters& p, std::string_view v) { p.*field = names.from(v); }};
}
ModelParameter number(std::string_view name, std::vector<std::string> values, int ModelParameters::*field) {
  return {name, std::move(values), [field](const ModelParameters& p) { return std::to_string(p.*field); },
          [field](ModelParameters& p, std::string_view v) { p.*field = v == "-1" ? -1 : parse_int(v); }};
}

}  // namespace

const std::vector<ModelParameter>& model_parameter_space() {
  static const std::vector<ModelParameter> space = {
      number("block_products", {"1", "2", "4", "8", "16", "32"}, &ModelParameters::block_products),
      number("block_interleave", {"0", "1", "2", "4", "8"}, &ModelParameters::block_interleave),
      number("alignment_floor_guard", [] { auto v = numbers(0, 12); v.insert(v.begin(), "-1"); return v; }(),
             &ModelParameters::alignment_floor_guard),
      number("fraction_bits", numbers(10, 30), &ModelParameters::fraction_bits),
      choice("shifted_out", kShiftedOut, &ModelParameters::shifted_out),
      choice("alignment", kAlignment, &ModelParameters::alignment),
      choice("fp8_fields", kFp8Fields, &ModelParameters::fp8_fields_as_f16),
      choice("block_rounding", kRounding, &ModelParameters::block_rounding),
      choice("output_rounding", kRounding, &ModelParameters::output_rounding),
      choice("narrow_output", kNarrow, &ModelParameters::narrow_output),
      choice("c_placement", kCPlacement, &ModelParameters::c_placement),
      choice("block_combination", kCombination, &ModelParameters::block_combination),
      choice("subnormal_inputs", kSubnormals, &ModelParameters::subnormal_inputs),
      choice("subnormal_results", kSubnormals, &ModelParameters::subnormal_results),
      choice("subnormal_rounding", kSubnormalRounding, &ModelParameters::subnormal_rounding),
      choice("overflow", kOverflow, &ModelParameters::overflow),
      choice("zero_sign", kZeroSign, &ModelParameters::signed_zero_results),
      choice("nan", kNan, &ModelParameters::canonical_nan),
  };
  return space;
}

const ModelParameter* find_model_parameter(std::string_view name) {
  for (const auto& parameter : model_parameter_space())
    if (parameter.name == name) return &parameter;
  return nullptr;
}

ModelParameters with_changes(ModelParameters parameters, std::string_view changes) {
  while (!changes.empty()) {
    const size_t comma = changes.find(',');
    const std::string_view item = changes.substr(0, comma);
    changes = comma == std::string_view::npos ? std::string_view() : changes.substr(comma + 1);
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    if (equals == std::string_view::npos)
      throw std::invalid_argument("model parameter change '" + std::string(item) + "' is not name=value");
    const ModelParameter* parameter = find_model_parameter(item.substr(0, equals));
    if (!parameter) throw std::invalid_argument("no model parameter '" + std::string(item.substr(0, equals)) + "'");
    const std::string_view value = item.substr(equals + 1);
    // Whole numbers outside the listed values are allowed (a block of 64, 31 fraction bits); names are not.
    const bool listed = std::find(parameter->values.begin(), parameter->values.end(), value) != parameter->values.end();
    if (!listed && (value.empty() || value.size() > 3) )
      throw std::invalid_argument("model parameter " + std::string(parameter->name) + " has no value '" +
                                  std::string(value) + "'");
    if (!listed && !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw std::invalid_argument("model parameter " + std::string(parameter->name) + " has no value '" +
                                  std::string(value) + "'");
    const std::string& first = parameter->values.front();
    if (!listed && !std::isdigit(static_cast<unsigned char>(first.back())))
      throw std::invalid_argument("model parameter " + std::string(parameter->name) + " has no value '" +
                                  std::string(value) + "'");
    parameter->set(parameters, value);
  }
  return parameters;
}

std::string ModelParameters::str() const {
  std::ostringstream text;
  bool first = true;
  for (const auto& parameter : model_parameter_space()) {
    text << (first ? "" : ", ") << parameter.name << "=" << parameter.get(*this);
    first = false;
  }
  return text.str();
}

}  // namespace mmasp
