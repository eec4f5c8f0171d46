#include "run/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <sstream>

#include "reports/findings.h"
#include "run/journal.h"
#include "run/nightly.h"
#include "run/usage_error.h"

extern char** environ;

namespace mmasp::run {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

WorkerMessage WorkerMessage::pair(size_t index, bool emulated, int selector, std::string opcode) {
  WorkerMessage m;
  m.kind = Kind::pair;
  m.pair_index = index;
  m.emulated = emulated;
  m.selector = selector;
  m.opcode = std::move(opcode);
  return m;
}
WorkerMessage WorkerMessage::batch(uint64_t cases) {
  WorkerMessage m;
  m.kind = Kind::batch;
  m.cases = cases;
  return m;
}
WorkerMessage WorkerMessage::beat() { return WorkerMessage{}; }
WorkerMessage WorkerMessage::idle() {
  WorkerMessage m;
  m.kind = Kind::idle;
  return m;
}

std::string encode(const WorkerMessage& m) {
  switch (m.kind) {
    case WorkerMessage::Kind::pair:
      return "pair " + std::to_string(m.pair_index) + " " + (m.emulated ? "1 " : "0 ") + std::to_string(m.selector) + " " + m.opcode;
    case WorkerMessage::Kind::batch: return "batch " + std::to_string(m.cases);
    case WorkerMessage::Kind::beat: return "beat";
    case WorkerMessage::Kind::idle: return "idle";
  }
  return "beat";
}

std::optional<WorkerMessage> decode(const std::string& line) {
  std::istringstream words(line);
  std::string kind;
  words >> kind;
  WorkerMessage m;
  if (kind == "pair") {
    int emulated = 0;
    m.kind = WorkerMessage::Kind::pair;
    if (!(words >> m.pair_index >> emulated >> m.selector >> m.opcode)) return std::nullopt;
    m.emulated = emulated != 0;
  } else if (kind == "batch") {
    m.kind = WorkerMessage::Kind::batch;
    if (!(words >> m.cases)) return std::nullopt;
  } else if (kind == "beat") {
    m.kind = WorkerMessage::Kind::beat;
  } else if (kind == "idle") {
    m.kind = WorkerMessage::Kind::idle;
  } else {
    return std::nullopt;
  }
  return m;
}

void Heartbeat::send(const WorkerMessage& message) const {
  if (fd_ < 0) return;
  const std::string text = encode(message) + "\n";
  // One write per message (shorter than PIPE_BUF, so never interleaved); a supervisor that went away is not an error
  // of the run.
  [[maybe_unused]] const ssize_t written = write(fd_, text.data(), text.size());
}

WorkerFault parse_worker_fault(const std::string& text) {
  WorkerFault fault;
  const size_t at = text.find('@');
  const auto kind = at == std::string::npos ? std::nullopt : process_fault_named(text.substr(0, at));
  if (!kind) throw UsageError("--inject-worker-fault takes hang@GLOB, crash@GLOB or trap@GLOB[@SELECTOR], not '" + text + "'");
  fault.kind = *kind;
  fault.form_glob = text.substr(at + 1);
  if (const size_t second = fault.form_glob.rfind('@'); second != std::string::npos) {
    const std::string selector = fault.form_glob.substr(second + 1);
    if (selector.empty() || selector.size() > 2 || selector.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError("--inject-worker-fault: the selector after the second '@' must be a small whole number, not '" + selector + "'");
    fault.selector = std::stoi(selector);
    fault.form_glob.resize(second);
  }
  if (const std::string problem = glob_problem(fault.form_glob); !problem.empty()) throw UsageError("--inject-worker-fault: " + problem);
  return fault;
}

WatchedBackend::WatchedBackend(Backend& inner, Heartbeat heartbeat, std::optional<WorkerFault> fault, CudaDevice* device,
                               std::optional<Target> target)
    : inner_(inner), heartbeat_(heartbeat), fault_(std::move(fault)), device_(device), target_(std::move(target)) {}

void WatchedBackend::strike(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) {
  if (!fault_ || (fault_->selector >= 0 && fault_->selector != selector) || !glob_match(fault_->form_glob, form.opcode)) return;
  switch (fault_->kind) {
    case ProcessFault::crash:
      raise(SIGSEGV);
      break;
    case ProcessFault::hang:
    case ProcessFault::trap:
      if (device_ && target_) {
        // The real thing: a kernel that never ends, or one that traps (the context is lost; the call throws).
        try {
          device_->run_ptx(process_fault_kernel(fault_->kind, *target_), input, form.regs.d, cases);
        } catch (...) {
          lost_ = !device_->usable();
          throw;
        }
      }
      if (fault_->kind == ProcessFault::hang)
        for (;;) pause();   // the emulator's stand-in for a launch that never returns
      lost_ = true;
      throw std::runtime_error("injected trap: the context is lost (test-only --inject-worker-fault)");
  }
}

std::vector<uint32_t> WatchedBackend::run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) {
  heartbeat_.send(WorkerMessage::batch(cases));
  if (lost_) throw std::runtime_error("the context was lost earlier in this process (an instruction trapped)");
  strike(form, selector, input, cases);
  std::vector<uint32_t> out = inner_.run(form, selector, input, cases);
  heartbeat_.send(WorkerMessage::beat());
  return out;
}

namespace {

volatile sig_atomic_t g_forward_signal = 0;
extern "C" void remember_signal(int signal) { g_forward_signal = signal; }

struct PairInProgress {
  size_t index = 0;
  bool emulated = false;
  int selector = 0;
  std::string opcode;
  Clock::time_point started;
};

std::string signal_text(int signal) {
  const char* text = strsignal(signal);
  return "signal " + std::to_string(signal) + (text ? std::string(" (") + text + ")" : "");
}

// Writes a pair the worker could not finish into the journal, once, with `status` for each of its suites.
void journal_lost_pair(const fs::path& journal_path, const PairInProgress& pair, Status status, const std::string& what,
                       bool ub) {
  Journal journal = read_journal(journal_path);
  if (journal.pairs.size() != pair.index) return;   // the worker journaled it before it went: nothing is lost
  JournalPair lost;
  lost.form = pair.opcode;
  lost.selector = pair.selector;
  lost.elapsed_seconds = (journal.pairs.empty() ? 0.0 : journal.pairs.back().elapsed_seconds) +
                         std::chrono::duration<double>(Clock::now() - pair.started).count();
  const Form* form = find_form(pair.opcode);
  std::vector<Suite> suites = {Suite::special};
  if (ub) suites.push_back(Suite::undefined);
  suites.push_back(Suite::random);
  for (Suite suite : suites) {
    ResultRecord result = result_record(pair.opcode, pair.selector, suite, status, "worker process",
                                        (pair.emulated && form ? emulation_label(*form) + "; " : std::string()) + what);
    result.emulated = pair.emulated;
    lost.results.push_back(std::move(result));
  }
  JournalWriter writer(journal_path, journal);   // rewritten without a line the dead worker may have cut off
  writer.pair(lost);
}

class Supervisor {
 public:
  Supervisor(const std::vector<std::string>& argv, const SupervisorOptions& options) : argv_(argv), o_(options) {}
  int run();

