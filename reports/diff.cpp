#include "reports/diff.h"

#include <fstream>
#include <map>
#include <sstream>

#include "oracle/classification.h"
#include "oracle/text.h"
#include "reports/findings.h"

namespace mmasp {
namespace {

using nlohmann::json;

// How much worse a result got, for status changes between two runs. Unlike oracle's worse() (which combines the
// cases of one result), NotSupported, UB-not-judged and Waived rank alike here: moving between them says nothing
// about conformance.
int severity(const std::string& status) {
  if (status == "Pass") return 0;
  if (status == "NotSupported" || status == "UB-not-judged" || status == "Waived") return 1;
  if (status == "QualityWarning") return 2;
  if (status == "Deviation") return 3;
  if (status == "Fail") return 4;
  if (status == "Timeout") return 5;
  if (status == "Crash") return 6;
  return 4;
}

bool failing(const std::string& status) { return is_failure(std::string_view(status)); }

std::string device_of(const json& run) {
  const json env = run.value("environment", json::object());
  if (env.value("emulated", true)) return "emulator";
  return env.value("device", json::object()).value("name", "?");
}

std::string driver_of(const json& run) {
  return run.value("environment", json::object()).value("device", json::object()).value("driver_version", "none");
}

}  // namespace

std::vector<Waiver> load_waivers(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  json root = json::parse(in, nullptr, false);
  if (root.is_discarded()) throw std::runtime_error(path.string() + ": not valid JSON");
  if (root.value("schema", "") != "mmasp-waivers/1") throw std::runtime_error(path.string() + ": schema must be \"mmasp-waivers/1\"");
  std::vector<Waiver> waivers;
  for (const auto& entry : root.value("waivers", json::array())) {
    Waiver w;
    w.device = entry.value("device", "*");
    w.driver = entry.value("driver", "*");
    w.form = entry.value("form", "*");
    w.reason = entry.value("reason", "");
    w.link = entry.value("link", "");
    if (w.reason.empty()) throw std::runtime_error(path.string() + ": every waiver needs a reason");
    waivers.push_back(w);
  }
  return waivers;
}

namespace {

void compare_cases(const json& baseline, const json& run, DiffReport& report) {
  const json then = baseline.value("run", json::object()), now = run.value("run", json::object());
  const uint64_t seed_then = then.value("seed", uint64_t(0)), seed_now = now.value("seed", uint64_t(0));
  const std::string streams_then = then.value("case_streams", ""), streams_now = now.value("case_streams", "");
  if (seed_then != seed_now) {
    report.same_cases = SameCases::no;
    report.cases_detail = "different cases: seed " + std::to_string(seed_then) + " vs " + std::to_string(seed_now);
  } else if (streams_then.empty() || streams_now.empty()) {
    report.same_cases = SameCases::unknown;
    report.cases_detail = "same seed; the " + std::string(streams_then.empty() ? "baseline" : "run") +
                          " does not record its case streams (written by an older mmasp), so the cases are assumed "
                          "to be the same";
  } else if (streams_then != streams_now) {
    report.same_cases = SameCases::no;
    report.cases_detail = "different cases: the generators changed (case streams " + streams_then + " vs " +
                          streams_now + ")";
  } else {
    report.same_cases = SameCases::yes;
    report.cases_detail = "same cases: seed " + std::to_string(seed_now) + ", case streams " + streams_now +
                          " (case i of a suite is the same case in both runs)";
  }
  if (report.same_cases == SameCases::no)
    report.cases_detail += "; Pass/QualityWarning changes and numeric drift are sampling and not counted as "
                           "regressions, new failures and crashes are";
}

}  // namespace

DiffReport diff_runs(const json& baseline, const json& run, const std::vector<Waiver>& waivers) {
  DiffReport report;
  compare_cases(baseline, run, report);
  const bool different_cases = report.same_cases == SameCases::no;
  const std::string device = device_of(run), driver = driver_of(run);
  auto add = [&](DiffEntry entry) {
    if (entry.regression)
      for (const auto& w : waivers)
        if (glob_match(w.device, device) && glob_match(w.driver, driver) && glob_match(w.form, entry.id)) {
          entry.waived_by = &w;
          break;
        }
    if (entry.regression) (entry.waived_by ? report.waived : report.regressions)++;
    report.entries.push_back(std::move(entry));
  };

  // value() returns copies; keep them alive while pointers into them are used.
  const json baseline_results = baseline.value("results", json::array());
  const json run_results = run.value("results", json::array());
  std::map<std::string, const json*> before, after;
  for (const auto& r : baseline_results) before[r.value("id", "")] = &r;
  for (const auto& r : run_results) after[r.value("id", "")] = &r;

  for (const auto& [id, now] : after) {
    const std::string status = now->value("status", "");
    auto it = before.find(id);
    if (it == before.end()) {
      add({"new", id, "", status, "not in the baseline", failing(status)});
      continue;
    }
    const json& then = *it->second;
    const std::string old_status = then.value("status", "");
    // Same streams but another number of cases (a --budget run, or another --cases) is a prefix or an extension of
    // the other run's cases: also sampling.
    const uint64_t cases_then = then.value("cases", uint64_t(0)), cases_now = now->value("cases", uint64_t(0));
    const bool sampling = different_cases || cases_then != cases_now;
    const std::string why_sampling =
        different_cases ? "(different cases)"
                        : "(" + std::to_string(cases_then) + " vs " + std::to_string(cases_now) + " cases)";
    auto joined = [](const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + " " + b; };
    if (old_status != status) {
      if (failing(status) && !failing(old_status)) {
        std::string detail = now->contains("failure") ? (*now)["failure"].value("reason", "") + " " + (*now)["failure"].value("repro", "")
                                                      : now->value("note", "");
        // A Deviation: inside the spec bound, not the verified model's bits.
        if (!now->contains("failure") && now->contains("model") && (*now)["model"].contains("deviation")) {
          const json& d = (*now)["model"]["deviation"];
          detail = "differs from the bit-exact model: D" + d.value("element", json::array()).dump() + " observed " +
                   hex_code(d.value("observed", 0u)) + ", model " + hex_code(d.value("model", 0u)) + " " + d.value("repro", "");
        }
        add({"new failure", id, old_status, status, detail, true});
      } else if (failing(old_status) && !failing(status)) {
        add({"fixed", id, old_status, status, "", false});
      } else {
        // Between two statuses that are not failures (Pass, QualityWarning, NotSupported, ...): a regression only
        // when the cases were the same.
        const bool worse = severity(status) > severity(old_status);
        add({"status change", id, old_status, status, joined(now->value("note", ""), sampling && worse ? why_sampling : ""),
             worse && !sampling});
      }
    }
    // Numeric drift: the worst error grew beyond twice the baseline's and beyond one ulp.
    const double old_error = then.value("max_error_ulps", 0.0), new_error = now->value("max_error_ulps", 0.0);
    if (new_error > 1 && new_error > 2 * old_error)
      add({"numeric drift", id, significant(old_error) + " ulp", significant(new_error) + " ulp",
           joined("max error grew", sampling ? why_sampling : ""), !sampling});
    else if (old_error > 1 && old_error > 2 * new_error)
      add({"numeric drift", id, significant(old_error) + " ulp", significant(new_error) + " ulp", "max error shrank", false});
    // The same against the spec bound: a float result that moved much closer to failing.
    const double old_bound = then.value("max_error_vs_bound", 0.0), new_bound = now->value("max_error_vs_bound", 0.0);
    if (new_bound > 0.1 && new_bound > 2 * old_bound)
      add({"numeric drift", id, significant(old_bound) + " of the bound", significant(new_bound) + " of the bound",
           joined("max error relative to the spec bound grew", sampling ? why_sampling : ""), !sampling});
  }
  for (const auto& [id, then] : before)
    if (!after.count(id)) add({"missing", id, then->value("status", ""), "", "in the baseline, not in this run", false});

  // Compile matrix: accept/reject per form, selector and target.
  std::map<std::string, std::pair<std::string, std::string>> compile_before;  // key -> (observed, expected)
  const json matrix_before = baseline.value("compile_matrix", json::object()).value("matrix", json::array());
  const json matrix_after = run.value("compile_matrix", json::object()).value("matrix", json::array());
  for (const auto& row : matrix_before) {
    const json cells = row.value("cells", json::object());
    for (const auto& [target, cell] : cells.items())
      compile_before[row.value("form", "") + " sel=" + std::to_string(row.value("selector", 0)) + " compile " + target] =
          {cell.value("observed", ""), cell.value("expected", "")};
  }
  for (const auto& row : matrix_after) {
    const json cells = row.value("cells", json::object());
    for (const auto& [target, cell] : cells.items()) {
      const std::string key = row.value("form", "") + " sel=" + std::to_string(row.value("selector", 0)) + " compile " + target;
      auto it = compile_before.find(key);
      if (it == compile_before.end() || it->second.first == cell.value("observed", "")) continue;
      const bool now_disagrees = cell.value("observed", "") != cell.value("expected", "") && cell.value("observed", "") != "not_run";
      add({"compile change", key, it->second.first, cell.value("observed", ""),
           now_disagrees ? "now disagrees with the catalog" : "now agrees with the catalog", now_disagrees});
    }
  }

  // SASS lowering per form, selector and compile path.
  std::map<std::string, json> sass_before;
  const json sass_then = baseline.value("sass", json::array()), sass_now = run.value("sass", json::array());
  for (const auto& s : sass_then)
    sass_before[s.value("form", "") + " sel=" + std::to_string(s.value("selector", 0)) + " sass " + s.value("path", "")] = s.value("mma", json::array());
  for (const auto& s : sass_now) {
    const std::string key = s.value("form", "") + " sel=" + std::to_string(s.value("selector", 0)) + " sass " + s.value("path", "");
    auto it = sass_before.find(key);
    if (it != sass_before.end() && s.contains("mma") && it->second != s["mma"])
      add({"sass change", key, it->second.dump(), s["mma"].dump(), "lowering changed", false});
  }
  return report;
}

std::string format_diff(const DiffReport& report, const json& baseline, const json& run) {
  std::ostringstream out;
  auto describe = [](const json& r) {
    const json env = r.value("environment", json::object());
    if (env.value("emulated", true)) return std::string("emulator");
    const json d = env.value("device", json::object());
    return d.value("name", "?") + ", driver " + d.value("driver_version", "?") + ", " + env.value("toolkit", "?");
  };
  out << "baseline: " << baseline["run"].value("started", "?") << " (" << describe(baseline) << ")\n";
  out << "run:      " << run["run"].value("started", "?") << " (" << describe(run) << ")\n";
  auto commit_of = [](const json& r) { return r["run"].value("mmasp", json::object()).value("commit", "unknown"); };
  out << "cases:    " << report.cases_detail << "\n";
  if (commit_of(baseline) != commit_of(run))
    out << "note: the runs were made by different mmasp commits (" << commit_of(baseline) << " vs " << commit_of(run)
        << ")\n";
  if (report.entries.empty()) out << "no changes\n";
  for (const auto& e : report.entries) {
    out << (e.regression ? (e.waived_by ? "WAIVED     " : "REGRESSION ") : "           ") << e.kind << ": " << e.id;
    if (!e.before.empty() || !e.after.empty()) out << " [" << e.before << " -> " << e.after << "]";
    if (!e.detail.empty()) out << " " << e.detail;
    if (e.waived_by) out << " (waiver: " << e.waived_by->reason << (e.waived_by->link.empty() ? "" : ", " + e.waived_by->link) << ")";
    out << "\n";
  }
  out << report.regressions << " regression(s), " << report.waived << " waived, " << report.entries.size() << " change(s)\n";
  return out.str();
}

}  // namespace mmasp
