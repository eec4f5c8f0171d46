#include "oracle/numeric_model.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "oracle/text.h"
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

using model::Value;

// The installed event sink (ModelEventScope) and the stage the element's computation is in.
thread_local ModelEventSink t_sink = nullptr;
thread_local void* t_sink_context = nullptr;
thread_local ModelStage t_stage = ModelStage::first_block;

// The arithmetic's events, to the sink installed on this thread (if any).
struct ThreadEvents : model::NoFaults {
  static bool on() { return t_sink != nullptr; }
  void report(ModelEvent event, int value) const {
    if (t_sink) [[unlikely]]
      t_sink(t_sink_context, event, t_stage, std::clamp(value, 0, kModelEventValues - 1));
  }
  void stage(ModelStage stage) const { t_stage = stage; }
};


// Decodes the codes of one operand type; a code wider than its type is an error, not a silent truncation.
class OperandDecoder {
 public:
  OperandDecoder(ElemType type, const ModelParameters& p)
      : format_(model_operand_format(type, p)), subnormals_(p.subnormal_inputs),
        width_(format_.code_bits() + format_.low_pad_bits) {}
  Value operator()(uint32_t code) const {
    if (width_ < 32 && (code >> width_)) throw std::invalid_argument("model: code wider than its type");
    return model::decode_operand(code, format_, subnormals_);
  }

 private:
  model::OperandFormat format_;
  Subnormals subnormals_;
  int width_;
};

}  // namespace

model::OperandFormat model_operand_format(ElemType type, const ModelParameters& p) {
  const FloatFormat& f = *float_format(type);
  model::OperandFormat out;
  out.exponent_bits = f.exponent_bits;
  out.mantissa_bits = f.mantissa_bits;
  out.bias = f.bias;
  out.low_pad_bits = f.low_pad_bits;
  out.specials = f.specials == Specials::ieee ? 0 : f.specials == Specials::nan_all_ones ? 1 : 2;
  out.fp8_fields_as_f16 = p.fp8_fields_as_f16 && (type == ElemType::e4m3 || type == ElemType::e5m2);
  if (!f.has_sign || !f.has_subnormals) throw std::invalid_argument("model: unsigned or subnormal-free operand type");
  return out;
}

// Every float form: block-scale forms too (their D is f32; scaled_element in model_arithmetic.h).
bool model_applies(const Form& form) { return !form.is_integer(); }

ModelEventScope::ModelEventScope(ModelEventSink sink, void* context) {
  t_sink = sink;
  t_sink_context = context;
}
ModelEventScope::~ModelEventScope() {
  t_sink = nullptr;
  t_sink_context = nullptr;
}

