// The toolkit's ptxas, run as a subprocess, in parallel, with results cached by content hash.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracle/target.h"

namespace mmasp {

struct PtxasInfo {
  std::filesystem::path path;
  std::string version;                      // "Cuda compilation tools, release 13.0, V13.0.88"
  std::optional<PtxVersion> max_ptx;        // the newest .version it assembles, probed
};

// A ptxas the user named (--ptxas, MMASP_PTXAS) does not run.
struct PtxasNotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Finds ptxas: an explicit path, else $MMASP_PTXAS, else $CUDA_HOME/bin/ptxas, else the toolkit found at configure
// time, else ptxas on PATH. A named one (explicit or MMASP_PTXAS) that does not run throws PtxasNotFound, without
// trying the others; else std::runtime_error naming what was tried when none runs.
PtxasInfo locate_ptxas(const std::optional<std::filesystem::path>& explicit_path = std::nullopt);

struct AssembleJob {
  std::string ptx;
  std::string target;                       // passed as -arch
};

struct AssembleResult {
  bool accepted = false;
  int exit_code = 0;
  std::string diagnostics;                  // ptxas's output, with the temporary file name replaced by "input.ptx"
  bool from_cache = false;
  bool completed = true;                    // ptxas ran to its own exit: only such a verdict is worth caching
};

class Ptxas {
 public:
  // cache_dir empty: no cache.
  Ptxas(PtxasInfo info, std::filesystem::path cache_dir, unsigned jobs);

  const PtxasInfo& info() const { return info_; }

  AssembleResult assemble(const AssembleJob& job) const;
  // Assembles to a cubin (ptxas -o), uncached; nullopt with the diagnostics in `diagnostics` when ptxas rejects it.
  std::optional<std::string> compile_cubin(const AssembleJob& job, std::string* diagnostics = nullptr) const;

  // Runs every job on `jobs` threads; on_done (if set) is called after each, from a worker, serialised.
  std::vector<AssembleResult> assemble_all(const std::vector<AssembleJob>& jobs,
                                           const std::function<void(size_t done, size_t total)>& on_done = {}) const;

 private:
  std::string cache_key(const AssembleJob& job) const;
  AssembleResult run_ptxas(const AssembleJob& job) const;

  PtxasInfo info_;
  std::filesystem::path cache_dir_;
  unsigned jobs_;
  std::shared_ptr<std::atomic<bool>> cache_writable_;   // false after the first write that failed
};

// Runs a command, returning its exit code and its combined stdout and stderr.
struct CommandResult {
  int exit_code = -1;
  std::string output;
  bool completed = false;   // the process ran and exited by itself (not killed by a signal, not failed to start)
  bool timed_out = false;   // killed after its time limit
  bool stopped = false;     // killed because the process was asked to stop (request_command_stop)
};
// Runs a command with no standard input, collecting its output. With `tool` (ptxas, cuobjdump) it runs in a process
// group of its own, and it is killed, with everything it started, after `timeout_seconds` (0: no limit) or as soon as
// request_command_stop() was called: a tool that never returns must not hang mmasp, nor outlive it. Without `tool`
// (an mmasp child) it stays in mmasp's group, so a terminal's ^C reaches it too.
CommandResult run_command(const std::vector<std::string>& argv, double timeout_seconds = 0, bool tool = false);
// run_command for a toolkit tool: its own group, command_timeout_seconds().
CommandResult run_tool(const std::vector<std::string>& argv);
// The limit of one tool run: $MMASP_TOOL_TIMEOUT seconds (a whole number from 1 to 86400) if set, else 300.
double command_timeout_seconds();
// Async-signal-safe: every running tool is killed, and no new one starts. A stop handler calls it on the first SIGINT,
// SIGTERM or SIGHUP, so that a batch of ptxas runs ends within a fraction of a second.
void request_command_stop();
bool command_stop_requested();

std::filesystem::path default_ptxas_cache_dir();

}  // namespace mmasp
