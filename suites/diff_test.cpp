// mmasp diff against the committed baselines (issue #6): injected regressions are reported, waived ones are not,
// fixes and lowering changes are listed without failing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "oracle/instruction_space.h"
#include "reports/diff.h"
#include "suites/defective_emulator.h"
#include "judge/suites.h"

namespace mmasp {
namespace {

const RunRecord& baseline() {
  static const RunRecord run = load_run_record(std::filesystem::path(MMASP_SOURCE_DIR) /
                                               "evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json");
  return run;
}

ResultRecord& result_with(RunRecord& run, const std::string& id) {
  for (auto& r : run.results)
    if (r.id == id) return r;
  throw std::logic_error("no result " + id);
}

const std::string kBf16 = "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 sel=1 special";
const std::string kInt8 = "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 sel=0 random";

TEST(Diff, ABaselineAgainstItselfHasNoChanges) {
  DiffReport report = diff_runs(baseline(), baseline(), {});
  EXPECT_TRUE(report.entries.empty());
  EXPECT_EQ(report.regressions, 0);
}

TEST(Diff, AnInjectedFailureIsARegression) {
  RunRecord run = baseline();
  ResultRecord& r = result_with(run, kInt8);
  ASSERT_EQ(r.status, Status::pass);
  r.status = Status::fail;
  r.failure = FailureRecord{"random #3", "repro: mmasp eval case.json", "s32 mismatch: expected 7, observed 8", {0, 1}, 7, 8, 0};
  DiffReport report = diff_runs(baseline(), run, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].kind, Change::new_failure);
  EXPECT_EQ(report.entries[0].id, kInt8);
  EXPECT_NE(report.entries[0].detail.find("s32 mismatch"), std::string::npos);
  EXPECT_EQ(report.regressions, 1);
}

TEST(Diff, ANewDeviationIsARegression) {
  RunRecord run = baseline();
  ResultRecord& r = result_with(run, kBf16);
  ASSERT_NE(r.status, Status::deviation);
  r.status = Status::deviation;
  DeviationRecord deviation;
  deviation.element = {3, 1};
  deviation.observed = 0x3f800001u;
  deviation.model = 0x3f800000u;
  deviation.repro = "repro: mmasp eval d.json";
  r.model = ModelTierRecord{"sm_90 bit-exact model (strict)", 10, 10, 1, 1, deviation};
  DiffReport report = diff_runs(baseline(), run, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].kind, Change::new_failure);
  EXPECT_NE(report.entries[0].detail.find("bit-exact model"), std::string::npos) << report.entries[0].detail;
  EXPECT_EQ(report.regressions, 1);
}

TEST(Diff, AWaivedRegressionIsListedButNotCounted) {
  RunRecord run = baseline();
  result_with(run, kInt8).status = Status::fail;
  std::vector<Waiver> waivers = {{"NVIDIA H100*", "580.*", "*.s32.s8.s8.s32 sel=0 random", "known driver bug", "https://example.invalid/1"}};
  DiffReport report = diff_runs(baseline(), run, waivers);
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_NE(report.entries[0].waived_by, nullptr);
  EXPECT_EQ(report.regressions, 0);
  EXPECT_EQ(report.waived, 1);
  // A waiver for another driver does not apply.
  waivers[0].driver = "575.*";
  EXPECT_EQ(diff_runs(baseline(), run, waivers).regressions, 1);
}

TEST(Diff, FixesStatusChangesAndDriftAreTold) {
  RunRecord before = baseline();
  result_with(before, kInt8).status = Status::fail;
  DiffReport fixed = diff_runs(before, baseline(), {});
  ASSERT_EQ(fixed.entries.size(), 1u);
  EXPECT_EQ(fixed.entries[0].kind, Change::fixed);
  EXPECT_EQ(fixed.regressions, 0);

  RunRecord run = baseline();
  ResultRecord& r = result_with(run, kBf16);
  const Status old_status = r.status;
  r.status = Status::quality_warning;
  r.max_error_vs_bound = 0.95;
  r.max_error_ulps = r.max_error_ulps * 10 + 10;
  DiffReport report = diff_runs(baseline(), run, {});
  int status_changes = 0, drifts = 0;
  for (const auto& e : report.entries) {
    status_changes += e.kind == Change::status_change;
    drifts += e.kind == Change::numeric_drift;
  }
  EXPECT_EQ(status_changes, old_status == Status::quality_warning ? 0 : 1);
  EXPECT_GE(drifts, 1);
  EXPECT_GE(report.regressions, 1);
}