namespace {

// Row i's stored products: their logical columns and decoded A elements. False, with D's row i copied from row i-1,
// when the row's inputs (A row, metadata, C row, scale row) are the previous row's: the same inputs to every element, a
// pure function's result copied instead of computed again (probes hold data in row 0 alone). Never while an event sink
// listens: it would miss the copied elements' events.
bool prepare_row(const MmaCase& test, int i, const OperandDecoder& decode_a, const ThreadEvents& events,
                 std::vector<int>& columns, std::vector<Value>& a_row, std::vector<uint32_t>& d) {
  const Form& form = *test.form;
  const size_t stored = size_t(form.shape.k / 2), chunks = size_t(form.shape.k / form.chunk_width), n = size_t(form.shape.n);
  const auto same = [&](const std::vector<uint32_t>& v, size_t width) {
    return std::equal(v.begin() + long(size_t(i) * width), v.begin() + long(size_t(i + 1) * width),
                      v.begin() + long(size_t(i - 1) * width));
  };
  if (i > 0 && !events.on() && same(test.a_compressed, stored) && same(test.nibbles, chunks) && same(test.c, n) &&
      (!form.block_scale || same(test.scale_a, size_t(scale_blocks(form))))) {
    std::copy(d.begin() + long(size_t(i - 1) * n), d.begin() + long(size_t(i) * n), d.begin() + long(size_t(i) * n));
    return false;
  }
  const uint32_t* row_nibbles = test.nibbles.data() + size_t(i) * chunks;
  for (size_t s = 0; s < stored; ++s) {
    columns[s] = logical_column(form, row_nibbles, int(s));
    a_row[s] = decode_a(test.a_compressed[size_t(i) * stored + s]);
  }
  return true;
}

// model_result() for a block-scale form: the scales of each row of A and each column of B decoded, every product's
// scale block known, and scaled_element() per element (D is f32).
std::vector<uint32_t> scaled_model_result(const MmaCase& test, const ModelParameters& p, const std::vector<Value>& b,
                                          const OperandDecoder& decode_a, const OperandDecoder& decode_c,
                                          const ThreadEvents& events) {
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, stored = form.shape.k / 2;
  const int groups = scale_blocks(form), width = scale_block_width(form);
  const bool ue4m3 = *form.stype == ElemType::ue4m3;
  const auto decode_scale = [&](uint32_t code) {
    if (code > (ue4m3 ? 0x7Fu : 0xFFu)) throw std::invalid_argument("model: a scale code its type does not define");
    return model::decode_scale(code, ue4m3);
  };
  std::vector<Value> scale_a(test.scale_a.size()), scale_b(test.scale_b.size());
  for (size_t x = 0; x < scale_a.size(); ++x) scale_a[x] = decode_scale(test.scale_a[x]);
  for (size_t x = 0; x < scale_b.size(); ++x) scale_b[x] = decode_scale(test.scale_b[x]);
  std::vector<Value> a_row(static_cast<size_t>(stored)), scales(static_cast<size_t>(groups));
  std::vector<int> columns(static_cast<size_t>(stored)), group_of(static_cast<size_t>(stored));
  std::vector<uint32_t> d(static_cast<size_t>(m * n));
  for (int i = 0; i < m; ++i) {
    if (!prepare_row(test, i, decode_a, events, columns, a_row, d)) continue;
    for (int s = 0; s < stored; ++s) group_of[size_t(s)] = columns[size_t(s)] / width;
    for (int j = 0; j < n; ++j) {
      for (int g = 0; g < groups; ++g)
        scales[size_t(g)] = model::scale_product(scale_a[size_t(i * groups + g)], scale_b[size_t(g * n + j)], p);
      const auto operands = [&](int s, Value& a, Value& b_value) {
        a = a_row[size_t(s)];
        b_value = b[size_t(columns[size_t(s)] * n + j)];
      };
      const auto group = [&](int s) { return group_of[size_t(s)]; };
      const auto scale = [&](int g) { return scales[size_t(g)]; };
      d[size_t(i * n + j)] = model::scaled_element(p, stored, groups, operands, group, scale, decode_c(test.c[size_t(i * n + j)]), events);
    }
  }
  return d;
}

}  // namespace

std::vector<uint32_t> model_result(const MmaCase& test, const ModelParameters& p) {
  check_shape(test);
  const Form& form = *test.form;
  if (!model_applies(form)) throw std::invalid_argument("model: only float forms");
  if (const std::string problem = parameters_problem(p); !problem.empty())
    throw std::invalid_argument("model: " + problem);
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k, stored = k / 2;
  for (uint32_t nibble : test.nibbles)
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined)
      throw ModelUndefinedInput("model: metadata holds an undefined index value");
  const bool f16_d = form.d == ElemType::f16;
  if (!f16_d && form.d != ElemType::f32) throw std::invalid_argument("model: D is neither f16 nor f32");
  std::vector<Value> b(test.b.size());
  const OperandDecoder decode_a(form.a, p), decode_b(form.b, p), decode_c(form.c, p);
  for (size_t x = 0; x < b.size(); ++x) b[x] = decode_b(test.b[x]);
  std::vector<Value> a_row(static_cast<size_t>(stored));
  std::vector<int> columns(static_cast<size_t>(stored));
  std::vector<uint32_t> d(size_t(m * n));
  const ThreadEvents events;
  if (form.block_scale) return scaled_model_result(test, p, b, decode_a, decode_c, events);
  for (int i = 0; i < m; ++i) {
    if (!prepare_row(test, i, decode_a, events, columns, a_row, d)) continue;
    for (int j = 0; j < n; ++j) {
      const auto operands = [&](int s, Value& a, Value& b_value) {
        a = a_row[size_t(s)];
        b_value = b[size_t(columns[size_t(s)] * n + j)];
      };
      d[size_t(i * n + j)] = model::element(p, stored, operands, decode_c(test.c[size_t(i * n + j)]), f16_d, events);
    }
  }
  return d;
}

