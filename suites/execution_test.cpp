// The execution pipeline on the CPU emulator (issue #5): every catalog form, sm_120a included, goes through
// generation, register packing, the backend, unpacking and judgement. A deliberately broken backend must be caught,
// and its failure shrunk and saved.
#include <gtest/gtest.h>

#include <filesystem>

#include "judge/suites.h"
#include "reports/run_record.h"
#include "oracle/case_file.h"
#include "oracle/number_format.h"
#include "suites/defective_emulator.h"

namespace mmasp {
namespace {

class EveryForm : public testing::TestWithParam<const Form*> {};

TEST_P(EveryForm, RunsThroughTheEmulatorAndPasses) {
  const Form& form = *GetParam();
  EmulatorBackend emulator;
  SuiteContext context{emulator, 20261122, 2, "", {}};
  SuiteLimits limits;
  limits.min_cases = limits.max_cases = 24;
  limits.special_generated = 8;
  for (int selector : form.selectors) {
    for (Suite suite : {Suite::random, Suite::special}) {
      SuiteResult result = run_suite(context, form, selector, suite, limits);
      EXPECT_EQ(result.status, Status::pass) << name(suite) << " selector " << selector << ": " << result.note
                                             << (result.failure ? result.failure->verdict.worst.reason : "");
      EXPECT_TRUE(result.emulated);
      EXPECT_GT(result.cases, 0u);
    }
  }
  SuiteResult ub = run_suite(context, form, form.selectors.front(), Suite::undefined, limits);
  EXPECT_EQ(ub.status, Status::ub_not_judged) << ub.note;
  EXPECT_EQ(ub.not_judged, ub.cases);
}

std::vector<const Form*> every_form() {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space()) forms.push_back(&form);
  return forms;
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryForm, testing::ValuesIn(every_form()),
                         [](const testing::TestParamInfo<const Form*>& info) {
                           std::string id = std::to_string(info.index) + "_" + info.param->opcode;
                           for (char& c : id)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return id;
                         });

// The emulator with one defect: D[5][3] comes back one unit too large whenever A holds a non-zero element.
class OffByOneBackend final : public DefectiveEmulator {
 public:
  OffByOneBackend() : DefectiveEmulator("broken emulator (test)") {}
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override {
    std::vector<uint32_t> out = inner_.run(form, selector, input, cases);
    const size_t in_words = input.size() / cases, out_words = out.size() / cases;
    for (uint32_t c = 0; c < cases; ++c) {
      bool any = false;
      for (size_t w = 0; w < in_words && !any; ++w) any = input[c * in_words + w] != 0;
      // Lane 4*5/… : D[5][3] is lane 4*5 + 1, element 1 (C/D layout); for f32 D that is register 1 of lane 21.
      if (any) out[c * out_words + 21 * size_t(form.regs.d) + 1] += 1;
    }
    return out;
  }
};

TEST(Execution, ABrokenBackendIsCaughtShrunkAndSaved) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  OffByOneBackend broken;
  const auto dir = std::filesystem::temp_directory_path() / "mmasp-execution-test";
  std::filesystem::remove_all(dir);
  SuiteContext context{broken, 7, 2, dir.string(), {}};
  SuiteLimits limits;
  limits.min_cases = limits.max_cases = 256;
  SuiteResult result = run_suite(context, form, 0, Suite::random, limits);
  EXPECT_EQ(result.status, Status::fail);
  EXPECT_GT(result.failed, 0u);
  ASSERT_TRUE(result.failure);
  EXPECT_EQ(result.failure->verdict.worst.row, 5);
  EXPECT_EQ(result.failure->verdict.worst.col, 3);
  int nonzero = 0;
  for (uint32_t code : result.failure->test.a_compressed) nonzero += code != 0;
  EXPECT_LE(nonzero, 1) << "the shrinker should leave at most the one element that triggers the defect";
  ASSERT_FALSE(result.failure->saved_to.empty());
  const std::string prefix = "repro: mmasp eval ";
  const std::string path = result.failure->saved_to.substr(prefix.size(), result.failure->saved_to.find("   #") - prefix.size());
  CaseFile saved = load_case_file(path);
  ASSERT_TRUE(saved.observed_d);
  EXPECT_EQ(std::string(name(judge(saved.test, *saved.observed_d).status)), "Fail");
  std::filesystem::remove_all(dir);
}

// Issue #16: a failing case whose replay gives another D is Intermittent (a failure of the run), with both results and
// a saved case; the deterministic defect above stays a plain Fail.
TEST(Execution, AResultThatChangesOnReplayIsIntermittent) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  // Wrong only on its first launch: exponent bit 30 of D[0][0] of every case flipped (a transient fault).
  FlippingEmulator flaky("flaky emulator (test)", 1u << 30, [](int launch, uint64_t) { return launch == 0; });
  const auto dir = std::filesystem::temp_directory_path() / "mmasp-intermittent-test" / "failures";
  std::filesystem::remove_all(dir.parent_path());
  SuiteContext context{flaky, 7, 2, dir.string(), {}};
  SuiteLimits limits;
  limits.min_cases = limits.max_cases = 64;
  limits.replays = 8;
  const SuiteResult result = run_suite(context, form, 0, Suite::random, limits);
  EXPECT_EQ(result.status, Status::intermittent);
  EXPECT_TRUE(is_failure(result.status));
  EXPECT_EQ(result.replayed, 8u) << "replays are bounded by SuiteLimits::replays";
  EXPECT_EQ(result.intermittent, 8u);
  ASSERT_TRUE(result.intermittent_case);
  const IntermittentReport& report = *result.intermittent_case;
  EXPECT_EQ(report.row, 0);
  EXPECT_EQ(report.col, 0);
  EXPECT_EQ(report.differing_elements, 1);
  EXPECT_EQ(report.first[0] ^ report.replay[0], 1u << 30);
  EXPECT_GT(result.failed, result.intermittent) << "intermittent cases count as failed, beside the unreplayed failures";
  EXPECT_NE(report.saved_to.find("intermittent"), std::string::npos) << report.saved_to;
  const ResultRecord record = record_of(result);
  ASSERT_TRUE(record.intermittent);
  EXPECT_EQ(record.intermittent->cases, 8u);
  EXPECT_NE(record.note.find("gave another D when run again"), std::string::npos) << record.note;
  const ResultRecord back = result_record_from_json(to_json(record));
  ASSERT_TRUE(back.intermittent);
  EXPECT_EQ(back.intermittent->replay, record.intermittent->replay);
  EXPECT_EQ(back.status, Status::intermittent);
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace mmasp
