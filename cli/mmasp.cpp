// mmasp: conformance and fuzz testing of the mma.sp / mma.sp::ordered_metadata instructions.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "harness/compile_conformance.h"
#include "harness/gpu_probe.h"
#include "harness/ptx_emitter.h"
#include "harness/ptxas.h"
#include "oracle/case_file.h"
#include "oracle/instruction_space.h"
#include "reports/catalog_json.h"
#include "reports/compile_report.h"
#include "reports/evaluation.h"
#include "reports/findings.h"

namespace fs = std::filesystem;
using namespace mmasp;

namespace {

// Exit codes (dEQP-like): every result Pass/QualityWarning/NotSupported/Waived -> 0, any Fail -> 1, usage or
// environment error -> 2.
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<Target> parse_targets(const std::string& list) {
  std::vector<Target> targets;
  std::stringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    auto target = find_target(item);
    if (!target) {
      std::string known;
      for (const auto& t : known_targets()) known += " " + t.name;
      throw UsageError("unknown target '" + item + "'; known:" + known);
    }
    targets.push_back(*target);
  }
  return targets;
}

std::vector<const Form*> filter_forms(const std::string& glob, const std::optional<Target>& target) {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space()) {
    if (!glob.empty() && !glob_match(glob, form.opcode)) continue;
    if (target && !form.legal_on(*target, form.version_for(*target))) continue;
    forms.push_back(&form);
  }
  return forms;
}

struct CompileOptions {
  std::string filter;
  std::string targets = "sm_80,sm_86,sm_89,sm_90a,sm_100a,sm_120a";
  std::string json_path;
  std::string cache_dir;
  bool no_cache = false;
  bool no_negative = false;
  std::string ptxas;
  std::string findings;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

void add_compile_options(CLI::App* command, CompileOptions& options) {
  command->add_option("--filter", options.filter, "only cases whose id matches this glob, e.g. '*bf16*'");
  command->add_option("--targets", options.targets, "comma-separated targets")->capture_default_str();
  command->add_option("--cache", options.cache_dir, "ptxas result cache (default: ~/.cache/mmasp/ptxas)");
  command->add_flag("--no-cache", options.no_cache, "assemble everything afresh");
  command->add_flag("--no-negative", options.no_negative, "skip the negative set");
  command->add_option("--ptxas", options.ptxas, "ptxas to test (default: $MMASP_PTXAS, $CUDA_HOME, the build's)");
  command->add_option("--findings", options.findings, "findings file (default: findings/findings.json)");
  command->add_option("-j,--jobs", options.jobs, "parallel ptxas processes")->capture_default_str();
}

class Progress {
 public:
  explicit Progress(std::string label) : label_(std::move(label)), tty_(isatty(STDERR_FILENO)) {}
  void operator()(size_t done, size_t total) {
    if (tty_) {
      std::cerr << "\r" << label_ << " " << done << "/" << total << std::flush;
      if (done == total) std::cerr << "\n";
    } else if (done == total || done * 10 / total != (done - 1) * 10 / total) {
      std::cerr << label_ << " " << done << "/" << total << "\n";
    }
  }

 private:
  std::string label_;
  bool tty_;
};

// Runs compile conformance and writes its reports; returns the exit code.
int compile_conformance(const CompileOptions& options, const fs::path& out_json) {
  auto targets = parse_targets(options.targets);
  PtxasInfo info = locate_ptxas(options.ptxas.empty() ? std::nullopt : std::optional<fs::path>(options.ptxas));
  fs::path cache = options.no_cache ? fs::path() : options.cache_dir.empty() ? default_ptxas_cache_dir()
                                                                              : fs::path(options.cache_dir);
  Ptxas ptxas(info, cache, options.jobs);
  FindingsFile findings = load_findings(options.findings.empty() ? default_findings_path() : fs::path(options.findings));

  auto cases = catalog_cases(instruction_space(), targets);
  if (!options.no_negative) {
    auto negatives = negative_cases(instruction_space(), targets);
    cases.insert(cases.end(), negatives.begin(), negatives.end());
  }
  if (!options.filter.empty())
    std::erase_if(cases, [&](const CompileCase& test) { return !glob_match(options.filter, test.id); });
  if (cases.empty()) throw UsageError("the filter '" + options.filter + "' matches no case");

  Progress progress("compile conformance:");
  CompileRun run = run_compile_conformance(ptxas, cases, std::ref(progress));
  CompileJudgement judgement = judge(run, findings);
  std::cout << compile_summary(run, judgement, targets);
  if (!out_json.empty()) {
    if (out_json.has_parent_path()) fs::create_directories(out_json.parent_path());
    std::ofstream out(out_json);
    out << compile_json(run, judgement, targets).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + out_json.string());
    std::cout << "wrote " << out_json.string() << "\n";
  }
  return judgement.undocumented.empty() ? kExitPass : kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mmasp: conformance and fuzz tests for PTX mma.sp / mma.sp::ordered_metadata"};
  app.require_subcommand(1);

