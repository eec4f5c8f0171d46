// Findings: documented disagreements between the hardware or toolkit and the spec or our model (findings/*.json).
// A documented finding keeps a known disagreement from failing a run; it never changes what the catalog or the
// oracle expect.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mmasp {

struct Finding {
  std::string id;                       // "F-0001"
  std::string kind;                     // "compile", later "execute", "layout"
  std::vector<std::string> cases;       // globs over case ids
  std::string toolkit = "*";            // glob over the ptxas version line
  std::string observed;                 // what was seen: "accept" / "reject"
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
const Finding* match_finding(const FindingsFile& file, const std::string& kind, const std::string& case_id,
                             const std::string& observed, const std::string& toolkit);

}  // namespace mmasp
