#include "run/run_options.h"

#include <type_traits>

#include "oracle/text.h"

namespace mmasp::run {
namespace {

using nlohmann::json;

// "--special-generated" -> "special_generated"; "-j,--jobs" -> "jobs"; "--layouts,!--no-layouts" -> "layouts".
std::string identity_key(std::string_view flags) {
  const size_t start = flags.find("--");
  std::string key(flags.substr(start + 2, flags.find(',', start) - start - 2));
  for (char& c : key)
    if (c == '-') c = '_';
  return key;
}

template <typename T>
json identity_value(const T& value) {
  if constexpr (std::is_enum_v<T> || std::is_same_v<T, CompilePaths>) return std::string(name(value));
  else return json(value);
}
json identity_value(const std::optional<bool>& value) { return value ? json(*value) : json("default"); }

// The first text option that is not well-formed UTF-8: every one reaches a JSON file (the journal's identity,
// run.json), which holds only text.
struct TextVisitor {
  std::string problem;
  template <typename T>
  void operator()(const OptionSpec& spec, T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (!problem.empty()) return;
      const std::string flags = spec.flags;
      const std::string flag = flags.substr(flags.find("--"), flags.find(',', flags.find("--")) - flags.find("--"));
      if (const std::string why = utf8_problem(value); !why.empty()) problem = flag + ": " + why;
    }
  }
};

struct IdentityVisitor {
  json& out;
  template <typename T>
  void operator()(const OptionSpec& spec, T& value) {
    if (spec.decides) out[identity_key(spec.flags)] = identity_value(value);
  }
};

}  // namespace

std::string_view name(AutoOnOff choice) {
  switch (choice) {
    case AutoOnOff::automatic: return "auto";
    case AutoOnOff::on: return "on";
    case AutoOnOff::off: return "off";
  }
  return "auto";
}

std::string_view name(ModelChoice choice) {
  switch (choice) {
    case ModelChoice::automatic: return "auto";
    case ModelChoice::strict: return "strict";
    case ModelChoice::warn: return "warn";
    case ModelChoice::off: return "off";
  }
  return "auto";
}

template <>
const std::vector<std::pair<std::string, AutoOnOff>>& choices<AutoOnOff>() {
  static const std::vector<std::pair<std::string, AutoOnOff>> all = {
      {"auto", AutoOnOff::automatic}, {"on", AutoOnOff::on}, {"off", AutoOnOff::off}};
  return all;
}

template <>
const std::vector<std::pair<std::string, ModelChoice>>& choices<ModelChoice>() {
  static const std::vector<std::pair<std::string, ModelChoice>> all = {
      {"auto", ModelChoice::automatic}, {"strict", ModelChoice::strict}, {"warn", ModelChoice::warn}, {"off", ModelChoice::off}};
  return all;
}

template <>
const std::vector<std::pair<std::string, BackendChoice>>& choices<BackendChoice>() {
  static const std::vector<std::pair<std::string, BackendChoice>> all = {
      {"auto", BackendChoice::automatic}, {"gpu", BackendChoice::gpu}, {"emulator", BackendChoice::emulator}};
  return all;
}

template <>
const std::vector<std::pair<std::string, ResidentImageChoice>>& choices<ResidentImageChoice>() {
  static const std::vector<std::pair<std::string, ResidentImageChoice>> all = {
      {"auto", ResidentImageChoice::automatic}, {"cubin", ResidentImageChoice::cubin}, {"ptx", ResidentImageChoice::ptx}};
  return all;
}

std::string text_options_problem(const NightlyOptions& options) {
  NightlyOptions copy = options;
  TextVisitor visitor;
  visit_run_options(copy, visitor);
  return visitor.problem;
}

json run_identity(const NightlyOptions& options, const EnvironmentRecord& environment, const std::string& case_streams,
                  const std::string& commit, const std::string& model_source) {
  json identity = {{"mmasp_commit", commit},
                   {"model_source", model_source},
                   {"case_streams", case_streams},
                   {"backend", environment.backend},
                   {"toolkit", environment.toolkit},
                   {"device", environment.device ? environment.device->name + " " + environment.device->uuid : ""},
                   {"driver", environment.device ? environment.device->driver_version : ""}};
  NightlyOptions copy = options;   // the visitor takes the members by reference
  IdentityVisitor visitor{identity};
  visit_run_options(copy, visitor);
  return identity;
}

}  // namespace mmasp::run
