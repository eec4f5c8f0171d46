#include "reports/characterize_record.h"

#include "oracle/numeric_model.h"
#include "oracle/text.h"
#include "reports/device_fields.h"
#include "reports/record_fields.h"

namespace mmasp {

using nlohmann::json;

std::optional<Settled> settled_named(std::string_view text) {
  for (Settled settled : {Settled::by_probe, Settled::by_case, Settled::equivalent, Settled::left})
    if (name(settled) == text) return settled;
  return std::nullopt;
}

template <>
struct record_fields::EnumNames<Settled> {
  static std::optional<Settled> parse(std::string_view text) { return settled_named(text); }
  static std::string refusal(const std::string& spelled) {
    return "probe, case, equivalent or left is expected, not \"" + printable(spelled) + "\"";
  }
};

// A discriminating input is a case file (oracle/case_file.h), read back by its own parser.
template <>
struct record_fields::Codec<CaseFile> {
  static json encode(const CaseFile& file) { return to_json(file); }
  static const char* decode(const json& v, CaseFile& file) {
    try {
      file = parse_case_file(v);
      return nullptr;
    } catch (const std::exception&) {
      return "a case file";
    }
  }
};

// The declarations. Keys are those of the report (docs/architectures.md); a field's order is its struct's.
using enum record_fields::Presence;

template <typename V>
void fields(V& v, CharacterizeEnvironment& e) {
  v("backend", e.backend, required);
  v("emulated", e.emulated);
  v("device", e.device);
  v("arithmetic", e.arithmetic);
}

template <typename V>
void fields(V& v, DenseComparisonRecord& d) {
  v("dense", d.dense);
  v("cases", d.cases);
  v("identical", d.identical);
  v("nan_from_unstored_zero_times_special", d.unstored_specials);
  v("other_differences", d.other_differences);
  v("first_difference", d.first_difference);
  v.check([&] {
    return std::tuple{d.identical + d.unstored_specials + d.other_differences == d.cases, "cases",
                      "identical, F-0011 and other differences adding up to the cases is expected"};
  });
}

template <typename V>
void fields(V& v, ParameterEvidence& e) {
  v("parameter", e.parameter, required);
  v("value", e.value, required);
  v("consistent_with_probes", e.consistent);
  v("ruled_out_by_probe", e.ruled_out_by);
  v("random_cases_mispredicted", e.random_mismatches);
}

template <typename V>
void fields(V& v, Settlement& s) {
  v("parameter", s.parameter, required);
  v("value", s.value, required);
  v("how", s.how, required);
  v("by", s.by);
}

template <typename V>
void fields(V& v, CharacterizedPair& p) {
  v("form", p.form, required);
  v("family", p.family);
  v("selector", p.selector, required);
  v("backend", p.backend);
  v("emulated", p.emulated);
  v("parameters", p.parameters);
  v("parameters_text", p.parameters_text);
  v("consistent", p.consistent);
  v("agrees", p.agrees);
  v("probes", p.probes);
  v("unexplained_probes", p.unexplained_probes);
  v("special_cases", p.special_cases);
  v("special_deviations", p.special_deviations);
  v("random_cases", p.random_cases);
  v("random_deviations", p.random_deviations);
  v("seconds", p.seconds);
  v("evidence", p.evidence);
  v("unique", p.unique);
  v("settled_other_than_by_probes", p.settled_other_than_by_probes);
  v("discriminating_inputs", p.discriminating_inputs);
  v("deviation_repros", p.deviation_repros);
  v("dense_comparison", p.dense_comparison);
  v("built_in_table", p.built_in_table);
  v.check([&] {
    return std::tuple{p.special_deviations <= p.special_cases && p.random_deviations <= p.random_cases,
                      "random_deviations", "at most the cases checked is expected"};
  });
  v.check([&] {
    return std::tuple{!p.agrees || (p.consistent && p.special_deviations == 0 && p.random_deviations == 0), "agrees",
                      "a pair that agrees explains every probe and predicts every case"};
  });
}

template <typename V>
void fields(V& v, CharacterizeSummary& s) {
  v("pairs", s.pairs);
  v("pairs_disagreeing", s.pairs_disagreeing);
  v("cases_checked", s.cases_checked);
  v("deviations", s.deviations);
  v("pairs_unique", s.pairs_unique);
}

template <typename V>
void fields(V& v, ParameterGroup& g) {
  v("parameters", g.parameters, required);
  v("pairs", g.pairs);
}

template <typename V>
void fields(V& v, CharacterizeReport& r) {
  v("command", r.command);
  v("environment", r.environment, required);
  v("seed", r.seed);
  v("random_cases_per_pair", r.random_cases_per_pair);
  v("pairs", r.pairs, required);
  v("summary", r.summary);
  v("groups", r.groups);
  v.check([&] {
    return std::tuple{r.summary.pairs == r.pairs.size(), "summary", "as many pairs as the report holds is expected"};
  });
}

CharacterizedPair characterized_pair(const Characterization& c) {
  CharacterizedPair p;
  p.form = c.form->opcode;
  p.family = c.form->family;
  p.selector = c.selector;
  p.backend = c.backend;
  p.emulated = c.emulated;
  for (const auto& parameter : model_parameter_space())
    p.parameters[std::string(parameter.name)] = parameter.get(c.parameters);
  p.parameters_text = c.parameters.str();
  p.consistent = c.consistent;
  p.agrees = c.agrees();
  p.probes = c.probes;
  p.unexplained_probes = c.unexplained_probes;
  p.special_cases = c.special_cases;
  p.special_deviations = c.special_deviations;
  p.random_cases = c.random_cases;
  p.random_deviations = c.random_deviations;
  p.seconds = c.seconds;
  p.evidence = c.evidence;
  p.unique = c.unique();
  for (const auto& settled : c.settlements)
    if (settled.how != Settled::by_probe) p.settled_other_than_by_probes.push_back(settled);
  for (size_t i = 0; i < c.discriminating.size(); ++i) {
    CaseFile& file = p.discriminating_inputs.emplace_back();
    file.test = c.discriminating[i].test;
    file.observed_d = c.discriminating_observed[i];
    file.comment = {c.discriminating[i].name};
  }
  return p;
}

json characterize_json(const CharacterizeReport& report) {
  return record_fields::write_document(kCharacterizeSchema, report);
}

CharacterizeReport characterize_report_from_json(const json& document) {
  return record_fields::read_document<CharacterizeRecordError, CharacterizeReport>(document, kCharacterizeSchema,
                                                                                   "an mmasp characterize report");
}

}  // namespace mmasp
