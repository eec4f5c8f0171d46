// `mmasp run` (the nightly job, run/nightly.h) and `mmasp ub-probe` (its undefined-behaviour child process,
// run/ub_isolation.h): options and console only.
#pragma once

#include <string>

#include "cli/common.h"
#include "run/nightly.h"
#include "run/ub_isolation.h"

namespace mmasp::cli {

struct RunOptions : run::NightlyOptions {
  bool emulator = false;            // --emulator: the same as --backend emulator
  std::string backend_text = "auto";
  std::string gpu_option;           // the first option given that only a GPU can honour (--device, --model strict, ...)
  std::string user_command;         // a worker: the command its supervisor was given (the one reports show)
  std::string baseline;   // a run.json to diff against: regressions go into report.html and the console
  std::string isolation = "auto";   // process: the pairs run in watched worker processes (run/worker.h); none; auto
  double watchdog = 60;             // seconds: the deadline floor of a batch in a worker
  bool worker = false;              // this process is a worker of a supervising `mmasp run`
  std::string devices;              // run/devices.h: all, 0,2,..., emulator:N
  std::string inject_fault_on;      // test-only: K:FAULT, a fault on the K-th of --devices alone
};
void add_run_options(CLI::App* command, RunOptions& options);
// argv as a line a shell reads back to the same words (what reports show as the command).
std::string command_line(int argc, char** argv);
int run_main(const RunOptions& options, int argc, char** argv);

struct UbProbeOptions : run::UbChildOptions {
  std::string form;
  int selector = 0;
  int out_of_range = -1;
  // Batch mode: "opcode@selector@value" per job (value -1: the UB suite of that selector; else that out-of-range
  // selector value).
  std::vector<std::string> jobs;
};
void add_ub_probe_options(CLI::App* command, UbProbeOptions& options);
int ub_probe_main(const UbProbeOptions& options);

}  // namespace mmasp::cli
