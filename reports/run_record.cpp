#include "reports/run_record.h"

#include <concepts>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <type_traits>

#include "judge/suites.h"
#include "harness/layout_discovery.h"
#include "harness/sass.h"
#include "oracle/input_file.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"
#include "reports/device_fields.h"
#include "reports/record_fields.h"

namespace mmasp {

using nlohmann::json;
using record_fields::Presence;

// run.json is declared once per type (reports/record_fields.h): fields(v, record) below names every member with its
// key and its presence. What reading must check beyond types (counts that add up, digests that are hex) is in
// validate().

// The enums run.json holds, with the parser of the names the serialiser writes and what a refusal says.
template <> struct record_fields::EnumNames<Status> {
  static std::optional<Status> parse(std::string_view text) { return status_named(text); }
  static std::string refusal(const std::string& spelled) { return "unknown status \"" + printable(spelled) + "\""; }
};
template <> struct record_fields::EnumNames<Suite> {
  static std::optional<Suite> parse(std::string_view text) { return suite_named(text); }
  static std::string refusal(const std::string& spelled) {
    return "random, special or ub is expected, not \"" + printable(spelled) + "\"";
  }
};
template <> struct record_fields::EnumNames<Expected> {
  static std::optional<Expected> parse(std::string_view text) { return expected_named(text); }
  static std::string refusal(const std::string& spelled) { return "accept or reject is expected, not \"" + printable(spelled) + "\""; }
};
template <> struct record_fields::EnumNames<Observed> {
  static std::optional<Observed> parse(std::string_view text) { return observed_named(text); }
  static std::string refusal(const std::string& spelled) {
    return "accept, reject or not_run is expected, not \"" + printable(spelled) + "\"";
  }
};

// run.json's [row, column] of an element.
template <> struct record_fields::Codec<ElementAt> {
  static json encode(const ElementAt& e) { return json::array({e.row, e.col}); }
  static const char* decode(const json& v, ElementAt& e) {
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer()) return "[row, column]";
    e = {v[0].get<int>(), v[1].get<int>()};
    return nullptr;
  }
};

// Every record's fields (in namespace mmasp, where the visitors find them by argument-dependent lookup).
template <typename V> void fields(V& v, Interruption& i);
template <typename V> void fields(V& v, RunInfo& i);
template <typename V> void fields(V& v, EnvironmentRecord& e);
template <typename V> void fields(V& v, CompileCell& c);
template <typename V> void fields(V& v, CompileMatrixRow& row);
template <typename V> void fields(V& v, CompileDisagreement& d);
template <typename V> void fields(V& v, CompileTargetCounts& n);
template <typename V> void fields(V& v, FailureRecord& f);
template <typename V> void fields(V& v, ClosestToBound& c);
template <typename V> void fields(V& v, DeviationRecord& d);
template <typename V> void fields(V& v, ModelTierRecord& m);
template <typename V> void fields(V& v, IntermittentRecord& i);
template <typename V> void fields(V& v, DigestRecord& d);
template <typename V> void fields(V& v, ResidentRecord& g);
template <typename V> void fields(V& v, PlannedShare& p);
template <typename V> void fields(V& v, PairCoverageRecord& c);
template <typename V> void fields(V& v, UbObservation& u);
template <typename V> void fields(V& v, ResultRecord& r);
template <typename V> void fields(V& v, LayoutOperandRecord& o);
template <typename V> void fields(V& v, LayoutRecord& l);
template <typename V> void fields(V& v, SassRecord& s);
template <typename V> void fields(V& v, CompilePathComparison& p);
template <typename V> void fields(V& v, FindingRef& f);
template <typename V> void fields(V& v, RunRecord& r);
// A compile record is two objects in run.json: "compile" (the summary) and "compile_matrix".
template <typename V> void compile_summary_fields(V& v, CompileRecord& c);
template <typename V> void compile_matrix_fields(V& v, CompileRecord& c);

