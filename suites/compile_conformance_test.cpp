// Compile conformance against the real ptxas, one CTest entry per target, plus checks that the machinery can fail.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>

#include "harness/dense_counterpart.h"
#include "oracle/case_file.h"
#include "oracle/number_format.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "harness/compile_conformance.h"
#include "harness/fault_injection.h"
#include "harness/temporary_files.h"
#include "reports/compile_report.h"
#include "reports/findings.h"

namespace mmasp {
namespace {
namespace fs = std::filesystem;

const PtxasInfo& real_ptxas() {
  static const PtxasInfo info = locate_ptxas();
  return info;
}

std::vector<CompileCase> all_cases(const std::vector<Target>& targets) {
  auto cases = catalog_cases(instruction_space(), targets);
  auto negatives = negative_cases(instruction_space(), targets);
  cases.insert(cases.end(), negatives.begin(), negatives.end());
  return cases;
}

class CompileConformance : public testing::TestWithParam<std::string> {};

// Fails on any disagreement between ptxas and the catalog that findings/findings.json does not document.
TEST_P(CompileConformance, PtxasAgreesWithTheCatalog) {
  const Target target = *find_target(GetParam());
  Ptxas ptxas(real_ptxas(), MMASP_PTXAS_CACHE, std::max(1u, std::thread::hardware_concurrency()));
  CompileRun run = run_compile_conformance(ptxas, all_cases({target}));
  CompileJudgement judgement = judge(run, load_findings(default_findings_path()));
  RecordProperty("ptxas", run.ptxas.version);
  RecordProperty("cases", int(run.outcomes.size()));
  RecordProperty("documented_findings", int(judgement.documented.size()));
  RecordProperty("not_run", int(judgement.not_run));

  size_t accepted_legal = 0;
  for (const auto& outcome : run.outcomes)
    accepted_legal += outcome.test.expected == Expected::accept && outcome.accepted;
  // Something must have been assembled for real: every target here has legal forms.
  EXPECT_GT(accepted_legal, 100u);
  for (const auto& judged : judgement.undocumented) {
    const auto& outcome = *judged.outcome;
    ADD_FAILURE() << "ptxas " << (outcome.accepted ? "accepts" : "rejects") << " " << outcome.test.id
                  << " but the catalog expects " << name(outcome.test.expected) << " (" << outcome.test.why
                  << ").\nptxas said: " << outcome.diagnostics << "\nPTX:\n" << outcome.ptx
                  << "\nIf this is a real disagreement, record it in findings/findings.json; do not change the catalog "
                     "to match ptxas.";
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, CompileConformance,
                         testing::Values("sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_120a"),
                         [](const auto& info) { return info.param; });

// A ptxas that accepts everything must be caught on every negative case and every illegal placement, and one that
// rejects everything on every legal form: the comparison itself can fail.
TEST(CompileConformanceMachinery, DetectsAPtxasThatAcceptsOrRejectsEverything) {
  const std::vector<Target> targets = {*find_target("sm_90a"), *find_target("sm_120a")};
  auto cases = all_cases(targets);
  size_t expected_reject = 0;
  for (const auto& test : cases) expected_reject += test.expected == Expected::reject;
  ASSERT_GT(expected_reject, 0u);

  for (const char* fake : {"/bin/true", "/bin/false"}) {
    PtxasInfo info;
    info.path = fake;
    info.version = std::string("fake ptxas ") + fake;
    info.max_ptx = PtxVersion{9, 0};
    CompileRun run = run_compile_conformance(Ptxas(info, {}, 2), cases);
    CompileJudgement judgement = judge(run, FindingsFile{});
    size_t expected_disagreements = 0;
    for (const auto& outcome : run.outcomes)
      if (outcome.verdict != Verdict::not_run)
        expected_disagreements += (outcome.test.expected == Expected::reject) == (std::string(fake) == "/bin/true");
    EXPECT_EQ(judgement.undocumented.size(), expected_disagreements) << fake;
    EXPECT_GT(judgement.undocumented.size(), 0u) << fake;
  }
}

TEST(CompileConformanceMachinery, EveryNegativeRuleProducesCases) {
  auto negatives = negative_cases(instruction_space(), conformance_targets());
  std::map<std::string, int> per_rule;
  std::set<std::string> ids;
  for (const auto& test : negatives) {
    per_rule[test.rule]++;
    EXPECT_TRUE(ids.insert(test.id).second) << "duplicate id " << test.id;
    EXPECT_EQ(test.expected, Expected::reject);
    EXPECT_FALSE(test.why.empty());
    // A negative case is never a catalog form spelled at a legal selector.
    const Form* form = find_form(test.instruction.opcode);
    if (form && form->regs == test.instruction.regs && test.version >= form->min_ptx)
      EXPECT_TRUE(std::find(form->selectors.begin(), form->selectors.end(), test.instruction.selector) ==
                  form->selectors.end())
          << test.id << " is a legal instruction";
  }
  for (const char* rule : {"ctype-ne-dtype", "satfinite-on-float", "sp-with-kind", "selector-out-of-range",
                           "below-min-ptx", "register-count", "wrong-accumulator", "mixed-16bit-ab",
                           "narrow-float-without-kind", "kind-wrong-shape", "block-scale-combination",
                           "shape-not-in-syntax"})
    EXPECT_GT(per_rule[rule], 0) << rule;
}

TEST(CompileConformanceMachinery, CacheReturnsTheSameVerdictWithoutRunningPtxas) {
  fs::path cache = fs::temp_directory_path() / ("mmasp-cache-test-" + std::to_string(getpid()));
  fs::remove_all(cache);
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  const Target target = *find_target("sm_80");
  AssembleJob job{emit_module(instruction_for(form, 0), {7, 1}, target), "sm_80"};
  AssembleJob bad = job;
  bad.ptx += "this is not PTX\n";
  Ptxas ptxas(real_ptxas(), cache, 1);
  auto first = ptxas.assemble_all({job, bad});
  auto second = ptxas.assemble_all({job, bad});
  EXPECT_FALSE(first[0].from_cache);
  EXPECT_TRUE(first[0].accepted);
  EXPECT_FALSE(first[1].accepted);
  EXPECT_TRUE(second[0].from_cache);
  EXPECT_TRUE(second[1].from_cache);
  EXPECT_EQ(second[0].accepted, first[0].accepted);
  EXPECT_EQ(second[1].diagnostics, first[1].diagnostics);
  EXPECT_NE(first[1].diagnostics.find("input.ptx"), std::string::npos) << "temporary file name not normalised";
  fs::remove_all(cache);
}

TEST(CompileConformanceMachinery, PtxasReportsItsVersionAndLimit) {
  EXPECT_NE(real_ptxas().version.find("release"), std::string::npos) << real_ptxas().version;
  ASSERT_TRUE(real_ptxas().max_ptx.has_value());
  EXPECT_GE(*real_ptxas().max_ptx, (PtxVersion{8, 7})) << "this toolkit cannot assemble sm_120a forms";
}

TEST(Findings, FileLoadsAndEveryFindingDocumentsACase) {
  FindingsFile findings = load_findings(default_findings_path());
  auto cases = all_cases(conformance_targets());
  for (const auto& finding : findings.findings) {
    EXPECT_FALSE(finding.summary.empty()) << finding.id;
    EXPECT_FALSE(finding.details.empty()) << finding.id;
    bool matches_a_case = false;
    // Compile findings name disagreeing cases, spec findings the compile cases that show the inconsistency.
    if (finding.kind == FindingKind::compile || finding.kind == FindingKind::spec) {
      for (const auto& test : cases)
        for (const auto& pattern : finding.cases) matches_a_case |= glob_match(pattern, test.id);
    } else if (finding.kind == FindingKind::numerics) {
      // Numeric findings name their evidence: case files (with the hardware's D) and reports in the source tree.
      matches_a_case = !finding.cases.empty();
      for (const auto& path : finding.cases) {
        const fs::path file = fs::path(MMASP_SOURCE_DIR) / path;
        EXPECT_TRUE(fs::exists(file)) << finding.id << ": " << path;
        if (file.extension() == ".json") {
          const CaseFile loaded = load_case_file(file);
          EXPECT_TRUE(loaded.observed_d.has_value()) << finding.id << ": " << path << " has no observed D";
        }
      }
    } else {
      // Execution-side findings (lowering) name forms by opcode.
      for (const auto& form : instruction_space())
        for (const auto& pattern : finding.cases) matches_a_case |= glob_match(pattern, form.opcode);
    }
    EXPECT_TRUE(matches_a_case) << finding.id << " names no case that exists (typo in its glob?)";
  }
}

}  // namespace
}  // namespace mmasp

namespace mmasp {
namespace {

// The dense mma.sync counterparts that `mmasp characterize` runs beside mma.sp on a GPU: every one assembles for
// sm_90a, and its records hold the decompressed A where the dense A fragment layout puts it.
TEST(DenseCounterpart, ModulesAssembleAndRecordsHoldTheDecompressedA) {
  Ptxas ptxas(real_ptxas(), MMASP_PTXAS_CACHE, 1);
  const Target target = *find_target("sm_90a");
  size_t forms = 0;
  for (const auto& form : instruction_space()) {
    const auto text = dense_counterpart(form);
    if (!text) continue;
    ++forms;
    const auto result = ptxas.assemble({emit_module(*text, form.version_for(target), target), "sm_90a"});
    EXPECT_TRUE(result.accepted) << text->opcode << ": " << result.diagnostics;
    // One case whose stored A elements are all distinct codes: each must land exactly once, and zeros elsewhere.
    MmaCase test = zero_case(form);
    for (size_t x = 0; x < test.a_compressed.size(); ++x)
      test.a_compressed[x] = *encode(form.a, 1.0 + double(x % 64) / 64.0);
    const auto records = dense_records(form, {test});
    const LaneRecordLayout layout = lane_record_layout(*text);
    ASSERT_EQ(records.size(), 32u * size_t(layout.input_words));
    size_t nonzero = 0;
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < text->regs.a; ++r) {
        const uint32_t word = records[size_t(lane * layout.input_words + layout.a + r)];
        const int per = 32 / form.a_container_bits;
        for (int q = 0; q < per; ++q) nonzero += ((form.a_container_bits == 32 ? word : word >> (form.a_container_bits * q)) &
                                                  (form.a_container_bits == 32 ? 0xFFFFFFFFu : (1u << form.a_container_bits) - 1)) != 0;
      }
    EXPECT_EQ(nonzero, test.a_compressed.size()) << form.opcode << ": every stored element once, zeros elsewhere";
  }
  EXPECT_EQ(forms, 8u);   // m16n8k16 f16 -> f16, f16 -> f32, bf16; m16n8k8 tf32; .sp and ::ordered_metadata each
}

}  // namespace
}  // namespace mmasp

