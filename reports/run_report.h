// The reports of `mmasp run`, all rendered from one JSON document (schema "mmasp-run/1", docs/run-report.md):
// JSON, JSONL as results arrive, JUnit XML, a Markdown summary and a self-contained HTML conformance matrix.
#pragma once

#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/cuda_driver.h"
#include "harness/execution.h"
#include "harness/layout_discovery.h"
#include "harness/sass.h"

namespace mmasp {

nlohmann::json fingerprint_json(const DeviceFingerprint& fingerprint);
// One result: its id is "<opcode> sel=<n> <suite>".
nlohmann::json suite_json(const SuiteResult& result);
std::string result_id(const std::string& opcode, int selector, std::string_view suite);
nlohmann::json layout_json(const LayoutDiscovery& discovery);
nlohmann::json sass_json(const Form& form, int selector, std::string_view path, const std::optional<SassSummary>& sass,
                         const std::string& why);

// Counts per status over "results", and the exit code they imply (0 / 1).
nlohmann::json status_counts(const nlohmann::json& run);
int exit_code_for(const nlohmann::json& run);

std::string junit_xml(const nlohmann::json& run);
std::string markdown_summary(const nlohmann::json& run);
// What the model tier did in a run, one line per family (empty when it was off everywhere).
std::vector<std::string> model_tier_lines(const nlohmann::json& run);
std::string html_report(const nlohmann::json& run);

// Writes run.json, junit.xml, summary.md and report.html into `dir`.
void write_reports(const nlohmann::json& run, const std::filesystem::path& dir);

// Streams results as JSON lines, flushed per line, so a run that dies leaves what it had.
class JsonLines {
 public:
  explicit JsonLines(const std::filesystem::path& path);
  void write(const nlohmann::json& line);

 private:
  std::ofstream out_;
  std::mutex mutex_;
};

}  // namespace mmasp