namespace {
using FieldWriter = record_fields::FieldWriter;
using FieldReader = record_fields::FieldReader<RunRecordError>;
}  // namespace

// The declarations. Keys are run.json's (docs/run-report.md); a field's order here is the order of its struct.
using enum record_fields::Presence;

template <typename V> void fields(V& v, Interruption& i) {
  v("signal", i.signal, required);
  v("signal_name", i.signal_name);
  v("pairs_done", i.pairs_done);
  v("pairs", i.pairs);
  v.check([&] { return std::tuple{i.signal >= 1 && i.signal <= 64, "signal", "a signal number from 1 to 64 is expected"}; });
}

template <typename V> void fields(V& v, RunInfo& i) {
  v("started", i.started);
  v("finished", i.finished);
  v("host", i.host);
  v("command", i.command);
  v("seed", i.seed);
  v.object("mmasp", [&](auto& mmasp) {
    mmasp("version", i.mmasp_version);
    mmasp("commit", i.mmasp_commit);
  });
  v("case_streams", i.case_streams);
  v("shard", i.shard);
  v("budget_seconds", i.budget_seconds);
  v("ub", i.ub);
  v("notes", i.notes);
  v("model_tier", i.model_tier);
  v("model_source", i.model_source, unless_empty);
  v("seconds", i.seconds);
  v("phase_seconds", i.phase_seconds);
  v("clocks", i.clocks);
  v("interrupted", i.interrupted);
  v("resumed", i.resumed, unless_empty);
  v("identity", i.identity, unless_empty);
}

template <typename V> void fields(V& v, EnvironmentRecord& e) {
  v("backend", e.backend);
  v("emulated", e.emulated);
  v("device", e.device);
  v("toolkit", e.toolkit);
  v("compile_paths", e.compile_paths);
}

template <typename V> void fields(V& v, CompileCell& c) {
  v("expected", c.expected, required);
  v("observed", c.observed, required);
  v("ptx_version", c.ptx_version);
}

template <typename V> void fields(V& v, CompileMatrixRow& row) {
  v("form", row.form, required);
  v("selector", row.selector);
  v("cells", row.cells);
}

template <typename V> void fields(V& v, CompileDisagreement& d) {
  v("id", d.id, required);
  v("target", d.target);
  v("expected", d.expected, required);
  v("observed", d.observed, required);
  v("why", d.why);
  v("diagnostic", d.diagnostic);
  v("finding", d.finding, null_when_empty);
}

template <typename V> void fields(V& v, CompileTargetCounts& n) {
  v("cases", n.cases);
  v("agree", n.agree);
  v("documented_disagreements", n.documented);
  v("new_disagreements", n.new_disagreements);
  v("not_run", n.not_run);
}

template <typename V> void compile_summary_fields(V& v, CompileRecord& c) {
  v("cases", c.cases);
  v("agree", c.agree);
  v("documented_disagreements", c.documented_disagreements);
  v("new_disagreements", c.new_disagreements);
  v("not_run", c.not_run);
  v("cache_hits", c.cache_hits);
  // Written together since the records gained them; a record read from an older run.json has neither, and writes
  // back as it was.
  v("by_target", c.by_target, unless_empty);
  v("disagreements", c.disagreements, always, !c.by_target.empty());
  v("seconds", c.seconds);
  v.object("ptxas", [&](auto& ptxas) {
    ptxas("path", c.ptxas_path);
    ptxas("version", c.ptxas_version);
    ptxas("max_ptx", c.ptxas_max_ptx, null_when_empty);
  });
  v("exit", c.exit);
}

template <typename V> void compile_matrix_fields(V& v, CompileRecord& c) {
  v("targets", c.targets);
  v("matrix", c.matrix);
}

template <typename V> void fields(V& v, FailureRecord& f) {
  v("case", f.case_name);
  v("repro", f.repro);
  v("reason", f.reason);
  v("element", f.element);
  v("expected", f.expected);
  v("observed", f.observed);
  v("shrink_attempts", f.shrink_attempts);
}

