// The GPU clock watch (harness/clock_watch.h): what a run's samples say, and a watch that can take none.
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/clock_watch.h"
#include "harness/gpu_probe.h"
#include "harness/nvml_device.h"
#include "reports/run_report.h"

namespace mmasp {
namespace {

TEST(ClockWatch, IdleSamplesAreLeftOutOfTheBusyClock) {
  const std::vector<ClockSample> samples = {{345, kClockIdle, 60}, {1980, 0, 70}, {1500, kClockSoftwareThermal, 88},
                                            {1200, kClockHardwareThermal | kClockSoftwarePowerCap, 90},
                                            {1700, kClockSoftwarePowerCap, 84}};
  const ClockReport r = summarise_clocks(samples, 1980);
  EXPECT_EQ(r.samples, 5u);
  EXPECT_EQ(r.busy, 4u);
  EXPECT_DOUBLE_EQ(r.mean_mhz, (1980.0 + 1500 + 1200 + 1700) / 4);
  EXPECT_EQ(r.min_mhz, 1200u);
  EXPECT_EQ(r.max_mhz, 1980u);
  EXPECT_EQ(r.thermal, 2u);   // heat counts first where both are set
  EXPECT_EQ(r.power, 1u);
  EXPECT_EQ(r.hottest_c, 90u);
  EXPECT_TRUE(r.slowed());
}

TEST(ClockWatch, AGpuIsSlowedWhenATenthOfItsBusySamplesAre) {
  std::vector<ClockSample> samples(9, ClockSample{1980, 0, 70});
  samples.push_back({1400, kClockSoftwareThermal, 88});
  EXPECT_TRUE(summarise_clocks(samples, 1980).slowed());   // 1 of 10
  samples.push_back({1980, 0, 70});
  EXPECT_FALSE(summarise_clocks(samples, 1980).slowed());   // 1 of 11
}

TEST(ClockWatch, TheNoteSaysWhatSlowedTheGpuAndNothingWhenItRanAtItsClock) {
  EXPECT_EQ(describe_clocks(summarise_clocks({}, 1980)), "");
  const std::string cool = describe_clocks(summarise_clocks({{1980, 0, 70}, {1980, 0, 72}}, 1980));
  EXPECT_NE(cool.find("mean 1980 MHz (lowest 1980) of this GPU's 1980 MHz in 2 busy samples, hottest 72 C"), std::string::npos) << cool;
  EXPECT_EQ(cool.find("slowed"), std::string::npos) << cool;
  const std::string hot = describe_clocks(summarise_clocks({{1980, 0, 80}, {1155, kClockSoftwareThermal, 88}}, 1980));
  EXPECT_NE(hot.find("slowed itself for heat in 1 of them"), std::string::npos) << hot;
  EXPECT_NE(hot.find("every pair ran slower"), std::string::npos) << hot;
  EXPECT_NE(describe_clocks(summarise_clocks({{345, kClockIdle, 50}}, 1980)).find("idle"), std::string::npos);
}

// Without NVML, or with a UUID no GPU has, the watch takes no samples and the run has no clock note (the emulator and
// CI machines).
TEST(ClockWatch, AWatchOfNoGpuTakesNoSamples) {
  ClockWatch watch("GPU-00000000-0000-0000-0000-000000000000", 10);
  const ClockReport r = watch.stop();
  EXPECT_EQ(r.samples, 0u);
  EXPECT_FALSE(r.slowed());
  EXPECT_EQ(describe_clocks(r), "");
}

// The NVML opener that the clock watch and gpu_serial share: a UUID that names no GPU (or a runner with no NVML) opens
// nothing, hands out no handle, and gives no serial; its destructor closes whatever it opened.
TEST(NvmlDevice, AUuidOfNoGpuOpensNothing) {
  const std::string none = "GPU-00000000-0000-0000-0000-000000000000";
  const NvmlDevice device(none);
  EXPECT_FALSE(device.open());
  EXPECT_EQ(device.handle(), nullptr);
  EXPECT_EQ(gpu_serial(none), std::nullopt);
}

// run.json keeps the report in run.clocks (volatile: mmasp diff --identical leaves it out), and summary.md and
// report.html show it under the GPU; a run without one shows nothing.
TEST(ClockWatch, TheSummaryAndTheHtmlReportShowTheClockUnderTheGpu) {
  RunRecord run = load_run_record(std::filesystem::path(MMASP_SOURCE_DIR) /
                                  "evidence/baselines/h100-sm90-driver580.159.04-cases10000/run.json");
  ASSERT_TRUE(run.environment.device);
  ASSERT_FALSE(run.run.clocks) << "the baseline was recorded before the clock watch";
  EXPECT_EQ(markdown_summary(run).find("SM clock while the pairs ran"), std::string::npos);
  run.run.clocks = summarise_clocks({{1980, 0, 80}, {1155, kClockSoftwareThermal, 88}}, 1980);
  const std::string summary = markdown_summary(run);
  const size_t gpu = summary.find("- GPU: "), clock = summary.find("- SM clock while the pairs ran: mean 1568 MHz");
  ASSERT_NE(clock, std::string::npos) << summary.substr(0, 1500);
  EXPECT_LT(gpu, clock);
  EXPECT_NE(summary.find("slowed itself for heat in 1 of them"), std::string::npos);
  EXPECT_NE(html_report(run).find("SM clock while the pairs ran: mean 1568 MHz"), std::string::npos);
}

}  // namespace
}  // namespace mmasp