// Moving among the statuses that judge nothing is no regression; from Pass to any of them is one (same cases).
TEST(Diff, StatusChangesAreRankedBySeverity) {
  RunRecord then = baseline(), now = baseline();
  result_with(then, kInt8).status = Status::not_supported;
  result_with(now, kInt8).status = Status::ub_not_judged;
  EXPECT_EQ(diff_runs(then, now, {}).regressions, 0);
  EXPECT_EQ(diff_runs(baseline(), now, {}).regressions, 1);
  EXPECT_EQ(diff_runs(now, baseline(), {}).regressions, 0);
}

// With different cases (another seed, or generators that changed), Pass/QualityWarning flips and drift are sampling;
// a failure is a failure on any valid case.
TEST(Diff, DifferentCasesDoNotMakeSamplingARegression) {
  RunRecord before = baseline(), run = baseline();
  before.run.case_streams = "00000000000000aa";
  run.run.case_streams = "00000000000000bb";
  ResultRecord& r = result_with(run, kBf16);
  r.status = Status::quality_warning;
  r.max_error_vs_bound = 0.95;
  r.max_error_ulps = r.max_error_ulps * 10 + 10;
  result_with(run, kInt8).status = Status::fail;
  // Issue #32: runs of different generators are refused outright ...
  const DiffReport refused = diff_runs(before, run, {});
  ASSERT_TRUE(refused.refused());
  EXPECT_TRUE(refused.entries.empty());
  ASSERT_EQ(refused.incomparable.size(), 1u);
  EXPECT_EQ(refused.incomparable[0].what, Difference::case_streams);
  // ... unless the difference is accepted (--allow-different cases): then sampling is told from regressions.
  DiffReport report = diff_runs(before, run, {}, BitsMode::strict, {Difference::case_streams});
  EXPECT_FALSE(report.refused());
  EXPECT_EQ(report.same_cases, SameCases::no);
  EXPECT_NE(report.cases_detail.find("generators changed"), std::string::npos);
  int drifts = 0;
  for (const auto& e : report.entries) {
    if (e.kind == Change::numeric_drift || e.kind == Change::status_change) {
      ++drifts;
      EXPECT_FALSE(e.regression) << name(e.kind) << " " << e.id;
      EXPECT_NE(e.detail.find("different cases"), std::string::npos);
    }
  }
  EXPECT_GE(drifts, 1);
  EXPECT_EQ(report.regressions, 1) << "the new Fail still counts";

  // The same identity and seed: the same drift is a regression again.
  before.run.case_streams = "00000000000000bb";
  DiffReport same = diff_runs(before, run, {});
  EXPECT_EQ(same.same_cases, SameCases::yes);
  EXPECT_GE(same.regressions, 2);

  // Another seed: different cases even without identities.
  RunRecord other_seed = baseline();
  other_seed.run.seed = 99;
  EXPECT_EQ(diff_runs(baseline(), other_seed, {}).same_cases, SameCases::no);
  // A baseline from before the identity was recorded: assumed the same, and said so.
  RunRecord old = baseline();
  old.run.case_streams.clear();
  EXPECT_EQ(diff_runs(old, run, {}).same_cases, SameCases::unknown);
  EXPECT_NE(format_diff(diff_runs(old, run, {}), old, run).find("does not record its case streams"), std::string::npos);
}

