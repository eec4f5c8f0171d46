// Where the model tier's parameters come from, decided once for a command (run, screen, selftest, characterize's
// starting point) and said in every report:
//  1. a model record made on the user's own GPU (oracle/model_record_file.h): --model-record FILE, or else the newest
//     record for the device's architecture in the default search path (the same device's first);
//  2. for forms the record lacks, the built-in verified table (oracle/numeric_model_table.h), unless switched off
//     (MMASP_BUILTIN_MODELS=off: to make and check a record of one's own on a GPU the table already covers);
//  3. with --model-candidates, the table's unverified records too; every result they judge is judged by an unverified
//     model, and the reports say so.
// A record of another architecture is refused. A record made with another driver is used, with a warning: the digests
// of the run say whether anything changed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "oracle/model_record_file.h"
#include "oracle/numeric_model.h"

namespace mmasp {

struct ModelSourceRequest {
  std::string architecture;        // "sm_90"; empty on the emulator (only an explicit record applies there)
  std::string driver_version;      // the device's, to compare with a record's
  std::string device_uuid;         // to prefer a record of this very device in the search path
  std::filesystem::path record;    // --model-record; empty: the default search path
  bool candidates = false;         // --model-candidates
};

struct ModelSource {
  ModelLookup lookup;              // the parameters of a form, or nullopt (no model: the spec tier alone)
  std::string description;         // what the reports say the model is, e.g. "characterised on GPU ... (FILE)"
  std::vector<std::string> warnings;   // a record of another driver, ...
  std::optional<ModelRecordFile> record;
  std::filesystem::path record_path;
  std::string identity;            // what decides the judging: the record's sha256, the table's use (a run's identity)
  bool any = false;                // some form has a model
  bool unverified = false;         // candidate records judge some forms
};

// Throws ModelRecordError for a record that cannot be read or is of another architecture.
ModelSource resolve_model_source(const ModelSourceRequest& request);

// The default search path: $MMASP_MODEL_RECORDS if set, else $XDG_DATA_HOME/mmasp/model-records, else
// ~/.local/share/mmasp/model-records. Every *.json there is a model record.
std::filesystem::path default_model_record_directory();
// Whether the built-in table is used (MMASP_BUILTIN_MODELS is not "off").
bool builtin_models_enabled();

}  // namespace mmasp
