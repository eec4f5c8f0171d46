#include "cli/common.h"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "harness/compile_conformance.h"
#include "harness/ptxas.h"
#include "reports/compile_report.h"
#include "reports/findings.h"

namespace fs = std::filesystem;

namespace mmasp::cli {
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


void add_compile_options(CLI::App* command, CompileOptions& options, bool with_filter) {
  if (with_filter) command->add_option("--filter", options.filter, "only cases whose id matches this glob, e.g. '*bf16*'");
  command->add_option("--targets", options.targets, "comma-separated targets")->capture_default_str();
  command->add_option("--cache", options.cache_dir, "ptxas result cache (default: ~/.cache/mmasp/ptxas)");
  command->add_flag("--no-cache", options.no_cache, "assemble everything afresh");
  command->add_flag("--no-negative", options.no_negative, "skip the negative set");
  command->add_option("--ptxas", options.ptxas, "ptxas to test (default: $MMASP_PTXAS, $CUDA_HOME, the build's)");
  command->add_option("--findings", options.findings, "findings file (default: findings/findings.json)");
  command->add_option("-j,--jobs", options.jobs, "parallel ptxas processes")->capture_default_str();
}

Progress::Progress(std::string label) : label_(std::move(label)), tty_(isatty(STDERR_FILENO)) {}

void Progress::operator()(size_t done, size_t total) {
  if (tty_) {
    std::cerr << "\r" << label_ << " " << done << "/" << total << std::flush;
    if (done == total) std::cerr << "\n";
  } else if (done == total || done * 10 / total != (done - 1) * 10 / total) {
    std::cerr << label_ << " " << done << "/" << total << "\n";
  }
}


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


std::vector<std::pair<const Form*, int>> selected_pairs(const std::string& filter, const std::string& exclude,
                                                        const std::function<bool(const Form&)>& runs,
                                                        const std::function<bool(const Form&)>& keep) {
  std::vector<std::pair<const Form*, int>> pairs;
  for (const auto& form : instruction_space()) {
    if (!glob_match(filter, form.opcode) || (!exclude.empty() && glob_match(exclude, form.opcode))) continue;
    if ((keep && !keep(form)) || !runs(form)) continue;
    for (int selector : form.selectors) pairs.push_back({&form, selector});
  }
  return pairs;
}

}  // namespace mmasp::cli
