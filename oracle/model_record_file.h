// A model record made on a user's own GPU by `mmasp characterize --save FILE` (schema mmasp-model-record/1,
// docs/architectures.md): for each float form, the bit-exact model parameters that explained every probe and predicted
// every case checked, the evidence that shows them (the probes and discriminating inputs that ruled out every other
// value, the values shown equivalent on the form and why, the values left open), and where and when it was made.
// `mmasp run --model-record FILE` (and screen, selftest) judge by it. Pure data: reading and writing, no judging.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/numeric_model.h"

namespace mmasp {

inline constexpr const char* kModelRecordSchema = "mmasp-model-record/1";

struct ModelRecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RecordedForm {
  std::string form;                      // opcode
  std::vector<int> selectors;            // the selectors characterised (their parameters agree)
  ModelParameters parameters;
  uint64_t probes = 0, special_cases = 0, random_cases = 0;
  bool unique = false;                   // every other value of every parameter settled (one parameter at a time)
  std::map<std::string, std::vector<std::string>> alternatives_left;   // parameter -> values no input told apart
  nlohmann::json evidence;               // what showed them: per parameter, the probes; equivalences; inputs run
};

struct ModelRecordFile {
  std::string architecture;              // "sm_90": the record is for devices of this compute capability
  bool emulated = false;                 // made on the CPU emulator (tests, demonstrations): not a hardware model
  std::string arithmetic;                // emulated: what the emulator computed with
  std::string device_name, device_uuid;  // empty when emulated
  std::string driver_version;            // "580.159.04"; empty when emulated
  int driver_api_version = 0;
  std::string toolkit;                   // the toolkit of the machine that made it, when it had one
  std::string made;                      // ISO 8601 UTC
  std::string mmasp_version, mmasp_commit, command;
  std::vector<RecordedForm> forms;

  const RecordedForm* find(const std::string& opcode) const;
  // "characterised on GPU NVIDIA H100 80GB HBM3 (GPU-...) on 2026-11-25, driver 580.159.04" or "characterised on the
  // CPU emulator (...) on 2026-11-25: not a hardware model".
  std::string provenance() const;
};

nlohmann::json to_json(const ModelRecordFile& record);
// Strict: the schema, every parameter of every form by name with a known value; ModelRecordError names the file (or
// `source`) and the JSON pointer.
ModelRecordFile parse_model_record(const nlohmann::json& document, const std::string& source);
ModelRecordFile load_model_record(const std::filesystem::path& path);

}  // namespace mmasp
