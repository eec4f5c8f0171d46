#include "reports/diff.h"

#include "oracle/input_file.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "oracle/classification.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"
#include "reports/findings.h"

namespace mmasp {
namespace {

using nlohmann::json;

// A change between two statuses is worse when its severity grew, except between the statuses that judge nothing
// (NotSupported, UB-not-judged, Waived): moving among them says nothing about conformance.
bool got_worse(Status before, Status after) {
  auto unjudged = [](Status s) { return is_skipped(s) || s == Status::waived; };
  if (unjudged(before) && unjudged(after)) return false;
  return severity(after) > severity(before);
}

std::string device_of(const RunRecord& run) {
  if (run.environment.emulated || !run.environment.device) return "emulator";
  return run.environment.device->name;
}

std::string driver_of(const RunRecord& run) {
  return run.environment.device ? run.environment.device->driver_version : "none";
}

}  // namespace

std::vector<Waiver> load_waivers(const std::filesystem::path& path) {
  return parse_waivers(read_input_file(path, kMaxSmallJsonBytes, "a waivers file"), path.string());
}

std::vector<Waiver> parse_waivers(const std::string& text, const std::string& source) {
  const std::filesystem::path path = source;
  json root;
  try {
    root = parse_json_input(text, path.string());
  } catch (const InputFileError& error) {
    throw std::runtime_error(error.what());
  }
  if (!root.is_object() || root.value("schema", json()) != "mmasp-waivers/1")
    throw std::runtime_error(path.string() + ": /schema must be \"mmasp-waivers/1\"");
  for (const auto& [key, value] : root.items())
    if (key != "schema" && key != "waivers")
      throw std::runtime_error(path.string() + ": /" + key + ": unknown key (known: schema, waivers)");
  if (root.contains("waivers") && !root["waivers"].is_array())
    throw std::runtime_error(path.string() + ": /waivers: an array is expected");
  std::vector<Waiver> waivers;
  const json list = root.value("waivers", json::array());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = path.string() + ": /waivers/" + std::to_string(i);
    const json& entry = list[i];
    if (!entry.is_object()) throw std::runtime_error(at + ": an object is expected");
    Waiver w;
    const std::map<std::string, std::string*> fields = {{"device", &w.device}, {"driver", &w.driver}, {"form", &w.form},
                                                        {"reason", &w.reason}, {"link", &w.link}};
    for (const auto& [key, value] : entry.items()) {
      auto field = fields.find(key);
      if (field == fields.end())
        throw std::runtime_error(at + "/" + key + ": unknown key (known: device, driver, form, reason, link)");
      if (!value.is_string()) throw std::runtime_error(at + "/" + key + ": a string is expected, not " + value.type_name());
      *field->second = value.get<std::string>();
    }
    if (!entry.contains("form"))
      throw std::runtime_error(at + "/form: missing (a waiver names the results it waives: a glob over result ids such as "
                               "\"mma.sp*m16n8k32*bf16* sel=0 random\")");
    for (const auto& [key, glob] : {std::pair{"device", &w.device}, std::pair{"driver", &w.driver}, std::pair{"form", &w.form}})
      if (const std::string problem = glob_problem(*glob); !problem.empty())
        throw std::runtime_error(at + "/" + key + ": " + problem);
    // A form glob that every form of the catalog matches waives everything: it names nothing.
    bool every_form = true;
    for (const Form& form : instruction_space()) {
      bool matched = false;
      for (const char* kind : {" random", " special", " ub", " compile sm_90a", " sass toolkit"})
        matched |= glob_match(w.form, form.opcode + " sel=0" + kind);
      every_form &= matched;
    }
    if (every_form)
      throw std::runtime_error(at + "/form: the glob '" + printable(w.form) + "' matches every form: a waiver names the "
                               "forms it waives");
    // A reason of blanks or zero-width characters says nothing: a waiver must say why the regression is accepted.
    if (!has_visible_text(w.reason))
      throw std::runtime_error(at + "/reason: every waiver needs a reason with visible text (" +
                               (w.reason.empty() ? "missing" : "it has none") + ")");
    waivers.push_back(w);
  }
  return waivers;
}

