#include "judge/compact_set.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "generators/bulk.h"
#include "generators/special_cases.h"
#include "harness/parallel.h"
#include "judge/suites.h"
#include "oracle/case_file.h"
#include "oracle/output_file.h"

namespace mmasp {
namespace {

using nlohmann::json;

// The stream a case of CoverageCases comes from, by its index: case files, then the special suite, then random.
struct StreamPlace {
  std::string stream;
  uint64_t index = 0;
};
StreamPlace place_of(const CoverageStream& stream, size_t special_cases, uint64_t index) {
  if (index < stream.files.size()) return {"", index};
  index -= stream.files.size();
  if (index < special_cases) return {"special", index};
  return {"random", index - special_cases};
}

size_t special_suite_size(const Form& form, int selector, const CoverageStream& stream) {
  if (!stream.special) return 0;
  std::vector<MmaCase> cases;
  std::vector<std::string> names;
  special_suite_cases(form, selector, stream.seed, stream.special_generated, cases, names);
  return cases.size();
}

// Whether `test` detects `fault`: its D with the fault differs from the fault-free D.
bool detects(const MmaCase& test, const ModelParameters* p, const DatapathFault& fault,
             const std::vector<uint32_t>& clean) {
  const auto faulty = faulty_result(test, p, fault, fault.phase);
  return faulty && *faulty != clean;
}

}  // namespace

CompactSet build_compact_set(const Form& form, const ModelParameters* p, const CompactSetOptions& options) {
  CompactSet set;
  set.form = &form;
  set.generators = gen::case_streams_identity();
  const int selector = form.selectors.front();
  const CoverageStream& stream = options.stream;
  const PairCoverage coverage = fault_coverage(form, selector, p, stream, options.threads);
  const size_t special = special_suite_size(form, selector, stream);
  const CoverageCases cases(form, selector, stream);

  // The candidates: each detected fault's first detecting case, by how many faults each detected first.
  std::map<uint64_t, int> first_detections;   // stream index -> faults it detected first
  std::vector<const DatapathFault*> targets;  // every detectable stuck-at fault
  std::vector<const DatapathFault*> missed;
  for (const SimulatedFault& o : coverage.stuck) {
    if (o.state == FaultState::undetectable) continue;
    targets.push_back(&o.fault);
    if (o.state == FaultState::detected)
      ++first_detections[o.cases_to_detect - 1];
    else
      missed.push_back(&o.fault);
  }
  struct Candidate {
    CompactCase compact;
    int weight = 0;
  };
  std::vector<Candidate> candidates;
  for (const auto& [index, count] : first_detections) {
    Candidate c;
    std::string name;
    cases.get(index, c.compact.test, name);
    const StreamPlace where = place_of(stream, special, index);
    c.compact.origin = where.stream.empty() ? name : where.stream + " #" + std::to_string(where.index) + ": " + name;
    c.compact.stream = where.stream;
    c.compact.seed = stream.seed;
    c.compact.index = where.index;
    c.weight = count;
    candidates.push_back(std::move(c));
  }
  // A targeted search for each fault the stream missed, guided by how often the fault changes a value inside.
  std::vector<std::optional<MmaCase>> found(missed.size());
  parallel_for(
      missed.size(), options.threads,
      [&](size_t f) {
        const DatapathFault& fault = *missed[f];
        const auto probe = [&](const MmaCase& test, bool distance) {
          Discrimination out;
          const auto clean = datapath_result(test, p);
          uint64_t activations = 0;
          const auto faulty = faulty_result(test, p, fault, fault.phase, distance ? &activations : nullptr);
          out.defined = clean && faulty;
          out.differs = out.defined && *clean != *faulty;
          out.distance = int64_t(activations);
          return out;
        };
        DiscriminatingSearch search = options.search;
        search.seed ^= std::hash<std::string>{}(fault.id());
        found[f] = find_discriminating_case(form, selector, probe, {}, search);
      },
      1);
  for (size_t f = 0; f < missed.size(); ++f) {
    if (!found[f]) continue;
    Candidate c;
    c.compact.test = *found[f];
    c.compact.origin = "search for " + missed[f]->id();
    c.weight = 1;
    candidates.push_back(std::move(c));
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.weight > b.weight; });

