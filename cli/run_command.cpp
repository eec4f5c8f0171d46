#include "cli/run_command.h"

#include "mmasp_commit.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include "generators/bulk.h"
#include "harness/backend.h"
#include "harness/execution.h"
#include "harness/gpu_probe.h"
#include "harness/layout_discovery.h"
#include "harness/module_store.h"
#include "harness/parallel.h"
#include "harness/ptxas.h"
#include "harness/sass.h"
#include "oracle/numeric_model_table.h"
#include "reports/findings.h"
#include "reports/run_report.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace mmasp::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

std::string hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// Digits only (no sign, blank or point): what every whole-number option and --shard accept.
bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const auto digits = [](const std::string& part) { return part.size() <= 6 && all_digits(part); };
  try {
    if (slash != std::string::npos && digits(text.substr(0, slash)) && digits(text.substr(slash + 1))) {
      const int i = std::stoi(text.substr(0, slash)), n = std::stoi(text.substr(slash + 1));
      if (n >= 1 && i >= 1 && i <= n) return {i, n};
    }
  } catch (const std::logic_error&) {
  }
  throw UsageError("--shard takes i/n with 1 <= i <= n, e.g. 2/4; got '" + text + "'");
}

// Progress on a terminal: one rewritten line (forms done, cases/s, failures); otherwise a plain line per pair.
class RunProgress {
 public:
  RunProgress(size_t total) : total_(total), tty_(isatty(STDERR_FILENO)), start_(Clock::now()) {}
  void pair_done(const std::string& what, uint64_t cases, uint64_t failures) {
    ++done_;
    cases_ += cases;
    failures_ += failures;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::ostringstream line;
    line << "[" << done_ << "/" << total_ << " form x selector] " << uint64_t(double(cases_) / std::max(seconds, 1e-9))
         << " cases/s, " << failures_ << " failing results";
    if (tty_) std::cerr << "\r" << line.str() << "  " << std::flush;
    else std::cerr << line.str() << " — " << what << "\n";
    if (tty_ && done_ == total_) std::cerr << "\n";
  }
  void message(const std::string& text) {
    if (tty_) std::cerr << "\r\33[2K";
    std::cerr << text << "\n";
  }

 private:
  size_t total_, done_ = 0;
  uint64_t cases_ = 0, failures_ = 0;
  bool tty_;
  Clock::time_point start_;
};

struct UbJob {
  const Form* form = nullptr;
  int selector = 0;
  int out_of_range = -1;
};

std::string ub_job_text(const Form& form, int selector, int out_of_range) {
  return form.opcode + "@" + std::to_string(selector) + "@" + std::to_string(out_of_range);
}

UbJob parse_ub_job(const std::string& text) {
  const size_t first = text.find('@'), second = text.find('@', first == std::string::npos ? first : first + 1);
  if (first == std::string::npos || second == std::string::npos) throw UsageError("bad --job '" + text + "'");
  UbJob job;
  job.form = find_form(text.substr(0, first));
  if (!job.form) throw UsageError("no form in --job '" + text + "'");
  job.selector = std::stoi(text.substr(first + 1, second - first - 1));
  job.out_of_range = std::stoi(text.substr(second + 1));
  return job;
}

// The exit status of a batch ub-probe that stopped after a job that faulted (its line was printed).
constexpr int kExitUbBatchStopped = 3;

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

}  // namespace

void add_ub_probe_options(CLI::App* command, UbProbeOptions& o) {
  command->add_option("--form", o.form, "opcode");
  command->add_option("--job", o.jobs, "opcode@selector@value, repeatable (batch mode)");
  command->add_option("--selector", o.selector, "the suite's selector");
  command->add_option("--seed", o.seed, "seed");
  command->add_option("--device", o.device, "GPU ordinal");
  command->add_option("--path", o.path, "toolkit or driver-jit");
  command->add_option("--modules", o.modules, "toolkit module store");
  command->add_option("--cases", o.cases, "undefined-behaviour cases");
  command->add_option("--threads", o.threads, "host threads");
  command->add_option("--out-of-range", o.out_of_range, "probe this out-of-range selector value instead");
}

