#include "reports/findings.h"

#include "oracle/input_file.h"

#include <fnmatch.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mmasp {

bool glob_match(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

std::string glob_problem(const std::string& pattern) {
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
    } else if (pattern[i] == '[') {
      size_t j = i + 1;
      if (j < pattern.size() && (pattern[j] == '!' || pattern[j] == '^')) ++j;
      if (j < pattern.size() && pattern[j] == ']') ++j;   // a "]" first is part of the set
      while (j < pattern.size() && pattern[j] != ']') ++j;
      if (j >= pattern.size())
        return "the glob '" + pattern + "' has a '[' without its ']' (write '[[]' for a literal '[')";
      i = j;
    }
  }
  return "";
}

std::filesystem::path default_findings_path() {
  return std::filesystem::path(MMASP_SOURCE_DIR) / "findings" / "findings.json";
}

FindingsFile load_findings(const std::filesystem::path& path) {
  FindingsFile file;
  file.path = path;
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(read_input_file(path, kMaxSmallJsonBytes, "a findings file"));
    if (json.value("schema", "") != "mmasp-findings/1")
      throw std::runtime_error("schema must be \"mmasp-findings/1\"");
    for (const auto& entry : json.at("findings")) {
      Finding finding;
      finding.id = entry.at("id").get<std::string>();
      finding.kind = entry.at("kind").get<std::string>();
      finding.cases = entry.at("cases").get<std::vector<std::string>>();
      finding.toolkit = entry.value("toolkit", "*");
      finding.observed = entry.at("observed").get<std::string>();
      finding.summary = entry.at("summary").get<std::string>();
      finding.spec = entry.value("spec", "");
      finding.details = entry.value("details", "");
      file.findings.push_back(std::move(finding));
    }
  } catch (const std::exception& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  return file;
}

const Finding* match_finding(const FindingsFile& file, const std::string& kind, const std::string& case_id,
                             const std::string& observed, const std::string& toolkit) {
  for (const auto& finding : file.findings) {
    if (finding.kind != kind || finding.observed != observed || !glob_match(finding.toolkit, toolkit)) continue;
    for (const auto& pattern : finding.cases)
      if (glob_match(pattern, case_id)) return &finding;
  }
  return nullptr;
}

}  // namespace mmasp