template <typename V> void fields(V& v, ClosestToBound& c) {
  v("repro", c.repro);
  v("reason", c.reason);
  v("element", c.element);
  v("error_ulps", c.error_ulps);
}

template <typename V> void fields(V& v, DeviationRecord& d) {
  v("case", d.case_name);
  v("repro", d.repro);
  v("element", d.element);
  v("observed", d.observed);
  v("model", d.model);
  v("differing_bits", d.differing_bits);
  v("deviating_elements", d.deviating_elements);
  v("shrink_attempts", d.shrink_attempts);
  v("spec_status", d.spec_status, required);
}

template <typename V> void fields(V& v, ModelTierRecord& m) {
  v("tier", m.tier);
  v("model_judged", m.model_judged);
  v("reference_judged", m.reference_judged);
  v("deviations", m.deviations);
  v("model_mismatches", m.model_mismatches);
  v("deviation", m.deviation);
}

template <typename V> void fields(V& v, IntermittentRecord& i) {
  v("case", i.case_name);
  v("repro", i.repro);
  v("element", i.element);
  v("first", i.first);
  v("replay", i.replay);
  v("differing_elements", i.differing_elements);
  v("cases", i.cases);
  v("replayed", i.replayed);
}

namespace {
bool hex16(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}
}  // namespace

template <typename V> void fields(V& v, DigestRecord& d) {
  v("cases", d.cases);
  v("chunk_cases", d.chunk_cases);
  v("all", d.all, required);
  v("chunks", d.chunks);
  v.check([&] { return std::tuple{hex16(d.all), "all", "16 lower-case hex digits are expected"}; });
  for (size_t c = 0; c < d.chunks.size(); ++c)
    v.check([&] { return std::tuple{hex16(d.chunks[c]), "chunks/" + std::to_string(c), "16 lower-case hex digits are expected"}; });
}

template <typename V> void fields(V& v, ResidentRecord& g) {
  v("host_sample", g.host_sample);
  v("first_index", g.first_index);
  v("generated", g.generated);
  v("checked", g.checked);
  v("deviating", g.deviating);
  v("recorded", g.recorded);
  v("overflowed", g.overflowed);
  v("replayed", g.replayed);
  v("seconds", g.seconds);
  v("host_seconds", g.host_seconds, Presence::unless_empty);
  v("kernel", g.kernel, Presence::unless_empty);
  // Nothing lost: every case drawn was judged, every deviating case was recorded or counted as overflowed, and the
  // host replayed none that was not recorded.
  v.check([&] { return std::tuple{g.generated == g.checked, "checked", "a count equal to generated is expected"}; });
  v.check([&] { return std::tuple{g.recorded + g.overflowed == g.deviating, "deviating", "a count equal to recorded + overflowed is expected"}; });
  v.check([&] { return std::tuple{g.replayed <= g.recorded, "replayed", "a count no larger than recorded is expected"}; });
}

template <typename V> void fields(V& v, PlannedShare& p) {
  v("weight", p.weight);
  v("share", p.share);
  v("seconds", p.seconds);
  v.check([&] { return std::tuple{p.weight >= 0, "weight", "a weight of at least 0 is expected"}; });
  v.check([&] { return std::tuple{p.share >= 0 && p.share <= 1, "share", "a share from 0 to 1 is expected"}; });
  v.check([&] { return std::tuple{p.seconds >= 0, "seconds", "seconds of at least 0 are expected"}; });
}

template <typename V> void fields(V& v, PairCoverageRecord& c) {
  v("faults", c.faults);
  v("detectable", c.detectable);
  v("detected", c.detected);
  v("percent", c.percent);
  v("cases", c.cases);
  v("stream", c.stream);
  v("summary", c.summary);
  v("not_detected", c.not_detected);
  v("undetectable", c.undetectable);
  v("transients", c.transients);
  v("transients_changed", c.transients_changed);
  v.check([&] { return std::tuple{c.detected <= c.detectable && c.detectable <= c.faults, "detected",
                                  "detected <= detectable <= faults is expected"}; });
  v.check([&] { return std::tuple{c.percent >= 0 && c.percent <= 100, "percent", "a percentage is expected"}; });
}

