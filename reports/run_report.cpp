#include "reports/run_report.h"

#include <cmath>
#include <array>
#include <map>
#include <set>
#include <sstream>

#include "oracle/classification.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

using nlohmann::json;

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters, even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') out += ' ';
        else out += c;
    }
  }
  return out;
}

// Seconds as plain decimals: JUnit readers (and xs:decimal) reject exponent notation.
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", std::max(0.0, seconds));
  return text;
}

std::string status_of(const json& result) { return result.value("status", "Fail"); }

// A reference into the document (json::value() returns a copy, which pointers into it would outlive).
const json& member(const json& object, const char* key) {
  static const json empty = json::array();
  auto it = object.find(key);
  return it == object.end() ? empty : *it;
}

const char* colour_of(const std::string& status) {
  if (status == "Pass") return "#3c9a3c";
  if (status == "QualityWarning") return "#d9a400";
  if (status == "Deviation") return "#e65100";
  if (is_failure(std::string_view(status))) return "#c62828";
  if (status == "UB-not-judged") return "#7b61a8";
  if (status == "Waived") return "#6d8fb3";
  if (status == "NotSupported") return "#9e9e9e";
  return "#555";
}

}  // namespace

std::string result_id(const std::string& opcode, int selector, std::string_view suite) {
  return opcode + " sel=" + std::to_string(selector) + " " + std::string(suite);
}

json fingerprint_json(const DeviceFingerprint& f) {
  return {{"name", f.name},
          {"sm", f.sm},
          {"uuid", f.uuid},
          {"driver_version", f.driver_version},
          {"driver_api_version", f.driver_api_version},
          {"ecc", f.ecc},
          {"sm_clock_khz", f.sm_clock_khz},
          {"memory_clock_khz", f.memory_clock_khz},
          {"sm_count", f.sm_count},
          {"memory_bytes", f.memory_bytes}};
}

json suite_json(const SuiteResult& r) {
  json histogram = json::array();
  for (uint64_t count : r.error_histogram) histogram.push_back(count);
  json out = {{"id", result_id(r.form->opcode, r.selector, name(r.suite))},
              {"form", r.form->opcode},
              {"family", r.form->family},
              {"selector", r.selector},
              {"suite", name(r.suite)},
              {"status", name(r.status)},
              {"backend", r.backend},
              {"emulated", r.emulated},
              {"cases", r.cases},
              {"passed", r.passed},
              {"quality_warnings", r.warnings},
              {"failed", r.failed},
              {"not_judged", r.not_judged},
              {"max_error_ulps", r.max_error_ulps},
              {"max_error_vs_bound", r.max_error_vs_bound},
              {"error_histogram_ulps", histogram},
              {"seconds", r.seconds},
              {"seed", r.seed}};
  if (!r.note.empty()) out["note"] = r.note;
  if (!r.failing_special_cases.empty()) out["failing_special_cases"] = r.failing_special_cases;
  if (!r.named_cases.empty()) {
    json named = json::object();
    for (const auto& [case_name, status] : r.named_cases) named[case_name] = name(status);
    out["special_cases"] = named;
  }
  if (r.suite == Suite::undefined) {
    out["ub_unordered_like_sp"] = {{"cases", r.ub_unordered_only}, {"like_sp", r.ub_like_sp}};
    json selectors = json::object();
    for (const auto& [value, what] : r.out_of_range_selectors) selectors[std::to_string(value)] = what;
    if (!selectors.empty()) out["out_of_range_selectors"] = selectors;
  }
  if (r.closest_to_bound) {
    const ElementVerdict& w = r.closest_to_bound->verdict.worst;
    out["closest_to_bound"] = {{"repro", r.closest_to_bound->saved_to},
                               {"element", {w.row, w.col}},
                               {"error_ulps", w.error_ulps},
                               {"reason", w.reason}};
  }
  if (!r.model.empty()) {
    out["model"] = {{"tier", r.model}, {"model_judged", r.model_judged}, {"reference_judged", r.reference_judged},
                    {"deviations", r.deviations}, {"model_mismatches", r.model_mismatches}};
    if (r.deviation) {
      const ModelDeviationReport& d = *r.deviation;
      const size_t e = size_t(d.row * r.form->shape.n + d.col);
      const uint32_t observed = e < d.observed.size() ? d.observed[e] : 0, model = e < d.predicted.size() ? d.predicted[e] : 0;
      out["model"]["deviation"] = {{"case", d.case_name},
                                   {"repro", d.saved_to},
                                   {"element", {d.row, d.col}},
                                   {"observed", observed},
                                   {"model", model},
                                   {"differing_bits", observed ^ model},
                                   {"deviating_elements", d.deviating_elements},
                                   {"spec_status", name(d.spec_status)},
                                   {"shrink_attempts", d.shrink_attempts}};
    }
  }
  if (r.failure) {
    const ElementVerdict& w = r.failure->verdict.worst;
    out["failure"] = {{"case", r.failure->case_name},
                      {"repro", r.failure->saved_to},
                      {"element", {w.row, w.col}},
                      {"expected", w.expected},
                      {"observed", w.observed},
                      {"reason", w.reason},
                      {"shrink_attempts", r.failure->shrink_attempts}};
  }
  return out;
}

