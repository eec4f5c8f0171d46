// libFuzzer target: arbitrary bytes as a run.json (a baseline, a report input). Reading one must either succeed or
// fail with a RunRecordError naming the JSON pointer; a record that was read must write back to the same document,
// and every report of it (JUnit, Markdown, HTML, the exit status, a diff against itself) must render.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "oracle/input_file.h"
#include "reports/diff.h"
#include "reports/run_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  nlohmann::json document;
  try {
    // The strict reader every run.json goes through (load_run_record): repeated keys, deep nesting and numbers a
    // double cannot hold are refused with the file's name.
    document = parse_json_input(std::string_view(reinterpret_cast<const char*>(data), size), "run.json");
  } catch (const InputFileError& error) {
    if (std::string(error.what()).rfind("run.json: ", 0) != 0) {
      std::cerr << "run_record_fuzz: an error without the file: " << error.what() << "\n";
      std::abort();
    }
    return 0;
  }
  RunRecord record;
  try {
    record = run_record_from_json(document);
  } catch (const RunRecordError&) {
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "run_record_fuzz: not a RunRecordError: " << error.what() << "\n";
    std::abort();
  }
  const nlohmann::json written = to_json(record);
  const nlohmann::json again = to_json(run_record_from_json(written));
  if (written != again) {
    std::cerr << "run_record_fuzz: the record does not read back as written\n" << written.dump() << "\n";
    std::abort();
  }
  (void)exit_code_for(record);
  (void)junit_xml(record);
  (void)markdown_summary(record);
  (void)console_summary(record);
  (void)html_report(record);
  const DiffReport self = diff_runs(record, record, {});
  if (self.regressions != 0 && !record.run.interrupted && !record.results.empty()) {
    std::cerr << "run_record_fuzz: a run regresses against itself\n" << written.dump() << "\n";
    std::abort();
  }
  return 0;
}
