#include "run/nightly.h"

#include "harness/resident.h"
#include "judge/resident_suite.h"
#include "harness/resident_source.h"

#include "mmasp_commit.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>

#include "generators/bulk.h"
#include "generators/stream_salts.h"
#include "judge/suites.h"
#include "harness/layout_discovery.h"
#include "harness/parallel.h"
#include "harness/sass.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"
#include "reports/run_report.h"
#include "oracle/output_file.h"
#include "run/backends.h"
#include "run/folder_lock.h"
#include "run/journal.h"
#include "run/worker.h"
#include "run/ub_isolation.h"
#include "run/usage_error.h"

namespace fs = std::filesystem;

namespace mmasp::run {
namespace {

using Clock = std::chrono::steady_clock;

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

std::string hostname() {
  char text[256] = {};
  gethostname(text, sizeof text - 1);
  return text;
}

// The model tier of a run on a device of compute capability `sm` (0: the emulator, which has none).
ModelTier model_tier_for(int sm, const std::string& requested, bool candidates) {
  ModelTier tier;
  if (requested == "off" || sm == 0) return tier;
  const std::string architecture = "sm_" + std::to_string(sm);
  bool any = false;
  std::string evidence;
  for (const auto& record : model_records())
    if (record.architecture == architecture && (record.verified || candidates)) {
      any = true;
      evidence = record.evidence;
    }
  if (!any) {
    if (requested != "auto") throw UsageError("--model " + requested + ": no verified bit-exact model for " + architecture);
    return tier;
  }
  tier.mode = requested == "warn" ? ModelMode::warn : ModelMode::strict;
  tier.parameters = [architecture, candidates](const Form& form) { return verified_model(form, architecture, candidates); };
  tier.description = architecture + (candidates ? " candidate bit-exact model (unverified records included; " : " bit-exact model (") +
                     evidence.substr(0, evidence.find(':')) + ")";
  return tier;
}

struct SassJob {
  const Form* form;
  int selector;
  std::string path, cubin, why_not;
};

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
  }
  return "signal " + std::to_string(signal);
}

// What one form x selector pair produced: committed (streamed, journaled, recorded) only once all of it finished.
struct PairWork {
  JournalPair journal;
  std::vector<SassJob> sass;
  uint64_t cases = 0, failures = 0;
};

class Nightly {
 public:
  Nightly(const NightlyOptions& options, const NightlyHooks& hooks)
      : o_(options), hooks_(hooks), start_(Clock::now()), out_dir_(options.out) {}

  RunRecord run(const std::string& command_line);

 private:
  void say(const std::string& line) const {
    if (hooks_.say) hooks_.say(line);
  }
  void note(const std::string& text) {
    record_.run.notes.push_back(text);
    say("  " + text);
  }
  template <typename Body>
  auto timed(const std::string& phase, Body&& body) {
    const auto start = Clock::now();
    struct AddOnExit {
      double& total;
      Clock::time_point start;
      ~AddOnExit() { total += std::chrono::duration<double>(Clock::now() - start).count(); }
    } add{record_.run.phase_seconds[phase], start};
    return body();
  }
  int stop_signal() const { return hooks_.stop_signal ? hooks_.stop_signal() : 0; }
  Backend& primary() const {
    if (watched_) return *watched_;
    return faulty_ ? *faulty_ : backends_->primary();
  }
  double elapsed() const { return elapsed_before_ + std::chrono::duration<double>(Clock::now() - start_).count(); }
  void prepare_out();
  void begin(const std::string& command_line);
  void choose_backends();
  void open_journal();
  void compile_conformance();
  void select_pairs();
  void configure_suites();
  void run_isolated_ub();
  void check_journal_pairs() const;
  bool run_pair(size_t p);   // false: interrupted, nothing of the pair kept
  bool resident_judges(const Form& form) const;
  // Random cases per pair without --budget: --cases, else 10,000 on a GPU and 64 on the emulator.
  uint64_t random_cases() const { return o_.cases ? o_.cases : (backends_->hardware() ? 10000 : 64); }
  SuiteResult run_resident_random(const Form& form, int selector, const SuiteLimits& limits);
  void commit(size_t p, PairWork work);
  void add(PairWork& work, ResultRecord result);
  void run_undefined(const Form& form, int selector, const SuiteLimits& limits, PairWork& work);
  void run_extras(const Form& form, int selector, PairWork& work);
  void collect_sass(const Form& form, int selector, std::vector<SassJob>& jobs);
  CompilePathComparison compare_compile_paths(const Form& form, int selector);
  void disassemble_all();
  void finish();

