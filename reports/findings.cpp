#include "reports/findings.h"

#include "oracle/input_file.h"
#include "oracle/text.h"

#include <fnmatch.h>

#include <algorithm>
#include <vector>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mmasp {

std::string_view name(FindingKind kind) {
  switch (kind) {
    case FindingKind::compile: return "compile";
    case FindingKind::lowering: return "lowering";
    case FindingKind::ub_execution: return "ub-execution";
    case FindingKind::numerics: return "numerics";
    case FindingKind::spec: return "spec";
  }
  return "";
}

namespace {
std::optional<FindingKind> finding_kind_named(std::string_view text) {
  for (FindingKind kind : {FindingKind::compile, FindingKind::lowering, FindingKind::ub_execution, FindingKind::numerics,
                           FindingKind::spec})
    if (name(kind) == text) return kind;
  return std::nullopt;
}
}  // namespace

bool glob_match(const std::string& pattern, const std::string& text) {
  // fnmatch reads C strings: a NUL would end the pattern (or the text) early and match what the rest excludes.
  if (pattern.find('\0') != std::string::npos || text.find('\0') != std::string::npos) return false;
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

std::string glob_problem(const std::string& pattern) {
  // fnmatch(3) without flags: "\\x" is x, "[...]" a set that may hold ranges and the POSIX classes "[:name:]". An
  // unterminated set or an unknown class makes fnmatch match nothing (or the set literally), silently.
  static const char* const kClasses[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                         "lower", "print", "punct", "space", "upper", "xdigit"};
  // No id, opcode or version holds a control character; a NUL would end the glob where fnmatch reads it.
  for (size_t i = 0; i < pattern.size(); ++i)
    if (const auto byte = static_cast<unsigned char>(pattern[i]); byte < 0x20 || byte == 0x7f)
      return "the glob '" + printable(pattern) + "' holds the control character " + printable(std::string(1, pattern[i])) +
             " at byte " + std::to_string(i) + " (globs are printable text)";
  const std::string unterminated = "the glob '" + pattern + "' has a '[' without its ']' (write '[[]' for a literal '[')";
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (i + 1 == pattern.size()) return "the glob '" + pattern + "' ends in a lone '\\' (write '\\\\' for a literal one)";
      ++i;
      continue;
    }
    if (pattern[i] != '[') continue;
    size_t j = i + 1;
    if (j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^')) ++j;
    if (j < pattern.size() && pattern[j] == ']') ++j;   // a "]" first is part of the set
    for (;; ++j) {
      if (j >= pattern.size()) return unterminated;
      if (pattern[j] == ']') break;
      if (pattern[j] == '[' && j + 1 < pattern.size() && (pattern[j + 1] == ':' || pattern[j + 1] == '=' || pattern[j + 1] == '.')) {
        const char kind = pattern[j + 1];
        const size_t end = pattern.find(std::string(1, kind) + "]", j + 2);
        if (end == std::string::npos) return unterminated;
        const std::string inner = pattern.substr(j + 2, end - j - 2);
        if (kind == ':' && std::find(std::begin(kClasses), std::end(kClasses), inner) == std::end(kClasses))
          return "the glob '" + pattern + "' names the character class '[:" + inner + ":]', which does not exist "
                 "(known: alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit)";
        if (kind != ':')
          return "the glob '" + pattern + "' uses '[" + std::string(1, kind) + "..." + std::string(1, kind) +
                 "]', which mmasp does not support (list the characters instead)";
        j = end + 1;
      }
    }
    i = j;
  }
  return "";
}

std::filesystem::path default_findings_path() {
  std::vector<std::filesystem::path> places;
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
#ifdef MMASP_FINDINGS_FROM_BINARY
  if (!error) places.push_back((binary.parent_path() / MMASP_FINDINGS_FROM_BINARY).lexically_normal());
#endif
  places.push_back(std::filesystem::path(MMASP_SOURCE_DIR) / "findings" / "findings.json");
  std::string looked;
  for (const auto& place : places) {
    if (std::filesystem::is_regular_file(place, error)) return place;
    looked += (looked.empty() ? "" : ", ") + place.string();
  }
  throw std::runtime_error("no findings file: looked in " + looked + " (give --findings FILE, or install mmasp with "
                           "`cmake --install`, which puts it beside the binary)");
}

