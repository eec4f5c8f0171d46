#include "generators/special_cases.h"

#include <cmath>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp::gen {
namespace {

struct Builder {
  const Form& form;
  int selector;
  std::vector<NamedCase> cases;

  MmaCase base() const {
    MmaCase test = zero_case(form);
    test.selector = selector;
    return test;
  }
  // The code of `value` in `type`, if exactly representable.
  static std::optional<uint32_t> code(ElemType type, double value) {
    if (!info(type).is_float) {
      if (value != std::floor(value)) return std::nullopt;
      return encode_integer(type, int64_t(value));
    }
    auto c = encode(type, value);
    if (!c) return std::nullopt;
    const double back = decode_to_double(type, *c);
    if (!(back == value || (std::isnan(back) && std::isnan(value)))) return std::nullopt;
    return c;
  }
  void add(std::string name, MmaCase test) { cases.push_back({std::move(name), std::move(test)}); }
  int k() const { return form.shape.k; }
  int n() const { return form.shape.n; }
  int m() const { return form.shape.m; }
  // Stored element s of row i multiplies B row logical_column(s).
  int column_of(const MmaCase& test, int row, int stored) const {
    return logical_column(form, test.nibbles.data() + row * (k() / form.chunk_width), stored);
  }
};

}  // namespace