  const NightlyOptions& o_;
  const NightlyHooks& hooks_;
  const Clock::time_point start_;
  const fs::path out_dir_;
  RunRecord record_;
  std::optional<JsonLines> stream_;
  std::optional<Backends> backends_;
  std::optional<SuiteContext> context_;
  std::unique_ptr<ResidentPath> resident_;   // the GPU-resident path, when used (--resident)
  std::vector<std::pair<const Form*, int>> pairs_;
  bool extras_ = false, layouts_ = false;
  size_t not_supported_ = 0;
  std::vector<SassJob> sass_jobs_;
  IsolatedUb isolated_ub_;
  std::optional<FolderLock> lock_;           // held for the whole run
  FindingsFile findings_;
  std::optional<Journal> interrupted_run_;   // --resume: what the interrupted run finished
  std::optional<JournalWriter> journal_;
  Heartbeat heartbeat_{-1};
  std::unique_ptr<FaultyBackend> faulty_;     // --inject-fault (test-only)
  std::unique_ptr<WatchedBackend> watched_;   // a worker's primary backend (run/worker.h)
  nlohmann::json identity_;
  double elapsed_before_ = 0;                // --resume: seconds the interrupted sessions ran
  double fixed_seconds_ = 0;                 // --budget: the pairs' work besides the random suites, so far
  size_t fixed_pairs_ = 0;
  size_t pairs_done_ = 0;
};

void Nightly::prepare_out() {
  const bool exists = fs::exists(out_dir_);
  if (exists && !fs::is_directory(out_dir_)) throw UsageError("--out " + out_dir_.string() + ": not a directory");
  // mmasp writes its files without following links (oracle/output_file.h); a link planted among them is refused here,
  // before anything is read or written, rather than discovered by a failing write in the middle of the run.
  if (exists && !o_.force)
    for (const auto& entry : fs::directory_iterator(out_dir_))
      if (entry.is_symlink())
        throw UsageError("--out " + out_dir_.string() + ": " + entry.path().filename().string() +
                         " is a symbolic link; mmasp never writes through one (remove it, or give --force to replace it)");
  if (o_.resume) {
    if (o_.force) throw UsageError("give --resume or --force, not both");
    interrupted_run_ = read_journal(out_dir_ / kJournalFile);
    if (!interrupted_run_->pairs.empty()) elapsed_before_ = interrupted_run_->pairs.back().elapsed_seconds;
    return;
  }
  if (!exists || fs::is_empty(out_dir_)) return;
  // A finished run's reports are replaced (a nightly job writes into the same --out every night); an unfinished run
  // (one a --resume could continue) or files mmasp did not write are never removed without --force.
  std::string strangers;
  for (const auto& entry : fs::directory_iterator(out_dir_)) {
    const std::string file = entry.path().filename().string();
    if (std::find_if(std::begin(kRunOutputs), std::end(kRunOutputs), [&](const char* ours) { return file == ours; }) ==
        std::end(kRunOutputs))
      strangers += (strangers.empty() ? "" : ", ") + file;
  }
  // An unfinished run is one a --resume could continue: a journal without a finished run.json beside it. Reports
  // alone (`mmasp compile --json out/compile.json`, `mmasp report --out out`) are no run, and are replaced.
  bool finished = true;
  if (fs::exists(out_dir_ / kJournalFile)) {
    try {
      finished = !load_run_record(out_dir_ / "run.json").run.interrupted;
    } catch (const std::exception&) {
      finished = false;
    }
  }
  if (!o_.force && !strangers.empty())
    throw UsageError("--out " + out_dir_.string() + " holds files mmasp did not write (" + strangers +
                     "): give a new or empty directory, or --force to write beside them");
  if (!o_.force && !finished)
    throw UsageError("--out " + out_dir_.string() + " holds an unfinished run: give --resume to continue it (with the "
                     "same options), --force to replace it, or another --out");
  say("mmasp run: replacing the reports of the earlier run in " + out_dir_.string());
  for (const char* output : kRunOutputs) fs::remove_all(out_dir_ / output);
}

