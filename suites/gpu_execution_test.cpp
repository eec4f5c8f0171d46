// GPU: every form the device runs, every selector, through the execution suites on both compile paths — a quick
// version of `mmasp run` (256 random cases per pair, the special-value set). Any Fail or Crash fails the test and
// names its case file; QualityWarnings are reported, not failed. Skipped, with the reason, where no GPU is present.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "harness/backend.h"
#include "judge/suites.h"
#include "harness/gpu_probe.h"
#include "harness/ptxas.h"
#include "suites/gpu_resource.h"
#include "suites/watchdog_runs.h"

namespace mmasp {
namespace {

TEST(GpuExecution, EverySupportedFormAndSelectorPassesOnBothCompilePaths) {
  GpuProbe probe = probe_gpus();
  if (!probe.available) GTEST_SKIP() << "no GPU: " << probe.reason;
  auto device = std::make_shared<CudaDevice>(test_gpu());
  std::optional<Ptxas> ptxas;
  try {
    ptxas.emplace(locate_ptxas(), std::filesystem::path(), 1);
  } catch (const std::exception&) {
  }
  ModuleStore store(std::getenv("MMASP_MODULES") ? std::getenv("MMASP_MODULES") : "", ptxas ? &*ptxas : nullptr);
  std::vector<std::unique_ptr<GpuBackend>> backends;
  backends.push_back(std::make_unique<GpuBackend>(device, CompilePath::driver_jit, nullptr));
  if (ptxas || std::getenv("MMASP_MODULES")) backends.push_back(std::make_unique<GpuBackend>(device, CompilePath::toolkit, &store));
  const DeviceFingerprint fingerprint = device->fingerprint();
  RecordProperty("gpu", fingerprint.name);
  RecordProperty("driver", fingerprint.driver_version);
  std::cout << "device: " << fingerprint.name << " (sm_" << fingerprint.sm << "), driver " << fingerprint.driver_version
            << ", " << backends.size() << " compile path(s)\n";

  SuiteLimits limits;
  limits.min_cases = limits.max_cases = 256;
  limits.special_generated = 64;
  uint64_t cases = 0, pairs = 0, warnings = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto& backend : backends) {
    SuiteContext context{*backend, 20261122, std::max(1u, std::thread::hardware_concurrency()),
                         (std::filesystem::temp_directory_path() / "mmasp-gpu-test-failures").string(), {}};
    for (const auto& form : instruction_space()) {
      if (!backend->supports(form, nullptr)) continue;
      for (int selector : form.selectors) {
        ++pairs;
        for (Suite suite : {Suite::special, Suite::random}) {
          const SuiteResult result = run_suite(context, form, selector, suite, limits);
          cases += result.cases;
          warnings += result.warnings;
          EXPECT_FALSE(is_failure(result.status))
              << backend->description() << ": " << form.opcode << " sel=" << selector << " " << name(suite) << ": "
              << name(result.status) << " " << result.note
              << (result.failure ? " — " + result.failure->verdict.worst.reason + " " + result.failure->saved_to : "");
        }
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << pairs << " form x selector x path runs, " << cases << " cases (" << warnings << " QualityWarning) in "
            << seconds << " s\n";
  EXPECT_GT(pairs, 0u);
}

// Issue #16 on the hardware: a kernel that never ends is Timeout for its pair, one that traps (the context is lost) is
// Crash; each run finishes in new workers, and every other pair's results equal a clean run's bit for bit. Prints the
// device and the timings for the record.
TEST(GpuWatchdog, AHangingAndATrappingKernelEndTheirPairOnlyAndTheRunFinishes) {
  const GpuProbe probe = probe_gpus();
  if (!probe.available) GTEST_SKIP() << "no GPU: " << probe.reason;
  const std::filesystem::path root = std::filesystem::temp_directory_path() / ("mmasp-gpu-watchdog-" + std::to_string(test_gpu()));
  const std::string hit = "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
  // The driver-JIT path alone: a GPU runner may have no toolkit, and the faults strike before either path's code runs.
  const std::vector<std::string> options = {"--no-compile", "--extras", "off", "--paths",  "driver-jit", "--filter",
                                            "*m16n8k16*bf16*", "--cases", "4096", "--watchdog", "10",
                                            "--device", std::to_string(test_gpu())};
  const SupervisedRun clean = supervised_run(root / "clean", options);
  ASSERT_EQ(clean.command.exit_code, 0) << clean.command.output;
  ASSERT_TRUE(clean.record.environment.device) << "the run did not use the GPU";
  const DeviceFingerprint& device = *clean.record.environment.device;
  std::cout << "device: " << device.name << " (sm_" << device.sm << "), driver " << device.driver_version
            << "; clean run " << clean.seconds << " s\n";
  for (const auto& [fault, status] : {std::pair{"hang", Status::timeout}, std::pair{"trap", Status::crash}}) {
    std::vector<std::string> with_fault = options;
    with_fault.insert(with_fault.end(), {"--inject-worker-fault", std::string(fault) + "@" + hit + "@1"});
    const SupervisedRun run = supervised_run(root / fault, with_fault);
    std::cout << fault << ": exit " << run.command.exit_code << ", " << run.seconds << " s\n";
    EXPECT_EQ(run.command.exit_code, 1) << run.command.output;
    expect_only_the_pair_differs(clean.record, run.record, hit, 1, status);
  }
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace mmasp