// A budget run judges a prefix (or an extension) of another run's cases: its QualityWarnings beyond the baseline's
// cases are sampling too.
TEST(Diff, ADifferentNumberOfCasesIsSampling) {
  RunRecord run = baseline();
  ResultRecord& r = result_with(run, kBf16);
  r.status = Status::quality_warning;
  r.max_error_vs_bound = 0.95;
  r.cases *= 5;
  DiffReport report = diff_runs(baseline(), run, {});
  EXPECT_EQ(report.regressions, 0);
  bool told = false;
  for (const auto& e : report.entries) told |= e.detail.find(" cases)") != std::string::npos;
  EXPECT_TRUE(told);
  RunRecord base = baseline();
  r.cases = result_with(base, kBf16).cases;   // the baseline's count again: then it is a regression
  EXPECT_GE(diff_runs(baseline(), run, {}).regressions, 1);
}

TEST(Diff, CompileAndLoweringChanges) {
  RunRecord run = baseline();
  ASSERT_TRUE(run.compile.has_value());
  CompileCell& cell = run.compile->matrix[0].cells["sm_90a"];
  ASSERT_EQ(cell.expected, Expected::accept);
  cell.observed = Observed::reject;
  run.sass[0].mma = {"HMMA.16816.F32"};
  DiffReport report = diff_runs(baseline(), run, {});
  int compile = 0, sass = 0;
  for (const auto& e : report.entries) {
    if (e.kind == Change::compile_change) {
      ++compile;
      EXPECT_TRUE(e.regression) << "an accept that turns into a reject disagrees with the catalog";
    }
    if (e.kind == Change::sass_change) {
      ++sass;
      EXPECT_FALSE(e.regression);
    }
  }
  EXPECT_EQ(compile, 1);
  EXPECT_EQ(sass, 1);
}

// Issue #29: a result the run does not have was not checked, so a gate must not pass over it.
TEST(Diff, AMissingJudgedResultIsARegression) {
  RunRecord run = baseline();
  const auto judged = std::find_if(run.results.begin(), run.results.end(), [](const ResultRecord& r) { return r.status == Status::pass; });
  ASSERT_NE(judged, run.results.end());
  const std::string id = judged->id;
  run.results.erase(judged);
  DiffReport report = diff_runs(baseline(), run, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].kind, Change::missing);
  EXPECT_EQ(report.entries[0].id, id);
  EXPECT_TRUE(report.entries[0].regression);
  EXPECT_EQ(report.regressions, 1);
}

