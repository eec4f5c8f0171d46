// The exact reference, classification, register-level fragments and case files (issue #3). The float reference is
// checked on constructed cases where a double sum is provably wrong, and against naive dense loops where double
// arithmetic is exact; the integer reference against a naive int64 loop.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <set>

#include "generators/bulk.h"
#include "generators/special_cases.h"
#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/exact_sum.h"
#include "oracle/fragments.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"
#include "oracle/sparse.h"
#include "oracle/tolerance.h"

namespace mmasp {
namespace {

const Form& form_named(const std::string& opcode) {
  const Form* form = find_form(opcode);
  if (!form) throw std::logic_error("no form " + opcode);
  return *form;
}

std::vector<const Form*> forms_where(const std::function<bool(const Form&)>& keep) {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space())
    if (keep(form)) forms.push_back(&form);
  return forms;
}

// --- ExactSum --------------------------------------------------------------------------------------------------------

RC_GTEST_PROP(ExactSum, MatchesInt128OnAWindowWhereInt128IsExact, ()) {
  // Terms significand * 2^e with e in [-30, 30] and significands below 2^20 are integers in units of 2^-30 that
  // fit an __int128; compilers convert __int128 to double and float with one correct rounding.
  const auto count = *rc::gen::inRange(1, 40);
  ExactSum sum;
  __int128 reference = 0;
  for (int i = 0; i < count; ++i) {
    const bool negative = *rc::gen::arbitrary<bool>();
    const uint64_t significand = *rc::gen::inRange<uint64_t>(0, 1u << 20);
    const int exponent = *rc::gen::inRange(-30, 31);
    sum.add(negative, significand, exponent);
    __int128 units = (__int128)significand << (exponent + 30);
    reference += negative ? -units : units;
  }
  RC_ASSERT(sum.to_double() == std::ldexp(double(reference), -30));
  RC_ASSERT(float(sum.round(23, -126).to_double()) == std::ldexp(float(reference), -30));
  RC_ASSERT(sum.is_zero() == (reference == 0));
}

TEST(ExactSum, IsIndependentOfOrder) {
  ExactSum forward, backward;
  const int exponents[] = {200, -250, 3, -3, 120, -149, 0};
  for (int e : exponents) forward.add(e < 0, 0xABCDEFu, e);
  for (int i = 6; i >= 0; --i) backward.add(exponents[i] < 0, 0xABCDEFu, exponents[i]);
  EXPECT_EQ(forward.to_double(), backward.to_double());
  ExactSum difference = forward;
  for (int e : exponents) difference.add(e >= 0, 0xABCDEFu, e);
  EXPECT_TRUE(difference.is_zero());
}

TEST(ExactSum, RejectsTermsOffItsGrid) {
  ExactSum sum;
  EXPECT_THROW(sum.add(false, 1, ExactSum::kLowestExponent - 1), std::out_of_range);
  EXPECT_THROW(sum.add(false, 1, 700), std::out_of_range);
}

TEST(ExactSum, RoundsTiesToEvenAndIntoSubnormals) {
  ExactSum tie;  // 1 + 2^-24: a tie between 1 and 1 + 2^-23 in f32 -> 1
  tie.add(false, 1, 0);
  tie.add(false, 1, -24);
  EXPECT_EQ(tie.round(23, -126).to_double(), 1.0);
  ExactSum odd_tie = tie;  // 1 + 2^-23 + 2^-24: a tie between odd 1 + 2^-23 and 1 + 2^-22 -> 1 + 2^-22
  odd_tie.add(false, 1, -23);
  EXPECT_EQ(odd_tie.round(23, -126).to_double(), 1.0 + std::ldexp(1.0, -22));
  ExactSum tiny;  // 3 * 2^-151 is 0.75 of the smallest f32 subnormal -> 2^-149
  tiny.add(true, 3, -151);
  EXPECT_EQ(tiny.round(23, -126).to_double(), -std::ldexp(1.0, -149));
}

// --- The float reference on cases where a double sum is wrong (issue #3 acceptance) ---------------------------------

// A naive double sum of the same terms in storage order, then one conversion to f32.
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

struct RandomSparse {
  std::vector<uint32_t> dense;
  std::vector<ChunkPositions> positions;
};

RandomSparse random_sparse_a(const Form& form, const std::function<uint32_t()>& element, uint32_t zero) {
  const int m = form.shape.m, k = form.shape.k;
  const int units = positions_per_chunk(form.sparsity), unit = elements_per_position(form.sparsity);
  RandomSparse out{std::vector<uint32_t>(size_t(m * k), zero), {}};
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < k / form.chunk_width; ++c) {
      int first = *rc::gen::inRange(0, units), second = 0;
      if (stored_per_chunk(form.sparsity) == 2) {
        second = *rc::gen::suchThat(rc::gen::inRange(0, units), [first](int p) { return p != first; });
        if (form.variant == SpVariant::ordered_metadata && first > second) std::swap(first, second);
      }
      out.positions.push_back({first, second});
      for (int stored = 0; stored < stored_per_chunk(form.sparsity); ++stored)
        for (int e = 0; e < unit; ++e)
          out.dense[size_t(row * k + c * form.chunk_width + (stored ? second : first) * unit + e)] = element();
    }
  return out;
}

