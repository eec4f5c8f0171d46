#include "oracle/model_record_file.h"

#include <algorithm>

#include "oracle/input_file.h"
#include "oracle/instruction_space.h"
#include "oracle/target.h"
#include "oracle/text.h"

namespace mmasp {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& source, const std::string& pointer, const std::string& what) {
  throw ModelRecordError(source + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
}

const json& member(const json& object, const char* key, const std::string& source, const std::string& at) {
  if (!object.contains(key)) refuse(source, at + "/" + key, "missing");
  return object[key];
}

std::string text(const json& object, const char* key, const std::string& source, const std::string& at,
                 bool required = true) {
  if (!object.contains(key) || object[key].is_null()) {
    if (required) refuse(source, at + "/" + key, "a string is expected and missing");
    return "";
  }
  if (!object[key].is_string()) refuse(source, at + "/" + key, "a string is expected, not " + std::string(object[key].type_name()));
  return object[key].get<std::string>();
}

uint64_t count(const json& object, const char* key, const std::string& source, const std::string& at) {
  if (!object.contains(key)) return 0;
  const json& v = object[key];
  // nlohmann reads 5 as unsigned and keeps a signed member it was given (driver_api_version) as signed.
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
    refuse(source, at + "/" + key, "a whole number >= 0 is expected");
  return v.get<uint64_t>();
}

json parameters_json(const ModelParameters& p) {
  json out = json::object();
  for (const auto& parameter : model_parameter_space()) out[std::string(parameter.name)] = parameter.get(p);
  return out;
}

// Every parameter of the space, by name, with one of its values (or, for whole numbers, a number in range): a record
// that lacks one would leave that choice to a default nobody measured — unless no value of it can change the form's
// D (equivalence_on: the block-scale parameters on a form without block scale, which records made before those
// parameters existed lack).
ModelParameters parameters_from(const json& object, const Form& form, const std::string& source, const std::string& at) {
  if (!object.is_object()) refuse(source, at, "an object of model parameters is expected");
  // Each value is checked and set on its own field: nothing of one value can reach another parameter.
  ModelParameters p;
  std::vector<const ModelParameter*> missing;
  for (const auto& [key, value] : object.items())
    if (!find_model_parameter(key)) refuse(source, at + "/" + printable(key), "not a model parameter");
  for (const auto& parameter : model_parameter_space()) {
    const std::string name(parameter.name);
    if (!object.contains(name)) {
      missing.push_back(&parameter);
      continue;
    }
    const std::string value = text(object, name.c_str(), source, at);
    if (const std::string problem = parameter.problem(value); !problem.empty()) refuse(source, at + "/" + name, problem);
    parameter.set(p, value);
  }
  for (const ModelParameter* parameter : missing)
    for (const std::string& value : parameter->values) {
      ModelParameters other = p;
      parameter->set(other, value);
      if (!equivalence_on(form, p, other))
        refuse(source, at + "/" + std::string(parameter->name), "a string is expected and missing (its values change this form's D)");
    }
  return p;
}

}  // namespace

const RecordedForm* ModelRecordFile::find(const std::string& opcode) const {
  for (const auto& form : forms)
    if (form.form == opcode) return &form;
  return nullptr;
}

std::string ModelRecordFile::provenance() const {
  // Text from a file: shown without its control characters (a device name must not reach a terminal as escapes).
  const std::string date = printable(made.substr(0, 10));
  if (emulated)
    return "characterised on the CPU emulator (" + printable(arithmetic) + ") on " + date + ": not a hardware model";
  return "characterised on GPU " + printable(device_name) + " (" + printable(device_uuid) + ") on " + date + ", driver " +
         printable(driver_version);
}

json to_json(const ModelRecordFile& r) {
  json forms = json::array();
  for (const auto& f : r.forms) {
    json left = json::object();
    for (const auto& [parameter, values] : f.alternatives_left) left[parameter] = values;
    forms.push_back({{"form", f.form}, {"selectors", f.selectors}, {"parameters", parameters_json(f.parameters)},
                     {"parameters_text", f.parameters.str()}, {"probes", f.probes}, {"special_cases", f.special_cases},
                     {"random_cases", f.random_cases}, {"unique", f.unique}, {"alternatives_left", left},
                     {"evidence", f.evidence.is_null() ? json::object() : f.evidence}});
  }
  json device = nullptr;
  if (!r.emulated)
    device = {{"name", r.device_name}, {"uuid", r.device_uuid}, {"driver_version", r.driver_version},
              {"driver_api_version", r.driver_api_version}};
  return {{"schema", kModelRecordSchema}, {"architecture", r.architecture}, {"emulated", r.emulated},
          {"arithmetic", r.arithmetic}, {"device", device}, {"toolkit", r.toolkit},
          {"made", {{"date", r.made}, {"mmasp_version", r.mmasp_version}, {"mmasp_commit", r.mmasp_commit},
                    {"command", r.command}}},
          {"forms", forms}};
}

