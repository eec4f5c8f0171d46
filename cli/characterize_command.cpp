#include "cli/characterize_command.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli/common.h"
#include "generators/reproduction.h"
#include "harness/backend.h"
#include "judge/characterize.h"
#include "judge/dense_comparison.h"
#include "generators/bulk.h"
#include "generators/special_cases.h"
#include "harness/gpu_probe.h"
#include "oracle/numeric_model_table.h"
#include "reports/findings.h"
#include "generators/stream_salts.h"
#include "reports/run_record.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace mmasp::cli {
namespace {

// "8 by 'probe name'" for each ruled-out value in the parameter's own order; neighbouring values ruled out by the
// same probe are joined ("26-30 by ...").
std::string ruled_out_text(const ModelParameter& parameter, const ParameterEvidence& evidence) {
  std::vector<std::pair<std::string, std::string>> runs;   // (values, probe)
  std::string last_value;
  for (const auto& value : parameter.values) {
    auto it = evidence.ruled_out_by.find(value);
    if (it == evidence.ruled_out_by.end()) { last_value.clear(); continue; }
    if (!runs.empty() && !last_value.empty() && runs.back().second == it->second) {
      const size_t dash = runs.back().first.find('-');
      runs.back().first = runs.back().first.substr(0, dash == std::string::npos || !std::isdigit(runs.back().first[0]) ? std::string::npos : dash);
      runs.back().first += (std::isdigit(value[0]) ? "-" : ", ") + value;
    } else {
      runs.push_back({value, it->second});
    }
    last_value = value;
  }
  std::ostringstream text;
  for (size_t i = 0; i < runs.size(); ++i)
    text << (i ? "; " : "") << runs[i].first << " by \"" << runs[i].second << "\"";
  return text.str();
}

json characterization_json(const Characterization& c) {
  json parameters = json::object();
  for (const auto& parameter : model_parameter_space()) parameters[std::string(parameter.name)] = parameter.get(c.parameters);
  json evidence = json::array();
  for (const auto& e : c.evidence)
    evidence.push_back({{"parameter", e.parameter}, {"value", e.value}, {"consistent_with_probes", e.consistent},
                        {"ruled_out_by_probe", e.ruled_out_by}, {"random_cases_mispredicted", e.random_mismatches}});
  return {{"form", c.form->opcode},
          {"family", c.form->family},
          {"selector", c.selector},
          {"backend", c.backend},
          {"emulated", c.emulated},
          {"parameters", parameters},
          {"parameters_text", c.parameters.str()},
          {"consistent", c.consistent},
          {"agrees", c.agrees()},
          {"probes", c.probes},
          {"unexplained_probes", c.unexplained_probes},
          {"special_cases", c.special_cases},
          {"special_deviations", c.special_deviations},
          {"random_cases", c.random_cases},
          {"random_deviations", c.random_deviations},
          {"seconds", c.seconds},
          {"evidence", evidence}};
}

}  // namespace

void add_characterize_options(CLI::App* command, CharacterizeCommandOptions& o) {
  command->add_option("--filter", o.filter, "only float forms whose opcode matches this glob")->capture_default_str();
  command->add_option("--exclude", o.exclude, "leave out forms whose opcode matches this glob");
  command->add_flag("--emulator", o.emulator, "run on the CPU emulator (it computes with a model: see --emulate)");
  command->add_option("--emulate", o.emulate,
                      "the emulator's arithmetic: 'hypothesis' (the published dense parameters, default), 'table' "
                      "(this architecture's records), or changes to the hypothesis, e.g. 'fraction_bits=24'");
  command->add_option("--device", o.device, "GPU ordinal")->capture_default_str()->check(whole_number(0, INT32_MAX));
  command->add_option("--path", o.path, "compile path on a GPU: driver-jit or toolkit")->capture_default_str();
  command->add_option("--cases", o.cases, "random cases per form and selector that must agree with the model")
      ->capture_default_str()->check(whole_number(0, UINT32_MAX));
  command->add_option("--seed", o.seed, "seed of the random cases")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  command->add_option("--json", o.json_path, "write the full results here (schema mmasp-characterize/1)");
  command->add_option("--out", o.out, "directory for case files of deviations")->capture_default_str();
  command->add_option("--threads", o.threads, "host threads")->capture_default_str()->check(whole_number(1, kMaxThreads));
}

