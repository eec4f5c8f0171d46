#include "judge/characterize.h"

#include "generators/stream_salts.h"

#include <atomic>
#include <chrono>
#include <mutex>

#include "generators/bulk.h"
#include "generators/model_probes.h"
#include "generators/special_cases.h"
#include "judge/case_judgement.h"
#include "harness/parallel.h"

namespace mmasp {
namespace {

// Whether the model with `p` predicts `observed` exactly; undefined inputs (which the model refuses) never match.
bool predicts(const MmaCase& test, const ModelParameters& p, const std::vector<uint32_t>& observed) {
  const auto predicted = model_prediction(test, p);
  return predicted && *predicted == observed;
}

struct ProbeSet {
  std::vector<gen::ModelProbe> probes;
  std::vector<std::vector<uint32_t>> observed;

  unsigned threads = 1;
  size_t matches(const ModelParameters& p) const {
    std::atomic<size_t> count{0};
    parallel_for(probes.size(), threads, [&](size_t i) { count += predicts(probes[i].test, p, observed[i]); }, 8);
    return count;
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
  size_t best = set.matches(current);
  const auto& space = model_parameter_space();
  for (int round = 0; round < 8 && best < set.probes.size(); ++round) {
    bool improved = false;
    for (const auto& parameter : space)
      for (const auto& value : parameter.values) {
        const ModelParameters candidate = with(current, parameter, value);
        const size_t score = set.matches(candidate);
        if (score > best) { best = score; current = candidate; improved = true; }
      }
    if (improved) continue;
    if (!pairs) break;
    for (size_t x = 0; x < space.size() && !improved; ++x)
      for (size_t y = x + 1; y < space.size() && !improved; ++y)
        for (const auto& vx : space[x].values)
          for (const auto& vy : space[y].values) {
            const ModelParameters candidate = with(with(current, space[x], vx), space[y], vy);
            const size_t score = set.matches(candidate);
            if (score > best) { best = score; current = candidate; improved = true; }
          }
    if (!improved) break;
  }
  return current;
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
  if (!model_applies(form)) throw std::invalid_argument("characterize: the model covers float forms without block scale");

  ProbeSet set;
  set.threads = options.threads;
  set.probes = gen::model_probes(form, selector);
  std::vector<MmaCase> probe_cases;
  for (const auto& probe : set.probes) probe_cases.push_back(probe.test);
  set.observed = execute(backend, form, selector, probe_cases, options.threads);
  result.probes = set.probes.size();

  // Several starting points: one search can stop where two parameters must change together.
  // Pairs of parameters are tried last, from the best single-step result only: they cost the square of the space.
  result.parameters = search(set, start, false);
  for (const char* changes : {"fraction_bits=25", "fraction_bits=25,zero_sign=positive", "fraction_bits=13",
                              "block_products=32,fraction_bits=25", "alignment=exponent-sum,fraction_bits=25"}) {
    if (set.matches(result.parameters) == set.probes.size()) break;
    const ModelParameters other = search(set, with_changes(start, changes), false);
    if (set.matches(other) > set.matches(result.parameters)) result.parameters = other;
  }
  if (set.matches(result.parameters) < set.probes.size()) result.parameters = search(set, result.parameters, true);
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
  std::vector<MmaCase> cases;
  std::vector<std::string> origins;
  for (auto& named : gen::special_value_cases(form, selector)) {
    cases.push_back(std::move(named.test));
    origins.push_back("special " + named.name);
  }
  const size_t special = cases.size();
  gen::Options generator_options;
  generator_options.selector = selector;
  const gen::CaseSeeds seeds(options.seed ^ gen::salt::kCharacterizeProbes, form);   // "model": a stream apart from mmasp run's
  cases.resize(special + options.random_cases);
  parallel_for(options.random_cases, options.threads,
               [&](size_t i) { gen::BulkGenerator(seeds.of(i)).next(form, cases[special + i], generator_options); });
  for (uint64_t i = 0; i < options.random_cases; ++i) origins.push_back("random #" + std::to_string(i));
  std::vector<std::vector<uint32_t>> observed;
  for (size_t first = 0; first < cases.size(); first += 8192) {
    const size_t count = std::min<size_t>(8192, cases.size() - first);
    std::vector<MmaCase> batch(cases.begin() + long(first), cases.begin() + long(first + count));
    auto part = execute(backend, form, selector, batch, options.threads);
    for (auto& d : part) observed.push_back(std::move(d));
  }
  std::vector<uint8_t> deviates(cases.size());
  parallel_for(cases.size(), options.threads, [&](size_t i) { deviates[i] = !predicts(cases[i], result.parameters, observed[i]); });
  result.special_cases = special;
  result.random_cases = options.random_cases;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!deviates[i]) continue;
    (i < special ? result.special_deviations : result.random_deviations)++;
    if (result.deviations.size() < options.keep_deviations) {
      result.deviations.push_back({origins[i], cases[i], observed[i],
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

}  // namespace mmasp