namespace mmasp {
namespace {

// What the dense comparison counts as the sparse semantics (F-0011): a NaN the dense instruction makes from an
// unstored zero times an Inf of B, and nothing else.
TEST(DenseCounterpart, OnlyNaNFromUnstoredZeroTimesSpecialIsExplained) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
  MmaCase test = zero_case(form);   // canonical metadata: element 0 of every chunk stored, element 1 not
  const int n = form.shape.n;
  test.a_compressed[0] = *encode(form.a, 1.0);
  test.b[size_t(1 * n + 0)] = *encode(form.b, HUGE_VAL);   // row 1 of B: an unstored column of A's row 0
  std::vector<uint32_t> sparse(size_t(form.shape.m * n), 0), dense = sparse;
  EXPECT_TRUE(differs_only_by_unstored_specials(test, sparse, dense));
  dense[0] = 0x7FFFFFFFu;   // D[0][0] NaN: explained by 0 * Inf in column 1
  EXPECT_TRUE(differs_only_by_unstored_specials(test, sparse, dense));
  dense[1] = 0x7FFFFFFFu;   // D[0][1] NaN: B column 1 has no special in an unstored row
  EXPECT_FALSE(differs_only_by_unstored_specials(test, sparse, dense));
  dense[1] = 0;
  dense[0] = 0x3F800000u;   // a finite difference is never explained
  EXPECT_FALSE(differs_only_by_unstored_specials(test, sparse, dense));
}

}  // namespace
}  // namespace mmasp

