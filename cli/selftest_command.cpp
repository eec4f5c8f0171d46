// `mmasp selftest --faults`: the default suites through every injected fault of the catalogue (judge/selftest.h), on
// the GPU or on the emulator computing with the sm_90 model table; a table per fault, and exit 1 for a fault missed
// where a tier could have seen it or a control run that was not clean.
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/common.h"
#include "judge/model_source.h"
#include "harness/gpu_probe.h"
#include "judge/selftest.h"
#include "oracle/numeric_model_table.h"
#include "oracle/output_file.h"
#include "reports/findings.h"
#include "reports/run_report.h"
#include "reports/selftest_report.h"

using nlohmann::json;

namespace mmasp::cli {
namespace {

struct SelftestCommandOptions {
  bool faults = false;
  std::string filter = "*";
  std::string exclude;
  std::string fault = "*";
  bool emulator = false;
  int device = 0;
  uint64_t cases = 2000;
  uint32_t special_generated = 64;
  uint64_t seed = 1;
  std::string json_path;
  bool model_candidates = false;
  std::string model_record;         // --model-record (judge/model_source.h)
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

void add_selftest_options(CLI::App* command, SelftestCommandOptions& o) {
  command->add_flag("--faults", o.faults, "run the fault catalogue (the only selftest so far)")->required();
  command->add_option("--filter", o.filter, "only forms whose opcode matches this glob")->capture_default_str();
  command->add_option("--exclude", o.exclude, "leave out forms whose opcode matches this glob");
  command->add_option("--fault", o.fault, "only faults whose id matches this glob")->capture_default_str();
  command->add_flag("--emulator", o.emulator,
                    "run on the CPU emulator computing with the sm_90 model table (what CI can run)");
  command->add_option("--device", o.device, "GPU ordinal")->capture_default_str()->check(whole_number(0, INT32_MAX));
  command->add_option("--cases", o.cases, "random cases per form, selector and fault")->capture_default_str()
      ->check(whole_number(1, UINT32_MAX));
  command->add_option("--special-generated", o.special_generated, "generated special-value cases per pair")
      ->capture_default_str()->check(whole_number(0, UINT32_MAX));
  command->add_option("--seed", o.seed, "seed")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  command->add_option("--json", o.json_path, "write the outcome per fault and pair here (schema mmasp-selftest/1)");
  command->add_option("--threads", o.threads, "host threads")->capture_default_str()->check(whole_number(1, kMaxThreads));
  command->add_flag("--model-candidates", o.model_candidates, "on a GPU, use unverified model records too");
  command->add_option("--model-record", o.model_record, "judge (and, on the emulator, compute) with this model record "
                      "(mmasp characterize --save) instead of the built-in table; on a GPU the default search path "
                      "applies without it");
}

// The backend the faults are injected into, the model it computes with (the faults change it) and the tier that
// judges: the emulator with the sm_90 table, or the GPU with its architecture's model.
struct SelftestBackend {
  std::unique_ptr<Backend> backend;
  ModelLookup arithmetic;
  ModelTier tier;
  json environment;
};

SelftestBackend selftest_backend(const SelftestCommandOptions& o) {
  SelftestBackend out;
  out.tier.mode = ModelMode::strict;
  ModelSourceRequest request;
  request.record = o.model_record;
  request.candidates = o.model_candidates;
  std::shared_ptr<CudaDevice> device;
  if (!o.emulator) {
    const GpuProbe probe = probe_gpus();
    if (!probe.available) throw UsageError("no GPU (" + probe.reason + "); use --emulator");
    device = std::make_shared<CudaDevice>(o.device);
    const DeviceFingerprint d = device->fingerprint();
    request.architecture = "sm_" + std::to_string(d.sm);
    request.driver_version = d.driver_version;
    request.device_uuid = d.uuid;
  }
  ModelSource source;
  if (device || !o.model_record.empty()) {
    try {
      source = resolve_model_source(request);
    } catch (const ModelRecordError& error) {
      throw UsageError(std::string("--model-record: ") + error.what());
    }
    for (const auto& warning : source.warnings) std::cout << "warning: " << warning << "\n";
  }
  if (o.emulator) {
    // The emulator computes with the model that judges (the sm_90 table, verified or not, or the record): without a
    // fault the two agree bit for bit, as they do on a GPU whose model is verified.
    if (!o.model_record.empty()) {
      out.arithmetic = source.lookup;
      out.tier.description = source.description;
    } else {
      out.arithmetic = [](const Form& form) { return verified_model(form, "sm_90", true); };
      out.tier.description = "sm_90 model table (emulated)";
    }
    out.backend = std::make_unique<EmulatorBackend>(o.threads, out.arithmetic, out.tier.description);
    out.environment = {{"backend", "emulator"}, {"emulated", true}};
  } else {
    out.arithmetic = source.lookup;
    out.tier.description = source.description;
    out.environment = {{"backend", "gpu"}, {"emulated", false}, {"device", fingerprint_json(device->fingerprint())}};
    out.backend = std::make_unique<GpuBackend>(device, CompilePath::driver_jit, nullptr);
  }
  out.environment["model_source"] = out.tier.description;
  std::cout << "model: " << out.tier.description << "\n";
  out.tier.parameters = out.arithmetic;
  return out;
}

int selftest_main(const SelftestCommandOptions& o, int argc, char** argv) {
  SelftestBackend setup = selftest_backend(o);
  const auto pairs =
      selected_pairs(o.filter, o.exclude, [&](const Form& form) { return setup.backend->supports(form, nullptr); });
  if (pairs.empty()) throw UsageError("no form that this backend runs matches --filter/--exclude");
  std::vector<const Fault*> faults;
  for (const auto& fault : fault_catalog())
    if (glob_match(o.fault, fault.id)) faults.push_back(&fault);
  if (faults.empty()) throw UsageError("no fault matches --fault '" + o.fault + "'");
  std::cout << "mmasp selftest --faults: " << setup.backend->description() << "; " << faults.size() << " faults x "
            << pairs.size() << " form x selector pairs, " << o.cases << " random cases + the special set each\n";
  const SelftestOptions options{o.cases, o.special_generated, o.seed, o.threads};
  SelftestReport report = run_fault_selftest(*setup.backend, pairs, faults, setup.tier, setup.arithmetic, options,
                                                   [](const std::string& line) { std::cout << "  " << line << std::endl; });
  std::cout << selftest_text(report);
  if (!o.json_path.empty()) {
    const SelftestRecord record{setup.environment, pairs.size(), o.cases, command_line(argc, argv), report};
    write_file_atomically(o.json_path, selftest_json(record).dump(1) + "\n");
  }
  return report.control_clean() && report.all_caught() ? kExitPass : kExitFail;
}

}  // namespace

Subcommand add_selftest_command(CLI::App& mmasp) {
  auto o = std::make_shared<SelftestCommandOptions>();
  CLI::App* selftest = mmasp.add_subcommand("selftest", "prove the judging tiers: run the suites through injected faults (--faults)");
  add_selftest_options(selftest, *o);
  selftest->footer(
      "Exit 0: every fault was caught in every pair where it changed a result and a tier could see it, and the run\n"
      "without a fault was clean. A fault that can stay inside the spec bound (one-ulp, sign, low-bit flips) in a\n"
      "float pair that no bit-exact model judges is listed as UNSEEABLE HERE, not missed. Exit 1: a MISSED line or a\n"
      "control run that was not clean.");
  return {selftest, [o](int argc, char** argv) { return selftest_main(*o, argc, argv); }};
}

}  // namespace mmasp::cli
