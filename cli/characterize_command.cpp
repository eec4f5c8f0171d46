// `mmasp characterize`: the bit-exact model parameters of each float form, found by the probes and checked on random
// cases (judge/characterize.h), on the GPU or on the emulator computing with a given arithmetic; on a GPU also mma.sp
// against dense mma.sync on the decompressed A (judge/dense_comparison.h).
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "cli/commands.h"
#include "cli/common.h"
#include "generators/reproduction.h"
#include "harness/backend.h"
#include "harness/gpu_probe.h"
#include "judge/characterize.h"
#include "judge/dense_comparison.h"
#include "judge/model_source.h"
#include "mmasp_commit.h"
#include "harness/ptxas.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model_table.h"
#include "oracle/target.h"
#include "oracle/output_file.h"
#include "reports/characterize_record.h"
#include "reports/findings.h"
#include "reports/run_record.h"
#include "run/emulated_arithmetic.h"

namespace fs = std::filesystem;

namespace mmasp::cli {
namespace {

struct CharacterizeCommandOptions {
  std::string filter = "*";
  std::string exclude;
  bool emulator = false;
  std::string emulate = "hypothesis";   // the emulator's arithmetic (run/emulated_arithmetic.h)
  std::string save;                      // --save: the model record to write (oracle/model_record_file.h)
  std::string architecture = "sm_90";    // --architecture: what an emulator-made record is for
  int device = 0;
  std::string path = "driver-jit";
  uint64_t cases = 20000;
  uint64_t seed = 1;
  std::string json_path;
  std::string out = "mmasp-characterize";
  bool all_selectors = true;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

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

void add_characterize_options(CLI::App* command, CharacterizeCommandOptions& o) {
  command->add_option("--filter", o.filter, "only float forms whose opcode matches this glob")->capture_default_str();
  command->add_option("--exclude", o.exclude, "leave out forms whose opcode matches this glob");
  command->add_flag("--emulator", o.emulator, "run on the CPU emulator (it computes with a model: see --emulate)");
  command->add_option("--emulate", o.emulate,
                      "the emulator's arithmetic: 'hypothesis' (the published dense parameters, default), 'table' "
                      "(the built-in sm_90 records), or changes to the hypothesis, e.g. 'fraction_bits=24'")
      ->capture_default_str();
  command->add_option("--save", o.save, "write a model record (schema mmasp-model-record/1) that mmasp run --model-record "
                      "judges by; refused unless every probe is explained and every checked case agrees");
  command->add_option("--architecture", o.architecture, "with --emulator: the architecture the saved record is for")
      ->capture_default_str();
  command->add_option("--device", o.device, "GPU ordinal")->capture_default_str()->check(whole_number(0, INT32_MAX));
  command->add_option("--path", o.path, "compile path on a GPU: the driver JIT (the only one characterize uses)")
      ->check(CLI::IsMember({"driver-jit"}))->capture_default_str();
  command->add_option("--cases", o.cases, "random cases per form and selector that must agree with the model")
      ->capture_default_str()->check(whole_number(0, UINT32_MAX));
  command->add_option("--seed", o.seed, "seed of the random cases")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  command->add_option("--json", o.json_path, "write the full results here (schema mmasp-characterize/1)");
  command->add_option("--out", o.out, "directory for case files of deviations")->capture_default_str();
  command->add_option("--threads", o.threads, "host threads")->capture_default_str()->check(whole_number(1, kMaxThreads));
}

// The backend: the GPU, or the emulator computing with a model.
struct CharacterizeBackend {
  std::unique_ptr<Backend> backend;
  std::shared_ptr<CudaDevice> gpu;   // null on the emulator
  std::string architecture = "sm_90";
  CharacterizeEnvironment environment;
};

CharacterizeBackend characterize_backend(const CharacterizeCommandOptions& o) {
  CharacterizeBackend out;
  if (o.emulator) {
    std::string described;
    ModelLookup arithmetic;
    try {
      arithmetic = run::emulated_arithmetic(o.emulate, &described);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("--emulate: ") + error.what());
    }
    out.architecture = o.architecture;
    out.backend = std::make_unique<EmulatorBackend>(o.threads, arithmetic, described);
    out.environment = {"emulator", true, std::nullopt, described};
    return out;
  }
  const GpuProbe probe = probe_gpus();
  if (!probe.available) throw UsageError("no GPU (" + probe.reason + "); use --emulator to characterise a model");
  out.gpu = std::make_shared<CudaDevice>(o.device);
  const DeviceFingerprint fingerprint = out.gpu->fingerprint();
  out.environment = {"gpu", false, fingerprint, std::nullopt};
  out.architecture = "sm_" + std::to_string(fingerprint.sm);
  out.backend = std::make_unique<GpuBackend>(out.gpu, CompilePath::driver_jit, nullptr);
  return out;
}

// How the values the model probes left open were settled: by a case already run, by a discriminating input found and
// run (it joined the probes), as equivalent on the form, or not at all (alternatives left).
void print_settlements(const Characterization& c) {
  std::map<Settled, int> counts;
  for (const auto& s : c.settlements) ++counts[s.how];
  std::cout << "  other values: " << counts[Settled::by_probe] << " ruled out by probes (" << c.discriminating.size()
            << " of them discriminating inputs found and run), " << counts[Settled::by_case] << " by random or special cases, "
            << counts[Settled::equivalent] << " equivalent on this form, " << counts[Settled::left] << " left\n";
  std::map<std::string, std::vector<std::string>> equivalent, left;
  for (const auto& s : c.settlements) {
    if (s.how == Settled::equivalent) equivalent[s.parameter + ": " + s.by.substr(s.by.find(": ") + 2)].push_back(s.value);
    if (s.how == Settled::left) left[s.parameter].push_back(s.value);
  }
  for (const auto& [what, values] : equivalent) {
    std::cout << "    equivalent:";
    for (const auto& v : values) std::cout << " " << v;
    std::cout << " (" << what << ")\n";
  }
  for (const auto& [parameter, values] : left) {
    std::cout << "    LEFT: " << parameter << " =";
    for (const auto& v : values) std::cout << " " << v;
    std::cout << " (no input found that tells it from " << find_model_parameter(parameter)->get(c.parameters) << ")\n";
  }
  std::cout << "  " << (c.unique() ? "unique within the declared space (every other value of every parameter settled)"
                                  : "NOT shown unique: alternatives are left") << "\n";
}

// What a person reads of one pair: the parameters, what each was told apart by, what the probes could not tell apart.
void print_characterization(const Characterization& c, const std::vector<std::string>& repros) {
  std::cout << "\n" << c.form->opcode << " sel=" << c.selector << " — " << c.probes << " probes, "
            << (c.consistent ? "one parameter set explains every probe" : "NO parameter set explains every probe") << "\n";
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
  print_settlements(c);
  std::cout << "  special set: " << (c.special_cases - c.special_deviations) << "/" << c.special_cases
            << " agree; random: " << (c.random_cases - c.random_deviations) << "/" << c.random_cases << " agree ("
            << c.seconds << " s)\n";
  for (const auto& line_text : repros) std::cout << "  " << line_text << "\n";
}

// The dense comparison of one pair into its JSON line; whether it found a difference other than F-0011's.
bool dense_comparison(const CharacterizeCommandOptions& o, CharacterizeBackend& setup, const Form& form, int selector,
                      CharacterizedPair& line) {
  const auto dense = compare_with_dense(*setup.backend, *setup.gpu, form, selector, o.seed, o.cases, o.threads,
                                        fs::path(o.out) / "dense-differences");
  if (!dense) return false;
  line.dense_comparison = DenseComparisonRecord{dense->dense, dense->cases, dense->identical, dense->unstored_specials,
                                                dense->other(), dense->first_difference};
  std::cout << "  dense " << dense->dense << " on the decompressed A: " << dense->identical << " of " << dense->cases
            << " cases bit-identical, " << dense->unstored_specials
            << " differ only where dense multiplies an unstored zero by Inf/NaN (F-0011), " << dense->other() << " otherwise"
            << (dense->first_difference.empty() ? "" : "; " + dense->first_difference) << "\n";
  return dense->other() > 0;
}

struct Totals {
  size_t disagreeing = 0, unique = 0;
  uint64_t cases = 0, deviations = 0;
  std::map<std::string, std::vector<std::string>> groups;   // parameters -> pairs
  std::vector<Characterization> found;
};

// With the built-in table switched off (MMASP_BUILTIN_MODELS=off, to make a record of one's own where the table has
// one), what was found against what the table says: equal, equivalent on the form (and why), or different.
void compare_with_table(const Characterization& c, const std::string& architecture, CharacterizedPair& line) {
  const ModelRecord* table = find_model_record(*c.form, architecture);
  if (builtin_models_enabled() || !table || !table->verified) return;
  std::string verdict = "equal";
  if (!(table->parameters == c.parameters)) {
    const auto reason = equivalence_on(*c.form, table->parameters, c.parameters);
    verdict = reason ? "equivalent on the form (" + *reason + ")" : "DIFFERENT from " + table->parameters.str();
  }
  line.built_in_table = verdict;
  std::cout << "  the built-in " << architecture << " table (switched off): " << verdict << "\n";
}

CharacterizedPair characterize_pair(const CharacterizeCommandOptions& o, CharacterizeBackend& setup, const Form& form,
                                    int selector, Totals& totals) {
  // The search starts from the architecture's record (a candidate where nothing is verified), or from the published
  // dense parameters; with the built-in table switched off, from the published parameters alone.
  const ModelRecord* record = builtin_models_enabled() ? find_model_record(form, setup.architecture) : nullptr;
  const ModelParameters start = record ? record->parameters : published_dense_hypothesis(form);
  CharacterizeOptions options;
  options.random_cases = o.cases;
  options.seed = o.seed;
  options.threads = o.threads;
  const Characterization c = characterize(*setup.backend, form, selector, start, options);
  CharacterizedPair line = characterized_pair(c);
  std::vector<std::string>& repros = line.deviation_repros;
  for (const auto& deviation : c.deviations)
    repros.push_back(gen::save_failure(deviation.test, std::span<const uint32_t>(deviation.observed),
                                       setup.backend->description() + "; " + form.opcode + " selector " +
                                           std::to_string(selector) + "; " + deviation.origin,
                                       {"model: " + c.parameters.str()}, fs::path(o.out) / "deviations",
                                       setup.backend->architecture()));
  // mma.sp against dense mma.sync on the decompressed A, where sm_90 has a dense instruction of the same shape.
  if (setup.gpu && dense_comparison(o, setup, form, selector, line)) ++totals.disagreeing;
  totals.cases += c.random_cases + c.special_cases;
  totals.deviations += c.random_deviations + c.special_deviations;
  totals.disagreeing += !c.agrees();
  totals.unique += c.unique();
  totals.groups[c.parameters.str()].push_back(form.opcode + " sel=" + std::to_string(selector));
  print_characterization(c, repros);
  compare_with_table(c, setup.architecture, line);
  totals.found.push_back(c);
  return line;
}

// --save: the record of every pair characterised, or a refusal (exit 1) naming the pair that keeps it from being one.
std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

bool save_record(const CharacterizeCommandOptions& o, const CharacterizeBackend& setup, const Totals& totals,
                 const std::string& command) {
  std::string refusal;
  std::optional<ModelRecordFile> record = model_record_of(totals.found, &refusal);
  if (!record) {
    std::cout << "NOT saved to " << o.save << ": " << refusal << "\n";
    return false;
  }
  record->architecture = setup.architecture;
  record->emulated = !setup.gpu;
  if (setup.gpu) {
    const DeviceFingerprint f = setup.gpu->fingerprint();
    record->device_name = f.name;
    record->device_uuid = f.uuid;
    record->driver_version = f.driver_version;
    record->driver_api_version = f.driver_api_version;
  } else {
    record->arithmetic = setup.environment.arithmetic.value_or("");
  }
  try {
    record->toolkit = locate_ptxas(std::nullopt).version;
  } catch (const std::exception&) {
  }
  record->made = utc_now();
  record->mmasp_version = MMASP_VERSION;
  record->mmasp_commit = MMASP_GIT_COMMIT;
  record->command = command;
  // The default search path (docs/architectures.md) may not exist yet: the record's folder is made.
  if (const auto folder = std::filesystem::path(o.save).parent_path(); !folder.empty())
    std::filesystem::create_directories(folder);
  write_file_atomically(o.save, to_json(*record).dump(1) + "\n");
  size_t unique = 0;
  for (const auto& form : record->forms) unique += form.unique;
  std::cout << "saved " << o.save << ": " << record->forms.size() << " forms (" << unique
            << " shown unique), " << record->provenance() << "\n";
  return true;
}

int characterize_main(const CharacterizeCommandOptions& o, int argc, char** argv) {
  if (!architecture_number(o.architecture)) throw UsageError("--architecture: an architecture such as sm_80 is expected");
  // A record says its parameters predicted every random case checked: with none checked it would claim what nothing
  // showed.
  if (!o.save.empty() && o.cases == 0)
    throw UsageError("--save needs random cases to check the parameters against (--cases 0 checks none)");
  CharacterizeBackend setup = characterize_backend(o);
  const auto pairs = selected_pairs(
      o.filter, o.exclude, [&](const Form& form) { return setup.backend->supports(form, nullptr); }, model_applies);
  if (pairs.empty()) throw UsageError("no float form that this backend runs matches --filter/--exclude");
  std::cout << "mmasp characterize: " << setup.backend->description() << "; " << pairs.size() << " form x selector pairs, "
            << o.cases << " random cases each (seed " << o.seed << ")\n";
  CharacterizeReport report;
  report.command = command_line(argc, argv);
  report.environment = setup.environment;
  report.seed = o.seed;
  report.random_cases_per_pair = o.cases;
  Totals totals;
  for (const auto& [form, selector] : pairs) report.pairs.push_back(characterize_pair(o, setup, *form, selector, totals));
  report.summary = {pairs.size(), totals.disagreeing, totals.cases, totals.deviations, totals.unique};
  for (const auto& [parameters, members] : totals.groups) report.groups.push_back({parameters, members});
  std::cout << "\nparameter sets found:\n";
  for (const auto& [parameters, members] : totals.groups) std::cout << "  " << members.size() << " pairs: " << parameters << "\n";
  std::cout << "\n" << pairs.size() - totals.disagreeing << " of " << pairs.size()
            << " pairs: the parameters found explain every probe and predict every case bit for bit (" << totals.cases
            << " cases, " << totals.deviations << " deviations)\n"
            << totals.unique << " of " << pairs.size()
            << " pairs: shown unique within the declared space (every other value of every parameter settled)\n";
  if (!o.json_path.empty()) write_file_atomically(o.json_path, characterize_json(report).dump(1) + "\n");
  if (!o.save.empty() && !save_record(o, setup, totals, command_line(argc, argv))) return kExitFail;
  return totals.disagreeing ? kExitFail : kExitPass;
}

}  // namespace

Subcommand add_characterize_command(CLI::App& mmasp) {
  auto o = std::make_shared<CharacterizeCommandOptions>();
  CLI::App* characterize = mmasp.add_subcommand("characterize", "measure the float arithmetic: the bit-exact model "
                                                "parameters of each form, with the probes that show them");
  add_characterize_options(characterize, *o);
  return {characterize, [o](int argc, char** argv) { return characterize_main(*o, argc, argv); }};
}

}  // namespace mmasp::cli