template <typename V> void fields(V& v, UbObservation& u) {
  v("cases", u.cases);
  v("like_sp", u.like_sp);
}

template <typename V> void fields(V& v, ResultRecord& r) {
  v("id", r.id, required);
  v("form", r.form, required);
  v("family", r.family);
  v("selector", r.selector, required);
  v("suite", r.suite, required);
  v("status", r.status, required);
  v("backend", r.backend);
  v("emulated", r.emulated);
  v("cases", r.cases);
  v("passed", r.passed);
  v("quality_warnings", r.quality_warnings);
  v("failed", r.failed);
  v("not_judged", r.not_judged);
  v("max_error_ulps", r.max_error_ulps);
  v("max_error_vs_bound", r.max_error_vs_bound);
  v("error_histogram_ulps", r.error_histogram_ulps);
  v("seconds", r.seconds);
  v("seed", r.seed);
  v("note", r.note, unless_empty);
  v("failing_special_cases", r.failing_special_cases, unless_empty);
  v("special_cases", r.special_cases, unless_empty);
  v("ub_unordered_like_sp", r.ub_unordered_like_sp);
  v("out_of_range_selectors", r.out_of_range_selectors, unless_empty);
  v("closest_to_bound", r.closest_to_bound);
  v("model", r.model);
  v("failure", r.failure);
  v("intermittent", r.intermittent);
  v("digest", r.digest);
  v("resident", r.resident);
  v("planned", r.planned);
  v("coverage", r.coverage);
  v("resident_coverage", r.resident_coverage);
}

template <typename V> void fields(V& v, LayoutOperandRecord& o) {
  v("operand", o.operand);
  v("probes", o.probes);
  v("matched", o.matched);
  v("mismatches", o.mismatches);
}

template <typename V> void fields(V& v, LayoutRecord& l) {
  v("form", l.form, required);
  v("selector", l.selector);
  v("verified", l.verified);
  v("operands", l.operands);
  v("error", l.error, unless_empty);
}

template <typename V> void fields(V& v, SassRecord& s) {
  v("form", s.form, required);
  v("path", s.path);
  v("selector", s.selector);
  // A SASS that could not be read has its error and nothing else.
  v("error", s.error);
  const bool read = !s.error;
  v("mma", s.mma, always, read);
  v("sparse_mma", s.sparse_mma, always, read);
  v("instructions", s.instructions, always, read);
  v("native", s.native, always, read);
  v("note", s.note, unless_empty, read);
}

template <typename V> void fields(V& v, CompilePathComparison& p) {
  v("form", p.form, required);
  v("selector", p.selector);
  v("cases", p.cases);
  v("differing_cases", p.differing_cases);
  v("identical", p.identical);
  v("note", p.note, unless_empty);
}

template <typename V> void fields(V& v, FindingRef& f) {
  v("id", f.id);
  v("kind", f.kind);
  v("title", f.title);
}

// Everything of run.json but its schema, the compile record (two objects of its own) and the derived summary.
template <typename V> void fields(V& v, RunRecord& r) {
  v("run", r.run, required);
  v("environment", r.environment);
  v("findings", r.findings);
  v("results", r.results);
  v("layouts", r.layouts);
  v("sass", r.sass);
  v("compile_paths", r.compile_paths);
}

namespace {
template <typename T> json write_record(const T& record) { return FieldWriter::encode(record); }
template <typename T> T read_record(const json& document) {
  T record;
  FieldReader::decode(document, "", record);
  return record;
}

}  // namespace

json fingerprint_json(const DeviceFingerprint& f) { return write_record(f); }
json clock_json(const ClockReport& c) { return write_record(c); }

