#include "oracle/reference.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

// One factor of a product term, decoded once: its exact value as (-1)^negative * significand * 2^exponent, its
// class as flags, and whether it is a subnormal input (which the hardware may flush).
struct Factor {
  static constexpr uint8_t kZero = 1, kInfinite = 2, kNaN = 4, kSubnormal = 8;
  uint64_t significand = 0;
  int exponent = 0;
  uint8_t flags = 0;
  bool negative = false;
  double magnitude = 0;   // |value| as a double (exact: every format here fits), for S; 0 for Inf and NaN
};

// nullopt for a code the type does not define.
std::optional<Factor> decode_factor(ElemType type, uint32_t code) {
  auto value = decode(type, code);
  if (!value) return std::nullopt;
  const bool finite = value->cls != FloatClass::nan && value->cls != FloatClass::infinite;
  const uint8_t flags = uint8_t((value->cls == FloatClass::zero ? Factor::kZero : 0) |
                                (value->cls == FloatClass::infinite ? Factor::kInfinite : 0) |
                                (value->cls == FloatClass::nan ? Factor::kNaN : 0) |
                                (value->cls == FloatClass::subnormal ? Factor::kSubnormal : 0));
  return Factor{value->significand, value->exponent, flags, value->negative,
                finite ? std::fabs(value->to_double()) : 0.0};
}

// Float types of 8 bits or fewer decode through a table built once (a case decodes thousands of their codes).
Factor factor(ElemType type, uint32_t code) {
  constexpr size_t kTypes = size_t(ElemType::ue4m3) + 1;   // ue4m3 is the last ElemType
  static const std::array<std::vector<std::optional<Factor>>, kTypes> tables = [] {
    std::array<std::vector<std::optional<Factor>>, kTypes> built;
    for (size_t t = 0; t < kTypes; ++t)
      if (info(ElemType(t)).is_float && info(ElemType(t)).bits <= 8)
        for (uint32_t c = 0; c < (1u << info(ElemType(t)).bits); ++c) built[t].push_back(decode_factor(ElemType(t), c));
    return built;
  }();
  const auto& table = tables[size_t(type)];
  if (code < table.size()) {
    if (table[code]) return *table[code];
  } else if (const std::optional<Factor> decoded = decode_factor(type, code)) {
    return *decoded;
  }
  throw std::invalid_argument("reference: undefined code for " + std::string(ptx_name(type)));
}

// Accumulates one element: the exact sum of finite terms, and the IEEE special-value state.
//
// Product terms are kept and summed by sum_products(): where all of them lie within 120 bits of each other — every
// element of the f16, bf16, tf32 and fp8 forms, and most of the block-scaled ones — in one 128-bit integer at the
// lowest term's exponent, added to the wide accumulator once; otherwise one by one. Both are exact, so the result
// is the same (FloatReference.WindowedSumsAreTheTermByTermSums checks it); the window is only faster.
struct ElementSum {
  ExactSum sum;
  // S and the subnormal allowance only scale the bounds: a double sum (relative error below 2^-50) is plenty.
  double magnitudes = 0;
  double subnormal_magnitudes = 0;
  int nonzero = 0;
  bool nan = false, positive_inf = false, negative_inf = false;
  bool window = true;   // false: sum_products adds the terms one by one (for the equivalence test)

  // Empty again, for the next element (the kept terms' storage is left as it is).
  void reset(bool use_window) {
    sum = ExactSum{};
    magnitudes = subnormal_magnitudes = 0;
    nonzero = 0;
    nan = positive_inf = negative_inf = false;
    window = use_window;
    term_count = 0;
  }

  struct Term {
    bool negative;
    unsigned __int128 significand;
    int exponent;
  };
  std::array<Term, 64> terms;            // product terms not yet in `sum` (k / 2 <= 64); left uninitialised
  size_t term_count = 0;

  // The term C: added to `sum` at once.
  void add_term(const Factor& c) { add_term<1, false>({&c}); }
  // A product term: kept for sum_products. Factors by pointer: this runs k/2 times per element.
  template <size_t count>
  void add_product(const std::array<const Factor*, count>& factors) { add_term<count, true>(factors); }