// A zero case of the form whose A is `a`, compressed.
MmaCase case_with_a(const Form& form, const RandomSparse& a) {
  MmaCase test = zero_case(form);
  SparseA sparse = compress(form, a.dense, a.positions);
  test.a_compressed = sparse.compressed;
  test.nibbles = sparse.nibbles;
  return test;
}

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

// --- Classification --------------------------------------------------------------------------------------------------

struct Judged {
  MmaCase test;
  std::vector<uint32_t> observed;
};

// D[0][0] = 1 + sum of `terms` products 1 * 2^-k, all other elements C = 0.
Judged f32_case(int terms, uint32_t observed_code) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
  Judged j{zero_case(form), {}};
  j.test.c[0] = 0x3f800000;
  for (int t = 0; t < terms; ++t) {
    j.test.a_compressed[size_t(t)] = *encode(ElemType::f16, std::ldexp(1.0, -10));
    j.test.b[size_t(logical_column(form, j.test.nibbles.data(), t) * 8)] = *encode(ElemType::f16, std::ldexp(1.0, -t));
  }
  j.observed.assign(128, 0);
  j.observed[0] = observed_code;
  return j;
}

TEST(Classification, ExactResultsPassAndWrongOnesFail) {
  Judged exact = f32_case(0, 0x3f800000);
  EXPECT_EQ(judge(exact.test, exact.observed).status, Status::pass);
  Judged off_by_one_ulp_with_no_products = f32_case(0, 0x3f800001);
  EXPECT_EQ(judge(off_by_one_ulp_with_no_products.test, off_by_one_ulp_with_no_products.observed).status, Status::fail)
      << "with no product D must equal C exactly";
}

TEST(Classification, TiersFollowTheBounds) {
  // 16 products 2^-10 .. 2^-25 plus C = 1: S is about 1.001, D* = 1 + (2^-9 - 2^-25).
  const double exact = 1 + std::ldexp(1.0, -9) - std::ldexp(1.0, -25);
  auto code_of = [](double v) { return *encode(ElemType::f32, v); };
  auto status_for = [&](double observed) {
    Judged j = f32_case(16, code_of(observed));
    return judge(j.test, j.observed).status;
  };
  const double ulp = std::ldexp(1.0, -23);
  EXPECT_EQ(status_for(exact), Status::pass);                 // rounds to nearest
  EXPECT_EQ(status_for(exact - ulp), Status::pass);           // one ulp: within eps * S
  EXPECT_EQ(status_for(exact + 4 * ulp), Status::quality_warning);  // gamma_16 * S is about 16 ulp
  EXPECT_EQ(status_for(exact + 40 * ulp), Status::fail);
  EXPECT_EQ(status_for(std::nan("")), Status::fail);
  EXPECT_EQ(status_for(HUGE_VAL), Status::fail);
}

TEST(Classification, UndefinedInputsAreNeverJudged) {
  const Form& form = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  MmaCase test = zero_case(form);
  test.nibbles[0] = 0b0001;  // positions 1, 0: unordered
  std::vector<uint32_t> garbage(128, 0x7fc00000);
  CaseVerdict verdict = judge(test, garbage);
  EXPECT_EQ(verdict.status, Status::ub_not_judged);
  ASSERT_EQ(verdict.undefined_reasons.size(), 1u);
  EXPECT_NE(verdict.undefined_reasons[0].find("ordered_metadata"), std::string::npos);
  test.nibbles[0] = 0b0100;
  test.selector = 7;
  EXPECT_EQ(judge(test, garbage).status, Status::ub_not_judged);
}

TEST(Classification, IntegerMismatchIsAFail) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  MmaCase test = zero_case(form);
  std::vector<uint32_t> observed(128, 0);
  EXPECT_EQ(judge(test, observed).status, Status::pass);
  observed[77] = 1;
  CaseVerdict v = judge(test, observed);
  EXPECT_EQ(v.status, Status::fail);
  EXPECT_EQ(v.worst.row, 77 / 8);
  EXPECT_EQ(v.worst.col, 77 % 8);
}