// --- Equivalence from the arithmetic's structure. ---------------------------------------------------------------------
namespace {

// The exponent of the finest bit a value of `type` can hold (its smallest subnormal).
int finest_exponent(ElemType type) {
  const FloatFormat& f = *float_format(type);
  return 1 - f.bias - f.mantissa_bits;
}

// A parameter set with every choice the form cannot see set to one value, the blocks of stored products kept apart
// as their membership, and the reasons each normalisation holds.
struct Canonical {
  ModelParameters p;
  int blocks = 0;
  std::vector<int> membership;   // the block of each stored product, in stored order
  std::map<std::string, std::string> reasons;   // parameter -> why its values are alike here
  bool operator==(const Canonical& other) const {
    return p == other.p && blocks == other.blocks && membership == other.membership;
  }
};

Canonical canonical(const Form& form, ModelParameters p) {
  Canonical out;
  const int stored = form.shape.k / 2;
  const bool f16_d = form.d == ElemType::f16;
  const auto fp8 = [](ElemType t) { return t == ElemType::e4m3 || t == ElemType::e5m2; };
  if (!fp8(form.a) && !fp8(form.b) && !fp8(form.c)) {
    p.fp8_fields_as_f16 = false;
    out.reasons["fp8_fields"] = "the form has no e4m3 or e5m2 operand, whose decoding fp8_fields changes";
  } else if (const ElemType operands[] = {form.a, form.b, form.c};
             std::all_of(std::begin(operands), std::end(operands), [&](ElemType t) {
               return !fp8(t) || float_format(t)->bias == float_format(ElemType::f16)->bias;
             })) {
    // e5m2 has f16's exponent width and bias: its own fields are f16's fields.
    p.fp8_fields_as_f16 = false;
    out.reasons["fp8_fields"] = "every fp8 operand is e5m2, whose exponent fields are f16's (5 bits, bias 15)";
  } else if (p.alignment == AlignmentExponent::leading_bit) {
    // The fields set only the exponent-sum alignment (decode_operand's `field`); values and flushing are the same.
    p.fp8_fields_as_f16 = false;
    out.reasons["fp8_fields"] = "terms are aligned by their leading bit: the exponent fields fp8_fields chooses are never read";
  } else if (!form.block_scale && p.subnormal_inputs == Subnormals::flushed) {
    // A normal element's field is its leading bit's exponent either way; only a subnormal e4m3 element's differs.
    p.fp8_fields_as_f16 = false;
    out.reasons["fp8_fields"] = "subnormal A and B elements are read as zero, and a normal element's exponent field is "
                                "its leading bit's either way";
  } else if (!form.block_scale && p.c_placement != CPlacement::first_block) {
    // Only a product with a subnormal e4m3 factor has another alignment reference (own fields: e4m3's smallest normal
    // exponent; f16's: the factor's leading bit, up to 3 lower). Where such a product sets a block's alignment, its
    // reference is at most `highest`; with fraction_bits reaching from there to the finest product bit, nothing in that
    // block is cut under either field (every product, and every earlier block's f32 result, is a multiple of the
    // finest product bit). Where another term sets it, both fields give that term's reference. C must stay out of the
    // product blocks: its bits go lower.
    const auto largest_exponent = [](ElemType t) { return std::ilogb(decode_to_double(t, max_finite_code(t))); };
    int highest = std::numeric_limits<int>::min();
    for (const auto& [x, other] : {std::pair{form.a, form.b}, std::pair{form.b, form.a}})
      if (fp8(x) && float_format(x)->bias != float_format(ElemType::f16)->bias)
        highest = std::max(highest, 1 - float_format(x)->bias + largest_exponent(other));
    const int finest_product = finest_exponent(form.a) + finest_exponent(form.b);
    if (highest != std::numeric_limits<int>::min() && p.fraction_bits >= highest - finest_product) {
      p.fp8_fields_as_f16 = false;
      out.reasons["fp8_fields"] = "C joins no block of products, and a block whose alignment a product with a subnormal "
                                  "e4m3 factor sets (at most 2^" + std::to_string(highest) + ") keeps " +
                                  std::to_string(p.fraction_bits) + " fraction bits, down to the finest product bit 2^" +
                                  std::to_string(finest_product) + ": no block cuts a bit under either field";
    }
  }
  if (!f16_d) {
    p.output_rounding = Rounding::nearest_even;
    p.narrow_output = NarrowOutput::from_sum;
    out.reasons["output_rounding"] = out.reasons["narrow_output"] = "D is f32: no f16 rounding happens";
  } else {
    p.block_combination = BlockCombination::chained;
    out.reasons["block_combination"] = "D is f16: blocks combined by separate additions apply to an f32 D only";
    if (p.c_placement == CPlacement::fadd_after) p.c_placement = CPlacement::after_products;
    out.reasons["c_placement"] = "D is f16: C added by an FADD is added in a block of its own, as after-products";
  }
  if (!f16_d && p.block_combination == BlockCombination::fadd) {
    if (p.c_placement == CPlacement::fadd_after) p.c_placement = CPlacement::after_products;
    out.reasons["c_placement"] = "blocks combined by separate additions: C after the products is added last by an IEEE "
                                 "addition, with or without fadd-after";
  }
  // Block scale (model_arithmetic.h, scaled_element): idle without it; a ue8m0 scale product is a power of two, and a
  // ue4m3 one has at most 8 significant bits, so neither is ever rounded at 8 bits or more.
  if (!form.block_scale) {
    p.scale_placement = ScalePlacement::product;
    p.scale_bits = 8;
    p.scale_rounding = Rounding::nearest_even;
    out.reasons["scale_placement"] = out.reasons["scale_bits"] = out.reasons["scale_rounding"] =
        "the form has no block scale";
  } else if (*form.stype == ElemType::ue8m0 || p.scale_bits >= 8) {
    p.scale_bits = 8;
    p.scale_rounding = Rounding::nearest_even;
    out.reasons["scale_bits"] = out.reasons["scale_rounding"] =
        *form.stype == ElemType::ue8m0
            ? "ue8m0 scales are powers of two: the product of two is exact at any number of bits"
            : "a ue4m3 x ue4m3 product has at most 8 significant bits: kept whole at 8 or more";
  }
  out.blocks = (stored + p.block_products - 1) / p.block_products;
  for (int s = 0; s < stored; ++s) out.membership.push_back(model::block_of(p, s, out.blocks));
  p.block_products = 0;
  p.block_interleave = 0;
  out.reasons["block_products"] = out.reasons["block_interleave"] =
      "the same blocks of the form's " + std::to_string(stored) + " stored products";
  // Every term (product, C, a rounded f32 accumulator) is a multiple of 2^finest, and so is every aligned sum of them.
  // A block-scale product carries two scale factors too: the finest and the largest of the scale type, twice.
  const int scale_finest = form.block_scale ? 2 * (*form.stype == ElemType::ue8m0 ? -127 : finest_exponent(*form.stype)) : 0;
  const int finest_product = finest_exponent(form.a) + finest_exponent(form.b) + scale_finest;
  const int finest = std::min({finest_product, finest_exponent(form.c), -149});
  if (finest >= -149) {
    p.alignment_floor_guard = -1;
    out.reasons["alignment_floor_guard"] = "no term of the form has a bit below 2^-149 (its finest product is 2^" +
                                           std::to_string(finest_product) +
                                           "), so no floor at or below 2^-149 cuts anything";
    if (!f16_d) {
      p.subnormal_rounding = SubnormalRounding::as_normal;
      out.reasons["subnormal_rounding"] = "D is f32 and every value is a multiple of 2^-149: a result below the normal "
                                          "range is exact, however it would be rounded";
    }
  }
  // Overflow: an f32 result overflows when the sum reaches 2^128 - 2^103 (to nearest) or 2^128 (toward zero). With
  // shifted-out bits truncated no aligned term grows, so no aligned sum exceeds |C| + (K/2) max|a| max|b|, nor does
  // any partial sum or rounded block result (terms rounded per shifted_out may grow: a C near the largest f32 rounded
  // to fewer bits reaches 2^128).
  const auto largest = [](ElemType t) { return decode_to_double(t, max_finite_code(t)); };
  const double scale_largest = form.block_scale ? largest(*form.stype) : 1.0;
  const double bound =
      largest(form.c) + double(stored) * largest(form.a) * largest(form.b) * scale_largest * scale_largest;
  if (!f16_d && p.shifted_out == ShiftedOut::truncate && bound < 0x1p128 - 0x1p103) {
    p.overflow = SumOverflow::to_infinity;
    char text[160];
    std::snprintf(text, sizeof text, "D is f32 and no finite sum of the form reaches f32's overflow threshold "
                  "(|C| + %d products is at most %.4g)", stored, bound);
    out.reasons["overflow"] = text;
  }
  // Exact block sums: every aligned term is a multiple of 2^(E - fraction_bits) and below 2^(E + 2) (E the block's
  // alignment exponent; +1 for a term rounded up per shifted_out), so a block of T terms needs at most fraction_bits
  // + 3 + ceil(log2 T) bits; within f32's 24 (and every value a multiple of 2^-149) no f32 rounding of a block is
  // ever inexact.
  int largest_block = 0;
  for (int b = 0; b < out.blocks; ++b)
    largest_block = std::max<int>(largest_block, int(std::count(out.membership.begin(), out.membership.end(), b)));
  const int terms = largest_block + 1;   // and the accumulator (C, or the previous block's result)
  int log2_terms = 0;
  while ((1 << log2_terms) < terms) ++log2_terms;
  if (finest >= -149 && p.fraction_bits + 3 + log2_terms <= 24) {
    p.block_rounding = Rounding::toward_zero;
    out.reasons["block_rounding"] = "every block's aligned sum (at most " + std::to_string(p.fraction_bits + 3 + log2_terms) +
                                    " significant bits, multiples of 2^-149) is exact in f32";
    if (!f16_d) {
      p.subnormal_rounding = SubnormalRounding::as_normal;
      out.reasons["subnormal_rounding"] = "every block's sum is exact in f32, however it would be rounded";
    }
  }
  if (f16_d && p.narrow_output == NarrowOutput::from_sum && p.c_placement == CPlacement::first_block && out.blocks == 1) {
    p.block_rounding = Rounding::toward_zero;
    out.reasons["block_rounding"] = "one block with C and an f16 D rounded from its sum: no f32 rounding happens";
    // Then the only rounding is the f16 one; a result below f16's normal range rounded "to nearest even" is rounded as a
    // normal one is, when that is to nearest even too.
    if (p.output_rounding == Rounding::nearest_even && p.subnormal_rounding == SubnormalRounding::nearest_even) {
      p.subnormal_rounding = SubnormalRounding::as_normal;
      out.reasons["subnormal_rounding"] = "one block with C and an f16 D rounded from its sum to nearest even: the only "
                                          "rounding is that one, and a subnormal result rounded to nearest even is "
                                          "rounded as a normal one is";
    }
  }
  out.p = p;
  return out;
}

}  // namespace