json compile_matrix_json(const CompileRecord& c) {
  FieldWriter writer;
  compile_matrix_fields(writer, const_cast<CompileRecord&>(c));
  return std::move(writer.out);
}

namespace {

json compile_summary_json(const CompileRecord& c) {
  FieldWriter writer;
  compile_summary_fields(writer, const_cast<CompileRecord&>(c));
  return std::move(writer.out);
}

CompileRecord compile_from(const FieldReader& root, const json& document) {
  CompileRecord c;
  FieldReader summary(document["compile"], "/compile");
  compile_summary_fields(summary, c);
  if (root.has("compile_matrix")) {
    FieldReader matrix(document["compile_matrix"], "/compile_matrix");
    compile_matrix_fields(matrix, c);
  }
  return c;
}

}  // namespace

json to_json(const LayoutRecord& l) { return write_record(l); }
LayoutRecord layout_record_from_json(const json& document) { return read_record<LayoutRecord>(document); }

json to_json(const CompilePathComparison& p) { return write_record(p); }
CompilePathComparison compile_path_from_json(const json& document) { return read_record<CompilePathComparison>(document); }

json to_json(const CompileRecord& compile) {
  return {{"compile", compile_summary_json(compile)}, {"compile_matrix", compile_matrix_json(compile)}};
}
CompileRecord compile_record_from_json(const json& document) {
  const FieldReader root(document, "");
  if (!root.has("compile")) FieldReader::refuse("/compile", "an object", document.contains("compile") ? &document["compile"] : nullptr);
  return compile_from(root, document);
}

json to_json(const ResultRecord& result) { return write_record(result); }
ResultRecord result_record_from_json(const json& document) { return read_record<ResultRecord>(document); }

json to_json(const RunRecord& record) {
  json out = record_fields::write_document(kRunSchema, record);
  if (record.compile) {
    out["compile"] = compile_summary_json(*record.compile);
    out["compile_matrix"] = compile_matrix_json(*record.compile);
  }
  json summary = json::object();
  for (const auto& [status, count] : status_counts(record)) summary[std::string(name(status))] = count;
  out["summary"] = summary;
  return out;
}

RunRecord run_record_from_json(const json& document) {
  RunRecord record = record_fields::read_document<RunRecordError, RunRecord>(document, kRunSchema, "an mmasp run");
  const FieldReader root(document, "");
  if (root.has("compile")) record.compile = compile_from(root, document);
  // Result ids are unique: diff and merge key results by id, so a second result under one id (a Fail then a Pass)
  // would let one of them decide unseen.
  std::map<std::string, size_t> first_of;
  for (size_t k = 0; k < record.results.size(); ++k)
    if (const auto [first, added] = first_of.emplace(record.results[k].id, k); !added)
      throw RunRecordError("/results/" + std::to_string(k) + "/id: the result id '" + printable(record.results[k].id) +
                           "' is given twice (first at /results/" + std::to_string(first->second) + ")");
  return record;
}

namespace {

// "repro: mmasp eval /out/dir/failures/../deviations/case-12.json   # ..." -> "repro: mmasp eval case-12.json   # ...":
// the case file's name is a digest of the case; the directory is --out, which is where the run ran.
void without_out_directory(json& value) {
  if (value.is_object()) {
    for (auto& [key, member] : value.items()) {
      if (key == "repro" && member.is_string()) {
        std::string text = member.get<std::string>();
        const size_t path = text.find('/'), end = text.find(".json", path == std::string::npos ? 0 : path);
        if (path != std::string::npos && end != std::string::npos) {
          const size_t name = text.rfind('/', end);
          text.erase(path, name + 1 - path);
        }
        member = text;
      } else {
        without_out_directory(member);
      }
    }
  } else if (value.is_array()) {
    for (auto& element : value) without_out_directory(element);
  }
}

}  // namespace

