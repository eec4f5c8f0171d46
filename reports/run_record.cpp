#include "reports/run_record.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "judge/suites.h"
#include "harness/layout_discovery.h"
#include "harness/sass.h"
#include "oracle/input_file.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

using nlohmann::json;

// Reads one JSON object with types checked; every error names the JSON pointer of the value.
class Reader {
 public:
  Reader(const json& value, std::string pointer) : value_(value), pointer_(std::move(pointer)) {
    if (!value_.is_object()) fail("", "an object");
  }

  bool has(const char* key) const { return value_.contains(key) && !value_[key].is_null(); }
  const std::string& pointer() const { return pointer_; }

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const {
    const std::string where = key.empty() ? pointer_ : pointer_ + "/" + key;
    const json* found = key.empty() ? &value_ : (value_.contains(key) ? &value_[key] : nullptr);
    throw RunRecordError((where.empty() ? std::string("/") : where) + ": " + expected + " is expected" +
                         (found ? ", not " + std::string(found->type_name()) : " and missing"));
  }

  std::string text(const char* key, const std::string& fallback = "") const {
    if (!has(key)) return fallback;
    if (!value_[key].is_string()) fail(key, "a string");
    return value_[key].get<std::string>();
  }
  std::string required_text(const char* key) const {
    if (!has(key)) fail(key, "a string");
    return text(key);
  }
  uint64_t count(const char* key, uint64_t fallback = 0) const {
    if (!has(key)) return fallback;
    const json& v = value_[key];
    if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0))) fail(key, "a whole number >= 0");
    return v.get<uint64_t>();
  }
  int integer(const char* key, int fallback = 0) const {
    if (!has(key)) return fallback;
    const json& v = value_[key];
    // An unsigned beyond INT64_MAX would read as a negative int64: compared as unsigned first.
    const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= uint64_t(std::numeric_limits<int>::max())
                                             : v.is_number_integer() && v.get<int64_t>() >= std::numeric_limits<int>::min() &&
                                                   v.get<int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) fail(key, "a whole number");
    return v.get<int>();
  }
  int required_integer(const char* key) const {
    if (!has(key)) fail(key, "a whole number");
    return integer(key);
  }
  double number(const char* key, double fallback = 0) const {
    if (!has(key)) return fallback;
    if (!value_[key].is_number()) fail(key, "a number");
    return value_[key].get<double>();
  }
  bool flag(const char* key, bool fallback = false) const {
    if (!has(key)) return fallback;
    if (!value_[key].is_boolean()) fail(key, "true or false");
    return value_[key].get<bool>();
  }
  // A name the serialiser writes for an enum, read back through its parser.
  template <typename E>
  E named(const char* key, std::optional<E> (*parse)(std::string_view), const char* expected) const {
    const std::string spelled = required_text(key);
    if (const auto value = parse(spelled)) return *value;
    throw RunRecordError(pointer_ + "/" + key + ": " + expected + " is expected, not \"" + printable(spelled) + "\"");
  }
  Status status(const char* key) const {
    const std::string spelled = required_text(key);
    const auto parsed = status_named(spelled);
    if (!parsed) throw RunRecordError(pointer_ + "/" + key + ": unknown status \"" + spelled + "\"");
    return *parsed;
  }
  std::optional<Reader> object(const char* key) const {
    if (!has(key)) return std::nullopt;
    return Reader(value_[key], pointer_ + "/" + key);
  }
  // The elements of an array member (none when absent), each with its pointer.
  template <typename Each>
  void each(const char* key, Each&& each_element) const {
    if (!has(key)) return;
    if (!value_[key].is_array()) fail(key, "an array");
    const json& array = value_[key];
    for (size_t i = 0; i < array.size(); ++i) each_element(array[i], pointer_ + "/" + key + "/" + std::to_string(i));
  }
  std::vector<std::string> texts(const char* key) const {
    std::vector<std::string> out;
    each(key, [&](const json& v, const std::string& at) {
      if (!v.is_string()) throw RunRecordError(at + ": a string is expected, not " + std::string(v.type_name()));
      out.push_back(v.get<std::string>());
    });
    return out;
  }
  ElementAt element(const char* key) const {
    if (!has(key)) return {};
    const json& v = value_[key];
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
      fail(key, "[row, column]");
    return {v[0].get<int>(), v[1].get<int>()};
  }
  const json& raw() const { return value_; }

 private:
  const json& value_;
  std::string pointer_;
};