namespace {

void compare_cases(const RunRecord& baseline, const RunRecord& run, DiffReport& report) {
  const uint64_t seed_then = baseline.run.seed, seed_now = run.run.seed;
  const std::string& streams_then = baseline.run.case_streams;
  const std::string& streams_now = run.run.case_streams;
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

std::string failure_detail(const ResultRecord& now) {
  if (now.failure) return now.failure->reason + " " + now.failure->repro;
  // A Deviation: inside the spec bound, not the verified model's bits.
  if (now.model && now.model->deviation) {
    const DeviationRecord& d = *now.model->deviation;
    return "differs from the bit-exact model: D" + d.element.str() + " observed " + hex_code(d.observed) +
           ", model " + hex_code(d.model) + " " + d.repro;
  }
  return now.note;
}

std::string joined(const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + " " + b; }

// The first chunk of cases whose digest differs, among the complete chunks both results have; -1 when they agree.
long first_differing_chunk(const DigestRecord& a, const DigestRecord& b) {
  const size_t common = std::min(a.chunks.size(), b.chunks.size());
  for (size_t c = 0; c < common; ++c)
    if (a.chunks[c] != b.chunks[c]) return long(c);
  return -1;
}

template <typename Add>
void compare_bits(const ResultRecord& then, const ResultRecord& now, BitsMode bits, Add&& add) {
  if (bits == BitsMode::off || !then.digest || !now.digest || then.digest->chunk_cases != now.digest->chunk_cases) return;
  const DigestRecord &a = *then.digest, &b = *now.digest;
  const long chunk = first_differing_chunk(a, b);
  const bool whole = a.cases == b.cases && a.all != b.all;
  if (chunk < 0 && !whole) return;
  std::string where;
  if (chunk >= 0) {
    const uint64_t first = uint64_t(chunk) * a.chunk_cases;
    where = "first in cases " + std::to_string(first) + "–" + std::to_string(first + a.chunk_cases - 1) + " (chunk " +
            std::to_string(chunk) + ")";
  } else if (std::min(a.chunks.size(), b.chunks.size()) == 0) {
    where = "among its " + std::to_string(b.cases) + " cases (fewer than one chunk of " + std::to_string(a.chunk_cases) + ")";
  } else {
    where = "after case " + std::to_string(std::min(a.chunks.size(), b.chunks.size()) * a.chunk_cases - 1) +
            " (beyond the chunks recorded)";
  }
  add({Change::bits_changed, then.id, a.all, b.all,
       "D changed bit for bit on the same cases, " + where + (bits == BitsMode::warn ? " (--bits warn)" : ""),
       bits == BitsMode::strict});
}

// The forms a run of one shard (--shard i/n, n > 1) leaves out by design: the split is by form, in catalog order, over
// the forms the run selected (run/nightly.cpp), which a whole baseline of the same selection lists. Nothing is explained
// for a whole run, a merge of some shards, or a baseline that is itself a part.
std::set<std::string> forms_of_other_shards(const RunRecord& baseline, const RunRecord& run) {
  const std::optional<Shard> shard = shard_named(run.run.shard);
  if (!shard || shard->count < 2) return {};
  const auto [index, count] = *shard;
  if (baseline.run.shard != "1/1" && !baseline.run.shard.empty()) return {};
  std::map<size_t, std::string> ordered;   // catalog position -> opcode
  const auto& forms = instruction_space();
  for (const auto& result : baseline.results) {
    size_t position = forms.size();
    for (size_t f = 0; f < forms.size(); ++f)
      if (forms[f].opcode == result.form) position = f;
    if (position < forms.size()) ordered.emplace(position, result.form);
  }
  std::set<std::string> others;
  size_t k = 0;
  for (const auto& [position, opcode] : ordered)
    if (int(k++ % size_t(count)) != index - 1) others.insert(opcode);
  return others;
}

template <typename Add>
void compare_results(const RunRecord& baseline, const RunRecord& run, bool different_cases, BitsMode bits, Add&& add) {
  std::map<std::string, const ResultRecord*> before, after;
  for (const auto& r : baseline.results) before[r.id] = &r;
  for (const auto& r : run.results) after[r.id] = &r;
  for (const auto& [id, now] : after) {
    auto it = before.find(id);
    if (it == before.end()) {
      add({Change::added, id, "", std::string(name(now->status)), "not in the baseline", is_failure(now->status)});
      continue;
    }
    const ResultRecord& then = *it->second;
    compare_bits(then, *now, bits, add);
    const std::string old_status(name(then.status)), status(name(now->status));
    // Same streams but another number of cases (a --budget run, or another --cases) is a prefix or an extension of
    // the other run's cases: also sampling.
    const bool sampling = different_cases || then.cases != now->cases;
    const std::string why_sampling =
        different_cases ? "(different cases)" : "(" + std::to_string(then.cases) + " vs " + std::to_string(now->cases) + " cases)";
    if (then.status != now->status) {
      if (is_failure(now->status) && !is_failure(then.status)) {
        add({Change::new_failure, id, old_status, status, failure_detail(*now), true});
      } else if (is_failure(then.status) && !is_failure(now->status)) {
        add({Change::fixed, id, old_status, status, "", false});
      } else {
        // Between two statuses that are not failures (Pass, QualityWarning, NotSupported, ...), or two failures: a
        // regression only when the cases were the same.
        const bool worse = got_worse(then.status, now->status);
        add({Change::status_change, id, old_status, status, joined(now->note, sampling && worse ? why_sampling : ""), worse && !sampling});
      }
    }
    // Numeric drift: the worst error grew beyond twice the baseline's and beyond one ulp.
    const double old_error = then.max_error_ulps, new_error = now->max_error_ulps;
    if (new_error > 1 && new_error > 2 * old_error)
      add({Change::numeric_drift, id, significant(old_error) + " ulp", significant(new_error) + " ulp",
           joined("max error grew", sampling ? why_sampling : ""), !sampling});
    else if (old_error > 1 && old_error > 2 * new_error)
      add({Change::numeric_drift, id, significant(old_error) + " ulp", significant(new_error) + " ulp", "max error shrank", false});
    // The same against the spec bound: a float result that moved much closer to failing.
    const double old_bound = then.max_error_vs_bound, new_bound = now->max_error_vs_bound;
    if (new_bound > 0.1 && new_bound > 2 * old_bound)
      add({Change::numeric_drift, id, significant(old_bound) + " of the bound", significant(new_bound) + " of the bound",
           joined("max error relative to the spec bound grew", sampling ? why_sampling : ""), !sampling});
  }
  // Fault coverage, of each path: the pair's stream detects fewer faults than the baseline's did, or was not measured
  // this time.
  const auto text = [](const PairCoverageRecord& c) {
    return std::to_string(c.detected) + " of " + std::to_string(c.detectable) + " faults";
  };
  for (const auto& [id, then] : before) {
    const auto it = after.find(id);
    if (it == after.end()) continue;
    const ResultRecord* now = it->second;
    for (const auto& [path, member] : {std::pair{"", &ResultRecord::coverage},
                                       std::pair{" (resident kernel)", &ResultRecord::resident_coverage}}) {
      const auto& old_coverage = then->*member;
      const auto& new_coverage = now->*member;
      if (!old_coverage) continue;
      if (!new_coverage)
        add({Change::missing_check, id + " coverage" + path, text(*old_coverage), "not computed",
             "the baseline measured this pair's fault coverage (mmasp run --coverage)", true, false});
      else if (new_coverage->detected * std::max<uint64_t>(old_coverage->detectable, 1) <
               old_coverage->detected * std::max<uint64_t>(new_coverage->detectable, 1))
        add({Change::coverage_drop, id + path, text(*old_coverage), text(*new_coverage),
             "the stream detects a smaller share of the datapath's faults" +
                 (new_coverage->not_detected.empty() ? std::string() : "; not detected: " + new_coverage->not_detected.front()),
             true});
    }
  }
  // A result the run does not have was not checked: a regression (a gate must not pass on what it never ran), unless
  // the run is one shard of a split and the result belongs to another shard, or the baseline's result judged nothing
  // either (NotSupported, UB-not-judged: a run without --ub has no UB suite).
  const std::set<std::string> other_shards = forms_of_other_shards(baseline, run);
  for (const auto& [id, then] : before) {
    if (after.count(id)) continue;
    const bool other_shard = other_shards.count(then->form) > 0, unjudged = is_skipped(then->status);
    add({Change::missing, id, std::string(name(then->status)), "",
         other_shard ? "in the baseline; in another shard than this run's " + run.run.shard
         : unjudged  ? "in the baseline, not in this run (it judged nothing there either)"
                     : "in the baseline, not in this run: not checked",
         !other_shard && !unjudged});
  }
}

std::string compile_key(const CompileMatrixRow& row, const std::string& target) {
  return row.form + " sel=" + std::to_string(row.selector) + " compile " + target;
}

std::string sass_key(const SassRecord& s) { return s.form + " sel=" + std::to_string(s.selector) + " sass " + s.path; }

std::string list_text(const std::vector<std::string>& items) { return json(items).dump(); }

}  // namespace

std::optional<BitsMode> bits_mode_named(std::string_view text) {
  if (text == "strict") return BitsMode::strict;
  if (text == "warn") return BitsMode::warn;
  if (text == "off") return BitsMode::off;
  return std::nullopt;
}

std::string_view name(Change change) {
  switch (change) {
    case Change::new_failure: return "new failure";
    case Change::fixed: return "fixed";
    case Change::status_change: return "status change";
    case Change::numeric_drift: return "numeric drift";
    case Change::coverage_drop: return "coverage drop";
    case Change::bits_changed: return "bits changed";
    case Change::compile_change: return "compile change";
    case Change::sass_change: return "sass change";
    case Change::missing: return "missing";
    case Change::missing_check: return "missing check";
    case Change::added: return "new";
    case Change::no_results: return "no results";
    case Change::interrupted: return "interrupted";
  }
  return "?";
}

std::string_view name(Difference difference) {
  switch (difference) {
    case Difference::backend: return "backend";
    case Difference::architecture: return "architecture";
    case Difference::case_streams: return "cases";
  }
  return "backend";
}

std::optional<Difference> difference_named(std::string_view text) {
  for (Difference d : {Difference::backend, Difference::architecture, Difference::case_streams})
    if (name(d) == text) return d;
  return std::nullopt;
}

std::vector<Incomparable> incomparable(const RunRecord& baseline, const RunRecord& run, const std::vector<Difference>& allowed) {
  const auto where = [](const RunRecord& r) {
    return r.environment.emulated || !r.environment.device ? std::string("the CPU emulator")
                                                           : r.environment.device->name + " (a GPU)";
  };
  const auto is_allowed = [&](Difference d) { return std::find(allowed.begin(), allowed.end(), d) != allowed.end(); };
  std::vector<Incomparable> out;
  const bool emulated_then = baseline.environment.emulated || !baseline.environment.device;
  const bool emulated_now = run.environment.emulated || !run.environment.device;
  if (emulated_then != emulated_now)
    out.push_back({Difference::backend, "the baseline ran on " + where(baseline) + ", this run on " + where(run),
                   is_allowed(Difference::backend)});
  else if (!emulated_now && baseline.environment.device->sm != run.environment.device->sm)
    out.push_back({Difference::architecture,
                   "the baseline ran on sm_" + std::to_string(baseline.environment.device->sm) + " (" +
                       baseline.environment.device->name + "), this run on sm_" + std::to_string(run.environment.device->sm) +
                       " (" + run.environment.device->name + ")",
                   is_allowed(Difference::architecture)});
  if (!baseline.run.case_streams.empty() && !run.run.case_streams.empty() && baseline.run.case_streams != run.run.case_streams)
    out.push_back({Difference::case_streams,
                   "the generators changed between the runs (case streams " + baseline.run.case_streams + " vs " +
                       run.run.case_streams + "): no case is the same; remake the baseline with this mmasp",
                   is_allowed(Difference::case_streams)});
  return out;
}

namespace {

// The checks besides the results that a baseline made and a run must make again: compile conformance (every target,
// every row of the matrix that ran) and the layout probes. A night that lost its ptxas, ran one target or skipped the
// probes has checked less, and says nothing about what it skipped.
template <typename Add>
void compare_checks(const RunRecord& baseline, const RunRecord& run, const std::set<std::string>& compiled_now, Add&& add) {
  const std::set<std::string> other_shards = forms_of_other_shards(baseline, run);
  if (baseline.compile && baseline.compile->cases > 0) {
    if (!run.compile || run.compile->cases == 0) {
      add({Change::missing_check, "compile conformance", std::to_string(baseline.compile->cases) + " checks", "not run",
           "the baseline ran compile conformance; this run did not (--no-compile, or no ptxas)", true});
      return;
    }
    for (const auto& target : baseline.compile->targets)
      if (std::find(run.compile->targets.begin(), run.compile->targets.end(), target) == run.compile->targets.end())
        add({Change::missing_check, "compile " + target, "checked", "not checked",
             "a target of the baseline's compile conformance that this run did not check", true});
    uint64_t rows_missing = 0;
    std::string first;
    for (const auto& row : baseline.compile->matrix)
      for (const auto& [target, cell] : row.cells) {
        if (cell.observed == Observed::not_run) continue;
        if (std::find(run.compile->targets.begin(), run.compile->targets.end(), target) == run.compile->targets.end()) continue;
        const std::string key = compile_key(row, target);
        if (compiled_now.count(key)) continue;
        if (!rows_missing++) first = key;
      }
    if (rows_missing)
      add({Change::missing_check, "compile matrix", "checked", std::to_string(rows_missing) + " cells not checked",
           "compile cells of the baseline this run did not check, the first " + first, true});
  }
  std::map<std::string, const LayoutRecord*> probed_now;
  for (const auto& layout : run.layouts) probed_now[layout.form + " sel=" + std::to_string(layout.selector)] = &layout;
  uint64_t layouts_missing = 0;
  std::string first_layout;
  for (const auto& layout : baseline.layouts) {
    const std::string key = layout.form + " sel=" + std::to_string(layout.selector);
    if (!layout.verified || probed_now.count(key) || other_shards.count(layout.form)) continue;
    if (!layouts_missing++) first_layout = key;
  }
  if (layouts_missing)
    add({Change::missing_check, "layout probes", std::to_string(baseline.layouts.size()) + " pairs probed",
         std::to_string(layouts_missing) + " not probed",
         "layout probes of the baseline this run did not make (--budget runs and --layouts off skip them), the first " +
             first_layout,
         true});
}

}  // namespace

std::string baseline_problem(const RunRecord& baseline) {
  if (baseline.results.empty()) return "it has no results";
  if (const auto& i = baseline.run.interrupted)
    return "it was interrupted (by " + i->signal_name + " after " + std::to_string(i->pairs_done) + " of " +
           std::to_string(i->pairs) + " pairs)";
  return "";
}

DiffReport diff_runs(const RunRecord& baseline, const RunRecord& run, const std::vector<Waiver>& waivers, BitsMode bits,
                     const std::vector<Difference>& allowed) {
  DiffReport report;
  report.incomparable = incomparable(baseline, run, allowed);
  if (report.refused()) return report;
  compare_cases(baseline, run, report);
  const std::string device = device_of(run), driver = driver_of(run);
  auto add = [&](DiffEntry entry) {
    if (entry.kind == Change::no_results || entry.kind == Change::interrupted || entry.kind == Change::missing ||
        entry.kind == Change::missing_check)
      entry.waivable = false;
    if (entry.regression && entry.waivable)
      for (const auto& w : waivers)
        if (glob_match(w.device, device) && glob_match(w.driver, driver) && glob_match(w.form, entry.id)) {
          entry.waived_by = &w;
          break;
        }
    if (entry.regression) (entry.waived_by ? report.waived : report.regressions)++;
    report.entries.push_back(std::move(entry));
  };
  // A run that judged nothing cannot be clean, whatever the baseline held.
  if (run.results.empty())
    add({Change::no_results, "run", std::to_string(baseline.results.size()) + " results", "0 results",
         "the run has no results at all (interrupted, or a filter that matched nothing?)", true});
  if (const auto& i = run.run.interrupted)
    add({Change::interrupted, "run", "complete",
         "interrupted by " + i->signal_name + " after " + std::to_string(i->pairs_done) + " of " + std::to_string(i->pairs) + " pairs",
         "an incomplete run is never clean: `mmasp run --resume` finishes it", true});
  // Bits are compared only where the cases are known to be the same (equal seed and case streams).
  compare_results(baseline, run, report.same_cases == SameCases::no, report.same_cases == SameCases::yes ? bits : BitsMode::off, add);

  // Compile matrix: accept/reject per form, selector and target.
  std::map<std::string, Observed> observed_before;
  if (baseline.compile)
    for (const auto& row : baseline.compile->matrix)
      for (const auto& [target, cell] : row.cells) observed_before[compile_key(row, target)] = cell.observed;
  std::set<std::string> compiled_now;
  if (run.compile)
    for (const auto& row : run.compile->matrix)
      for (const auto& [target, cell] : row.cells) {
        const std::string key = compile_key(row, target);
        if (cell.observed != Observed::not_run) compiled_now.insert(key);
        auto it = observed_before.find(key);
        if (it == observed_before.end() || it->second == cell.observed) continue;
        const bool now_disagrees = !cell.agrees() && cell.observed != Observed::not_run;
        add({Change::compile_change, key, std::string(name(it->second)), std::string(name(cell.observed)),
             now_disagrees ? "now disagrees with the catalog" : "now agrees with the catalog", now_disagrees});
      }
  compare_checks(baseline, run, compiled_now, add);

  // SASS lowering per form, selector and compile path.
  std::map<std::string, const SassRecord*> sass_before;
  for (const auto& s : baseline.sass) sass_before[sass_key(s)] = &s;
  for (const auto& s : run.sass) {
    auto it = sass_before.find(sass_key(s));
    if (it != sass_before.end() && !s.error && !it->second->error && it->second->mma != s.mma)
      add({Change::sass_change, sass_key(s), list_text(it->second->mma), list_text(s.mma), "lowering changed", false});
  }
  return report;
}

std::string format_diff(const DiffReport& report, const RunRecord& baseline, const RunRecord& run) {
  std::ostringstream out;
  auto describe = [](const RunRecord& r) {
    if (r.environment.emulated || !r.environment.device) return std::string("emulator");
    return r.environment.device->name + ", driver " + r.environment.device->driver_version + ", " + r.environment.toolkit;
  };
  auto commit_of = [](const RunRecord& r) { return r.run.mmasp_commit.empty() ? std::string("unknown") : r.run.mmasp_commit; };
  out << "baseline: " << baseline.run.started << " (" << describe(baseline) << ")\n";
  out << "run:      " << run.run.started << " (" << describe(run) << ")\n";
  for (const auto& i : report.incomparable)
    out << (i.allowed ? "compared although " : "NOT COMPARABLE: ") << i.detail
        << (i.allowed ? " (--allow-different " + std::string(name(i.what)) + ")" : "") << "\n";
  if (report.refused()) {
    std::string flags;
    for (const auto& i : report.incomparable)
      if (!i.allowed) flags += (flags.empty() ? "" : ",") + std::string(name(i.what));
    out << "not compared: a diff across these differences would say nothing about a regression. Give "
        << "--allow-different " << flags << " to compare anyway.\n";
    return out.str();
  }
  out << "cases:    " << report.cases_detail << "\n";
  if (commit_of(baseline) != commit_of(run))
    out << "note: the runs were made by different mmasp commits (" << commit_of(baseline) << " vs " << commit_of(run) << ")\n";
  if (report.entries.empty()) out << "no changes\n";
  for (const auto& e : report.entries) {
    out << (e.regression ? (e.waived_by ? "WAIVED     " : "REGRESSION ") : "           ") << name(e.kind) << ": " << e.id;
    if (!e.before.empty() || !e.after.empty()) out << " [" << e.before << " -> " << e.after << "]";
    if (!e.detail.empty()) out << " " << e.detail;
    if (e.waived_by) out << " (waiver: " << e.waived_by->reason << (e.waived_by->link.empty() ? "" : ", " + e.waived_by->link) << ")";
    out << "\n";
  }
  out << report.regressions << " regression(s), " << report.waived << " waived, " << report.entries.size() << " change(s)\n";
  return out.str();
}

bool identical_runs(const RunRecord& a, const RunRecord& b, std::ostream& out) {
  const nlohmann::json left = without_volatile_fields(to_json(a)), right = without_volatile_fields(to_json(b));
  const nlohmann::json patch = nlohmann::json::diff(left, right);
  if (patch.empty()) {
    out << "identical: " << a.results.size() << " results, equal in everything but time, host and command line\n";
    return true;
  }
  out << patch.size() << " difference" << (patch.size() == 1 ? "" : "s") << ":\n";
  for (size_t i = 0; i < patch.size() && i < 10; ++i) {
    const std::string at = patch[i]["path"].get<std::string>();
    const nlohmann::json::json_pointer pointer(at);
    const auto shown = [](const nlohmann::json& value) {
      const std::string text = value.dump();
      return text.size() > 120 ? text.substr(0, 117) + "..." : text;
    };
    const std::string op = patch[i]["op"].get<std::string>();
    const std::string before = op == "add" ? "absent" : left.contains(pointer) ? shown(left[pointer]) : "?";
    const std::string after = op == "remove" ? "absent" : shown(patch[i]["value"]);
    out << "  " << at << ": " << before << " -> " << after << "\n";
  }
  return false;
}

}  // namespace mmasp