  // list
  auto* list = app.add_subcommand("list", "print the instruction space (every legal form)");
  bool list_json = false;
  std::string list_filter, list_target;
  list->add_flag("--json", list_json, "print JSON (schema mmasp-catalog/1)");
  list->add_option("--filter", list_filter, "only forms whose opcode matches this glob, e.g. '*ordered*bf16*'");
  list->add_option("--target", list_target, "only forms legal on this target, e.g. sm_90a");

  // emit
  auto* emit = app.add_subcommand("emit", "print the PTX module mmasp runs for one form");
  std::string emit_form, emit_target = "sm_90a", emit_version;
  int emit_selector = 0;
  emit->add_option("form", emit_form, "the form's opcode (see mmasp list)")->required();
  emit->add_option("--selector", emit_selector, "sparsity selector")->capture_default_str();
  emit->add_option("--target", emit_target, "target")->capture_default_str();
  emit->add_option("--ptx-version", emit_version, "PTX version (default: the lowest that works)");

  // compile
  auto* compile = app.add_subcommand("compile", "compile conformance: ptxas against the catalog, for every target");
  CompileOptions compile_options;
  std::string compile_json_path;
  add_compile_options(compile, compile_options);
  compile->add_option("--json", compile_json_path, "write the accept/reject matrix here (schema mmasp-compile/1)");

  // run
  auto* run = app.add_subcommand("run", "the main job: everything this machine can check");
  CompileOptions run_options;
  std::string run_out = "mmasp-out";
  int run_device = 0;
  add_compile_options(run, run_options);
  run->add_option("--out", run_out, "directory for reports")->capture_default_str();
  run->add_option("--device", run_device, "GPU ordinal")->capture_default_str();

  // eval
  auto* eval = app.add_subcommand("eval", "print the expected D and its bounds for a case file, and judge its observed D");
  std::vector<std::string> eval_files;
  eval->add_option("case", eval_files, "case files (schema mmasp-case/1, docs/case-files.md)")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }

  try {
    if (*list) {
      std::optional<Target> target;
      if (!list_target.empty()) target = parse_targets(list_target).front();
      auto forms = filter_forms(list_filter, target);
      if (list_json)
        std::cout << catalog_json(forms).dump(2) << "\n";
      else
        std::cout << catalog_table(forms);
      return kExitPass;
    }
    if (*emit) {
      const Form* form = find_form(emit_form);
      if (!form) throw UsageError("no form '" + emit_form + "' in the catalog; see `mmasp list`");
      auto target = parse_targets(emit_target).front();
      PtxVersion version = form->version_for(target);
      if (!emit_version.empty()) {
        auto parsed = parse_ptx_version(emit_version);
        if (!parsed) throw UsageError("bad PTX version '" + emit_version + "'");
        version = *parsed;
      }
      if (std::find(form->selectors.begin(), form->selectors.end(), emit_selector) == form->selectors.end())
        std::cerr << "warning: selector " << emit_selector << " is outside this form's range (undefined behaviour)\n";
      std::cout << emit_module(instruction_for(*form, emit_selector), version, target);
      return kExitPass;
    }
    if (*compile) return compile_conformance(compile_options, compile_json_path);
    if (*eval) {
      int status = kExitPass;
      for (const auto& path : eval_files) {
        CaseFile file;
        try {
          file = load_case_file(path);
        } catch (const CaseFileError& error) {
          throw UsageError(error.what());
        }
        std::optional<std::span<const uint32_t>> observed;
        if (file.observed_d) observed = std::span<const uint32_t>(*file.observed_d);
        Evaluation evaluation = evaluate(file.test, observed);
        if (eval_files.size() > 1) std::cout << "== " << path << "\n";
        for (const auto& line : file.comment) std::cout << "# " << line << "\n";
        std::cout << format_evaluation(file.test, evaluation, observed);
        if (evaluation.verdict && is_failure(evaluation.verdict->status)) status = kExitFail;
      }
      return status;
    }
    if (*run) {
      GpuProbe gpu = probe_gpus();
      if (gpu.available) {
        const auto& device = gpu.devices.at(size_t(run_device) < gpu.devices.size() ? run_device : 0);
        std::cout << "mmasp run: GPU " << device.ordinal << " " << device.name << " (sm_" << device.sm
                  << "), driver " << gpu.driver_version << ".\n"
                  << "  Execution suites are not built yet (issue #5): this run checks compilation only; nothing\n"
                  << "  is executed on the GPU and no result below is a hardware result.\n";
      } else {
        std::cout << "mmasp run: no GPU (" << gpu.reason << ").\n"
                  << "  Running compile conformance only; the CPU emulator comes with issue #5.\n"
                  << "  Nothing is executed: sm_120a forms are compile-checked only (not executed: no sm_120a "
                     "device).\n";
      }
      return compile_conformance(run_options, fs::path(run_out) / "compile.json");
    }
  } catch (const UsageError& error) {
    std::cerr << "mmasp: " << error.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "mmasp: " << error.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