json layout_json(const LayoutDiscovery& d) {
  json operands = json::array();
  for (const auto& o : d.operands)
    operands.push_back({{"operand", o.operand}, {"probes", o.probes}, {"matched", o.matched}, {"mismatches", o.mismatches}});
  json out = {{"form", d.form->opcode}, {"selector", d.selector}, {"verified", d.all_match()}, {"operands", operands}};
  if (!d.error.empty()) out["error"] = d.error;
  return out;
}

json sass_json(const Form& form, int selector, std::string_view path, const std::optional<SassSummary>& sass,
               const std::string& why) {
  json out = {{"form", form.opcode}, {"selector", selector}, {"path", path}};
  if (!sass) {
    out["error"] = why;
    return out;
  }
  out["mma"] = sass->mma_instructions;
  out["sparse_mma"] = sass->has_sparse_mma;
  out["instructions"] = sass->instruction_count;
  const std::string lowering = lowering_note(form, *sass);
  out["native"] = lowering.empty();
  if (!lowering.empty()) out["note"] = lowering;
  return out;
}

json status_counts(const json& run) {
  json counts = json::object();
  for (const char* s : {"Pass", "QualityWarning", "Deviation", "Fail", "UB-not-judged", "NotSupported", "Crash", "Timeout", "Waived"})
    counts[s] = 0;
  for (const auto& result : member(run, "results")) counts[status_of(result)] = counts[status_of(result)].get<int>() + 1;
  return counts;
}

int exit_code_for(const json& run) {
  const json counts = status_counts(run);
  const bool failed =
      counts["Fail"].get<int>() + counts["Deviation"].get<int>() + counts["Crash"].get<int>() + counts["Timeout"].get<int>() > 0;
  const bool compile_failed = run.contains("compile") && run["compile"].value("new_disagreements", 0) > 0;
  const bool layout_failed = [&] {
    for (const auto& layout : member(run, "layouts"))
      if (!layout.value("verified", false)) return true;
    return false;
  }();
  return failed || compile_failed || layout_failed ? 1 : 0;
}

