// `mmasp run`, the nightly job, as a function from options to a RunRecord: environment, compile conformance, the
// execution suites of every selected form x selector pair (the budget spread fairly over them), undefined behaviour
// in isolation, and on a GPU the extras (layout discovery, SASS, the compile-path comparison). Results stream to
// <out>/results.jsonl as they arrive; the reports are written by the caller from the record.
#pragma once

#include <functional>
#include <string>

#include "reports/run_record.h"
#include "run/backends.h"
#include "reports/findings.h"
#include "run/compile_step.h"

namespace mmasp::run {

struct NightlyOptions {
  CompileOptions compile;
  int device = 0;
  BackendChoice backend = BackendChoice::automatic;   // run/backends.h; the CLI resolves --emulator and the options
                                                      // that only a GPU honours into it
  std::string gpu_required_by = "--backend gpu";      // what made a GPU necessary, for the refusal
  std::string filter, exclude;
  double budget = 0;            // seconds for the whole run, spread over form x selector pairs
  uint64_t cases = 0;           // random cases per form x selector (instead of a budget)
  uint64_t seed = 1;
  std::string shard = "1/1";
  bool ub = false;
  std::string out = "mmasp-out";
  bool resume = false;          // continue the interrupted run in `out` from its journal (run/journal.h)
  bool force = false;           // replace an unfinished run in `out`, or write beside files mmasp did not write
  // Isolation (run/worker.h): a worker sends its heartbeat to this descriptor (-1: not a worker); the test-only fault.
  int heartbeat_fd = -1;
  std::string inject_worker_fault;
  // Test-only: a fault of the catalogue (harness/fault_injection.h) applied to every batch, e.g. to show that
  // `mmasp diff` finds a change of a few bits (the results name the fault in their backend).
  std::string inject_fault;
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
  // The GPU-resident path (harness/resident.h) for the random suites: "auto" uses it on an sm_90 GPU for every pair
  // it can judge (verified model, or an integer form) when the build has its kernel; "on" refuses to run without
  // it; "off" keeps every case on the host path.
  std::string resident = "auto";
  uint64_t resident_sample = 10000;   // cases of each pair the host path judges first (exact reference, model tier)
};

// The note of an emulated result: "emulated on the CPU; not executed: no sm_120a device" for a form that needs an
// architecture-specific target, else "emulated on the CPU; not executed on a GPU".
std::string emulation_label(const Form& form);

struct Shard {
  int index = 1, count = 1;
};
Shard parse_shard(const std::string& text);   // "i/n", 1 <= i <= n; UsageError otherwise

// What the console shows while a run goes on; every member may be empty.
struct NightlyHooks {
  std::function<void(const std::string&)> say;                 // a line for the person at the terminal
  std::function<void(size_t done, size_t total)> compile_progress;
  std::function<void(size_t pairs)> pairs_selected;
  std::function<void(const std::string& what, uint64_t cases, uint64_t failures)> pair_done;
  std::function<void(const std::string&)> log;                 // a suite's own progress lines
  // The signal that asked the run to stop (SIGINT, SIGTERM, SIGHUP), 0 while none did. Asked between batches: the
  // batch in flight finishes, the unfinished pair is left out (and run again by --resume), the record says so.
  std::function<int()> stop_signal;
};

// What `mmasp run` writes into --out. A fresh run replaces a finished run's; it refuses an --out holding an unfinished
// run (a --resume could continue it) or files not in this list, unless --force.
inline constexpr const char* kRunOutputs[] = {"run.json", "junit.xml", "summary.md", "report.html", "results.jsonl",
                                              "journal.jsonl", "compile.json", "failures", "deviations", "closest-to-bound",
                                              "intermittent"};

// The form x selector pairs a run selects (--filter, --exclude, --shard), in the order it runs them. UsageError for a
// malformed glob or shard, or when nothing is selected.
std::vector<std::pair<const Form*, int>> selected_pairs(const NightlyOptions& options);

// Everything about the options that can be refused without a GPU and without touching --out: --budget with --cases,
// --resume with --force, the selection, the compile step's targets and filter, the findings file (returned), the
// injected faults' names. UsageError. A supervisor calls it before it holds --out; run_nightly calls it first.
FindingsFile check_nightly_options(const NightlyOptions& options);

// Throws UsageError for options that cannot run (no form selected, a bad shard, no model for --model strict, a
// non-empty --out without --force or --resume, a --resume whose journal is missing or was made with other options);
// every refusal that does not concern --out itself comes before --out is touched.
RunRecord run_nightly(const NightlyOptions& options, const std::string& command_line, const NightlyHooks& hooks);

}  // namespace mmasp::run
