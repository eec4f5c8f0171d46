#include "oracle/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

// One factor of a product term: exact value and whether it is a subnormal input (which the hardware may flush).
struct Factor {
  ExactValue value;
  bool subnormal = false;
  double magnitude = 0;   // |value| as a double (exact: every format here fits), for S
};

Factor factor(ElemType type, uint32_t code) {
  auto value = decode(type, code);
  if (!value) throw std::invalid_argument("reference: undefined code for " + std::string(ptx_name(type)));
  const bool finite = value->cls != FloatClass::nan && value->cls != FloatClass::infinite;
  return {*value, value->cls == FloatClass::subnormal, finite ? std::fabs(value->to_double()) : 0.0};
}

// Accumulates one element: the exact sum of finite terms, and the IEEE special-value state.
struct ElementSum {
  ExactSum sum;
  // S and the subnormal allowance only scale the bounds: a double sum (relative error below 2^-50) is plenty.
  double magnitudes = 0;
  double subnormal_magnitudes = 0;
  int nonzero = 0;
  bool nan = false, positive_inf = false, negative_inf = false;

  void add_term(std::initializer_list<Factor> factors) {
    bool negative = false, any_nan = false, any_inf = false, any_zero = false, any_subnormal = false;
    unsigned __int128 significand = 1;
    int exponent = 0;
    double magnitude = 1;
    for (const Factor& f : factors) {
      magnitude *= f.magnitude;
      negative ^= f.value.negative;
      any_nan |= f.value.cls == FloatClass::nan;
      any_inf |= f.value.cls == FloatClass::infinite;
      any_zero |= f.value.cls == FloatClass::zero;
      any_subnormal |= f.subnormal;
      significand *= f.value.significand;
      exponent += f.value.exponent;
    }
    // IEEE 754 7.2: NaN in, NaN out; Inf * 0 is invalid (NaN).
    if (any_nan || (any_inf && any_zero)) { nan = true; return; }
    if (any_inf) { (negative ? negative_inf : positive_inf) = true; return; }
    if (any_zero) return;
    ++nonzero;
    sum.add(negative, significand, exponent);
    magnitudes += magnitude;
    if (any_subnormal) subnormal_magnitudes += magnitude;
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

ReferenceResult reference(const MmaCase& test) {
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
  const Factor one{ExactValue{FloatClass::normal, false, 1, 0}, false, 1.0};
  std::vector<Factor> a_row(size_t(k / 2)), scale_a_row(size_t(k / 2));
  std::vector<int> columns(size_t(k / 2)), blocks(size_t(k / 2));
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
    for (int j = 0; j < n; ++j) {
      ElementSum element;
      element.add_term({factor(form.c, test.c[size_t(i * n + j)])});
      // The term for c counts toward S but is not a product.
      element.nonzero = 0;
      for (int s = 0; s < k / 2; ++s) {
        const Factor& bf = b[size_t(columns[size_t(s)] * n + j)];
        if (form.block_scale)
          element.add_term({a_row[size_t(s)], bf, scale_a_row[size_t(s)], scale_b[size_t(blocks[size_t(s)] * n + j)]});
        else
          element.add_term({a_row[size_t(s)], bf, one});
      }
      expected.d[size_t(i * n + j)] = element.finish(form.d);
    }
  }
  return expected;
}

}  // namespace mmasp
