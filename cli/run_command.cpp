// `mmasp run`, the nightly job (run/nightly.h): its options (the list in run/run_options.h plus the CLI's own), the
// choice of backend, the supervisor that isolates the pairs in workers (run/worker.h), the console, and the reports.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <map>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/ptxas.h"
#include "oracle/text.h"
#include "reports/run_report.h"
#include "run/backends.h"
#include "run/devices.h"
#include "run/folder_lock.h"
#include "run/nightly.h"
#include "run/worker.h"

namespace mmasp::cli {
namespace {

// --isolation: process runs the pairs in watched worker processes (run/worker.h); auto does so unless on the emulator.
enum class Isolation { automatic, process, none };

struct RunOptions : run::NightlyOptions {
  bool emulator = false;            // --emulator: the same as --backend emulator
  std::string backend_text = "auto";
  std::string gpu_option;           // the first option given that only a GPU can honour (--device, --model strict, ...)
  std::string user_command;         // a worker: the command its supervisor was given (the one reports show)
  std::string baseline;             // a run.json to diff against: regressions go into report.html and the console
  Isolation isolation = Isolation::automatic;
  double watchdog = 60;             // seconds: the deadline floor of a batch in a worker
  bool worker = false;              // this process is a worker of a supervising `mmasp run`
  std::string devices;              // run/devices.h: all, 0,2,..., emulator:N
  CLI::Option* devices_option = nullptr;   // whether --devices was given at all (an empty list is refused)
  std::string inject_fault_on;      // test-only: K:FAULT, a fault on the K-th of --devices alone
};

// Progress on a terminal: one rewritten line (pairs done, cases/s, failing results); otherwise a line per pair.
class RunProgress {
 public:
  run::NightlyHooks hooks() {
    run::NightlyHooks h;
    h.say = [this](const std::string& line) { message(line); };
    h.log = h.say;
    h.compile_progress = std::ref(compile_);
    h.pairs_selected = [this](size_t total) { total_ = total, start_ = std::chrono::steady_clock::now(); };
    h.pair_done = [this](const std::string& what, uint64_t cases, uint64_t failures) { pair_done(what, cases, failures); };
    return h;
  }

