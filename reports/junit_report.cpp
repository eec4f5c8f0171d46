// junit.xml: one testsuite per family, one testcase per form x selector x suite, and one testsuite per target of
// compile conformance. NotSupported and UB-not-judged are <skipped> (never passed), so is every emulated result that
// did not fail (it is the oracle agreeing with the packing code, not a hardware pass); Fail, Deviation and a new
// compile disagreement are <failure>, Crash, Timeout and Intermittent <error>; a QualityWarning says what it warns of
// in <system-out>. The root's totals are the sums of its testsuites.
#include <map>
#include <optional>
#include <sstream>

#include "oracle/text.h"
#include "reports/run_report.h"

namespace mmasp {
namespace {

// Seconds as plain decimals: JUnit readers (and xs:decimal) reject exponent notation.
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", std::max(0.0, seconds));
  return text;
}

std::string failure_body(const ResultRecord& r) {
  std::string body;
  if (r.failure)
    body = "minimal case: " + r.failure->case_name + "\n" + r.failure->repro + "\nelement " + r.failure->element.str();
  if (!r.failing_special_cases.empty()) {
    body += "\nfailing special cases:";
    for (const auto& name : r.failing_special_cases) body += " " + name;
  }
  return body;
}

// A JUnit viewer shows a message on one line and a body in a box: a text of 10,000 characters (a failure note listing
// every element) is cut with a pointer to where the whole of it is.
std::string clipped(const std::string& text, size_t limit, const std::string& whole_text_at) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + " … [" + std::to_string(text.size() - limit) + " more characters: " + whole_text_at + "]";
}
constexpr size_t kMessageLimit = 400, kBodyLimit = 4000;

void write_outcome(std::ostream& out, const ResultRecord& r, size_t index) {
  const std::string status(name(r.status));
  const std::string whole = r.failure ? "the case file, " + r.failure->repro : "run.json /results/" + std::to_string(index);
  const auto message = [&](const std::string& text) { return xml_escape(clipped(text, kMessageLimit, whole)); };
  const auto body = [&](const std::string& text) { return xml_escape(clipped(text, kBodyLimit, whole)); };
  if (r.emulated && !is_failure(r.status)) {
    out << "      <skipped message=\"" << message(status + " (" + (r.note.empty() ? "emulated" : r.note) + ")") << "\"/>\n";
  } else if (is_skipped(r.status)) {
    const std::string text = r.status == Status::ub_not_judged ? "UB: not judged" : (r.note.empty() ? status : r.note);
    out << "      <skipped message=\"" << message(text) << "\"/>\n";
  } else if (r.status == Status::fail) {
    out << "      <failure message=\"" << message(r.failure ? r.failure->reason : "failed") << "\" type=\"" << status << "\">"
        << body(failure_body(r)) << "</failure>\n";
  } else if (r.status == Status::deviation) {
    // Inside the spec bound, but not the bits the device's verified model computes: the model tier's failure.
    std::string text = "result differs from the verified bit-exact model", detail;
    if (r.model && r.model->deviation) {
      const DeviationRecord& d = *r.model->deviation;
      text = "Deviation: D" + d.element.str() + " observed " + hex_code(d.observed) + ", model " + hex_code(d.model) +
             " (differing bits " + hex_code(d.differing_bits) + ")";
      detail = "model tier: " + r.model->tier + "\nspec tier: " + std::string(name(d.spec_status)) + "\n" + d.repro +
               "\ndeviating cases: " + std::to_string(r.model->deviations);
    }
    out << "      <failure message=\"" << message(text) << "\" type=\"" << status << "\">" << body(detail) << "</failure>\n";
  } else if (is_failure(r.status)) {   // Crash, Timeout, Intermittent
    out << "      <error message=\"" << message(r.note.empty() ? status : r.note) << "\" type=\"" << status << "\"/>\n";
  } else if (r.status == Status::quality_warning) {
    // A pass that every viewer would show as a plain green line: what the warning says goes where viewers show it.
    std::string text = "QualityWarning: " + std::to_string(r.quality_warnings) + " of " + std::to_string(r.cases) +
                       " cases had an error above one accumulation rounding (the tight bound) but inside the spec bound; "
                       "the worst was " + significant(r.max_error_vs_bound) + " of the spec bound (" +
                       significant(r.max_error_ulps) + " ulp)";
    if (r.closest_to_bound) text += "\nclosest to its bound: " + r.closest_to_bound->repro;
    if (!r.note.empty()) text += "\n" + r.note;
    out << "      <system-out>" << body(text) << "</system-out>\n";
  }
}

