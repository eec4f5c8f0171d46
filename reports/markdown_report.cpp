// summary.md and the console summary of `mmasp run`, both from the same sections.
#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "judge/fault_coverage.h"
#include "oracle/text.h"
#include "reports/run_report.h"

namespace mmasp {
namespace {

// Every string that comes from the run (device names, notes, reasons, repro lines, form names) goes through the style:
// escaped for Markdown in summary.md (CI systems render it), made printable on the terminal.
struct Style {
  std::string (*text)(std::string_view);
  std::string (*code)(std::string_view);
};
std::string terminal_code(std::string_view text) { return "`" + printable(text) + "`"; }
const Style kMarkdown{markdown_text, markdown_code};
const Style kTerminal{printable, terminal_code};

std::string device_line(const RunRecord& run, const Style& st) {
  const EnvironmentRecord& env = run.environment;
  if (env.emulated || !env.device) return "- backend: **CPU emulator — results are emulated, not hardware conformance**\n";
  const DeviceFingerprint& d = *env.device;
  std::ostringstream out;
  out << "- GPU: " << st.text(d.name) << " (sm_" << d.sm << "), driver " << st.text(d.driver_version) << ", CUDA driver API "
      << d.driver_api_version << ", ECC " << (d.ecc ? "on" : "off") << ", SM clock " << d.sm_clock_khz / 1000 << " MHz\n";
  if (run.run.clocks) out << "- " << st.text(describe_clocks(*run.run.clocks)) << "\n";
  return out.str();
}

// Environment, time, notes, status counts and compile conformance.
std::string head_section(const RunRecord& run, const Style& st) {
  std::ostringstream out;
  out << "# mmasp run\n\n";
  if (const auto& i = run.run.interrupted)
    out << "**INTERRUPTED** by " << st.text(i->signal_name) << " after " << i->pairs_done << " of " << i->pairs
        << " form x selector pairs: these results are incomplete (`mmasp run --resume` continues the run).\n\n";
  out << "- started: " << st.text(run.run.started) << ", " << significant(run.run.seconds) << " s, seed " << run.run.seed << "\n";
  out << device_line(run, st);
  out << "- toolkit: " << (run.environment.toolkit.empty() ? "none" : st.text(run.environment.toolkit)) << "\n";
  if (!run.run.phase_seconds.empty()) {
    out << "- time by phase:";
    bool first = true;
    for (const auto& [phase, seconds] : run.run.phase_seconds) {
      out << (first ? " " : ", ") << st.text(phase) << " " << significant(seconds) << " s";
      first = false;
    }
    out << "\n";
  }
  for (const auto& line : run.run.notes) out << "- " << st.text(line) << "\n";
  out << "\n| status | results" << (run.environment.emulated ? " (all emulated, none on hardware)" : "") << " |\n|---|---|\n";
  for (const auto& [status, count] : status_counts(run)) out << "| " << name(status) << " | " << count << " |\n";
  if (run.compile) {
    const CompileRecord& c = *run.compile;
    out << "\nCompile conformance: " << c.cases << " cases, " << c.agree << " agree, " << c.documented_disagreements
        << " documented, " << c.new_disagreements << " new, " << c.not_run << " not run.\n";
  }
  return out.str();
}

// "100.00 %", or "99.95 % (2 not detected)".
std::string coverage_cell(const PairCoverageRecord& c) {
  const std::string text = coverage_percent_text(c.detected, c.detectable);
  return c.not_detected.empty() ? text : text + " (" + std::to_string(c.not_detected.size()) + " not detected)";
}

// The fault coverage of the streams that ran (docs/coverage.md), and each fault they did not detect.
std::string coverage_section(const RunRecord& run, const Style& st) {
  uint64_t detectable = 0, detected = 0, pairs = 0, undetectable = 0;
  uint64_t resident_detectable = 0, resident_detected = 0, resident_pairs = 0;
  std::vector<std::string> missed;
  for (const auto& r : run.results) {
    if (r.resident_coverage) {
      ++resident_pairs;
      resident_detectable += r.resident_coverage->detectable;
      resident_detected += r.resident_coverage->detected;
      for (const std::string& fault : r.resident_coverage->not_detected)
        missed.push_back(r.form + " sel=" + std::to_string(r.selector) + " (resident kernel): " + fault);
    }
    if (!r.coverage) continue;
    ++pairs;
    detectable += r.coverage->detectable;
    detected += r.coverage->detected;
    undetectable += r.coverage->faults - r.coverage->detectable;
    for (const std::string& fault : r.coverage->not_detected) missed.push_back(r.form + " sel=" + std::to_string(r.selector) + ": " + fault);
  }
  if (!pairs) return "";
  std::ostringstream out;
  out << "\n## Fault coverage\n\n" << coverage_summary_text(detected, detectable) << " over " << pairs
      << " pairs, of the streams that ran (" << undetectable << " undetectable, each with its reason in run.json; "
      << "docs/coverage.md).\n";
  if (resident_pairs)
    out << "\nThe resident kernel's own share of the random stream (after the host sample): "
        << coverage_summary_text(resident_detected, resident_detectable) << " over " << resident_pairs << " pairs.\n";
  for (size_t i = 0; i < missed.size() && i < 20; ++i) out << "- not detected: " << st.code(missed[i]) << "\n";
  if (missed.size() > 20) out << "- ... and " << missed.size() - 20 << " more in run.json\n";
  return out.str();
}

std::string forms_section(const RunRecord& run, const Style& st) {
  std::map<std::string, std::map<Suite, const ResultRecord*>> table;   // "form sel=n" -> suite -> result
  for (const auto& r : run.results) table[r.form + " sel=" + std::to_string(r.selector)][r.suite] = &r;
  std::ostringstream out;
  out << "\n| form | selector | random | special | ub | cases | max error (ulp) | resident cases | resident s | planned share | "
         "fault coverage |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& entry : table) {
    const auto& suites = entry.second;
    const ResultRecord& any = *suites.begin()->second;
    uint64_t cases = 0;
    double max_ulps = 0;
    for (const auto& [suite, r] : suites) {
      cases += r->cases;
      max_ulps = std::max(max_ulps, r->max_error_ulps);
    }
    auto cell = [&](Suite suite) {
      auto it = suites.find(suite);
      if (it == suites.end()) return std::string("—");
      return std::string(name(it->second->status)) + (it->second->emulated ? " (emulated)" : "");
    };
    const auto random = suites.find(Suite::random);
    const ResultRecord* r = random == suites.end() ? nullptr : random->second;
    const auto resident = [&](bool seconds) {
      if (!r || !r->resident) return std::string("—");
      return seconds ? significant(r->resident->seconds) : std::to_string(r->resident->checked);
    };
    const std::string planned =
        r && r->planned ? percent(r->planned->share) + " (" + significant(r->planned->seconds) + " s)" : std::string("—");
    out << "| " << st.code(any.form) << " | " << any.selector << " | " << cell(Suite::random) << " | " << cell(Suite::special) << " | "
        << cell(Suite::undefined) << " | " << cases << " | " << significant(max_ulps) << " | " << resident(false) << " | "
        << resident(true) << " | " << planned << " | " << (r && r->coverage ? coverage_cell(*r->coverage) : std::string("—"))
        << " |\n";
  }
  return out.str();
}

std::string failures_section(const RunRecord& run, const Style& st) {
  std::ostringstream out;
  bool any = false;
  for (const auto& r : run.results) {
    if (!is_failure(r.status)) continue;
    if (!any) out << "\n## Failures\n\n";
    any = true;
    out << "- **" << name(r.status) << "** " << st.code(r.id) << ": ";
    if (r.failure) {
      out << st.text(r.failure->reason) << " — " << st.code(r.failure->repro);
    } else if (r.model && r.model->deviation) {
      const DeviationRecord& d = *r.model->deviation;
      out << "D" << d.element.str() << " observed " << hex_code(d.observed) << ", model "
          << hex_code(d.model) << " (spec tier: " << name(d.spec_status) << "), " << r.model->deviations
          << " deviating cases — " << st.code(d.repro);
    } else {
      out << st.text(r.note);
    }
    out << "\n";
  }
  return out.str();
}

// Every new compile disagreement (they fail the run), with ptxas's diagnostic and the command that reproduces it; the
// documented ones are counted, with their findings.
std::string compile_section(const RunRecord& run, const Style& st) {
  if (!run.compile || run.compile->disagreements.empty()) return "";
  std::ostringstream out;
  std::map<std::string, int> documented;   // finding -> cases
  bool any_new = false;
  for (const auto& d : run.compile->disagreements) {
    if (!d.finding.empty()) {
      ++documented[d.finding];
      continue;
    }
    if (!any_new) out << "\n## New compile disagreements\n\n";
    any_new = true;
    out << "- " << st.code(d.id) << ": the catalog says " << name(d.expected) << ", ptxas says " << name(d.observed)
        << (d.diagnostic.empty() ? "" : " (" + st.text(d.diagnostic) + ")") << " — "
        << st.code("mmasp emit --case '" + d.id + "' > case.ptx && ptxas -arch=" + d.target + " case.ptx") << "\n";
  }
  if (!documented.empty()) {
    out << "\nDocumented compile disagreements:";
    for (const auto& [finding, count] : documented) out << " " << st.text(finding) << " (" << count << " cases)";
    out << "\n";
  }
  return out.str();
}

std::string model_section(const RunRecord& run, const Style& st) {
  const std::vector<std::string> lines = model_tier_lines(run);
  if (lines.empty()) return "";
  std::string out = "\n## Model tier\n\n";
  for (const auto& line : lines) out += "- " + st.text(line) + "\n";
  return out;
}

std::string random_cases_section(const RunRecord& run, const Style& st) {
  const std::vector<std::string> lines = random_case_lines(run);
  if (lines.empty()) return "";
  std::string out = "\n## Random cases\n\n";
  for (const auto& line : lines) out += "- " + st.text(line) + "\n";
  return out;
}

std::string layouts_section(const RunRecord& run, const Style& st) {
  if (run.layouts.empty()) return "";
  std::ostringstream out;
  int verified = 0;
  for (const auto& l : run.layouts) verified += l.verified;
  out << "\n## Layouts\n\n" << verified << " of " << run.layouts.size()
      << " form × selector pairs: every one-hot probe agreed with the oracle's layout model.\n";
  for (const auto& l : run.layouts) {
    if (l.verified) continue;
    out << "- " << st.code(l.form) << " sel=" << l.selector << ":";
    for (const auto& o : l.operands)
      if (o.matched != o.probes)
        out << " " << st.text(o.operand) << " " << o.matched << "/" << o.probes
            << (o.mismatches.empty() ? "" : " (e.g. " + st.text(o.mismatches[0]) + ")");
    if (!l.error.empty()) out << " " << st.text(l.error);
    out << "\n";
  }
  return out.str();
}

std::string compile_paths_section(const RunRecord& run, const Style& st) {
  if (run.compile_paths.empty()) return "";
  std::ostringstream out;
  int identical = 0;
  for (const auto& p : run.compile_paths) identical += p.identical;
  out << "\n## Compile paths\n\n" << identical << " of " << run.compile_paths.size()
      << " form × selector pairs gave bit-identical D from the toolkit's cubin and the driver's JIT.\n";
  for (const auto& p : run.compile_paths)
    if (!p.identical) out << "- " << st.code(p.form) << " sel=" << p.selector << ": " << st.text(p.note) << "\n";
  return out.str();
}

std::string sass_section(const RunRecord& run, const Style& st) {
  if (run.sass.empty()) return "";
  std::ostringstream out;
  std::map<std::string, std::set<std::string>> lowering;   // instruction (path) -> forms
  for (const auto& s : run.sass)
    for (const auto& m : s.mma) lowering[m + " (" + s.path + ")"].insert(s.form);
  out << "\n## SASS\n\n| instruction (path) | forms |\n|---|---|\n";
  for (const auto& [instruction, forms] : lowering) out << "| " << st.code(instruction) << " | " << forms.size() << " |\n";
  for (const auto& s : run.sass)
    if (s.error) {
      out << "\nSASS not recorded: " << st.text(*s.error) << "\n";
      break;
    }
  std::map<std::string, int> emulated;   // note (path) -> pairs
  for (const auto& s : run.sass)
    if (!s.error && !s.native) ++emulated[s.note + " (" + s.path + ")"];
  if (!emulated.empty()) out << "\nForms that are not native sparse MMA instructions on this device:\n\n";
  for (const auto& [text, count] : emulated) out << "- " << count << " × " << st.text(text) << "\n";
  return out.str();
}

}  // namespace

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %%", 100 * fraction);
  return text;
}