std::optional<std::string> equivalence_on(const Form& form, const ModelParameters& p, const ModelParameters& q) {
  if (!model_applies(form)) return std::nullopt;
  const Canonical a = canonical(form, p), b = canonical(form, q);
  if (!(a == b)) return std::nullopt;
  std::string why;
  for (const auto& parameter : model_parameter_space()) {
    if (parameter.get(p) == parameter.get(q)) continue;
    const auto it = a.reasons.find(std::string(parameter.name));
    const std::string reason = it != a.reasons.end() ? it->second : "alike on this form";
    why += (why.empty() ? "" : "; ") + std::string(parameter.name) + ": " + reason;
  }
  return why.empty() ? "the same parameters" : why;
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
const Names<ScalePlacement> kScalePlacement{{{ScalePlacement::product, "product"}, {ScalePlacement::block_sum, "block-sum"}}};

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
ModelParameter choice(std::string_view name, const Names<E>& names, E model::Parameters::*field) {
  return {name, names.all(), [&names, field](const ModelParameters& p) { return names.of(p.*field); },
          [&names, field](ModelParameters& p, std::string_view v) { p.*field = names.from(v); }};
}
// `minimum` and `maximum` bound what the arithmetic (model_arithmetic.h) computes with: a block holds at least one
// product and at most the 64 stored products of the widest shape; the aligned sum keeps at most 60 fraction bits
// (kNarrowSumFractionBits and the 128-bit sum leave room for 64 terms above them); a scale product is rounded to at
// least one and at most 16 significant bits (a ue4m3 x ue4m3 product has 8).
ModelParameter number(std::string_view name, std::vector<std::string> values, int model::Parameters::*field, int minimum,
                      int maximum) {
  ModelParameter parameter{name, std::move(values), [field](const ModelParameters& p) { return std::to_string(p.*field); },
                           [field](ModelParameters& p, std::string_view v) { p.*field = v == "-1" ? -1 : parse_int(v); }};
  parameter.whole_number = true;
  parameter.minimum = minimum;
  parameter.maximum = maximum;
  return parameter;
}

}  // namespace

