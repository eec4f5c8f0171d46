// oracle/reference: the exact reference. The float reference is checked on constructed cases where a double sum is
// provably wrong, and against naive dense loops where double arithmetic is exact; the integer reference against a
// naive int64 loop.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>

#include <nlohmann/json.hpp>

#include "generators/bulk.h"
#include "generators/special_cases.h"
#include "oracle/case_file.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"
#include "oracle/sparse.h"
#include "suites/test_forms.h"

namespace mmasp {
namespace {

using test::form_named;
using test::forms_where;
using test::RandomSparse;
using test::random_sparse_a;
using test::case_with_a;

uint32_t naive_double_f32(const MmaCase& test, int row, int col) {
  const Form& form = *test.form;
  const int k = form.shape.k, n = form.shape.n, chunks = k / form.chunk_width;
  double sum = decode_to_double(form.c, test.c[size_t(row * n + col)]);
  for (int s = 0; s < k / 2; ++s) {
    const int logical = logical_column(form, test.nibbles.data() + row * chunks, s);
    double term = decode_to_double(form.a, test.a_compressed[size_t(row * k / 2 + s)]) *
                  decode_to_double(form.b, test.b[size_t(logical * n + col)]);
    if (form.block_scale) {
      const int block = logical / scale_block_width(form);
      term *= decode_to_double(*form.stype, test.scale_a[size_t(row * scale_blocks(form) + block)]) *
              decode_to_double(*form.stype, test.scale_b[size_t(block * n + col)]);
    }
    sum += term;
  }
  return *encode(ElemType::f32, sum);
}

MmaCase case_from_json(const nlohmann::json& json) { return parse_case_file(json).test; }

TEST(FloatReferenceBeatsDouble, StickyBitBelowDoublePrecisionBreaksATie) {
  // D* = 1 + 2^-24 + 2^-200: just above the f32 tie between 1 and 1 + 2^-23. Double keeps 1 + 2^-24 (a tie) and
  // rounds it to 1.
  MmaCase test = case_from_json({{"schema", "mmasp-case/1"},
                                 {"form", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
                                 {"a", {{"fill", 0}, {"set", {{0, 0, std::ldexp(1.0, -12)}, {0, 1, std::ldexp(1.0, -100)}}}}},
                                 {"b", {{"fill", 0}, {"set", {{0, 0, std::ldexp(1.0, -12)}, {1, 0, std::ldexp(1.0, -100)}}}}},
                                 {"c", {{"fill", 0}, {"set", {{0, 0, 1}}}}}});
  EXPECT_EQ(reference(test).d[0].rounded_code, 0x3f800001u);
  EXPECT_EQ(naive_double_f32(test, 0, 0), 0x3f800000u) << "the double sum is not wrong here: the case proves nothing";
}

TEST(FloatReferenceBeatsDouble, HugeBf16ProductsCancelAroundAUnitTerm) {
  // Stored order: 2^120 * 2^120 = 2^240, then 1 * 1, then -2^240. Double absorbs the 1 into 2^240: it gives 0.
  MmaCase test = case_from_json({{"schema", "mmasp-case/1"},
                                 {"form", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
                                 {"a", {{"fill", 0}, {"set", {{0, 0, std::ldexp(1.0, 120)}, {0, 1, 1}, {0, 4, -std::ldexp(1.0, 120)}}}}},
                                 {"b", {{"fill", 0}, {"set", {{0, 0, std::ldexp(1.0, 120)}, {1, 0, 1}, {4, 0, std::ldexp(1.0, 120)}}}}}});
  EXPECT_EQ(reference(test).d[0].rounded_code, 0x3f800000u);
  EXPECT_EQ(naive_double_f32(test, 0, 0), 0u);
}

TEST(FloatReferenceBeatsDouble, ScaledFp4TermBelowTheTieBreaksIt) {
  // mxf4 with two scale blocks: block 0 gives 0.5 * 0.5 * 2^-22 = 2^-24, block 1 gives 0.5 * 0.5 * 2^-127 * 2^-127
  // = 2^-256; with C = 1 the exact result is just above a tie, a double sum is exactly on it.
  MmaCase test = case_from_json(
      {{"schema", "mmasp-case/1"},
       {"form", "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0"},
       {"a", {{"fill", 0}, {"set", {{0, 0, 0.5}, {0, 64, 0.5}}}}},
       {"b", {{"fill", 0}, {"set", {{0, 0, 0.5}, {64, 0, 0.5}}}}},
       {"c", {{"fill", 0}, {"set", {{0, 0, 1}}}}},
       {"scale_a", {{"fill", 1}, {"set", {{0, 0, std::ldexp(1.0, -22)}, {0, 1, "0x00"}}}}},
       {"scale_b", {{"fill", 1}, {"set", {{1, 0, "0x00"}}}}}});
  EXPECT_EQ(reference(test).d[0].rounded_code, 0x3f800001u);
  EXPECT_EQ(naive_double_f32(test, 0, 0), 0x3f800000u);
}

// --- Naive dense loops --------------------------------------------------------------------------------------------

RC_GTEST_PROP(IntegerReference, MatchesANaiveInt64LoopWithWrapAndSaturation, ()) {
  static const auto forms = forms_where([](const Form& f) { return f.is_integer(); });
  const Form& form = *forms[*rc::gen::inRange<size_t>(0, forms.size())];
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  // Operand extremes half the time, and C near the s32 limits, so that wrap and .satfinite disagree.
  auto element = [&](ElemType type) {
    const int bits = info(type).bits;
    return *rc::gen::oneOf(rc::gen::inRange<uint32_t>(0, 1u << bits),
                           rc::gen::element<uint32_t>(0, (1u << bits) - 1, 1u << (bits - 1), (1u << (bits - 1)) - 1));
  };
  RandomSparse a = random_sparse_a(form, [&] { return element(form.a); }, 0);
  MmaCase test = case_with_a(form, a);
  for (auto& code : test.b) code = element(form.b);
  for (auto& code : test.c)
    code = *rc::gen::oneOf(rc::gen::map(rc::gen::inRange(0, 4096), [](int d) { return uint32_t(INT32_MAX - d); }),
                           rc::gen::map(rc::gen::inRange(0, 4096), [](int d) { return uint32_t(INT32_MIN + d); }),
                           rc::gen::arbitrary<uint32_t>());
  const ReferenceResult result = reference(test);
  bool saw_clamp = false;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t sum = int64_t(int32_t(test.c[size_t(i * n + j)]));
      for (int x = 0; x < k; ++x)
        sum += decode_integer(form.a, a.dense[size_t(i * k + x)]) * decode_integer(form.b, test.b[size_t(x * n + j)]);
      int64_t expected = form.satfinite ? std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX) : int64_t(int32_t(uint32_t(sum)));
      saw_clamp |= sum != int64_t(int32_t(uint32_t(sum)));
      RC_ASSERT(int32_t(result.d[size_t(i * n + j)].rounded_code) == expected);
    }
  RC_TAG(form.satfinite ? "satfinite" : "wrap");
  RC_CLASSIFY(saw_clamp, "out of s32 range");
}

RC_GTEST_PROP(FloatReference, MatchesANaiveDenseLoopWhereDoubleIsExact, ()) {
  static const auto forms = forms_where([](const Form& f) { return !f.is_integer(); });
  const Form& form = *forms[*rc::gen::inRange<size_t>(0, forms.size())];
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  // Values every float element type holds exactly (e2m1 has only 0, 0.5, 1, 1.5, 2, 3, 4, 6): products and sums of
  // at most 64 of them are exact in double, so the naive loop is exact too.
  const std::vector<double> values = {0, 0.5, 1, 1.5, 2, 3, 4, -0.5, -1, -2, -3, -4};
  auto element = [&](ElemType type) { return *encode(type, *rc::gen::elementOf(values)); };
  RandomSparse a = random_sparse_a(form, [&] { return element(form.a); }, 0);
  MmaCase test = case_with_a(form, a);
  for (auto& code : test.b) code = element(form.b);
  for (auto& code : test.c) code = *encode(form.c, *rc::gen::inRange(-64, 65) * 0.25);
  if (form.block_scale) {
    const std::vector<double> scales = {0.25, 0.5, 1, 2, 4, 8};
    for (auto& code : test.scale_a) code = *encode(*form.stype, *rc::gen::elementOf(scales));
    for (auto& code : test.scale_b) code = *encode(*form.stype, *rc::gen::elementOf(scales));
  }
  const ReferenceResult result = reference(test);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = decode_to_double(form.c, test.c[size_t(i * n + j)]);
      for (int x = 0; x < k; ++x) {
        double term = decode_to_double(form.a, a.dense[size_t(i * k + x)]) * decode_to_double(form.b, test.b[size_t(x * n + j)]);
        if (form.block_scale) {
          const int block = x / scale_block_width(form);
          term *= decode_to_double(*form.stype, test.scale_a[size_t(i * scale_blocks(form) + block)]) *
                  decode_to_double(*form.stype, test.scale_b[size_t(block * n + j)]);
        }
        sum += term;
      }
      const ExpectedElement& e = result.d[size_t(i * n + j)];
      RC_ASSERT(e.exact_double == sum);
      RC_ASSERT(decode_to_double(form.d, e.rounded_code) == decode_to_double(form.d, *encode(form.d, sum)));
    }
  RC_TAG(form.family);
}

// --- Special values --------------------------------------------------------------------------------------------------

// reference() sums product terms that lie within 120 bits of each other in a 128-bit window before they reach the
// wide accumulator; the definition adds them one by one. Both are exact, so every field must agree, for cases of
// every form and every profile (the profiles reach the window's edges: near overflow, subnormals, cancellation,
// block scales at their extremes) and the named special-value set.
TEST(FloatReference, WindowedSumsAreTheTermByTermSums) {
  size_t elements = 0, windowed_forms = 0;
  for (const Form& form : instruction_space()) {
    if (form.is_integer()) continue;
    std::vector<MmaCase> cases;
    for (int profile = 0; profile < int(gen::Profile::count); ++profile) {
      gen::Options options;
      options.profile = gen::Profile(profile);
      gen::BulkGenerator draw(uint64_t(profile) + 11);
      for (int i = 0; i < 12; ++i) {
        cases.emplace_back();
        draw.next(form, cases.back(), options);
      }
    }
    for (const auto& named : gen::special_value_cases(form, form.selectors.front())) cases.push_back(named.test);
    ++windowed_forms;
    for (const MmaCase& test : cases) {
      const ReferenceResult fast = reference(test), slow = detail::reference(test, false);
      ASSERT_EQ(fast.d.size(), slow.d.size());
      for (size_t e = 0; e < fast.d.size(); ++e, ++elements) {
        const ExpectedElement &x = fast.d[e], &y = slow.d[e];
        ASSERT_TRUE(x.kind == y.kind && x.negative == y.negative && x.exact == y.exact &&
                    x.rounded_code == y.rounded_code && x.nonzero_products == y.nonzero_products)
            << form.opcode << " element " << e;
        ASSERT_EQ(std::bit_cast<uint64_t>(x.exact_double), std::bit_cast<uint64_t>(y.exact_double));
        ASSERT_EQ(std::bit_cast<uint64_t>(x.magnitude_sum), std::bit_cast<uint64_t>(y.magnitude_sum));
        ASSERT_EQ(std::bit_cast<uint64_t>(x.subnormal_allowance), std::bit_cast<uint64_t>(y.subnormal_allowance));
      }
    }
  }
  EXPECT_GT(windowed_forms, 100u);
  EXPECT_GT(elements, 1000000u);
}

TEST(FloatReference, PropagatesNaNAndInfinityByIeeeRules) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  MmaCase test = zero_case(form);
  const uint32_t inf = 0x7c00, nan = 0x7e00, one = 0x3c00;
  test.a_compressed[0] = inf;   // row 0, column 0: Inf * B[0][j]
  test.b[0 * 8 + 0] = one;      // D[0][0] = +Inf
  test.b[0 * 8 + 1] = 0;        // D[0][1] = Inf * 0 = NaN
  test.a_compressed[8] = one;   // row 1, column 0
  test.b[0 * 8 + 2] = nan;      // D[0][2] = Inf * NaN = NaN, D[1][2] = NaN
  test.a_compressed[9] = 0xfc00;  // row 1, column 1 = -Inf
  test.b[1 * 8 + 3] = one;
  test.b[0 * 8 + 3] = one;      // D[1][3] = 1*1 + (-Inf)*1 = -Inf;   D[0][3] = Inf * 1 = +Inf
  test.c[1 * 8 + 4] = 0x7f800000;  // C = +Inf at [1][4]; B[1][4] = 1 makes -Inf: Inf - Inf = NaN
  test.b[1 * 8 + 4] = one;
  const ReferenceResult r = reference(test);
  using K = ExpectedElement::Kind;
  EXPECT_EQ(r.d[0].kind, K::infinite);
  EXPECT_FALSE(r.d[0].negative);
  EXPECT_EQ(r.d[1].kind, K::nan);
  EXPECT_EQ(r.d[2].kind, K::nan);
  EXPECT_EQ(r.d[8 + 2].kind, K::nan);
  EXPECT_EQ(r.d[8 + 3].kind, K::infinite);
  EXPECT_TRUE(r.d[8 + 3].negative);
  EXPECT_EQ(r.d[8 + 4].kind, K::nan);
  EXPECT_EQ(r.d[5].kind, K::nan) << "Inf * B[0][5] = Inf * 0";
  EXPECT_EQ(r.d[16 + 5].kind, K::finite);
}

TEST(FloatReference, UndefinedMetadataHasNoReference) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  MmaCase test = zero_case(form);
  test.nibbles[3] = 0b0101;
  EXPECT_THROW(reference(test), std::invalid_argument);
  EXPECT_FALSE(undefined_behaviour(test).empty());
}

}  // namespace
}  // namespace mmasp