std::vector<std::string> random_case_lines(const RunRecord& run) {
  struct Fewest {
    const ResultRecord* result = nullptr;
    void see(const ResultRecord& r) {
      if (!result || r.cases < result->cases) result = &r;
    }
  } any, floats, integers;
  for (const auto& r : run.results) {
    if (r.suite != Suite::random || r.status == Status::not_supported) continue;
    any.see(r);
    const Form* form = find_form(r.form);
    (form && form->is_integer() ? integers : floats).see(r);
  }
  if (!any.result) return {};
  const auto line = [&](const char* what, const Fewest& fewest) {
    const ResultRecord& r = *fewest.result;
    std::string text = std::string("fewest random cases of ") + what + ": " + std::to_string(r.cases) + " (" + r.id;
    if (r.resident) text += "; " + std::to_string(r.resident->checked) + " on the GPU in " + significant(r.resident->seconds) + " s of kernel time" +
                            (r.resident->kernel.empty() ? "" : " (kernel " + r.resident->kernel + ")");
    if (r.planned) text += "; planned " + percent(r.planned->share) + " of the random-suite time, " + significant(r.planned->seconds) + " s";
    return text + ")";
  };
  std::vector<std::string> lines = {line("any pair", any)};
  if (floats.result && floats.result != any.result) lines.push_back(line("a float pair", floats));
  if (integers.result && integers.result != any.result) lines.push_back(line("an integer pair", integers));
  return lines;
}

