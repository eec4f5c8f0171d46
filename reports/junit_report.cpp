// junit.xml: one testsuite per family, one testcase per form x selector x suite. NotSupported and UB-not-judged are
// <skipped> (never passed), so is every emulated result that did not fail (it is the oracle agreeing with the packing
// code, not a hardware pass); Fail and Deviation are <failure>, Crash and Timeout <error>.
#include <map>
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

void write_outcome(std::ostream& out, const ResultRecord& r) {
  const std::string status(name(r.status));
  if (r.emulated && !is_failure(r.status)) {
    out << "      <skipped message=\"" << xml_escape(status + " (" + (r.note.empty() ? "emulated" : r.note) + ")") << "\"/>\n";
  } else if (is_skipped(r.status)) {
    const std::string message = r.status == Status::ub_not_judged ? "UB: not judged" : (r.note.empty() ? status : r.note);
    out << "      <skipped message=\"" << xml_escape(message) << "\"/>\n";
  } else if (r.status == Status::fail) {
    const std::string message = r.failure ? r.failure->reason : "failed";
    out << "      <failure message=\"" << xml_escape(message) << "\" type=\"" << status << "\">" << xml_escape(failure_body(r))
        << "</failure>\n";
  } else if (r.status == Status::deviation) {
    // Inside the spec bound, but not the bits the device's verified model computes: the model tier's failure.
    std::string message = "result differs from the verified bit-exact model", body;
    if (r.model && r.model->deviation) {
      const DeviationRecord& d = *r.model->deviation;
      message = "D" + d.element.str() + " observed " + hex_code(d.observed) + ", model " + hex_code(d.model) +
                " (differing bits " + hex_code(d.differing_bits) + ")";
      body = "model tier: " + r.model->tier + "\nspec tier: " + std::string(name(d.spec_status)) + "\n" + d.repro +
             "\ndeviating cases: " + std::to_string(r.model->deviations);
    }
    out << "      <failure message=\"" << xml_escape(message) << "\" type=\"" << status << "\">" << xml_escape(body)
        << "</failure>\n";
  } else if (is_failure(r.status)) {   // Crash, Timeout
    out << "      <error message=\"" << xml_escape(r.note.empty() ? status : r.note) << "\" type=\"" << status << "\"/>\n";
  }
}

}  // namespace

std::string junit_xml(const RunRecord& run) {
  std::map<std::string, std::vector<const ResultRecord*>> families;
  for (const auto& result : run.results) families[result.family].push_back(&result);
  const EnvironmentRecord& env = run.environment;
  auto errors_of = [](Status s) { return is_failure(s) && s != Status::fail && s != Status::deviation; };
  int failures = 0, errors = 0;
  for (const auto& r : run.results) {
    failures += is_failure(r.status) && !errors_of(r.status);
    errors += errors_of(r.status);
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const auto& interrupted = run.run.interrupted;
  out << "<testsuites name=\"mmasp\" tests=\"" << run.results.size() + (interrupted ? 1 : 0) << "\" failures=\"" << failures
      << "\" errors=\"" << errors + (interrupted ? 1 : 0) << "\" time=\"" << seconds_text(run.run.seconds) << "\">\n";
  if (interrupted) {
    // A CI system must not read an interrupted run as a green one: the interruption is an error of its own.
    const std::string message = "interrupted by " + interrupted->signal_name + " after " + std::to_string(interrupted->pairs_done) +
                                " of " + std::to_string(interrupted->pairs) + " form x selector pairs";
    out << "  <testsuite name=\"mmasp.run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\""
        << seconds_text(run.run.seconds) << "\" timestamp=\"" << xml_escape(run.run.started) << "\" hostname=\""
        << xml_escape(run.run.host) << "\">\n    <testcase classname=\"mmasp.run\" name=\"run complete\" time=\"0\">\n"
        << "      <error message=\"" << xml_escape(message) << "\" type=\"Interrupted\">" << xml_escape(message)
        << "; mmasp run --resume continues it</error>\n    </testcase>\n  </testsuite>\n";
  }
  for (const auto& [family, results] : families) {
    int family_failures = 0, family_errors = 0, skipped = 0;
    double time = 0;
    for (const ResultRecord* r : results) {
      family_failures += is_failure(r->status) && !errors_of(r->status);
      family_errors += errors_of(r->status);
      skipped += is_skipped(r->status) || (r->emulated && !is_failure(r->status));
      time += r->seconds;
    }
    out << "  <testsuite name=\"mmasp." << xml_escape(family) << "\" tests=\"" << results.size() << "\" failures=\""
        << family_failures << "\" errors=\"" << family_errors << "\" skipped=\"" << skipped << "\" time=\""
        << seconds_text(time) << "\" timestamp=\"" << xml_escape(run.run.started) << "\" hostname=\""
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
    for (const ResultRecord* r : results) {
      out << "    <testcase classname=\"mmasp." << xml_escape(family) << "\" name=\"" << xml_escape(r->id) << "\" time=\""
          << seconds_text(r->seconds) << "\">\n";
      out << "      <properties>\n";
      out << "        <property name=\"status\" value=\"" << xml_escape(std::string(name(r->status))) << "\"/>\n";
      out << "        <property name=\"cases\" value=\"" << r->cases << "\"/>\n";
      out << "        <property name=\"max_error_ulps\" value=\"" << significant(r->max_error_ulps) << "\"/>\n";
      out << "        <property name=\"quality_warnings\" value=\"" << r->quality_warnings << "\"/>\n";
      out << "      </properties>\n";
      write_outcome(out, *r);
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace mmasp
