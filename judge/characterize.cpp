#include "judge/characterize.h"

#include "generators/stream_salts.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>

#include "generators/bulk.h"
#include "generators/draw.h"
#include "generators/model_probes.h"
#include "generators/special_cases.h"
#include "judge/case_judgement.h"
#include "judge/discriminating_search.h"
#include "oracle/case_file.h"
#include "harness/parallel.h"

namespace mmasp {
namespace {

// Whether the model with `p` predicts `observed` exactly; undefined inputs (which the model refuses) never match.
bool predicts(const MmaCase& test, const ModelParameters& p, const std::vector<uint32_t>& observed) {
  const auto predicted = model_prediction(test, p);
  return predicted && *predicted == observed;
}

struct ProbeSet {
  std::vector<const ModelParameter*> space;   // parameters_of(form): what the search may change
  std::vector<gen::ModelProbe> probes;
  std::vector<std::vector<uint32_t>> observed;

  unsigned threads = 1;
  size_t matches(const ModelParameters& p) const {
    std::atomic<size_t> count{0};
    parallel_for(probes.size(), threads, [&](size_t i) { count += predicts(probes[i].test, p, observed[i]); }, 8);
    return count;
  }
  // The search's score: whole probes predicted first, then single elements, which still rise where a change is right
  // but a probe needs another change too (parameter sets far from the start have few whole probes in common).
  uint64_t score(const ModelParameters& p) const {
    std::atomic<uint64_t> whole{0}, elements{0};
    parallel_for(probes.size(), threads, [&](size_t i) {
      const auto predicted = model_prediction(probes[i].test, p);
      if (!predicted) return;
      size_t same = 0;
      for (size_t e = 0; e < predicted->size() && e < observed[i].size(); ++e) same += (*predicted)[e] == observed[i][e];
      elements += same;
      whole += same == observed[i].size();
    }, 8);
    return (whole.load() << 32) + elements.load();
  }
  std::optional<size_t> first_mismatch(const ModelParameters& p) const {
    for (size_t i = 0; i < probes.size(); ++i)
      if (!predicts(probes[i].test, p, observed[i])) return i;
    return std::nullopt;
  }
};

ModelParameters with(ModelParameters p, const ModelParameter& parameter, const std::string& value) {
  parameter.set(p, value);
  return p;
}

// The parameter set that predicts the most probes: one parameter at a time until nothing improves, then pairs of
// parameters (two choices can hide each other, e.g. one more fraction bit and rounding instead of truncation).
ModelParameters search(const ProbeSet& set, ModelParameters current, bool pairs) {
  uint64_t best = set.score(current);
  const uint64_t all = uint64_t(set.probes.size()) << 32;
  const auto& space = set.space;
  for (int round = 0; round < 12 && best < all; ++round) {
    bool improved = false;
    for (const ModelParameter* parameter : space)
      for (const auto& value : parameter->values) {
        const ModelParameters candidate = with(current, *parameter, value);
        const uint64_t score = set.score(candidate);
        if (score > best) { best = score; current = candidate; improved = true; }
      }
    if (improved) continue;
    if (!pairs) break;
    for (size_t x = 0; x < space.size() && !improved; ++x)
      for (size_t y = x + 1; y < space.size() && !improved; ++y)
        for (const auto& vx : space[x]->values)
          for (const auto& vy : space[y]->values) {
            const ModelParameters candidate = with(with(current, *space[x], vx), *space[y], vy);
            const uint64_t score = set.score(candidate);
            if (score > best) { best = score; current = candidate; improved = true; }
          }
    if (!improved) break;
  }
  return current;
}

}  // namespace

std::string_view name(Settled settled) {
  switch (settled) {
    case Settled::by_probe: return "probe";
    case Settled::by_case: return "case";
    case Settled::equivalent: return "equivalent";
    case Settled::left: return "left";
  }
  return "left";
}

bool Characterization::unique() const {
  return std::none_of(settlements.begin(), settlements.end(), [](const Settlement& s) { return s.how == Settled::left; });
}

namespace {

// The cases run besides the probes: the special set and random cases of every profile, with their D.
struct CheckedCases {
  std::vector<MmaCase> cases;
  std::vector<std::string> origins;
  std::vector<std::vector<uint32_t>> observed;
  size_t special = 0;
};

CheckedCases run_checked_cases(Backend& backend, const Form& form, int selector, const CharacterizeOptions& options) {
  CheckedCases out;
  for (auto& named : gen::special_value_cases(form, selector)) {
    out.cases.push_back(std::move(named.test));
    out.origins.push_back("special " + named.name);
  }
  out.special = out.cases.size();
  gen::Options generator_options;
  generator_options.selector = selector;
  const gen::CaseSeeds seeds(options.seed ^ gen::salt::kCharacterizeProbes, form);   // "model": a stream apart from mmasp run's
  out.cases.resize(out.special + options.random_cases);
  parallel_for(options.random_cases, options.threads,
               [&](size_t i) { gen::BulkGenerator(seeds.of(i)).next(form, out.cases[out.special + i], generator_options); });
  for (uint64_t i = 0; i < options.random_cases; ++i) out.origins.push_back("random #" + std::to_string(i));
  for (size_t first = 0; first < out.cases.size(); first += 8192) {
    const size_t count = std::min<size_t>(8192, out.cases.size() - first);
    std::vector<MmaCase> batch(out.cases.begin() + long(first), out.cases.begin() + long(first + count));
    auto part = execute(backend, form, selector, batch, options.threads);
    for (auto& d : part) out.observed.push_back(std::move(d));
  }
  return out;
}

// The parameter set that explains every probe, from `start` and a few other starting points.
ModelParameters find_parameters(const ProbeSet& set, const ModelParameters& start) {
  // Several starting points: one search can stop where two parameters must change together.
  // Pairs of parameters are tried last, from the best single-step result only: they cost the square of the space.
  ModelParameters found = search(set, start, false);
  for (const char* changes : {"fraction_bits=25", "fraction_bits=25,zero_sign=positive", "fraction_bits=13",
                              "block_products=32,fraction_bits=25", "alignment=exponent-sum,fraction_bits=25"}) {
    if (set.matches(found) == set.probes.size()) break;
    const ModelParameters other = search(set, with_changes(start, changes), false);
    if (set.matches(other) > set.matches(found)) found = other;
  }
  if (set.matches(found) < set.probes.size()) found = search(set, found, true);
  // Still short: restarts from the best set with three parameters changed at random (seeded: the same probes give the
  // same answer), each climbed again. Parameter sets far from every starting point need them.
  gen::SplitMixDraw random(0x27c4a7);
  const auto& space = set.space;
  for (int restart = 0; restart < 24 && set.matches(found) < set.probes.size(); ++restart) {
    ModelParameters from = found;
    for (int change = 0; change < 3; ++change) {
      const ModelParameter& parameter = *space[random.bits() % space.size()];
      parameter.set(from, parameter.values[random.bits() % parameter.values.size()]);
    }
    const ModelParameters other = search(set, from, restart % 4 == 3);
    if (set.score(other) > set.score(found)) found = other;
  }
  return found;
}

struct OpenValue {
  const ModelParameter* parameter;
  std::string value;
  ModelParameters alternative;
};

// Every other value of every parameter, settled where the probes, the cases run or the form's structure can; the
// open ones are returned for the discriminating search.
std::vector<OpenValue> settle_known(const Form& form, const ModelParameters& found, const ProbeSet& set,
                                    const CheckedCases& checked, const std::vector<uint8_t>& deviates, unsigned threads,
                                    std::vector<Settlement>& settlements) {
  settlements.clear();
  std::vector<OpenValue> open;
  for (const auto& parameter : model_parameter_space()) {
    // A parameter outside parameters_of(form) cannot change this form's D: no probe can rule its values out.
    const bool idle = std::find(set.space.begin(), set.space.end(), &parameter) == set.space.end();
    for (const auto& value : parameter.values) {
      if (value == parameter.get(found)) continue;
      Settlement s{std::string(parameter.name), value, Settled::left, ""};
      const ModelParameters alternative = with(found, parameter, value);
      if (idle) {
        if (const auto reason = equivalence_on(form, found, alternative)) {
          settlements.push_back({s.parameter, s.value, Settled::equivalent, *reason});
          continue;
        }
      }
      if (const auto miss = set.first_mismatch(alternative)) {
        s.how = Settled::by_probe;
        s.by = set.probes[*miss].name;
      } else if (const auto reason = equivalence_on(form, found, alternative)) {
        s.how = Settled::equivalent;
        s.by = *reason;
      } else {
        std::atomic<size_t> first{checked.cases.size()};
        parallel_for(checked.cases.size(), threads, [&](size_t i) {
          if (i < first && !deviates[i] && !predicts(checked.cases[i], alternative, checked.observed[i])) {
            size_t seen = first;
            while (i < seen && !first.compare_exchange_weak(seen, i)) {}
          }
        }, 256);
        if (first < checked.cases.size()) {
          s.how = Settled::by_case;
          s.by = checked.origins[first];
        } else {
          open.push_back({&parameter, value, alternative});
        }
      }
      settlements.push_back(std::move(s));
    }
  }
  return open;
}

}  // namespace

Characterization characterize(Backend& backend, const Form& form, int selector, const ModelParameters& start,
                              const CharacterizeOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  Characterization result;
  result.form = &form;
  result.selector = selector;
  result.backend = backend.description();
  result.emulated = !backend.is_hardware();
  if (!model_applies(form)) throw std::invalid_argument("characterize: the model covers float forms only");

  ProbeSet set;
  set.space = parameters_of(form);
  set.threads = options.threads;
  set.probes = gen::model_probes(form, selector);
  std::vector<MmaCase> probe_cases;
  for (const auto& probe : set.probes) probe_cases.push_back(probe.test);
  set.observed = execute(backend, form, selector, probe_cases, options.threads);
  const CheckedCases checked = run_checked_cases(backend, form, selector, options);
  std::vector<MmaCase> starts = probe_cases;
  for (size_t i = 0; i < std::min<size_t>(checked.cases.size(), checked.special + 256); ++i) starts.push_back(checked.cases[i]);

  // Find the parameters; settle every other value; run the discriminating inputs found for the open ones; again, with
  // those inputs among the probes, until no input is left to run (a value already searched for is not searched again
  // unless the parameters changed).
  std::vector<uint8_t> deviates(checked.cases.size());
  std::set<std::string> searched;
  std::set<size_t> joined_cases;
  ModelParameters from = start;
  for (int round = 0; round < 6; ++round) {
    result.parameters = find_parameters(set, from);
    from = result.parameters;
    parallel_for(checked.cases.size(), options.threads,
                 [&](size_t i) { deviates[i] = !predicts(checked.cases[i], result.parameters, checked.observed[i]); });
    std::vector<OpenValue> open = settle_known(form, result.parameters, set, checked, deviates, options.threads,
                                               result.settlements);
    std::erase_if(open, [&](const OpenValue& o) {
      return !searched.insert(result.parameters.str() + "|" + std::string(o.parameter->name) + "=" + o.value).second;
    });
    std::vector<std::optional<MmaCase>> found(open.size());
    DiscriminatingSearch search{options.seed, options.search_random, options.search_mutations};
    parallel_for(open.size(), options.threads, [&](size_t i) {
      found[i] = find_discriminating_case(form, selector, result.parameters, open[i].alternative, starts, search);
    }, 1);
    std::vector<gen::ModelProbe> inputs;
    for (size_t i = 0; i < open.size(); ++i)
      if (found[i])
        inputs.push_back({"discriminating: " + std::string(open[i].parameter->name) + " " +
                              open[i].parameter->get(result.parameters) + " vs " + open[i].value,
                          std::string(open[i].parameter->name), std::move(*found[i])});
    // Checked cases the parameters mispredict join the probes (their D is already known): the next search must
    // explain them too.
    size_t joined = 0;
    for (size_t i = 0; i < checked.cases.size() && joined < 8; ++i)
      if (deviates[i] && joined_cases.insert(i).second) {
        set.probes.push_back({"case " + checked.origins[i], "", checked.cases[i]});
        set.observed.push_back(checked.observed[i]);
        ++joined;
      }
    if (inputs.empty() && !joined) break;
    if (inputs.empty()) continue;
    std::vector<MmaCase> batch;
    for (const auto& input : inputs) batch.push_back(input.test);
    auto observed = execute(backend, form, selector, batch, options.threads);
    for (size_t i = 0; i < inputs.size(); ++i) {
      result.discriminating.push_back(inputs[i]);
      result.discriminating_observed.push_back(observed[i]);
      set.probes.push_back(std::move(inputs[i]));
      set.observed.push_back(std::move(observed[i]));
    }
  }
  result.probes = set.probes.size();
  for (size_t i = 0; i < set.probes.size(); ++i)
    if (!predicts(set.probes[i].test, result.parameters, set.observed[i])) {
      result.unexplained_probes.push_back(set.probes[i].name);
      if (result.deviations.size() < options.keep_deviations) {
        std::vector<uint32_t> predicted;
        try { predicted = model_result(set.probes[i].test, result.parameters); } catch (const std::exception&) {}
        result.deviations.push_back({"probe " + set.probes[i].name, set.probes[i].test, set.observed[i], predicted});
      }
    }
  result.consistent = result.unexplained_probes.empty();

  // The special set and random cases of every profile: the parameters must predict every one.
  const auto& cases = checked.cases;
  const auto& observed = checked.observed;
  const size_t special = checked.special;
  result.special_cases = special;
  result.random_cases = options.random_cases;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!deviates[i]) continue;
    (i < special ? result.special_deviations : result.random_deviations)++;
    if (result.deviations.size() < options.keep_deviations) {
      result.deviations.push_back({checked.origins[i], cases[i], observed[i],
                                   model_prediction(cases[i], result.parameters).value_or(std::vector<uint32_t>{})});
    }
  }

  // What each parameter's other values would get wrong: probes first, then a sample of the random cases.
  const size_t sample = std::min<size_t>(cases.size(), special + 4000);
  for (const auto& parameter : model_parameter_space()) {
    ParameterEvidence evidence;
    evidence.parameter = std::string(parameter.name);
    evidence.value = parameter.get(result.parameters);
    for (const auto& value : parameter.values) {
      const ModelParameters alternative = with(result.parameters, parameter, value);
      const auto miss = set.first_mismatch(alternative);
      if (!miss) evidence.consistent.push_back(value);
      if (value == evidence.value) continue;
      if (miss) evidence.ruled_out_by[value] = set.probes[*miss].name;
      std::atomic<uint64_t> wrong{0};
      parallel_for(sample, options.threads, [&](size_t i) {
        if (!deviates[i] && !predicts(cases[i], alternative, observed[i])) ++wrong;
      });
      evidence.random_mismatches[value] = wrong;
    }
    result.evidence.push_back(std::move(evidence));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

namespace {

// What showed a form's parameters, for the record: the probes that ruled out other values, the values equivalent on
// the form and why, the ones settled by cases run, and the discriminating inputs with the D the backend gave.
nlohmann::json evidence_of(const Characterization& c) {
  using nlohmann::json;
  std::map<std::string, std::set<std::string>> shown_by;
  json equivalent = json::array(), by_cases = json::array(), inputs = json::array();
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> equivalent_values;
  for (const auto& s : c.settlements) {
    if (s.how == Settled::by_probe) shown_by[s.parameter].insert(s.by);
    if (s.how == Settled::by_case) by_cases.push_back({{"parameter", s.parameter}, {"value", s.value}, {"case", s.by}});
    if (s.how == Settled::equivalent) equivalent_values[{s.parameter, s.by}].push_back(s.value);
  }
  for (const auto& [key, values] : equivalent_values)
    equivalent.push_back({{"parameter", key.first}, {"values", values}, {"reason", key.second}});
  for (size_t i = 0; i < c.discriminating.size(); ++i) {
    CaseFile file;
    file.test = c.discriminating[i].test;
    file.observed_d = c.discriminating_observed[i];
    file.comment = {c.discriminating[i].name + " (selector " + std::to_string(c.selector) + ")"};
    inputs.push_back(to_json(file));
  }
  json probes = json::object();
  for (const auto& [parameter, names] : shown_by) probes[parameter] = names;
  return {{"ruled_out_by_probes", probes}, {"equivalent_on_the_form", equivalent}, {"ruled_out_by_cases", by_cases},
          {"discriminating_inputs", inputs}};
}

}  // namespace

std::optional<ModelRecordFile> model_record_of(const std::vector<Characterization>& pairs, std::string* refusal) {
  ModelRecordFile record;
  for (const auto& c : pairs) {
    const std::string pair = c.form->opcode + " sel=" + std::to_string(c.selector);
    if (!c.consistent) {
      *refusal = pair + ": " + std::to_string(c.unexplained_probes.size()) + " probes are not explained";
      return std::nullopt;
    }
    if (c.special_deviations + c.random_deviations) {
      *refusal = pair + ": " + std::to_string(c.special_deviations + c.random_deviations) + " checked cases deviate";
      return std::nullopt;
    }
    RecordedForm* form = nullptr;
    for (auto& f : record.forms)
      if (f.form == c.form->opcode) form = &f;
    if (form && !(form->parameters == c.parameters) && !equivalence_on(*c.form, form->parameters, c.parameters)) {
      *refusal = pair + " found " + c.parameters.str() + ", selector " + std::to_string(form->selectors.front()) +
                 " of the same form " + form->parameters.str();
      return std::nullopt;
    }
    if (!form) {
      record.forms.push_back({c.form->opcode, {}, c.parameters, 0, 0, 0, true, {}, nlohmann::json::array()});
      form = &record.forms.back();
    }
    form->selectors.push_back(c.selector);
    form->probes += c.probes;
    form->special_cases += c.special_cases;
    form->random_cases += c.random_cases;
    form->unique = form->unique && c.unique();
    for (const auto& s : c.settlements)
      if (s.how == Settled::left) {
        auto& values = form->alternatives_left[s.parameter];
        if (std::find(values.begin(), values.end(), s.value) == values.end()) values.push_back(s.value);
      }
    nlohmann::json evidence = evidence_of(c);
    evidence["selector"] = c.selector;
    form->evidence.push_back(std::move(evidence));
  }
  return record;
}

}  // namespace mmasp
