#include "generators/model_probes.h"

#include <cmath>
#include <optional>
#include <sstream>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp::gen {
namespace {

// The code of `value` in a float type when it is exactly representable (and, with `normal_only`, normal).
std::optional<uint32_t> exact_code(ElemType type, double value, bool normal_only = false) {
  const auto code = encode(type, value);
  if (!code) return std::nullopt;
  const auto back = decode(type, *code);
  if (!back) return std::nullopt;
  if (std::isnan(value)) return back->cls == FloatClass::nan ? code : std::nullopt;
  if (back->to_double() != value && !(std::isinf(value) && back->cls == FloatClass::infinite)) return std::nullopt;
  if (back->cls == FloatClass::zero && std::signbit(value) != back->negative) return std::nullopt;
  if (normal_only && back->cls == FloatClass::subnormal) return std::nullopt;
  return code;
}

// A product term: either its value (split into a * b by the builder) or its two factors.
struct Product {
  int position;          // stored position in row 0 (0 .. K/2-1)
  double a = 0, b = 1;   // the factors; `value` below when split is true
  bool split = true;
  double value = 0;
};
Product term(int position, double value) { return {position, 0, 1, true, value}; }
Product factors(int position, double a, double b) { return {position, a, b, false, 0}; }

class Builder {
 public:
  Builder(const Form& form, int selector) : form_(form), selector_(selector) {}

  // Adds a probe whose row 0, column 0 holds C = c and the given products; every other element is zero. Left out
  // when the form's types cannot hold a term exactly. On a block-scale form the products of one scale block share its
  // scale (row 0's times column 0's): a power of two is chosen per scale block so that its products' values are
  // representable (C is never scaled, so a probe can set C far above or below the products); `scales`, when given,
  // are the codes of row 0's and column 0's scale for scale block 0 instead.
  void add(const std::string& parameter, const std::string& name, double c, const std::vector<Product>& products,
           std::optional<std::pair<uint32_t, uint32_t>> scales = std::nullopt) {
    MmaCase test = zero_case(form_);
    test.selector = selector_;
    const auto c_code = exact_code(form_.c, c);
    if (!c_code) return;
    test.c[0] = *c_code;
    const int stored = form_.shape.k / 2, n = form_.shape.n;
    std::vector<int> shift(size_t(std::max(1, scale_blocks(form_))), 0);   // per scale block: products / 2^shift
    if (form_.block_scale && !scales && !choose_scale_shifts(test, products, shift)) return;
    for (Product p : products) {
      p.position *= spread;
      if (p.position < 0 || p.position >= stored) return;
      const int column = logical_column(form_, test.nibbles.data(), p.position);
      const int t = form_.block_scale ? shift[size_t(column / scale_block_width(form_))] : 0;
      std::optional<std::pair<uint32_t, uint32_t>> codes =
          p.split ? split(std::ldexp(p.value, -t)) : codes_of(std::ldexp(p.a, -t), p.b);
      if (!codes) return;
      if (test.a_compressed[size_t(p.position)] != 0 || test.b[size_t(column * n)] != 0) return;   // position reused
      test.a_compressed[size_t(p.position)] = codes->first;
      test.b[size_t(column * n)] = codes->second;
    }
    if (scales) {
      test.scale_a[0] = scales->first;
      test.scale_b[0] = scales->second;
    } else if (form_.block_scale) {
      const int groups = scale_blocks(form_);
      for (int g = 0; g < groups; ++g) {
        const auto codes = power_of_two_scales(shift[size_t(g)]);
        test.scale_a[size_t(g)] = codes->first;       // row 0
        test.scale_b[size_t(g * n)] = codes->second;  // column 0
      }
    }
    probes.push_back({parameter + ": " + name + (spread != 1 ? " (positions x" + std::to_string(spread) + ")" : ""),
                      parameter, std::move(test)});
  }
  // Adds the same probe with its terms scaled by 2^shift, for the first shift at which every term is representable
  // (narrow types cannot hold 1 and 2^-30 at once, but can hold 2^8 and 2^-22).
  void add_scaled(const std::string& parameter, const std::string& name, double c, const std::vector<Product>& products) {
    for (int shift : {0, 8, 12, 16, -8, 4, -4, 24, -16}) {
      std::vector<Product> scaled = products;
      for (Product& p : scaled) {
        if (p.split) p.value = std::ldexp(p.value, shift);
        else p.a = std::ldexp(p.a, shift);
      }
      const size_t before = probes.size();
      add(parameter, name + (shift ? " (x2^" + std::to_string(shift) + ")" : ""), std::ldexp(c, shift), scaled);
      if (probes.size() > before) return;
    }
  }
  int stored() const { return form_.shape.k / 2; }
  const Form& form() const { return form_; }