json without_volatile_fields(json run) {
  for (const char* key : {"started", "finished", "host", "command", "seconds", "phase_seconds", "clocks", "resumed"})
    run["run"].erase(key);
  if (run.contains("compile")) run["compile"].erase("seconds"), run["compile"].erase("cache_hits");
  for (auto& result : run["results"]) result.erase("seconds");
  without_out_directory(run["results"]);
  return run;
}

std::optional<Shard> shard_named(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view index = text.substr(0, slash), count = text.substr(slash + 1);
  const auto digits = [](std::string_view part) { return !part.empty() && part.size() <= 6 && all_digits(part); };
  if (!digits(index) || !digits(count)) return std::nullopt;
  const Shard shard{std::stoi(std::string(index)), std::stoi(std::string(count))};
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) return std::nullopt;
  return shard;
}

std::string result_id(const std::string& opcode, int selector, std::string_view suite) {
  return opcode + " sel=" + std::to_string(selector) + " " + std::string(suite);
}

std::vector<std::pair<Status, uint64_t>> status_counts(const RunRecord& run) {
  std::vector<std::pair<Status, uint64_t>> counts;
  for (Status status : kAllStatuses) counts.push_back({status, 0});
  for (const auto& result : run.results)
    for (auto& [status, count] : counts) count += status == result.status;
  return counts;
}

uint64_t count_of(const RunRecord& run, Status status) {
  uint64_t count = 0;
  for (const auto& result : run.results) count += result.status == status;
  return count;
}

int exit_code_for(const RunRecord& run) {
  if (run.run.interrupted) return 128 + run.run.interrupted->signal;
  for (const auto& result : run.results)
    if (is_failure(result.status)) return 1;
  if (run.compile && run.compile->new_disagreements > 0) return 1;
  for (const auto& layout : run.layouts)
    if (!layout.verified) return 1;
  return 0;
}

RunRecord load_run_record(const std::filesystem::path& path) {
  json document;
  try {
    document = read_json_file(path, kMaxRunFileBytes, "a run.json file");
  } catch (const InputFileError& error) {
    throw RunRecordError(error.what());
  }
  try {
    return run_record_from_json(document);
  } catch (const RunRecordError& error) {
    throw RunRecordError(path.string() + ": " + error.what());
  }
}

ResultRecord result_record(const std::string& opcode, int selector, Suite suite, Status status, std::string backend,
                           std::string note) {
  ResultRecord out;
  out.id = result_id(opcode, selector, name(suite));
  out.form = opcode;
  const Form* form = find_form(opcode);
  out.family = form ? form->family : "";
  out.selector = selector;
  out.suite = suite;
  out.status = status;
  out.backend = std::move(backend);
  out.note = std::move(note);
  return out;
}

