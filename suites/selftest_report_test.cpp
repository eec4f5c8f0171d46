// The selftest's typed record (reports/selftest_report.h): the JSON of `selftest --json` and the console text give the
// same figures, and a missed pair and an unclean control are named in both.
#include <gtest/gtest.h>

#include "harness/fault_injection.h"
#include "oracle/instruction_space.h"
#include "reports/selftest_report.h"

namespace {

using namespace mmasp;

const Fault& an_output_fault() {
  for (const Fault& fault : fault_catalog())
    if (fault.kind == FaultKind::output && !fault.in_bound) return fault;
  throw std::runtime_error("no output fault outside the bound in the catalogue");
}

SelftestReport a_report(bool control_clean) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  SelftestReport report;
  FaultPairOutcome clean{&form, 0, 100, 0, Status::pass, false, false, true};
  if (!control_clean) clean.spec_caught = true, clean.status = Status::fail;
  report.control.push_back(clean);
  FaultOutcome outcome;
  outcome.fault = &an_output_fault();
  outcome.pairs.push_back({&form, 0, 100, 7, Status::fail, true, false, true});   // caught
  outcome.pairs.push_back({&form, 1, 100, 3, Status::pass, false, false, true});  // changed, missed
  outcome.pairs.push_back({&form, 0, 100, 0, Status::pass, false, false, true});  // not changed
  report.faults.push_back(outcome);
  return report;
}

TEST(SelftestReport, TheJsonAndTheTextGiveTheSameFigures) {
  const SelftestRecord record{{{"backend", "emulator"}}, 2, 100, "mmasp selftest --faults", a_report(true)};
  const nlohmann::json j = selftest_json(record);
  EXPECT_EQ(j["schema"], "mmasp-selftest/1");
  EXPECT_EQ(j["pairs"], 2);
  EXPECT_EQ(j["cases_per_pair"], 100);
  EXPECT_EQ(j["control_clean"], true);
  EXPECT_EQ(j["missed_pairs"], 1);
  ASSERT_EQ(j["faults"].size(), 1u);
  const nlohmann::json& f = j["faults"][0];
  EXPECT_EQ(f["kind"], "output");
  EXPECT_EQ(f["applicable"], 3);
  EXPECT_EQ(f["affected"], 2);
  EXPECT_EQ(f["caught"], 1);
  EXPECT_EQ(f["missed"], 1);
  EXPECT_EQ(f["pairs"][1]["status"], "Pass");
  EXPECT_EQ(f["pairs"][1]["changed"], 3);

  const std::string text = selftest_text(record.report);
  EXPECT_NE(text.find("| " + record.report.faults[0].fault->id + " | output | 3 | 2 | 1 | 0 | 1 | 0 |"), std::string::npos) << text;
  EXPECT_NE(text.find("MISSED: " + record.report.faults[0].fault->id + " changed 3 of 100 cases"), std::string::npos) << text;
  EXPECT_NE(text.find("1 faults: 0 caught in every pair they changed where a tier could see it; 1 pairs missed"),
            std::string::npos) << text;
  EXPECT_NE(text.find("control run clean"), std::string::npos);
}

TEST(SelftestReport, AnUncleanControlIsNamed) {
  const SelftestReport report = a_report(false);
  EXPECT_EQ(selftest_json({{}, 1, 100, "", report})["control_clean"], false);
  const std::string text = selftest_text(report);
  EXPECT_NE(text.find("CONTROL NOT CLEAN: mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 sel=0 is Fail"),
            std::string::npos) << text;
  EXPECT_NE(text.find("control run NOT clean"), std::string::npos);
}

}  // namespace