  std::vector<ModelProbe> probes;
  // Stored positions are multiplied by this: the same probe with its terms 4 apart lands in one block also where the
  // blocks interleave (a block of positions 0, 4, 8, ... or 0, 1, 4, 5, ...).
  int spread = 1;

 private:
  std::optional<std::pair<uint32_t, uint32_t>> codes_of(double a, double b) const {
    const auto ca = exact_code(form_.a, a), cb = exact_code(form_.b, b);
    if (!ca || !cb) return std::nullopt;
    return std::pair{*ca, *cb};
  }
  // a * b == value exactly, both factors normal where possible, b a power of two near 1.
  std::optional<std::pair<uint32_t, uint32_t>> split(double value) const {
    if (value == 0 || !std::isfinite(value)) return codes_of(value, 1);
    for (bool normal : {true, false})
      for (int step = 0; step < 80; ++step) {
        const int e = (step % 2 ? -1 : 1) * ((step + 1) / 2);   // 0, -1, 1, -2, 2, ...
        const double b = std::ldexp(1.0, e), a = value / b;
        const auto ca = exact_code(form_.a, a, normal), cb = exact_code(form_.b, b, normal);
        if (ca && cb) return std::pair{*ca, *cb};
      }
    return std::nullopt;
  }

  // Row 0's and column 0's scale codes whose product is 2^t (split between the two where one scale cannot hold it).
  std::optional<std::pair<uint32_t, uint32_t>> power_of_two_scales(int t) const {
    const ElemType type = *form_.stype;
    const auto code = [&](int e) { return exact_code_unsigned(type, std::ldexp(1.0, e)); };
    for (int first = 0; std::abs(first) <= std::abs(t) + 1; first = first > 0 ? -first : -first + 1) {
      const int row = t / 2 + first, column = t - row;
      const auto a = code(row), b = code(column);
      if (a && b) return std::pair{*a, *b};
    }
    return std::nullopt;
  }
  // Per scale block: the first shift (0, then powers of two further and further away) at which the scale can be 2^t
  // and every product of the block splits into codes at value / 2^t.
  bool choose_scale_shifts(const MmaCase& test, const std::vector<Product>& products, std::vector<int>& shift) const {
    const int width = scale_block_width(form_), stored = form_.shape.k / 2;
    for (int g = 0; g < int(shift.size()); ++g) {
      // Around the exponent of the block's largest finite product first (it then sits near 1), then 0.
      int largest = 0;
      bool any = false;
      for (const Product& p : products) {
        const double v = std::fabs(p.split ? p.value : p.a * p.b);
        const int position = p.position * spread;
        if (position < 0 || position >= stored || !std::isfinite(v) || v == 0) continue;
        if (logical_column(form_, test.nibbles.data(), position) / width != g) continue;
        largest = any ? std::max(largest, std::ilogb(v)) : std::ilogb(v);
        any = true;
      }
      std::vector<int> tries;
      for (int step = 0; step <= 16; ++step) tries.push_back(largest + (step % 2 ? -1 : 1) * ((step + 1) / 2));
      tries.push_back(0);
      bool found = false;
      for (int t : tries) {
        if (found) break;
        if (!power_of_two_scales(t)) continue;
        bool all = true;
        for (Product p : products) {
          const int position = p.position * spread;
          if (position < 0 || position >= stored) return false;
          if (logical_column(form_, test.nibbles.data(), position) / width != g) continue;
          all &= bool(p.split ? split(std::ldexp(p.value, -t)) : codes_of(std::ldexp(p.a, -t), p.b));
          if (!all) break;
        }
        if (all) {
          shift[size_t(g)] = t;
          found = true;
        }
      }
      if (!found) return false;
    }
    return true;
  }
  // The code of `value` in an unsigned scale type (ue8m0, ue4m3) when it is exactly representable.
  static std::optional<uint32_t> exact_code_unsigned(ElemType type, double value) {
    const auto code = encode(type, value);
    if (!code) return std::nullopt;
    const auto back = decode(type, *code);
    if (!back || back->cls == FloatClass::nan || back->to_double() != value) return std::nullopt;
    return code;
  }

