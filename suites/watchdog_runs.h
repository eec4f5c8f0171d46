// The watchdog tests (issue #16), on the emulator (watchdog_test.cpp) and on a GPU (gpu_execution_test.cpp): the real
// `mmasp run` binary under its supervisor, with a test-only fault injected into one form x selector pair.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/ptxas.h"
#include "reports/run_record.h"

namespace mmasp {

struct SupervisedRun {
  CommandResult command;
  RunRecord record;
  double seconds = 0;
};

// `mmasp run --isolation process --out OUT --force` plus `options`.
inline SupervisedRun supervised_run(const std::filesystem::path& out, std::vector<std::string> options) {
  // MMASP_BINARY in the environment overrides the build's path (a GPU machine that got the build copied elsewhere).
  const char* binary = std::getenv("MMASP_BINARY") ? std::getenv("MMASP_BINARY") : MMASP_BINARY;
  std::vector<std::string> argv = {binary, "run", "--isolation", "process", "--force", "--out", out.string()};
  argv.insert(argv.end(), options.begin(), options.end());
  SupervisedRun run;
  const auto start = std::chrono::steady_clock::now();
  run.command = run_command(argv);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Without a run.json, say how `mmasp run` ended, not only that the file is missing (a binary copied to a GPU
  // machine can fail before it writes anything, e.g. where a path compiled into it does not exist there).
  if (!std::filesystem::exists(out / "run.json"))
    throw std::runtime_error("mmasp run wrote no run.json (exit " + std::to_string(run.command.exit_code) +
                             (run.command.completed ? "" : ", did not finish by itself") + "):\n" + run.command.output);
  run.record = load_run_record(out / "run.json");
  return run;
}

// Every result of `faulty` is the clean run's, bit for bit (time aside), except the pair hit by the fault, whose
// every suite has `expected` status.
inline void expect_only_the_pair_differs(const RunRecord& clean, const RunRecord& faulty, const std::string& opcode,
                                         int selector, Status expected) {
  ASSERT_EQ(clean.results.size(), faulty.results.size());
  size_t hit = 0;
  for (size_t i = 0; i < faulty.results.size(); ++i) {
    const ResultRecord& result = faulty.results[i];
    if (result.form == opcode && result.selector == selector) {
      ++hit;
      EXPECT_EQ(result.status, expected) << result.id << ": " << result.note;
      continue;
    }
    // Compared as `mmasp diff --identical` compares: time and the --out directory in repro lines aside.
    RunRecord one, other;
    one.results = {clean.results[i]};
    other.results = {result};
    EXPECT_EQ(without_volatile_fields(to_json(one))["results"], without_volatile_fields(to_json(other))["results"])
        << result.id << " differs from the clean run's";
  }
  EXPECT_GE(hit, 2u) << "the faulty pair's results are missing";
}

}  // namespace mmasp