ResultRecord record_of(const SuiteResult& r) {
  ResultRecord out = result_record(r.form->opcode, r.selector, r.suite, r.status, r.backend, r.note);
  out.emulated = r.emulated;
  out.cases = r.cases;
  out.passed = r.passed;
  out.quality_warnings = r.warnings;
  out.failed = r.failed;
  out.not_judged = r.not_judged;
  out.max_error_ulps = r.max_error_ulps;
  out.max_error_vs_bound = r.max_error_vs_bound;
  out.error_histogram_ulps.assign(r.error_histogram.begin(), r.error_histogram.end());
  out.seconds = r.seconds;
  out.seed = r.seed;
  out.failing_special_cases = r.failing_special_cases;
  for (const auto& [case_name, status] : r.named_cases) out.special_cases[case_name] = status;
  if (r.suite == Suite::undefined) out.ub_unordered_like_sp = UbObservation{r.ub_unordered_only, r.ub_like_sp};
  for (const auto& [value, what] : r.out_of_range_selectors) out.out_of_range_selectors[std::to_string(value)] = what;
  if (r.closest_to_bound) {
    const ElementVerdict& w = r.closest_to_bound->verdict.worst;
    out.closest_to_bound = ClosestToBound{r.closest_to_bound->saved_to, w.reason, {w.row, w.col}, w.error_ulps};
  }
  if (!r.model.empty()) {
    ModelTierRecord model{r.model, r.model_judged, r.reference_judged, r.deviations, r.model_mismatches, std::nullopt};
    if (r.deviation) {
      const ModelDeviationReport& d = *r.deviation;
      const size_t e = size_t(d.row * r.form->shape.n + d.col);
      const uint32_t observed = e < d.observed.size() ? d.observed[e] : 0, predicted = e < d.predicted.size() ? d.predicted[e] : 0;
      model.deviation = DeviationRecord{d.case_name, d.saved_to, {d.row, d.col}, observed, predicted, observed ^ predicted,
                                        d.deviating_elements, d.shrink_attempts, d.spec_status};
    }
    out.model = model;
  }
  if (r.failure) {
    const ElementVerdict& w = r.failure->verdict.worst;
    out.failure = FailureRecord{r.failure->case_name, r.failure->saved_to, w.reason, {w.row, w.col}, w.expected, w.observed,
                                r.failure->shrink_attempts};
  }
  if (r.digest.cases()) {
    const auto hex16 = [](uint64_t value) {
      char text[17];
      std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
      return std::string(text);
    };
    DigestRecord digest{r.digest.cases(), kDigestChunkCases, hex16(r.digest.total()), {}};
    for (uint64_t chunk : r.digest.chunks()) digest.chunks.push_back(hex16(chunk));
    out.digest = digest;
  }
  const auto coverage_record = [](const CoverageSummary& c) {
    return PairCoverageRecord{c.faults,  c.detectable,   c.detected,     c.percent(),  c.cases,
                              c.stream,  c.summary(),    c.not_detected, c.undetectable, c.transients,
                              c.transients_changed};
  };
  if (r.coverage) out.coverage = coverage_record(*r.coverage);
  if (r.resident_coverage) out.resident_coverage = coverage_record(*r.resident_coverage);
  if (const auto& g = r.resident)
    out.resident = ResidentRecord{g->host_sample, g->first_index, g->generated, g->checked, g->deviating, g->recorded,
                                  g->overflowed(), g->replayed, g->seconds, g->host_seconds, g->kernel};
  if (r.intermittent_case) {
    const IntermittentReport& i = *r.intermittent_case;
    const size_t e = size_t(i.row * r.form->shape.n + i.col);
    out.intermittent = IntermittentRecord{i.case_name, i.saved_to, {i.row, i.col}, i.first.at(e), i.replay.at(e),
                                          i.differing_elements, r.intermittent, r.replayed};
    const std::string line = std::to_string(r.intermittent) + " case(s) gave another D when run again (first: " +
                             i.case_name + ", D" + out.intermittent->element.str() + " " + hex_code(i.first.at(e)) +
                             " then " + hex_code(i.replay.at(e)) + ")";
    out.note = out.note.empty() ? line : out.note + "; " + line;
  }
  return out;
}

LayoutRecord record_of(const LayoutDiscovery& d) {
  LayoutRecord out{d.form->opcode, d.selector, d.all_match(), {}, d.error};
  for (const auto& o : d.operands) out.operands.push_back({o.operand, uint64_t(o.probes), uint64_t(o.matched), o.mismatches});
  return out;
}

SassRecord sass_record(const Form& form, int selector, std::string_view path, const std::optional<SassSummary>& sass,
                       const std::string& why_not) {
  SassRecord out{form.opcode, std::string(path), selector, std::nullopt, {}, false, 0, true, ""};
  if (!sass) {
    out.error = why_not;
    return out;
  }
  out.mma = sass->mma_instructions;
  out.sparse_mma = sass->has_sparse_mma;
  out.instructions = uint64_t(sass->instruction_count);
  out.note = lowering_note(form, *sass);
  out.native = out.note.empty();
  return out;
}

}  // namespace mmasp
