// The fault model of the datapath (oracle/fault_model.h) and the coverage it gives (judge/fault_coverage.h).
#include "oracle/fault_model.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "generators/bulk.h"
#include "judge/compact_set.h"
#include "judge/fault_coverage.h"
#include "oracle/number_format.h"
#include "oracle/numeric_model_table.h"
#include "oracle/reference.h"
#include "reports/coverage_report.h"
#include "test_forms.h"

namespace mmasp {
namespace {

using test::form_named;

// One form of each family sm_90 runs.
const char* const kFamilies[] = {
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32",
    "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32",
    "mma.sp.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32",
};

std::optional<ModelParameters> sm90(const Form& form) {
  if (form.is_integer()) return std::nullopt;
  auto p = verified_model(form, "sm_90");
  if (!p) throw std::logic_error("no sm_90 model of " + form.opcode);
  return p;
}
const ModelParameters* pointer(const std::optional<ModelParameters>& p) {
  return p ? &*p : nullptr;
}

MmaCase random_case(const Form& form, uint64_t index) {
  MmaCase test;
  gen::Options options;
  options.profile = gen::Profile(index % uint64_t(gen::Profile::count));
  gen::BulkGenerator(gen::case_seed(7, form, index)).next(form, test, options);
  return test;
}

// The fault-free datapath is the model (float) and the exact reference (integer), bit for bit.
TEST(FaultModel, TheFaultFreeDatapathIsTheModelAndTheReference) {
  for (const char* opcode : kFamilies) {
    const Form& form = form_named(opcode);
    const auto p = sm90(form);
    int defined = 0;
    for (uint64_t i = 0; i < 60; ++i) {
      const MmaCase test = random_case(form, i);
      const auto d = datapath_result(test, pointer(p));
      if (!d) continue;
      ++defined;
      if (form.is_integer()) {
        const ReferenceResult expected = reference(test);
        for (size_t e = 0; e < d->size(); ++e)
          ASSERT_EQ((*d)[e], expected.d[e].rounded_code) << opcode << " case " << i;
      } else {
        ASSERT_EQ(*d, model_result(test, *p)) << opcode << " case " << i;
      }
    }
    EXPECT_GT(defined, 30) << opcode;
  }
}

// Every site has a stage and a width; fault ids are unique and name their fault.
TEST(FaultModel, SitesAreATableAndFaultIdsNameTheirFault) {
  for (const char* opcode : kFamilies) {
    const Form& form = form_named(opcode);
    const auto p = sm90(form);
    const auto sites = fault_sites(form, pointer(p));
    std::set<int> stages;
    for (const FaultSite& site : sites) {
      EXPECT_GT(site.width, 0) << site.name();
      stages.insert(int(site.stage()));
    }
    // Operand decode, selection, products, the sum and the output at least; floats also alignment and rounding.
    EXPECT_GE(stages.size(), form.is_integer() ? 5u : 7u) << opcode;
    std::set<std::string> ids;
    auto faults = stuck_at_faults(form, pointer(p));
    const auto transients = transient_faults(form, pointer(p));
    EXPECT_GE(transients.size(), 10u) << opcode;
    faults.insert(faults.end(), transients.begin(), transients.end());
    for (const DatapathFault& fault : faults) {
      EXPECT_TRUE(ids.insert(fault.id()).second) << fault.id();
      const auto parsed = parse_datapath_fault(form, pointer(p), fault.id());
      ASSERT_TRUE(parsed) << fault.id();
      EXPECT_EQ(*parsed, fault) << fault.id();
    }
    EXPECT_FALSE(parse_datapath_fault(form, pointer(p), "product[999].bit0.sa1")) << opcode;
  }
}

// A of ones in row 0, stored product 0 alone, B all ones: a stuck-at-1 on product 0's lowest bit adds 2^-20 to an
// f16 x f16 product (11-bit significands), which an f32 D keeps (25 fraction bits, truncated); product 1 (a zero A
// element) never shows the same fault.
TEST(FaultModel, AStuckProductBitChangesOnlyItsLane) {
  const Form& form = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
  const auto p = sm90(form);
  MmaCase test = zero_case(form);
  const uint32_t one = *encode(ElemType::f16, 1.0);
  test.a_compressed[0] = one;  // row 0, stored product 0
  for (uint32_t& b : test.b) b = one;
  DatapathFault fault;
  for (const FaultSite& site : fault_sites(form, &*p))
    if (site.kind == FaultSiteKind::product && site.lane == 0) fault.site = site;
  ASSERT_EQ(fault.site.kind, FaultSiteKind::product);
  EXPECT_EQ(fault.site.width, 22);   // two 11-bit significands
  EXPECT_EQ(fault.site.low_bit, 0);  // every product bit is kept by 25 fraction bits
  fault.bit = 0;
  fault.effect = FaultEffect::stuck_at_1;
  const auto clean = datapath_result(test, &*p);
  uint64_t activations = 0;
  const auto faulty = faulty_result(test, &*p, fault, 0, &activations);
  ASSERT_TRUE(clean && faulty);
  // Row 0's product 0 meets a one in every column: all of row 0 changes, no other row.
  const size_t n = size_t(form.shape.n);
  for (size_t e = 0; e < faulty->size(); ++e) {
    EXPECT_EQ((*clean)[e], *encode(ElemType::f32, e < n ? 1.0 : 0.0)) << e;
    EXPECT_EQ((*faulty)[e], e < n ? *encode(ElemType::f32, 1.0 + 0x1p-20) : (*clean)[e]) << e;
  }
  EXPECT_EQ(activations, uint64_t(2 * form.shape.n));  // the block's two passes of each of row 0's elements
  fault.site.lane = 1;                                 // a lane whose product is 0 (a zero A element)
  EXPECT_EQ(*faulty_result(test, &*p, fault, 0), *clean);
}

// An integer product stuck: s8 x s8 = -1 * 1 is all ones in 16 bits; bit 15 stuck at 0 makes it +32767.
TEST(FaultModel, AnIntegerProductIsATwosComplementRegister) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  MmaCase test = zero_case(form);
  test.a_compressed[0] = encode_integer(ElemType::s8, -1);
  for (uint32_t& b : test.b) b = encode_integer(ElemType::s8, 1);
  DatapathFault fault;
  fault.site = {FaultSiteKind::product, 0, 16, 0};
  fault.bit = 15;
  fault.effect = FaultEffect::stuck_at_0;
  const auto faulty = faulty_result(test, nullptr, fault, 0);
  ASSERT_TRUE(faulty);
  EXPECT_EQ(int32_t((*faulty)[0]), 32767);
  EXPECT_EQ(int32_t((*datapath_result(test, nullptr))[0]), -1);
}

// Transients strike only their cases; a warp-lane strike touches one element per lane.
TEST(FaultModel, TransientsStrikeTheirCasesAndLanes) {
  const Form& form = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
  const auto p = sm90(form);
  const MmaCase test = random_case(form, 3);
  const auto clean = datapath_result(test, &*p);
  ASSERT_TRUE(clean);
  for (const DatapathFault& fault : transient_faults(form, &*p)) {
    const uint64_t struck = fault.phase, missed = fault.phase + 1;
    ASSERT_TRUE(fault.strikes(struck));
    EXPECT_FALSE(fault.strikes(missed)) << fault.id();
    EXPECT_EQ(*faulty_result(test, &*p, fault, missed), *clean) << fault.id();
    if (fault.pattern == FaultPattern::warp_lanes) {
      const auto faulty = faulty_result(test, &*p, fault, struck);
      int changed = 0;
      for (size_t e = 0; e < clean->size(); ++e) changed += (*faulty)[e] != (*clean)[e];
      EXPECT_EQ(changed, 32) << fault.id();  // a flipped D bit in every lane's element
    }
  }
}

// What cannot be detected says why; everything else is simulated. sm_90's f32 D forms round toward zero everywhere.
TEST(FaultModel, UndetectableFaultsSayWhy) {
  const Form& f32d = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
  const Form& f16d = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  for (const Form* form : {&f32d, &f16d}) {
    const auto p = sm90(*form);
    int undetectable = 0;
    for (const DatapathFault& fault : stuck_at_faults(*form, &*p))
      if (!undetectable_reason(*form, &*p, fault).empty()) {
        ++undetectable;
        EXPECT_EQ(fault.site.kind, FaultSiteKind::round_increment);
      }
    EXPECT_EQ(undetectable, form == &f32d ? 1 : 0) << form->opcode;
  }
}

// Issue #71's acceptance: the coverage of the special set alone, of 100 random cases, and of the nightly's host sample
// (the special set and 10,000 random cases of a float pair) for one form of each family, printed; it rises from the
// first to the last, and the last detects at least 99.9 % of the detectable stuck-at faults.
TEST(FaultCoverage, RisesFromTheSpecialSetToTheNightlyStream) {
  for (const char* opcode : kFamilies) {
    const Form& form = form_named(opcode);
    const auto p = sm90(form);
    double previous = -1;
    double first = 0;
    for (const uint64_t random_cases : {uint64_t(0), uint64_t(100), uint64_t(form.is_integer() ? 1000 : 10000)}) {
      CoverageStream stream;
      stream.random_cases = random_cases;
      stream.special_generated = random_cases == 0 ? 0 : 512;
      const PairCoverage coverage = fault_coverage(form, form.selectors.front(), pointer(p), stream, 2);
      std::printf(
          "%s: %s with %s\n", opcode, coverage.summary().c_str(),
          random_cases == 0 ? "the named special set" : (std::to_string(random_cases) + " random cases").c_str());
      for (const SimulatedFault& o : coverage.stuck)
        if (random_cases > 100 && o.state == FaultState::not_detected)
          std::printf("  not detected: %s\n", o.fault.id().c_str());
      EXPECT_GE(coverage.percent(), previous) << opcode;
      if (previous < 0) first = coverage.percent();
      previous = coverage.percent();
      EXPECT_EQ(coverage.transients.size(), transient_faults(form, pointer(p)).size());
    }
    if (first < 100) EXPECT_GT(previous, first) << opcode;
    EXPECT_GE(previous, 99.9) << opcode;
  }
}

// The record says what was found, fault by fault.
TEST(FaultCoverage, TheRecordListsWhatWasNotDetected) {
  const Form& form = form_named("mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32");
  CoverageStream stream;
  stream.special_generated = 0;
  CoverageRecord record;
  record.architecture = "integer";
  record.stream = "the named special set";
  record.pairs.push_back(fault_coverage(form, 0, nullptr, stream, 2));
  const nlohmann::json json = coverage_json(record);
  EXPECT_EQ(json["schema"], "mmasp-coverage/1");
  const nlohmann::json& pair = json["pairs"][0];
  EXPECT_EQ(pair["detected"].get<uint64_t>() + pair["not_detected"].size() + pair["undetectable"].size(),
            pair["faults"].get<uint64_t>());
  EXPECT_EQ(pair["faults"].get<size_t>(), stuck_at_faults(form, nullptr).size());
  EXPECT_NE(coverage_table(record).find("stuck-at coverage"), std::string::npos);
}

// The sets of a directory: saved in one file, read back case for case; a single-set file beside it is read too; a
// form with two sets, or a set of other generators, is refused with the file named.
TEST(CompactSets, OneFileHoldsTheSetsAndEachKeepsItsVersion) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("mmasp-compact-sets-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const Form& f16 = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const Form& s8 = form_named("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  const auto p = verified_model(f16, "sm_90");
  CompactSetOptions options;
  options.stream.random_cases = 20;
  options.threads = 2;
  std::vector<CompactSet> sets = {build_compact_set(f16, &*p, options), build_compact_set(s8, nullptr, options)};
  ASSERT_FALSE(sets[0].cases.empty());
  save_compact_sets({{sets[0].form, sets[0]}, {sets[1].form, sets[1]}}, dir);
  ASSERT_TRUE(fs::exists(dir / kCompactSetsFile));
  auto loaded = load_compact_sets(dir);
  ASSERT_EQ(loaded.size(), 2u);
  for (const CompactSet& set : sets) {
    const CompactSet& back = loaded.at(set.form);
    EXPECT_EQ(back.detectable, set.detectable);
    EXPECT_EQ(back.generators, gen::case_streams_identity());
    const auto a = compact_cases(set, set.form->selectors.front()), b = compact_cases(back, set.form->selectors.front());
    ASSERT_EQ(a.size(), b.size());
    for (size_t c = 0; c < a.size(); ++c) {
      EXPECT_EQ(a[c].a_compressed, b[c].a_compressed) << set.form->opcode << " case " << c;
      EXPECT_EQ(a[c].nibbles, b[c].nibbles);
      EXPECT_EQ(a[c].b, b[c].b);
      EXPECT_EQ(a[c].c, b[c].c);
    }
  }
  // The same f16 set alone in a file of its own: a second set of the form.
  {
    std::ifstream in(dir / kCompactSetsFile);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t first = text.find("    {"), end = text.find("\n    }", first);
    std::ofstream(dir / "f16.json") << text.substr(first, end + 6 - first) << "\n";
  }
  try {
    load_compact_sets(dir);
    ADD_FAILURE() << "a form with two sets was read";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("a second compact set of"), std::string::npos) << error.what();
  }
  // Alone (the bundle gone), the single-set file is read.
  fs::remove(dir / kCompactSetsFile);
  EXPECT_EQ(load_compact_sets(dir).size(), 1u);
  // Other generators: refused, naming the file.
  {
    std::ifstream in(dir / "f16.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find(gen::case_streams_identity());
    ASSERT_NE(at, std::string::npos);
    text.replace(at, gen::case_streams_identity().size(), "0000000000000000");
    std::ofstream(dir / "f16.json") << text;
  }
  try {
    load_compact_sets(dir);
    ADD_FAILURE() << "a set of other generators was read";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("f16.json"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("made with generators"), std::string::npos) << error.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mmasp