std::vector<std::string> model_tier_lines(const RunRecord& run) {
  std::map<std::string, std::array<uint64_t, 4>> families;   // judged by model, by reference, deviations, results
  std::string tier;
  for (const auto& r : run.results) {
    if (!r.model) continue;
    auto& f = families[r.family];
    f[0] += r.model->model_judged;
    f[1] += r.model->reference_judged;
    f[2] += r.model->deviations;
    f[3] += 1;
    tier = r.model->tier;
  }
  std::vector<std::string> lines;
  if (!run.run.model_source.empty()) lines.push_back("bit-exact model: " + run.run.model_source);
  else if (!families.empty()) lines.push_back("bit-exact model: " + tier);
  for (const auto& [family, f] : families)
    lines.push_back(family + ": " + std::to_string(f[0]) + " cases judged by the model, " + std::to_string(f[1]) +
                    " also by the exact reference (spec tier), " + std::to_string(f[2]) + " deviating, in " +
                    std::to_string(f[3]) + " results");
  // The GPU-resident path (resident/resident.h): how many cases each path judged.
  uint64_t gpu = 0, host = 0, deviating = 0, replayed = 0, results = 0;
  double seconds = 0;
  for (const auto& r : run.results) {
    if (!r.resident) continue;
    ++results;
    gpu += r.resident->checked;
    host += r.resident->host_sample;
    deviating += r.resident->deviating;
    replayed += r.resident->replayed;
    seconds += r.resident->seconds;
  }
  if (results) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3g", seconds > 0 ? double(gpu) / seconds : 0.0);
    lines.push_back("GPU-resident path: " + std::to_string(gpu) + " random cases drawn, run and judged on the GPU in " +
                    std::to_string(results) + " results (" + rate + " cases/s of kernel time), " +
                    std::to_string(deviating) + " deviating (" + std::to_string(replayed) +
                    " replayed on the host); the host path judged the first " + std::to_string(host) + " of them");
  }
  return lines;
}

std::string markdown_summary(const RunRecord& run) {
  const Style& st = kMarkdown;
  return head_section(run, st) + forms_section(run, st) + compile_section(run, st) + failures_section(run, st) + model_section(run, st) +
         coverage_section(run, st) + random_cases_section(run, st) + layouts_section(run, st) + compile_paths_section(run, st) +
         sass_section(run, st);
}

std::string console_summary(const RunRecord& run) {
  const Style& st = kTerminal;
  return head_section(run, st) + model_section(run, st) + coverage_section(run, st) + random_cases_section(run, st) +
         (exit_code_for(run) != 0 ? compile_section(run, st) + failures_section(run, st) : "");
}

}  // namespace mmasp
