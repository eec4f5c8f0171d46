#include "reports/selftest_report.h"

#include <sstream>

namespace mmasp {

using nlohmann::json;

std::string_view name(FaultKind kind) {
  static const char* kinds[] = {"registers", "selector", "output", "numerics", "datapath"};
  return kinds[int(kind)];
}

size_t missed_pairs(const SelftestReport& report) {
  size_t total = 0;
  for (const auto& f : report.faults) total += f.missed().size();
  return total;
}

size_t unseeable_pairs(const SelftestReport& report) {
  size_t total = 0;
  for (const auto& f : report.faults) total += f.unseeable().size();
  return total;
}

json selftest_json(const SelftestRecord& record) {
  const SelftestReport& report = record.report;
  json faults = json::array();
  for (const auto& f : report.faults) {
    json pairs = json::array();
    for (const auto& p : f.pairs)
      pairs.push_back({{"form", p.form->opcode}, {"selector", p.selector}, {"cases", p.cases}, {"changed", p.changed},
                       {"status", name(p.status)}, {"spec_caught", p.spec_caught}, {"model_caught", p.model_caught},
                       {"model_judged", p.model_judged}});
    faults.push_back({{"id", f.fault->id}, {"description", f.fault->description}, {"kind", name(f.fault->kind)},
                      {"in_bound", f.fault->in_bound}, {"applicable", f.pairs.size()}, {"affected", f.affected()},
                      {"caught", f.caught()}, {"caught_by_model_only", f.caught_by_model_only()},
                      {"missed", f.missed().size()}, {"unseeable", f.unseeable().size()}, {"pairs", pairs}});
  }
  return {{"schema", "mmasp-selftest/1"}, {"environment", record.environment}, {"pairs", record.pairs},
          {"cases_per_pair", record.cases_per_pair}, {"control_clean", report.control_clean()}, {"faults", faults},
          {"command", record.command}, {"missed_pairs", missed_pairs(report)}, {"unseeable_pairs", unseeable_pairs(report)}};
}

std::string selftest_text(const SelftestReport& report) {
  std::ostringstream out;
  out << "\n| fault | kind | pairs it applies to | pairs it changed | caught | by the model tier alone | missed |"
         " unseeable here |\n"
      << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& f : report.faults)
    out << "| " << f.fault->id << " | " << name(f.fault->kind) << (f.fault->in_bound ? " (in-bound)" : "") << " | "
        << f.pairs.size() << " | " << f.affected() << " | " << f.caught() << " | " << f.caught_by_model_only() << " | "
        << f.missed().size() << " | " << f.unseeable().size() << " |\n";
  size_t faults_missed = 0;
  for (const auto& f : report.faults) {
    for (const auto* p : f.missed())
      out << "MISSED: " << f.fault->id << " changed " << p->changed << " of " << p->cases << " cases of "
          << p->form->opcode << " sel=" << p->selector << " and the run said " << name(p->status) << "\n";
    faults_missed += !f.missed().empty();
  }
  for (const auto& f : report.faults)
    for (const auto* p : f.unseeable())
      out << "UNSEEABLE HERE: " << f.fault->id << " changed " << p->changed << " of " << p->cases << " cases of "
          << p->form->opcode << " sel=" << p->selector << " within the spec bound (the run said " << name(p->status)
          << "), and no bit-exact model judges this pair\n";
  if (!report.control_clean())
    for (const auto& p : report.control)
      if (p.caught())
        out << "CONTROL NOT CLEAN: " << p.form->opcode << " sel=" << p.selector << " is " << name(p.status)
            << " without any fault\n";
  out << "\n" << report.faults.size() << " faults: " << report.faults.size() - faults_missed
      << " caught in every pair they changed where a tier could see it; " << missed_pairs(report) << " pairs missed; "
      << unseeable_pairs(report) << " pairs where only a bit-exact model could have seen the change and none judges; "
      << "control run " << (report.control_clean() ? "clean" : "NOT clean") << "\n";
  return out.str();
}

}  // namespace mmasp
