#include "judge/model_source.h"

#include <cstdlib>
#include <memory>
#include <system_error>

#include "harness/sha256.h"
#include "oracle/instruction_space.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"

namespace mmasp {
namespace fs = std::filesystem;

bool builtin_models_enabled() {
  const char* value = std::getenv("MMASP_BUILTIN_MODELS");
  return !value || std::string(value) != "off";
}

fs::path default_model_record_directory() {
  if (const char* explicit_path = std::getenv("MMASP_MODEL_RECORDS"); explicit_path && *explicit_path) return explicit_path;
  if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data) return fs::path(data) / "mmasp" / "model-records";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local" / "share" / "mmasp" / "model-records";
  return {};
}

namespace {

// The record in the search path for this architecture: this device's own first, then the newest. A file there that
// is not a readable record is an error (a model source must not change silently), as is one of another schema.
std::optional<std::pair<ModelRecordFile, fs::path>> search_path_record(const ModelSourceRequest& request) {
  const fs::path directory = default_model_record_directory();
  std::error_code error;
  if (directory.empty() || !fs::is_directory(directory, error)) return std::nullopt;
  std::optional<std::pair<ModelRecordFile, fs::path>> best;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() != ".json" || !entry.is_regular_file(error)) continue;
    ModelRecordFile record = load_model_record(entry.path());
    if (record.architecture != request.architecture) continue;
    const auto rank = [&](const ModelRecordFile& r) {
      return std::make_pair(!request.device_uuid.empty() && r.device_uuid == request.device_uuid, r.made);
    };
    if (!best || rank(record) > rank(best->first)) best = std::make_pair(std::move(record), entry.path());
  }
  return best;
}

std::string builtin_description(const std::string& architecture, bool candidates) {
  std::string evidence;
  bool unverified = false;
  for (const auto& record : model_records())
    if (record.architecture == architecture) {
      if (record.verified && evidence.empty()) evidence = record.evidence.substr(0, record.evidence.find(':'));
      unverified |= !record.verified && candidates;
    }
  std::string text = "the built-in " + architecture + " table";
  if (!evidence.empty()) text += " (verified: " + evidence + ")";
  if (unverified)
    text += ", with its unverified candidate records (published dense parameters, never measured on this architecture): "
            "every result they judge is judged by an unverified model";
  return text;
}

}  // namespace

ModelSource resolve_model_source(const ModelSourceRequest& request) {
  ModelSource out;
  if (!request.record.empty()) {
    out.record = load_model_record(request.record);
    out.record_path = request.record;
  } else if (!request.architecture.empty()) {
    if (auto found = search_path_record(request)) {
      out.record = std::move(found->first);
      out.record_path = found->second;
    }
  }
  if (out.record) {
    const ModelRecordFile& record = *out.record;
    if (!request.architecture.empty() && record.architecture != request.architecture)
      throw ModelRecordError(out.record_path.string() + ": a record of " + record.architecture + " devices; this device is " +
                             request.architecture + " (a model found on one architecture says nothing of another)");
    if (!record.emulated && !request.driver_version.empty() && record.driver_version != request.driver_version)
      out.warnings.push_back("the model record was made with driver " + printable(record.driver_version) + "; this device runs " +
                             request.driver_version + ": it is used, and the digests say whether anything changed");
    if (request.architecture.empty() && !record.emulated)
      out.warnings.push_back("a record made on a GPU judges the emulator's results");
  }
  const bool builtin = builtin_models_enabled() && !request.architecture.empty();
  const auto record = out.record ? std::make_shared<const ModelRecordFile>(*out.record) : nullptr;
  const std::string architecture = request.architecture;
  const bool candidates = request.candidates;
  out.lookup = [record, builtin, architecture, candidates](const Form& form) -> std::optional<ModelParameters> {
    if (record)
      if (const RecordedForm* recorded = record->find(form.opcode)) return recorded->parameters;
    if (builtin) return verified_model(form, architecture, candidates);
    return std::nullopt;
  };
  size_t from_record = 0, from_table = 0;
  for (const Form& form : instruction_space()) {
    if (!model_applies(form)) continue;
    if (record && record->find(form.opcode)) ++from_record;
    else if (builtin && verified_model(form, architecture, candidates)) ++from_table;
  }
  out.any = from_record + from_table > 0;
  if (record) {
    out.description = "model record " + printable(out.record_path.string()) + ": " + record->provenance() + " (" +
                      std::to_string(from_record) + " forms)";
    if (from_table) out.description += "; " + builtin_description(architecture, candidates) + " for " +
                                       std::to_string(from_table) + " other forms";
  } else if (from_table) {
    out.description = builtin_description(architecture, candidates);
  }
  out.identity = std::string(record ? "record sha256 " + sha256_hex(to_json(*record).dump()) : "no record") +
                 (builtin ? candidates ? "; table with candidates" : "; table" : "; no table");
  if (builtin && candidates)
    for (const Form& form : instruction_space())
      if (const ModelRecord* r = find_model_record(form, architecture); r && !r->verified && !(record && record->find(form.opcode)))
        out.unverified = true;
  return out;
}

}  // namespace mmasp