TEST(Classification, StatusNamesAndSeverity) {
  EXPECT_EQ(name(Status::quality_warning), "QualityWarning");
  EXPECT_EQ(name(Status::ub_not_judged), "UB-not-judged");
  EXPECT_EQ(worse(Status::pass, Status::fail), Status::fail);
  EXPECT_EQ(worse(Status::quality_warning, Status::pass), Status::quality_warning);
  EXPECT_TRUE(is_failure(Status::crash));
  EXPECT_FALSE(is_failure(Status::waived));
}

TEST(Tolerance, ConstantsFollowTheSpecText) {
  const FloatTolerance f16acc = tolerance_for(form_named("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"));
  EXPECT_EQ(f16acc.accumulation, ElemType::f16);
  EXPECT_EQ(f16acc.epsilon_acc, std::ldexp(1.0, -10));
  const FloatTolerance bf16 = tolerance_for(form_named("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"));
  EXPECT_EQ(bf16.accumulation, ElemType::f32);
  EXPECT_EQ(bf16.epsilon_acc, std::ldexp(1.0, -23));
  EXPECT_EQ(bf16.min_normal_acc, std::ldexp(1.0, -126));
  const FloatTolerance fp6_f16 = tolerance_for(
      form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e2m3.e2m3.f16"));
  EXPECT_EQ(fp6_f16.accumulation, ElemType::f32);
  EXPECT_EQ(fp6_f16.output, ElemType::f16);
  const double e = std::ldexp(1.0, -23);
  EXPECT_DOUBLE_EQ(gamma(16, e), 16 * e / (1 - 16 * e));
}

// --- Register-level fragments ----------------------------------------------------------------------------------------

RC_GTEST_PROP(Fragments, RegistersRebuildTheCaseAndTheDenseA, ()) {
  const auto& forms = instruction_space();
  const Form& form = forms[*rc::gen::inRange<size_t>(0, forms.size())];
  const uint32_t a_mask = info(form.a).bits == 32 ? ~0u : (1u << info(form.a).bits) - 1;
  RandomSparse a = random_sparse_a(form, [&] { return *rc::gen::inRange<uint32_t>(1, a_mask) ; }, 0);
  MmaCase test = case_with_a(form, a);
  test.selector = *rc::gen::elementOf(form.selectors);
  auto codes = [](ElemType type) {
    const int bits = info(type).bits;
    return rc::gen::inRange<uint32_t>(0, bits == 32 ? ~0u : (1u << bits) - 1);
  };
  for (auto& code : test.b) code = *codes(form.b);
  for (auto& code : test.c) code = *codes(form.c);
  test.metadata_noise = *rc::gen::container<std::vector<uint32_t>>(32, rc::gen::arbitrary<uint32_t>());
  if (form.block_scale) {
    for (auto& code : test.scale_a) code = *rc::gen::inRange<uint32_t>(0, 0x7F);
    for (auto& code : test.scale_b) code = *rc::gen::inRange<uint32_t>(0, 0x7F);
    const int blocks = scale_blocks(form);
    test.scale_ids.byte_a = blocks == 4 ? 0 : blocks == 2 ? 2 * *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 4);
    test.scale_ids.byte_b = blocks == 4 ? 0 : blocks == 2 ? 2 * *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 4);
    test.scale_ids.thread_a = *rc::gen::inRange(0, 2);
    test.scale_ids.thread_b = *rc::gen::inRange(0, 4);
  }
  MmaCase back = from_registers(form, to_registers(test));
  RC_ASSERT(back.a_compressed == test.a_compressed);
  RC_ASSERT(back.nibbles == test.nibbles);
  RC_ASSERT(back.b == test.b);
  RC_ASSERT(back.c == test.c);
  RC_ASSERT(back.scale_a == test.scale_a);
  RC_ASSERT(back.scale_b == test.scale_b);
  RC_ASSERT(decompress(form, SparseA{back.a_compressed, back.nibbles}) == a.dense);
  // Lanes that hold metadata come back as zero noise; the others keep theirs.
  std::vector<bool> holds(32, false);
  for (const auto& cell : metadata_cells(form, test.selector)) holds[size_t(cell.lane)] = true;
  for (int lane = 0; lane < 32; ++lane)
    RC_ASSERT(back.metadata_noise[size_t(lane)] == (holds[size_t(lane)] ? 0u : test.metadata_noise[size_t(lane)]));
  std::vector<uint32_t> d(size_t(form.shape.m * form.shape.n));
  for (auto& code : d) code = *codes(form.d);
  RC_ASSERT(d_from_registers(form, d_to_registers(form, d)) == d);
  RC_TAG(std::string(name(form.sparsity)));
}

// --- Case files ------------------------------------------------------------------------------------------------------

