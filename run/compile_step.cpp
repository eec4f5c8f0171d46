#include "run/compile_step.h"

#include <sstream>

#include "harness/ptxas.h"
#include "oracle/text.h"
#include "run/usage_error.h"

namespace fs = std::filesystem;

namespace mmasp::run {

std::string target_list(const std::vector<Target>& targets) {
  std::string list;
  for (const auto& target : targets) list += (list.empty() ? "" : ",") + target.name;
  return list;
}

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
  if (targets.empty()) throw UsageError("--targets names no target ('" + list + "')");
  return targets;
}

std::vector<CompileCase> check_compile_options(const CompileOptions& options, FindingsFile* findings) {
  const std::vector<Target> targets = parse_targets(options.targets);
  if (const std::string problem = utf8_problem(options.filter); !problem.empty()) throw UsageError("--filter: " + problem);
  if (const std::string problem = glob_problem(options.filter); !problem.empty()) throw UsageError("--filter: " + problem);
  try {
    const FindingsFile loaded = load_findings(options.findings.empty() ? default_findings_path() : fs::path(options.findings));
    if (findings) *findings = loaded;
  } catch (const std::runtime_error& error) {
    throw UsageError(error.what());   // names the file (or every place looked in) once
  }
  auto cases = catalog_cases(instruction_space(), targets);
  if (!options.no_negative) {
    auto negatives = negative_cases(instruction_space(), targets);
    cases.insert(cases.end(), negatives.begin(), negatives.end());
  }
  if (!options.filter.empty())
    // Read as every command reads a filter: a glob over the form's opcode, or over the case id that names one case.
    std::erase_if(cases, [&](const CompileCase& test) {
      return !glob_match(options.filter, test.id) && !(!test.form.empty() && glob_match(options.filter, test.form));
    });
  if (cases.empty()) throw UsageError("the filter '" + options.filter + "' matches no compile case");
  return cases;
}

std::unique_ptr<CompileStep> run_compile_step(const CompileOptions& options,
                                              const std::function<void(size_t, size_t)>& progress) {
  auto step = std::make_unique<CompileStep>();
  step->targets = parse_targets(options.targets);
  const std::vector<CompileCase> cases = check_compile_options(options, &step->findings);
  PtxasInfo info;
  try {
    info = locate_ptxas(options.ptxas.empty() ? std::nullopt : std::optional<fs::path>(options.ptxas));
  } catch (const PtxasNotFound& error) {
    throw UsageError(error.what());
  }
  const fs::path cache = options.no_cache ? fs::path()
                         : options.cache_dir.empty() ? default_ptxas_cache_dir()
                                                     : fs::path(options.cache_dir);
  const Ptxas ptxas(info, cache, options.jobs);
  step->run = run_compile_conformance(ptxas, cases, progress);
  step->judgement = judge(step->run, step->findings);
  return step;
}

}  // namespace mmasp::run
