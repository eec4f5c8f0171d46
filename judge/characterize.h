// mmasp characterize: what the hardware's float arithmetic is, measured. Runs the model probes (generators/
// model_probes.h) of one form and selector on a backend, finds the model parameters (oracle/numeric_model.h) that
// predict every probe bit for bit, then checks them on random cases of every generator profile and on the special
// set. A parameter is "shown" by the probes that every other value of it mispredicts; the run is inconsistent — and
// the command fails — when no single parameter set explains every probe.
//
// Shown unique (issue #27): every other value of every parameter (one parameter changed at a time, the declared
// space of model_parameter_space()) is settled — ruled out by a probe, by a case already run, or by a discriminating
// input that judge/discriminating_search.h found on the CPU and the backend then ran; or shown equivalent on the form
// from the arithmetic's structure (equivalence_on). What is neither is an alternative left, and the result says so.
// A discriminating input the found parameters mispredict joins the probes and the search runs again.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "generators/model_probes.h"
#include "harness/backend.h"
#include "oracle/model_record_file.h"
#include "oracle/numeric_model.h"

namespace mmasp {

struct ParameterEvidence {
  std::string parameter;
  std::string value;                                   // the value found
  std::vector<std::string> consistent;                 // every value that predicts every probe (others fixed)
  std::map<std::string, std::string> ruled_out_by;     // other value -> the first probe it mispredicts
  std::map<std::string, uint64_t> random_mismatches;   // other value -> random cases it mispredicts
};

// How one other value of a parameter was settled.
enum class Settled { by_probe, by_case, equivalent, left };
std::string_view name(Settled settled);   // "probe", "case", "equivalent", "left"
struct Settlement {
  std::string parameter, value;
  Settled how = Settled::left;
  std::string by;   // the probe (discriminating inputs are probes named "discriminating: ..."), the case, or the reason
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
  std::vector<Settlement> settlements;          // every other value of every parameter
  std::vector<gen::ModelProbe> discriminating;  // the inputs found and run to settle values the probes left open
  std::vector<std::vector<uint32_t>> discriminating_observed;   // their D on the backend
  // Unique within the declared space, one parameter at a time: every other value settled, none left.
  bool unique() const;
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
  uint64_t search_random = 2048;    // discriminating search: fresh random cases per open value
  uint64_t search_mutations = 12000;   // ... and mutated inputs
};

// The model record of characterised pairs (mmasp characterize --save; oracle/model_record_file.h): one entry per form,
// with the evidence of its selectors. nullopt, with `refusal` naming the pair, unless every probe is explained, every
// checked case agrees, and the selectors of each form found the same parameters (or ones equivalent on the form). The
// caller fills in where and when it was made.
std::optional<ModelRecordFile> model_record_of(const std::vector<Characterization>& pairs, std::string* refusal);

// `start`: where the parameter search begins (the architecture's table entry, or the published dense parameters).
Characterization characterize(Backend& backend, const Form& form, int selector, const ModelParameters& start,
                              const CharacterizeOptions& options);

}  // namespace mmasp