int characterize_main(const CharacterizeCommandOptions& o, int argc, char** argv) {
  // --- The backend: the GPU, or the emulator computing with a model. ---
  std::unique_ptr<Backend> backend;
  std::shared_ptr<CudaDevice> gpu;
  std::string architecture = "sm_90";
  json environment;
  if (!o.emulator) {
    const GpuProbe probe = probe_gpus();
    if (!probe.available) throw UsageError("no GPU (" + probe.reason + "); use --emulator to characterise a model");
    auto device = std::make_shared<CudaDevice>(o.device);
    gpu = device;
    const DeviceFingerprint fingerprint = device->fingerprint();
    environment = {{"backend", "gpu"}, {"emulated", false}, {"device", fingerprint_json(fingerprint)}};
    architecture = "sm_" + std::to_string(fingerprint.sm);
    if (o.path != "driver-jit") throw UsageError("characterize runs through the driver JIT (--path driver-jit)");
    backend = std::make_unique<GpuBackend>(device, CompilePath::driver_jit, nullptr);
  } else {
    ModelLookup arithmetic;
    std::string described;
    if (o.emulate == "table") {
      arithmetic = [](const Form& form) { return verified_model(form, "sm_90", true); };
      described = "sm_90 (table)";
    } else {
      const std::string changes = o.emulate == "hypothesis" ? "" : o.emulate;
      try {
        with_changes(ModelParameters{}, changes);
      } catch (const std::invalid_argument& error) {
        throw UsageError(std::string("--emulate: ") + error.what());
      }
      arithmetic = [changes](const Form& form) -> std::optional<ModelParameters> {
        return with_changes(published_dense_hypothesis(form), changes);
      };
      described = changes.empty() ? "the published dense hypothesis" : "the hypothesis with " + changes;
    }
    backend = std::make_unique<EmulatorBackend>(o.threads, arithmetic, described);
    environment = {{"backend", "emulator"}, {"emulated", true}, {"arithmetic", described}};
  }

  const auto pairs = selected_pairs(
      o.filter, o.exclude, [&](const Form& form) { return backend->supports(form, nullptr); }, model_applies);
  if (pairs.empty()) throw UsageError("no float form that this backend runs matches --filter/--exclude");

  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  std::cout << "mmasp characterize: " << backend->description() << "; " << pairs.size() << " form x selector pairs, "
            << o.cases << " random cases each (seed " << o.seed << ")\n";
  json report = {{"schema", "mmasp-characterize/1"}, {"command", command}, {"environment", environment},
                 {"seed", o.seed}, {"random_cases_per_pair", o.cases}, {"pairs", json::array()}};
  CharacterizeOptions options;
  options.random_cases = o.cases;
  options.seed = o.seed;
  options.threads = o.threads;
  size_t disagreeing = 0;
  uint64_t total_cases = 0, total_deviations = 0;
  std::map<std::string, std::vector<std::string>> groups;   // parameters -> forms
  for (const auto& [form, selector] : pairs) {
    const ModelRecord* record = find_model_record(*form, architecture);
    const ModelParameters start = record ? record->parameters : published_dense_hypothesis(*form);
    const Characterization c = characterize(*backend, *form, selector, start, options);
    json line = characterization_json(c);
    json repros = json::array();
    for (const auto& deviation : c.deviations) {
      repros.push_back(gen::save_failure(deviation.test, std::span<const uint32_t>(deviation.observed),
                                         backend->description() + "; " + form->opcode + " selector " +
                                             std::to_string(selector) + "; " + deviation.origin,
                                         {"model: " + c.parameters.str()}, fs::path(o.out) / "deviations"));
    }
    line["deviation_repros"] = repros;
    // mma.sp against dense mma.sync on the decompressed A, where sm_90 has a dense instruction of the same shape.
    if (gpu)
      if (const auto dense = compare_with_dense(*backend, *gpu, *form, selector, o.seed, o.cases, o.threads,
                                                fs::path(o.out) / "dense-differences")) {
        line["dense_comparison"] = {{"dense", dense->dense}, {"cases", dense->cases}, {"identical", dense->identical},
                                    {"nan_from_unstored_zero_times_special", dense->unstored_specials},
                                    {"other_differences", dense->other()}, {"first_difference", dense->first_difference}};
        std::cout << "  dense " << dense->dense << " on the decompressed A: " << dense->identical << " of " << dense->cases
                  << " cases bit-identical, " << dense->unstored_specials
                  << " differ only where dense multiplies an unstored zero by Inf/NaN (F-0011), " << dense->other()
                  << " otherwise" << (dense->first_difference.empty() ? "" : "; " + dense->first_difference) << "\n";
        if (dense->other()) ++disagreeing;
      }
    report["pairs"].push_back(line);
    total_cases += c.random_cases + c.special_cases;
    total_deviations += c.random_deviations + c.special_deviations;
    disagreeing += !c.agrees();
    groups[c.parameters.str()].push_back(form->opcode + " sel=" + std::to_string(selector));

    std::cout << "\n" << form->opcode << " sel=" << selector << " — " << c.probes << " probes, "
              << (c.consistent ? "one parameter set explains every probe" : "NO parameter set explains every probe")
              << "\n";
    for (const auto& evidence : c.evidence) {
      const ModelParameter& parameter = *find_model_parameter(evidence.parameter);
      std::cout << "  " << evidence.parameter << " = " << evidence.value;
      if (evidence.consistent.size() > 1) {
        std::cout << "  (the probes cannot tell apart:";
        for (const auto& v : evidence.consistent) std::cout << " " << v;
        std::cout << "; random cases each other value mispredicts:";
        for (const auto& v : evidence.consistent)
          if (v != evidence.value) std::cout << " " << v << " " << evidence.random_mismatches.at(v);
        std::cout << ")";
      }
      const std::string ruled = ruled_out_text(parameter, evidence);
      if (!ruled.empty()) std::cout << "\n      ruled out: " << ruled;
      std::cout << "\n";
    }
    for (const auto& probe : c.unexplained_probes) std::cout << "  unexplained probe: " << probe << "\n";
    std::cout << "  special set: " << (c.special_cases - c.special_deviations) << "/" << c.special_cases
              << " agree; random: " << (c.random_cases - c.random_deviations) << "/" << c.random_cases << " agree ("
              << c.seconds << " s)\n";
    for (const auto& line_text : repros) std::cout << "  " << line_text.get<std::string>() << "\n";
  }
  report["summary"] = {{"pairs", pairs.size()}, {"pairs_disagreeing", disagreeing}, {"cases_checked", total_cases},
                       {"deviations", total_deviations}};
  json grouped = json::array();
  for (const auto& [parameters, members] : groups) grouped.push_back({{"parameters", parameters}, {"pairs", members}});
  report["groups"] = grouped;
  std::cout << "\nparameter sets found:\n";
  for (const auto& [parameters, members] : groups)
    std::cout << "  " << members.size() << " pairs: " << parameters << "\n";
  std::cout << "\n" << pairs.size() - disagreeing << " of " << pairs.size()
            << " pairs: the parameters found explain every probe and predict every case bit for bit (" << total_cases
            << " cases, " << total_deviations << " deviations)\n";
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << report.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
  return disagreeing ? kExitFail : kExitPass;
}

}  // namespace mmasp::cli
