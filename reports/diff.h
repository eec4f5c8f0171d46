// `mmasp diff BASELINE.json RUN.json`: what changed between two runs (schema mmasp-run/1) — new and fixed failures,
// status changes, numeric drift, compile accept/reject changes and SASS lowering changes — with waivers for known
// regressions (schema mmasp-waivers/1, docs/run-report.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmasp {

struct Waiver {
  std::string device = "*";   // glob over the GPU name ("emulator" for emulated runs)
  std::string driver = "*";   // glob over the driver version
  std::string form = "*";     // glob over the result id ("<opcode> sel=<n> <suite>") or compile/SASS key
  std::string reason;
  std::string link;
};

std::vector<Waiver> load_waivers(const std::filesystem::path& path);  // throws std::runtime_error naming the problem

struct DiffEntry {
  std::string kind;           // "new failure", "fixed", "status change", "numeric drift", "compile change",
                              // "sass change", "missing", "new"
  std::string id;
  std::string before, after;
  std::string detail;
  bool regression = false;
  const Waiver* waived_by = nullptr;
};

// Whether the two runs judged the same cases: the same seed and the same case-stream identity (run.case_streams,
// written by `mmasp run` from gen::case_streams_identity()). With different cases — or, per result, a different
// number of them — Pass/QualityWarning changes and numeric drift are sampling and are listed without counting as
// regressions; new failures and crashes still count.
enum class SameCases { yes, no, unknown };   // unknown: a run written before the identity was recorded

struct DiffReport {
  SameCases same_cases = SameCases::unknown;
  std::string cases_detail;   // why same_cases is what it is, for the report's header
  std::vector<DiffEntry> entries;
  int regressions = 0;        // unwaived
  int waived = 0;
};

DiffReport diff_runs(const nlohmann::json& baseline, const nlohmann::json& run, const std::vector<Waiver>& waivers);
std::string format_diff(const DiffReport& report, const nlohmann::json& baseline, const nlohmann::json& run);

}  // namespace mmasp