int ub_probe_main(const UbProbeOptions& o) {
  std::vector<std::string> jobs = o.jobs;
  if (jobs.empty()) {
    const Form* form = find_form(o.form);
    if (!form) throw UsageError("no form '" + o.form + "'");
    jobs.push_back(ub_job_text(*form, o.selector, o.out_of_range));
  }
  auto device = std::make_shared<CudaDevice>(o.device);
  std::optional<Ptxas> ptxas;
  try {
    ptxas.emplace(locate_ptxas(), fs::path(), 1);
  } catch (const std::exception&) {
  }
  ModuleStore store(o.modules, ptxas ? &*ptxas : nullptr);
  GpuBackend backend(device, o.path == "toolkit" ? CompilePath::toolkit : CompilePath::driver_jit, &store);
  // One CUDA context for many jobs (creating one costs a good part of a second). A job that faults (the context no
  // longer works) makes the process stop after it; the parent starts a fresh one for the jobs left. A job that only
  // fails to compile (ptxas rejects most out-of-range selectors, finding F-0002) leaves the context as it was.
  for (size_t i = 0; i < jobs.size(); ++i) {
    const UbJob job = parse_ub_job(jobs[i]);
    json line;
    bool faulted = false;
    if (job.out_of_range >= 0) {
      const std::string what = probe_out_of_range_selector(backend, *job.form, job.out_of_range, o.seed);
      line = {{"what", what}};
      faulted = what.rfind("failed", 0) == 0 && !device->usable();
    } else {
      SuiteContext context{backend, o.seed, o.threads, "", {}};
      SuiteLimits limits;
      limits.special_generated = o.cases;
      const SuiteResult result = run_suite(context, *job.form, job.selector, Suite::undefined, limits);
      line = suite_json(result);
      faulted = (result.status == Status::crash || result.status == Status::timeout) && !device->usable();
    }
    std::cout << json{{"job", i}, {"line", line}}.dump() << std::endl;
    if (faulted) return kExitUbBatchStopped;
  }
  return kExitPass;
}

// Whole numbers written as digits only: CLI11 would otherwise read "-5" into an unsigned option as 2^64 - 5.
const CLI::Validator kCount = CLI::Validator(
    [](std::string& text) -> std::string {
      if (!all_digits(text)) return "a whole number of one or more digits is expected, not '" + text + "'";
      if (text.find_first_not_of('0') == std::string::npos) return "must be at least 1, not " + text;
      return "";
    },
    "POSITIVE INTEGER");
const CLI::Validator kSeed = CLI::Validator(
    [](std::string& text) -> std::string {
      if (text.size() > 20 || !all_digits(text))
        return "a whole number from 0 to 2^64-1 is expected, not '" + text + "'";
      return "";
    },
    "UINT64");
const CLI::Validator kSeconds = CLI::Validator(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0)
        return "a number of seconds greater than 0 is expected, not '" + text + "'";
      return "";
    },
    "SECONDS");

