// Compile conformance as a step of a run: the cases (catalog matrix plus negative set), ptxas on each, the verdicts
// judged against the findings — returned, for `mmasp compile` to print and write and for `mmasp run` to record.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness/compile_conformance.h"
#include "reports/compile_report.h"
#include "reports/findings.h"
#include "reports/run_record.h"

namespace mmasp::run {

// "sm_80,sm_86,...": the names of these targets, comma-separated.
std::string target_list(const std::vector<Target>& targets);

struct CompileOptions {
  std::string filter;            // only cases whose id matches this glob
  std::string targets = target_list(conformance_targets());
  std::string json_path;
  std::string cache_dir;
  bool no_cache = false;
  bool no_negative = false;
  std::string ptxas;
  std::string findings;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

// Targets named in a comma-separated list; UsageError names an unknown one and lists the known.
std::vector<Target> parse_targets(const std::string& list);

struct CompileStep {
  std::vector<Target> targets;
  FindingsFile findings;
  CompileRun run;
  CompileJudgement judgement;   // points into run and findings: a CompileStep is never copied
  bool passed() const { return judgement.undocumented.empty(); }
  CompileRecord record() const { return compile_record(run, judgement, targets); }
};

// What run_compile_step would refuse, found without running ptxas: an unknown target, a malformed or unmatched
// filter, no ptxas, a findings file that is missing or malformed. UsageError; `mmasp run` calls this before it writes
// anything into --out. Returns the cases the step will assemble.
std::vector<CompileCase> check_compile_options(const CompileOptions& options, FindingsFile* findings = nullptr);

// Throws UsageError when the filter matches no case or no ptxas runs here.
std::unique_ptr<CompileStep> run_compile_step(const CompileOptions& options,
                                              const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace mmasp::run
