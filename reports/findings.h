// Findings: documented disagreements between the hardware or toolkit and the spec or our model (findings/*.json).
// A documented finding keeps a known disagreement from failing a run; it never changes what the catalog or the
// oracle expect.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "harness/compile_conformance.h"

namespace mmasp {

// What a finding is about. Only compile findings are matched against a run (compile conformance); the others document
// the hardware and the toolkit and are listed in the reports.
enum class FindingKind { compile, lowering, ub_execution, numerics, spec };
std::string_view name(FindingKind kind);   // "compile", "lowering", "ub-execution", "numerics", "spec"

struct Finding {
  std::string id;                       // "F-0001"
  FindingKind kind = FindingKind::compile;
  std::vector<std::string> cases;       // globs over case ids
  std::string toolkit = "*";            // glob over the ptxas version line
  std::string observed;                 // what was seen, as the file says it
  std::optional<Observed> compile_observed;   // a compile finding's: what ptxas did (accept or reject)
  std::string summary;
  std::string spec;                     // the section the expectation comes from
  std::string details;
};

struct FindingsFile {
  std::filesystem::path path;
  std::vector<Finding> findings;
};

// Throws std::runtime_error with the path and the problem when the file is malformed.
FindingsFile load_findings(const std::filesystem::path& path);
// The same from the file's text; `path` names it in errors.
FindingsFile parse_findings(const std::string& text, const std::filesystem::path& path);
// Where the findings file is when --findings does not say: beside an installed binary
// (<bindir>/<MMASP_FINDINGS_FROM_BINARY>, i.e. <prefix>/share/mmasp/findings/findings.json as `cmake --install` lays
// it out), else in the source tree the binary was built from. The first that exists; std::runtime_error naming each
// place looked in (once) when none does.
std::filesystem::path default_findings_path();

bool glob_match(const std::string& pattern, const std::string& text);
// Why a glob cannot mean what it says (an unterminated "[" would match nothing, silently); empty when it is fine.
std::string glob_problem(const std::string& pattern);

// The first finding of `kind` that documents this outcome, or nullptr.
const Finding* match_finding(const FindingsFile& file, FindingKind kind, const std::string& case_id, Observed observed,
                             const std::string& toolkit);

}  // namespace mmasp
