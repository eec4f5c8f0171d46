// `mmasp run`: the nightly job. On a GPU: compile conformance, every supported form through the execution suites
// on the device (two compile paths compared), layout discovery and SASS. Without one: compile conformance plus the
// CPU emulator, with a banner saying so.
#pragma once

#include <string>

#include "cli/common.h"

namespace mmasp::cli {

struct RunOptions {
  CompileOptions compile;
  int device = 0;
  bool emulator = false;        // use the emulator even with a GPU present
  std::string filter, exclude;
  double budget = 0;            // seconds for the whole run, spread over form x selector pairs
  uint64_t cases = 0;           // random cases per form x selector (instead of a budget)
  uint64_t seed = 1;
  std::string shard = "1/1";
  bool ub = false;
  std::string out = "mmasp-out";
  bool no_compile = false;
  bool layouts = true;          // layout discovery on a GPU (on the emulator only when asked: --layouts)
  bool layouts_given = false;
  // Per-pair extras on a GPU — layout discovery, SASS, the second compile path. "auto": on with --cases, off with
  // --budget (they cost about a second per pair, which a short budget cannot spare).
  std::string extras = "auto";
  std::string paths = "toolkit,driver-jit";
  std::string modules;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  uint32_t special_generated = 512;
  // The model tier: "auto" is strict on a GPU whose architecture has verified bit-exact models, off elsewhere.
  std::string model = "auto";
  bool model_candidates = false;   // also judge by unverified table records (to verify them on hardware)
};

void add_run_options(CLI::App* command, RunOptions& options);

// `mmasp ub-probe` (internal): one form's undefined-behaviour suite, or one out-of-range selector, on the GPU, in a
// process of its own; prints one JSON line.
struct UbProbeOptions {
  std::string form;
  int selector = 0;
  uint64_t seed = 1;
  int device = 0;
  std::string path = "toolkit";
  std::string modules;
  uint32_t cases = 512;
  unsigned threads = 1;
  int out_of_range = -1;
  // Batch mode: "opcode@selector@value" per job (value -1: the UB suite of that selector; else that out-of-range
  // selector value). One JSON line per finished job; the process stops after a job that faulted.
  std::vector<std::string> jobs;
};
void add_ub_probe_options(CLI::App* command, UbProbeOptions& options);
int ub_probe_main(const UbProbeOptions& options);
int run_main(const RunOptions& options, int argc, char** argv);

}  // namespace mmasp::cli