 private:
  void say(const std::string& line) const {
    if (o_.say) o_.say(line);
  }
  pid_t spawn(bool resume, int heartbeat_fd);
  // Reads the worker's messages until it ends; returns its wait status. Kills it when a batch passes its deadline.
  int watch(pid_t pid, int fd);
  void message(const std::string& line);

  std::vector<std::string> argv_;
  const SupervisorOptions& o_;
  std::optional<PairInProgress> pair_;
  Clock::time_point last_ = Clock::now();
  double deadline_ = 0;
  bool timed_out_ = false, forwarded_ = false;
};

pid_t Supervisor::spawn(bool resume, int heartbeat_fd) {
  std::vector<std::string> args;
  for (const auto& arg : argv_)
    if (!(resume && arg == "--force")) args.push_back(arg);   // a resumed worker continues; it must not start afresh
  args.insert(args.end(), {"--worker", "--heartbeat-fd", std::to_string(heartbeat_fd)});
  if (resume && std::find(args.begin(), args.end(), "--resume") == args.end()) args.push_back("--resume");
  std::vector<char*> pointers;
  for (auto& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group: the watchdog ends the worker and everything it started (ptxas, UB probes) at once.
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  // The worker checks that its parent is still this supervisor once its death signal is set (cli/run_command.cpp).
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind(kSupervisorPidVariable + std::string("="), 0) != 0) environment.emplace_back(*e);
  environment.push_back(kSupervisorPidVariable + std::string("=") + std::to_string(getpid()));
  std::vector<char*> environment_pointers;
  for (auto& entry : environment) environment_pointers.push_back(entry.data());
  environment_pointers.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, "/proc/self/exe", nullptr, &attributes, pointers.data(), environment_pointers.data());
  posix_spawnattr_destroy(&attributes);
  if (error != 0) throw std::runtime_error(std::string("cannot start a worker: ") + std::strerror(error));
  return pid;
}

void Supervisor::message(const std::string& line) {
  last_ = Clock::now();
  const std::optional<WorkerMessage> m = decode(line);
  if (!m) return;   // a worker's stray output is no message
  switch (m->kind) {
    case WorkerMessage::Kind::pair:
      pair_ = PairInProgress{m->pair_index, m->emulated, m->selector, m->opcode, last_};
      deadline_ = o_.watchdog_seconds;
      break;
    case WorkerMessage::Kind::batch:
      deadline_ = std::max(o_.watchdog_seconds, 1e-3 * double(m->cases));   // 1 ms a case: far beyond any device's rate
      break;
    case WorkerMessage::Kind::idle:
      pair_.reset();
      break;
    case WorkerMessage::Kind::beat:
      break;
  }
}

int Supervisor::watch(pid_t pid, int fd) {
  std::string buffer;
  bool open = true;
  while (open) {
    if (const int signal = g_forward_signal; signal && !forwarded_) {
      kill(-pid, signal);   // the worker stops after its batch and writes the interrupted reports
      forwarded_ = true;
    }
    int wait_ms = 1000;
    if (pair_) {
      const double left = deadline_ - std::chrono::duration<double>(Clock::now() - last_).count();
      if (left <= 0) {
        timed_out_ = true;
        kill(-pid, SIGKILL);
        break;
      }
      wait_ms = int(std::min(1000.0, left * 1000) + 1);
    }
    pollfd poll_fd{fd, POLLIN, 0};
    if (poll(&poll_fd, 1, wait_ms) <= 0) continue;   // a timeout or a signal: look again
    char chunk[4096];
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got <= 0) {
      open = false;
      break;
    }
    buffer.append(chunk, size_t(got));
    for (size_t end; (end = buffer.find('\n')) != std::string::npos; buffer.erase(0, end + 1)) message(buffer.substr(0, end));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int Supervisor::run() {
  struct sigaction action = {};
  action.sa_handler = remember_signal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
  const fs::path journal = o_.out / kJournalFile;
  bool resume = false;
  size_t finished_before = 0;
  for (;;) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    const pid_t pid = spawn(resume, fds[1]);
    close(fds[1]);
    pair_.reset();
    timed_out_ = false;
    const int status = watch(pid, fds[0]);
    close(fds[0]);
    if (forwarded_) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (WIFEXITED(status) && WEXITSTATUS(status) != kExitWorkerLost) return WEXITSTATUS(status);
    if (WIFEXITED(status)) {
      say("mmasp run: the worker's GPU context was lost; a new worker continues the run");
    } else if (!pair_) {
      // Dead outside any pair (compile conformance, the reports): nothing to put down to one pair, and nothing a new
      // worker would do differently.
      say("mmasp run: the worker ended by " + signal_text(WTERMSIG(status)) + " outside any form x selector pair");
      return 128 + WTERMSIG(status);
    } else {
      const double seconds = std::chrono::duration<double>(Clock::now() - pair_->started).count();
      std::ostringstream what;
      if (timed_out_)
        what << "watchdog: no batch ended within " << deadline_ << " s (" << seconds
             << " s into the pair); its worker process was killed and a new one continued the run";
      else
        what << "the worker process ended by " << signal_text(WTERMSIG(status)) << " " << seconds
             << " s into the pair; a new one continued the run";
      say("mmasp run: " + pair_->opcode + " sel=" + std::to_string(pair_->selector) + ": " +
          (timed_out_ ? "Timeout" : "Crash") + ": " + what.str());
      journal_lost_pair(journal, *pair_, timed_out_ ? Status::timeout : Status::crash, what.str(), o_.ub);
    }
    // Every restart must follow progress, or the same thing would happen again and again.
    const size_t finished = read_journal(journal).pairs.size();
    if (resume && finished <= finished_before) {
      say("mmasp run: a new worker made no progress; stopping");
      return 70;
    }
    finished_before = finished;
    resume = true;
  }
}

}  // namespace

int supervise(const std::vector<std::string>& worker_argv, const SupervisorOptions& options) {
  Supervisor supervisor(worker_argv, options);
  return supervisor.run();
}

}  // namespace mmasp::run
