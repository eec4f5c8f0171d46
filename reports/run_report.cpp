// Writing the reports of a run; each report itself is in its own file (run_record.cpp for run.json,
// junit_report.cpp, markdown_report.cpp, html_report.cpp).
#include "reports/run_report.h"

#include "oracle/output_file.h"

namespace mmasp {

void write_reports(const RunRecord& run, const std::filesystem::path& dir, const DiffReport* against_baseline) {
  std::filesystem::create_directories(dir);
  auto write = [&](const char* file, const std::string& text) { write_file_atomically(dir / file, text); };
  write("run.json", to_json(run).dump(1) + "\n");
  write("junit.xml", junit_xml(run, against_baseline));
  write("summary.md", markdown_summary(run));
  write("report.html", html_report(run, against_baseline));
}

JsonLines::JsonLines(const std::filesystem::path& path) : out_(path, AppendFile::Start::empty) {}

void JsonLines::write(const ResultRecord& result) {
  const std::string line = to_json(result).dump() + "\n";
  std::lock_guard lock(mutex_);
  out_.write(line);
}

}  // namespace mmasp
