// The screen verdict's typed record (reports/screen_record.h): what is written reads back the same, with the keys
// docs/screening.md names, and a verdict that is not one is refused naming the JSON pointer of what is wrong.
#include "reports/screen_record.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace mmasp;
using nlohmann::json;

ScreenRecord a_failing_verdict() {
  ScreenRecord r;
  r.commit = "0123abc";
  r.case_streams = "streams-1";
  r.path = "gpu-resident";
  r.seed = 7;
  r.budget_seconds = 10;
  r.verdict = ScreenVerdict::fail;
  r.seconds = 10.4;
  r.device = ScreenDevice{1, "NVIDIA H100 80GB HBM3", "GPU-1234", std::nullopt, 90, "580.159.04", 13000, true};
  r.warnings = {"a warning"};
  r.model_source = "the built-in table";
  r.image = "sm_90a cubin";
  r.pairs_without_model = 0;
  r.pairs_not_in_image = 2;
  r.compact_sets = ScreenCompactSets{"evidence/compact-sets/sm_90", "toolkit", 1, 1, 36, 3, 0.3, 0.1, 0.45};
  r.clocks = ScreenClocks{ClockReport{20, 18, 1980, 1975.5, 1900, 0, 0, 61}, false, "SM clock 1,976 of 1,980 MHz"};
  r.coverage = ScreenCoverage{"stuck-at coverage 100.00 % of 10 detectable faults", 10, 10, 0.2, "docs/coverage.md",
                              "stuck-at coverage 90.00 % of 10 detectable faults"};
  r.pairs_screened = 2;
  r.cases = 1000;
  r.deviating_cases = 4;
  ScreenPair first{"mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 0, 36, 3, 600, 4, std::nullopt};
  first.coverage = ScreenPairCoverage{"stuck-at coverage 100.00 % of 10 detectable faults",
                                      100,
                                      "compact set + 600 random",
                                      {},
                                      "stuck-at coverage 90.00 % of 10 detectable faults"};
  r.pairs = {
      first,
      {"mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 0, std::nullopt, std::nullopt, 400, 0, std::nullopt}};
  ScreenDeviation compact;
  compact.form = first.form;
  compact.step = "compact set";
  compact.status = "Fail";
  compact.case_index = 5;
  compact.repro = "cases-gpu1/a.json";
  ScreenDeviation resident;
  resident.form = first.form;
  resident.step = "resident";
  resident.stream_seed = 99;
  resident.deviating = 4;
  resident.indices = {3, 17, 250, 511};
  resident.repro_error = "disk full";
  r.deviations = {compact, resident};
  return r;
}

TEST(ScreenRecord, AVerdictReadsBackAsItWasWritten) {
  const json written = screen_json(a_failing_verdict());
  EXPECT_EQ(written["schema"], kScreenSchema);
  EXPECT_EQ(written["verdict"], "fail");
  EXPECT_EQ(written["mmasp"]["commit"], "0123abc");
  EXPECT_TRUE(written["device"]["serial"].is_null()) << "a GPU without a serial says so";
  EXPECT_EQ(written["deviations"][0]["case"], 5);
  EXPECT_EQ(written["deviations"][1]["indices"].size(), 4u);
  EXPECT_FALSE(written["deviations"][0].contains("indices"));
  EXPECT_EQ(written["clocks"]["mean_mhz"], 1975.5);
  EXPECT_EQ(written["clocks"]["slowed"], false);
  EXPECT_EQ(written["pairs"][1]["cases"], 400);
  EXPECT_FALSE(written["pairs"][1].contains("compact_cases"));
  EXPECT_FALSE(written.contains("error"));
  const ScreenRecord read = screen_record_from_json(written);
  EXPECT_EQ(screen_json(read), written);
  EXPECT_EQ(read.verdict, ScreenVerdict::fail);
  ASSERT_TRUE(read.compact_sets);
  EXPECT_EQ(read.compact_sets->failing, 3u);
  ASSERT_TRUE(read.clocks);
  EXPECT_EQ(read.clocks->report.max_mhz, 1980u);

  ScreenFleetRecord fleet{10, 7, {a_failing_verdict(), ScreenRecord{}}};
  fleet.gpus[1].error = "no verdict from its process (exit 2)";
  const json fleet_written = screen_fleet_json(fleet);
  EXPECT_EQ(fleet_written["schema"], kScreenFleetSchema);
  EXPECT_EQ(fleet_written["gpus"][0]["schema"], kScreenSchema) << "each GPU's verdict keeps its schema, as gpuN.json";
  EXPECT_EQ(fleet_written["gpus"][1]["verdict"], "error");
  EXPECT_EQ(screen_fleet_json(screen_fleet_record_from_json(fleet_written)), fleet_written);
}

TEST(ScreenRecord, WhatIsNotAVerdictIsRefusedNamingWhere) {
  const json good = screen_json(a_failing_verdict());
  const auto refused = [](json document, const std::string& needle) {
    try {
      screen_record_from_json(document);
      ADD_FAILURE() << "accepted: " << document.dump().substr(0, 200);
    } catch (const ScreenRecordError& error) {
      EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    }
  };
  json other = good;
  other["schema"] = "mmasp-run/1";
  refused(other, "/schema");
  json no_verdict = good;
  no_verdict.erase("verdict");
  refused(no_verdict, "/verdict");
  json odd_verdict = good;
  odd_verdict["verdict"] = "maybe";
  refused(odd_verdict, "pass, fail or error is expected");
  json selector = good;
  selector["pairs"][1]["selector"] = "0";
  refused(selector, "/pairs/1/selector");
  json step = good;
  step["deviations"][1]["step"] = "host";
  refused(step, "/deviations/1/step");
  json more_deviating = good;
  more_deviating["deviating_cases"] = 1001;
  refused(more_deviating, "/deviating_cases");
  json detected = good;
  detected["coverage"]["detected"] = 11;
  refused(detected, "/coverage/detected");
  json fleet = screen_fleet_json(ScreenFleetRecord{10, 7, {a_failing_verdict(), a_failing_verdict()}});
  fleet["gpus"][1]["cases"] = -1;
  try {
    screen_fleet_record_from_json(fleet);
    ADD_FAILURE() << "a fleet with a malformed GPU verdict was accepted";
  } catch (const ScreenRecordError& error) {
    EXPECT_NE(std::string(error.what()).find("/gpus/1/cases"), std::string::npos) << error.what();
  }
}

}  // namespace