// Compile conformance, one testsuite per target: the cases that agree with the catalog as one passing testcase, every
// disagreement as a testcase of its own — new ones fail, with ptxas's diagnostic and the command that reproduces them;
// documented ones pass and name their finding — and the cases not run (a PTX version this ptxas does not know) as one
// skipped testcase. A run without a GPU still shows the thousands of checks it made.
struct SuiteText {
  std::string xml;
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
};

std::vector<SuiteText> compile_suites(const RunRecord& run) {
  std::vector<SuiteText> suites;
  if (!run.compile) return suites;
  const CompileRecord& c = *run.compile;
  std::map<std::string, CompileTargetCounts> by_target = c.by_target;
  // A run.json older than the per-target counts: one suite for all targets.
  const bool one_suite = by_target.empty();
  if (one_suite) by_target["all targets"] = {c.cases, c.agree, c.documented_disagreements, c.new_disagreements, c.not_run};
  for (const auto& [target, counts] : by_target) {
    SuiteText suite;
    std::ostringstream cases;
    const std::string classname = "mmasp.compile." + target;
    const auto testcase = [&](const std::string& case_name, const std::string& inner) {
      cases << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\"" << xml_escape(case_name) << "\" time=\"0\">\n"
            << inner << "    </testcase>\n";
      ++suite.tests;
    };
    if (counts.agree)
      testcase(std::to_string(counts.agree) + " cases accepted or rejected as the catalog says",
               "      <system-out>" + xml_escape("ptxas " + c.ptxas_version + " on " + target + ": " +
                                                 std::to_string(counts.agree) + " of " + std::to_string(counts.cases) +
                                                 " cases agree with the catalog") + "</system-out>\n");
    for (const auto& d : c.disagreements) {
      if (d.target != target && !one_suite) continue;
      const std::string what = "ptxas " + std::string(d.observed == Observed::accept ? "accepted" : "rejected") + " " + d.id +
                               ", which the catalog says it must " + std::string(name(d.expected)) + " (" + d.why + ")";
      const std::string repro = "mmasp emit --case '" + d.id + "' > case.ptx && ptxas -arch=" + d.target + " case.ptx";
      if (d.finding.empty()) {
        ++suite.failures;
        testcase(d.id, "      <failure message=\"" + xml_escape(clipped(what, kMessageLimit, "compile.json")) +
                           "\" type=\"CompileDisagreement\">" +
                           xml_escape(clipped(what + "\nptxas: " + (d.diagnostic.empty() ? "(accepted, no diagnostic)" : d.diagnostic) +
                                                  "\nreproduce: " + repro,
                                              kBodyLimit, "compile.json")) +
                           "</failure>\n");
      } else {
        testcase(d.id, "      <system-out>" + xml_escape("documented by " + d.finding + " (findings/findings.json): " + what) +
                           "</system-out>\n");
      }
    }
    if (counts.not_run) {
      ++suite.skipped;
      testcase(std::to_string(counts.not_run) + " cases not run",
               "      <skipped message=\"" + xml_escape(std::to_string(counts.not_run) + " cases need a PTX version ptxas " +
                                                   c.ptxas_version + " does not know: not run, never passed") + "\"/>\n");
    }
    if (suite.tests == 0) continue;
    suite.seconds = one_suite ? c.seconds : c.seconds * double(counts.cases) / double(std::max<uint64_t>(1, c.cases));
    std::ostringstream xml;
    xml << "  <testsuite name=\"" << xml_escape(classname) << "\" tests=\"" << suite.tests << "\" failures=\"" << suite.failures
        << "\" errors=\"0\" skipped=\"" << suite.skipped << "\" time=\"" << seconds_text(suite.seconds) << "\" timestamp=\""
        << xml_escape(run.run.started) << "\" hostname=\"" << xml_escape(run.run.host) << "\">\n"
        << cases.str() << "  </testsuite>\n";
    suite.xml = xml.str();
    suites.push_back(std::move(suite));
  }
  return suites;
}

