// The generators (issue #4): validity of every generated case, coverage of every class, reproducibility, and
// shrinking — a deliberately wrong toy oracle must be caught and shrunk to a tiny case.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <fstream>
#include <iostream>

#include "generators/bulk.h"
#include "generators/rapidcheck_gen.h"
#include "generators/reproduction.h"
#include "oracle/case_file.h"
#include "oracle/fragments.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

std::vector<const Form*> all_forms() {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space()) forms.push_back(&form);
  return forms;
}

void classify_coverage(const gen::Coverage& coverage) {
  for (size_t c = 0; c < coverage.value_classes.size(); ++c)
    RC_CLASSIFY(coverage.value_classes[c] > 0, std::string("has ") + std::string(gen::name(gen::ValueClass(c))));
  for (size_t p = 0; p < coverage.profiles.size(); ++p)
    if (coverage.profiles[p]) RC_TAG(std::string("profile ") + std::string(gen::name(gen::Profile(p))));
}

RC_GTEST_PROP(Generators, EveryCaseIsValidForItsForm, ()) {
  static const auto forms = all_forms();
  const auto [test, coverage] = *gen::arbitrary_covered_case(forms);
  check_shape(test);
  const auto reasons = undefined_behaviour(test);
  RC_ASSERT(reasons.empty());
  for (uint32_t nibble : test.nibbles) RC_ASSERT(defined_for(test.form->variant, test.form->sparsity, nibble));
  for (uint32_t code : test.a_compressed)
    if (info(test.form->a).is_float) RC_ASSERT(decode(test.form->a, code).has_value());
  // The reference accepts every generated case.
  const ReferenceResult result = reference(test);
  RC_ASSERT(result.d.size() == size_t(test.form->shape.m * test.form->shape.n));
  classify_coverage(coverage);
  RC_TAG(std::string("selector ") + std::to_string(test.selector));
}

RC_GTEST_PROP(Generators, UndefinedBehaviourOnlyWhenAskedAndThenLabelled, ()) {
  static const auto forms = all_forms();
  gen::Options options;
  options.undefined_behaviour = true;
  const auto [test, coverage] = *gen::arbitrary_covered_case(forms, options);
  const auto reasons = undefined_behaviour(test);
  RC_CLASSIFY(!reasons.empty(), "undefined behaviour");
  if (coverage.undefined_chunks > 0) RC_ASSERT(!reasons.empty());
  if (reasons.empty()) RC_ASSERT(reference(test).d.size() == 128u);
}

// Every class of every kind of choice appears in a default run of the bulk generator.
TEST(Generators, CoverageHitsEveryClass) {
  gen::BulkGenerator generator(1);
  MmaCase test;
  std::vector<const Form*> float_forms, integer_forms;
  for (const auto& form : instruction_space()) (form.is_integer() ? integer_forms : float_forms).push_back(&form);
  for (int i = 0; i < 4000; ++i) {
    generator.next(*float_forms[size_t(i) % float_forms.size()], test);
    generator.next(*integer_forms[size_t(i) % integer_forms.size()], test);
  }
  const gen::Coverage& coverage = generator.coverage();
  std::cout << "coverage of " << coverage.cases << " cases:\n";
  for (size_t c = 0; c < coverage.value_classes.size(); ++c) {
    std::cout << "  value class " << gen::name(gen::ValueClass(c)) << ": " << coverage.value_classes[c] << "\n";
    EXPECT_GT(coverage.value_classes[c], 0u) << gen::name(gen::ValueClass(c));
  }
  for (size_t p = 0; p < coverage.profiles.size(); ++p) {
    std::cout << "  profile " << gen::name(gen::Profile(p)) << ": " << coverage.profiles[p] << "\n";
    EXPECT_GT(coverage.profiles[p], 0u) << gen::name(gen::Profile(p));
  }
  for (size_t i = 0; i < coverage.patterns.size(); ++i) {
    std::cout << "  metadata pattern " << i << ": " << coverage.patterns[i] << "\n";
    EXPECT_GT(coverage.patterns[i], 0u);
  }
  for (size_t s = 0; s < coverage.selectors.size(); ++s) {
    std::cout << "  selector " << s << ": " << coverage.selectors[s] << "\n";
    EXPECT_GT(coverage.selectors[s], 0u);
  }
  std::cout << "  unordered chunks (.sp): " << coverage.unordered_chunks << "\n";
  EXPECT_GT(coverage.unordered_chunks, 0u);
  EXPECT_EQ(coverage.undefined_chunks, 0u) << "undefined metadata without being asked for";
}