namespace mmasp {
namespace {

// A ptxas killed by a signal (out of memory, a timeout, ^C) reached no verdict: it must not be cached as a rejection.
TEST(CompileConformanceMachinery, AKilledPtxasIsNotCached) {
  const fs::path dir = fs::temp_directory_path() / ("mmasp-killed-ptxas-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path script = dir / "ptxas";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\nkill -9 $$\n";
  }
  fs::permissions(script, fs::perms::owner_all);
  PtxasInfo info = real_ptxas();
  info.path = script;
  const fs::path cache = dir / "cache";
  Ptxas ptxas(info, cache, 1);
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  const AssembleJob job{emit_module(instruction_for(form, 0), {7, 1}, *find_target("sm_80")), "sm_80"};
  const AssembleResult first = ptxas.assemble(job);
  EXPECT_FALSE(first.accepted);
  EXPECT_FALSE(first.completed);
  EXPECT_EQ(first.exit_code, 128 + 9);
  const AssembleResult second = ptxas.assemble(job);
  EXPECT_FALSE(second.from_cache) << "a killed ptxas was served from the cache";
  size_t entries = 0;
  if (fs::exists(cache))
    for (const auto& entry : fs::recursive_directory_iterator(cache)) entries += entry.is_regular_file();
  EXPECT_EQ(entries, 0u);
  fs::remove_all(dir);
}

// Issue #16: a cache entry carries a checksum; a damaged or edited one is run again, never served.
TEST(CompileConformanceMachinery, ADamagedCacheEntryIsRunAgain) {
  const fs::path cache = fs::temp_directory_path() / ("mmasp-damaged-cache-" + std::to_string(getpid()));
  fs::remove_all(cache);
  Ptxas ptxas(real_ptxas(), cache, 1);
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  const AssembleJob job{emit_module(instruction_for(form, 0), {7, 1}, *find_target("sm_80")), "sm_80"};
  ASSERT_TRUE(ptxas.assemble(job).accepted);
  ASSERT_TRUE(ptxas.assemble(job).from_cache);
  fs::path entry;
  for (const auto& file : fs::recursive_directory_iterator(cache))
    if (file.is_regular_file()) entry = file.path();
  ASSERT_FALSE(entry.empty());
  std::string text;
  {
    std::ifstream in(entry);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t at = text.find("\"exit_code\":0");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 13, "\"exit_code\":1");   // an accepted form turned into a rejection
  std::ofstream(entry) << text;
  const AssembleResult again = ptxas.assemble(job);
  EXPECT_FALSE(again.from_cache) << "an entry whose checksum does not hold was served";
  EXPECT_TRUE(again.accepted);
  EXPECT_TRUE(ptxas.assemble(job).from_cache) << "the entry was not rewritten";
  std::ofstream(entry) << "{\"exit_code\": 1, \"diagnostics\": \"\"}";   // an entry from before checksums
  EXPECT_FALSE(ptxas.assemble(job).from_cache);
  fs::remove_all(cache);
}

// Issue #16: temporary files live in a directory of the process; one left by a killed process goes the next time.
TEST(TemporaryFiles, OnlyOrphansCarryingMmaspsMarkerAreRemoved) {
  const fs::path root = fs::temp_directory_path() / ("mmasp-orphan-test-" + std::to_string(getpid()));
  fs::remove_all(root);
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);   // a pid that no longer exists
  const std::string dead = std::to_string(child);
  const auto marked = [](pid_t pid) { return "mmasp temporary directory of process " + std::to_string(pid) + "\n"; };
  struct Planted {
    fs::path dir;
    std::string marker;   // written to .mmasp-temporary; empty: none
    bool removed;
    const char* why;
  };
  const std::vector<Planted> planted = {
      {root / ("mmasp-" + dead + "-abc123"), marked(child), true, "an orphan mmasp made"},
      {root / ("mmasp-" + dead + "-nomark"), "", false, "an orphan without mmasp's marker"},
      {root / ("mmasp-" + dead + "-wrongpid"), marked(getpid()), false, "a marker naming another pid"},
      {root / ("mmasp-" + std::to_string(getpid()) + "-def456"), marked(getpid()), false, "this live process's"},
      {root / ("mmasp-" + std::to_string(getppid()) + "-ghi789"), marked(getppid()), false, "a live parent's"},
      {root / "mmasp-20261207-nightly", "", false, "a user's folder named like a date"},
      {root / "mmasp-ptxas-cache", "", false, "a directory not named mmasp-<pid>-*"},
  };
  for (const auto& p : planted) {
    fs::create_directories(p.dir);
    std::ofstream(p.dir / "input.ptx") << "x";
    if (!p.marker.empty()) std::ofstream(p.dir / ".mmasp-temporary") << p.marker;
  }
  // A link named like an orphan, to a directory holding a marker: never followed.
  const fs::path target = root / "elsewhere";
  fs::create_directories(target);
  std::ofstream(target / ".mmasp-temporary") << marked(child);
  const fs::path link = root / ("mmasp-" + dead + "-link");
  fs::create_directory_symlink(target, link);
  remove_orphaned_temporary_directories(root);
  for (const auto& p : planted) EXPECT_EQ(fs::exists(p.dir), !p.removed) << p.why << ": " << p.dir;
  EXPECT_TRUE(fs::exists(target / ".mmasp-temporary")) << "a link was followed";
  const fs::path file = write_temporary_file("payload", ".ptx");
  EXPECT_EQ(file.parent_path(), process_temporary_directory());
  EXPECT_EQ(file.extension(), ".ptx");
  EXPECT_TRUE(fs::is_regular_file(process_temporary_directory() / ".mmasp-temporary"));
  fs::remove_all(root);
}

// The watchdog's test kernels (a hang, a trap) assemble for every target a GPU run could have, so the GPU test fails
// only for what it tests.
TEST(CompileConformanceMachinery, TheWatchdogTestKernelsAssemble) {
  Ptxas ptxas(real_ptxas(), {}, 1);
  for (const char* target_name : {"sm_80", "sm_90a", "sm_120a"})
    for (ProcessFault fault : {ProcessFault::hang, ProcessFault::trap}) {
      const Target target = *find_target(target_name);
      const AssembleResult result = ptxas.assemble({process_fault_kernel(fault, target), target.name});
      EXPECT_TRUE(result.accepted) << name(fault) << " on " << target_name << ": " << result.diagnostics;
    }
}

}  // namespace
}  // namespace mmasp
