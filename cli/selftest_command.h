// `mmasp selftest --faults`: proves that the judging tiers catch injected faults (harness/selftest.h).
#pragma once

#include <string>
#include <thread>

#include <CLI/CLI.hpp>

namespace mmasp::cli {

struct SelftestCommandOptions {
  bool faults = false;
  std::string filter = "*";
  std::string exclude;
  std::string fault = "*";
  bool emulator = false;
  int device = 0;
  uint64_t cases = 2000;
  uint32_t special_generated = 64;
  uint64_t seed = 1;
  std::string json_path;
  bool model_candidates = false;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

void add_selftest_options(CLI::App* command, SelftestCommandOptions& options);
int selftest_main(const SelftestCommandOptions& options, int argc, char** argv);

}  // namespace mmasp::cli