void Nightly::begin(const std::string& command_line) {
  fs::create_directories(out_dir_);
  RunInfo& info = record_.run;
  info.started = interrupted_run_ ? interrupted_run_->started : now_iso();
  info.host = hostname();
  info.command = command_line;
  if (interrupted_run_) info.resumed = interrupted_run_->resumed.size() + 1;
  info.seed = o_.seed;
  info.mmasp_version = MMASP_VERSION;
  info.mmasp_commit = MMASP_GIT_COMMIT;
  info.case_streams = gen::case_streams_identity();
  info.shard = o_.shard;
  info.budget_seconds = o_.budget;
  info.ub = o_.ub;
}

void Nightly::choose_backends() {
  BackendRequest request;
  request.choice = o_.backend;
  request.gpu_required_by = o_.gpu_required_by;
  request.device = o_.device;
  request.paths = o_.paths;
  request.ptxas = o_.compile.ptxas;
  request.cache_dir = o_.compile.cache_dir;
  request.modules = o_.modules;
  request.jobs = o_.compile.jobs;
  request.threads = o_.threads;
  backends_.emplace(make_backends(request));
  record_.environment = backends_->environment();
  heartbeat_ = Heartbeat(o_.heartbeat_fd);
  if (!o_.inject_fault.empty()) {
    const Fault* fault = find_fault(o_.inject_fault);
    if (!fault) throw UsageError("--inject-fault: no fault '" + o_.inject_fault + "' in the catalogue (mmasp selftest --faults lists them)");
    const std::string architecture = "sm_" + std::to_string(backends_->sm() ? backends_->sm() : 90);
    faulty_ = std::make_unique<FaultyBackend>(backends_->primary(), *fault,
                                              [architecture](const Form& form) { return verified_model(form, architecture); });
    note("test-only fault injected into every batch: " + fault->id + " (" + fault->description + ")");
  }
  if (heartbeat_.active() || !o_.inject_worker_fault.empty()) {
    std::optional<WorkerFault> fault;
    if (!o_.inject_worker_fault.empty()) fault = parse_worker_fault(o_.inject_worker_fault);
    GpuBackend* gpu = backends_->gpu.empty() ? nullptr : backends_->gpu.front();
    watched_ = std::make_unique<WatchedBackend>(faulty_ ? *faulty_ : backends_->primary(), heartbeat_, fault, gpu ? &gpu->device() : nullptr,
                                                gpu ? std::optional<Target>(gpu->target()) : std::nullopt);
  }
  if (backends_->hardware()) {
    const DeviceFingerprint& d = *record_.environment.device;
    say("mmasp run: GPU " + std::to_string(o_.device) + " " + d.name + " (sm_" + std::to_string(d.sm) + "), driver " +
        d.driver_version + ", CUDA driver API " + std::to_string(d.driver_api_version) + ".");
  } else {
    say("mmasp run: " + backends_->why_emulated + ".");
    note("Running compile conformance and the CPU emulator: every result below is emulated, not a hardware result.");
    note("sm_120a forms (kind::f8f6f4, block scale) are compile-checked and emulated only: not executed: no sm_120a device.");
  }
}