ModelRecordFile parse_model_record(const json& document, const std::string& source) {
  if (!document.is_object()) refuse(source, "", "an object is expected");
  if (text(document, "schema", source, "") != kModelRecordSchema)
    refuse(source, "/schema", std::string("\"") + kModelRecordSchema + "\" is expected (not a model record, or another version)");
  ModelRecordFile r;
  r.architecture = text(document, "architecture", source, "");
  if (!architecture_number(r.architecture))
    refuse(source, "/architecture", "an architecture such as \"sm_90\" is expected, not \"" + printable(r.architecture) + "\"");
  const json& emulated = member(document, "emulated", source, "");
  if (!emulated.is_boolean()) refuse(source, "/emulated", "true or false is expected");
  r.emulated = emulated.get<bool>();
  r.arithmetic = text(document, "arithmetic", source, "", false);
  r.toolkit = text(document, "toolkit", source, "", false);
  const json& device = member(document, "device", source, "");
  if (!r.emulated) {
    if (!device.is_object()) refuse(source, "/device", "an object is expected for a record made on a GPU");
    r.device_name = text(device, "name", source, "/device");
    r.device_uuid = text(device, "uuid", source, "/device");
    r.driver_version = text(device, "driver_version", source, "/device");
    r.driver_api_version = int(count(device, "driver_api_version", source, "/device"));
  }
  const json& made = member(document, "made", source, "");
  if (!made.is_object()) refuse(source, "/made", "an object is expected");
  r.made = text(made, "date", source, "/made");
  r.mmasp_version = text(made, "mmasp_version", source, "/made", false);
  r.mmasp_commit = text(made, "mmasp_commit", source, "/made", false);
  r.command = text(made, "command", source, "/made", false);
  const json& forms = member(document, "forms", source, "");
  if (!forms.is_array()) refuse(source, "/forms", "an array is expected");
  for (size_t i = 0; i < forms.size(); ++i) {
    const std::string at = "/forms/" + std::to_string(i);
    const json& f = forms[i];
    if (!f.is_object()) refuse(source, at, "an object is expected");
    RecordedForm out;
    out.form = text(f, "form", source, at);
    const Form* form = find_form(out.form);
    if (!form) refuse(source, at + "/form", "no form '" + printable(out.form) + "' in the instruction space");
    if (!model_applies(*form)) refuse(source, at + "/form", "the model does not cover " + out.form);
    if (r.find(out.form)) refuse(source, at + "/form", "the form is recorded twice");
    if (f.contains("selectors")) {
      if (!f["selectors"].is_array()) refuse(source, at + "/selectors", "an array is expected");
      for (size_t k = 0; k < f["selectors"].size(); ++k) {
        const json& s = f["selectors"][k];
        const std::string where = at + "/selectors/" + std::to_string(k);
        // A selector the form does not define, or one given twice, would claim a characterisation nothing made.
        if (!s.is_number_integer() || std::find(form->selectors.begin(), form->selectors.end(), s.get<int64_t>()) == form->selectors.end())
          refuse(source, where, "one of the form's selectors is expected");
        if (std::find(out.selectors.begin(), out.selectors.end(), s.get<int>()) != out.selectors.end())
          refuse(source, where, "the selector is given twice");
        out.selectors.push_back(s.get<int>());
      }
    }
    out.parameters = parameters_from(member(f, "parameters", source, at), *form, source, at + "/parameters");
    out.probes = count(f, "probes", source, at);
    out.special_cases = count(f, "special_cases", source, at);
    out.random_cases = count(f, "random_cases", source, at);
    if (f.contains("unique")) {
      if (!f["unique"].is_boolean()) refuse(source, at + "/unique", "true or false is expected");
      out.unique = f["unique"].get<bool>();
    }
    if (f.contains("alternatives_left") && f["alternatives_left"].is_object())
      for (const auto& [parameter, values] : f["alternatives_left"].items())
        for (const auto& v : values)
          if (v.is_string()) out.alternatives_left[parameter].push_back(v.get<std::string>());
    if (f.contains("evidence")) out.evidence = f["evidence"];
    r.forms.push_back(std::move(out));
  }
  return r;
}

ModelRecordFile load_model_record(const std::filesystem::path& path) {
  json document;
  try {
    document = read_json_file(path, kMaxRunFileBytes, "a model record");
  } catch (const InputFileError& error) {
    throw ModelRecordError(error.what());
  }
  return parse_model_record(document, path.string());
}

}  // namespace mmasp