TEST(CaseFile, WritesAndReadsBackTheSameCase) {
  CaseFile file = load_case_file(std::filesystem::path(MMASP_SOURCE_DIR) / "suites/cases/mxf4nvf4-ue4m3-scales.json");
  CaseFile back = parse_case_file(to_json(file));
  EXPECT_EQ(back.test.form, file.test.form);
  EXPECT_EQ(back.test.a_compressed, file.test.a_compressed);
  EXPECT_EQ(back.test.nibbles, file.test.nibbles);
  EXPECT_EQ(back.test.b, file.test.b);
  EXPECT_EQ(back.test.scale_a, file.test.scale_a);
  EXPECT_EQ(back.test.scale_b, file.test.scale_b);
  EXPECT_EQ(back.expected_d, file.expected_d);
}

TEST(CaseFile, ErrorsNameTheField) {
  auto message = [](const nlohmann::json& json) {
    try {
      parse_case_file(json);
    } catch (const CaseFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  nlohmann::json good = {{"schema", "mmasp-case/1"},
                         {"form", "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
                         {"a", {{"fill", 0}}},
                         {"b", {{"fill", 0}}}};
  EXPECT_EQ(message(good), "no error");
  auto bad = good;
  bad["form"] = "mma.sp.bogus";
  EXPECT_NE(message(bad).find("form"), std::string::npos);
  bad = good;
  bad["b"] = {{"fill", 0.1}};
  EXPECT_NE(message(bad).find("not exactly representable in f16"), std::string::npos);
  bad = good;
  bad["form"] = nlohmann::json::object();  // found by fuzz/case_file_fuzz.cpp: a JSON type error escaped
  EXPECT_NE(message(bad).find("wrong JSON type"), std::string::npos);
  bad = good;
  bad["a"] = {{"fill", 0}, {"set", {{0, 0, 1}, {0, 1, 1}, {0, 2, 1}}}};
  EXPECT_NE(message(bad).find("more non-zero"), std::string::npos);
  // Codes wider than their type, or with blanks or signs inside, are errors, never masked or skipped (issue #16).
  for (const char* code : {"0xffffffff", "0x10000", "0x 3c00", "0x-1", "0x", "0b2"}) {
    bad = good;
    bad["b"] = {{"fill", code}};
    const std::string text = message(bad);
    EXPECT_NE(text.find("b"), std::string::npos) << code;
    EXPECT_TRUE(text.find("wider than f16") != std::string::npos || text.find("cannot read code") != std::string::npos)
        << code << ": " << text;
  }
  bad = good;
  bad["b"] = {{"fill", "0x3c00"}};
  EXPECT_EQ(message(bad), "no error");
}

// Every hand-written case in suites/cases/: the reference gives the hand-derived expected_d, and classification the
// expected_status.
class HandWrittenCase : public testing::TestWithParam<std::string> {};

TEST_P(HandWrittenCase, ReferenceAgreesWithTheHandDerivation) {
  CaseFile file = load_case_file(GetParam());
  ASSERT_FALSE(file.comment.empty()) << "a hand-written case derives its result in its comment";
  std::optional<std::span<const uint32_t>> observed;
  if (file.observed_d) observed = std::span<const uint32_t>(*file.observed_d);
  if (file.expected_d) {
    ReferenceResult result = reference(file.test);
    for (size_t i = 0; i < result.d.size(); ++i) {
      const uint32_t expected = (*file.expected_d)[i];
      const uint32_t got = result.d[i].rounded_code;
      if (info(file.test.form->d).is_float && std::isnan(decode_to_double(file.test.form->d, expected)))
        EXPECT_EQ(result.d[i].kind, ExpectedElement::Kind::nan) << "element " << i;
      else
        EXPECT_EQ(got, expected) << "element [" << i / 8 << "][" << i % 8 << "]";
    }
  }
  if (file.expected_status) {
    ASSERT_TRUE(file.observed_d) << "expected_status needs observed_d";
    EXPECT_EQ(name(judge(file.test, *file.observed_d).status), name(*file.expected_status));
  }
  EXPECT_TRUE(file.expected_d || file.expected_status) << "the case checks nothing";
}

std::vector<std::string> hand_written_cases() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(MMASP_SOURCE_DIR) / "suites/cases"))
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

INSTANTIATE_TEST_SUITE_P(SuitesCases, HandWrittenCase, testing::ValuesIn(hand_written_cases()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string stem = std::filesystem::path(info.param).stem().string();
                           for (char& c : stem)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return stem;
                         });

TEST(HandWrittenCases, CoverEveryFamily) {
  std::set<std::string> families;
  for (const auto& path : hand_written_cases()) families.insert(load_case_file(path).test.form->family);
  for (const char* family : {"f16", "bf16", "tf32", "fp8", "f8f6f4", "mxf8f6f4", "mxf4", "mxf4nvf4", "int8", "int4"})
    EXPECT_TRUE(families.count(family)) << "no hand-written case for " << family;
}

}  // namespace
}  // namespace mmasp
