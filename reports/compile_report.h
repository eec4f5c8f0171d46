// Reports of a compile-conformance run: the accept/reject matrix as JSON, and a summary for people. Findings are
// applied here: a disagreement is either documented (by a finding) or new.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/compile_conformance.h"
#include "reports/findings.h"
#include "reports/run_record.h"

namespace mmasp {

struct JudgedOutcome {
  const CompileOutcome* outcome;
  const Finding* finding = nullptr;   // set for documented disagreements
};

struct CompileJudgement {
  std::vector<JudgedOutcome> documented;    // disagreements that a finding explains
  std::vector<JudgedOutcome> undocumented;  // new disagreements: these fail the run
  std::vector<const Finding*> stale;        // compile findings that matched nothing this run
  size_t agree = 0, not_run = 0;
};

CompileJudgement judge(const CompileRun& run, const FindingsFile& findings);

// Schema "mmasp-compile/1"; documented in docs/compile-report.md.
nlohmann::json compile_json(const CompileRun& run, const CompileJudgement& judgement,
                            const std::vector<Target>& targets);
// What run.json keeps of it: the counts and the catalog matrix (the negative set stays in compile.json).
CompileRecord compile_record(const CompileRun& run, const CompileJudgement& judgement, const std::vector<Target>& targets);
std::string compile_summary(const CompileRun& run, const CompileJudgement& judgement,
                            const std::vector<Target>& targets);

}  // namespace mmasp