  // Greedy compaction with fault dropping.
  std::vector<const DatapathFault*> left = targets;
  for (Candidate& candidate : candidates) {
    if (left.empty()) break;
    const auto clean = datapath_result(candidate.compact.test, p);
    if (!clean) continue;
    std::vector<char> hit(left.size(), 0);
    parallel_for(left.size(), options.threads,
                 [&](size_t f) { hit[f] = detects(candidate.compact.test, p, *left[f], *clean); });
    std::vector<const DatapathFault*> still;
    for (size_t f = 0; f < left.size(); ++f)
      if (!hit[f]) still.push_back(left[f]);
    if (still.size() == left.size()) continue;
    left = std::move(still);
    set.cases.push_back(std::move(candidate.compact));
  }
  set.detectable = targets.size();
  set.detected = targets.size() - left.size();
  for (const DatapathFault* fault : left) set.not_detected.push_back(fault->id());
  return set;
}

std::vector<MmaCase> compact_cases(const CompactSet& set, int selector) {
  std::vector<MmaCase> out;
  for (const CompactCase& c : set.cases) {
    out.push_back(c.test);
    out.back().selector = selector;
  }
  return out;
}

namespace {

constexpr const char* kSetSchema = "mmasp-compact-set/1";
constexpr const char* kSetsSchema = "mmasp-compact-sets/1";

// One set as text: a field a line and a case a line, indented by `indent`, so that a change of a set reads as lines
// in a diff.
std::string compact_set_text(const CompactSet& set, const std::string& indent) {
  json cases = json::array();
  for (const CompactCase& c : set.cases) {
    json entry = {{"origin", c.origin}};
    if (c.stream.empty()) {
      CaseFile file;
      file.test = c.test;
      entry["case"] = to_json(file);
    } else {
      entry["stream"] = c.stream;
      entry["seed"] = c.seed;
      entry["index"] = c.index;
    }
    cases.push_back(std::move(entry));
  }
  const json head = {{"schema", kSetSchema},          {"form", set.form->opcode},     {"arithmetic", set.arithmetic},
                     {"generators", set.generators},  {"detectable", set.detectable}, {"detected", set.detected},
                     {"not_detected", set.not_detected}};
  std::string text = indent + "{\n";
  for (const auto& [key, value] : head.items()) text += indent + "  " + json(key).dump() + ": " + value.dump() + ",\n";
  text += indent + "  \"cases\": [\n";
  for (size_t i = 0; i < cases.size(); ++i)
    text += indent + "    " + cases[i].dump() + (i + 1 < cases.size() ? ",\n" : "\n");
  text += indent + "  ]\n" + indent + "}";
  return text;
}

// One set from its document; `where` names it in errors (std::runtime_error).
CompactSet compact_set_from_json(const json& document, const std::string& where) {
  const auto fail = [&](const std::string& what) -> CompactSet { throw std::runtime_error(where + ": " + what); };
  if (!document.is_object() || document.value("schema", "") != kSetSchema)
    return fail(std::string("not a compact set (schema ") + kSetSchema + ")");
  CompactSet set;
  const json& form_name = document["form"];
  if (!form_name.is_string() || !(set.form = find_form(form_name.get<std::string>()))) return fail("no such form");
  set.arithmetic = document.value("arithmetic", "");
  set.generators = document.value("generators", "");
  if (set.generators != gen::case_streams_identity())
    return fail("made with generators " + set.generators + ", these draw " + gen::case_streams_identity() +
                ": its stream cases would be other cases (make it again: mmasp coverage --make-compact-set)");
  if (!document["cases"].is_array()) return fail("\"cases\" is not a list");
  const int selector = set.form->selectors.front();
  for (const json& entry : document["cases"]) {
    CompactCase c;
    if (!entry.is_object()) return fail("a case is not an object");
    c.origin = entry.value("origin", "");
    if (entry.contains("case")) {
      try {
        c.test = parse_case_file(entry["case"]).test;
      } catch (const CaseFileError& error) {
        return fail(std::string("case ") + c.origin + ": " + error.what());
      }
      if (c.test.form != set.form) return fail("case " + c.origin + " is of another form");
    } else {
      if (!entry["stream"].is_string() || !entry["seed"].is_number_unsigned() || !entry["index"].is_number_unsigned())
        return fail("a case has neither codes nor a stream, seed and index");
      c.stream = entry["stream"].get<std::string>();
      c.seed = entry["seed"].get<uint64_t>();
      c.index = entry["index"].get<uint64_t>();
      if (c.stream != "special" && c.stream != "random") return fail("unknown stream '" + c.stream + "'");
      // The bounds of the streams a run draws: --special-generated and --cases.
      if (c.index > (c.stream == "special" ? uint64_t(1) << 24 : uint64_t(1) << 40)) return fail("index out of range");
      CoverageStream stream;
      stream.seed = c.seed;
      // A stream just long enough to hold the case, drawn as the run draws it.
      if (c.stream == "special") {
        const size_t named = gen::special_value_cases(*set.form, selector).size();
        stream.special_generated = uint32_t(std::max<uint64_t>(c.index + 1, named) - named);
      } else {
        stream.special = false;
        stream.random_cases = c.index + 1;
      }
      const CoverageCases cases(*set.form, selector, stream);
      std::string name;
      cases.get(c.index, c.test, name);
    }
    set.cases.push_back(std::move(c));
  }
  set.detectable = document.value("detectable", uint64_t(0));
  set.detected = document.value("detected", uint64_t(0));
  if (document["not_detected"].is_array())
    for (const json& id : document["not_detected"])
      if (id.is_string()) set.not_detected.push_back(id.get<std::string>());
  return set;
}

}  // namespace