void Nightly::open_journal() {
  const EnvironmentRecord& e = record_.environment;
  identity_ = {{"mmasp_commit", MMASP_GIT_COMMIT}, {"case_streams", record_.run.case_streams}, {"seed", o_.seed},
               {"filter", o_.filter}, {"exclude", o_.exclude}, {"shard", o_.shard}, {"cases", o_.cases},
               {"budget", o_.budget}, {"ub", o_.ub}, {"no_compile", o_.no_compile}, {"compile_filter", o_.compile.filter},
               {"targets", o_.compile.targets}, {"special_generated", o_.special_generated}, {"model", o_.model},
               {"model_candidates", o_.model_candidates}, {"extras", o_.extras}, {"resident", o_.resident},
               {"resident_sample", o_.resident_sample},
               {"layouts", o_.layouts_given ? nlohmann::json(o_.layouts) : nlohmann::json("default")},
               {"paths", o_.paths}, {"backend", e.backend}, {"toolkit", e.toolkit},
               {"device", e.device ? e.device->name + " " + e.device->uuid : ""},
               {"driver", e.device ? e.device->driver_version : ""}};
  if (interrupted_run_) {
    if (const std::string difference = identity_difference(interrupted_run_->identity, identity_); !difference.empty())
      throw UsageError("--resume: this run differs from the interrupted one in " + difference +
                       ". The interrupted run was: " + interrupted_run_->command);
    check_journal_pairs();
    // Nothing in --out changes before the identity is checked. Then the interrupted session's reports go: a report
    // never sits beside results newer than it.
    for (const char* report : kReportFiles) fs::remove(out_dir_ / report);
    interrupted_run_->pid = long(getpid());   // the holder a second run into this --out is told about
    journal_.emplace(out_dir_ / kJournalFile, *interrupted_run_);
    journal_->resumed(now_iso());
    // results.jsonl is written again from the journal as the finished pairs are taken over: it always holds
    // exactly the finished pairs' results.
    stream_.emplace(out_dir_ / "results.jsonl");
    say("mmasp run: resuming " + out_dir_.string() + ": " + std::to_string(interrupted_run_->pairs.size()) +
        " form x selector pairs were finished" + (interrupted_run_->dropped_cut_off_line ? " (a cut-off last journal line was dropped)" : ""));
    return;
  }
  Journal fresh;
  fresh.run_id = new_run_id();
  fresh.pid = long(getpid());
  fresh.identity = identity_;
  fresh.started = record_.run.started;
  fresh.host = record_.run.host;
  fresh.command = record_.run.command;
  journal_.emplace(out_dir_ / kJournalFile, fresh);
  stream_.emplace(out_dir_ / "results.jsonl");
}

// The interrupted run's pairs are this run's first pairs, in order: checked before the journal is rewritten.
void Nightly::check_journal_pairs() const {
  const auto& done = interrupted_run_->pairs;
  if (done.size() > pairs_.size()) throw UsageError("--resume: the journal has more pairs than this run selects");
  for (size_t p = 0; p < done.size(); ++p)
    if (done[p].form != pairs_[p].first->opcode || done[p].selector != pairs_[p].second)
      throw UsageError("--resume: the journal's pair " + std::to_string(p + 1) + " is " + done[p].form + " sel=" +
                       std::to_string(done[p].selector) + ", this run's is " + pairs_[p].first->opcode + " sel=" +
                       std::to_string(pairs_[p].second));
}

void Nightly::compile_conformance() {
  if (o_.no_compile) return;
  if (interrupted_run_ && interrupted_run_->compile) {
    record_.compile = interrupted_run_->compile;
    say("compile conformance: finished by the interrupted run (compile.json)");
    return;
  }
  if (!backends_->ptxas_info) {
    note("compile conformance not run: no ptxas on this machine");
    return;
  }
  timed("compile conformance", [&] {
    const auto step = run_compile_step(o_.compile, hooks_.compile_progress);
    // A signal during the step also reaches ptxas (the terminal's process group): its verdicts then mean nothing.
    if (stop_signal()) return;
    record_.compile = step->record();
    journal_->compile(*record_.compile);
    // The whole compile report (negative set, diagnostics, PTX of each disagreement) beside run.json.
    write_file_atomically(out_dir_ / "compile.json", compile_json(step->run, step->judgement, step->targets).dump(2) + "\n");
    say(compile_summary(step->run, step->judgement, step->targets));
  });
}

void Nightly::select_pairs() { pairs_ = selected_pairs(o_); }

