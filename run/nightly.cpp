#include "run/nightly.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <ctime>
#include <optional>

#include "generators/bulk.h"
#include "harness/clock_watch.h"
#include "judge/compact_set.h"
#include "judge/suites.h"
#include "mmasp_commit.h"
#include "oracle/text.h"
#include "reports/run_report.h"
#include "run/budget_plan.h"
#include "run/pair_runner.h"
#include "run/run_folder.h"
#include "run/run_setup.h"
#include "run/ub_isolation.h"
#include "run/usage_error.h"
#include "run/worker.h"

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

std::string signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
  }
  return "signal " + std::to_string(signal);
}

// The orchestration: each step is a part of its own (run_setup.h, run_folder.h, pair_runner.h); this holds the record
// they fill and the order they run in.
class Nightly {
 public:
  Nightly(const NightlyOptions& options, const NightlyHooks& hooks) : o_(options), hooks_(hooks), clock_(record_.run.phase_seconds) {}
  RunRecord run(const std::string& command_line);

 private:
  void say(const std::string& line) const {
    if (hooks_.say) hooks_.say(line);
  }
  void note(const std::string& text) {
    record_.run.notes.push_back(text);
    say("  " + text);
  }
  int stop_signal() const { return hooks_.stop_signal ? hooks_.stop_signal() : 0; }
  double elapsed() const { return folder_->elapsed_before() + std::chrono::duration<double>(Clock::now() - start_).count(); }
  void begin(const std::string& command_line);
  void compile_conformance();
  void run_isolated_ub();
  void run_pairs();
  void commit(size_t p, PairWork work);
  void float_case_target_note();
  void finish();

  const NightlyOptions& o_;
  const NightlyHooks& hooks_;
  const Clock::time_point start_ = Clock::now();
  RunRecord record_;
  PhaseClock clock_;
  FindingsFile findings_;
  std::vector<std::pair<const Form*, int>> pairs_;
  std::optional<RunSetup> setup_;
  std::optional<RunFolder> folder_;
  std::optional<SuiteContext> context_;
  IsolatedUb isolated_ub_;
  std::vector<SassJob> sass_jobs_;
  size_t not_supported_ = 0, pairs_done_ = 0;
};

RunRecord Nightly::run(const std::string& command_line) {
  // Everything that can refuse the run is decided before --out is touched, so that a usage error (a bad --targets, a
  // missing findings file, no GPU for --backend gpu, no model for --model strict) leaves --out as it was.
  findings_ = check_nightly_options(o_);
  pairs_ = selected_pairs(o_);
  setup_.emplace(o_, pairs_, [this](const std::string& line) { say(line); }, [this](const std::string& text) { note(text); });
  // A PTX image's JIT ran within the run's time (--budget counts it: start_ is before the setup); its phase says so.
  if (const ResidentPath* path = setup_->resident(); path && path->image_load() == ResidentPath::ImageLoad::jit_compiled)
    record_.run.phase_seconds["resident image JIT"] = path->jit_seconds();
  record_.environment = setup_->environment();
  record_.run.model_tier = std::string(name(setup_->model_tier().mode));
  record_.run.model_source = setup_->model_tier().description;
  // The run begins: --out is held (a worker runs under its supervisor's hold, cli/run_command.cpp) and prepared.
  folder_.emplace(fs::path(o_.out), o_.resume, o_.force, o_.heartbeat_fd >= 0 || o_.out_held,
                  [this](const std::string& line) { say(line); });
  begin(command_line);
  const nlohmann::json identity = run_identity(o_, record_.environment, record_.run.case_streams, MMASP_GIT_COMMIT,
                                              setup_->model_source().identity);
  folder_->open(identity, record_.run, pairs_);
  record_.run.identity = identity.dump();
  compile_conformance();
  for (const auto& f : findings_.findings) record_.findings.push_back({f.id, std::string(name(f.kind)), f.summary});
  if (!stop_signal()) run_isolated_ub();
  if (hooks_.pairs_selected) hooks_.pairs_selected(pairs_.size());
  run_pairs();
  if (!sass_jobs_.empty())
    clock_("SASS and compile-path comparison", [&] {
      for (auto& line : disassemble_all(sass_jobs_, o_.threads)) record_.sass.push_back(std::move(line));
    });
  finish();
  return std::move(record_);
}

