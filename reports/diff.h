// `mmasp diff BASELINE.json RUN.json`: what changed between two runs (RunRecord, run.json) — new and fixed failures,
// status changes, numeric drift, compile accept/reject changes and SASS lowering changes — with waivers for known
// regressions (schema mmasp-waivers/1, docs/run-report.md).
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string_view>
#include <string>
#include <vector>

#include "reports/run_record.h"

namespace mmasp {

struct Waiver {
  std::string device = "*";   // glob over the GPU name ("emulator" for emulated runs)
  std::string driver = "*";   // glob over the driver version
  std::string form;           // glob over the result id ("<opcode> sel=<n> <suite>") or compile/SASS key; required
  std::string reason;
  std::string link;
};

// Throws std::runtime_error naming the file, the JSON pointer and the problem: unknown keys (a misspelled "devcie"
// would otherwise waive every device), values that are not strings, malformed globs or globs with control characters,
// a missing form (a waiver names what it waives), a form glob that matches every form of the catalog, a reason with
// no visible text.
std::vector<Waiver> load_waivers(const std::filesystem::path& path);
// The same from the file's text; `source` names it in errors (std::runtime_error, with the JSON pointer).
std::vector<Waiver> parse_waivers(const std::string& text, const std::string& source);

// What one entry of a diff says changed.
enum class Change {
  new_failure, fixed, status_change, numeric_drift, bits_changed, compile_change, sass_change,
  coverage_drop,  // the pair's stream detects fewer of its datapath's faults than the baseline's did (docs/coverage.md)
  missing,      // a result of the baseline that the run does not have
  missing_check,  // compile conformance, a target, a compile row or a layout probe of the baseline the run lacks
  added,        // a result the baseline does not have
  no_results,   // the run judged nothing
  interrupted,  // the run was stopped before its end
};
std::string_view name(Change change);   // "new failure", "fixed", ..., "new", "no results", "interrupted"

struct DiffEntry {
  Change kind;
  std::string id;
  std::string before, after;
  std::string detail;
  bool regression = false;
  // What no waiver may excuse: a run that was interrupted or judged nothing, and checks the baseline made that the run
  // did not (missing results, compile rows and targets, layout probes). A gate must not pass on what it never ran.
  bool waivable = true;
  const Waiver* waived_by = nullptr;
};

// Whether the two runs judged the same cases: the same seed and the same case-stream identity (run.case_streams,
// written by `mmasp run` from gen::case_streams_identity()). With different cases — or, per result, a different
// number of them — Pass/QualityWarning changes and numeric drift are sampling and are listed without counting as
// regressions; new failures and crashes still count.
enum class SameCases { yes, no, unknown };   // unknown: a run written before the identity was recorded

// What makes two runs not comparable at all: made on different backends (an emulated run against a hardware one: a
// runner that lost its GPU must not diff clean against last night's GPU run), on different architectures, or from
// different case streams (the generators changed, so no case is the same). `mmasp diff` refuses such a pair (exit 2)
// unless told which differences to accept (--allow-different).
enum class Difference { backend, architecture, case_streams };
std::string_view name(Difference difference);                         // "backend", "architecture", "cases"
std::optional<Difference> difference_named(std::string_view text);
struct Incomparable {
  Difference what;
  std::string detail;    // "the baseline ran on NVIDIA H100 80GB HBM3 (a GPU), this run on the CPU emulator"
  bool allowed = false;  // accepted by --allow-different: compared anyway, and said so
};
std::vector<Incomparable> incomparable(const RunRecord& baseline, const RunRecord& run,
                                       const std::vector<Difference>& allowed = {});

struct DiffReport {
  std::vector<Incomparable> incomparable;   // every difference found; the comparison is refused unless each is allowed
  bool refused() const {
    for (const auto& i : incomparable)
      if (!i.allowed) return true;
    return false;
  }
  SameCases same_cases = SameCases::unknown;
  std::string cases_detail;   // why same_cases is what it is, for the report's header
  std::vector<DiffEntry> entries;
  int regressions = 0;        // unwaived
  int waived = 0;
};

// Bit-level comparison (results[].digest): with the same cases, a result whose D changed in any bit is a "bits
// changed" entry naming the first differing chunk of cases — a regression (strict, the default), listed only (warn),
// or not compared (off).
enum class BitsMode { strict, warn, off };
std::optional<BitsMode> bits_mode_named(std::string_view text);   // "strict", "warn", "off"

// Empty when a run can serve as a baseline; else why not: it has no results (an empty or cut "results"), or it was
// interrupted. Such a baseline can show no regression, so a gate must never compare against it.
std::string baseline_problem(const RunRecord& baseline);

// A refused comparison (report.refused()) holds the incomparabilities and no entries.
DiffReport diff_runs(const RunRecord& baseline, const RunRecord& run, const std::vector<Waiver>& waivers,
                     BitsMode bits = BitsMode::strict, const std::vector<Difference>& allowed = {});
std::string format_diff(const DiffReport& report, const RunRecord& baseline, const RunRecord& run);

// Whether two runs are equal in everything but their volatile fields (without_volatile_fields); when not, writes the
// JSON pointers of the first differences (at most 10) to `out`.
bool identical_runs(const RunRecord& a, const RunRecord& b, std::ostream& out);

}  // namespace mmasp