json element_json(ElementAt e) { return json::array({e.row, e.col}); }

}  // namespace

json fingerprint_json(const DeviceFingerprint& f) {
  return {{"name", f.name},         {"sm", f.sm},
          {"uuid", f.uuid},         {"driver_version", f.driver_version},
          {"driver_api_version", f.driver_api_version}, {"ecc", f.ecc},
          {"sm_clock_khz", f.sm_clock_khz}, {"memory_clock_khz", f.memory_clock_khz},
          {"sm_count", f.sm_count}, {"memory_bytes", f.memory_bytes}};
}

namespace {

DeviceFingerprint fingerprint_from(const Reader& r) {
  DeviceFingerprint f;
  f.name = r.text("name");
  f.sm = r.integer("sm");
  f.uuid = r.text("uuid");
  f.driver_version = r.text("driver_version");
  f.driver_api_version = r.integer("driver_api_version");
  f.ecc = r.flag("ecc");
  f.sm_clock_khz = r.integer("sm_clock_khz");
  f.memory_clock_khz = r.integer("memory_clock_khz");
  f.sm_count = r.integer("sm_count");
  f.memory_bytes = r.count("memory_bytes");
  return f;
}

json result_to_json(const ResultRecord& r) {
  json out = {{"id", r.id},
              {"form", r.form},
              {"family", r.family},
              {"selector", r.selector},
              {"suite", name(r.suite)},
              {"status", name(r.status)},
              {"backend", r.backend},
              {"emulated", r.emulated},
              {"cases", r.cases},
              {"passed", r.passed},
              {"quality_warnings", r.quality_warnings},
              {"failed", r.failed},
              {"not_judged", r.not_judged},
              {"max_error_ulps", r.max_error_ulps},
              {"max_error_vs_bound", r.max_error_vs_bound},
              {"error_histogram_ulps", r.error_histogram_ulps},
              {"seconds", r.seconds},
              {"seed", r.seed}};
  if (!r.note.empty()) out["note"] = r.note;
  if (!r.failing_special_cases.empty()) out["failing_special_cases"] = r.failing_special_cases;
  if (!r.special_cases.empty()) {
    json named = json::object();
    for (const auto& [case_name, status] : r.special_cases) named[case_name] = name(status);
    out["special_cases"] = named;
  }
  if (r.ub_unordered_like_sp) out["ub_unordered_like_sp"] = {{"cases", r.ub_unordered_like_sp->cases}, {"like_sp", r.ub_unordered_like_sp->like_sp}};
  if (!r.out_of_range_selectors.empty()) out["out_of_range_selectors"] = r.out_of_range_selectors;
  if (const auto& c = r.closest_to_bound)
    out["closest_to_bound"] = {{"repro", c->repro}, {"element", element_json(c->element)}, {"error_ulps", c->error_ulps}, {"reason", c->reason}};
  if (const auto& m = r.model) {
    out["model"] = {{"tier", m->tier}, {"model_judged", m->model_judged}, {"reference_judged", m->reference_judged},
                    {"deviations", m->deviations}, {"model_mismatches", m->model_mismatches}};
    if (const auto& d = m->deviation)
      out["model"]["deviation"] = {{"case", d->case_name},          {"repro", d->repro},
                                   {"element", element_json(d->element)}, {"observed", d->observed},
                                   {"model", d->model},             {"differing_bits", d->differing_bits},
                                   {"deviating_elements", d->deviating_elements}, {"spec_status", name(d->spec_status)},
                                   {"shrink_attempts", d->shrink_attempts}};
  }
  if (const auto& f = r.failure)
    out["failure"] = {{"case", f->case_name},  {"repro", f->repro},       {"element", element_json(f->element)},
                      {"expected", f->expected}, {"observed", f->observed}, {"reason", f->reason},
                      {"shrink_attempts", f->shrink_attempts}};
  if (const auto& d = r.digest)
    out["digest"] = {{"cases", d->cases}, {"chunk_cases", d->chunk_cases}, {"all", d->all}, {"chunks", d->chunks}};
  if (const auto& g = r.resident)
    out["resident"] = {{"host_sample", g->host_sample}, {"first_index", g->first_index}, {"generated", g->generated},
                       {"checked", g->checked},         {"deviating", g->deviating},     {"recorded", g->recorded},
                       {"overflowed", g->overflowed},   {"replayed", g->replayed},       {"seconds", g->seconds}};
  if (const auto& i = r.intermittent)
    out["intermittent"] = {{"case", i->case_name},   {"repro", i->repro},   {"element", element_json(i->element)},
                           {"first", i->first},      {"replay", i->replay}, {"differing_elements", i->differing_elements},
                           {"cases", i->cases},      {"replayed", i->replayed}};
  return out;
}

uint32_t code(const Reader& r, const char* key) {
  const uint64_t value = r.count(key);
  if (value > 0xffffffffu) r.fail(key, "a 32-bit code");
  return uint32_t(value);
}

ResultRecord result_from(const Reader& r) {
  ResultRecord out;
  out.id = r.required_text("id");
  out.form = r.required_text("form");
  out.family = r.text("family");
  out.selector = r.required_integer("selector");
  const std::string suite = r.required_text("suite");
  if (const auto parsed = suite_named(suite)) out.suite = *parsed;
  else throw RunRecordError(r.pointer() + "/suite: random, special or ub is expected, not \"" + printable(suite) + "\"");
  out.status = r.status("status");
  out.backend = r.text("backend");
  out.emulated = r.flag("emulated");
  out.cases = r.count("cases");
  out.passed = r.count("passed");
  out.quality_warnings = r.count("quality_warnings");
  out.failed = r.count("failed");
  out.not_judged = r.count("not_judged");
  out.max_error_ulps = r.number("max_error_ulps");
  out.max_error_vs_bound = r.number("max_error_vs_bound");
  r.each("error_histogram_ulps", [&](const json& v, const std::string& at) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      throw RunRecordError(at + ": a whole number >= 0 is expected");
    out.error_histogram_ulps.push_back(v.get<uint64_t>());
  });
  out.seconds = r.number("seconds");
  out.seed = r.count("seed");
  out.note = r.text("note");
  out.failing_special_cases = r.texts("failing_special_cases");
  if (auto named = r.object("special_cases"))
    for (const auto& [case_name, value] : named->raw().items()) out.special_cases[case_name] = named->status(case_name.c_str());
  if (auto g = r.object("resident")) {
    ResidentRecord resident{g->count("host_sample"), g->count("first_index"), g->count("generated"), g->count("checked"),
                            g->count("deviating"),   g->count("recorded"),    g->count("overflowed"), g->count("replayed"),
                            g->number("seconds")};
    // Nothing lost: every case drawn was judged, every deviating case was recorded or counted as overflowed, and
    // the host replayed none that was not recorded.
    if (resident.generated != resident.checked) g->fail("checked", "a count equal to generated");
    if (resident.recorded + resident.overflowed != resident.deviating) g->fail("deviating", "a count equal to recorded + overflowed");
    if (resident.replayed > resident.recorded) g->fail("replayed", "a count no larger than recorded");
    out.resident = resident;
  }
  if (auto ub = r.object("ub_unordered_like_sp")) out.ub_unordered_like_sp = UbObservation{ub->count("cases"), ub->count("like_sp")};
  if (auto selectors = r.object("out_of_range_selectors"))
    for (const auto& [value, what] : selectors->raw().items()) out.out_of_range_selectors[value] = selectors->text(value.c_str());
  if (auto c = r.object("closest_to_bound"))
    out.closest_to_bound = ClosestToBound{c->text("repro"), c->text("reason"), c->element("element"), c->number("error_ulps")};
  if (auto m = r.object("model")) {
    ModelTierRecord model;
    model.tier = m->text("tier");
    model.model_judged = m->count("model_judged");
    model.reference_judged = m->count("reference_judged");
    model.deviations = m->count("deviations");
    model.model_mismatches = m->count("model_mismatches");
    if (auto d = m->object("deviation")) {
      DeviationRecord deviation;
      deviation.case_name = d->text("case");
      deviation.repro = d->text("repro");
      deviation.element = d->element("element");
      deviation.observed = code(*d, "observed");
      deviation.model = code(*d, "model");
      deviation.differing_bits = code(*d, "differing_bits");
      deviation.deviating_elements = d->integer("deviating_elements");
      deviation.shrink_attempts = d->integer("shrink_attempts");
      deviation.spec_status = d->status("spec_status");
      model.deviation = deviation;
    }
    out.model = model;
  }
  if (auto f = r.object("failure")) {
    FailureRecord failure;
    failure.case_name = f->text("case");
    failure.repro = f->text("repro");
    failure.reason = f->text("reason");
    failure.element = f->element("element");
    failure.expected = code(*f, "expected");
    failure.observed = code(*f, "observed");
    failure.shrink_attempts = f->integer("shrink_attempts");
    out.failure = failure;
  }
  if (auto d = r.object("digest")) {
    DigestRecord digest{d->count("cases"), d->count("chunk_cases"), d->required_text("all"), d->texts("chunks")};
    const auto hex16 = [](const std::string& text) { return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos; };
    if (!hex16(digest.all)) d->fail("all", "16 lower-case hex digits");
    for (size_t c = 0; c < digest.chunks.size(); ++c)
      if (!hex16(digest.chunks[c])) throw RunRecordError(d->pointer() + "/chunks/" + std::to_string(c) + ": 16 lower-case hex digits are expected");
    out.digest = digest;
  }
  if (auto i = r.object("intermittent"))
    out.intermittent = IntermittentRecord{i->text("case"),  i->text("repro"),    i->element("element"),
                                          code(*i, "first"), code(*i, "replay"), i->integer("differing_elements"),
                                          i->count("cases"), i->count("replayed")};
  return out;
}

