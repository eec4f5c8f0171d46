// The outcome of `mmasp selftest --faults` (judge/selftest.h) as a typed record: the JSON of `--json` (schema
// mmasp-selftest/1) and the console's table and problem lines, both from the same figures.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "judge/selftest.h"

namespace mmasp {

struct SelftestRecord {
  nlohmann::json environment;   // backend, emulated, device, model_source
  size_t pairs = 0;             // form x selector pairs selected
  uint64_t cases_per_pair = 0;  // random cases per pair and fault
  std::string command;
  SelftestReport report;
};

std::string_view name(FaultKind kind);   // "registers", "selector", "output", "numerics", "datapath"

nlohmann::json selftest_json(const SelftestRecord& record);
// The table per fault, then one line per missed, unseeable or unclean pair, then the summary line.
std::string selftest_text(const SelftestReport& report);
// Pairs a fault changed and no tier caught where one could see it; pairs only a bit-exact model could have judged.
size_t missed_pairs(const SelftestReport& report);
size_t unseeable_pairs(const SelftestReport& report);

}  // namespace mmasp