void Nightly::configure_suites() {
  const bool hardware = backends_->hardware();
  extras_ = hardware && (o_.extras == "on" || (o_.extras == "auto" && o_.budget <= 0));
  if (hardware && !extras_)
    note("layout discovery, SASS and the compile-path comparison were skipped (--budget run; use --cases or --extras on)");
  layouts_ = hardware ? extras_ && o_.layouts : (o_.layouts_given && o_.layouts);
  context_.emplace(SuiteContext{primary(), o_.seed, o_.threads, (out_dir_ / "failures").string(), {}});
  context_->model = model_tier_for(backends_->sm(), o_.model, o_.model_candidates);
  if (context_->model.mode != ModelMode::off)
    note("model tier " + std::string(name(context_->model.mode)) + ": " + context_->model.description +
         "; float forms without a verified model are judged by the spec tier alone");
  else if (hardware && o_.model == "auto")
    note("model tier off: no verified bit-exact model for sm_" + std::to_string(backends_->sm()));
  record_.run.model_tier = std::string(name(context_->model.mode));
  context_->log = hooks_.log;
  context_->stop = [this] { return stop_signal() != 0; };
  if (o_.resident != "on" && o_.resident != "off" && o_.resident != "auto")
    throw UsageError("--resident: on, off or auto, not '" + o_.resident + "'");
  if (o_.resident != "off") {
    std::string why;
    if (!hardware) why = "no GPU";
    else if (!ResidentPath::built()) why = "this build has no resident kernel (no nvcc at build time)";
    else if (faulty_ || (watched_ && !o_.inject_worker_fault.empty())) why = "a test-only fault is injected into the host path";
    else if (context_->model.mode != ModelMode::strict) why = "the model tier is not strict";
    if (why.empty()) {
      try {
        resident_ = std::make_unique<ResidentPath>(*backends_->device);
      } catch (const std::exception& error) {
        why = error.what();
      }
    }
    if (!resident_ && o_.resident == "on") throw UsageError("--resident on: " + why);
    if (resident_)
      note("GPU-resident path: the random suites' cases beyond the first " + std::to_string(o_.resident_sample) +
           " of each pair are drawn, run and judged on the GPU (model or exact integer result); the host path judges those "
           "first cases by the exact reference and the model, and replays every case the GPU finds deviating");
    else if (hardware)
      note("GPU-resident path not used: " + why);
  }
}

void Nightly::run_isolated_ub() {
  if (!o_.ub || !backends_->hardware()) return;
  timed("undefined behaviour (incl. its processes)", [&] {
    const GpuBackend& gpu = *backends_->gpu.front();
    std::vector<std::pair<const Form*, int>> left;   // a resumed run has the others' results already
    for (size_t p = interrupted_run_ ? interrupted_run_->pairs.size() : 0; p < pairs_.size(); ++p) left.push_back(pairs_[p]);
    isolated_ub_.run(left, gpu, {o_.seed, o_.device, std::string(name(gpu.path())), backends_->module_dir.string(),
                                   o_.special_generated, o_.threads});
  });
}

void Nightly::add(PairWork& work, ResultRecord result) {
  if (result.emulated)
    if (const Form* form = find_form(result.form))
      result.note = result.note.empty() ? emulation_label(*form) : emulation_label(*form) + "; " + result.note;
  work.cases += result.cases;
  work.failures += is_failure(result.status);
  work.journal.results.push_back(std::move(result));
}

void Nightly::commit(size_t p, PairWork work) {
  const Form& form = *pairs_[p].first;
  const int selector = pairs_[p].second;
  for (const auto& result : work.journal.results) {
    stream_->write(result);
    record_.results.push_back(result);
  }
  if (work.journal.layout) record_.layouts.push_back(*work.journal.layout);
  if (work.journal.compile_path) record_.compile_paths.push_back(*work.journal.compile_path);
  for (auto& job : work.sass) sass_jobs_.push_back(std::move(job));
  ++pairs_done_;
  if (hooks_.pair_done) hooks_.pair_done(form.opcode + " sel=" + std::to_string(selector), work.cases, work.failures);
}

void Nightly::run_undefined(const Form& form, int selector, const SuiteLimits& limits, PairWork& work) {
  timed("undefined behaviour (incl. its processes)", [&] {
    if (backends_->hardware()) {
      add(work, isolated_ub_.result(form, selector, primary().description()));
      return;
    }
    SuiteResult ub = run_suite(*context_, form, selector, Suite::undefined, limits);
    if (selector == form.selectors.front())
      for (int value = int(form.selectors.size()); value < kSelectorOperandValues; ++value)
        ub.out_of_range_selectors.push_back({value, probe_out_of_range_selector(primary(), form, value, o_.seed)});
    add(work, record_of(ub));
  });
}

