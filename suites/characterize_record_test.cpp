// characterize's report as a typed record (reports/characterize_record.h): the committed H100 characterisation reads
// as one; a pair's record made from what judge/characterize.h found, discriminating input included, reads back as it
// was written; and what is not a report is refused naming the JSON pointer of what is wrong.
#include "reports/characterize_record.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "generators/model_probes.h"
#include "oracle/instruction_space.h"
#include "oracle/numeric_model_table.h"

namespace {

using namespace mmasp;
using nlohmann::json;

TEST(CharacterizeRecord, TheCommittedCharacterisationReadsAsARecord) {
  std::ifstream in(std::string(MMASP_SOURCE_DIR) + "/evidence/characterize/h100-sm90-driver580.159.04.json");
  ASSERT_TRUE(in.good());
  const CharacterizeReport report = characterize_report_from_json(json::parse(in));
  EXPECT_EQ(report.environment.backend, "gpu");
  ASSERT_TRUE(report.environment.device);
  EXPECT_EQ(report.environment.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(report.pairs.size(), report.summary.pairs);
  EXPECT_GE(report.pairs.size(), 56u);
  for (const CharacterizedPair& pair : report.pairs) {
    EXPECT_TRUE(pair.agrees) << pair.form;
    EXPECT_FALSE(pair.evidence.empty()) << pair.form;
    EXPECT_GE(pair.parameters.size(), 18u) << pair.form;   // the record predates the block-scale parameters
    for (const auto& [parameter, value] : pair.parameters) EXPECT_TRUE(find_model_parameter(parameter)) << parameter;
  }
  // What it writes of it reads back the same.
  const json written = characterize_json(report);
  EXPECT_EQ(characterize_json(characterize_report_from_json(written)), written);
}

CharacterizeReport a_report() {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  Characterization c;
  c.form = &form;
  c.backend = "emulator (test)";
  c.emulated = true;
  c.parameters = *verified_model(form, "sm_90");
  c.consistent = true;
  c.probes = 40;
  c.special_cases = 100;
  c.random_cases = 2000;
  c.seconds = 1.5;
  c.evidence.push_back({"block_products", "8", {"8", "16"}, {{"4", "alignment: 1.5*1.5"}}, {{"16", 0}, {"4", 12}}});
  c.settlements = {{"block_products", "4", Settled::by_probe, "alignment: 1.5*1.5"},
                   {"block_products", "16", Settled::equivalent, "equivalent: k16 has 8 products"},
                   {"block_products", "32", Settled::left, ""}};
  const gen::ModelProbe probe = gen::model_probes(form, 0).front();
  c.discriminating.push_back(probe);
  c.discriminating_observed.push_back(std::vector<uint32_t>(size_t(form.shape.m * form.shape.n), 0x3c00u));
  CharacterizeReport report;
  report.command = "mmasp characterize --emulator";
  report.environment = {"emulator", true, std::nullopt, "the built-in sm_90 records"};
  report.seed = 1;
  report.random_cases_per_pair = 2000;
  report.pairs.push_back(characterized_pair(c));
  report.pairs.back().dense_comparison = DenseComparisonRecord{"mma.sync.aligned.m16n8k16", 10, 8, 2, 0, ""};
  report.summary = {1, 0, 2100, 0, 0};
  report.groups = {{c.parameters.str(), {form.opcode + " sel=0"}}};
  return report;
}

TEST(CharacterizeRecord, APairsRecordReadsBackAsItWasWritten) {
  const CharacterizeReport report = a_report();
  const CharacterizedPair& pair = report.pairs.front();
  EXPECT_TRUE(pair.agrees);
  EXPECT_FALSE(pair.unique) << "a value is left";
  ASSERT_EQ(pair.settled_other_than_by_probes.size(), 2u) << "values the probes ruled out are not repeated";
  EXPECT_EQ(pair.settled_other_than_by_probes[0].how, Settled::equivalent);
  EXPECT_EQ(pair.settled_other_than_by_probes[1].how, Settled::left);
  ASSERT_EQ(pair.discriminating_inputs.size(), 1u);
  const json written = characterize_json(report);
  EXPECT_EQ(written["schema"], kCharacterizeSchema);
  EXPECT_EQ(written["pairs"][0]["settled_other_than_by_probes"][0]["how"], "equivalent");
  EXPECT_EQ(written["pairs"][0]["evidence"][0]["random_cases_mispredicted"]["4"], 12);
  EXPECT_EQ(written["pairs"][0]["dense_comparison"]["nan_from_unstored_zero_times_special"], 2);
  EXPECT_EQ(written["environment"]["arithmetic"], "the built-in sm_90 records");
  EXPECT_FALSE(written["environment"].contains("device"));
  const CharacterizeReport read = characterize_report_from_json(written);
  EXPECT_EQ(characterize_json(read), written);
  ASSERT_TRUE(read.pairs[0].discriminating_inputs[0].observed_d);
  EXPECT_EQ(read.pairs[0].discriminating_inputs[0].observed_d->front(), 0x3c00u);
}

TEST(CharacterizeRecord, WhatIsNotAReportIsRefusedNamingWhere) {
  const json good = characterize_json(a_report());
  const auto refused = [](json document, const std::string& needle) {
    try {
      characterize_report_from_json(document);
      ADD_FAILURE() << "accepted";
    } catch (const CharacterizeRecordError& error) {
      EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    }
  };
  json other = good;
  other["schema"] = "mmasp-screen/1";
  refused(other, "/schema");
  json how = good;
  how["pairs"][0]["settled_other_than_by_probes"][0]["how"] = "guessed";
  refused(how, "/pairs/0/settled_other_than_by_probes/0/how");
  json agrees = good;
  agrees["pairs"][0]["random_deviations"] = 3;
  refused(agrees, "/pairs/0/agrees");
  json dense = good;
  dense["pairs"][0]["dense_comparison"]["identical"] = 9;
  refused(dense, "/pairs/0/dense_comparison/cases");
  json input = good;
  input["pairs"][0]["discriminating_inputs"][0] = json::object({{"form", "not a form"}});
  refused(input, "/pairs/0/discriminating_inputs/0");
  json summary = good;
  summary["summary"]["pairs"] = 2;
  refused(summary, "/summary");
}

}  // namespace
