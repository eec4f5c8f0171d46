// Issue #28: a --budget run's time goes where the numerics are, by a plan each result shows (run/budget_plan.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "harness/ptxas.h"
#include "run/budget_plan.h"

namespace mmasp::run {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(BudgetPlan, EveryFloatFormWeighsMoreThanEveryIntegerFormAndNarrowFloatsMoreStill) {
  double heaviest_integer = 0, lightest_float = 1e9, lightest_narrow = 1e9, heaviest_wide = 0;
  for (const Form& form : instruction_space()) {
    const double w = random_suite_weight(form);
    ASSERT_GT(w, 0) << form.opcode;
    if (form.is_integer()) {
      heaviest_integer = std::max(heaviest_integer, w);
      continue;
    }
    lightest_float = std::min(lightest_float, w);
    const bool narrow = form.family != "f16" && form.family != "bf16" && form.family != "tf32";
    if (narrow) lightest_narrow = std::min(lightest_narrow, w);
    else heaviest_wide = std::max(heaviest_wide, w);
  }
  EXPECT_GT(lightest_float, heaviest_integer);
  EXPECT_GT(lightest_narrow, heaviest_wide);
}

TEST(BudgetPlan, EachPairGetsItsWeightsPartOfWhatIsLeftAndNothingWithoutAWeight) {
  const BudgetPlan plan({1, 0, 5, 15, 1});
  // 22 weights from pair 0: pair 0 gets 1/22 of what is left.
  EXPECT_DOUBLE_EQ(plan.seconds_for(0, 22), 1);
  EXPECT_DOUBLE_EQ(plan.seconds_for(1, 21), 0);   // NotSupported: no random suite
  EXPECT_DOUBLE_EQ(plan.seconds_for(2, 21), 5);   // 5 of the 21 weights left
  EXPECT_DOUBLE_EQ(plan.seconds_for(3, 16), 15);
  EXPECT_DOUBLE_EQ(plan.seconds_for(4, 3), 3);    // the last pair takes whatever is left
  EXPECT_DOUBLE_EQ(plan.seconds_for(2, -1), 0);   // over budget: nothing, not a negative time
  double shares = 0;
  for (size_t i = 0; i < 5; ++i) shares += plan.share(i);
  EXPECT_NEAR(shares, 1, 1e-12);
  EXPECT_DOUBLE_EQ(plan.share(3), 15.0 / 22);
  EXPECT_EQ(plan.weighted_after(0), 3u);
  EXPECT_EQ(plan.weighted_after(3), 1u);
  EXPECT_EQ(plan.weighted_after(4), 0u);
  EXPECT_THROW(BudgetPlan({1, -1}), std::invalid_argument);
}

TEST(BudgetPlan, UnderABudgetAnIntegerPairsHostSampleIsATenthAndAFloatPairsIsWhole) {
  EXPECT_EQ(host_sample_cases(false, 10000, true), 10000u);
  EXPECT_EQ(host_sample_cases(true, 10000, true), 1000u);
  EXPECT_EQ(host_sample_cases(true, 10000, false), 10000u);   // --cases runs judge as before
  EXPECT_EQ(host_sample_cases(true, 5, true), 1u);             // never none: the cross-check stays
}

const char* binary() { return std::getenv("MMASP_BINARY") ? std::getenv("MMASP_BINARY") : MMASP_BINARY; }

// End to end on the emulator: every random result of a --budget run says its planned share, the shares add up to
// the whole, a float pair's share is 5 times an integer pair's and its planned time larger, and the summary names the
// fewest cases any pair got.
TEST(BudgetPlan, ABudgetRunRecordsEachPairsPlannedShareAndTheFewestCases) {
  const fs::path out = fs::temp_directory_path() / ("mmasp-budget-plan-" + std::to_string(getpid()));
  fs::remove_all(out);
  const CommandResult run = run_command({"env", "CUDA_VISIBLE_DEVICES=", binary(), "run", "--emulator", "--budget", "6",
                                         "--no-compile", "--threads", "2", "--filter",
                                         "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.[fs]32.[fs][18]*",
                                         "--exclude", "*satfinite*", "--out", out.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(out / "run.json");
  const json record = json::parse(in);
  double shares = 0;
  std::map<bool, double> share_of, seconds_of;   // integer? -> the largest share / planned seconds seen
  std::map<bool, double> smallest_share;
  size_t random_results = 0;
  for (const auto& r : record["results"]) {
    if (r["suite"] != "random") continue;
    ++random_results;
    ASSERT_TRUE(r.contains("planned")) << r["id"];
    const Form* form = find_form(r["form"].get<std::string>());
    ASSERT_NE(form, nullptr);
    const double share = r["planned"]["share"], seconds = r["planned"]["seconds"];
    EXPECT_DOUBLE_EQ(r["planned"]["weight"].get<double>(), random_suite_weight(*form)) << r["id"];
    EXPECT_GT(seconds, 0) << r["id"];
    shares += share;
    share_of[form->is_integer()] = std::max(share_of[form->is_integer()], share);
    seconds_of[form->is_integer()] = std::max(seconds_of[form->is_integer()], seconds);
    smallest_share[form->is_integer()] =
        smallest_share.count(form->is_integer()) ? std::min(smallest_share[form->is_integer()], share) : share;
  }
  ASSERT_TRUE(share_of.count(true) && share_of.count(false)) << "the filter must hold float and integer forms";
  EXPECT_GT(random_results, 2u);
  EXPECT_NEAR(shares, 1, 1e-9);
  EXPECT_DOUBLE_EQ(smallest_share[false], 5 * share_of[true]);
  EXPECT_GT(seconds_of[false], seconds_of[true]);
  std::ifstream summary_in(out / "summary.md");
  const std::string summary(std::istreambuf_iterator<char>(summary_in), {});
  EXPECT_NE(summary.find("fewest random cases of any pair: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("| planned share |"), std::string::npos);
  fs::remove_all(out);
}

}  // namespace
}  // namespace mmasp::run