void save_compact_sets(const std::map<const Form*, CompactSet>& sets, const std::filesystem::path& directory) {
  std::vector<const CompactSet*> ordered;
  for (const auto& [form, set] : sets) ordered.push_back(&set);
  std::sort(ordered.begin(), ordered.end(), [](const CompactSet* a, const CompactSet* b) { return a->form->opcode < b->form->opcode; });
  std::string text = std::string("{\n  \"schema\": \"") + kSetsSchema + "\",\n  \"sets\": [\n";
  for (size_t i = 0; i < ordered.size(); ++i)
    text += compact_set_text(*ordered[i], "    ") + (i + 1 < ordered.size() ? ",\n" : "\n");
  text += "  ]\n}\n";
  std::filesystem::create_directories(directory);
  write_file_atomically(directory / kCompactSetsFile, text);
}

std::map<const Form*, CompactSet> load_compact_sets(const std::filesystem::path& directory) {
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error))
    throw std::runtime_error(directory.string() + " is not a directory");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::map<const Form*, CompactSet> sets;
  for (const auto& file : files) {
    const std::string where = file.string();
    std::ifstream in(file);
    if (!in) throw std::runtime_error(where + ": cannot be read");
    json document;
    try {
      document = json::parse(in);
    } catch (const json::exception& e) {
      throw std::runtime_error(where + ": not JSON: " + e.what());
    }
    std::vector<CompactSet> found;
    if (document.is_object() && document.value("schema", "") == kSetsSchema) {
      if (!document["sets"].is_array()) throw std::runtime_error(where + ": \"sets\" is not a list");
      for (size_t i = 0; i < document["sets"].size(); ++i)
        found.push_back(compact_set_from_json(document["sets"][i], where + ": set " + std::to_string(i)));
    } else {
      found.push_back(compact_set_from_json(document, where));
    }
    for (CompactSet& set : found) {
      const Form* form = set.form;
      if (!sets.emplace(form, std::move(set)).second)
        throw std::runtime_error(where + ": a second compact set of " + form->opcode);
    }
  }
  return sets;
}

}  // namespace mmasp