std::vector<NamedCase> special_value_cases(const Form& form, int selector) {
  Builder b{form, selector, {}};
  const bool is_float = !form.is_integer();
  const ElemType a = form.a, bt = form.b, c = form.c;
  const uint32_t a_one = *Builder::code(a, 1), b_one = *Builder::code(bt, 1);

  b.add("zeros", b.base());

  {  // C passes through untouched when every product is zero.
    MmaCase t = b.base();
    std::vector<uint32_t> values;
    if (is_float) {
      for (double v : {1.0, -1.0, -0.0, 0.5}) values.push_back(*Builder::code(c, v));
      values.push_back(max_finite_code(c));
      values.push_back(max_finite_code(c) | (c == ElemType::f32 ? 0x80000000u : 0x8000u));
      values.push_back(1);  // the smallest subnormal
      if (float_format(c)->specials == Specials::ieee) {
        values.push_back(*encode(c, HUGE_VAL));
        values.push_back(*encode(c, -HUGE_VAL));
        values.push_back(*encode(c, std::nan("")));
      }
    } else {
      for (int64_t v : {int64_t(1), int64_t(-1), int64_t(INT32_MAX), int64_t(INT32_MIN), int64_t(12345)})
        values.push_back(uint32_t(int32_t(v)));
    }
    for (size_t i = 0; i < t.c.size(); ++i) t.c[i] = values[i % values.size()];
    b.add("c-passes-through", t);
  }

  {  // Every product 1: D = K/2 everywhere.
    MmaCase t = b.base();
    std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
    std::fill(t.b.begin(), t.b.end(), b_one);
    b.add("all-ones", t);
  }

  {  // Every chunk pattern in use, different per row and chunk; small values.
    MmaCase t = b.base();
    const int chunks = b.k() / form.chunk_width;
    const std::vector<ChunkPositions> patterns = increasing_patterns(form.sparsity);
    for (int r = 0; r < b.m(); ++r)
      for (int ch = 0; ch < chunks; ++ch) t.nibbles[size_t(r * chunks + ch)] = nibble_of(form.sparsity, patterns[size_t(r + ch) % patterns.size()]);
    for (size_t i = 0; i < t.a_compressed.size(); ++i) t.a_compressed[i] = *Builder::code(a, double(int(i % 3) + 1));
    for (size_t i = 0; i < t.b.size(); ++i) t.b[i] = *Builder::code(bt, (i % 2) ? 1.0 : -1.0 * ((i % 4) == 0 ? 1 : 0) + 2.0 * ((i % 4) == 2));
    b.add("every-metadata-pattern", t);
  }

  {  // Lanes that hold no metadata hold all ones (undefined nibbles): they must be ignored.
    MmaCase t = b.base();
    std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
    for (size_t i = 0; i < t.b.size(); ++i) t.b[i] = (i % 3 == 0) ? b_one : 0;
    t.metadata_noise.assign(32, 0xFFFFFFFFu);
    b.add("metadata-noise-all-ones", t);
  }

  if (!is_float) {
    const int64_t a_max = integer_range(a).max;
    const int64_t b_max = integer_range(bt).max, b_min = integer_range(bt).min;
    MmaCase high = b.base();
    std::fill(high.a_compressed.begin(), high.a_compressed.end(), encode_integer(a, a_max));
    std::fill(high.b.begin(), high.b.end(), encode_integer(bt, b_max));
    std::fill(high.c.begin(), high.c.end(), uint32_t(INT32_MAX - 5));
    b.add("s32-above-max", high);
    MmaCase low = b.base();
    std::fill(low.a_compressed.begin(), low.a_compressed.end(), encode_integer(a, a_max));
    std::fill(low.b.begin(), low.b.end(), encode_integer(bt, b_min == 0 ? 0 : b_min));
    std::fill(low.c.begin(), low.c.end(), uint32_t(INT32_MIN + 5));
    if (b_min != 0) b.add("s32-below-min", low);
    return b.cases;
  }

  const FloatFormat& fa = *float_format(a);
  const bool a_has_inf = fa.specials == Specials::ieee;
  const bool a_has_nan = fa.specials != Specials::none;

  if (a_has_nan) {  // NaN in A poisons its row.
    MmaCase t = b.base();
    t.a_compressed[0] = *encode(a, std::nan(""));
    std::fill(t.b.begin(), t.b.end(), b_one);
    b.add("nan-in-a", t);
  }
  if (float_format(c)->specials == Specials::ieee) {  // NaN in C stays NaN.
    MmaCase t = b.base();
    t.c[3] = *encode(c, std::nan(""));
    std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
    std::fill(t.b.begin(), t.b.end(), b_one);
    b.add("nan-in-c", t);
  }
  if (a_has_inf) {
    MmaCase t = b.base();  // Inf * 0 = NaN in column 0, Inf * 1 = Inf in column 1.
    t.a_compressed[0] = *encode(a, HUGE_VAL);
    const int col = b.column_of(t, 0, 0);
    t.b[size_t(col * b.n() + 1)] = b_one;
    b.add("inf-times-zero-and-one", t);
    MmaCase u = b.base();  // Inf - Inf = NaN.
    u.a_compressed[0] = *encode(a, HUGE_VAL);
    u.a_compressed[1] = *encode(a, -HUGE_VAL);
    std::fill(u.b.begin(), u.b.end(), b_one);
    b.add("inf-minus-inf", u);
  }
  {  // The largest magnitudes everywhere: the sum may overflow the accumulator.
    MmaCase t = b.base();
    std::fill(t.a_compressed.begin(), t.a_compressed.end(), max_finite_code(a));
    std::fill(t.b.begin(), t.b.end(), max_finite_code(bt));
    b.add("largest-products", t);
  }
  {  // Subnormal A times 1, and tiny C: flushing is allowed, results are bounded.
    MmaCase t = b.base();
    const uint32_t smallest = 1u << fa.low_pad_bits;
    for (size_t i = 0; i < t.a_compressed.size(); i += 2) t.a_compressed[i] = smallest;
    std::fill(t.b.begin(), t.b.end(), b_one);
    t.c[0] = 1;  // smallest subnormal of C
    b.add("subnormal-inputs", t);
  }
  {  // Products below the accumulator's normal range (bf16/tf32 2^-126 squared), or simply the smallest normals.
    MmaCase t = b.base();
    const uint32_t min_normal_a = *encode(a, std::ldexp(1.0, 1 - fa.bias));
    const uint32_t min_normal_b = *encode(bt, std::ldexp(1.0, 1 - float_format(bt)->bias));
    std::fill(t.a_compressed.begin(), t.a_compressed.end(), min_normal_a);
    std::fill(t.b.begin(), t.b.end(), min_normal_b);
    b.add("tiny-products", t);
  }
  {  // big - big + 1 in every row: the unit survives only if nothing is lost in alignment.
    MmaCase t = b.base();
    const double big = decode_to_double(a, max_finite_code(a)) / 2;
    const auto big_code = Builder::code(a, std::ldexp(1.0, std::ilogb(big)));
    for (int r = 0; r < b.m(); ++r) {
      t.a_compressed[size_t(r * b.k() / 2)] = *big_code;
      t.a_compressed[size_t(r * b.k() / 2 + 1)] = *big_code | (1u << (fa.exponent_bits + fa.mantissa_bits + fa.low_pad_bits));
      t.a_compressed[size_t(r * b.k() / 2 + 2)] = a_one;
    }
    std::fill(t.b.begin(), t.b.end(), b_one);
    b.add("cancellation-around-one", t);
  }
  {  // -0 in C with zero products: the sign of the zero result is not judged, its magnitude is.
    MmaCase t = b.base();
    std::fill(t.c.begin(), t.c.end(), *encode(c, -0.0));
    b.add("negative-zero-c", t);
  }
  if (form.block_scale) {
    const ElemType st = *form.stype;
    const FloatFormat& sf = *float_format(st);
    {  // A NaN scale for row 0 of A: every product of row 0 is NaN, so all of D's row 0 is (inferred from the formula).
      MmaCase t = b.base();
      std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
      std::fill(t.b.begin(), t.b.end(), b_one);
      t.scale_a[0] = *encode(st, std::nan(""));
      b.add("nan-scale-a", t);
    }
    if (sf.has_subnormals) {  // ue4m3 has a zero: its block's products vanish.
      MmaCase t = b.base();
      std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
      std::fill(t.b.begin(), t.b.end(), b_one);
      std::fill(t.scale_b.begin(), t.scale_b.end(), 0u);
      b.add("zero-scale-b", t);
    }
    {  // The largest scale on A and the smallest on B: their product is near 1 only if both are applied exactly.
      MmaCase t = b.base();
      std::fill(t.a_compressed.begin(), t.a_compressed.end(), a_one);
      std::fill(t.b.begin(), t.b.end(), b_one);
      std::fill(t.scale_a.begin(), t.scale_a.end(), max_finite_code(st));
      std::fill(t.scale_b.begin(), t.scale_b.end(), sf.has_subnormals ? 1u : 0u);
      b.add("extreme-scales", t);
    }
  }
  if (a == ElemType::tf32) {
    // The 13 low bits of a tf32 register: the oracle models them as ignored (inferred from the wgmma text).
    MmaCase t = b.base();
    for (auto& code : t.a_compressed) code = 0x3f800000u | 0x1FFFu;       // 1.0 with every low bit set
    for (auto& code : t.b) code = 0x3f800000u | 0x1000u;                   // 1.0 with the top low bit set
    b.add("tf32-low-bits-set", t);
  }
  return b.cases;
}

}  // namespace mmasp::gen
