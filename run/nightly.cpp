#include "run/nightly.h"

#include "mmasp_commit.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>

#include "generators/bulk.h"
#include "generators/stream_salts.h"
#include "harness/execution.h"
#include "harness/layout_discovery.h"
#include "harness/parallel.h"
#include "harness/sass.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"
#include "reports/run_report.h"
#include "run/backends.h"
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
  void begin(const std::string& command_line);
  void choose_backends();
  void compile_conformance();
  void select_pairs();
  void configure_suites();
  void run_pair(size_t p);
  void emit(ResultRecord result, uint64_t& cases, uint64_t& failures);
  void run_undefined(const Form& form, int selector, const SuiteLimits& limits, uint64_t& cases, uint64_t& failures);
  void run_extras(const Form& form, int selector);
  void compare_compile_paths(const Form& form, int selector);
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
  std::vector<std::pair<const Form*, int>> pairs_;
  bool extras_ = false, layouts_ = false;
  size_t not_supported_ = 0;
  std::vector<SassJob> sass_jobs_;
  IsolatedUb isolated_ub_;
};

void Nightly::begin(const std::string& command_line) {
  fs::create_directories(out_dir_);
  stream_.emplace(out_dir_ / "results.jsonl");
  RunInfo& info = record_.run;
  info.started = now_iso();
  info.host = hostname();
  info.command = command_line;
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
  request.emulator = o_.emulator;
  request.device = o_.device;
  request.paths = o_.paths;
  request.ptxas = o_.compile.ptxas;
  request.cache_dir = o_.compile.cache_dir;
  request.modules = o_.modules;
  request.jobs = o_.compile.jobs;
  request.threads = o_.threads;
  backends_.emplace(make_backends(request));
  record_.environment = backends_->environment();
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

void Nightly::compile_conformance() {
  if (o_.no_compile) return;
  if (!backends_->ptxas_info) {
    note("compile conformance not run: no ptxas on this machine");
    return;
  }
  timed("compile conformance", [&] {
    const auto step = run_compile_step(o_.compile, hooks_.compile_progress);
    record_.compile = step->record();
    // The whole compile report (negative set, diagnostics, PTX of each disagreement) beside run.json.
    std::ofstream(out_dir_ / "compile.json") << compile_json(step->run, step->judgement, step->targets).dump(2) << "\n";
    say(compile_summary(step->run, step->judgement, step->targets));
  });
}

void Nightly::select_pairs() {
  const Shard shard = parse_shard(o_.shard);
  for (const std::string* glob : {&o_.filter, &o_.exclude})
    if (const std::string problem = glob_problem(*glob); !problem.empty()) throw UsageError(problem);
  size_t form_index = 0;
  for (const auto& form : instruction_space()) {
    if (!o_.filter.empty() && !glob_match(o_.filter, form.opcode)) continue;
    if (!o_.exclude.empty() && glob_match(o_.exclude, form.opcode)) continue;
    // Shards split forms, not pairs, so that one form's selectors stay together.
    if (int(form_index++ % size_t(shard.count)) != shard.index - 1) continue;
    for (int selector : form.selectors) pairs_.push_back({&form, selector});
  }
  if (pairs_.empty()) throw UsageError("no form matches --filter/--exclude/--shard");
}

void Nightly::configure_suites() {
  const bool hardware = backends_->hardware();
  extras_ = hardware && (o_.extras == "on" || (o_.extras == "auto" && o_.budget <= 0));
  if (hardware && !extras_)
    note("layout discovery, SASS and the compile-path comparison were skipped (--budget run; use --cases or --extras on)");
  layouts_ = hardware ? extras_ && o_.layouts : (o_.layouts_given && o_.layouts);
  context_.emplace(SuiteContext{backends_->primary(), o_.seed, o_.threads, (out_dir_ / "failures").string(), {}});
  context_->model = model_tier_for(backends_->sm(), o_.model, o_.model_candidates);
  if (context_->model.mode != ModelMode::off)
    note("model tier " + std::string(name(context_->model.mode)) + ": " + context_->model.description +
         "; float forms without a verified model are judged by the spec tier alone");
  else if (hardware && o_.model == "auto")
    note("model tier off: no verified bit-exact model for sm_" + std::to_string(backends_->sm()));
  record_.run.model_tier = std::string(name(context_->model.mode));
  context_->log = hooks_.log;
  if (o_.ub && hardware)
    timed("undefined behaviour (incl. its processes)", [&] {
      const GpuBackend& gpu = *backends_->gpu.front();
      isolated_ub_.run(pairs_, gpu, {o_.seed, o_.device, std::string(name(gpu.path())), backends_->module_dir.string(),
                                     o_.special_generated, o_.threads});
    });
}

void Nightly::emit(ResultRecord result, uint64_t& cases, uint64_t& failures) {
  if (result.emulated) {
    // Never a hardware result: say which device it would need — the first known target the form is legal on, when
    // that is an architecture-specific one (sm_120a), else any GPU.
    std::string needs;
    if (const Form* form = find_form(result.form))
      for (const auto& target : known_targets())
        if (form->legal_on(target, form->version_for(target))) {
          if (target.suffix != '\0') needs = target.name;
          break;
        }
    const std::string label = needs.empty() ? "emulated on the CPU; not executed on a GPU"
                                            : "emulated on the CPU; not executed: no " + needs + " device";
    result.note = result.note.empty() ? label : label + "; " + result.note;
  }
  cases += result.cases;
  failures += is_failure(result.status);
  stream_->write(result);
  record_.results.push_back(std::move(result));
}

void Nightly::run_undefined(const Form& form, int selector, const SuiteLimits& limits, uint64_t& cases, uint64_t& failures) {
  timed("undefined behaviour (incl. its processes)", [&] {
    if (backends_->hardware()) {
      emit(isolated_ub_.result(form, selector, backends_->primary().description()), cases, failures);
      return;
    }
    SuiteResult ub = run_suite(*context_, form, selector, Suite::undefined, limits);
    if (selector == form.selectors.front())
      for (int value = int(form.selectors.size()); value < kSelectorOperandValues; ++value)
        ub.out_of_range_selectors.push_back({value, probe_out_of_range_selector(backends_->primary(), form, value, o_.seed)});
    emit(record_of(ub), cases, failures);
  });
}

void Nightly::compare_compile_paths(const Form& form, int selector) {
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
  record_.compile_paths.push_back(std::move(compare));
}

void Nightly::run_extras(const Form& form, int selector) {
  if (extras_) timed("SASS and compile-path comparison", [&] {
    // The SASS of each compile path (disassembled after the loop, on every host thread: cuobjdump needs no GPU), and
    // whether the two paths compute the same bits.
    for (GpuBackend* gpu : backends_->gpu) {
      SassJob job{&form, selector, std::string(name(gpu->path())), "", ""};
      try {
        job.cubin = gpu->cubin(form, selector);
      } catch (const std::exception& error) {
        job.why_not = error.what();
      }
      sass_jobs_.push_back(std::move(job));
    }
    if (backends_->all.size() > 1) compare_compile_paths(form, selector);
  });
  if (layouts_)
    record_.layouts.push_back(timed("layout discovery", [&] { return record_of(discover_layout(backends_->primary(), form, selector)); }));
}

void Nightly::run_pair(size_t p) {
  const Form& form = *pairs_[p].first;
  const int selector = pairs_[p].second;
  const auto pair_start = Clock::now();
  uint64_t cases = 0, failures = 0;
  std::string why;
  if (!backends_->primary().supports(form, &why)) {
    ++not_supported_;
    for (Suite suite : {Suite::random, Suite::special}) {
      ResultRecord result;
      result.id = result_id(form.opcode, selector, name(suite));
      result.form = form.opcode;
      result.family = form.family;
      result.selector = selector;
      result.suite = std::string(name(suite));
      result.status = Status::not_supported;
      result.backend = backends_->primary().description();
      result.note = why;
      emit(std::move(result), cases, failures);
    }
    if (hooks_.pair_done) hooks_.pair_done(form.opcode, 0, 0);
    return;
  }
  SuiteLimits limits;
  limits.special_generated = o_.special_generated;
  emit(record_of(timed("special suites", [&] { return run_suite(*context_, form, selector, Suite::special, limits); })), cases, failures);
  if (o_.ub) run_undefined(form, selector, limits, cases, failures);
  if (extras_ || layouts_) run_extras(form, selector);
  // The random suite gets what is left of this pair's fair share of the budget.
  if (o_.budget > 0) {
    const auto deadline = start_ + std::chrono::duration<double>(o_.budget);
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    const double share = std::max(0.0, left / double(pairs_.size() - p));
    limits.min_cases = 256;
    limits.max_cases = uint64_t(1) << 40;
    limits.seconds = std::max(0.0, share - std::chrono::duration<double>(Clock::now() - pair_start).count());
  } else {
    limits.min_cases = limits.max_cases = o_.cases ? o_.cases : (backends_->hardware() ? 10000 : 64);
  }
  emit(record_of(timed("random suites", [&] { return run_suite(*context_, form, selector, Suite::random, limits); })), cases, failures);
  if (hooks_.pair_done) hooks_.pair_done(form.opcode + " sel=" + std::to_string(selector), cases, failures);
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
  record_.run.finished = now_iso();
  record_.run.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
}

RunRecord Nightly::run(const std::string& command_line) {
  if (o_.budget > 0 && o_.cases > 0) throw UsageError("give --budget or --cases, not both");
  parse_shard(o_.shard);
  select_pairs();   // first: a --filter that matches nothing must not cost a whole compile step
  begin(command_line);
  choose_backends();
  compile_conformance();
  try {
    const FindingsFile findings = load_findings(o_.compile.findings.empty() ? default_findings_path() : fs::path(o_.compile.findings));
    for (const auto& f : findings.findings) record_.findings.push_back({f.id, f.kind, f.summary});
  } catch (const std::exception& error) {
    note(std::string("findings not loaded: ") + error.what());
  }
  configure_suites();
  if (hooks_.pairs_selected) hooks_.pairs_selected(pairs_.size());
  for (size_t p = 0; p < pairs_.size(); ++p) run_pair(p);
  disassemble_all();
  finish();
  return std::move(record_);
}

}  // namespace

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
