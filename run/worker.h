// Isolation and a watchdog for the judged work of `mmasp run`, in the style of deqp-runner: the run's form x selector
// pairs execute in a worker process (the same `mmasp run` with --worker), which tells its supervisor over a pipe which
// pair it is on and when each batch starts and ends. A batch that does not end within its deadline (the --watchdog
// floor, or 1 ms per case of the batch when that is longer) makes its pair Timeout; a worker that dies makes its pair
// Crash. Either way the supervisor writes that pair into the run's journal (run/journal.h), starts a new worker with
// --resume, and the run goes on. A worker whose GPU context was lost (an instruction trapped: the pair's results say
// Crash) ends itself with kExitWorkerLost after journaling the pair, so that the next pair gets a working context.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/fault_injection.h"

namespace mmasp::run {

// The environment variable that tells a worker its supervisor's pid: a worker whose parent is no longer that process
// (the supervisor died before the worker set its death signal) stops at once, without touching --out.
inline constexpr const char* kSupervisorPidVariable = "MMASP_SUPERVISOR_PID";

// A worker's exit status when its GPU context is lost: the supervisor starts another one.
inline constexpr int kExitWorkerLost = 3;
struct WorkerLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a worker tells its supervisor: which pair it starts, that a batch of so many cases starts (the watchdog's
// deadline follows the batch's size) or ended, and that it is between pairs. One line each on the pipe, encoded and
// decoded here alone: "pair <index> <emulated 0|1> <selector> <opcode>", "batch <cases>", "beat", "idle".
struct WorkerMessage {
  enum class Kind { pair, batch, beat, idle };
  Kind kind = Kind::beat;
  size_t pair_index = 0;    // pair
  bool emulated = false;    // pair
  int selector = 0;         // pair
  std::string opcode;       // pair
  uint64_t cases = 0;       // batch

  static WorkerMessage pair(size_t index, bool emulated, int selector, std::string opcode);
  static WorkerMessage batch(uint64_t cases);
  static WorkerMessage beat();
  static WorkerMessage idle();
};
std::string encode(const WorkerMessage& message);                  // one line, without the newline
std::optional<WorkerMessage> decode(const std::string& line);      // nullopt for anything else

class Heartbeat {
 public:
  explicit Heartbeat(int fd) : fd_(fd) {}
  void send(const WorkerMessage& message) const;
  bool active() const { return fd_ >= 0; }

 private:
  int fd_;
};

// Test-only: "hang@GLOB", "crash@GLOB" or "trap@GLOB[@SELECTOR]" — the fault strikes the first batch of every pair
// whose opcode matches GLOB (and selector, when given).
struct WorkerFault {
  ProcessFault kind = ProcessFault::hang;
  std::string form_glob;
  int selector = -1;   // any
};
WorkerFault parse_worker_fault(const std::string& text);   // UsageError for anything else

// The worker's view of the primary backend: heartbeats around each batch, and the injected fault when one is given.
// On a GPU a hang or trap runs a real kernel (process_fault_kernel); on the emulator a hang waits forever and a trap
// throws and leaves the backend unusable, as a lost context would.
class WatchedBackend final : public Backend {
 public:
  WatchedBackend(Backend& inner, Heartbeat heartbeat, std::optional<WorkerFault> fault, CudaDevice* device,
                 std::optional<Target> target);
  std::string description() const override { return inner_.description(); }
  bool is_hardware() const override { return inner_.is_hardware(); }
  std::string architecture() const override { return inner_.architecture(); }
  bool supports(const Form& form, std::string* why) const override { return inner_.supports(form, why); }
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override;
  bool usable() const override { return !lost_ && inner_.usable(); }

 private:
  void strike(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases);
  Backend& inner_;
  Heartbeat heartbeat_;
  std::optional<WorkerFault> fault_;
  CudaDevice* device_;
  std::optional<Target> target_;
  bool lost_ = false;
};

struct SupervisorOptions {
  std::filesystem::path out;               // the run's --out (its journal.jsonl gets the Timeout/Crash pairs)
  double watchdog_seconds = 60;            // the deadline floor of a batch
  bool ub = false;                         // whether pairs have a UB suite (the Timeout/Crash results name each suite)
  std::function<void(const std::string&)> say;
};

// Runs `worker_argv` (this program's `mmasp run ...`, without --worker) as workers until the run is finished; returns
// the last worker's exit status (or 128 + a signal the supervisor forwarded). SIGINT, SIGTERM and SIGHUP are passed
// on to the worker, which stops after its batch and writes the interrupted reports.
int supervise(const std::vector<std::string>& worker_argv, const SupervisorOptions& options);

}  // namespace mmasp::run