CompilePathComparison Nightly::compare_compile_paths(const Form& form, int selector) {
  CompilePathComparison compare{form.opcode, selector, std::nullopt, std::nullopt, false, ""};
  try {
    std::vector<MmaCase> cases(1024);
    gen::Options options;
    options.selector = selector;
    for (size_t i = 0; i < cases.size(); ++i) {
      gen::BulkGenerator generator(gen::case_seed(o_.seed ^ gen::salt::kCompilePaths, form, i));
      generator.next(form, cases[i], options);
    }
    const auto first = execute(*backends_->all[0], form, selector, cases, o_.threads);
    const auto second = execute(*backends_->all[1], form, selector, cases, o_.threads);
    uint64_t differing = 0;
    for (size_t i = 0; i < cases.size(); ++i) differing += first[i] != second[i];
    compare.cases = cases.size();
    compare.identical = differing == 0;
    compare.differing_cases = differing;
    if (differing) compare.note = std::to_string(differing) + " of 1024 cases differ between toolkit and driver JIT";
  } catch (const std::exception& error) {
    compare.note = std::string("could not compare: ") + error.what();
  }
  return compare;
}

// The cubin of each compile path, disassembled after the loop on every host thread (cuobjdump needs no GPU). Cheap
// and deterministic, so a resumed run collects it again for the pairs the interrupted run finished.
void Nightly::collect_sass(const Form& form, int selector, std::vector<SassJob>& jobs) {
  for (GpuBackend* gpu : backends_->gpu) {
    SassJob job{&form, selector, std::string(name(gpu->path())), "", ""};
    try {
      job.cubin = gpu->cubin(form, selector);
    } catch (const std::exception& error) {
      job.why_not = error.what();
    }
    jobs.push_back(std::move(job));
  }
}

void Nightly::run_extras(const Form& form, int selector, PairWork& work) {
  if (extras_) timed("SASS and compile-path comparison", [&] {
    collect_sass(form, selector, work.sass);
    if (backends_->all.size() > 1) work.journal.compile_path = compare_compile_paths(form, selector);
  });
  if (layouts_)
    work.journal.layout = timed("layout discovery", [&] { return record_of(discover_layout(primary(), form, selector)); });
}

bool Nightly::run_pair(size_t p) {
  const Form& form = *pairs_[p].first;
  const int selector = pairs_[p].second;
  const auto pair_start = Clock::now();
  heartbeat_.send("pair " + std::to_string(p) + " " + (backends_->hardware() ? "0 " : "1 ") + std::to_string(selector) + " " + form.opcode);
  PairWork work;
  work.journal.form = form.opcode;
  work.journal.selector = selector;
  std::string why;
  if (!primary().supports(form, &why)) {
    ++not_supported_;
    for (Suite suite : {Suite::random, Suite::special})
      add(work, result_record(form.opcode, selector, suite, Status::not_supported, primary().description(), why));
  } else {
    SuiteLimits limits;
    limits.special_generated = o_.special_generated;
    add(work, record_of(timed("special suites", [&] { return run_suite(*context_, form, selector, Suite::special, limits); })));
    if (stop_signal()) return false;
    if (o_.ub) run_undefined(form, selector, limits, work);
    if (extras_ || layouts_) run_extras(form, selector, work);
    if (stop_signal()) return false;
    // --budget is the whole run's wall time. The random suite gets an even share of what is left once the pairs
    // after this one have done their own fixed work (special suites, UB, extras: estimated by the mean of the pairs
    // so far) and the reports are written.
    if (o_.budget > 0) {
      fixed_seconds_ += std::chrono::duration<double>(Clock::now() - pair_start).count();
      ++fixed_pairs_;
      const size_t after = pairs_.size() - p - 1;
      const double tail = std::min(1.0, 0.01 * o_.budget);   // disassembly and the reports
      const double left = o_.budget - elapsed() - fixed_seconds_ / double(fixed_pairs_) * double(after) - tail;
      limits.min_cases = 64;
      limits.max_cases = uint64_t(1) << 40;
      limits.seconds = std::max(0.0, left / double(after + 1));
    } else {
      limits.min_cases = limits.max_cases = random_cases();
    }
    const SuiteResult random = resident_judges(form)
        ? timed("random suites (resident)", [&] { return run_resident_random(form, selector, limits); })
        : timed("random suites", [&] { return run_suite(*context_, form, selector, Suite::random, limits); });
    if (random.interrupted) return false;
    add(work, record_of(random));
  }
  work.journal.elapsed_seconds = elapsed();
  journal_->pair(work.journal);
  commit(p, std::move(work));
  return true;
}

bool Nightly::resident_judges(const Form& form) const {
  if (!resident_ || !has_resident_kernel(form)) return false;
  // --cases N within the host sample: the host path judges them all, as without the resident path.
  if (o_.budget <= 0 && random_cases() <= o_.resident_sample) return false;
  return form.is_integer() || context_->model.active_for(form);
}

