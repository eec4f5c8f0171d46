// The typed run record (reports/run_record.h): run.json is its one JSON mapping. The committed baselines must load
// and write back unchanged; a malformed run.json is an error that names the JSON pointer of what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "reports/run_record.h"

namespace mmasp {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kBaselines[] = {"h100-sm90-driver580.159.04-cases10000", "h100-sm90-driver580.159.04-budget60"};

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// The message of the RunRecordError a document raises, or "" when it reads.
std::string error_of(const json& document) {
  try {
    run_record_from_json(document);
  } catch (const RunRecordError& error) {
    return error.what();
  }
  return "";
}

fs::path baseline_path(const char* name) { return fs::path(MMASP_SOURCE_DIR) / "evidence/baselines" / name / "run.json"; }

TEST(RunRecord, CommittedBaselinesReadAndWriteBackUnchanged) {
  for (const char* name : kBaselines) {
    const json original = read_json(baseline_path(name));
    const RunRecord record = load_run_record(baseline_path(name));
    EXPECT_EQ(record.results.size(), original["results"].size());
    json written = to_json(record);
    // "summary" is derived (and the baselines predate the Deviation status): every count they hold is the same.
    for (const auto& [status, count] : original["summary"].items()) EXPECT_EQ(written["summary"][status], count) << status;
    json expected = original;
    expected.erase("summary");
    written.erase("summary");
    EXPECT_EQ(written, expected) << name << ": " << json::diff(expected, written).dump().substr(0, 2000);
  }
}

TEST(RunRecord, StatusCountsAndExitCodeComeFromTheTypedStatus) {
  RunRecord record = load_run_record(baseline_path(kBaselines[0]));
  EXPECT_EQ(exit_code_for(record), 0);
  const uint64_t passes = count_of(record, Status::pass);
  ASSERT_GT(passes, 0u);
  record.results.front().status = Status::timeout;
  EXPECT_EQ(exit_code_for(record), 1);
  uint64_t total = 0;
  for (const auto& [status, count] : status_counts(record)) total += count;
  EXPECT_EQ(total, record.results.size());
  record.results.front().status = Status::pass;
  record.layouts.front().verified = false;
  EXPECT_EQ(exit_code_for(record), 1) << "a layout probe that disagreed fails the run";
}

TEST(RunRecord, ErrorsNameTheJsonPointer) {
  const json good = read_json(baseline_path(kBaselines[1]));
  json bad = good;
  bad["results"][3].erase("status");
  EXPECT_NE(error_of(bad).find("/results/3/status"), std::string::npos) << error_of(bad);
  bad = good;
  bad["results"][5]["status"] = "Passed";
  EXPECT_NE(error_of(bad).find("/results/5/status: unknown status \"Passed\""), std::string::npos) << error_of(bad);
  bad = good;
  bad["results"][0]["cases"] = -3;
  EXPECT_NE(error_of(bad).find("/results/0/cases: a whole number >= 0"), std::string::npos) << error_of(bad);
  bad = good;
  bad["run"]["seed"] = "1";
  EXPECT_NE(error_of(bad).find("/run/seed"), std::string::npos) << error_of(bad);
  bad = good;
  bad["schema"] = "mmasp-compile/1";
  EXPECT_NE(error_of(bad).find("/schema"), std::string::npos) << error_of(bad);
  bad = good;
  bad["compile_matrix"]["matrix"][2]["cells"]["sm_90a"]["observed"] = 1;
  EXPECT_NE(error_of(bad).find("/compile_matrix/matrix/2/cells/sm_90a/observed"), std::string::npos) << error_of(bad);
  EXPECT_EQ(error_of(good), "");
}

TEST(RunRecord, ATruncatedFileIsCalledTruncated) {
  const fs::path path = fs::temp_directory_path() / "mmasp-truncated-run.json";
  std::ifstream in(baseline_path(kBaselines[1]));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(path) << text.substr(0, text.size() / 2);
  try {
    load_run_record(path);
    ADD_FAILURE() << "a truncated run.json was read";
  } catch (const RunRecordError& error) {
    EXPECT_NE(std::string(error.what()).find("truncated"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
  }
  EXPECT_THROW(load_run_record(fs::temp_directory_path()), RunRecordError) << "a directory";
  fs::remove(path);
}

// Two runs of the same work compare equal without what says when, where and how long they ran — the --out directory
// in repro lines included — and unequal for any change of a result (mmasp diff --identical, the resume tests).
TEST(RunRecord, VolatileFieldsAsideTwoRunsOfTheSameWorkAreEqual) {
  RunRecord a;
  a.run.started = "2026-11-23T10:00:00Z";
  a.run.seconds = 12;
  a.run.command = "mmasp run --out one";
  ResultRecord result;
  result.id = "x sel=0 random";
  result.status = Status::quality_warning;
  result.seconds = 1.5;
  result.closest_to_bound = ClosestToBound{"repro: mmasp eval /tmp/one/failures/../closest-to-bound/case-42.json   # note", "", {}, 1};
  a.results = {result};
  RunRecord b = a;
  b.run.started = "2026-11-24T10:00:00Z";
  b.run.seconds = 99;
  b.run.command = "mmasp run --out two --resume";
  b.run.resumed = 2;
  b.run.clocks = summarise_clocks({{1410, kClockSoftwarePowerCap, 80}}, 1980);   // no two runs' clocks are the same
  b.results[0].seconds = 7;
  b.results[0].closest_to_bound->repro = "repro: mmasp eval /elsewhere/two/failures/../closest-to-bound/case-42.json   # note";
  EXPECT_EQ(without_volatile_fields(to_json(a)), without_volatile_fields(to_json(b)));
  RunRecord c = b;
  c.results[0].closest_to_bound->repro = "repro: mmasp eval /tmp/one/failures/../closest-to-bound/case-43.json   # note";
  EXPECT_NE(without_volatile_fields(to_json(a)), without_volatile_fields(to_json(c))) << "another case file";
  RunRecord d = b;
  d.results[0].status = Status::pass;
  EXPECT_NE(without_volatile_fields(to_json(a)), without_volatile_fields(to_json(d)));
  RunRecord e = b;
  e.run.seed = 2;
  EXPECT_NE(without_volatile_fields(to_json(a)), without_volatile_fields(to_json(e)));
}

}  // namespace
}  // namespace mmasp

namespace mmasp {

// run.json is one declaration per type (reports/run_record.cpp): a record with every optional part set writes every
// key once and reads back to the same document; what is empty is left out where the schema says so.
TEST(RunRecord, EveryOptionalPartWritesAndReadsBack) {
  RunRecord run;
  run.run.seed = 9;
  run.run.model_tier = "strict";
  run.run.resumed = 2;
  run.run.interrupted = Interruption{15, "SIGTERM", 3, 7};
  run.run.phase_seconds["random suites"] = 1.5;
  run.run.clocks = summarise_clocks({{1980, 0, 70}, {1155, kClockSoftwareThermal, 88}, {345, kClockIdle, 60}}, 1980);
  run.environment.device = DeviceFingerprint{"GPU", 90, "uuid", 13000, "580.1", true, 1, 2, 3, 4};
  run.environment.compile_paths = "toolkit,driver-jit";
  CompileRecord compile;
  compile.cases = 3;
  compile.by_target["sm_90a"] = {3, 2, 1, 0, 0};
  compile.disagreements.push_back({"reject/x@sm_90a", "sm_90a", Expected::reject, Observed::accept, "why", "", "F-0001"});
  compile.disagreements.push_back({"reject/y@sm_90a", "sm_90a", Expected::reject, Observed::accept, "why", "", ""});
  compile.targets = {"sm_90a"};
  compile.matrix.push_back({"mma.sp.x", 0, {{"sm_90a", {Expected::accept, Observed::not_run, "8.8"}}}});
  run.compile = compile;
  run.findings.push_back({"F-0001", "compile", "title"});
  ResultRecord r = result_record("mma.sp.x", 1, Suite::special, Status::deviation, "gpu", "a note");
  r.failing_special_cases = {"inf"};
  r.special_cases["inf"] = Status::fail;
  r.ub_unordered_like_sp = UbObservation{4, 3};
  r.out_of_range_selectors["5"] = "trapped";
  r.closest_to_bound = ClosestToBound{"mmasp eval c.json", "near", {1, 2}, 0.5};
  r.model = ModelTierRecord{"strict", 1, 2, 3, 4, DeviationRecord{"c", "mmasp eval d.json", {0, 1}, 5, 6, 3, 1, 2, Status::pass}};
  r.failure = FailureRecord{"f", "mmasp eval f.json", "why", {2, 3}, 7, 8, 1};
  r.intermittent = IntermittentRecord{"i", "mmasp eval i.json", {3, 4}, 9, 10, 1, 2, 3};
  r.digest = DigestRecord{2048, 1024, "0123456789abcdef", {"0123456789abcdef", "fedcba9876543210"}};
  r.resident = ResidentRecord{10, 10, 100, 100, 3, 2, 1, 2, 0.25, 0.125};
  r.planned = PlannedShare{5, 0.25, 1.5};
  run.results.push_back(r);
  run.results.push_back(result_record("mma.sp.x", 1, Suite::random, Status::pass, "gpu"));
  run.layouts.push_back({"mma.sp.x", 1, false, {{"A", 4, 3, {"[0,1]"}}}, "probe failed"});
  run.sass.push_back(SassRecord{"mma.sp.x", "toolkit", 1, std::nullopt, {"HMMA.SP"}, true, 12, false, "lowered twice"});
  run.sass.push_back(SassRecord{"mma.sp.x", "driver-jit", 1, std::string("no cubin"), {}, false, 0, true, ""});
  run.compile_paths.push_back({"mma.sp.x", 1, 100, 0, true, "same"});

  const json written = to_json(run);
  EXPECT_EQ(to_json(run_record_from_json(written)), written) << written.dump(1);
  const json& result = written["results"][0];
  for (const char* key : {"note", "failing_special_cases", "special_cases", "ub_unordered_like_sp", "out_of_range_selectors",
                          "closest_to_bound", "model", "failure", "intermittent", "digest", "resident", "planned"})
    EXPECT_TRUE(result.contains(key)) << key;
  EXPECT_EQ(result["resident"]["host_seconds"], 0.125);
  EXPECT_EQ(result["planned"]["share"], 0.25);
  EXPECT_EQ(result["model"]["deviation"]["spec_status"], "Pass");
  EXPECT_EQ(result["suite"], "special");
  // Left out when empty, or null where the schema says null.
  const json& bare = written["results"][1];
  for (const char* key : {"note", "failing_special_cases", "special_cases", "model", "failure", "digest", "resident", "planned"})
    EXPECT_FALSE(bare.contains(key)) << key;
  EXPECT_TRUE(written["compile"]["disagreements"][1]["finding"].is_null());
  EXPECT_EQ(written["compile"]["disagreements"][0]["finding"], "F-0001");
  EXPECT_TRUE(written["compile"]["ptxas"]["max_ptx"].is_null());
  EXPECT_EQ(written["compile"]["by_target"]["sm_90a"]["documented_disagreements"], 1);
  EXPECT_EQ(written["compile_matrix"]["matrix"][0]["cells"]["sm_90a"]["observed"], "not_run");
  EXPECT_EQ(written["run"]["mmasp"].size(), 2u);
  EXPECT_EQ(written["run"]["resumed"], 2);
  EXPECT_EQ(written["run"]["interrupted"]["signal_name"], "SIGTERM");
  EXPECT_EQ(written["run"]["clocks"], clock_json(*run.run.clocks)) << "the screen's verdicts write the same object";
  EXPECT_EQ(written["run"]["clocks"]["busy"], 2);
  EXPECT_EQ(written["run"]["clocks"]["thermal"], 1);
  EXPECT_EQ(written["run"]["clocks"]["mean_mhz"], (1980.0 + 1155) / 2);
  json slowed_beyond_busy = written;
  slowed_beyond_busy["run"]["clocks"]["thermal"] = 3;
  EXPECT_NE(error_of(slowed_beyond_busy).find("/run/clocks/busy"), std::string::npos) << error_of(slowed_beyond_busy);
  // A SASS record that could not be read holds its error and nothing else.
  EXPECT_FALSE(written["sass"][1].contains("mma"));
  EXPECT_EQ(written["sass"][1]["error"], "no cubin");
  EXPECT_EQ(written["sass"][0]["note"], "lowered twice");
  EXPECT_FALSE(written["layouts"].empty());
  EXPECT_EQ(written["layouts"][0]["error"], "probe failed");

  // A compile record without per-target counts (an older run.json) writes neither by_target nor disagreements.
  RunRecord older = run;
  older.compile->by_target.clear();
  const json old_written = to_json(older);
  EXPECT_FALSE(old_written["compile"].contains("by_target"));
  EXPECT_FALSE(old_written["compile"].contains("disagreements"));
  // Zero resumptions are not written; an absent seed reads as 1.
  RunRecord fresh;
  json fresh_written = to_json(fresh);
  EXPECT_FALSE(fresh_written["run"].contains("resumed"));
  fresh_written["run"].erase("seed");
  EXPECT_EQ(run_record_from_json(fresh_written).run.seed, 1u);
}

namespace {

// The resident path's counts (results[].resident) must add up; the committed H100 --budget 60 baseline, which judged
// every pair's random suite on the resident path, reads and writes back unchanged.
TEST(RunRecord, ResidentCountsMustAddUp) {
  const fs::path run = baseline_path("h100-sm90-driver580.159.04-budget60");
  const json good = read_json(run);
  const RunRecord record = run_record_from_json(good);
  size_t with_resident = 0;
  for (const auto& result : record.results) {
    if (!result.resident) continue;
    ++with_resident;
    EXPECT_EQ(result.cases, result.resident->host_sample + result.resident->checked) << result.id;
  }
  EXPECT_EQ(with_resident, 152u);
  json written = to_json(record), expected = good;
  EXPECT_EQ(written["summary"], expected["summary"]);
  EXPECT_EQ(written, expected) << json::diff(expected, written).dump().substr(0, 2000);
  size_t at = 0;
  while (!good["results"][at].contains("resident")) ++at;
  const std::string pointer = "/results/" + std::to_string(at) + "/resident/";
  json bad = good;
  bad["results"][at]["resident"]["checked"] = good["results"][at]["resident"]["generated"].get<uint64_t>() - 1;
  EXPECT_NE(error_of(bad).find(pointer + "checked: a count equal to generated"), std::string::npos) << error_of(bad);
  bad = good;
  bad["results"][at]["resident"]["deviating"] = 3;
  EXPECT_NE(error_of(bad).find(pointer + "deviating"), std::string::npos) << error_of(bad);
  bad = good;
  bad["results"][at]["resident"]["replayed"] = 1;
  EXPECT_NE(error_of(bad).find(pointer + "replayed"), std::string::npos) << error_of(bad);
}

}  // namespace
}  // namespace mmasp
