// mmasp characterize: what the hardware's float arithmetic is, measured. Runs the model probes (generators/
// model_probes.h) of one form and selector on a backend, finds the model parameters (oracle/numeric_model.h) that
// predict every probe bit for bit, then checks them on random cases of every generator profile and on the special
// set. A parameter is "shown" by the probes that every other value of it mispredicts; the run is inconsistent — and
// the command fails — when no single parameter set explains every probe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "oracle/numeric_model.h"

namespace mmasp {

struct ParameterEvidence {
  std::string parameter;
  std::string value;                                   // the value found
  std::vector<std::string> consistent;                 // every value that predicts every probe (others fixed)
  std::map<std::string, std::string> ruled_out_by;     // other value -> the first probe it mispredicts
  std::map<std::string, uint64_t> random_mismatches;   // other value -> random cases it mispredicts
};

struct ModelDeviation {
  std::string origin;              // "probe ...", "special ...", "random #index"
  MmaCase test;
  std::vector<uint32_t> observed, predicted;
};

struct Characterization {
  const Form* form = nullptr;
  int selector = 0;
  std::string backend;
  bool emulated = false;
  ModelParameters parameters;                   // the parameter set found
  bool consistent = false;                      // it predicts every probe
  std::vector<std::string> unexplained_probes;  // probes it mispredicts
  std::vector<ParameterEvidence> evidence;      // one per model parameter
  uint64_t probes = 0, special_cases = 0, random_cases = 0;
  uint64_t special_deviations = 0, random_deviations = 0;
  std::vector<ModelDeviation> deviations;       // the first few, for case files
  double seconds = 0;
  bool agrees() const { return consistent && special_deviations == 0 && random_deviations == 0; }
};

struct CharacterizeOptions {
  uint64_t random_cases = 20000;   // per form and selector, every generator profile
  uint64_t seed = 1;
  unsigned threads = 1;
  size_t keep_deviations = 8;
};

// `start`: where the parameter search begins (the architecture's table entry, or the published dense parameters).
Characterization characterize(Backend& backend, const Form& form, int selector, const ModelParameters& start,
                              const CharacterizeOptions& options);

}  // namespace mmasp