  const Form& form_;
  int selector_;
};

std::string power(int j) { return "2^" + std::to_string(j); }

}  // namespace

std::vector<ModelProbe> model_probes(const Form& form, int selector) {
  Builder b(form, selector);
  const int last = b.stored() - 1;

  for (int spread : {1, 4}) {
  b.spread = spread;
  // Fraction bits kept below the alignment exponent, and what happens to the bits shifted out: 1 - 1 + s leaves s
  // exactly where its bits survive alignment to the exponent of 1, and what truncation, flooring or rounding of s
  // leaves where they do not.
  for (int j = 8; j <= 34; ++j)
    for (double sign : {1.0, -1.0}) {
      const double s = sign * std::ldexp(1.0, -j);
      const std::string text = std::string(sign > 0 ? "+" : "-") + power(-j);
      b.add_scaled("fraction_bits", "1 - 1 " + text + " (products)", 0, {term(0, 1), term(1, -1), term(2, s)});
      b.add_scaled("fraction_bits", "1 - 1 " + text + " (C)", s, {term(0, 1), term(1, -1)});
      b.add_scaled("shifted_out", "1 - 1 " + text + " * 1.5", 0, {term(0, 1), term(1, -1), term(2, 1.5 * s)});
    }
  // Alignment by the exact leading bit or by the exponent fields: 1.5 * 1.5 = 2.25 has exponent fields 0 + 0 but its
  // leading bit at 2^1, so a small term survives one bit further down with exponent-field alignment.
  for (int j = 20; j <= 30; ++j)
    b.add_scaled("alignment", "1.5*1.5 - 1.5*1.5 + " + power(-j), 0,
                 {factors(0, 1.5, 1.5), factors(1, -1.5, 1.5), term(2, std::ldexp(1.0, -j))});
  // The same seen through an f16 D's rounding: 2.25 + 2^-10 is a tie of f16 at 2.25, and a small term that survives
  // alignment only by the exponent fields breaks it upward.
  for (int j = 22; j <= 28; ++j)
    b.add_scaled("alignment", "1.5*1.5 + 2^-10 + " + power(-j), 0,
                 {factors(0, 1.5, 1.5), term(1, std::ldexp(1.0, -10)), term(2, std::ldexp(1.0, -j))});
  // Rounding of a block's sum to f32: 1 + 2^-24 + 2^-25 is above half an ulp of f32 at 1, 1 + 2^-24 exactly half.
  for (double sign : {1.0, -1.0}) {
    const std::string s = sign > 0 ? "" : "-";
    b.add_scaled("block_rounding", s + "(1 + 2^-24 + 2^-25)", 0,
                 {term(0, sign), term(1, sign * std::ldexp(1.0, -24)), term(2, sign * std::ldexp(1.0, -25))});
    b.add_scaled("block_rounding", s + "(1 + 2^-24) (a tie)", 0, {term(0, sign), term(1, sign * std::ldexp(1.0, -24))});
    b.add_scaled("block_rounding", s + "(1 + 2^-23 + 2^-24) (a tie, odd)", 0,
                 {term(0, sign), term(1, sign * std::ldexp(1.0, -23)), term(2, sign * std::ldexp(1.0, -24))});
    b.add_scaled("block_rounding", s + "(1 + 2^-24 + 2^-26) (C)", sign * std::ldexp(1.0, -26),
                 {term(0, sign), term(1, sign * std::ldexp(1.0, -24))});
  }
  // The same where fewer fraction bits survive alignment: a carry out of the top (1 + 1 + 3*2^-23 = 2 + 2^-22 +
  // 2^-23) leaves a bit below f32's precision that rounding to nearest keeps and truncation drops.
  for (int j = 20; j <= 24; ++j)
    for (double sign : {1.0, -1.0}) {
      const std::string s = sign > 0 ? "" : "-";
      b.add_scaled("block_rounding", s + "(1 + 1 + 3*" + power(-j) + ") (carry)", 0,
                   {term(0, sign), term(1, sign), term(2, sign * 3 * std::ldexp(1.0, -j))});
      b.add_scaled("block_rounding", s + "(1 + 1 + 2^-23 + " + power(-j) + ") (carry)", 0,
                   {term(0, sign), term(1, sign), term(2, sign * std::ldexp(1.0, -23)), term(3, sign * std::ldexp(1.0, -j))});
    }
  }
  b.spread = 1;
  // Which products are fused in one block with C: C = 2^-24 and +1 survive as 2^-24 after -1 only if -1 joins their
  // block; in a later block the first block's f32 result 1 (2^-24 lost) meets -1 and leaves 0.
  for (int position = 1; position <= last; ++position) {
    b.add_scaled("block_products", "C=2^-24, +1 at 0, -1 at " + std::to_string(position), std::ldexp(1.0, -24),
                 {term(0, 1), term(position, -1)});
    b.add_scaled("block_products", "C=0, +1 at 0, 2^-24 at 1, -1 at " + std::to_string(position), 0,
                 {term(0, 1), term(1, std::ldexp(1.0, -24)), term(position, -1)});
  }
  // The same where fewer fraction bits survive: the first block's carry (1 + 1 + 2^-23 = 2 + 2^-23) loses 2^-23 when it
  // is rounded to f32 (any rounding: a tie below an even significand), so -1 -1 in a later block leaves 0.
  for (int position = 2; position + 1 <= last; ++position)
    b.add_scaled("block_products", "C=2^-23, +1 at 0 and 1, -1 at " + std::to_string(position) + " and " +
                 std::to_string(position + 1), std::ldexp(1.0, -23),
                 {term(0, 1), term(1, 1), term(position, -1), term(position + 1, -1)});
  // And where a block keeps fewer bits than f32 holds: two terms of 2^-j that alignment to a later +1 would each
  // truncate survive as their exact sum 2^-(j-1) when they are summed in a block of their own first.
  for (int j = 12; j <= 25; ++j)
    for (int position : {2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31})
      if (position <= last)
        b.add_scaled("block_products", power(-j) + " at 0 and 1, +1 at " + std::to_string(position), 0,
                     {term(0, std::ldexp(1.0, -j)), term(1, std::ldexp(1.0, -j)), term(position, 1)});
  for (int position = 0; position < last; ++position)
    b.add_scaled("block_products", "C=2^-24, -1 at " + std::to_string(position) + ", +1 at last", std::ldexp(1.0, -24),
                 {term(position, -1), term(last, 1)});
  // Where C enters: C = -1 cancels +1 exactly only if it is added before the products' sum is rounded.
  b.add_scaled("c_placement", "C=-1, 1 + 2^-24", -1, {term(0, 1), term(1, std::ldexp(1.0, -24))});
  b.add_scaled("c_placement", "C=1, -1 + 2^-30", 1, {term(0, -1), term(1, std::ldexp(1.0, -30))});
  // C added after the products by an adder that rounds to nearest (a separate FADD) or by the block adder (toward
  // zero): 1 + (2^-24 + 2^-25) is above half an ulp of 1.
  for (double sign : {1.0, -1.0})
    b.add_scaled("c_placement", std::string(sign > 0 ? "" : "-") + "(C=1, 2^-24 + 2^-25)", sign,
                 {term(0, sign * std::ldexp(1.0, -24)), term(1, sign * std::ldexp(1.0, -25))});
  // Rounding of an f16 D, and whether it is rounded from the block's sum or from an f32 result.
  if (form.d == ElemType::f16) {
    for (double sign : {1.0, -1.0}) {
      const std::string s = sign > 0 ? "" : "-";
      b.add_scaled("output_rounding", s + "(1 + 2^-11) (a tie)", 0, {term(0, sign), term(1, sign * std::ldexp(1.0, -11))});
      b.add_scaled("output_rounding", s + "(1 + 2^-11 + 2^-12)", 0,
                   {term(0, sign), term(1, sign * std::ldexp(1.0, -11)), term(2, sign * std::ldexp(1.0, -12))});
      b.add_scaled("output_rounding", s + "(1 + 2^-10 + 2^-11) (a tie, odd)", 0,
                   {term(0, sign), term(1, sign * std::ldexp(1.0, -10)), term(2, sign * std::ldexp(1.0, -11))});
      b.add_scaled("narrow_output", s + "(1 + 2^-11 + 2^-24)", 0,
                   {term(0, sign), term(1, sign * std::ldexp(1.0, -11)), term(2, sign * std::ldexp(1.0, -24))});
      b.add_scaled("narrow_output", s + "(1 + 2^-11 + 2^-25)", 0,
                   {term(0, sign), term(1, sign * std::ldexp(1.0, -11)), term(2, sign * std::ldexp(1.0, -25))});
    }
  }
  // Subnormal inputs: the smallest subnormal of A, of B and of C, alone and beside a normal term.
  for (ElemType type : {form.a, form.b, form.c}) {
    const FloatFormat& f = *float_format(type);
    const double tiny = std::ldexp(1.0, 1 - f.bias - f.mantissa_bits);
    const double tiny3 = 3 * tiny;
    const std::string which = type == form.c ? "C" : "A/B";
    b.add("subnormal_inputs", "smallest subnormal " + std::string(ptx_name(type)) + " in " + which, type == form.c ? tiny : 0,
          type == form.c ? std::vector<Product>{} : std::vector<Product>{factors(0, type == form.a ? tiny : 1, type == form.a ? 1 : tiny)});
    b.add("subnormal_inputs", "3x smallest subnormal " + std::string(ptx_name(type)) + " in " + which, type == form.c ? tiny3 : 0,
          type == form.c ? std::vector<Product>{} : std::vector<Product>{factors(0, type == form.a ? tiny3 : 1, type == form.a ? 1 : tiny3)});
  }
  // Subnormal results: products (or C) below the accumulator's or D's normal range.
  for (int e : {-127, -130, -140, -149, -15, -20, -24})
    b.add_scaled("subnormal_results", power(e) + " alone", 0, {term(0, std::ldexp(1.0, e))});
  // Rounding onto the subnormal grid (f32: 2^-149, f16: 2^-24): ties and near-ties, and a bit that survives alignment
  // but not truncation to the format's precision.
  for (int quantum : {-149, -24})
    for (double sign : {1.0, -1.0}) {
      const std::string s = sign > 0 ? "" : "-";
      for (double fraction : {1.5, 1.25, 1.75, 2.5})
        b.add("subnormal_rounding", s + std::to_string(fraction).substr(0, 4) + " * " + power(quantum), 0,
              {term(0, sign * std::ldexp(1.0, quantum)), term(1, sign * (fraction - 1) * std::ldexp(1.0, quantum))});
      const int top = quantum + 9, width = quantum == -149 ? 24 : 11;
      b.add("subnormal_rounding", s + "(" + power(top) + " + " + power(quantum - 1) + " + " + power(top - width) + ")", 0,
            {term(0, sign * std::ldexp(1.0, top)), term(1, sign * std::ldexp(1.0, quantum - 1)),
             term(2, sign * std::ldexp(1.0, top - width))});
    }
  // The bottom of the accumulator: a term 2^-(149+j) below a 2^-140 result survives alignment (25 bits below 2^-140
  // reach 2^-165) only where the accumulator reaches that far down.
  for (int j = 0; j <= 14; ++j)
    for (double sign : {1.0, -1.0})
      b.add("alignment_floor_guard", std::string(sign > 0 ? "" : "-") + "(2^-140 - " + power(-149 - j) + ")", 0,
            {term(0, sign * std::ldexp(1.0, -140)), term(1, -sign * std::ldexp(1.0, -149 - j))});
  b.add("subnormal_results", "2^-126 - 2^-127 (products)", 0,
        {term(0, std::ldexp(1.0, -126)), term(1, -std::ldexp(1.0, -127))});
  b.add("subnormal_results", "2^-14 - 2^-15 (products)", 0, {term(0, std::ldexp(1.0, -14)), term(1, -std::ldexp(1.0, -15))});
  // Overflow of a finite sum beyond the accumulator's (or D's) range.
  const double f32_max = std::ldexp(double((1 << 24) - 1), 104);
  b.add("overflow", "f32 max + f32 max (products)", 0, {term(0, f32_max), term(1, f32_max)});
  b.add("overflow", "C = f32 max, + 2^104", f32_max, {term(0, std::ldexp(1.0, 104))});
  b.add("overflow", "2^127 * 2", 0, {factors(0, std::ldexp(1.0, 127), 2)});
  b.add("overflow", "65504 + 32", 0, {term(0, 65504), term(1, 32)});
  b.add("overflow", "65504 + 16 (f16 rounding boundary)", 0, {term(0, 65504), term(1, 16)});
  b.add("overflow", "2^15 * 2 (f16 range)", 0, {factors(0, std::ldexp(1.0, 15), 2)});
  // NaN results: which code comes out of a NaN input, Inf * 0 and Inf - Inf.
  const double nan = std::nan(""), inf = HUGE_VAL;
  b.add("nan", "NaN in A", 0, {factors(0, nan, 1)});
  b.add("nan", "NaN in C", nan, {});
  b.add("nan", "Inf * 0", 0, {factors(0, inf, 0), term(1, 1)});
  b.add("nan", "Inf - Inf", 0, {factors(0, inf, 1), factors(1, -inf, 1)});
  b.add("nan", "C = Inf, product -Inf", inf, {factors(0, -inf, 1)});
  // Signed zeros: a sum of negative zeros alone, an exact cancellation, and negative sums too small for the result.
  {
    std::vector<Product> negative_zeros;
    for (int position = 0; position <= last; ++position) negative_zeros.push_back(factors(position, -0.0, 1));
    b.add("zero_sign", "every product -0, C = -0", -0.0, negative_zeros);
    b.add("zero_sign", "every product -0, C = +0", 0.0, negative_zeros);
  }
  b.add("zero_sign", "-0 * 1, C = -0", -0.0, {factors(0, -0.0, 1)});
  b.add("zero_sign", "1 - 1, C = -0", -0.0, {term(0, 1), term(1, -1)});
  for (int e : {-160, -150, -40, -26})
    b.add("zero_sign", "-" + power(e) + " alone (underflows)", 0, {term(0, -std::ldexp(1.0, e))});
  b.add("zero_sign", "C = -2^-149 + 2^-150 - 2^-150", -std::ldexp(1.0, -149),
        {term(0, std::ldexp(1.0, -150)), term(1, -std::ldexp(1.0, -150))});
  if (form.block_scale) {
    // Where the scale factors multiply: beside C = 1, products of 0.75 x 2^-j (one scale block, its scale 2^-j) each
    // fall below the kept fraction bits where j nears them and are dropped one by one if each is scaled and aligned
    // alone, while their sum (a scale block's products summed first, then scaled) is kept.
    const int in_first_scale_block = std::min(last + 1, scale_block_width(form) / 2);
    for (int count : {2, 4, 8, 16, 32})
      if (count <= in_first_scale_block)
        for (int j = 14; j <= 34; ++j) {
          std::vector<Product> products;
          for (int position = 0; position < count; ++position) products.push_back(term(position, 0.75 * std::ldexp(1.0, -j)));
          b.add("scale_placement", "C=1, " + std::to_string(count) + " x 0.75*" + power(-j), 1.0, products);
          b.add("scale_placement", "C=-1, " + std::to_string(count) + " x 0.75*" + power(-j), -1.0, products);
        }
  }
  if (form.block_scale && *form.stype == ElemType::ue4m3) {
    // How the product of two ue4m3 scales (1.m x 1.m: up to 8 significant bits) is rounded: one product 1 x 1 scaled
    // by every pair of significands 1.000 .. 1.111, whose products have 1 to 8 bits, ties and the rest.
    for (uint32_t row = 0; row < 8; ++row)
      for (uint32_t column = row; column < 8; ++column)
        b.add("scale_bits", "1 x 1 scaled by 1." + std::to_string(row) + "/8 x 1." + std::to_string(column) + "/8", 0,
              {factors(0, 1, 1)}, std::pair{(7u << 3) | row, (7u << 3) | column});
  }
  return std::move(b.probes);
}

}  // namespace mmasp::gen
