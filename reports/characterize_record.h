// `mmasp characterize --json`'s report (schema mmasp-characterize/1) as a typed record: per pair, the parameters
// found, the evidence for each, how every other value was settled, the discriminating inputs run, and the comparison
// with dense mma.sync; then the totals and the pairs grouped by parameter set. Written and read by one declaration per
// type (reports/record_fields.h); reading names the JSON pointer of what is wrong (CharacterizeRecordError).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/cuda_driver.h"
#include "judge/characterize.h"
#include "oracle/case_file.h"

namespace mmasp {

inline constexpr const char* kCharacterizeSchema = "mmasp-characterize/1";

struct CharacterizeRecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::optional<Settled> settled_named(std::string_view text);  // name(Settled)'s inverse

// Where the report's cases ran: a GPU (its fingerprint) or the emulator (the arithmetic it computed with).
struct CharacterizeEnvironment {
  std::string backend;  // "gpu" or "emulator"
  bool emulated = false;
  std::optional<DeviceFingerprint> device;
  std::optional<std::string> arithmetic;
};

// mma.sp against dense mma.sync on the decompressed A (cli/characterize_command.cpp, harness/dense_counterpart.h).
struct DenseComparisonRecord {
  std::string dense;  // the dense instruction
  uint64_t cases = 0, identical = 0;
  uint64_t unstored_specials = 0;  // differ only where dense multiplies an unstored zero by Inf or NaN (F-0011)
  uint64_t other_differences = 0;
  std::string first_difference;
};

struct CharacterizedPair {
  std::string form, family;
  int selector = 0;
  std::string backend;
  bool emulated = false;
  std::map<std::string, std::string> parameters;  // every model parameter's value, by name
  std::string parameters_text;
  bool consistent = false, agrees = false;
  uint64_t probes = 0;
  std::vector<std::string> unexplained_probes;
  uint64_t special_cases = 0, special_deviations = 0, random_cases = 0, random_deviations = 0;
  double seconds = 0;
  std::vector<ParameterEvidence> evidence;
  bool unique = false;
  std::vector<Settlement> settled_other_than_by_probes;  // every other value settled by a case, as equivalent, or left
  std::vector<CaseFile> discriminating_inputs;           // with the D the backend gave
  std::vector<std::string> deviation_repros;             // case files of deviating cases
  std::optional<DenseComparisonRecord> dense_comparison;
  std::optional<std::string> built_in_table;  // with the table switched off: equal, equivalent (why), or DIFFERENT
};
// A pair's record as judge/characterize.h found it (deviation_repros, dense_comparison, built_in_table: the caller's).
CharacterizedPair characterized_pair(const Characterization& c);

struct CharacterizeSummary {
  uint64_t pairs = 0, pairs_disagreeing = 0, cases_checked = 0, deviations = 0, pairs_unique = 0;
};

struct ParameterGroup {
  std::string parameters;          // ModelParameters::str()
  std::vector<std::string> pairs;  // "opcode sel=N"
};

struct CharacterizeReport {
  std::string command;
  CharacterizeEnvironment environment;
  uint64_t seed = 0, random_cases_per_pair = 0;
  std::vector<CharacterizedPair> pairs;
  CharacterizeSummary summary;
  std::vector<ParameterGroup> groups;
};

nlohmann::json characterize_json(const CharacterizeReport& report);
// Throws CharacterizeRecordError naming the JSON pointer of what is missing or malformed, or another schema.
CharacterizeReport characterize_report_from_json(const nlohmann::json& document);

}  // namespace mmasp