// The random suite of one pair through the resident path (judge/resident_suite.h), with the worker's heartbeat around
// each launch (a GPU case costs about a thousandth of a host one).
SuiteResult Nightly::run_resident_random(const Form& form, int selector, const SuiteLimits& limits) {
  ResidentSuitePlan plan;
  plan.host_sample = o_.resident_sample;
  plan.before_launch = [this](uint64_t cases) { heartbeat_.send("batch " + std::to_string(std::max<uint64_t>(1, cases / 1000))); };
  plan.after_launch = [this] { heartbeat_.send("beat"); };
  return mmasp::run_resident_random(*context_, *resident_, form, selector, limits, plan);
}

void Nightly::disassemble_all() {
  if (sass_jobs_.empty()) return;
  timed("SASS and compile-path comparison", [&] {
    std::vector<SassRecord> sass(sass_jobs_.size());
    parallel_for(
        sass_jobs_.size(), o_.threads,
        [&](size_t i) {
          const SassJob& job = sass_jobs_[i];
          std::string why_not = job.why_not;
          std::optional<SassSummary> summary;
          if (why_not.empty()) {
            try {
              summary = disassemble(job.cubin, &why_not);
            } catch (const std::exception& error) {
              why_not = error.what();
            }
          }
          sass[i] = sass_record(*job.form, job.selector, job.path, summary, why_not);
        },
        1);
    for (auto& line : sass) record_.sass.push_back(std::move(line));
  });
}

void Nightly::finish() {
  if (not_supported_ && backends_->hardware())
    note(std::to_string(not_supported_) + " form x selector pairs need another architecture: not executed (e.g. \"not executed: "
         "no sm_120a device\"); never counted as passed.");
  if (const int signal = stop_signal()) {
    record_.run.interrupted = Interruption{signal, signal_name(signal), pairs_done_, pairs_.size()};
    note("interrupted by " + signal_name(signal) + " after " + std::to_string(pairs_done_) + " of " +
         std::to_string(pairs_.size()) + " form x selector pairs: the results are incomplete. `mmasp run --resume --out " +
         out_dir_.string() + "` with the same options continues the run.");
  }
  record_.run.finished = now_iso();
  record_.run.seconds = elapsed();
  // --budget is the whole run's wall time; when the work every run does (compile conformance, the special suites, a
  // floor of random cases per pair) alone takes longer, the run says so rather than pretend.
  if (o_.budget > 0 && !record_.run.interrupted && record_.run.seconds > std::max(o_.budget * 1.05, o_.budget + 2)) {
    const auto phase = [&](const char* name) {
      const auto it = record_.run.phase_seconds.find(name);
      return it == record_.run.phase_seconds.end() ? 0.0 : it->second;
    };
    note("the run took " + significant(record_.run.seconds) + " s, over its --budget of " + significant(o_.budget) +
         " s: compile conformance took " + significant(phase("compile conformance")) + " s (a cold ptxas cache?), the "
         "special suites " + significant(phase("special suites")) + " s, and every pair ran at least 64 random cases");
  }
}

RunRecord Nightly::run(const std::string& command_line) {
  // Everything that can refuse the run is decided before --out is touched, so that a usage error (a bad --targets, a
  // missing findings file, no GPU for --backend gpu, no model for --model strict) leaves --out as it was.
  findings_ = check_nightly_options(o_);
  select_pairs();
  choose_backends();
  configure_suites();
  // The run begins: --out is held (a worker runs under its supervisor's hold, cli/run_command.cpp) and prepared.
  if (o_.heartbeat_fd < 0) lock_.emplace(out_dir_, "--out");
  try {
    prepare_out();
    begin(command_line);
    open_journal();
  } catch (const UsageError&) {
    if (lock_) lock_->remove_if_unused();   // refused over --out itself: a folder the hold created goes again
    throw;
  }
  compile_conformance();
  for (const auto& f : findings_.findings) record_.findings.push_back({f.id, std::string(name(f.kind)), f.summary});
  if (!stop_signal()) run_isolated_ub();
  if (hooks_.pairs_selected) hooks_.pairs_selected(pairs_.size());
  const size_t finished_before = interrupted_run_ ? interrupted_run_->pairs.size() : 0;
  for (size_t p = 0; p < pairs_.size() && !stop_signal(); ++p) {
    if (p < finished_before) {
      const JournalPair& done = interrupted_run_->pairs[p];
      PairWork work;
      work.journal = done;
      for (const auto& result : done.results) work.cases += result.cases, work.failures += is_failure(result.status);
      if (extras_) collect_sass(*pairs_[p].first, pairs_[p].second, work.sass);
      not_supported_ += !primary().supports(*pairs_[p].first, nullptr);
      commit(p, std::move(work));
      continue;
    }
    const bool finished = run_pair(p);
    heartbeat_.send("idle");
    if (!finished) break;
    // A worker whose context is lost can run nothing more: its supervisor starts a new one (--resume).
    if (heartbeat_.active() && !primary().usable())
      throw WorkerLost("the GPU context was lost during " + pairs_[p].first->opcode + " sel=" + std::to_string(pairs_[p].second) +
                       " (its results say Crash); a new worker continues");
  }
  disassemble_all();
  finish();
  return std::move(record_);
}

}  // namespace

