// The generators (issue #4): validity of every generated case, coverage of every class, reproducibility, and
// shrinking — a deliberately wrong toy oracle must be caught and shrunk to a tiny case.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <span>

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
  gen::BulkGenerator generator(1, /*count_coverage=*/true);
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

TEST(Generators, FieldsGiveWhatRepeatedFieldCallsGive) {
  // SplitMixDraw::fields and outputs are the bulk fast paths; field() and bits() are the definitions the other draw
  // sources follow.
  for (int offset_width : {0, 4, 12, 32}) {
    gen::SplitMixDraw fast(99), slow(99);
    if (offset_width) EXPECT_EQ(fast.field(offset_width), slow.field(offset_width));
    std::vector<uint32_t> fast_out, slow_out;
    fast.fields<12>(23, [&](size_t i, uint32_t r) {
      EXPECT_EQ(i, fast_out.size());
      fast_out.push_back(r);
    });
    for (int i = 0; i < 23; ++i) slow_out.push_back(slow.field(12));
    fast.fields<32>(7, [&](size_t, uint32_t r) { fast_out.push_back(r); });
    for (int i = 0; i < 7; ++i) slow_out.push_back(slow.field(32));
    EXPECT_EQ(fast.field(4), slow.field(4));   // the bits a run of fields leaves over are the next field's
    fast.fields<8>(3, [&](size_t, uint32_t r) { fast_out.push_back(r); });
    for (int i = 0; i < 3; ++i) slow_out.push_back(slow.field(8));
    std::vector<uint64_t> fast_words, slow_words;
    fast.outputs(45, [&](size_t, uint64_t r) { fast_words.push_back(r); });
    for (int i = 0; i < 45; ++i) slow_words.push_back(slow.bits());
    EXPECT_EQ(fast_words, slow_words);
    EXPECT_EQ(fast.field(12), slow.field(12));   // outputs() leaves the current field word alone
    EXPECT_EQ(fast_out, slow_out) << "after a first field of " << offset_width << " bits";
    EXPECT_EQ(fast.bits(), slow.bits());
  }
}

template <int width>
void expect_byte_lookups_give_what_field_calls_give() {
  std::vector<uint16_t> table((size_t(1) << width) + 1);
  for (size_t i = 0; i < table.size(); ++i) table[i] = uint16_t(gen::SplitMixDraw::mix(i) >> 7);
  for (int skipped_outputs : {0, 1, 31, 32, 45}) {
    for (int offset_width : {0, 4, 8, 12, 32}) {
      for (size_t count : {size_t(0), size_t(7), size_t(64), size_t(80), size_t(161), size_t(1000), size_t(4097)}) {
        gen::SplitMixDraw fast(7), slow(7);
        for (int i = 0; i < skipped_outputs; ++i) EXPECT_EQ(fast.bits(), slow.bits());
        if (offset_width) EXPECT_EQ(fast.field(offset_width), slow.field(offset_width));
        std::vector<uint32_t> fast_out(count), slow_out(count);
        fast.byte_lookups<width>(count, table.data(), fast_out.data());
        for (size_t i = 0; i < count; ++i) slow_out[i] = table[slow.field(width)] & 0xFFu;
        EXPECT_EQ(fast_out, slow_out) << count << " lookups of " << width << " bits after " << skipped_outputs
                                      << " outputs and a field of " << offset_width << " bits";
        EXPECT_EQ(fast.field(4), slow.field(4));   // the bits left over
        EXPECT_EQ(fast.bits(), slow.bits());
        EXPECT_EQ(fast.field(12), slow.field(12));
      }
    }
  }
}

TEST(Generators, ByteLookupsGiveWhatRepeatedFieldCallsGive) {
  // byte_lookups has AVX-512 paths for whole groups of fields, entered at any point of a block and of a field word;
  // on a CPU without AVX-512 this checks the portable path alone.
  expect_byte_lookups_give_what_field_calls_give<8>();
  expect_byte_lookups_give_what_field_calls_give<12>();
}