// ... but a result that judged nothing in the baseline either (a UB suite, a NotSupported pair) is only listed.
TEST(Diff, AMissingUnjudgedResultIsListedOnly) {
  RunRecord run = baseline();
  const auto unjudged = std::find_if(run.results.begin(), run.results.end(),
                                     [](const ResultRecord& r) { return r.status == Status::ub_not_judged; });
  ASSERT_NE(unjudged, run.results.end());
  run.results.erase(unjudged);
  DiffReport report = diff_runs(baseline(), run, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_FALSE(report.entries[0].regression);
}

// A run of one shard leaves out the other shards' forms by design (the split is by form, in catalog order): those are
// listed, not counted; a form of its own shard that is missing still counts.
TEST(Diff, TheShardLayoutExplainsMissingResultsOfOtherShards) {
  std::vector<std::string> forms;   // the baseline's forms in catalog order
  for (const auto& form : instruction_space())
    for (const auto& r : baseline().results)
      if (r.form == form.opcode) {
        forms.push_back(form.opcode);
        break;
      }
  ASSERT_GE(forms.size(), 4u);
  RunRecord shard = baseline();
  shard.run.shard = "2/4";
  std::erase_if(shard.results, [&](const ResultRecord& r) {
    return std::find(forms.begin(), forms.end(), r.form) - forms.begin() != 1 &&
           (std::find(forms.begin(), forms.end(), r.form) - forms.begin()) % 4 != 1;
  });
  DiffReport report = diff_runs(baseline(), shard, {});
  EXPECT_EQ(report.regressions, 0);
  EXPECT_GT(report.entries.size(), 0u);
  // The same shard missing one of its own forms' results.
  const auto own = std::find_if(shard.results.begin(), shard.results.end(), [](const ResultRecord& r) { return !is_skipped(r.status); });
  ASSERT_NE(own, shard.results.end());
  const std::string id = own->id;
  shard.results.erase(own);
  report = diff_runs(baseline(), shard, {});
  EXPECT_EQ(report.regressions, 1) << id;
  // Merged shards that are not all there explain nothing.
  shard.run.shard = "merged 1 of 4";
  report = diff_runs(baseline(), shard, {});
  EXPECT_GT(report.regressions, 1);
}

// Issue #16: a run that judged nothing used to diff clean.
TEST(Diff, ARunWithNoResultsIsARegression) {
  RunRecord run = baseline();
  run.results.clear();
  DiffReport report = diff_runs(baseline(), run, {});
  EXPECT_GE(report.regressions, 1);
  EXPECT_EQ(report.entries.front().kind, Change::no_results);
}

TEST(Diff, WaiverFilesAreChecked) {
  const auto path = std::filesystem::temp_directory_path() / "mmasp-waivers-test.json";
  auto rejects = [&](const std::string& text, const std::string& message_part) {
    std::ofstream(path) << text;
    try {
      load_waivers(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find(message_part), std::string::npos) << error.what();
    }
  };
  // Issue #72: each way a waiver could waive what it does not name, refused with the field it is in.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {R"({"form": "*tf32*", "link": "x"})", "/waivers/0/reason: every waiver needs a reason"},
      {R"({"reason": "flaky"})", "/waivers/0/form: missing"},
      {R"({"form": "*", "reason": "flaky"})", "/waivers/0/form: the glob '*' matches every form"},
      {R"({"form": "mma*", "reason": "flaky"})", "matches every form"},
      {R"({"form": "* sel=0 *", "reason": "flaky"})", "matches every form"},
      {R"({"form": "*\u0000 only m16n8k32", "reason": "flaky"})", "/waivers/0/form: the glob '*\\x00 only m16n8k32' holds the control character"},
      {R"({"form": "*tf32*", "device": "A\u001b[31m", "reason": "flaky"})", "/waivers/0/device: the glob"},
      {R"({"form": "*tf32*", "reason": "\u200b"})", "/waivers/0/reason: every waiver needs a reason with visible text"},
      {R"({"form": "*tf32*", "reason": " \u00a0\ufeff\t"})", "visible text"},
      // A misspelled key would otherwise leave "device" at "*" and waive every device.
      {R"({"devcie": "A100*", "form": "*tf32*", "reason": "r"})", "/waivers/0/devcie: unknown key"},
      {R"({"form": "*[", "reason": "r"})", "without its ']'"},
      {R"({"form": "*tf32*", "driver": 580, "reason": "r"})", "/waivers/0/driver: a string"},
  };
  for (const auto& [waiver, message] : refused)
    rejects(R"({"schema": "mmasp-waivers/1", "waivers": [)" + waiver + "]}", message);
  rejects(R"({"schema": "mmasp-waivers/1", "waiver": []})", "/waiver: unknown key");
  std::ofstream(path) << R"({"schema": "mmasp-waivers/1", "waivers": [{"device": "NVIDIA*", "form": "*tf32*", "reason": "r", "link": "l"}]})";
  auto waivers = load_waivers(path);
  ASSERT_EQ(waivers.size(), 1u);
  EXPECT_EQ(waivers[0].driver, "*");
  std::filesystem::remove(path);
}

// Issue #72: a run that was interrupted, judged nothing, or lacks checks the baseline made is never waived, whatever
// the waivers say; the same regressions of results are.
TEST(Diff, IncompleteRunsAndMissingChecksAreNeverWaivable) {
  const std::string path = (std::filesystem::temp_directory_path() / "mmasp-waivers-broad.json").string();
  std::ofstream(path) << R"({"schema": "mmasp-waivers/1", "waivers": [{"form": "*m16n8k16*", "reason": "every k16 form"}]})";
  const auto waivers = load_waivers(path);
  std::filesystem::remove(path);
  RunRecord interrupted = baseline();
  interrupted.results.resize(1);
  interrupted.run.interrupted = Interruption{15, "SIGTERM", 1, 8};
  DiffReport report = diff_runs(baseline(), interrupted, waivers);
  EXPECT_GE(report.regressions, 2) << format_diff(report, baseline(), interrupted);
  bool interruption_counted = false;
  for (const auto& e : report.entries) {
    if (e.kind == Change::interrupted) interruption_counted = e.regression && !e.waived_by;
    if (e.kind == Change::missing && e.regression) EXPECT_EQ(e.waived_by, nullptr) << e.id;
  }
  EXPECT_TRUE(interruption_counted);
  RunRecord empty = baseline();
  empty.results.clear();
  report = diff_runs(baseline(), empty, waivers);
  ASSERT_FALSE(report.entries.empty());
  EXPECT_EQ(report.entries.front().kind, Change::no_results);
  EXPECT_EQ(report.entries.front().waived_by, nullptr);
  EXPECT_GE(report.regressions, 1);
}

// Issue #72: checks the baseline made and the run did not: compile conformance, a target, compile cells, layout probes.
TEST(Diff, MissingCompileRowsTargetsAndLayoutProbesAreRegressions) {
  RunRecord base = baseline();
  CompileRecord compile;
  compile.cases = 4;
  compile.targets = {"sm_80", "sm_90a"};
  CompileMatrixRow row{"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 0, {}};
  row.cells["sm_80"] = CompileCell{};
  row.cells["sm_90a"] = CompileCell{};
  CompileMatrixRow other = row;
  other.selector = 1;
  compile.matrix = {row, other};
  base.compile = compile;
  LayoutRecord layout;
  layout.form = row.form;
  layout.verified = true;
  base.layouts = {layout};
  const auto kinds = [](const DiffReport& report) {
    std::vector<std::string> ids;
    for (const auto& e : report.entries)
      if (e.kind == Change::missing_check && e.regression && !e.waived_by) ids.push_back(e.id);
    return ids;
  };
  RunRecord same = base;
  EXPECT_TRUE(kinds(diff_runs(base, same, {})).empty());
  RunRecord no_compile = base;
  no_compile.compile.reset();
  EXPECT_EQ(kinds(diff_runs(base, no_compile, {})), std::vector<std::string>{"compile conformance"});
  RunRecord one_target = base;
  one_target.compile->targets = {"sm_90a"};
  for (auto& r : one_target.compile->matrix) r.cells.erase("sm_80");
  EXPECT_EQ(kinds(diff_runs(base, one_target, {})), std::vector<std::string>{"compile sm_80"});
  RunRecord fewer_rows = base;
  fewer_rows.compile->matrix.pop_back();
  EXPECT_EQ(kinds(diff_runs(base, fewer_rows, {})), std::vector<std::string>{"compile matrix"});
  RunRecord no_probes = base;
  no_probes.layouts.clear();
  EXPECT_EQ(kinds(diff_runs(base, no_probes, {})), std::vector<std::string>{"layout probes"});
}

// Issue #14: the bits of D. The emulator with one case's D[0][0] one unit off (case 1500 of the random suite): the
// digests differ, `mmasp diff` names the chunk of cases 1024-2047 and counts a regression; a clean rerun is clean.
TEST(Diff, ABitChangeInOneCaseIsFoundThroughTheDigestsAndLocated) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  SuiteLimits limits;
  limits.min_cases = limits.max_cases = 3000;
  limits.replays = 0;   // the flip is deterministic per launch; no replay should hide it or count it
  const auto random_result = [&](Backend& backend) {
    SuiteContext context{backend, 5, 2, "", {}};
    RunRecord run;
    run.run.seed = 5;
    run.run.case_streams = "same";
    run.results.push_back(record_of(run_suite(context, form, 0, Suite::random, limits)));
    return run;
  };
  EmulatorBackend clean_backend;
  FlippingEmulator off_backend("emulator, case 1500 one unit off (test)", 1, [](int, uint64_t index) { return index == 1500; });
  const RunRecord clean = random_result(clean_backend), again = random_result(clean_backend), off = random_result(off_backend);
  ASSERT_TRUE(clean.results[0].digest);
  EXPECT_EQ(clean.results[0].digest->cases, 3000u);
  EXPECT_EQ(clean.results[0].digest->chunks.size(), 2u) << "two complete chunks of 1024 cases";
  EXPECT_EQ(clean.results[0].digest->all, again.results[0].digest->all) << "the same cases gave other digests";
  EXPECT_NE(clean.results[0].digest->all, off.results[0].digest->all);
  EXPECT_EQ(clean.results[0].digest->chunks[0], off.results[0].digest->chunks[0]) << "chunk 0 (cases 0-1023) is untouched";
  EXPECT_NE(clean.results[0].digest->chunks[1], off.results[0].digest->chunks[1]);

  const DiffReport same = diff_runs(clean, again, {});
  EXPECT_EQ(same.regressions, 0);
  for (const auto& e : same.entries) EXPECT_NE(e.kind, Change::bits_changed);
  // The unit off may also move the status or the max error (other entries); the bits entry is what is tested here.
  const auto bits_entries = [](const DiffReport& report) {
    std::vector<DiffEntry> out;
    for (const auto& e : report.entries)
      if (e.kind == Change::bits_changed) out.push_back(e);
    return out;
  };
  const DiffReport strict = diff_runs(clean, off, {});
  const auto strict_bits = bits_entries(strict);
  ASSERT_EQ(strict_bits.size(), 1u) << format_diff(strict, clean, off);
  EXPECT_TRUE(strict_bits[0].regression);
  EXPECT_NE(strict_bits[0].detail.find("cases 1024–2047 (chunk 1)"), std::string::npos) << strict_bits[0].detail;
  EXPECT_GE(strict.regressions, 1);
  const auto warn_bits = bits_entries(diff_runs(clean, off, {}, BitsMode::warn));
  ASSERT_EQ(warn_bits.size(), 1u);
  EXPECT_FALSE(warn_bits[0].regression);
  EXPECT_TRUE(bits_entries(diff_runs(clean, off, {}, BitsMode::off)).empty());
  // Other cases (another seed): bits are not compared at all.
  RunRecord other_seed = off;
  other_seed.run.seed = 6;
  for (const auto& e : diff_runs(clean, other_seed, {}).entries) EXPECT_NE(e.kind, Change::bits_changed);
  // The digest survives run.json.
  const ResultRecord back = result_record_from_json(to_json(off.results[0]));
  ASSERT_TRUE(back.digest);
  EXPECT_EQ(back.digest->chunks, off.results[0].digest->chunks);
}

}  // namespace
}  // namespace mmasp

