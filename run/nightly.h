// `mmasp run`, the nightly job, as a function from options to a RunRecord: the options checked, the backends and tiers
// set up (run_setup.h), --out held and its journal opened (run_folder.h), compile conformance, undefined behaviour in
// isolation, then every selected form x selector pair (pair_runner.h; on --resume the finished ones replayed from the
// journal). Results stream to <out>/results.jsonl as they arrive; the reports are written by the caller from the
// record.
#pragma once

#include <functional>
#include <string>

#include "reports/run_record.h"
#include "run/backends.h"
#include "reports/findings.h"
#include "run/run_options.h"
#include "run/compile_step.h"

namespace mmasp::run {

// The note of an emulated result: "emulated on the CPU; not executed: no sm_120a device" for a form that needs an
// architecture-specific target, else "emulated on the CPU; not executed on a GPU".
std::string emulation_label(const Form& form);

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
