// oracle/classification and oracle/tolerance: statuses, tiers against the bounds, the tolerance constants.
#include <gtest/gtest.h>

#include <cmath>

#include "oracle/classification.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"
#include "oracle/tolerance.h"
#include "suites/test_forms.h"

namespace mmasp {
namespace {

using test::form_named;

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

// D narrower than the accumulator: near zero, D's spacing is its subnormal quantum, so the exact value rounded once to
// an f16 subnormal errs by up to a quantum — what the tight bound's "one rounding" allows, so a Pass. The emulator
// computed exactly this for cases of the few_terms profile and was given a QualityWarning until the bound said so.
TEST(Classification, OneRoundingToASubnormalOutputIsWithinTheTightBound) {
  const Form& form =
      form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e5m2.e5m2.f16");
  // One product of normal factors, 2^-14 times 1.5 * 2^-12: D* = 3 * 2^-27, three eighths of f16's subnormal quantum
  // 2^-24 (no subnormal input, so no allowance for one).
  auto status_for = [&](double observed) {
    MmaCase test = zero_case(form);
    test.a_compressed[0] = *encode(ElemType::e5m2, std::ldexp(1.0, -14));
    test.b[size_t(logical_column(form, test.nibbles.data(), 0) * 8)] = *encode(ElemType::e5m2, 1.5 * std::ldexp(1.0, -12));
    std::vector<uint32_t> d(128, 0);
    d[0] = *encode(ElemType::f16, observed);
    return judge(test, d).status;
  };
  const double quantum = std::ldexp(1.0, -24);
  EXPECT_EQ(status_for(0), Status::pass);                      // rounded to nearest: 3/8 of a quantum off
  EXPECT_EQ(status_for(quantum), Status::pass);                // rounded up: 5/8 off
  EXPECT_EQ(status_for(2 * quantum), Status::quality_warning); // 13/8: more than one rounding
  EXPECT_EQ(status_for(std::ldexp(1.0, -13)), Status::fail);   // beyond the spec bound's flush allowance
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

}  // namespace
}  // namespace mmasp
