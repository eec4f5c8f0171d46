#include "reports/screen_record.h"

#include "oracle/text.h"
#include "reports/device_fields.h"
#include "reports/record_fields.h"

namespace mmasp {

using nlohmann::json;

std::string_view name(ScreenVerdict verdict) {
  switch (verdict) {
    case ScreenVerdict::pass:
      return "pass";
    case ScreenVerdict::fail:
      return "fail";
    case ScreenVerdict::error:
      return "error";
  }
  return "error";
}

std::optional<ScreenVerdict> screen_verdict_named(std::string_view text) {
  for (ScreenVerdict verdict : {ScreenVerdict::pass, ScreenVerdict::fail, ScreenVerdict::error})
    if (name(verdict) == text) return verdict;
  return std::nullopt;
}

int exit_code_for(ScreenVerdict verdict) {
  return verdict == ScreenVerdict::pass ? 0 : verdict == ScreenVerdict::fail ? 1 : 2;
}

template <>
struct record_fields::EnumNames<ScreenVerdict> {
  static std::optional<ScreenVerdict> parse(std::string_view text) { return screen_verdict_named(text); }
  static std::string refusal(const std::string& spelled) {
    return "pass, fail or error is expected, not \"" + printable(spelled) + "\"";
  }
};

// The declarations. Keys are docs/screening.md's; a field's order here is the order of its struct.
using enum record_fields::Presence;

template <typename V>
void fields(V& v, ScreenDevice& d) {
  v("ordinal", d.ordinal);
  v("name", d.name);
  v("uuid", d.uuid);
  v("serial", d.serial, null_when_empty);
  v("sm", d.sm);
  v("driver", d.driver);
  v("driver_api", d.driver_api);
  v("ecc", d.ecc);
}

template <typename V>
void fields(V& v, ScreenPairCoverage& c) {
  v("summary", c.summary);
  v("percent", c.percent);
  v("stream", c.stream);
  v("not_detected", c.not_detected);
  v("compact_set", c.compact_set);
}

template <typename V>
void fields(V& v, ScreenPair& p) {
  v("form", p.form, required);
  v("selector", p.selector, required);
  v("compact_cases", p.compact_cases);
  v("compact_failing", p.compact_failing);
  v("cases", p.cases);
  v("deviating", p.deviating);
  v("coverage", p.coverage);
}

template <typename V>
void fields(V& v, ScreenDeviation& d) {
  v("form", d.form, required);
  v("selector", d.selector, required);
  v("step", d.step, required);
  v("status", d.status);
  v("case", d.case_index);
  v("stream_seed", d.stream_seed);
  v("deviating", d.deviating);
  v("indices", d.indices, unless_empty);
  v("repro", d.repro);
  v("repro_error", d.repro_error);
  v.check([&] {
    return std::tuple{d.step == "resident" || d.step == "compact set", "step",
                      "\"resident\" or \"compact set\" is expected"};
  });
}

template <typename V>
void fields(V& v, ScreenCompactSets& c) {
  v("directory", c.directory);
  v("path", c.path);
  v("pairs", c.pairs);
  v("pairs_without_set", c.pairs_without_set);
  v("cases", c.cases);
  v("failing", c.failing);
  v("compile_seconds", c.compile_seconds);
  v("seconds", c.seconds);
  v("total_seconds", c.total_seconds);
  v.check([&] { return std::tuple{c.failing <= c.cases, "failing", "at most the cases run is expected"}; });
}

template <typename V>
void fields(V& v, ScreenCoverage& c) {
  v("summary", c.summary);
  v("detectable", c.detectable);
  v("detected", c.detected);
  v("seconds", c.seconds);
  v("model", c.model);
  v("compact_sets", c.compact_sets);
  v.check([&] {
    return std::tuple{c.detected <= c.detectable, "detected", "at most the detectable faults is expected"};
  });
}

// The clock report's own keys (as run.json's clocks), then what the screen says of it.
template <typename V>
void fields(V& v, ScreenClocks& c) {
  fields(v, c.report);
  v("slowed", c.slowed);
  v("summary", c.summary);
}

template <typename V>
void fields(V& v, ScreenRecord& r) {
  v.object("mmasp", [&](auto& m) {
    m("commit", r.commit);
    m("case_streams", r.case_streams);
  });
  v("path", r.path);
  v("seed", r.seed);
  v("budget_seconds", r.budget_seconds);
  v("verdict", r.verdict, required);
  v("seconds", r.seconds);
  v("device", r.device);
  v("emulated", r.emulated);
  v("warnings", r.warnings);
  v("model_source", r.model_source);
  v("image", r.image);
  v("image_jit_seconds", r.image_jit_seconds);
  v("pairs_without_model", r.pairs_without_model);
  v("pairs_not_in_image", r.pairs_not_in_image);
  v("injected_fault", r.injected_fault);
  v("compact_sets", r.compact_sets);
  v("clocks", r.clocks);
  v("coverage", r.coverage);
  v("pairs_screened", r.pairs_screened);
  v("cases", r.cases);
  v("deviating_cases", r.deviating_cases);
  v("deviations", r.deviations);
  v("pairs", r.pairs);
  v("error", r.error);
  v.check([&] {
    return std::tuple{r.deviating_cases <= r.cases, "deviating_cases", "at most the cases judged is expected"};
  });
}

// Its "gpus" are written and read apart: each keeps its own schema key, as its gpuN.json does.
template <typename V>
void fields(V& v, ScreenFleetRecord& f) {
  v("budget_seconds", f.budget_seconds);
  v("seed", f.seed);
}

json screen_json(const ScreenRecord& record) {
  return record_fields::write_document(kScreenSchema, record);
}

ScreenRecord screen_record_from_json(const json& document) {
  return record_fields::read_document<ScreenRecordError, ScreenRecord>(document, kScreenSchema,
                                                                       "an mmasp screen verdict");
}

json screen_fleet_json(const ScreenFleetRecord& record) {
  json out = record_fields::write_document(kScreenFleetSchema, record);
  out["gpus"] = json::array();
  for (const ScreenRecord& gpu : record.gpus) out["gpus"].push_back(screen_json(gpu));
  return out;
}

ScreenFleetRecord screen_fleet_record_from_json(const json& document) {
  using FieldReader = record_fields::FieldReader<ScreenRecordError>;
  ScreenFleetRecord fleet = record_fields::read_document<ScreenRecordError, ScreenFleetRecord>(
      document, kScreenFleetSchema, "an mmasp screen");
  if (!document.contains("gpus") || !document["gpus"].is_array())
    FieldReader::refuse("/gpus", "an array", document.contains("gpus") ? &document["gpus"] : nullptr);
  for (size_t g = 0; g < document["gpus"].size(); ++g) {
    try {
      fleet.gpus.push_back(screen_record_from_json(document["gpus"][g]));
    } catch (const ScreenRecordError& error) {
      throw ScreenRecordError("/gpus/" + std::to_string(g) + std::string(error.what()));
    }
  }
  return fleet;
}

}  // namespace mmasp