namespace mmasp {
namespace {

// Issue #71: a pair whose stream detects fewer of its datapath's faults than the baseline's did is a regression, and
// a pair whose coverage the run did not measure is a missing check; the same coverage, or more, is no change.
TEST(Diff, ACoverageDropIsARegression) {
  RunRecord before = baseline(), after = baseline();
  PairCoverageRecord full;
  full.faults = 2202;
  full.detectable = full.detected = 2201;
  full.percent = 100;
  result_with(before, kInt8).coverage = full;
  result_with(after, kInt8).coverage = full;
  EXPECT_TRUE(diff_runs(before, after, {}).entries.empty());

  PairCoverageRecord lower = full;
  lower.detected = 2199;
  lower.percent = 100.0 * 2199 / 2201;
  lower.not_detected = {"sum.bit31.sa0 (block sum)", "normalise.bit4.sa0 (rounding)"};
  result_with(after, kInt8).coverage = lower;
  DiffReport report = diff_runs(before, after, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].kind, Change::coverage_drop);
  EXPECT_NE(report.entries[0].detail.find("sum.bit31.sa0"), std::string::npos);
  EXPECT_EQ(report.regressions, 1);
  // The other way round it is no regression.
  EXPECT_EQ(diff_runs(after, before, {}).regressions, 0);

  result_with(after, kInt8).coverage.reset();
  report = diff_runs(before, after, {});
  ASSERT_EQ(report.entries.size(), 1u);
  EXPECT_EQ(report.entries[0].kind, Change::missing_check);
  EXPECT_FALSE(report.entries[0].waivable);
}

}  // namespace
}  // namespace mmasp