  template <size_t count, bool keep>
  void add_term(const std::array<const Factor*, count>& factors) {
    bool negative = false;
    uint8_t flags = 0;
    unsigned __int128 significand = 1;
    int exponent = 0;
    double magnitude = 1;
    for (const Factor* f : factors) {
      magnitude *= f->magnitude;
      negative ^= f->negative;
      flags |= f->flags;
      significand *= f->significand;
      exponent += f->exponent;
    }
    const bool any_zero = flags & Factor::kZero;
    if (flags & (Factor::kNaN | Factor::kInfinite)) [[unlikely]] {
      // IEEE 754 7.2: NaN in, NaN out; Inf * 0 is invalid (NaN).
      if ((flags & Factor::kNaN) || any_zero) nan = true;
      else (negative ? negative_inf : positive_inf) = true;
      return;
    }
    // Zero terms take no part; without a branch, because a case's zeros fall at random and a branch would mispredict.
    const bool counted = !any_zero;
    nonzero += counted;
    if constexpr (keep) {
      terms[term_count] = {negative, significand, exponent};
      term_count += counted;
    } else if (counted) {
      sum.add(negative, significand, exponent);
    }
    magnitudes += counted ? magnitude : 0.0;   // magnitudes >= +0, so adding +0 changes nothing
    subnormal_magnitudes += counted && (flags & Factor::kSubnormal) ? magnitude : 0.0;
  }

  void sum_products() {
    if (term_count == 0) return;
    const std::span<const Term> kept(terms.data(), term_count);
    constexpr int kWindowBits = 120;   // 64 terms of up to 2^120 stay below 2^127
    int lowest = kept.front().exponent, highest = lowest;
    for (const Term& term : kept) {
      const uint64_t high = uint64_t(term.significand >> 64), low = uint64_t(term.significand);
      const int length = high ? 128 - std::countl_zero(high) : 64 - std::countl_zero(low);
      lowest = std::min(lowest, term.exponent);
      highest = std::max(highest, term.exponent + length);
    }
    if (window && highest - lowest <= kWindowBits) {
      __int128 total = 0;
      for (const Term& term : kept) {
        const __int128 shifted = __int128(term.significand << (term.exponent - lowest));
        total += term.negative ? -shifted : shifted;
      }
      if (total != 0) sum.add(total < 0, (unsigned __int128)(total < 0 ? -total : total), lowest);
    } else {
      for (const Term& term : kept) sum.add(term.negative, term.significand, term.exponent);
    }
    term_count = 0;
  }

  ExpectedElement finish(ElemType d_type) const {
    ExpectedElement e;
    e.nonzero_products = nonzero;
    e.magnitude_sum = magnitudes;
    e.subnormal_allowance = subnormal_magnitudes;
    // Inf + (-Inf) is invalid (IEEE 754 7.2).
    if (nan || (positive_inf && negative_inf)) {
      e.kind = ExpectedElement::Kind::nan;
      e.rounded_code = *encode(d_type, std::numeric_limits<double>::quiet_NaN());
      return e;
    }
    if (positive_inf || negative_inf) {
      e.kind = ExpectedElement::Kind::infinite;
      e.negative = negative_inf;
      e.rounded_code = *encode(d_type, negative_inf ? -HUGE_VAL : HUGE_VAL);
      return e;
    }
    e.exact = sum;
    e.negative = sum.is_negative();
    e.exact_double = sum.to_double();
    const FloatFormat& out = *float_format(d_type);
    ExactSum::Rounded rounded = sum.round(out.mantissa_bits, 1 - out.bias);
    double value = rounded.to_double();
    // Exactly +0 when the exact sum is zero: the sign of an exact zero sum depends on the unspecified rounding mode,
    // so classification does not judge it.
    e.rounded_code = *encode(d_type, value, Overflow::infinity);
    return e;
  }
};

ExpectedElement integer_element(const Form& form, int64_t sum) {
  ExpectedElement e;
  e.integer_sum = sum;
  // 9.7.14.6.3: with .satfinite the s32 result is clamped to [INT32_MIN, INT32_MAX]; without it, it wraps.
  int64_t result = sum;
  if (form.satfinite) result = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  e.rounded_code = uint32_t(result);
  e.exact.add(sum < 0, (unsigned __int128)(sum < 0 ? -sum : sum), 0);
  e.exact_double = double(sum);
  e.negative = sum < 0;
  return e;
}

}  // namespace