void add_run_options(CLI::App* command, RunOptions& o) {
  add_compile_options(command, o.compile, false);
  command->add_option("--device", o.device, "GPU ordinal")->capture_default_str();
  command->add_flag("--emulator", o.emulator, "run on the CPU emulator even when a GPU is present");
  command->add_option("--filter", o.filter, "only forms whose opcode matches this glob");
  command->add_option("--exclude", o.exclude, "leave out forms whose opcode matches this glob");
  command->add_option("--budget", o.budget, "seconds for the whole run, spread fairly over forms")->check(kSeconds);
  command->add_option("--cases", o.cases, "random cases per form and selector (default 10000 on a GPU, 64 emulated)")
      ->check(kCount);
  command->add_option("--seed", o.seed, "seed of every generated case")->capture_default_str()->check(kSeed);
  command->add_option("--shard", o.shard, "run shard i of n (a deterministic split of forms), e.g. 2/4")->capture_default_str();
  command->add_flag("--ub", o.ub, "also run undefined-behaviour cases (in isolation, never judged)");
  command->add_option("--out", o.out, "directory for reports")->capture_default_str();
  command->add_flag("--no-compile", o.no_compile, "skip compile conformance");
  command->add_flag("--layouts,!--no-layouts", o.layouts, "layout discovery (default on a GPU)")
      ->each([&o](const std::string&) { o.layouts_given = true; });
  command->add_option("--extras", o.extras, "layout discovery, SASS and the compile-path comparison on a GPU: auto, on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))->capture_default_str();
  command->add_option("--paths", o.paths, "compile paths on a GPU: toolkit, driver-jit or both")->capture_default_str();
  command->add_option("--modules", o.modules, "toolkit module store (default: <cache>/modules; see mmasp prepare)");
  command->add_option("--threads", o.threads, "host threads for generation and judging")->capture_default_str()->check(kCount);
  command->add_option("--special-generated", o.special_generated, "generated special-value cases per pair")->capture_default_str();
  command->add_option("--model", o.model,
                      "bit-exact model tier: strict (a deviation fails the run), warn (reported like a QualityWarning), "
                      "off; auto = strict on a GPU with verified models")
      ->check(CLI::IsMember({"auto", "strict", "warn", "off"}))->capture_default_str();
  command->add_flag("--model-candidates", o.model_candidates,
                    "let the model tier use unverified model records too (how a record is verified on hardware)");
}

int run_main(const RunOptions& o, int argc, char** argv) {
  if (o.budget > 0 && o.cases > 0) throw UsageError("give --budget or --cases, not both");
  const auto [shard_index, shard_count] = parse_shard(o.shard);
  const auto run_start = Clock::now();
  const fs::path out_dir = o.out;
  fs::create_directories(out_dir);
  JsonLines stream(out_dir / "results.jsonl");

  json run;
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  run["schema"] = "mmasp-run/1";
  run["run"] = {{"started", now_iso()}, {"host", hostname()}, {"command", command}, {"seed", o.seed},
                {"mmasp", {{"version", MMASP_VERSION}, {"commit", MMASP_GIT_COMMIT}}},
                {"case_streams", gen::case_streams_identity()},
                {"shard", o.shard}, {"budget_seconds", o.budget}, {"ub", o.ub}, {"notes", json::array()}};
  auto note = [&](const std::string& text) {
    run["run"]["notes"].push_back(text);
    std::cout << "  " << text << "\n";
  };
  // Wall time per phase, so that a slow run says where its time went (run.phase_seconds).
  std::map<std::string, double> phase_seconds;
  auto timed = [&](const std::string& phase, auto&& body) {
    const auto start = Clock::now();
    struct AddOnExit {
      std::function<void()> add;
      ~AddOnExit() { add(); }
    } add_on_exit{[&] { phase_seconds[phase] += std::chrono::duration<double>(Clock::now() - start).count(); }};
    return body();
  };

  // --- Where cases run. ---
  std::shared_ptr<CudaDevice> device;
  std::string no_gpu_reason;
  if (!o.emulator) {
    GpuProbe probe = probe_gpus();
    if (probe.available) {
      try {
        device = std::make_shared<CudaDevice>(o.device);
      } catch (const std::exception& error) {
        throw UsageError("GPU " + std::to_string(o.device) + ": " + error.what());
      }
    } else {
      no_gpu_reason = probe.reason;
    }
  }
  std::optional<PtxasInfo> ptxas_info;
  try {
    ptxas_info = locate_ptxas(o.compile.ptxas.empty() ? std::nullopt : std::optional<fs::path>(o.compile.ptxas));
  } catch (const std::exception&) {
  }
  std::optional<Ptxas> ptxas;
  const fs::path cache = o.compile.cache_dir.empty() ? default_ptxas_cache_dir() : fs::path(o.compile.cache_dir);
  if (ptxas_info) ptxas.emplace(*ptxas_info, cache, o.compile.jobs);
  ModuleStore store(o.modules.empty() ? cache / "modules" : fs::path(o.modules), ptxas ? &*ptxas : nullptr);

  json environment;
  environment["toolkit"] = store.toolkit_version();
  std::vector<std::unique_ptr<Backend>> backends;  // [0] runs the suites; [1] (if any) is compared with it
  if (device) {
    const DeviceFingerprint fingerprint = device->fingerprint();
    environment["backend"] = "gpu";
    environment["emulated"] = false;
    environment["device"] = fingerprint_json(fingerprint);
    std::cout << "mmasp run: GPU " << o.device << " " << fingerprint.name << " (sm_" << fingerprint.sm << "), driver "
              << fingerprint.driver_version << ", CUDA driver API " << fingerprint.driver_api_version << ".\n";
    std::stringstream paths(o.paths);
    for (std::string path; std::getline(paths, path, ',');) {
      if (path == "toolkit") {
        backends.push_back(std::make_unique<GpuBackend>(device, CompilePath::toolkit, &store));
      } else if (path == "driver-jit") {
        backends.push_back(std::make_unique<GpuBackend>(device, CompilePath::driver_jit, nullptr));
      } else {
        throw UsageError("--paths takes toolkit and/or driver-jit, not '" + path + "'");
      }
    }
    if (backends.empty()) throw UsageError("--paths names no compile path");
    environment["compile_paths"] = o.paths;
  } else {
    environment["backend"] = "emulator";
    environment["emulated"] = true;
    std::cout << "mmasp run: " << (o.emulator ? "--emulator given" : "no GPU (" + no_gpu_reason + ")") << ".\n";
    note("Running compile conformance and the CPU emulator: every result below is emulated, not a hardware result.");
    note("sm_120a forms (kind::f8f6f4, block scale) are compile-checked and emulated only: not executed: no sm_120a device.");
    backends.push_back(std::make_unique<EmulatorBackend>(o.threads));
  }
  run["environment"] = environment;

  // --- Compile conformance. ---
  if (!o.no_compile) {
    if (!ptxas_info) {
      note("compile conformance not run: no ptxas on this machine");
    } else {
      const int compile_exit = timed("compile conformance", [&] { return compile_conformance(o.compile, out_dir / "compile.json"); });
      std::ifstream in(out_dir / "compile.json");
      json compile = json::parse(in);
      run["compile"] = compile["summary"];
      run["compile"]["ptxas"] = compile["ptxas"];
      run["compile"]["exit"] = compile_exit;
      run["compile_matrix"] = {{"targets", compile["targets"]}, {"matrix", compile["matrix"]}};
    }
  }
  try {
    FindingsFile findings = load_findings(o.compile.findings.empty() ? default_findings_path() : fs::path(o.compile.findings));
    json list = json::array();
    for (const auto& f : findings.findings) list.push_back({{"id", f.id}, {"kind", f.kind}, {"title", f.summary}});
    run["findings"] = list;
  } catch (const std::exception& error) {
    note(std::string("findings not loaded: ") + error.what());
  }

  // --- Which pairs. ---
  std::vector<std::pair<const Form*, int>> pairs;
  size_t form_index = 0;
  for (const auto& form : instruction_space()) {
    if (!o.filter.empty() && !glob_match(o.filter, form.opcode)) continue;
    if (!o.exclude.empty() && glob_match(o.exclude, form.opcode)) continue;
    // Shards split forms, not pairs, so that one form's selectors stay together.
    if (int(form_index++ % size_t(shard_count)) != shard_index - 1) continue;
    for (int selector : form.selectors) pairs.push_back({&form, selector});
  }
  if (pairs.empty()) throw UsageError("no form matches --filter/--exclude/--shard");

  Backend& primary = *backends.front();
  const bool hardware = primary.is_hardware();
  const bool extras = hardware && (o.extras == "on" || (o.extras == "auto" && o.budget <= 0));
  if (hardware && !extras)
    note("layout discovery, SASS and the compile-path comparison were skipped (--budget run; use --cases or --extras on)");
  const bool do_layouts = hardware ? extras && o.layouts : (o.layouts_given && o.layouts);
  uint64_t cases_per_pair = o.cases ? o.cases : (o.budget > 0 ? 0 : (hardware ? 10000 : 64));
  SuiteContext context{primary, o.seed, o.threads, (out_dir / "failures").string(), {}};
  context.model = model_tier_for(device ? device->sm() : 0, o.model, o.model_candidates);
  if (context.model.mode != ModelMode::off)
    note("model tier " + std::string(name(context.model.mode)) + ": " + context.model.description +
         "; float forms without a verified model are judged by the spec tier alone");
  else if (hardware && o.model == "auto")
    note("model tier off: no verified bit-exact model for sm_" + std::to_string(device->sm()));
  run["run"]["model_tier"] = name(context.model.mode);
  RunProgress progress(pairs.size());
  context.log = [&](const std::string& line) { progress.message(line); };
  run["results"] = json::array();
  run["layouts"] = json::array();
  run["sass"] = json::array();
  run["compile_paths"] = json::array();
  size_t not_supported = 0;
  const auto deadline = run_start + std::chrono::duration<double>(o.budget);
  struct SassJob {
    const Form* form;
    int selector;
    std::string path, cubin, why_not;
  };
  std::vector<SassJob> sass_jobs;

  // On a GPU, undefined behaviour runs in processes of its own (`mmasp ub-probe`): an instruction that traps leaves
  // its CUDA context unusable, and that must not take the rest of the run with it. One process runs many jobs (a
  // context costs a good part of a second to create) and stops after a job that faulted; the next starts where it
  // stopped. A job whose process died under it is reported as such and not run again.
  const fs::path module_dir = o.modules.empty() ? cache / "modules" : fs::path(o.modules);
  std::map<std::string, json> ub_lines;         // job -> what the probe printed
  std::map<std::string, std::string> ub_deaths;  // job -> how its process ended
  if (o.ub && hardware) timed("undefined behaviour (incl. its processes)", [&] {
    auto& gpu = static_cast<GpuBackend&>(primary);
    std::vector<std::string> jobs;
    for (const auto& [form, selector] : pairs) {
      if (!primary.supports(*form, nullptr)) continue;
      jobs.push_back(ub_job_text(*form, selector, -1));
      if (selector == form->selectors.front())
        for (int value = int(form->selectors.size()); value < 4; ++value) jobs.push_back(ub_job_text(*form, selector, value));
    }
    for (size_t next = 0; next < jobs.size();) {
      std::vector<std::string> args = {"/proc/self/exe", "ub-probe", "--seed", std::to_string(o.seed), "--device",
                                       std::to_string(o.device), "--path", std::string(name(gpu.path())), "--modules",
                                       module_dir.string(), "--cases", std::to_string(o.special_generated),
                                       "--threads", std::to_string(o.threads)};
      for (size_t j = next; j < jobs.size(); ++j) {
        args.push_back("--job");
        args.push_back(jobs[j]);
      }
      const CommandResult child = run_command(args);
      size_t finished = next;
      std::istringstream lines(child.output);
      for (std::string text; std::getline(lines, text);) {
        const json parsed = json::parse(text, nullptr, false);
        if (!parsed.is_object() || !parsed.contains("job") || !parsed.contains("line")) continue;
        const size_t index = next + parsed["job"].get<size_t>();
        if (index >= jobs.size()) continue;
        ub_lines[jobs[index]] = parsed["line"];
        finished = std::max(finished, index + 1);
      }
      if (finished < jobs.size() && child.exit_code != kExitUbBatchStopped) {
        std::string tail = child.output;
        while (!tail.empty() && tail.back() == '\n') tail.pop_back();
        ub_deaths[jobs[finished]] = "the probe process ended with status " + std::to_string(child.exit_code) + ": " +
                                    tail.substr(tail.size() > 300 ? tail.size() - 300 : 0);
        ++finished;
      }
      next = finished;
    }
  });
  auto isolated_ub = [&](const Form& form, int selector, GpuBackend& gpu) {
    auto probe = [&](int out_of_range) -> std::pair<std::optional<json>, std::string> {
      const std::string job = ub_job_text(form, selector, out_of_range);
      if (auto it = ub_lines.find(job); it != ub_lines.end()) return {it->second, ""};
      if (auto it = ub_deaths.find(job); it != ub_deaths.end()) return {std::nullopt, it->second};
      return {std::nullopt, "not run"};
    };
    auto [result, why] = probe(-1);
    json line;
    if (result) {
      line = *result;
    } else {
      line = {{"id", result_id(form.opcode, selector, "ub")}, {"form", form.opcode}, {"family", form.family},
              {"selector", selector}, {"suite", "ub"}, {"status", "UB-not-judged"}, {"backend", gpu.description()},
              {"emulated", false}, {"cases", 0}, {"note", "UB: not judged; " + why}};
    }
    if (selector == form.selectors.front()) {
      json selectors = json::object();
      for (int value = int(form.selectors.size()); value < 4; ++value) {
        auto [outcome, died] = probe(value);
        selectors[std::to_string(value)] = outcome ? outcome->value("what", "?") : died;
        line["note"] = line.value("note", "") + "; selector " + std::to_string(value) + ": " +
                       selectors[std::to_string(value)].get<std::string>();
      }
      if (!selectors.empty()) line["out_of_range_selectors"] = selectors;
    }
    return line;
  };

  for (size_t p = 0; p < pairs.size(); ++p) {
    const Form* form = pairs[p].first;
    const int selector = pairs[p].second;
    const auto pair_start = Clock::now();
    uint64_t pair_cases = 0, pair_failures = 0;
    auto emit_json = [&](const json& line) {
      stream.write(line);
      run["results"].push_back(line);
      pair_cases += line.value("cases", uint64_t(0));
      const std::string status = line.value("status", "");
      pair_failures += is_failure(std::string_view(status));
    };
    auto emit = [&](SuiteResult result) {
      if (result.emulated) {
        // Never a hardware result: say which device it would need.
        const bool needs_sm120 = form->target.type != TargetRule::Type::at_least || form->target.sm >= 100;
        std::string label = needs_sm120 ? "emulated on the CPU; not executed: no sm_120a device"
                                        : "emulated on the CPU; not executed on a GPU";
        result.note = result.note.empty() ? label : label + "; " + result.note;
      }
      emit_json(suite_json(result));
    };
    std::string why;
    if (!primary.supports(*form, &why)) {
      ++not_supported;
      for (Suite suite : {Suite::random, Suite::special}) {
        SuiteResult result;
        result.form = form;
        result.selector = selector;
        result.suite = suite;
        result.backend = primary.description();
        result.status = Status::not_supported;
        result.note = why;
        emit(result);
      }
      progress.pair_done(form->opcode, 0, 0);
      continue;
    }
    SuiteLimits limits;
    limits.special_generated = o.special_generated;
    emit(timed("special suites", [&] { return run_suite(context, *form, selector, Suite::special, limits); }));
    if (o.ub) {
      timed("undefined behaviour (incl. its processes)", [&] {
        if (!hardware) {
          SuiteResult ub = run_suite(context, *form, selector, Suite::undefined, limits);
          if (selector == form->selectors.front())
            for (int value = int(form->selectors.size()); value < 4; ++value)
              ub.out_of_range_selectors.push_back({value, probe_out_of_range_selector(primary, *form, value, o.seed)});
          emit(ub);
        } else {
          emit_json(isolated_ub(*form, selector, static_cast<GpuBackend&>(primary)));
        }
      });
    }
    if (extras) timed("SASS and compile-path comparison", [&] {
      // The SASS of each compile path (disassembled after the loop, on every host thread: cuobjdump needs no GPU),
      // and whether the two paths compute the same bits.
      for (auto& backend : backends) {
        auto* gpu = static_cast<GpuBackend*>(backend.get());
        SassJob job{form, selector, std::string(name(gpu->path())), "", ""};
        try {
          job.cubin = gpu->cubin(*form, selector);
        } catch (const std::exception& error) {
          job.why_not = error.what();
        }
        sass_jobs.push_back(std::move(job));
      }
      if (backends.size() > 1) {
        json compare = {{"form", form->opcode}, {"selector", selector}};
        try {
          std::vector<MmaCase> cases(1024);
          gen::Options options;
          options.selector = selector;
          for (size_t i = 0; i < cases.size(); ++i) {
            gen::BulkGenerator generator(gen::case_seed(o.seed ^ 0xc0de, *form, i));
            generator.next(*form, cases[i], options);
          }
          const auto first = execute(*backends[0], *form, selector, cases, o.threads);
          const auto second = execute(*backends[1], *form, selector, cases, o.threads);
          size_t differing = 0;
          for (size_t i = 0; i < cases.size(); ++i) differing += first[i] != second[i];
          compare["cases"] = cases.size();
          compare["identical"] = differing == 0;
          compare["differing_cases"] = differing;
          if (differing) compare["note"] = std::to_string(differing) + " of 1024 cases differ between toolkit and driver JIT";
        } catch (const std::exception& error) {
          compare["identical"] = false;
          compare["note"] = std::string("could not compare: ") + error.what();
        }
        run["compile_paths"].push_back(compare);
      }
    });
    if (do_layouts)
      run["layouts"].push_back(timed("layout discovery", [&] { return layout_json(discover_layout(primary, *form, selector)); }));
    // The random suite gets what is left of this pair's fair share of the budget.
    if (o.budget > 0) {
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      const double share = std::max(0.0, left / double(pairs.size() - p));
      limits.min_cases = 256;
      limits.max_cases = uint64_t(1) << 40;
      limits.seconds = std::max(0.0, share - std::chrono::duration<double>(Clock::now() - pair_start).count());
    } else {
      limits.min_cases = limits.max_cases = cases_per_pair;
    }
    emit(timed("random suites", [&] { return run_suite(context, *form, selector, Suite::random, limits); }));
    progress.pair_done(form->opcode + " sel=" + std::to_string(selector), pair_cases, pair_failures);
  }
  timed("SASS and compile-path comparison", [&] {
    std::vector<json> sass(sass_jobs.size());
    parallel_for(
        sass_jobs.size(), o.threads,
        [&](size_t i) {
          const SassJob& job = sass_jobs[i];
          std::string why_not = job.why_not;
          std::optional<SassSummary> summary;
          if (why_not.empty()) {
            try {
              summary = disassemble(job.cubin, &why_not);
            } catch (const std::exception& error) {
              why_not = error.what();
            }
          }
          sass[i] = sass_json(*job.form, job.selector, job.path, summary, why_not);
        },
        1);
    for (auto& line : sass) run["sass"].push_back(std::move(line));
  });
  if (not_supported && hardware)
    note(std::to_string(not_supported) + " form x selector pairs need another architecture: not executed (e.g. \"not executed: no sm_120a device\"); never counted as passed.");

  run["run"]["finished"] = now_iso();
  run["run"]["seconds"] = std::chrono::duration<double>(Clock::now() - run_start).count();
  run["run"]["phase_seconds"] = phase_seconds;
  run["summary"] = status_counts(run);
  write_reports(run, out_dir);
  // The head of the summary (environment, counts, compile conformance); the per-form table is in summary.md.
  const std::string summary = markdown_summary(run);
  std::cout << summary.substr(0, summary.find("\n| form |"));
  if (exit_code_for(run) != 0) {
    const auto failures = summary.find("## Failures");
    if (failures != std::string::npos) std::cout << "\n" << summary.substr(failures, summary.find("\n## ", failures + 3) - failures);
  }
  std::cout << "\nreports: " << (out_dir / "run.json").string() << ", junit.xml, summary.md, report.html, results.jsonl\n";
  return exit_code_for(run);
}

}  // namespace mmasp::cli