json compile_to_json(const CompileRecord& c) {
  json by_target = json::object();
  for (const auto& [target, n] : c.by_target)
    by_target[target] = {{"cases", n.cases}, {"agree", n.agree}, {"documented_disagreements", n.documented},
                         {"new_disagreements", n.new_disagreements}, {"not_run", n.not_run}};
  json disagreements = json::array();
  for (const auto& d : c.disagreements)
    disagreements.push_back({{"id", d.id}, {"target", d.target}, {"expected", name(d.expected)}, {"observed", name(d.observed)},
                             {"why", d.why}, {"diagnostic", d.diagnostic}, {"finding", d.finding.empty() ? json(nullptr) : json(d.finding)}});
  json out = {{"cases", c.cases},
          {"agree", c.agree},
          {"documented_disagreements", c.documented_disagreements},
          {"new_disagreements", c.new_disagreements},
          {"not_run", c.not_run},
          {"cache_hits", c.cache_hits},
          {"seconds", c.seconds},
          {"exit", c.exit},
          {"ptxas", {{"path", c.ptxas_path}, {"version", c.ptxas_version}, {"max_ptx", c.ptxas_max_ptx ? json(*c.ptxas_max_ptx) : json(nullptr)}}}};
  // Written together since the records gained them; a record read from an older run.json has neither, and writes
  // back as it was.
  if (!c.by_target.empty()) {
    out["by_target"] = by_target;
    out["disagreements"] = disagreements;
  }
  return out;
}

}  // namespace

