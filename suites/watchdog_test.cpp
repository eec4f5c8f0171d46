// Isolation and the watchdog on the emulator (issue #16): a pair whose launch never returns ends as Timeout, one whose
// process crashes or whose context is lost as Crash; the run finishes and every other pair's results equal a clean
// run's. The same on a GPU, with real hanging and trapping kernels: gpu_execution_test.cpp.
#include "suites/watchdog_runs.h"

#include <unistd.h>

namespace mmasp {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kOptions = {"--emulator", "--no-compile", "--filter", "*m16n8k16*bf16*", "--cases", "600",
                                           "--special-generated", "16", "--threads", "2", "--watchdog", "2"};
const std::string kHit = "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";

class WatchdogOnTheEmulator : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("mmasp-watchdog-test-" + std::to_string(getpid()));
    clean_ = new SupervisedRun(supervised_run(root_ / "clean", kOptions));
  }
  static void TearDownTestSuite() {
    delete clean_;
    fs::remove_all(root_);
  }
  static SupervisedRun with_fault(const std::string& fault) {
    std::vector<std::string> options = kOptions;
    options.insert(options.end(), {"--inject-worker-fault", fault + "@" + kHit + "@1"});
    return supervised_run(root_ / fault, options);
  }
  static inline fs::path root_;
  static inline SupervisedRun* clean_ = nullptr;
};

TEST_F(WatchdogOnTheEmulator, TheCleanRunPasses) {
  EXPECT_EQ(clean_->command.exit_code, 0) << clean_->command.output;
  EXPECT_EQ(clean_->record.results.size(), 16u);
}

TEST_F(WatchdogOnTheEmulator, AHangingLaunchIsTimeoutAndTheRunGoesOn) {
  const SupervisedRun run = with_fault("hang");
  EXPECT_EQ(run.command.exit_code, 1) << run.command.output;
  expect_only_the_pair_differs(clean_->record, run.record, kHit, 1, Status::timeout);
  EXPECT_LT(run.seconds, 30) << "the watchdog (2 s) did not end the hang";
}

TEST_F(WatchdogOnTheEmulator, ACrashingWorkerIsCrashAndTheRunGoesOn) {
  const SupervisedRun run = with_fault("crash");
  EXPECT_EQ(run.command.exit_code, 1) << run.command.output;
  expect_only_the_pair_differs(clean_->record, run.record, kHit, 1, Status::crash);
}

TEST_F(WatchdogOnTheEmulator, ALostContextIsCrashAndANewWorkerContinues) {
  const SupervisedRun run = with_fault("trap");
  EXPECT_EQ(run.command.exit_code, 1) << run.command.output;
  EXPECT_NE(run.command.output.find("a new worker continues"), std::string::npos) << run.command.output;
  expect_only_the_pair_differs(clean_->record, run.record, kHit, 1, Status::crash);
}

TEST_F(WatchdogOnTheEmulator, AMalformedFaultIsAUsageError) {
  const CommandResult result = run_command({MMASP_BINARY, "run", "--emulator", "--inject-worker-fault", "melt@*"});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--inject-worker-fault takes"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace mmasp
