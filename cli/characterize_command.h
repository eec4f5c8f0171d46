// `mmasp characterize`: measures the float arithmetic of every selected form on this machine's backend (a GPU, or
// the emulator standing in for a model) and prints the model parameters found, the probe that shows each, and how
// many random and special cases the parameters then predict bit for bit.
#pragma once

#include <string>
#include <thread>

#include <CLI/CLI.hpp>

namespace mmasp::cli {

struct CharacterizeCommandOptions {
  std::string filter = "*";
  std::string exclude;
  bool emulator = false;
  std::string emulate;          // emulator arithmetic: "hypothesis" (default), "table", or "name=value,..." changes
  int device = 0;
  std::string path = "driver-jit";
  uint64_t cases = 20000;
  uint64_t seed = 1;
  std::string json_path;
  std::string out = "mmasp-characterize";
  bool all_selectors = true;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

void add_characterize_options(CLI::App* command, CharacterizeCommandOptions& options);
int characterize_main(const CharacterizeCommandOptions& options, int argc, char** argv);

}  // namespace mmasp::cli
