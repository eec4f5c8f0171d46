// The fault coverage of a case stream (judge/fault_coverage.h) as a typed record: the JSON of `mmasp coverage --json`
// (schema mmasp-coverage/1), the same figures as a console table, and the per-pair entry the run reports carry.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/fault_coverage.h"

namespace mmasp {

struct CoverageRecord {
  std::string architecture;  // whose arithmetic was simulated: "sm_90", or the --emulate description
  std::string stream;        // "special set + 100 random cases, seed 1"
  uint64_t seed = 1;
  unsigned threads = 1;
  bool interrupted = false;
  std::vector<PairCoverage> pairs;
};

// One pair: the summary figures; each detected fault with its tier and the cases it took ("detections": [id, tier,
// cases]); the faults not detected with their sites; the undetectable ones with their reasons; the same by stage; the
// transient patterns.
nlohmann::json pair_coverage_json(const PairCoverage& pair);
nlohmann::json coverage_json(const CoverageRecord& record);
// A line per pair, then the faults not detected (at most `listed` per pair).
std::string coverage_table(const CoverageRecord& record, size_t listed = 12);

}  // namespace mmasp