std::string junit_xml(const json& run) {
  // One testsuite per family, one testcase per form x selector x suite. NotSupported and UB-not-judged are
  // <skipped> (never passed); Fail is <failure>, Crash and Timeout <error>.
  std::map<std::string, std::vector<const json*>> families;
  for (const auto& result : member(run, "results")) families[result.value("family", "?")].push_back(&result);
  const json env = run.value("environment", json::object());
  const json device = env.value("device", json::object());
  std::ostringstream out;
  const json counts = status_counts(run);
  int tests = 0;
  for (auto& [family, results] : families) tests += int(results.size());
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"mmasp\" tests=\"" << tests << "\" failures=\""
      << counts["Fail"].get<int>() + counts["Deviation"].get<int>() << "\" errors=\""
      << counts["Crash"].get<int>() + counts["Timeout"].get<int>() << "\" time=\""
      << seconds_text(run["run"].value("seconds", 0.0)) << "\">\n";
  for (auto& [family, results] : families) {
    int failures = 0, errors = 0, skipped = 0;
    double time = 0;
    for (const json* r : results) {
      const std::string s = status_of(*r);
      failures += s == "Fail" || s == "Deviation";
      errors += s == "Crash" || s == "Timeout";
      skipped += s == "NotSupported" || s == "UB-not-judged" ||
                 (r->value("emulated", false) && s != "Fail" && s != "Crash" && s != "Timeout");
      time += r->value("seconds", 0.0);
    }
    out << "  <testsuite name=\"mmasp." << xml_escape(family) << "\" tests=\"" << results.size() << "\" failures=\""
        << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds_text(time)
        << "\" timestamp=\"" << xml_escape(run["run"].value("started", "")) << "\" hostname=\""
        << xml_escape(run["run"].value("host", "")) << "\">\n";
    out << "    <properties>\n";
    auto property = [&](const std::string& name, const std::string& value) {
      out << "      <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value) << "\"/>\n";
    };
    property("backend", env.value("backend", ""));
    property("emulated", env.value("emulated", true) ? "true" : "false");
    property("gpu", device.value("name", "none"));
    property("sm", device.contains("sm") ? std::to_string(device["sm"].get<int>()) : "none");
    property("driver", device.value("driver_version", "none"));
    property("toolkit", env.value("toolkit", "none"));
    property("seed", std::to_string(run["run"].value("seed", uint64_t(0))));
    out << "    </properties>\n";
    for (const json* r : results) {
      const std::string s = status_of(*r);
      out << "    <testcase classname=\"mmasp." << xml_escape(family) << "\" name=\"" << xml_escape(r->value("id", ""))
          << "\" time=\"" << seconds_text(r->value("seconds", 0.0)) << "\">\n";
      out << "      <properties>\n";
      out << "        <property name=\"status\" value=\"" << xml_escape(s) << "\"/>\n";
      out << "        <property name=\"cases\" value=\"" << r->value("cases", 0) << "\"/>\n";
      out << "        <property name=\"max_error_ulps\" value=\"" << significant(r->value("max_error_ulps", 0.0)) << "\"/>\n";
      out << "        <property name=\"quality_warnings\" value=\"" << r->value("quality_warnings", 0) << "\"/>\n";
      out << "      </properties>\n";
      const bool failing = is_failure(std::string_view(s));
      if (r->value("emulated", false) && !failing) {
        // An emulated result is the oracle agreeing with the packing code, not a hardware pass.
        out << "      <skipped message=\"" << xml_escape(s + " (" + r->value("note", "emulated") + ")") << "\"/>\n";
      } else if (s == "NotSupported" || s == "UB-not-judged") {
        out << "      <skipped message=\"" << xml_escape(s == "UB-not-judged" ? "UB: not judged" : r->value("note", s)) << "\"/>\n";
      } else if (s == "Fail") {
        std::string message = "failed";
        std::string body;
        if (r->contains("failure")) {
          const json& f = (*r)["failure"];
          message = f.value("reason", "failed");
          body = "minimal case: " + f.value("case", "") + "\n" + f.value("repro", "") + "\nelement " + f["element"].dump();
        }
        if (r->contains("failing_special_cases")) body += "\nfailing special cases: " + (*r)["failing_special_cases"].dump();
        out << "      <failure message=\"" << xml_escape(message) << "\" type=\"Fail\">" << xml_escape(body) << "</failure>\n";
      } else if (s == "Deviation") {
        // Inside the spec bound, but not the bits the device's verified model computes: the model tier's failure.
        std::string message = "result differs from the verified bit-exact model", body;
        if (r->contains("model") && (*r)["model"].contains("deviation")) {
          const json& d = (*r)["model"]["deviation"];
          message = "D" + d["element"].dump() + " observed " + hex_code(d.value("observed", 0u)) + ", model " +
                    hex_code(d.value("model", 0u)) + " (differing bits " + hex_code(d.value("differing_bits", 0u)) + ")";
          body = "model tier: " + (*r)["model"].value("tier", "") + "\nspec tier: " + d.value("spec_status", "") + "\n" +
                 d.value("repro", "") + "\ndeviating cases: " + std::to_string((*r)["model"].value("deviations", 0));
        }
        out << "      <failure message=\"" << xml_escape(message) << "\" type=\"Deviation\">" << xml_escape(body) << "</failure>\n";
      } else if (s == "Crash" || s == "Timeout") {
        out << "      <error message=\"" << xml_escape(r->value("note", s)) << "\" type=\"" << s << "\"/>\n";
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

std::vector<std::string> model_tier_lines(const json& run) {
  // Per family: cases the model judged, cases the exact reference judged, deviating cases.
  std::map<std::string, std::array<uint64_t, 4>> families;   // judged by model, by reference, deviations, results
  std::string tier;
  for (const auto& r : member(run, "results")) {
    if (!r.contains("model")) continue;
    auto& f = families[r.value("family", "?")];
    f[0] += r["model"].value("model_judged", uint64_t(0));
    f[1] += r["model"].value("reference_judged", uint64_t(0));
    f[2] += r["model"].value("deviations", uint64_t(0));
    f[3] += 1;
    tier = r["model"].value("tier", "");
  }
  std::vector<std::string> lines;
  if (families.empty()) return lines;
  lines.push_back("bit-exact model: " + tier);
  for (const auto& [family, f] : families)
    lines.push_back(family + ": " + std::to_string(f[0]) + " cases judged by the model, " + std::to_string(f[1]) +
                    " also by the exact reference (spec tier), " + std::to_string(f[2]) + " deviating, in " +
                    std::to_string(f[3]) + " results");
  return lines;
}

std::string markdown_summary(const json& run) {
  std::ostringstream out;
  const json env = run.value("environment", json::object());
  const json counts = status_counts(run);
  out << "# mmasp run\n\n";
  out << "- started: " << run["run"].value("started", "") << ", " << significant(run["run"].value("seconds", 0.0)) << " s, seed "
      << run["run"].value("seed", uint64_t(0)) << "\n";
  if (env.value("emulated", true)) {
    out << "- backend: **CPU emulator — results are emulated, not hardware conformance**\n";
  } else {
    const json d = env["device"];
    out << "- GPU: " << d.value("name", "") << " (sm_" << d.value("sm", 0) << "), driver " << d.value("driver_version", "")
        << ", CUDA driver API " << d.value("driver_api_version", 0) << ", ECC " << (d.value("ecc", false) ? "on" : "off")
        << ", SM clock " << d.value("sm_clock_khz", 0) / 1000 << " MHz\n";
  }
  out << "- toolkit: " << env.value("toolkit", "none") << "\n";
  const json phases = run["run"].value("phase_seconds", json::object());
  if (!phases.empty()) {
    out << "- time by phase:";
    bool first = true;
    for (auto& [phase, seconds] : phases.items()) {
      out << (first ? " " : ", ") << phase << " " << significant(seconds.get<double>()) << " s";
      first = false;
    }
    out << "\n";
  }
  for (const auto& line : run["run"].value("notes", json::array())) out << "- " << line.get<std::string>() << "\n";
  out << "\n| status | results" << (env.value("emulated", true) ? " (all emulated, none on hardware)" : "") << " |\n|---|---|\n";
  for (auto& [status, count] : counts.items()) out << "| " << status << " | " << count.get<int>() << " |\n";
  if (run.contains("compile")) {
    const json& c = run["compile"];
    out << "\nCompile conformance: " << c.value("cases", 0) << " cases, " << c.value("agree", 0) << " agree, "
        << c.value("documented_disagreements", 0) << " documented, " << c.value("new_disagreements", 0) << " new, "
        << c.value("not_run", 0) << " not run.\n";
  }
  // Forms: one row per form x selector, one column per suite.
  std::map<std::string, std::map<std::string, const json*>> table;
  for (const auto& r : member(run, "results"))
    table[r.value("form", "") + " sel=" + std::to_string(r.value("selector", 0))][r.value("suite", "")] = &r;
  out << "\n| form | selector | random | special | ub | cases | max error (ulp) |\n|---|---|---|---|---|---|---|\n";
  for (auto& entry : table) {
    auto& suites = entry.second;
    const json* any = suites.begin()->second;
    uint64_t cases = 0;
    double max_ulps = 0;
    for (auto& [suite, r] : suites) {
      cases += r->value("cases", uint64_t(0));
      max_ulps = std::max(max_ulps, r->value("max_error_ulps", 0.0));
    }
    auto cell = [&](const char* suite) {
      if (!suites.count(suite)) return std::string("—");
      return status_of(*suites[suite]) + (suites[suite]->value("emulated", false) ? " (emulated)" : "");
    };
    out << "| `" << any->value("form", "") << "` | " << any->value("selector", 0) << " | " << cell("random") << " | "
        << cell("special") << " | " << cell("ub") << " | " << cases << " | " << significant(max_ulps) << " |\n";
  }
  bool any_failure = false;
  for (const auto& r : member(run, "results")) {
    const std::string s = status_of(r);
    if (!is_failure(std::string_view(s))) continue;
    if (!any_failure) out << "\n## Failures\n\n";
    any_failure = true;
    out << "- **" << s << "** `" << r.value("id", "") << "`: ";
    if (r.contains("failure")) out << r["failure"].value("reason", "") << " — " << r["failure"].value("repro", "");
    else if (r.contains("model") && r["model"].contains("deviation")) {
      const json& d = r["model"]["deviation"];
      out << "D" << d["element"].dump() << " observed " << hex_code(d.value("observed", 0u)) << ", model "
          << hex_code(d.value("model", 0u)) << " (spec tier: " << d.value("spec_status", "") << "), "
          << r["model"].value("deviations", 0) << " deviating cases — " << d.value("repro", "");
    }
    else out << r.value("note", "");
    out << "\n";
  }
  const std::vector<std::string> model_lines = model_tier_lines(run);
  if (!model_lines.empty()) out << "\n## Model tier\n\n";
  for (const auto& line : model_lines) out << "- " << line << "\n";
  const json layouts = member(run, "layouts");
  if (!layouts.empty()) {
    int verified = 0;
    for (const auto& l : layouts) verified += l.value("verified", false);
    out << "\n## Layouts\n\n" << verified << " of " << layouts.size()
        << " form × selector pairs: every one-hot probe agreed with the oracle's layout model.\n";
    for (const auto& l : layouts)
      if (!l.value("verified", false)) {
        out << "- `" << l.value("form", "") << "` sel=" << l.value("selector", 0) << ":";
        for (const auto& o : l["operands"])
          if (o.value("matched", 0) != o.value("probes", 0))
            out << " " << o.value("operand", "") << " " << o.value("matched", 0) << "/" << o.value("probes", 0)
                << (o["mismatches"].empty() ? "" : " (e.g. " + o["mismatches"][0].get<std::string>() + ")");
        out << "\n";
      }
  }
  const json paths = member(run, "compile_paths");
  if (!paths.empty()) {
    int identical = 0;
    for (const auto& p : paths) identical += p.value("identical", false);
    out << "\n## Compile paths\n\n" << identical << " of " << paths.size()
        << " form × selector pairs gave bit-identical D from the toolkit's cubin and the driver's JIT.\n";
    for (const auto& p : paths)
      if (!p.value("identical", false))
        out << "- `" << p.value("form", "") << "` sel=" << p.value("selector", 0) << ": " << p.value("note", "") << "\n";
  }
  const json sass = member(run, "sass");
  if (!sass.empty()) {
    std::map<std::string, std::set<std::string>> lowering;  // instruction -> families
    for (const auto& s : sass)
      for (const auto& m : s.value("mma", json::array())) lowering[m.get<std::string>() + " (" + s.value("path", "") + ")"].insert(s.value("form", ""));
    out << "\n## SASS\n\n| instruction (path) | forms |\n|---|---|\n";
    for (auto& [instruction, forms] : lowering) out << "| `" << instruction << "` | " << forms.size() << " |\n";
    for (const auto& s : sass)
      if (s.contains("error")) {
        out << "\nSASS not recorded: " << s.value("error", "") << "\n";
        break;
      }
    std::map<std::string, int> emulated;  // note -> pairs
    for (const auto& s : sass)
      if (!s.contains("error") && !s.value("native", true)) ++emulated[s.value("note", "") + " (" + s.value("path", "") + ")"];
    if (!emulated.empty()) out << "\nForms that are not native sparse MMA instructions on this device:\n\n";
    for (auto& [text, count] : emulated) out << "- " << count << " × " << text << "\n";
  }
  return out.str();
}

std::string html_report(const json& run) {
  std::ostringstream out;
  const json env = run.value("environment", json::object());
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mmasp conformance</title><style>\n"
         "body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:12px}"
         "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}td.s{color:#fff;text-align:center}"
         "code{font-size:11px}.bar{display:inline-block;background:#1565c0;height:10px;vertical-align:middle}"
         ".legend span{display:inline-block;padding:2px 8px;margin-right:4px;color:#fff}\n</style></head><body>\n";
  out << "<h1>mmasp conformance</h1>\n<p>";
  if (env.value("emulated", true))
    out << "<b>Backend: CPU emulator.</b> Results are emulated, not hardware conformance.";
  else {
    const json d = env["device"];
    out << "<b>" << xml_escape(d.value("name", "")) << "</b> (sm_" << d.value("sm", 0) << "), driver "
        << xml_escape(d.value("driver_version", "")) << ", CUDA driver API " << d.value("driver_api_version", 0) << ", ECC "
        << (d.value("ecc", false) ? "on" : "off") << ", " << d.value("sm_count", 0) << " SMs, uuid "
        << xml_escape(d.value("uuid", ""));
  }
  out << "<br>Toolkit: " << xml_escape(env.value("toolkit", "none")) << ". Started " << xml_escape(run["run"].value("started", ""))
      << ", " << significant(run["run"].value("seconds", 0.0)) << " s, seed " << run["run"].value("seed", uint64_t(0)) << ".</p>\n";
  out << "<p class=\"legend\">";
  for (const char* s : {"Pass", "QualityWarning", "Deviation", "Fail", "UB-not-judged", "NotSupported", "Crash", "Timeout", "Waived"})
    out << "<span style=\"background:" << colour_of(s) << "\">" << s << "</span>";
  out << "</p>\n";
  const std::vector<std::string> model_lines = model_tier_lines(run);
  if (!model_lines.empty()) {
    out << "<h2>Model tier</h2>\n<ul>\n";
    for (const auto& line : model_lines) out << "<li>" << xml_escape(line) << "</li>\n";
    out << "</ul>\n";
  }

  // The matrix: forms x (compile targets + execution suites).
  std::vector<std::string> targets;
  std::map<std::string, json> compile_rows;
  if (run.contains("compile_matrix")) {
    for (const auto& t : run["compile_matrix"].value("targets", json::array())) targets.push_back(t.get<std::string>());
    for (const auto& row : run["compile_matrix"].value("matrix", json::array()))
      compile_rows[row.value("form", "") + "#" + std::to_string(row.value("selector", 0))] = row["cells"];
  }
  std::map<std::string, std::map<std::string, const json*>> results;
  for (const auto& r : member(run, "results"))
    results[r.value("form", "") + "#" + std::to_string(r.value("selector", 0))][r.value("suite", "")] = &r;
  std::map<std::string, std::vector<std::string>> sass_of;
  for (const auto& s : member(run, "sass"))
    for (const auto& m : s.value("mma", json::array()))
      sass_of[s.value("form", "") + "#" + std::to_string(s.value("selector", 0))].push_back(m.get<std::string>() + " (" + s.value("path", "") + ")");
  out << "<h2>Forms</h2>\n<table><tr><th>form</th><th>sel</th>";
  for (const auto& t : targets) out << "<th>compile " << xml_escape(t) << "</th>";
  out << "<th>random</th><th>special</th><th>ub</th><th>cases</th><th>max error (ulp)</th><th>error histogram (ulp: 0, ≤½, ≤1, ≤2, ≤4, ≤16, ≤256, more)</th><th>SASS</th></tr>\n";
  std::set<std::string> keys;
  for (auto& [key, row] : compile_rows) keys.insert(key);
  for (auto& [key, row] : results) keys.insert(key);
  for (const auto& key : keys) {
    const std::string form = key.substr(0, key.rfind('#'));
    out << "<tr><td><code>" << xml_escape(form) << "</code></td><td>" << key.substr(key.rfind('#') + 1) << "</td>";
    for (const auto& t : targets) {
      std::string cell = "—", colour = "#eee";
      if (compile_rows.count(key) && compile_rows[key].contains(t)) {
        const json& c = compile_rows[key][t];
        const bool agree = c.value("expected", "") == c.value("observed", "");
        cell = c.value("observed", "");
        colour = c.value("observed", "") == "not_run" ? "#9e9e9e" : agree ? (cell == "accept" ? "#3c9a3c" : "#607d8b") : "#c62828";
      }
      out << "<td class=\"s\" style=\"background:" << colour << "\">" << xml_escape(cell) << "</td>";
    }
    uint64_t cases = 0;
    double max_ulps = 0;
    std::vector<uint64_t> histogram(8, 0);
    for (const char* suite : {"random", "special", "ub"}) {
      if (results.count(key) && results[key].count(suite)) {
        const json& r = *results[key][suite];
        const std::string s = status_of(r);
        out << "<td class=\"s\" style=\"background:" << colour_of(s) << "\" title=\"" << xml_escape(r.value("note", ""))
            << "\">" << xml_escape(s) << (r.value("emulated", false) ? " (emulated)" : "") << "</td>";
        cases += r.value("cases", uint64_t(0));
        max_ulps = std::max(max_ulps, r.value("max_error_ulps", 0.0));
        const json h = r.value("error_histogram_ulps", json::array());
        for (size_t i = 0; i < h.size() && i < histogram.size(); ++i) histogram[i] += h[i].get<uint64_t>();
      } else {
        out << "<td>—</td>";
      }
    }
    uint64_t total = 0;
    for (auto v : histogram) total += v;
    out << "<td>" << cases << "</td><td>" << significant(max_ulps) << "</td><td>";
    for (auto v : histogram)
      out << "<span class=\"bar\" title=\"" << v << "\" style=\"width:" << (total ? int(std::ceil(60.0 * double(v) / double(total))) : 0)
          << "px\"></span>&nbsp;";
    out << "</td><td><code>";
    if (sass_of.count(key))
      for (const auto& s : sass_of[key]) out << xml_escape(s) << "<br>";
    out << "</code></td></tr>\n";
  }
  out << "</table>\n";
  const json findings = member(run, "findings");
  if (!findings.empty()) {
    out << "<h2>Findings</h2>\n<ul>\n";
    for (const auto& f : findings)
      out << "<li><b>" << xml_escape(f.value("id", "")) << "</b>: " << xml_escape(f.value("title", "")) << "</li>\n";
    out << "</ul>\n";
  }
  const json layouts = member(run, "layouts");
  if (!layouts.empty()) {
    int verified = 0;
    for (const auto& l : layouts) verified += l.value("verified", false);
    out << "<h2>Layout discovery</h2>\n<p>" << verified << " of " << layouts.size()
        << " form × selector pairs agree with the oracle's layout model in every one-hot probe.</p>\n";
  }
  out << "</body></html>\n";
  return out.str();
}

void write_reports(const json& run, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream out(dir / name);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + (dir / name).string());
  };
  write("run.json", run.dump(1) + "\n");
  write("junit.xml", junit_xml(run));
  write("summary.md", markdown_summary(run));
  write("report.html", html_report(run));
}

JsonLines::JsonLines(const std::filesystem::path& path) : out_(path) {
  if (!out_) throw std::runtime_error("cannot write " + path.string());
}

void JsonLines::write(const json& line) {
  std::lock_guard lock(mutex_);
  out_ << line.dump() << "\n";
  out_.flush();
}

}  // namespace mmasp