std::vector<std::pair<const Form*, int>> selected_pairs(const NightlyOptions& o) {
  const Shard shard = parse_shard(o.shard);
  for (const std::string* glob : {&o.filter, &o.exclude})
    if (const std::string problem = glob_problem(*glob); !problem.empty()) throw UsageError(problem);
  std::vector<std::pair<const Form*, int>> pairs;
  size_t form_index = 0;
  for (const auto& form : instruction_space()) {
    if (!o.filter.empty() && !glob_match(o.filter, form.opcode)) continue;
    if (!o.exclude.empty() && glob_match(o.exclude, form.opcode)) continue;
    // Shards split forms, not pairs, so that one form's selectors stay together.
    if (int(form_index++ % size_t(shard.count)) != shard.index - 1) continue;
    for (int selector : form.selectors) pairs.push_back({&form, selector});
  }
  if (pairs.empty()) throw UsageError("no form matches --filter/--exclude/--shard");
  return pairs;
}

FindingsFile check_nightly_options(const NightlyOptions& o) {
  if (o.budget > 0 && o.cases > 0) throw UsageError("give --budget or --cases, not both");
  if (o.resume && o.force) throw UsageError("give --resume or --force, not both");
  (void)selected_pairs(o);   // first: a --filter that matches nothing must not cost a whole compile step
  if (!o.inject_fault.empty() && !find_fault(o.inject_fault))
    throw UsageError("--inject-fault: no fault '" + o.inject_fault + "' in the catalogue (mmasp selftest --faults lists them)");
  if (!o.inject_worker_fault.empty()) parse_worker_fault(o.inject_worker_fault);
  FindingsFile findings;
  if (!o.no_compile) {
    (void)check_compile_options(o.compile, &findings);
  } else {
    try {
      findings = load_findings(o.compile.findings.empty() ? default_findings_path() : fs::path(o.compile.findings));
    } catch (const std::runtime_error& error) {
      throw UsageError(error.what());
    }
  }
  return findings;
}

std::string emulation_label(const Form& form) {
  // Never a hardware result: say which device it would need — the first known target the form is legal on, when that
  // is an architecture-specific one (sm_120a), else any GPU.
  for (const auto& target : known_targets())
    if (form.legal_on(target, form.version_for(target)))
      return target.suffix != '\0' ? "emulated on the CPU; not executed: no " + target.name + " device"
                                    : "emulated on the CPU; not executed on a GPU";
  return "emulated on the CPU; not executed on a GPU";
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const auto digits = [](const std::string& part) { return part.size() <= 6 && all_digits(part); };
  if (slash != std::string::npos && digits(text.substr(0, slash)) && digits(text.substr(slash + 1))) {
    const int i = std::stoi(text.substr(0, slash)), n = std::stoi(text.substr(slash + 1));
    if (n >= 1 && i >= 1 && i <= n) return {i, n};
  }
  throw UsageError("--shard takes i/n with 1 <= i <= n, e.g. 2/4; got '" + text + "'");
}

RunRecord run_nightly(const NightlyOptions& options, const std::string& command_line, const NightlyHooks& hooks) {
  Nightly nightly(options, hooks);
  return nightly.run(command_line);
}

}  // namespace mmasp::run
