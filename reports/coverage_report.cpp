#include "reports/coverage_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace mmasp {
namespace {

std::string two_decimals(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

}  // namespace

nlohmann::json pair_coverage_json(const PairCoverage& pair) {
  nlohmann::json out;
  out["opcode"] = pair.form ? pair.form->opcode : "";
  out["selector"] = pair.selector;
  out["cases"] = pair.cases;
  out["undefined_cases_excluded"] = pair.undefined;
  out["faults"] = pair.stuck.size();
  out["detectable"] = pair.detectable();
  out["detected"] = pair.detected();
  out["coverage_percent"] = pair.percent();
  out["summary"] = pair.summary();
  out["seconds"] = pair.seconds;
  // Per stage: faults, detected, undetectable, detected by the spec tier, and the deepest detection.
  struct StageCount {
    uint64_t faults = 0, detected = 0, undetectable = 0, spec = 0, deepest = 0;
  };
  std::map<int, StageCount> stages;
  nlohmann::json undetected = nlohmann::json::array(), undetectable = nlohmann::json::array();
  nlohmann::json detected = nlohmann::json::array();  // [fault, tier, cases to detect it]
  for (const SimulatedFault& o : pair.stuck) {
    StageCount& s = stages[int(o.fault.site.stage())];
    ++s.faults;
    if (o.state == FaultState::detected) {
      detected.push_back({o.fault.id(), name(o.tier), o.cases_to_detect});
      ++s.detected;
      s.spec += o.tier == DetectionTier::spec;
      s.deepest = std::max(s.deepest, o.cases_to_detect);
    } else if (o.state == FaultState::undetectable) {
      ++s.undetectable;
      undetectable.push_back({{"fault", o.fault.id()}, {"stage", name(o.fault.site.stage())}, {"reason", o.reason}});
    } else {
      undetected.push_back(
          {{"fault", o.fault.id()}, {"site", o.fault.site.name()}, {"stage", name(o.fault.site.stage())}});
    }
  }
  nlohmann::json by_stage = nlohmann::json::array();
  for (const auto& [stage, s] : stages)
    by_stage.push_back({{"stage", name(FaultStage(stage))},
                        {"faults", s.faults},
                        {"detected", s.detected},
                        {"undetectable", s.undetectable},
                        {"detected_by_spec_tier", s.spec},
                        {"most_cases_to_detect", s.deepest}});
  out["stages"] = by_stage;
  out["detections"] = detected;
  out["not_detected"] = undetected;
  out["undetectable"] = undetectable;
  nlohmann::json transients = nlohmann::json::array();
  for (const SimulatedFault& o : pair.transients) {
    nlohmann::json t = {{"fault", o.fault.id()}, {"changed_a_result", o.state == FaultState::detected}};
    if (o.state == FaultState::detected) {
      t["caught_by"] = name(o.tier);
      t["case"] = o.detected_by;
    }
    transients.push_back(std::move(t));
  }
  out["transients"] = transients;
  return out;
}

nlohmann::json coverage_json(const CoverageRecord& record) {
  nlohmann::json out;
  out["schema"] = "mmasp-coverage/1";
  out["arithmetic"] = record.architecture;
  out["stream"] = record.stream;
  out["seed"] = record.seed;
  out["threads"] = record.threads;
  out["interrupted"] = record.interrupted;
  uint64_t detectable = 0, detected = 0;
  nlohmann::json pairs = nlohmann::json::array();
  for (const PairCoverage& pair : record.pairs) {
    detectable += pair.detectable();
    detected += pair.detected();
    pairs.push_back(pair_coverage_json(pair));
  }
  out["detectable"] = detectable;
  out["detected"] = detected;
  out["pairs"] = pairs;
  return out;
}

std::string coverage_table(const CoverageRecord& record, size_t listed) {
  std::ostringstream out;
  out << "fault coverage of " << record.stream << " (" << record.architecture << " arithmetic)\n";
  for (const PairCoverage& pair : record.pairs) {
    out << "  " << (pair.form ? pair.form->opcode : "?") << " sel " << pair.selector << ": " << pair.summary() << " ("
        << pair.cases << " cases";
    if (pair.undefined) out << ", " << pair.undefined << " undefined excluded";
    uint64_t spec = 0;
    for (const SimulatedFault& o : pair.transients)
      spec += o.state == FaultState::detected && o.tier == DetectionTier::spec;
    out << "; transients: " << pair.transients_changed() << " of " << pair.transients.size() << " changed a result, "
        << spec << " of them outside the spec bound; " << two_decimals(pair.seconds) << " s)\n";
    size_t shown = 0;
    for (const SimulatedFault& o : pair.stuck) {
      if (o.state != FaultState::not_detected) continue;
      if (shown++ == listed) {
        out << "      ...\n";
        break;
      }
      out << "      not detected: " << o.fault.id() << " (" << name(o.fault.site.stage()) << ")\n";
    }
    for (const SimulatedFault& o : pair.stuck)
      if (o.state == FaultState::undetectable)
        out << "      undetectable: " << o.fault.id() << ": " << o.reason << "\n";
  }
  if (record.interrupted) out << "INTERRUPTED: the faults not yet simulated count as not detected\n";
  return out.str();
}

}  // namespace mmasp
