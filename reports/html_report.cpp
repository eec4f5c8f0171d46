// report.html: what a person looks for after a nightly run, in that order — the verdict and totals; failures,
// deviations and (with a baseline) regressions, each with its repro line; a compact matrix per family (forms x
// selectors x suites, one small cell each) that can be filtered and sorted; error-against-bound plots per family;
// then environment, findings, layouts, SASS and compile paths. One self-contained file: inline CSS, SVG and script,
// nothing fetched. The filter can be set from the address (report.html#filter=bf16&status=failing), which is also
// how the browser test drives it.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "judge/fault_coverage.h"
#include "oracle/text.h"
#include "reports/run_report.h"

namespace mmasp {
namespace {

// Colours per status: a fixed table keyed by the enum, so the legend, the cells and the plots cannot drift apart.
const char* colour_of(Status status) {
  switch (status) {
    case Status::pass: return "#3c9a3c";
    case Status::quality_warning: return "#d9a400";
    case Status::deviation: return "#e65100";
    case Status::fail: return "#c62828";
    case Status::intermittent: return "#ad1457";
    case Status::ub_not_judged: return "#7b61a8";
    case Status::not_supported: return "#9e9e9e";
    case Status::crash: return "#880e4f";
    case Status::timeout: return "#6a1b9a";
    case Status::waived: return "#6d8fb3";
  }
  return "#555";
}

// The letter of a suite in a matrix cell.
char suite_letter(Suite suite) { return char(std::toupper(static_cast<unsigned char>(name(suite)[0]))); }

// The opcode without what every form shares, for a narrow column; the full opcode is the row's title.
std::string short_opcode(const std::string& opcode) {
  for (const char* prefix : {"mma.sp::ordered_metadata.sync.aligned.", "mma.sp.sync.aligned."})
    if (opcode.rfind(prefix, 0) == 0)
      return (std::string(prefix).find("ordered") != std::string::npos ? "ordered " : "") + opcode.substr(std::string(prefix).size());
  return opcode;
}

const char* kStyle = R"(
body{font-family:system-ui,sans-serif;margin:1.2em auto;max-width:1280px;padding:0 1em;color:#222}
h1{margin:.2em 0}h2{margin:1.2em 0 .4em;font-size:1.2em}
.verdict{padding:.6em 1em;border-radius:6px;color:#fff}.verdict.pass{background:#2e7d32}.verdict.fail{background:#c62828}
.verdict.emulated{background:#546e7a}.verdict p{margin:.2em 0}
.chips span{display:inline-block;margin:2px;padding:2px 8px;border-radius:10px;color:#fff;font-size:13px}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 5px;text-align:left;vertical-align:top}
th[data-sort]{cursor:pointer;background:#f3f3f3}th[data-sort]:after{content:" \2195";color:#999}
code{font-size:11px}.repro{font-family:monospace;font-size:11px;user-select:all;background:#f6f6f6}
.cell{display:inline-block;width:13px;height:13px;margin:0 1px;color:#fff;font-size:9px;line-height:13px;text-align:center;border-radius:2px}
.sel{display:inline-block;margin-right:6px;white-space:nowrap}
details.family{margin:.4em 0}details.family>summary{cursor:pointer;font-weight:600}
.controls{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd}
.plots{display:flex;flex-wrap:wrap;gap:12px}.plots figure{margin:0}.plots figcaption{font-size:12px}
.muted{color:#777}
)";

// Filtering (text and status class) and sorting, with the state kept in the address.
const char* kScript = R"(
(function(){
  var text=document.getElementById('filter'), status=document.getElementById('status-filter');
  function params(){var p={};location.hash.replace(/^#/,'').split('&').forEach(function(kv){var i=kv.indexOf('=');
    if(i>0)p[decodeURIComponent(kv.slice(0,i))]=decodeURIComponent(kv.slice(i+1));});return p;}
  function wanted(row){
    var t=text.value.trim().toLowerCase();
    if(t&&row.getAttribute('data-form').toLowerCase().indexOf(t)<0)return false;
    var s=status.value, worst=row.getAttribute('data-class');
    if(s==='failing')return worst==='failing';
    if(s==='attention')return worst==='failing'||worst==='warning';
    if(s)return (' '+row.getAttribute('data-statuses')+' ').indexOf(' '+s+' ')>=0;
    return true;}
  function apply(){
    var shown=0,total=0;
    document.querySelectorAll('details.family').forEach(function(group){
      var visible=0;
      group.querySelectorAll('tr.form-row').forEach(function(row){var ok=wanted(row);row.hidden=!ok;visible+=ok;total++;});
      group.hidden=visible===0;shown+=visible;if((text.value||status.value)&&visible)group.open=true;});
    var out=document.getElementById('shown');out.textContent=shown+' of '+total+' forms shown';out.setAttribute('data-shown',shown);
    var h=[];if(text.value)h.push('filter='+encodeURIComponent(text.value));if(status.value)h.push('status='+encodeURIComponent(status.value));
    if(h.length||location.hash)history.replaceState(null,'','#'+h.join('&'));}
  var p=params();if(p.filter)text.value=p.filter;if(p.status)status.value=p.status;
  text.addEventListener('input',apply);status.addEventListener('change',apply);
  document.querySelectorAll('th[data-sort]').forEach(function(th){th.addEventListener('click',function(){
    var table=th.closest('table'),body=table.tBodies[0],col=th.cellIndex,numeric=th.getAttribute('data-sort')==='num';
    var dir=th.getAttribute('data-dir')==='asc'?-1:1;th.setAttribute('data-dir',dir>0?'asc':'desc');
    var rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){var x=a.cells[col].getAttribute('data-key')||a.cells[col].textContent,y=b.cells[col].getAttribute('data-key')||b.cells[col].textContent;
      return dir*(numeric?(parseFloat(x)-parseFloat(y)):x.localeCompare(y));});
    rows.forEach(function(r){body.appendChild(r);});});});
  apply();
})();
)";

struct FormRow {
  std::string opcode, family;
  std::map<int, std::vector<const ResultRecord*>> by_selector;
  const CompileMatrixRow* compile = nullptr;   // selector 0's row stands for the form's targets
  uint64_t cases = 0;
  double max_vs_bound = 0;
  Status worst = Status::pass;
  std::set<Status> statuses;
  bool resident = false, planned = false, coverage = false;
  const PairCoverageRecord* lowest_coverage = nullptr;   // the form's selector of the lowest coverage
  std::vector<std::string> not_detected;   // "sel N: fault (stage)"
  uint64_t resident_cases = 0;      // over the form's selectors
  double resident_seconds = 0, planned_share = 0, planned_seconds = 0;
};

// A row wants a look when its worst result failed or warned; its CSS class says which.
bool wants_a_look(Status worst) { return is_failure(worst) || worst == Status::quality_warning; }

std::string row_class(Status worst) {
  if (is_failure(worst)) return "failing";
  return wants_a_look(worst) ? "warning" : "ok";
}

void verdict_section(std::ostream& out, const RunRecord& run, const DiffReport* diff) {
  // Red by the run, or by its comparison with the baseline (a regression, or runs that could not be compared).
  const bool regressed = diff && (diff->refused() || diff->regressions > 0);
  const bool failed = exit_code_for(run) != 0 || regressed;
  const bool emulated = run.environment.emulated || !run.environment.device;
  const auto& interrupted = run.run.interrupted;
  out << "<header id=\"verdict\" class=\"verdict " << (failed ? "fail" : emulated ? "emulated" : "pass") << "\">\n<h1>"
      << (interrupted ? "INTERRUPTED" : failed ? "FAIL" : emulated ? "No failures (emulated — not a hardware result)" : "PASS")
      << "</h1>\n<p>";
  if (regressed)
    out << (diff->refused() ? std::string("Not comparable with the baseline: see below.")
                            : std::to_string(diff->regressions) + " regression(s) against the baseline: see below.")
        << "<br>";
  if (interrupted)
    out << "Stopped by " << xml_escape(interrupted->signal_name) << " after " << interrupted->pairs_done << " of "
        << interrupted->pairs << " form x selector pairs: the results below are incomplete. <code>mmasp run --resume</code> "
        << "with the same options continues the run.<br>";
  if (emulated) {
    out << "CPU emulator: every result is emulated, none ran on a GPU.";
  } else {
    const DeviceFingerprint& d = *run.environment.device;
    out << "<b>" << xml_escape(d.name) << "</b> (sm_" << d.sm << "), driver " << xml_escape(d.driver_version)
        << ", CUDA driver API " << d.driver_api_version << ", ECC " << (d.ecc ? "on" : "off");
  }
  out << "<br>toolkit " << xml_escape(run.environment.toolkit.empty() ? "none" : run.environment.toolkit) << " · started "
      << xml_escape(run.run.started) << " · " << significant(run.run.seconds) << " s · seed " << run.run.seed
      << " · mmasp " << xml_escape(run.run.mmasp_commit) << "</p>\n</header>\n";
}

void totals_section(std::ostream& out, const RunRecord& run) {
  out << "<section id=\"totals\"><h2>Totals</h2>\n<p class=\"chips\">";
  for (const auto& [status, count] : status_counts(run))
    out << "<span class=\"total\" data-status=\"" << name(status) << "\" data-count=\"" << count << "\" style=\"background:"
        << colour_of(status) << "\">" << name(status) << " <b>" << count << "</b></span>";
  out << "</p>\n<ul>\n<li>" << run.results.size() << " results (form × selector × suite)";
  uint64_t cases = 0;
  for (const auto& r : run.results) cases += r.cases;
  out << ", " << cases << " cases judged</li>\n";
  if (run.compile) {
    const CompileRecord& c = *run.compile;
    out << "<li>compile conformance: " << c.cases << " cases, " << c.agree << " agree, " << c.documented_disagreements
        << " documented by findings, <b>" << c.new_disagreements << " new</b>, " << c.not_run << " not run</li>\n";
  }
  for (const auto& line : model_tier_lines(run)) out << "<li>" << xml_escape(line) << "</li>\n";
  for (const auto& line : random_case_lines(run)) out << "<li>" << xml_escape(line) << "</li>\n";
  for (const auto& note : run.run.notes) out << "<li class=\"muted\">" << xml_escape(note) << "</li>\n";
  out << "</ul></section>\n";
}

void attention_section(std::ostream& out, const RunRecord& run, const DiffReport* diff) {
  std::vector<const ResultRecord*> failing;
  for (const auto& r : run.results)
    if (is_failure(r.status)) failing.push_back(&r);
  std::vector<const CompileDisagreement*> compile_new;
  if (run.compile)
    for (const auto& d : run.compile->disagreements)
      if (d.finding.empty()) compile_new.push_back(&d);
  out << "<section id=\"failures\"><h2>Failures and deviations (" << failing.size() + compile_new.size() << ")</h2>\n";
  if (!compile_new.empty()) {
    // New compile disagreements fail the run as much as a wrong D: listed first, each with what reproduces it.
    out << "<h3>Compile conformance: " << compile_new.size() << " new disagreement(s) between ptxas and the catalog</h3>\n"
        << "<table><thead><tr><th>case</th><th>expected</th><th>ptxas</th><th>why</th><th>repro</th></tr></thead><tbody>\n";
    for (const CompileDisagreement* d : compile_new)
      out << "<tr class=\"failure-row\"><td><code>" << xml_escape(d->id) << "</code></td><td>" << name(d->expected)
          << "</td><td>" << name(d->observed) << (d->diagnostic.empty() ? "" : ": " + xml_escape(d->diagnostic))
          << "</td><td>" << xml_escape(d->why) << "</td><td class=\"repro\">mmasp emit --case '" << xml_escape(d->id)
          << "' &gt; case.ptx &amp;&amp; ptxas -arch=" << xml_escape(d->target) << " case.ptx</td></tr>\n";
    out << "</tbody></table>\n";
  }
  if (failing.empty()) {
    if (compile_new.empty()) out << "<p>None.</p>\n";
  } else {
    out << "<table><thead><tr><th>status</th><th>result</th><th>what</th><th>repro</th></tr></thead><tbody>\n";
    for (const ResultRecord* r : failing) {
      std::string what = r->note, repro;
      if (r->failure) {
        what = r->failure->reason + " (D" + r->failure->element.str() + " expected " + hex_code(r->failure->expected) + ", observed " + hex_code(r->failure->observed) + ")";
        repro = r->failure->repro;
      } else if (r->model && r->model->deviation) {
        const DeviationRecord& d = *r->model->deviation;
        what = "differs from the bit-exact model: D" + d.element.str() + " observed " + hex_code(d.observed) + ", model " + hex_code(d.model) + "; spec tier " +
               std::string(name(d.spec_status)) + "; " + std::to_string(r->model->deviations) + " deviating cases";
        repro = d.repro;
      }
      out << "<tr class=\"failure-row\" data-id=\"" << xml_escape(r->id) << "\"><td style=\"background:" << colour_of(r->status)
          << ";color:#fff\">" << name(r->status) << "</td><td><code>" << xml_escape(r->id) << "</code></td><td>"
          << xml_escape(what) << "</td><td class=\"repro\">" << xml_escape(repro) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }
  out << "</section>\n";
  if (!diff) return;
  if (diff->refused()) {
    out << "<section id=\"regressions\"><h2>Not compared with the baseline</h2>\n";
    for (const auto& i : diff->incomparable)
      if (!i.allowed) out << "<p><b>" << xml_escape(std::string(name(i.what))) << "</b>: " << xml_escape(i.detail) << "</p>\n";
    out << "<p class=\"muted\">A comparison across these differences would say nothing about a regression "
           "(<code>mmasp diff --allow-different</code> compares anyway).</p></section>\n";
    return;
  }
  out << "<section id=\"regressions\"><h2>Since the baseline: " << diff->regressions << " regression(s), " << diff->waived
      << " waived, " << diff->entries.size() << " change(s)</h2>\n<p class=\"muted\">" << xml_escape(diff->cases_detail) << "</p>\n";
  if (!diff->entries.empty()) {
    out << "<table><thead><tr><th></th><th>change</th><th>result</th><th>before → after</th><th>detail</th></tr></thead><tbody>\n";
    for (const auto& e : diff->entries)
      out << "<tr class=\"" << (e.regression && !e.waived_by ? "regression-row" : "change-row") << "\"><td>"
          << (e.regression ? (e.waived_by ? "waived" : "<b>REGRESSION</b>") : "") << "</td><td>" << xml_escape(std::string(name(e.kind)))
          << "</td><td><code>" << xml_escape(e.id) << "</code></td><td>" << xml_escape(e.before) << " → " << xml_escape(e.after)
          << "</td><td>" << xml_escape(e.detail) << "</td></tr>\n";
    out << "</tbody></table>\n";
  }
  out << "</section>\n";
}

std::map<std::string, std::vector<FormRow>> form_rows(const RunRecord& run) {
  std::map<std::string, FormRow> rows;   // by opcode
  for (const auto& r : run.results) {
    FormRow& row = rows[r.form];
    row.opcode = r.form;
    row.family = r.family;
    row.by_selector[r.selector].push_back(&r);
    row.cases += r.cases;
    row.max_vs_bound = std::max(row.max_vs_bound, r.max_error_vs_bound);
    row.worst = worse(row.worst, r.status);
    row.statuses.insert(r.status);
    if (r.resident) {
      row.resident = true;
      row.resident_cases += r.resident->checked;
      row.resident_seconds += r.resident->seconds;
    }
    if (r.coverage) {
      row.coverage = true;
      if (!row.lowest_coverage || r.coverage->percent < row.lowest_coverage->percent) row.lowest_coverage = &*r.coverage;
      for (const std::string& fault : r.coverage->not_detected)
        row.not_detected.push_back("sel " + std::to_string(r.selector) + ": " + fault);
    }
    if (r.planned) {
      row.planned = true;
      row.planned_share += r.planned->share;
      row.planned_seconds += r.planned->seconds;
    }
  }
  if (run.compile)
    for (const auto& m : run.compile->matrix)
      if (rows.count(m.form) && (!rows[m.form].compile || m.selector == 0)) rows[m.form].compile = &m;
  std::map<std::string, std::vector<FormRow>> families;
  for (auto& [opcode, row] : rows) families[row.family].push_back(std::move(row));
  return families;
}

void matrix_row(std::ostream& out, const FormRow& row) {
  std::string statuses;
  for (Status s : row.statuses) statuses += (statuses.empty() ? "" : " ") + std::string(name(s));
  out << "<tr class=\"form-row\" data-form=\"" << xml_escape(row.opcode) << "\" data-class=\"" << row_class(row.worst)
      << "\" data-statuses=\"" << statuses << "\"><td title=\"" << xml_escape(row.opcode) << "\"><code>"
      << xml_escape(short_opcode(row.opcode)) << "</code></td>";
  // Compile: targets where ptxas did what the catalog says, out of those run.
  if (row.compile) {
    int agree = 0, total = 0;
    std::string title;
    for (const auto& [target, cell] : row.compile->cells) {
      if (cell.observed == Observed::not_run) continue;
      ++total;
      agree += cell.agrees();
      title += target + ": " + std::string(name(cell.observed)) +
               (cell.agrees() ? "" : " (catalog: " + std::string(name(cell.expected)) + ")") + "\n";
    }
    out << "<td data-key=\"" << total - agree << "\" title=\"" << xml_escape(title) << "\" style=\"color:"
        << (agree == total ? "#2e7d32" : "#c62828") << "\">" << agree << "/" << total << "</td>";
  } else {
    out << "<td data-key=\"0\">—</td>";
  }
  out << "<td data-key=\"" << int(severity(row.worst)) << "\">";
  for (auto [selector, results] : row.by_selector) {
    // R, S, U in that order whatever order the run produced them in.
    std::sort(results.begin(), results.end(), [](auto* x, auto* y) { return suite_letter(x->suite) < suite_letter(y->suite); });
    out << "<span class=\"sel\">" << selector << ":";
    for (const ResultRecord* r : results)
      out << "<span class=\"cell\" style=\"background:" << colour_of(r->status) << "\" title=\"" << xml_escape(r->id) << ": "
          << name(r->status) << (r->emulated ? " (emulated)" : "") << (r->note.empty() ? "" : "\n" + xml_escape(r->note))
          << "\">" << suite_letter(r->suite) << "</span>";
    out << "</span>";
  }
  out << "</td><td data-key=\"" << row.cases << "\">" << row.cases << "</td><td data-key=\"" << row.max_vs_bound << "\">"
      << significant(row.max_vs_bound, 3) << "</td>";
  // The GPU-resident path's cases and kernel time, and the --budget plan's share, over the form's selectors.
  if (row.resident)
    out << "<td data-key=\"" << row.resident_cases << "\">" << row.resident_cases << "</td><td data-key=\"" << row.resident_seconds
        << "\">" << significant(row.resident_seconds) << "</td>";
  else
    out << "<td data-key=\"0\">—</td><td data-key=\"0\">—</td>";
  if (row.planned)
    out << "<td data-key=\"" << row.planned_share << "\">" << percent(row.planned_share) << " (" << significant(row.planned_seconds)
        << " s)</td>";
  else
    out << "<td data-key=\"0\">—</td>";
  // The fault coverage of the form's streams (docs/coverage.md); the faults not detected one click away.
  if (row.coverage) {
    const PairCoverageRecord& lowest = *row.lowest_coverage;
    const std::string text = coverage_percent_text(lowest.detected, lowest.detectable);
    out << "<td data-key=\"" << lowest.percent << "\">";
    if (row.not_detected.empty()) {
      out << text;
    } else {
      out << "<details><summary>" << text << "</summary>";
      for (const std::string& fault : row.not_detected) out << "<div><code>" << xml_escape(fault) << "</code></div>";
      out << "</details>";
    }
    out << "</td>";
  } else {
    out << "<td data-key=\"-1\">—</td>";
  }
  out << "</tr>\n";
}

void matrix_section(std::ostream& out, const RunRecord& run) {
  out << "<section id=\"matrix\"><h2>Forms</h2>\n<div class=\"controls\"><input id=\"filter\" size=\"40\" "
         "placeholder=\"filter forms, e.g. bf16 or m16n8k32\"> <select id=\"status-filter\"><option value=\"\">all "
         "forms</option><option value=\"failing\">failing</option><option value=\"attention\">failing or "
         "warning</option>";
  for (Status s : kAllStatuses) out << "<option value=\"" << name(s) << "\">with " << name(s) << "</option>";
  out << "</select> <span id=\"shown\"></span> <span class=\"chips\">";
  for (Status s : kAllStatuses) out << "<span style=\"background:" << colour_of(s) << "\">" << name(s) << "</span>";
  out << "</span><br><span class=\"muted\">Each cell is one suite of one selector: R random, S special, U undefined "
         "behaviour. Hover for the result.</span></div>\n";
  for (const auto& [family, rows] : form_rows(run)) {
    std::map<Status, int> worst_counts;
    bool needs_a_look = false;   // open at first only where something failed or warned; the rest is one line
    for (const auto& row : rows) {
      ++worst_counts[row.worst];
      needs_a_look |= wants_a_look(row.worst);
    }
    out << "<details class=\"family\"" << (needs_a_look ? " open" : "") << "><summary>" << xml_escape(family) << " — " << rows.size() << " forms";
    for (const auto& [status, count] : worst_counts) out << ", " << count << " " << name(status);
    out << "</summary>\n<table class=\"matrix\"><thead><tr><th data-sort=\"text\">form</th><th data-sort=\"num\">compile</th>"
           "<th data-sort=\"num\">selector: suites</th><th data-sort=\"num\">cases</th><th data-sort=\"num\">max error / "
           "bound</th><th data-sort=\"num\">resident cases</th><th data-sort=\"num\">resident s</th><th data-sort=\"num\">"
           "planned share</th><th data-sort=\"num\">fault coverage</th></tr></thead><tbody>\n";
    for (const auto& row : rows) matrix_row(out, row);
    out << "</tbody></table></details>\n";
  }
  out << "</section>\n";
}

// Per family: every judged float result's largest error as a fraction of its spec bound, sorted, with the bound
// drawn at 1. A result at the line is as close to failing as the spec allows.
void plots_section(std::ostream& out, const RunRecord& run) {
  std::map<std::string, std::vector<std::pair<double, Status>>> families;
  for (const auto& r : run.results)
    if (r.cases > 0 && !is_skipped(r.status)) families[r.family].push_back({r.max_error_vs_bound, r.status});
  out << "<section id=\"plots\"><h2>Error against the spec bound</h2>\n<div class=\"plots\">\n";
  const int width = 300, height = 110;
  for (auto& [family, points] : families) {
    std::sort(points.begin(), points.end(), [](auto& a, auto& b) { return a.first < b.first; });
    double top = 1.1;
    for (const auto& p : points) top = std::max(top, p.first * 1.05);
    auto y = [&](double v) { return height - 10 - (height - 20) * std::min(v, top) / top; };
    out << "<figure><svg width=\"" << width << "\" height=\"" << height << "\" role=\"img\"><rect width=\"" << width
        << "\" height=\"" << height << "\" fill=\"#fafafa\" stroke=\"#ddd\"/><line x1=\"0\" x2=\"" << width << "\" y1=\""
        << y(1) << "\" y2=\"" << y(1) << "\" stroke=\"#c62828\" stroke-dasharray=\"4 3\"/><text x=\"4\" y=\"" << y(1) - 3
        << "\" font-size=\"10\" fill=\"#c62828\">spec bound</text>";
    for (size_t i = 0; i < points.size(); ++i)
      out << "<circle cx=\"" << 6 + double(width - 12) * (points.size() > 1 ? double(i) / double(points.size() - 1) : 0.5)
          << "\" cy=\"" << y(points[i].first) << "\" r=\"2.5\" fill=\"" << colour_of(points[i].second) << "\"/>";
    out << "</svg><figcaption>" << xml_escape(family) << ": " << points.size() << " results, largest "
        << significant(points.empty() ? 0 : points.back().first, 3) << " of the bound</figcaption></figure>\n";
  }
  out << "</div></section>\n";
}

void environment_section(std::ostream& out, const RunRecord& run) {
  out << "<section id=\"environment\"><h2>Environment</h2>\n<table>\n";
  auto row = [&](const std::string& key, const std::string& value) {
    out << "<tr><th>" << xml_escape(key) << "</th><td>" << xml_escape(value) << "</td></tr>\n";
  };
  row("backend", run.environment.backend + (run.environment.emulated ? " (emulated)" : ""));
  if (const auto& d = run.environment.device) {
    row("GPU", d->name + " (sm_" + std::to_string(d->sm) + "), " + std::to_string(d->sm_count) + " SMs, uuid " + d->uuid);
    row("driver", d->driver_version + ", CUDA driver API " + std::to_string(d->driver_api_version));
    row("clocks", std::to_string(d->sm_clock_khz / 1000) + " MHz SM, " + std::to_string(d->memory_clock_khz / 1000) +
                      " MHz memory; ECC " + (d->ecc ? "on" : "off"));
    if (run.run.clocks) row("clock while running", describe_clocks(*run.run.clocks));
  }
  row("toolkit", run.environment.toolkit.empty() ? "none" : run.environment.toolkit);
  if (run.compile) row("ptxas", run.compile->ptxas_path + " (" + run.compile->ptxas_version + ")");
  row("command", run.run.command);
  row("host", run.run.host);
  row("mmasp", run.run.mmasp_version + " " + run.run.mmasp_commit + ", case streams " + run.run.case_streams);
  row("run", "started " + run.run.started + ", finished " + run.run.finished + ", seed " + std::to_string(run.run.seed) +
                 ", shard " + run.run.shard + (run.run.budget_seconds > 0 ? ", budget " + significant(run.run.budget_seconds) + " s" : ""));
  std::string phases;
  for (const auto& [phase, seconds] : run.run.phase_seconds) phases += (phases.empty() ? "" : ", ") + phase + " " + significant(seconds) + " s";
  if (!phases.empty()) row("time by phase", phases);
  out << "</table></section>\n";
  if (!run.findings.empty()) {
    out << "<section id=\"findings\"><h2>Findings</h2>\n<ul>\n";
    for (const auto& f : run.findings)
      out << "<li><b>" << xml_escape(f.id) << "</b> (" << xml_escape(f.kind) << "): " << xml_escape(f.title) << "</li>\n";
    out << "</ul></section>\n";
  }
  if (!run.layouts.empty() || !run.sass.empty() || !run.compile_paths.empty()) {
    int verified = 0, identical = 0, native = 0;
    for (const auto& l : run.layouts) verified += l.verified;
    for (const auto& p : run.compile_paths) identical += p.identical;
    for (const auto& s : run.sass) native += !s.error && s.native;
    out << "<section id=\"extras\"><h2>Layouts, SASS, compile paths</h2>\n<ul>\n<li>layout discovery: " << verified << " of "
        << run.layouts.size() << " pairs agree with the oracle's layout model in every probe</li>\n<li>SASS: " << native
        << " of " << run.sass.size() << " kernels are native sparse MMA</li>\n<li>compile paths: " << identical << " of "
        << run.compile_paths.size() << " pairs bit-identical between toolkit cubin and driver JIT</li>\n</ul></section>\n";
  }
}

}  // namespace

std::string html_report(const RunRecord& run, const DiffReport* diff) {
  std::ostringstream out;
  const bool failed = exit_code_for(run) != 0;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
         "content=\"width=device-width\"><title>mmasp "
      << (run.run.interrupted ? "INTERRUPTED" : failed ? "FAIL" : "no failures") << " — "
      << xml_escape(run.environment.device ? run.environment.device->name : std::string("emulator")) << "</title><style>"
      << kStyle << "</style></head><body>\n";
  verdict_section(out, run, diff);
  totals_section(out, run);
  attention_section(out, run, diff);
  matrix_section(out, run);
  plots_section(out, run);
  environment_section(out, run);
  out << "<script>" << kScript << "</script>\n</body></html>\n";
  return out.str();
}

}  // namespace mmasp