void Nightly::begin(const std::string& command_line) {
  RunInfo& info = record_.run;
  info.host = hostname();
  info.command = command_line;
  info.seed = o_.seed;
  info.mmasp_version = MMASP_VERSION;
  info.mmasp_commit = MMASP_GIT_COMMIT;
  info.case_streams = gen::case_streams_identity();
  info.shard = o_.shard;
  info.budget_seconds = o_.budget;
  info.ub = o_.ub;
  context_.emplace(SuiteContext{setup_->primary(), o_.seed, o_.threads, (fs::path(o_.out) / "failures").string(), {}});
  context_->model = setup_->model_tier();
  context_->log = hooks_.log;
  context_->stop = [this] { return stop_signal() != 0; };
  if (!o_.compact_sets.empty()) {
    const auto sets = std::make_shared<std::map<const Form*, CompactSet>>(
        read_for_option("--compact-sets", [&] { return load_compact_sets(o_.compact_sets); }));
    context_->first_cases = [sets](const Form& form, int selector) {
      const auto it = sets->find(&form);
      return it == sets->end() ? std::vector<MmaCase>{} : compact_cases(it->second, selector);
    };
  }
}

void Nightly::compile_conformance() {
  if (o_.no_compile) return;
  if (folder_->interrupted() && folder_->interrupted()->compile) {
    record_.compile = folder_->interrupted()->compile;
    say("compile conformance: finished by the interrupted run (compile.json)");
    return;
  }
  if (!setup_->backends().ptxas_info) {
    note("compile conformance not run: no ptxas on this machine");
    return;
  }
  clock_("compile conformance", [&] {
    const auto step = run_compile_step(o_.compile, hooks_.compile_progress);
    // A signal during the step also reaches ptxas (the terminal's process group): its verdicts then mean nothing.
    if (stop_signal()) return;
    record_.compile = step->record();
    folder_->compile_done(*record_.compile, compile_json(step->run, step->judgement, step->targets).dump(2) + "\n");
    say(compile_summary(step->run, step->judgement, step->targets));
  });
}

void Nightly::run_isolated_ub() {
  if (!o_.ub || !setup_->hardware()) return;
  clock_("undefined behaviour (incl. its processes)", [&] {
    const GpuBackend& gpu = *setup_->backends().gpu.front();
    std::vector<std::pair<const Form*, int>> left(pairs_.begin() + long(folder_->finished_pairs()), pairs_.end());
    isolated_ub_.run(left, gpu, {o_.seed, o_.device, gpu.path(), setup_->backends().module_dir.string(),
                                 o_.special_generated, o_.threads});
  });
}

// Every pair in order: the ones the interrupted run finished replayed from its journal, the others run.
void Nightly::run_pairs() {
  std::vector<double> weights;
  for (const auto& [form, selector] : pairs_)
    weights.push_back(setup_->primary().supports(*form, nullptr) ? random_suite_weight(*form) : 0.0);
  PairRunner runner(o_, *setup_, *context_, isolated_ub_, clock_, [this] { return elapsed(); },
                    [this] { return stop_signal() != 0; }, BudgetPlan(std::move(weights)));
  if (o_.budget > 0) note(random_suite_weights_note());
  // The GPU's clock while the pairs run (harness/clock_watch.h says why); stopped by its destructor if a pair throws.
  std::optional<ClockWatch> clock_watch;
  if (setup_->hardware() && record_.environment.device) clock_watch.emplace(record_.environment.device->uuid);
  Heartbeat& heartbeat = setup_->heartbeat();
  for (size_t p = 0; p < pairs_.size() && !stop_signal(); ++p) {
    const auto [form, selector] = pairs_[p];
    not_supported_ += !setup_->primary().supports(*form, nullptr);
    if (p < folder_->finished_pairs()) {
      PairWork work;
      work.journal = folder_->interrupted()->pairs[p];
      for (const auto& result : work.journal.results) work.cases += result.cases, work.failures += is_failure(result.status);
      if (setup_->extras()) work.sass = runner.sass_of(*form, selector);
      commit(p, std::move(work));
      continue;
    }
    PairWork work = runner.run(p, *form, selector);
    heartbeat.send(WorkerMessage::idle());
    if (work.interrupted) break;
    folder_->pair_done(work.journal);
    commit(p, std::move(work));
    // A worker whose context is lost can run nothing more: its supervisor starts a new one (--resume).
    if (heartbeat.active() && !setup_->primary().usable())
      throw WorkerLost("the GPU context was lost during " + form->opcode + " sel=" + std::to_string(selector) +
                       " (its results say Crash); a new worker continues");
  }
  if (runner.special_cut_pairs())
    note(std::to_string(runner.special_cut_pairs()) + " pair(s) ran fewer generated special cases than --special-generated " +
         std::to_string(o_.special_generated) + " (the fewest " + std::to_string(runner.fewest_special_generated()) +
         ") so that the run's fixed work fitted its --budget; the named special cases all ran");
  if (clock_watch) {
    // In run.json's run.clocks, not in its notes: the notes are compared by mmasp diff --identical (resumed runs,
    // merged shards), and no two runs' clocks are the same.
    if (const ClockReport clocks = clock_watch->stop(); clocks.samples) {
      record_.run.clocks = clocks;
      say("  " + describe_clocks(clocks));
    }
  }
}