json compile_matrix_json(const CompileRecord& c) {
  json rows = json::array();
  for (const auto& row : c.matrix) {
    json cells = json::object();
    for (const auto& [target, cell] : row.cells)
      cells[target] = {{"expected", name(cell.expected)}, {"observed", name(cell.observed)}, {"ptx_version", cell.ptx_version}};
    rows.push_back({{"form", row.form}, {"selector", row.selector}, {"cells", cells}});
  }
  return {{"targets", c.targets}, {"matrix", rows}};
}

namespace {

LayoutRecord layout_from(const Reader& l) {
  LayoutRecord layout{l.required_text("form"), l.integer("selector"), l.flag("verified"), {}, l.text("error")};
  l.each("operands", [&](const json& ov, const std::string& oat) {
    const Reader o(ov, oat);
    layout.operands.push_back({o.text("operand"), o.count("probes"), o.count("matched"), o.texts("mismatches")});
  });
  return layout;
}

CompilePathComparison compile_path_from(const Reader& p) {
  CompilePathComparison comparison{p.required_text("form"), p.integer("selector"), std::nullopt, std::nullopt,
                                   p.flag("identical"), p.text("note")};
  if (p.has("cases")) comparison.cases = p.count("cases");
  if (p.has("differing_cases")) comparison.differing_cases = p.count("differing_cases");
  return comparison;
}

CompileRecord compile_from(const Reader& summary, const std::optional<Reader>& matrix) {
  CompileRecord c;
  c.cases = summary.count("cases");
  c.agree = summary.count("agree");
  c.documented_disagreements = summary.count("documented_disagreements");
  c.new_disagreements = summary.count("new_disagreements");
  c.not_run = summary.count("not_run");
  c.cache_hits = summary.count("cache_hits");
  c.seconds = summary.number("seconds");
  c.exit = summary.integer("exit");
  if (auto targets = summary.object("by_target"))
    for (const auto& [target, value] : targets->raw().items()) {
      const Reader n(value, targets->pointer() + "/" + target);
      c.by_target[target] = {n.count("cases"), n.count("agree"), n.count("documented_disagreements"),
                             n.count("new_disagreements"), n.count("not_run")};
    }
  summary.each("disagreements", [&](const json& v, const std::string& at) {
    const Reader d(v, at);
    c.disagreements.push_back({d.required_text("id"), d.text("target"), d.named("expected", expected_named, "accept or reject"),
                               d.named("observed", observed_named, "accept, reject or not_run"), d.text("why"),
                               d.text("diagnostic"), d.text("finding")});
  });
  if (auto ptxas = summary.object("ptxas")) {
    c.ptxas_path = ptxas->text("path");
    c.ptxas_version = ptxas->text("version");
    if (ptxas->has("max_ptx")) c.ptxas_max_ptx = ptxas->text("max_ptx");
  }
  if (!matrix) return c;
  c.targets = matrix->texts("targets");
  matrix->each("matrix", [&](const json& v, const std::string& at) {
    const Reader row(v, at);
    CompileMatrixRow out{row.required_text("form"), row.integer("selector"), {}};
    if (auto cells = row.object("cells"))
      for (const auto& [target, cell] : cells->raw().items()) {
        const Reader r(cell, cells->pointer() + "/" + target);
        out.cells[target] = {r.named("expected", expected_named, "accept or reject"),
                             r.named("observed", observed_named, "accept, reject or not_run"), r.text("ptx_version")};
      }
    c.matrix.push_back(std::move(out));
  });
  return c;
}

}  // namespace