// Against a baseline: one testcase per entry that counts (a regression, waived or not), and an error when the runs
// could not be compared. A night that is red only by its diff must not publish a JUnit file that says "0 failures".
std::optional<SuiteText> baseline_suite(const RunRecord& run, const DiffReport& diff) {
  SuiteText suite;
  std::ostringstream cases;
  const auto testcase = [&](const std::string& case_name, const std::string& inner) {
    cases << "    <testcase classname=\"mmasp.baseline\" name=\"" << xml_escape(case_name) << "\" time=\"0\">\n" << inner
          << "    </testcase>\n";
    ++suite.tests;
  };
  if (diff.refused()) {
    std::string why;
    for (const auto& i : diff.incomparable)
      if (!i.allowed) why += (why.empty() ? "" : "; ") + i.detail;
    ++suite.errors;
    testcase("compared with the baseline", "      <error message=\"" + xml_escape(clipped("not comparable: " + why, kMessageLimit, "diff.txt")) +
                                               "\" type=\"NotComparable\">" + xml_escape(why) + "</error>\n");
  }
  for (const auto& e : diff.entries) {
    if (!e.regression) continue;
    const std::string what = std::string(name(e.kind)) + ": " + e.id +
                             (e.before.empty() && e.after.empty() ? "" : " [" + e.before + " -> " + e.after + "]") +
                             (e.detail.empty() ? "" : " " + e.detail);
    if (e.waived_by) {
      testcase(std::string(name(e.kind)) + ": " + e.id,
               "      <system-out>" + xml_escape("waived (" + e.waived_by->reason + "): " + what) + "</system-out>\n");
    } else {
      ++suite.failures;
      testcase(std::string(name(e.kind)) + ": " + e.id,
               "      <failure message=\"" + xml_escape(clipped(what, kMessageLimit, "run.json")) + "\" type=\"Regression\">" +
                   xml_escape(clipped(what, kBodyLimit, "run.json")) + "</failure>\n");
    }
  }
  if (suite.tests == 0) testcase("no regression against the baseline", "");
  std::ostringstream xml;
  xml << "  <testsuite name=\"mmasp.baseline\" tests=\"" << suite.tests << "\" failures=\"" << suite.failures
      << "\" errors=\"" << suite.errors << "\" skipped=\"0\" time=\"0.000000\" timestamp=\"" << xml_escape(run.run.started)
      << "\" hostname=\"" << xml_escape(run.run.host) << "\">\n"
      << cases.str() << "  </testsuite>\n";
  suite.xml = xml.str();
  return suite;
}

}  // namespace