void Nightly::commit(size_t p, PairWork work) {
  for (const auto& result : work.journal.results) {
    folder_->stream(result);
    record_.results.push_back(result);
  }
  if (work.journal.layout) record_.layouts.push_back(*work.journal.layout);
  if (work.journal.compile_path) record_.compile_paths.push_back(*work.journal.compile_path);
  for (auto& job : work.sass) sass_jobs_.push_back(std::move(job));
  ++pairs_done_;
  if (hooks_.pair_done)
    hooks_.pair_done(pairs_[p].first->opcode + " sel=" + std::to_string(pairs_[p].second), work.cases, work.failures);
}

// A --budget run on the GPU-resident path: the float pairs that got fewer random cases than kFloatCaseTarget, and
// about what --budget would give each of them that many (their shares grow with the random suites' time).
void Nightly::float_case_target_note() {
  if (o_.budget <= 0 || record_.run.interrupted) return;
  size_t short_pairs = 0;
  const ResultRecord* fewest = nullptr;
  double growth = 1;   // how many times its planned time the shortest pair would need
  for (const auto& r : record_.results) {
    const Form* form = find_form(r.form);
    if (r.suite != Suite::random || !r.resident || !r.planned || !form || form->is_integer()) continue;
    if (double(r.cases) >= kFloatCaseTarget) continue;
    ++short_pairs;
    if (!fewest || r.cases < fewest->cases) fewest = &r;
    const double rate = r.resident->seconds > 0 ? double(r.resident->checked) / r.resident->seconds : 0;
    if (rate > 0 && r.planned->seconds > 0)
      growth = std::max(growth, (r.planned->seconds + (kFloatCaseTarget - double(r.cases)) / rate) / r.planned->seconds);
  }
  if (!fewest) return;
  double random_seconds = 0;
  for (const char* phase : {"random suites", "random suites (resident)"})
    if (const auto it = record_.run.phase_seconds.find(phase); it != record_.run.phase_seconds.end()) random_seconds += it->second;
  note(std::to_string(short_pairs) + " float pair(s) got fewer than " + significant(kFloatCaseTarget) +
       " random cases (fewest: " + std::to_string(fewest->cases) + ", " + fewest->id + ", planned " +
       significant(fewest->planned->seconds) + " s): the budget's share of each at the resident kernel's rate on this "
       "GPU; a --budget of about " + significant(std::ceil(o_.budget + random_seconds * (growth - 1))) + " s would give "
       "each that many" +
       (record_.run.clocks && record_.run.clocks->slowed() ? std::string(" at the clock it ran at. This GPU slowed itself for heat or power during the run "
                                       "(its SM clock, above), which lowered every pair's rate")
                         : std::string()));
}

void Nightly::finish() {
  float_case_target_note();
  if (not_supported_ && setup_->hardware())
    note(std::to_string(not_supported_) + " form x selector pairs need another architecture: not executed (e.g. \"not executed: "
         "no sm_120a device\"); never counted as passed.");
  if (const int signal = stop_signal()) {
    record_.run.interrupted = Interruption{signal, signal_name(signal), pairs_done_, pairs_.size()};
    note("interrupted by " + signal_name(signal) + " after " + std::to_string(pairs_done_) + " of " +
         std::to_string(pairs_.size()) + " form x selector pairs: the results are incomplete. `mmasp run --resume --out " +
         o_.out + "` with the same options continues the run.");
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
    const double jit = phase("resident image JIT");
    note("the run took " + significant(record_.run.seconds) + " s, over its --budget of " + significant(o_.budget) +
         " s: " + (jit > 0 ? "the driver's JIT of the resident image took " + significant(jit) + " s (mmasp prepare keeps it), " : "") +
         "compile conformance took " + significant(phase("compile conformance")) + " s (a cold ptxas cache?), the "
         "special suites " + significant(phase("special suites")) + " s, and every pair ran at least 64 random cases");
  }
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
  if (const std::string problem = text_options_problem(o); !problem.empty()) throw UsageError(problem);
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
  if (const auto shard = shard_named(text)) return *shard;
  throw UsageError("--shard takes i/n with 1 <= i <= n, e.g. 2/4; got '" + text + "'");
}

RunRecord run_nightly(const NightlyOptions& options, const std::string& command_line, const NightlyHooks& hooks) {
  Nightly nightly(options, hooks);
  return nightly.run(command_line);
}

}  // namespace mmasp::run