FindingsFile load_findings(const std::filesystem::path& path) {
  try {
    return parse_findings(read_input_file(path, kMaxSmallJsonBytes, "a findings file"), path);
  } catch (const InputFileError& error) {
    throw std::runtime_error(error.what());   // names the file already
  }
}

FindingsFile parse_findings(const std::string& text, const std::filesystem::path& path) {
  FindingsFile file;
  file.path = path;
  nlohmann::json json;
  try {
    json = parse_json_input(text, path.string());
  } catch (const InputFileError& error) {
    throw std::runtime_error(error.what());
  }
  const auto fail = [&](const std::string& where, const std::string& what) {
    throw std::runtime_error(path.string() + ": " + where + ": " + what);
  };
  if (!json.is_object() || json.value("schema", nlohmann::json()) != "mmasp-findings/1")
    fail("/schema", "must be \"mmasp-findings/1\"");
  if (!json.contains("findings") || !json["findings"].is_array()) fail("/findings", "an array is expected");
  for (size_t i = 0; i < json["findings"].size(); ++i) {
    const nlohmann::json& entry = json["findings"][i];
    const std::string at = "/findings/" + std::to_string(i);
    if (!entry.is_object()) fail(at, "an object is expected");
    const auto text = [&](const char* key, bool required, const std::string& otherwise) -> std::string {
      if (!entry.contains(key)) {
        if (required) fail(at + "/" + key, "missing");
        return otherwise;
      }
      if (!entry[key].is_string()) fail(at + "/" + key, std::string("a string is expected, not ") + entry[key].type_name());
      return entry[key].get<std::string>();
    };
    Finding finding;
    finding.id = text("id", true, "");
    if (!has_visible_text(finding.id)) fail(at + "/id", "an id with visible text is expected");
    for (const auto& earlier : file.findings)
      if (earlier.id == finding.id) fail(at + "/id", "the id '" + printable(finding.id) + "' is used twice (ids name one finding)");
    const std::string kind = text("kind", true, "");
    const auto parsed = finding_kind_named(kind);
    if (!parsed) fail(at + "/kind", "compile, lowering, ub-execution, numerics or spec is expected, not \"" + kind + "\"");
    finding.kind = *parsed;
    finding.toolkit = text("toolkit", false, "*");
    finding.observed = text("observed", true, "");
    if (finding.kind == FindingKind::compile) {
      finding.compile_observed = observed_named(finding.observed);
      if (!finding.compile_observed || finding.compile_observed == Observed::not_run)
        fail(at + "/observed", "a compile finding observed accept or reject, not \"" + finding.observed + "\"");
    }
    finding.summary = text("summary", true, "");
    finding.spec = text("spec", false, "");
    finding.details = text("details", false, "");
    if (!entry.contains("cases") || !entry["cases"].is_array()) fail(at + "/cases", "an array of globs is expected");
    for (size_t c = 0; c < entry["cases"].size(); ++c) {
      const nlohmann::json& glob = entry["cases"][c];
      if (!glob.is_string()) fail(at + "/cases/" + std::to_string(c), "a string (a glob over case ids) is expected");
      finding.cases.push_back(glob.get<std::string>());
    }
    // A malformed glob would match nothing, and the finding would silently stop documenting anything.
    for (size_t c = 0; c < finding.cases.size(); ++c)
      if (const std::string problem = glob_problem(finding.cases[c]); !problem.empty())
        fail(at + "/cases/" + std::to_string(c), problem);
    if (const std::string problem = glob_problem(finding.toolkit); !problem.empty()) fail(at + "/toolkit", problem);
    file.findings.push_back(std::move(finding));
  }
  return file;
}

const Finding* match_finding(const FindingsFile& file, FindingKind kind, const std::string& case_id, Observed observed,
                             const std::string& toolkit) {
  for (const auto& finding : file.findings) {
    if (finding.kind != kind || finding.compile_observed != observed || !glob_match(finding.toolkit, toolkit)) continue;
    for (const auto& pattern : finding.cases)
      if (glob_match(pattern, case_id)) return &finding;
  }
  return nullptr;
}

}  // namespace mmasp