 private:
  void message(const std::string& text) {
    if (tty_) std::cerr << "\r\33[2K" << std::flush;
    std::cout << text << (text.empty() || text.back() != '\n' ? "\n" : "") << std::flush;
  }
  void pair_done(const std::string& what, uint64_t cases, uint64_t failures) {
    ++done_, cases_ += cases, failures_ += failures;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + " form x selector] " +
                             std::to_string(uint64_t(double(cases_) / std::max(seconds, 1e-9))) + " cases/s, " +
                             std::to_string(failures_) + " failing results";
    if (tty_) std::cerr << "\r" << line << "  " << (done_ == total_ ? "\n" : "") << std::flush;
    else std::cerr << line << " — " << what << "\n";
  }
  Progress compile_{"compile conformance:"};
  bool tty_ = isatty(STDERR_FILENO);
  size_t total_ = 0, done_ = 0;
  uint64_t cases_ = 0, failures_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The first SIGINT, SIGTERM or SIGHUP asks the run to stop after the batch in flight and write its reports marked
// interrupted; the handler then resets itself, so a second signal ends the process at once.
volatile sig_atomic_t g_stop_signal = 0;
extern "C" void ask_to_stop(int signal) {
  g_stop_signal = signal;
  request_command_stop();   // ptxas runs in flight are killed: their cases are not run, and reported so
  static const char message[] = "\nmmasp run: stopping after the batch in flight; the reports will say interrupted "
                                "(the same signal again ends the process at once)\n";
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
}

void install_stop_handlers() {
  struct sigaction action = {};
  action.sa_handler = ask_to_stop;
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

void add_run_options(CLI::App* command, RunOptions& o) {
  // Every option that reaches the run, from its one list (run/run_options.h); the ones that only a GPU honours record
  // themselves in gpu_option, which makes --backend auto mean gpu (run_main).
  OptionRegistrar registrar(command, &o.gpu_option);
  run::visit_run_options(o, registrar);
  // Where and how the run happens, not its results: the CLI's own.
  command->add_option("--backend", o.backend_text, "where cases run: gpu (a usable GPU is required: without one the run "
                      "exits 2 naming why), emulator (the CPU, never a GPU), auto (the GPU when there is one, else the "
                      "emulator, and the reports say so); --device, --paths, --modules, --model strict|warn, --extras on "
                      "and --resident on imply gpu")
      ->check(CLI::IsMember({"auto", "gpu", "emulator"}))->capture_default_str();
  command->add_flag("--emulator", o.emulator, "the same as --backend emulator");
  command->add_option("--baseline", o.baseline, "run.json to compare with: regressions are listed in report.html");
  add_enum_option<Isolation>(command, "--isolation", o.isolation,
                             {{"auto", Isolation::automatic}, {"process", Isolation::process}, {"none", Isolation::none}},
                             "process: run the pairs in worker processes under a watchdog (a hang is Timeout, a crash or "
                             "lost GPU context Crash, and the run goes on); none; auto = process unless --emulator");
  command->add_option("--watchdog", o.watchdog, "seconds a batch may take in a worker before its pair is Timeout "
                      "(a floor: at least 1 ms per case of the batch)")->check(kSeconds)->capture_default_str();
  o.devices_option = command->add_option("--devices", o.devices, "the same run on several devices at once, each in <out>/<device>/, then "
                      "compared bit for bit (<out>/devices.json names a deviating device): all, 0,2,... or emulator:N");
  // Between a supervising mmasp run and its workers, and the tests: not for people.
  command->add_flag("--worker", o.worker)->group("");
  command->add_option("--user-command", o.user_command)->group("");
  command->add_option("--inject-fault-on", o.inject_fault_on)->group("");
}

// --emulator is --backend emulator; an option only a GPU honours makes auto gpu.
void resolve_backend(RunOptions& o) {
  o.backend = *run::backend_choice_named(o.backend_text);
  if (o.emulator) {
    if (o.backend == run::BackendChoice::gpu) throw UsageError("--emulator and --backend gpu contradict each other");
    o.backend = run::BackendChoice::emulator;
  }
  if (!o.emulate.empty()) {   // the emulator's arithmetic: only the emulator has one to set
    if (o.backend == run::BackendChoice::gpu) throw UsageError("--emulate sets the CPU emulator's arithmetic; --backend gpu contradicts it");
    o.backend = run::BackendChoice::emulator;
  }
  if (!o.gpu_option.empty()) {
    if (o.backend == run::BackendChoice::emulator)
      throw UsageError(o.gpu_option + " needs a GPU, and the run was told to use the emulator");
    if (o.backend != run::BackendChoice::gpu) o.gpu_required_by = o.gpu_option;
    o.backend = run::BackendChoice::gpu;
  }
}

// --devices: each device's run is this command without the options that select devices and the output.
int run_on_devices(const RunOptions& o, int argc, char** argv) {
  const auto devices = run::parse_devices(o.devices);
  std::vector<std::string> run_argv;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    bool dropped = false;
    for (const char* option : {"--devices", "--inject-fault-on", "--out"}) {
      if (arg == option) {
        ++i, dropped = true;
        break;
      }
      if (arg.rfind(std::string(option) + "=", 0) == 0) {
        dropped = true;
        break;
      }
    }
    if (!dropped) run_argv.push_back(arg);
  }
  run::DevicesOptions options{o.out, o.inject_fault_on, [](const std::string& line) { std::cout << line << "\n" << std::flush; }};
  return run::run_on_devices(run_argv, devices, options);
}

// The supervisor: the options are checked before --out is touched; then it holds --out for the whole run, its workers
// included (they run under this hold). A worker that refuses the run (exit 2: no GPU for --backend gpu, no model for
// --model strict) leaves a folder this hold created empty, and it is removed again.
int supervise(const RunOptions& o, int argc, char** argv) {
  run::check_nightly_options(o);
  run::FolderLock lock(o.out, "--out");
  std::vector<std::string> worker_argv(argv, argv + argc);
  // The workers' reports show this command, the one the person typed, never the worker's own.
  worker_argv.insert(worker_argv.end(), {"--user-command", command_line(argc, argv)});
  run::SupervisorOptions supervision{o.out, o.watchdog, o.ub, [](const std::string& line) { std::cerr << line << "\n"; }};
  const int status = run::supervise(worker_argv, supervision);
  if (status == kExitUsage) lock.remove_if_unused();
  return status;
}

// The run itself (in this process, or as a worker): the record, then every report of it.
int run_here(RunOptions o, int argc, char** argv) {
  // A worker dies with its supervisor (a kill -9 of `mmasp run` ends the whole run, as without isolation), and a
  // supervisor that died before this line was reached leaves a worker that must not run on without its hold on --out.
  if (o.worker) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const char* supervisor = std::getenv(run::kSupervisorPidVariable);
    if (!supervisor || std::to_string(getppid()) != supervisor) {
      std::cerr << "mmasp run (worker): its supervisor is gone; stopping without touching --out\n";
      return run::kExitWorkerLost;
    }
  }
  std::optional<RunRecord> baseline;   // read first: a bad --baseline should not cost a whole run
  if (!o.baseline.empty()) baseline = load_run_record(o.baseline);
  const std::string command = o.user_command.empty() ? command_line(argc, argv) : o.user_command;
  // A run in this process holds --out until its last report is written: a `mmasp report` or a second run in between
  // would replace what this run is writing.
  std::optional<run::FolderLock> hold;
  if (!o.worker) {
    run::check_nightly_options(o);
    hold.emplace(o.out, "--out");
    o.out_held = true;
  }
  RunProgress progress;
  run::NightlyHooks hooks = progress.hooks();
  hooks.stop_signal = [] { return int(g_stop_signal); };
  install_stop_handlers();
  RunRecord record;
  try {
    record = run::run_nightly(o, command, hooks);
  } catch (const run::WorkerLost& lost) {
    std::cerr << "mmasp run (worker): " << lost.what() << "\n";
    return run::kExitWorkerLost;
  } catch (const UsageError&) {
    if (hold) hold->remove_if_unused();   // refused before --out was used: a folder the hold created goes again
    throw;
  }
  std::optional<DiffReport> diff;
  if (baseline) diff = diff_runs(*baseline, record, {});
  write_reports(record, o.out, diff ? &*diff : nullptr);
  std::cout << console_summary(record);
  if (diff) std::cout << "\nagainst " << o.baseline << ":\n" << format_diff(*diff, *baseline, record);
  std::cout << "\nreports: " << (std::filesystem::path(o.out) / "run.json").string()
            << ", junit.xml, summary.md, report.html, results.jsonl\n";
  return exit_code_for(record);
}

int run_main(RunOptions o, int argc, char** argv) {
  resolve_backend(o);
  if (!o.inject_worker_fault.empty()) run::parse_worker_fault(o.inject_worker_fault);   // a usage error before anything
  if (o.devices_option && o.devices_option->count() > 0 && o.devices.empty())
    throw UsageError("--devices names no device: give all, a list of GPU ordinals (0,2,...) or emulator:N");
  if (!o.devices.empty()) return run_on_devices(o, argc, argv);
  if (!o.inject_fault_on.empty()) throw UsageError("--inject-fault-on needs --devices");
  const bool isolate = o.isolation == Isolation::process ||
                       (o.isolation == Isolation::automatic && o.backend != run::BackendChoice::emulator);
  return isolate && !o.worker ? supervise(o, argc, argv) : run_here(o, argc, argv);
}

}  // namespace

Subcommand add_run_command(CLI::App& mmasp) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* run = mmasp.add_subcommand("run", "the main job: everything this machine can check");
  add_run_options(run, *o);
  run->footer(
      "Exit status:\n"
      "  0    every result Pass, QualityWarning, NotSupported, UB-not-judged or Waived, no new compile disagreement,\n"
      "       every probed layout as the oracle says\n"
      "  1    a Fail, Deviation, Intermittent, Crash or Timeout, a new compile disagreement or a layout mismatch\n"
      "  2    a usage or environment error (nothing was run; --out is as it was): e.g. --backend gpu without a GPU\n"
      "  128+N  stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP); the reports say INTERRUPTED and\n"
      "       `mmasp run --resume --out DIR` with the same options finishes the run\n"
      "Reports in --out: run.json, junit.xml, summary.md, report.html, results.jsonl, compile.json (docs/run-report.md).");
  return {run, [o](int argc, char** argv) { return run_main(*o, argc, argv); }};
}

}  // namespace mmasp::cli