const std::vector<ModelParameter>& model_parameter_space() {
  static const std::vector<ModelParameter> space = {
      number("block_products", {"1", "2", "4", "8", "16", "32"}, &ModelParameters::block_products, 1, 64),
      number("block_interleave", {"0", "1", "2", "4", "8"}, &ModelParameters::block_interleave, 0, 64),
      number("alignment_floor_guard", [] { auto v = numbers(0, 12); v.insert(v.begin(), "-1"); return v; }(),
             &ModelParameters::alignment_floor_guard, -1, 64),
      number("fraction_bits", numbers(10, 30), &ModelParameters::fraction_bits, 0, 60),
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
      choice("scale_placement", kScalePlacement, &ModelParameters::scale_placement),
      number("scale_bits", numbers(3, 8), &ModelParameters::scale_bits, 1, 16),
      choice("scale_rounding", kRounding, &ModelParameters::scale_rounding),
  };
  return space;
}

std::vector<const ModelParameter*> parameters_of(const Form& form) {
  std::vector<const ModelParameter*> out;
  for (const auto& parameter : model_parameter_space()) {
    const bool scale = parameter.name.starts_with("scale_");
    if (scale && !form.block_scale) continue;
    if ((parameter.name == "scale_bits" || parameter.name == "scale_rounding") && *form.stype == ElemType::ue8m0) continue;
    out.push_back(&parameter);
  }
  return out;
}