json to_json(const LayoutRecord& l) {
  json operands = json::array();
  for (const auto& o : l.operands)
    operands.push_back({{"operand", o.operand}, {"probes", o.probes}, {"matched", o.matched}, {"mismatches", o.mismatches}});
  json line = {{"form", l.form}, {"selector", l.selector}, {"verified", l.verified}, {"operands", operands}};
  if (!l.error.empty()) line["error"] = l.error;
  return line;
}
LayoutRecord layout_record_from_json(const json& document) { return layout_from(Reader(document, "")); }

json to_json(const CompilePathComparison& p) {
  json line = {{"form", p.form}, {"selector", p.selector}, {"identical", p.identical}};
  if (p.cases) line["cases"] = *p.cases;
  if (p.differing_cases) line["differing_cases"] = *p.differing_cases;
  if (!p.note.empty()) line["note"] = p.note;
  return line;
}
CompilePathComparison compile_path_from_json(const json& document) { return compile_path_from(Reader(document, "")); }

json to_json(const CompileRecord& compile) {
  return {{"compile", compile_to_json(compile)}, {"compile_matrix", compile_matrix_json(compile)}};
}
CompileRecord compile_record_from_json(const json& document) {
  const Reader root(document, "");
  const auto summary = root.object("compile");
  if (!summary) root.fail("compile", "an object");
  return compile_from(*summary, root.object("compile_matrix"));
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
  for (const char* key : {"started", "finished", "host", "command", "seconds", "phase_seconds", "resumed"})
    run["run"].erase(key);
  if (run.contains("compile")) run["compile"].erase("seconds"), run["compile"].erase("cache_hits");
  for (auto& result : run["results"]) result.erase("seconds");
  without_out_directory(run["results"]);
  return run;
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

json to_json(const ResultRecord& result) { return result_to_json(result); }

ResultRecord result_record_from_json(const json& document) { return result_from(Reader(document, "")); }

json to_json(const RunRecord& record) {
  const RunInfo& i = record.run;
  json run = {{"started", i.started},   {"finished", i.finished},   {"host", i.host},
              {"command", i.command},   {"seed", i.seed},           {"mmasp", {{"version", i.mmasp_version}, {"commit", i.mmasp_commit}}},
              {"case_streams", i.case_streams}, {"shard", i.shard}, {"budget_seconds", i.budget_seconds},
              {"ub", i.ub},             {"notes", i.notes},         {"seconds", i.seconds},
              {"phase_seconds", i.phase_seconds}};
  if (i.model_tier) run["model_tier"] = *i.model_tier;
  if (i.resumed) run["resumed"] = i.resumed;
  if (i.interrupted)
    run["interrupted"] = {{"signal", i.interrupted->signal}, {"signal_name", i.interrupted->signal_name},
                          {"pairs_done", i.interrupted->pairs_done}, {"pairs", i.interrupted->pairs}};
  const EnvironmentRecord& e = record.environment;
  json environment = {{"backend", e.backend}, {"emulated", e.emulated}, {"toolkit", e.toolkit}};
  if (e.device) environment["device"] = fingerprint_json(*e.device);
  if (e.compile_paths) environment["compile_paths"] = *e.compile_paths;

  json out = {{"schema", kRunSchema}, {"run", run}, {"environment", environment}};
  if (record.compile) {
    out["compile"] = compile_to_json(*record.compile);
    out["compile_matrix"] = compile_matrix_json(*record.compile);
  }
  json findings = json::array();
  for (const auto& f : record.findings) findings.push_back({{"id", f.id}, {"kind", f.kind}, {"title", f.title}});
  out["findings"] = findings;
  json results = json::array();
  for (const auto& r : record.results) results.push_back(result_to_json(r));
  out["results"] = results;
  json layouts = json::array();
  for (const auto& l : record.layouts) layouts.push_back(to_json(l));
  out["layouts"] = layouts;
  json sass = json::array();
  for (const auto& s : record.sass) {
    json line = {{"form", s.form}, {"selector", s.selector}, {"path", s.path}};
    if (s.error) {
      line["error"] = *s.error;
    } else {
      line["mma"] = s.mma;
      line["sparse_mma"] = s.sparse_mma;
      line["instructions"] = s.instructions;
      line["native"] = s.native;
      if (!s.note.empty()) line["note"] = s.note;
    }
    sass.push_back(line);
  }
  out["sass"] = sass;
  json paths = json::array();
  for (const auto& p : record.compile_paths) paths.push_back(to_json(p));
  out["compile_paths"] = paths;
  json summary = json::object();
  for (const auto& [status, count] : status_counts(record)) summary[std::string(name(status))] = count;
  out["summary"] = summary;
  return out;
}

RunRecord run_record_from_json(const json& document) {
  const Reader root(document, "");
  if (root.text("schema") != kRunSchema)
    throw RunRecordError("/schema: \"" + std::string(kRunSchema) + "\" is expected (not an mmasp run, or written by another version)");
  RunRecord record;
  const auto run = root.object("run");
  if (!run) root.fail("run", "an object");
  RunInfo& i = record.run;
  i.started = run->text("started");
  i.finished = run->text("finished");
  i.host = run->text("host");
  i.command = run->text("command");
  i.seed = run->count("seed", 1);
  if (auto mmasp = run->object("mmasp")) {
    i.mmasp_version = mmasp->text("version");
    i.mmasp_commit = mmasp->text("commit");
  }
  i.case_streams = run->text("case_streams");
  i.shard = run->text("shard", "1/1");
  i.budget_seconds = run->number("budget_seconds");
  i.ub = run->flag("ub");
  i.notes = run->texts("notes");
  if (run->has("model_tier")) i.model_tier = run->text("model_tier");
  i.resumed = run->count("resumed");
  if (auto interrupted = run->object("interrupted")) {
    const int signal = interrupted->required_integer("signal");
    if (signal < 1 || signal > 64) interrupted->fail("signal", "a signal number from 1 to 64");
    i.interrupted = Interruption{signal, interrupted->text("signal_name"), interrupted->count("pairs_done"),
                                 interrupted->count("pairs")};
  }
  i.seconds = run->number("seconds");
  if (auto phases = run->object("phase_seconds"))
    for (const auto& [phase, seconds] : phases->raw().items()) i.phase_seconds[phase] = phases->number(phase.c_str());

  if (auto env = root.object("environment")) {
    EnvironmentRecord& e = record.environment;
    e.backend = env->text("backend", "emulator");
    e.emulated = env->flag("emulated", true);
    e.toolkit = env->text("toolkit");
    if (auto device = env->object("device")) e.device = fingerprint_from(*device);
    if (env->has("compile_paths")) e.compile_paths = env->text("compile_paths");
  }
  if (auto compile = root.object("compile")) record.compile = compile_from(*compile, root.object("compile_matrix"));
  root.each("findings", [&](const json& v, const std::string& at) {
    const Reader f(v, at);
    record.findings.push_back({f.text("id"), f.text("kind"), f.text("title")});
  });
  // Result ids are unique: diff and merge key results by id, so a second result under one id (a Fail then a Pass) would
  // let one of them decide unseen.
  std::map<std::string, size_t> ids;
  root.each("results", [&](const json& v, const std::string& at) {
    ResultRecord result = result_from(Reader(v, at));
    if (const auto [first, added] = ids.emplace(result.id, record.results.size()); !added)
      throw RunRecordError(at + "/id: the result id '" + printable(result.id) + "' is given twice (first at /results/" +
                           std::to_string(first->second) + ")");
    record.results.push_back(std::move(result));
  });
  root.each("layouts", [&](const json& v, const std::string& at) { record.layouts.push_back(layout_from(Reader(v, at))); });
  root.each("sass", [&](const json& v, const std::string& at) {
    const Reader s(v, at);
    SassRecord sass{s.required_text("form"), s.text("path"), s.integer("selector"), std::nullopt, {}, false, 0, true, ""};
    if (s.has("error")) sass.error = s.text("error");
    sass.mma = s.texts("mma");
    sass.sparse_mma = s.flag("sparse_mma");
    sass.instructions = s.count("instructions");
    sass.native = s.flag("native", true);
    sass.note = s.text("note");
    record.sass.push_back(std::move(sass));
  });
  root.each("compile_paths", [&](const json& v, const std::string& at) {
    record.compile_paths.push_back(compile_path_from(Reader(v, at)));
  });
  return record;
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
  if (const auto& g = r.resident)
    out.resident = ResidentRecord{g->host_sample, g->first_index, g->generated, g->checked, g->deviating, g->recorded,
                                  g->overflowed(), g->replayed, g->seconds};
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