std::string junit_xml(const RunRecord& run, const DiffReport* against_baseline) {
  std::map<std::string, std::vector<std::pair<const ResultRecord*, size_t>>> families;
  for (size_t i = 0; i < run.results.size(); ++i) families[run.results[i].family].push_back({&run.results[i], i});
  const EnvironmentRecord& env = run.environment;
  auto errors_of = [](Status s) { return is_failure(s) && s != Status::fail && s != Status::deviation; };
  // Every testsuite is written first and counted as written: the root's totals are their sums, nothing else.
  std::vector<SuiteText> suites;
  const auto& interrupted = run.run.interrupted;
  if (interrupted) {
    // A CI system must not read an interrupted run as a green one: the interruption is an error of its own.
    const std::string message = "interrupted by " + interrupted->signal_name + " after " + std::to_string(interrupted->pairs_done) +
                                " of " + std::to_string(interrupted->pairs) + " form x selector pairs";
    SuiteText suite;
    suite.tests = 1;
    suite.errors = 1;
    std::ostringstream xml;
    xml << "  <testsuite name=\"mmasp.run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000000\" timestamp=\""
        << xml_escape(run.run.started) << "\" hostname=\"" << xml_escape(run.run.host) << "\">\n"
        << "    <testcase classname=\"mmasp.run\" name=\"run complete\" time=\"0\">\n"
        << "      <error message=\"" << xml_escape(message) << "\" type=\"Interrupted\">" << xml_escape(message)
        << "; mmasp run --resume continues it</error>\n    </testcase>\n  </testsuite>\n";
    suite.xml = xml.str();
    suites.push_back(std::move(suite));
  }
  if (against_baseline)
    if (auto suite = baseline_suite(run, *against_baseline)) suites.push_back(std::move(*suite));
  for (SuiteText& suite : compile_suites(run)) suites.push_back(std::move(suite));
  for (const auto& [family, results] : families) {
    SuiteText suite;
    suite.tests = int(results.size());
    for (const auto& [r, index] : results) {
      suite.failures += is_failure(r->status) && !errors_of(r->status);
      suite.errors += errors_of(r->status);
      suite.skipped += is_skipped(r->status) || (r->emulated && !is_failure(r->status));
      suite.seconds += r->seconds;
    }
    std::ostringstream out;
    out << "  <testsuite name=\"mmasp." << xml_escape(family) << "\" tests=\"" << suite.tests << "\" failures=\""
        << suite.failures << "\" errors=\"" << suite.errors << "\" skipped=\"" << suite.skipped << "\" time=\""
        << seconds_text(suite.seconds) << "\" timestamp=\"" << xml_escape(run.run.started) << "\" hostname=\""
        << xml_escape(run.run.host) << "\">\n";
    out << "    <properties>\n";
    auto property = [&](const std::string& key, const std::string& value) {
      out << "      <property name=\"" << xml_escape(key) << "\" value=\"" << xml_escape(value) << "\"/>\n";
    };
    property("backend", env.backend);
    property("emulated", env.emulated ? "true" : "false");
    property("gpu", env.device ? env.device->name : "none");
    property("sm", env.device ? std::to_string(env.device->sm) : "none");
    property("driver", env.device ? env.device->driver_version : "none");
    property("toolkit", env.toolkit.empty() ? "none" : env.toolkit);
    property("seed", std::to_string(run.run.seed));
    out << "    </properties>\n";
    for (const auto& [r, index] : results) {
      out << "    <testcase classname=\"mmasp." << xml_escape(family) << "\" name=\"" << xml_escape(r->id) << "\" time=\""
          << seconds_text(r->seconds) << "\">\n";
      out << "      <properties>\n";
      out << "        <property name=\"status\" value=\"" << xml_escape(std::string(name(r->status))) << "\"/>\n";
      out << "        <property name=\"cases\" value=\"" << r->cases << "\"/>\n";
      out << "        <property name=\"max_error_ulps\" value=\"" << significant(r->max_error_ulps) << "\"/>\n";
      out << "        <property name=\"quality_warnings\" value=\"" << r->quality_warnings << "\"/>\n";
      out << "      </properties>\n";
      write_outcome(out, *r, index);
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
    suite.xml = out.str();
    suites.push_back(std::move(suite));
  }
  SuiteText total;
  for (const SuiteText& suite : suites) {
    total.tests += suite.tests;
    total.failures += suite.failures;
    total.errors += suite.errors;
    total.skipped += suite.skipped;
    total.seconds += suite.seconds;
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"mmasp\" tests=\"" << total.tests << "\" failures=\"" << total.failures << "\" errors=\""
      << total.errors << "\" skipped=\"" << total.skipped << "\" time=\"" << seconds_text(total.seconds) << "\">\n";
  for (const SuiteText& suite : suites) out << suite.xml;
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace mmasp
