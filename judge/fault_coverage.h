// Fault coverage of a case stream (issue #71): every fault of a pair's datapath (oracle/fault_model.h) simulated
// against the cases a run gives that pair, in the order it runs them. A fault is detected by the first case whose D,
// computed with the fault active, differs from the fault-free D in any bit (the model tier), and the detection is
// credited to the spec tier as well when that D is outside the spec bound. A detected fault is simulated no further.
//
// Coverage is detected / detectable, where a fault is undetectable when a reason shows that no input can tell it
// apart (undetectable_reason); every other fault not detected is listed with its site.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "generators/bulk.h"
#include "oracle/fault_model.h"

namespace mmasp {

// The cases, in the order the run gives them to a pair: case files (a compact set), the special suite (its named set
// and `special_generated` generated cases), then `random_cases` of the random suite's stream.
struct CoverageStream {
  uint64_t seed = 1;
  bool special = true;  // false: without the special suite
  uint32_t special_generated = 512;
  uint64_t random_cases = 0;
  uint64_t random_first = 0;        // the random stream's first index (the resident kernel's share starts after the
                                    // host sample)
  std::vector<MmaCase> files;
  std::vector<std::string> file_names;
};

// The stream's cases, drawn one at a time (a long random stream is never held whole).
class CoverageCases {
 public:
  CoverageCases(const Form& form, int selector, const CoverageStream& stream);
  uint64_t size() const { return cases_.size() + stream_.random_cases; }
  void get(uint64_t index, MmaCase& test, std::string& name) const;  // case `index` of the stream, and its name

 private:
  const Form& form_;
  const CoverageStream& stream_;
  gen::CaseSeeds random_seeds_;
  gen::Options options_;
  std::vector<MmaCase> cases_;
  std::vector<std::string> names_;
};

enum class FaultState : uint8_t { detected, not_detected, undetectable };
std::string_view name(FaultState state);  // "detected", "not detected", "undetectable"
enum class DetectionTier : uint8_t { model, spec };
std::string_view name(DetectionTier tier);  // "model", "spec"

struct SimulatedFault {
  DatapathFault fault;
  FaultState state = FaultState::not_detected;
  DetectionTier tier = DetectionTier::model;
  uint64_t cases_to_detect = 0;  // the detecting case's position in the stream, counted from 1
  std::string detected_by;       // that case's name ("special-profile #3", "random #17")
  std::string reason;            // undetectable: why
};

struct PairCoverage {
  const Form* form = nullptr;
  int selector = 0;
  uint64_t cases = 0;                      // defined cases of the stream
  uint64_t undefined = 0;                  // UB draws of the stream, excluded
  std::vector<SimulatedFault> stuck;       // every stuck-at fault of the form
  std::vector<SimulatedFault> transients;  // the transient patterns
  double seconds = 0;

  uint64_t detectable() const;          // stuck-at faults that are not undetectable
  uint64_t detected() const;            // stuck-at faults detected
  double percent() const;               // detected / detectable, in percent (100 when nothing is detectable)
  uint64_t transients_changed() const;  // transients that changed a D of a case they struck
  // "stuck-at coverage 99.95 % of 3,412 detectable faults; 2 undetected"
  std::string summary() const;
};

// What a run reports of a pair's coverage (run.json "coverage", summary.md, report.html; mmasp diff compares it).
struct CoverageSummary {
  uint64_t faults = 0, detectable = 0, detected = 0;
  uint64_t cases = 0;                     // the stream's cases simulated
  std::string stream;                     // what they were
  std::vector<std::string> not_detected;  // "sum.bit31.sa0 (block sum)"
  std::vector<std::string> undetectable;  // "increment.bit0.sa0: <reason>"
  uint64_t transients = 0, transients_changed = 0;
  double percent() const;
  std::string summary() const;  // as PairCoverage::summary()
  bool operator==(const CoverageSummary&) const = default;
};
CoverageSummary summarize(const PairCoverage& coverage, const std::string& stream);
// "stuck-at coverage 99.95 % of 3,412 detectable faults; 2 undetected"
std::string coverage_summary_text(uint64_t detected, uint64_t detectable);
// "99.95 %": never rounded up to 100 while a fault is left.
std::string coverage_percent_text(uint64_t detected, uint64_t detectable);

// `p`: the form's model parameters (float forms). `stop` (may be empty) ends the simulation early; what was simulated
// so far is returned and the remaining faults count as not detected.
PairCoverage fault_coverage(const Form& form, int selector, const ModelParameters* p, const CoverageStream& stream,
                            unsigned threads, const std::function<bool()>& stop = {});

}  // namespace mmasp
