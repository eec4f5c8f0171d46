#include "cli/run_command.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <iostream>

#include "oracle/text.h"
#include "reports/run_report.h"
#include "run/backends.h"
#include "run/devices.h"
#include "run/folder_lock.h"
#include "run/worker.h"

namespace mmasp::cli {
namespace {

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

}  // namespace

std::string command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + shell_word(argv[i]);
  return line;
}

void add_run_options(CLI::App* command, RunOptions& o) {
  add_compile_options(command, o.compile, false);
  // Options that only a GPU can honour: given explicitly, each means "this run needs a GPU" (--backend auto becomes gpu),
  // so that a runner that lost its GPU fails instead of emulating what was asked of the hardware.
  const auto needs_gpu = [&o](const std::string& option) {
    return [&o, option](const std::string& value) {
      if (o.gpu_option.empty() && value != "auto" && value != "off") o.gpu_option = option + (value.empty() ? "" : " " + value);
    };
  };
  command->add_option("--backend", o.backend_text, "where cases run: gpu (a usable GPU is required: without one the run "
                      "exits 2 naming why), emulator (the CPU, never a GPU), auto (the GPU when there is one, else the "
                      "emulator, and the reports say so); --device, --paths, --modules, --model strict|warn, --extras on "
                      "and --resident on imply gpu")
      ->check(CLI::IsMember({"auto", "gpu", "emulator"}))->capture_default_str();
  command->add_option("--device", o.device, "GPU ordinal (implies --backend gpu)")->capture_default_str()
      ->check(whole_number(0, INT32_MAX))->each(needs_gpu("--device"));
  command->add_flag("--emulator", o.emulator, "the same as --backend emulator");
  command->add_option("--filter", o.filter, "only forms whose opcode matches this glob");
  command->add_option("--exclude", o.exclude, "leave out forms whose opcode matches this glob");
  command->add_option("--budget", o.budget, "seconds for the whole run, spread fairly over forms")->check(kSeconds);
  command->add_option("--cases", o.cases, "random cases per form and selector (default 10000 on a GPU, 64 emulated)")->check(whole_number(1, UINT64_MAX));
  command->add_option("--seed", o.seed, "seed of every generated case")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  command->add_option("--shard", o.shard, "run shard i of n (a deterministic split of forms), e.g. 2/4")->capture_default_str();
  command->add_flag("--ub", o.ub, "also run undefined-behaviour cases (in isolation, never judged)");
  command->add_option("--out", o.out, "directory for reports; a finished run's there are replaced, an unfinished run or "
                      "other files are refused (see --resume, --force)")->capture_default_str();
  command->add_flag("--resume", o.resume, "continue the interrupted run in --out from its journal.jsonl (same options)");
  command->add_flag("--force", o.force, "replace an unfinished run in --out, or write beside files mmasp did not write");
  command->add_option("--baseline", o.baseline, "run.json to compare with: regressions are listed in report.html");
  command->add_flag("--no-compile", o.no_compile, "skip compile conformance");
  command->add_option("--isolation", o.isolation, "process: run the pairs in worker processes under a watchdog (a hang "
                      "is Timeout, a crash or lost GPU context Crash, and the run goes on); none; auto = process "
                      "unless --emulator")->check(CLI::IsMember({"auto", "process", "none"}))->capture_default_str();
  command->add_option("--watchdog", o.watchdog, "seconds a batch may take in a worker before its pair is Timeout "
                      "(a floor: at least 1 ms per case of the batch)")->check(kSeconds)->capture_default_str();
  // Between a supervising mmasp run and its workers, and the watchdog's own tests: not for people.
  command->add_flag("--worker", o.worker)->group("");
  command->add_option("--heartbeat-fd", o.heartbeat_fd)->group("");
  command->add_option("--inject-worker-fault", o.inject_worker_fault)->group("");
  command->add_option("--inject-fault", o.inject_fault)->group("");
  command->add_option("--user-command", o.user_command)->group("");
  command->add_option("--devices", o.devices, "the same run on several devices at once, each in <out>/<device>/, then "
                      "compared bit for bit (<out>/devices.json names a deviating device): all, 0,2,... or emulator:N");
  command->add_option("--inject-fault-on", o.inject_fault_on)->group("");
  command->add_flag("--layouts,!--no-layouts", o.layouts, "layout discovery (default on a GPU)")
      ->each([&o](const std::string&) { o.layouts_given = true; });
  command->add_option("--extras", o.extras, "layout discovery, SASS and the compile-path comparison on a GPU: auto, on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))->capture_default_str()->each(needs_gpu("--extras"));
  command->add_option("--paths", o.paths, "compile paths on a GPU: toolkit, driver-jit or both")->capture_default_str()
      ->each(needs_gpu("--paths"));
  command->add_option("--modules", o.modules, "toolkit module store (default: <cache>/modules; see mmasp prepare)")
      ->each(needs_gpu("--modules"));
  command->add_option("--threads", o.threads, "host threads for generation and judging")->capture_default_str()->check(whole_number(1, kMaxThreads));
  command->add_option("--special-generated", o.special_generated, "generated special-value cases per pair")->capture_default_str()
      ->check(whole_number(0, UINT32_MAX));
  command->add_option("--model", o.model, "bit-exact model tier: strict (a deviation fails the run), warn (reported like a "
                      "QualityWarning), off; auto = strict on a GPU with verified models")
      ->check(CLI::IsMember({"auto", "strict", "warn", "off"}))->capture_default_str()->each(needs_gpu("--model"));
  command->add_flag("--model-candidates", o.model_candidates,
                    "let the model tier use unverified model records too (how a record is verified on hardware)");
  command->add_option("--resident", o.resident, "GPU-resident random cases (drawn, run and judged on the GPU; the host "
                      "replays what it finds): auto = on an sm_90 GPU with a strict model tier, on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))->capture_default_str()->each(needs_gpu("--resident"));
  command->add_option("--resident-sample", o.resident_sample, "with --resident: random cases of each pair judged on the "
                      "host path first (exact reference and model tier)")->capture_default_str()->check(whole_number(0, UINT64_MAX));
}

int run_main(const RunOptions& given, int argc, char** argv) {
  RunOptions o = given;
  // The backend, resolved once: --emulator is --backend emulator; an option only a GPU honours makes auto gpu.
  o.backend = *run::backend_choice_named(o.backend_text);
  if (o.emulator) {
    if (o.backend == run::BackendChoice::gpu) throw UsageError("--emulator and --backend gpu contradict each other");
    o.backend = run::BackendChoice::emulator;
  }
  if (!o.gpu_option.empty()) {
    if (o.backend == run::BackendChoice::emulator)
      throw UsageError(o.gpu_option + " needs a GPU, and the run was told to use the emulator");
    if (o.backend != run::BackendChoice::gpu) o.gpu_required_by = o.gpu_option;
    o.backend = run::BackendChoice::gpu;
  }
  if (!o.inject_worker_fault.empty()) run::parse_worker_fault(o.inject_worker_fault);   // a usage error before anything
  if (!o.devices.empty()) {
    // Each device's run is this command without the options that select devices and the output (run/devices.h).
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
  if (!o.inject_fault_on.empty()) throw UsageError("--inject-fault-on needs --devices");
  const bool isolate = o.isolation == "process" || (o.isolation == "auto" && o.backend != run::BackendChoice::emulator);
  if (isolate && !o.worker) {
    // The options are checked before --out is touched; then the supervisor holds --out for the whole run, its
    // workers included (they run under this lock). A worker that refuses the run (exit 2: no GPU for --backend gpu,
    // no model for --model strict) leaves a folder this lock created empty, and it is removed again.
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
  std::optional<RunRecord> baseline;   // read first: a bad --baseline should not cost a whole run
  if (!o.baseline.empty()) baseline = load_run_record(o.baseline);
  const std::string command = o.user_command.empty() ? command_line(argc, argv) : o.user_command;
  // A worker dies with its supervisor (a kill -9 of `mmasp run` ends the whole run, as without isolation).
  if (o.worker) prctl(PR_SET_PDEATHSIG, SIGKILL);
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

void add_ub_probe_options(CLI::App* command, UbProbeOptions& o) {
  command->add_option("--form", o.form, "opcode");
  command->add_option("--job", o.jobs, "opcode@selector@value, repeatable (batch mode)");
  command->add_option("--selector", o.selector, "the suite's selector");
  command->add_option("--seed", o.seed, "seed");
  command->add_option("--device", o.device, "GPU ordinal");
  command->add_option("--path", o.path, "toolkit or driver-jit")->check(CLI::IsMember({"toolkit", "driver-jit"}));
  command->add_option("--modules", o.modules, "toolkit module store");
  command->add_option("--cases", o.cases, "undefined-behaviour cases");
  command->add_option("--threads", o.threads, "host threads");
  command->add_option("--out-of-range", o.out_of_range, "probe this out-of-range selector value instead");
}

int ub_probe_main(const UbProbeOptions& o) {
  std::vector<run::UbJob> jobs;
  for (const auto& text : o.jobs) jobs.push_back(run::parse_ub_job(text));
  if (jobs.empty()) {
    const Form* form = find_form(o.form);
    if (!form) throw UsageError("no form '" + o.form + "'");
    jobs.push_back({form, o.selector, o.out_of_range});
  }
  run::BackendRequest request;
  request.device = o.device;
  request.paths = o.path;
  request.modules = o.modules;
  const run::Backends backends = run::make_backends(request);
  if (!backends.hardware()) throw UsageError("ub-probe needs a GPU: " + backends.why_emulated);
  return run::run_ub_jobs(*backends.gpu.front(), *backends.device, jobs, o, std::cout);
}

}  // namespace mmasp::cli
