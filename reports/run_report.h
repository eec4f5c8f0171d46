// The reports of `mmasp run`, each a function of the typed RunRecord (run_record.h): run.json (its JSON mapping),
// JUnit XML (junit_report.cpp), a Markdown summary and the console summary (markdown_report.cpp), and a
// self-contained HTML report for people (html_report.cpp). results.jsonl streams results as they arrive.
#pragma once

#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "oracle/output_file.h"
#include "reports/diff.h"
#include "reports/run_record.h"

namespace mmasp {

// With a baseline's diff, a testsuite "mmasp.baseline" holds each regression (a failure unless waived).
std::string junit_xml(const RunRecord& run, const DiffReport* against_baseline = nullptr);
std::string markdown_summary(const RunRecord& run);
// What a person at the terminal reads at the end of a run: environment, counts, compile conformance, the model tier
// and, when the run failed, the failures with their repro lines.
std::string console_summary(const RunRecord& run);
// What the model tier did in a run, one line per family (empty when it was off everywhere).
std::vector<std::string> model_tier_lines(const RunRecord& run);
// The fewest random cases any pair got (and any float pair, any integer pair), with its GPU-resident cases, kernel
// seconds and planned share where it has them; empty when no random suite ran.
std::vector<std::string> random_case_lines(const RunRecord& run);
// "12.5 %"
std::string percent(double fraction);
// With a baseline's diff, regressions are listed right after the failures.
std::string html_report(const RunRecord& run, const DiffReport* against_baseline = nullptr);

// The reports write_reports writes, by file name.
inline constexpr const char* kReportFiles[] = {"run.json", "junit.xml", "summary.md", "report.html"};

// Writes run.json, junit.xml, summary.md and report.html into `dir`.
void write_reports(const RunRecord& run, const std::filesystem::path& dir, const DiffReport* against_baseline = nullptr);

// Streams results as JSON lines, flushed per line, so a run that dies leaves what it had.
class JsonLines {
 public:
  explicit JsonLines(const std::filesystem::path& path);
  void write(const ResultRecord& result);

 private:
  AppendFile out_;
  std::mutex mutex_;
};

}  // namespace mmasp