namespace detail {
ReferenceResult reference(const MmaCase& test, bool window) {
  check_shape(test);
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  const int chunks = k / form.chunk_width;
  for (uint32_t nibble : test.nibbles)
    if (validity(form.sparsity, nibble) == MetadataValidity::undefined)
      throw std::invalid_argument("reference: metadata holds an undefined index value; nothing can be expected");

  ReferenceResult expected;
  expected.d.resize(size_t(m * n));
  if (form.is_integer()) {
    std::vector<int64_t> b(test.b.size());
    for (size_t x = 0; x < b.size(); ++x) b[x] = decode_integer(form.b, test.b[x]);
    std::vector<int64_t> a_row(size_t(k / 2));
    std::vector<int> columns(size_t(k / 2));
    for (int i = 0; i < m; ++i) {
      const uint32_t* row_nibbles = test.nibbles.data() + size_t(i * chunks);
      for (int s = 0; s < k / 2; ++s) {
        columns[size_t(s)] = logical_column(form, row_nibbles, s);
        a_row[size_t(s)] = decode_integer(form.a, test.a_compressed[size_t(i * (k / 2) + s)]);
      }
      for (int j = 0; j < n; ++j) {
        int64_t sum = decode_integer(form.c, test.c[size_t(i * n + j)]);
        for (int s = 0; s < k / 2; ++s) sum += a_row[size_t(s)] * b[size_t(columns[size_t(s)] * n + j)];
        expected.d[size_t(i * n + j)] = integer_element(form, sum);
      }
    }
    return expected;
  }
  // Decode every operand once; each product then combines decoded factors.
  std::vector<Factor> b(test.b.size());
  for (size_t x = 0; x < b.size(); ++x) b[x] = factor(form.b, test.b[x]);
  std::vector<Factor> scale_b(test.scale_b.size());
  for (size_t x = 0; x < scale_b.size(); ++x) scale_b[x] = factor(*form.stype, test.scale_b[x]);
  const Factor one{1, 0, 0, false, 1.0};
  if (k / 2 > 64) throw std::logic_error("reference: more than 64 product terms per element");
  std::vector<Factor> a_row(size_t(k / 2)), scale_a_row(size_t(k / 2));
  std::vector<int> columns(size_t(k / 2)), blocks(size_t(k / 2));
  std::vector<ElementSum> row(static_cast<size_t>(n));
  for (int i = 0; i < m; ++i) {
    const uint32_t* row_nibbles = test.nibbles.data() + size_t(i * chunks);
    for (int s = 0; s < k / 2; ++s) {
      columns[size_t(s)] = logical_column(form, row_nibbles, s);
      a_row[size_t(s)] = factor(form.a, test.a_compressed[size_t(i * (k / 2) + s)]);
      if (form.block_scale) {
        blocks[size_t(s)] = columns[size_t(s)] / scale_block_width(form);
        scale_a_row[size_t(s)] = factor(*form.stype, test.scale_a[size_t(i * scale_blocks(form) + blocks[size_t(s)])]);
      }
    }
    // The row's n elements side by side, each still summing its terms in stored order: their chains of additions
    // overlap instead of waiting on each other.
    for (int j = 0; j < n; ++j) {
      ElementSum& element = row[size_t(j)];
      element.reset(window);
      element.add_term(factor(form.c, test.c[size_t(i * n + j)]));
      // The term for c counts toward S but is not a product.
      element.nonzero = 0;
    }
    for (int s = 0; s < k / 2; ++s) {
      const Factor* a = &a_row[size_t(s)];
      const Factor* b_row = &b[size_t(columns[size_t(s)] * n)];
      if (form.block_scale) {
        const Factor* scale_a = &scale_a_row[size_t(s)];
        const Factor* scale_b_row = &scale_b[size_t(blocks[size_t(s)] * n)];
        for (int j = 0; j < n; ++j) row[size_t(j)].add_product<4>({a, b_row + j, scale_a, scale_b_row + j});
      } else {
        for (int j = 0; j < n; ++j) row[size_t(j)].add_product<3>({a, b_row + j, &one});
      }
    }
    for (int j = 0; j < n; ++j) {
      row[size_t(j)].sum_products();
      expected.d[size_t(i * n + j)] = row[size_t(j)].finish(form.d);
    }
  }
  return expected;
}
}  // namespace detail

ReferenceResult reference(const MmaCase& test) { return detail::reference(test, true); }

}  // namespace mmasp