// --- Reproducibility -------------------------------------------------------------------------------------------------

TEST(Generators, SplitMixIsTheReferenceSplitMix64) {
  // First outputs of SplitMix64 from state 0, as published with the algorithm (Vigna's splitmix64.c).
  gen::SplitMixDraw draw(0);
  EXPECT_EQ(draw.bits(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(draw.bits(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(draw.bits(), 0x06c45d188009454full);
}

TEST(Generators, SameSeedSameCasesDifferentSeedDifferentCases) {
  const Form& form = instruction_space().front();
  gen::BulkGenerator first(42), second(42), other(43);
  MmaCase a, b, c;
  bool any_difference = false;
  for (int i = 0; i < 50; ++i) {
    first.next(form, a);
    second.next(form, b);
    other.next(form, c);
    EXPECT_EQ(a.b, b.b);
    EXPECT_EQ(a.a_compressed, b.a_compressed);
    EXPECT_EQ(a.nibbles, b.nibbles);
    EXPECT_EQ(a.metadata_noise, b.metadata_noise);
    any_difference |= a.b != c.b;
  }
  EXPECT_TRUE(any_difference);
  EXPECT_EQ(gen::case_seed(7, form, 3), gen::case_seed(7, form, 3));
  EXPECT_NE(gen::case_seed(7, form, 3), gen::case_seed(7, form, 4));
  EXPECT_NE(gen::case_seed(7, form, 3), gen::case_seed(7, instruction_space().back(), 3));
}

// --- Shrinking: a deliberately wrong toy oracle ------------------------------------------------------------------------

int nonzero_elements(const MmaCase& test) {
  int count = 0;
  for (uint32_t code : test.a_compressed) {
    if (info(test.form->a).is_float) count += decode(test.form->a, code)->cls != FloatClass::zero;
    else count += decode_integer(test.form->a, code) != 0;
  }
  return count;
}

// The toy oracle forgets the selector: it reads the metadata from the lanes selector 0 uses. For selector 0 it is
// right; for any other selector it reads the noise of lanes that hold none (and, being a toy, takes an undefined
// nibble for positions 0,1 rather than stopping).
std::vector<uint32_t> toy_oracle_ignoring_the_selector(const MmaCase& test) {
  WarpRegisters registers = to_registers(test);
  registers.selector = 0;
  MmaCase seen = from_registers(*test.form, registers);
  for (uint32_t& nibble : seen.nibbles)
    if (validity(seen.form->sparsity, nibble) == MetadataValidity::undefined) nibble = nibble_of(seen.form->sparsity, {0, 1});
  std::vector<uint32_t> d;
  for (const auto& e : reference(seen).d) d.push_back(e.rounded_code);
  return d;
}

TEST(Generators, AWrongToyOracleIsCaughtAndShrunkToAtMostTwoNonZeroElements) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  std::optional<MmaCase> last_failure;
  const bool passed = rc::check("toy oracle that ignores the selector", [&] {
    const MmaCase test = *gen::arbitrary_case(form);
    std::vector<uint32_t> expected;
    for (const auto& e : reference(test).d) expected.push_back(e.rounded_code);
    const bool agrees = toy_oracle_ignoring_the_selector(test) == expected;
    // Shrinking only accepts failing candidates, so the last failure seen is the minimal counterexample.
    if (!agrees) last_failure = test;
    RC_ASSERT(agrees);
  });
  ASSERT_FALSE(passed) << "the wrong toy oracle was not caught";
  ASSERT_TRUE(last_failure);
  const MmaCase& minimal = *last_failure;
  std::cout << "minimal case: selector " << minimal.selector << ", " << nonzero_elements(minimal)
            << " non-zero elements of A\n";
  EXPECT_LE(nonzero_elements(minimal), 2);
  EXPECT_NE(minimal.selector, 0);
  // A failure leaves a case file and a one-line reproduction.
  const std::string line = gen::save_failure(minimal, std::nullopt, "generators_test toy oracle");
  std::cout << line << "\n";
  const std::string path = line.substr(std::string("repro: mmasp eval ").size(), line.find("   #") - std::string("repro: mmasp eval ").size());
  CaseFile back = load_case_file(path);
  EXPECT_EQ(back.test.a_compressed, minimal.a_compressed);
  EXPECT_EQ(back.test.selector, minimal.selector);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace mmasp