TEST(Generators, VectorWideCodesAreTheScalarOnes) {
  if (!gen::detail::wide_codes_available()) GTEST_SKIP() << "no AVX-512 here (or MMASP_PORTABLE=1): there is no vector path to check";
  size_t checked = 0;
  for (const auto& form : instruction_space()) {
    const gen::FormPlan& plan = gen::plan_for(form);
    for (size_t p = 0; p < size_t(gen::Profile::count); ++p) {
      for (const gen::ElementSampler* sampler : {plan.a_samplers[p], plan.b_samplers[p], plan.c_samplers[p]}) {
        if (sampler->narrow()) continue;
        ++checked;
        const gen::TypePlan& type = *sampler->type;
        if (type.field_bits == 64) {
          gen::SplitMixDraw draw(p + 1);
          std::vector<uint64_t> outputs(1003);
          for (uint64_t& r : outputs) r = draw.bits();
          for (size_t i = 0; i < 256; ++i) outputs[i] = (outputs[i] & ~(uint64_t(0xFF) << 56)) | uint64_t(i) << 56;
          std::vector<uint32_t> vector_codes(outputs.size());
          gen::detail::wide_codes_from_outputs(*sampler, outputs.data(), vector_codes.data(), outputs.size());
          for (size_t i = 0; i < outputs.size(); ++i) {
            const uint64_t r = outputs[i];
            ASSERT_EQ(vector_codes[i], gen::detail::code_of_output(*sampler, r))
                << ptx_name(type.type) << " output " << r;
          }
          continue;
        }
        ASSERT_EQ(type.field_bits, 32);
        gen::SplitMixDraw draw(p + 1);
        std::vector<uint32_t> fields(1003);
        for (uint32_t& r : fields) r = draw.field(32);
        for (uint32_t& r : std::span(fields).first(256)) r = (r & 0x00FFFFFFu) | uint32_t(&r - fields.data()) << 24;
        std::vector<uint32_t> vector_codes = fields;
        gen::detail::wide_codes_from_fields(*sampler, vector_codes.data(), vector_codes.size());
        for (size_t i = 0; i < fields.size(); ++i) {
          ASSERT_EQ(vector_codes[i], gen::detail::code_of_field(*sampler, fields[i]))
              << ptx_name(type.type) << " field " << fields[i];
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
}

// The bulk streams are part of the interface: a (seed, form, index) must name the same case on every machine, with
// every compiler, in every later version, or saved seeds and baselines stop meaning anything. These digests were
// taken from this implementation; a deliberate change to a distribution changes them, and must say so. Last change:
// the float forms' few_terms profile (issue #17); the integer forms' streams kept theirs.
TEST(Generators, BulkStreamsAreStable) {
  std::map<std::string, uint64_t> digests;
  std::set<std::string> seen;
  for (const auto& form : instruction_space())
    if (seen.insert(form.family).second) digests[form.family] = gen::case_stream_digest(form, 2026, 64);
  const std::map<std::string, uint64_t> expected = {
      {"bf16", 0x5f4337d8a39bf27eull},
      {"f16", 0x9de0fae29e48f49cull},
      {"f8f6f4", 0x8c51599d023ebf1cull},
      {"fp8", 0x393adf658472c01cull},
      {"int4", 0xa786323e79d55d76ull},
      {"int8", 0x8a0ddf76adc2c64aull},
      {"mxf4", 0xb1fd2cd9e20b49baull},
      {"mxf4nvf4", 0x98a707c6b8b752a4ull},
      {"mxf8f6f4", 0xd0faeabccec111b5ull},
      {"tf32", 0x24723a14a30061fcull},
  };
  for (const auto& [family, digest] : digests) {
    std::printf("  %-10s 0x%016llx\n", family.c_str(), (unsigned long long)digest);
    auto it = expected.find(family);
    if (it == expected.end()) {
      ADD_FAILURE() << family << ": no recorded digest";
      continue;
    }
    EXPECT_EQ(digest, it->second) << family << ": the bulk stream changed";
  }
}

// The cancellation profile decodes operands through TypePlan::value_of's shortcuts; each must be the oracle's value.
TEST(Generators, ValueOfEveryCodeIsTheOracles) {
  std::set<std::pair<const gen::TypePlan*, ElemType>> plans;
  for (const auto& form : instruction_space()) {
    const gen::FormPlan& plan = gen::plan_for(form);
    for (const gen::TypePlan* type : {plan.a, plan.b, plan.scale})
      if (type) plans.insert({type, type->type});
  }
  std::set<ElemType> checked;
  for (const auto& [plan, type] : plans) {
    if (!info(type).is_float) continue;
    checked.insert(type);
    std::vector<uint32_t> codes;
    if (info(type).bits <= 16) {
      for (uint32_t code = 0; code < (1u << info(type).bits); ++code) codes.push_back(code);
    } else {
      gen::SplitMixDraw draw(7);
      for (int i = 0; i < 100000; ++i) codes.push_back(uint32_t(draw.bits()) & (type == ElemType::tf32 ? ~0x1FFFu : ~0u));
      for (uint32_t code : {0u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x00002000u, 0x7F7FE000u, 0x7FC00000u}) codes.push_back(code);
    }
    for (uint32_t code : codes) {
      const double ours = plan->value_of(code), oracle = decode_to_double(type, code);
      if (std::isnan(oracle)) {
        EXPECT_TRUE(std::isnan(ours)) << ptx_name(type) << " " << code;
      } else {
        ASSERT_EQ(ours, oracle) << ptx_name(type) << " " << code;
        ASSERT_EQ(std::signbit(ours), std::signbit(oracle)) << ptx_name(type) << " " << code;
      }
    }
  }
  for (ElemType type : {ElemType::f16, ElemType::bf16, ElemType::tf32, ElemType::e4m3, ElemType::e2m1, ElemType::ue8m0})
    EXPECT_TRUE(checked.count(type)) << ptx_name(type);
}

// The cancellation profile's f16 shortcuts against the oracle: every code's value, and rounding at every code, every
// midpoint between neighbouring codes and a double's step either side of it, and random doubles of every binade.
TEST(Generators, F16ShortcutsAreTheOracles) {
  for (uint32_t code = 0; code < 0x10000u; ++code) {
    const double oracle = decode_to_double(ElemType::f16, code), ours = gen::detail::f16_to_float(code);
    if (std::isnan(oracle)) {
      ASSERT_TRUE(std::isnan(ours)) << code;
    } else {
      ASSERT_EQ(ours, oracle) << code;
      ASSERT_EQ(std::signbit(ours), std::signbit(oracle)) << code;
    }
  }
  auto expect_rounding = [](double value) {
    const auto oracle = encode(ElemType::f16, value, Overflow::infinity);
    ASSERT_TRUE(oracle.has_value()) << value;
    const bool finite = std::isfinite(decode_to_double(ElemType::f16, *oracle));
    const auto ours = gen::detail::f16_nearest_finite(value);
    ASSERT_EQ(ours.has_value(), finite) << value;
    if (ours) ASSERT_EQ(*ours, *oracle) << value;
  };
  std::vector<double> finite_values;
  for (uint32_t code = 0; code < 0x7C00u; ++code) finite_values.push_back(decode_to_double(ElemType::f16, code));
  finite_values.push_back(65536.0);   // where the next code would be
  for (size_t i = 0; i + 1 < finite_values.size(); ++i) {
    const double value = finite_values[i], midpoint = (value + finite_values[i + 1]) / 2;
    for (double x : {value, midpoint, std::nextafter(midpoint, 0.0), std::nextafter(midpoint, HUGE_VAL)}) {
      expect_rounding(x);
      expect_rounding(-x);
    }
  }
  gen::SplitMixDraw draw(16);
  for (int i = 0; i < 200000; ++i) {
    const double unit = double(draw.bits() >> 11) * 0x1p-53;   // [0, 1)
    const int binade = int(draw.below(60)) - 40;              // 2^-40 .. 2^19
    expect_rounding((draw.below(2) ? -1.0 : 1.0) * std::ldexp(1.0 + unit, binade));
  }
  expect_rounding(0.0);
  expect_rounding(-0.0);
}

// The slot tables are the weights of distributions.cpp compiled: each class keeps 16 slots per 256th of weight, and
// every code of a class gets its share of the class's slots, give or take one.
TEST(Generators, NarrowSlotTablesCarryTheWeights) {
  size_t checked = 0;
  for (const auto& form : instruction_space()) {
    const gen::FormPlan& plan = gen::plan_for(form);
    for (size_t p = 0; p < size_t(gen::Profile::count); ++p) {
      for (const gen::ElementSampler* sampler : {plan.a_samplers[p], plan.b_samplers[p], plan.scale_samplers[p]}) {
        if (!sampler || !sampler->narrow()) continue;
        ++checked;
        const size_t slot_count = size_t(1) << sampler->slot_bits;
        ASSERT_TRUE(sampler->slot_bits == 8 || sampler->slot_bits == 12);
        ASSERT_EQ(sampler->slots.size(), slot_count + 1);   // and one of padding
        std::map<int, size_t> class_slots, weight;
        std::map<std::pair<int, uint32_t>, size_t> code_slots;
        for (gen::ValueClass value_class : sampler->classes) ++weight[int(value_class)];
        if (sampler->type->bits == 4) EXPECT_EQ(sampler->slot_bits, 8) << "4-bit types draw a byte per element";
        for (uint16_t slot : std::span(sampler->slots).first(slot_count)) {
          ++class_slots[slot >> 8];
          ++code_slots[{slot >> 8, slot & 0xFFu}];
        }
        for (auto [value_class, slots] : class_slots) EXPECT_EQ(slots, slot_count / 256 * weight[value_class]);
        for (auto [key, slots] : code_slots) {
          const size_t codes = sampler->type->by_class[size_t(key.first)].size();
          EXPECT_LE(slots, class_slots[key.first] / codes + 1);
          EXPECT_GE(slots, class_slots[key.first] / codes);
        }
        for (auto [value_class, slots] : class_slots) {
          size_t listed = 0;
          for (auto [key, n] : code_slots) listed += key.first == value_class;
          EXPECT_EQ(listed, sampler->type->by_class[size_t(value_class)].size()) << "every code drawn";
        }
      }
    }
  }
  EXPECT_GT(checked, 0u);
}

// Wider types draw a random finite code as a (sign, exponent) prefix plus random mantissa bits: together the
// prefixes and mantissas must be exactly the finite codes, each once.
TEST(Generators, RandomFinitePrefixesCoverExactlyTheFiniteCodes) {
  for (const auto& form : instruction_space()) {
    const gen::TypePlan& plan = *gen::plan_for(form).a;
    if (plan.bits <= 8 || !plan.is_float) continue;
    const auto value_class = size_t(gen::ValueClass::random_finite);
    const std::vector<uint32_t>& prefixes = plan.by_class[value_class];
    const uint32_t mask = plan.class_mask[value_class];
    const FloatFormat& format = *float_format(plan.type);
    EXPECT_EQ(mask, (1u << format.mantissa_bits) - 1) << ptx_name(plan.type);
    EXPECT_EQ(prefixes.size(), size_t(2 * ((1u << format.exponent_bits) - 1))) << ptx_name(plan.type);
    std::set<uint32_t> seen;
    for (uint32_t prefix : prefixes) {
      EXPECT_EQ(prefix & (mask << plan.pad_bits), 0u);
      for (uint32_t mantissa : {0u, 1u, mask}) {
        const uint32_t code = prefix | mantissa << plan.pad_bits;
        const auto value = decode(plan.type, code);
        ASSERT_TRUE(value) << ptx_name(plan.type);
        EXPECT_NE(value->cls, FloatClass::nan) << ptx_name(plan.type) << " " << code;
        EXPECT_NE(value->cls, FloatClass::infinite) << ptx_name(plan.type) << " " << code;
      }
      EXPECT_TRUE(seen.insert(prefix).second) << "prefix listed twice";
    }
  }
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