const ModelParameter* find_model_parameter(std::string_view name) {
  for (const auto& parameter : model_parameter_space())
    if (parameter.name == name) return &parameter;
  return nullptr;
}

std::string ModelParameter::problem(std::string_view value) const {
  if (std::find(values.begin(), values.end(), value) != values.end()) return "";
  const std::string shown = printable(value);
  if (!whole_number) {
    std::string listed;
    for (const auto& v : values) listed += (listed.empty() ? "" : ", ") + v;
    return "model parameter " + std::string(name) + " has no value '" + shown + "' (known: " + listed + ")";
  }
  const std::string range = " (a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum) + ")";
  // Digits only, with a minus sign for -1 alone: no blank, sign, point or exponent, and at most three digits.
  const bool minus_one = value == "-1";
  const bool digits = !value.empty() && value.size() <= 3 &&
                      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!minus_one && !digits) return "model parameter " + std::string(name) + " has no value '" + shown + "'" + range;
  const int number = minus_one ? -1 : parse_int(value);
  if (number < minimum || number > maximum)
    return "model parameter " + std::string(name) + " = " + shown + " is out of range" + range;
  return "";
}

std::string parameters_problem(const ModelParameters& p) {
  for (const auto& parameter : model_parameter_space())
    if (parameter.whole_number)
      if (std::string problem = parameter.problem(parameter.get(p)); !problem.empty()) return problem;
  return "";
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
    if (const std::string problem = parameter->problem(value); !problem.empty()) throw std::invalid_argument(problem);
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
