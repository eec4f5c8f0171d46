// `mmasp screen`: fleet screening for silent data corruption in the sparse tensor-core path. Every listed GPU runs
// the highest-throughput path mmasp has — the GPU-resident path (resident/resident.h) — over every form x selector with
// a judge on that GPU (integer forms; float forms its model covers) for a time budget, in a process of its own, and leaves one JSON verdict per GPU (schema mmasp-screen/1:
// device identity with UUID and, where NVML reads it, the board serial; driver; cases; deviations with a case file to
// send on) and one screen.json over all of them, for fleet tooling. docs/screening.md compares it with dcgmi diag.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <string>

#include "reports/screen_record.h"
#include "resident/resident.h"

namespace mmasp::run {

struct ScreenOptions {
  std::string devices = "all";   // all, or GPU ordinals 0,2,...
  double budget = 60;            // seconds per GPU, spread evenly over the form x selector pairs
  uint64_t seed = 1;
  std::string out = "mmasp-screen";
  std::string model_record;      // judge float forms by this record (judge/model_source.h); empty: search path, table
  ResidentImageChoice image = ResidentImageChoice::automatic;
  std::string filter = "*";      // only forms whose opcode matches this glob
  // A directory of compact sets (judge/compact_set.h, e.g. evidence/compact-sets/sm_90): each screened pair's set runs
  // first, through the module the toolkit (else the driver's JIT) compiled, judged bit for bit. Empty: none.
  std::string compact_sets;
  // Test-only: the compact-set step alone on the CPU emulator computing with the model (no GPU, no resident step); the
  // verdict says it is emulated.
  bool emulator = false;
  // Test-only: a catalogue fault (mmasp selftest --faults, or datapath:<id>) in every batch of the compact-set step.
  std::string inject_fault;
  // One GPU (the per-device process): its ordinal, and where its verdict goes.
  int device = -1;
  std::string verdict;
  // Test-only: flip D[7][7] bit 0 in 1 of N cases on every pair of this device (`inject_fault_on` "K:N" puts it on
  // device K of the list alone), to see a deviating GPU named.
  uint64_t inject_fault_rate = 0;
  std::string inject_fault_on;
};

// One GPU: screens it and returns its verdict (reports/screen_record.h; also written to options.verdict when set).
// Never throws for a device that cannot be screened: the verdict is error, and its error says why.
ScreenRecord screen_device(const ScreenOptions& options, const std::function<void(const std::string&)>& say);

// Test-only (--emulator): the compact-set step on the CPU emulator, its verdict in <out>/emulator.json; exit as above.
int screen_emulated(const ScreenOptions& options, const std::function<void(const std::string&)>& say);

// Every listed GPU at once, one `mmasp screen --device N` process each; writes <out>/gpuN.json, <out>/gpuN.log and
// <out>/screen.json. Returns 0 when every GPU passed, 1 when one deviated, 2 when one could not be screened.
int screen_devices(const ScreenOptions& options, const std::vector<std::string>& self_argv,
                   const std::function<void(const std::string&)>& say);

}  // namespace mmasp::run
