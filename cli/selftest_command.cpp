#include "cli/selftest_command.h"

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/common.h"
#include "harness/gpu_probe.h"
#include "judge/selftest.h"
#include "oracle/numeric_model_table.h"
#include "reports/findings.h"
#include "reports/run_report.h"

using nlohmann::json;

namespace mmasp::cli {

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
}

int selftest_main(const SelftestCommandOptions& o, int argc, char** argv) {
  std::unique_ptr<Backend> backend;
  ModelLookup arithmetic;
  ModelTier tier;
  tier.mode = ModelMode::strict;
  json environment;
  if (o.emulator) {
    // The emulator computes with the table's sm_90 parameters (verified or not), and the model tier judges with the
    // same parameters: without a fault the two agree bit for bit, as they do on a GPU whose model is verified.
    arithmetic = [](const Form& form) { return verified_model(form, "sm_90", true); };
    backend = std::make_unique<EmulatorBackend>(o.threads, arithmetic, "sm_90 (model table)");
    tier.description = "sm_90 model table (emulated)";
    environment = {{"backend", "emulator"}, {"emulated", true}};
  } else {
    const GpuProbe probe = probe_gpus();
    if (!probe.available) throw UsageError("no GPU (" + probe.reason + "); use --emulator");
    auto device = std::make_shared<CudaDevice>(o.device);
    const std::string architecture = "sm_" + std::to_string(device->sm());
    const bool candidates = o.model_candidates;
    arithmetic = [architecture, candidates](const Form& form) { return verified_model(form, architecture, candidates); };
    tier.description = architecture + (candidates ? " bit-exact model (candidate records)" : " bit-exact model (verified)");
    environment = {{"backend", "gpu"}, {"emulated", false}, {"device", fingerprint_json(device->fingerprint())}};
    backend = std::make_unique<GpuBackend>(device, CompilePath::driver_jit, nullptr);
  }
  tier.parameters = arithmetic;

  const auto pairs =
      selected_pairs(o.filter, o.exclude, [&](const Form& form) { return backend->supports(form, nullptr); });
  if (pairs.empty()) throw UsageError("no form that this backend runs matches --filter/--exclude");
  std::vector<const Fault*> faults;
  for (const auto& fault : fault_catalog())
    if (glob_match(o.fault, fault.id)) faults.push_back(&fault);
  if (faults.empty()) throw UsageError("no fault matches --fault '" + o.fault + "'");

  std::cout << "mmasp selftest --faults: " << backend->description() << "; " << faults.size() << " faults x "
            << pairs.size() << " form x selector pairs, " << o.cases << " random cases + the special set each\n";
  SelftestOptions options;
  options.random_cases = o.cases;
  options.special_generated = o.special_generated;
  options.seed = o.seed;
  options.threads = o.threads;
  const SelftestReport report = run_fault_selftest(*backend, pairs, faults, tier, arithmetic, options,
                                                   [](const std::string& line) { std::cout << "  " << line << std::endl; });

  json out = {{"schema", "mmasp-selftest/1"}, {"environment", environment}, {"pairs", pairs.size()},
              {"cases_per_pair", o.cases}, {"control_clean", report.control_clean()}, {"faults", json::array()}};
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  out["command"] = command;
  std::cout << "\n| fault | kind | pairs it applies to | pairs it changed | caught | by the model tier alone | missed |"
               " unseeable here |\n"
            << "|---|---|---|---|---|---|---|---|\n";
  size_t missed_total = 0, unseeable_total = 0;
  for (const auto& f : report.faults) {
    const auto missed = f.missed(), unseeable = f.unseeable();
    missed_total += missed.size();
    unseeable_total += unseeable.size();
    static const char* kinds[] = {"registers", "selector", "output", "numerics"};
    std::cout << "| " << f.fault->id << " | " << kinds[int(f.fault->kind)] << (f.fault->in_bound ? " (in-bound)" : "")
              << " | " << f.pairs.size() << " | " << f.affected() << " | " << f.caught() << " | "
              << f.caught_by_model_only() << " | " << missed.size() << " | " << unseeable.size() << " |\n";
    json pairs_json = json::array();
    for (const auto& p : f.pairs)
      pairs_json.push_back({{"form", p.form->opcode}, {"selector", p.selector}, {"cases", p.cases},
                            {"changed", p.changed}, {"status", name(p.status)}, {"spec_caught", p.spec_caught},
                            {"model_caught", p.model_caught}, {"model_judged", p.model_judged}});
    out["faults"].push_back({{"id", f.fault->id}, {"description", f.fault->description},
                             {"kind", kinds[int(f.fault->kind)]}, {"in_bound", f.fault->in_bound},
                             {"applicable", f.pairs.size()}, {"affected", f.affected()}, {"caught", f.caught()},
                             {"caught_by_model_only", f.caught_by_model_only()}, {"missed", missed.size()},
                             {"unseeable", unseeable.size()}, {"pairs", pairs_json}});
  }
  for (const auto& f : report.faults)
    for (const auto* p : f.missed())
      std::cout << "MISSED: " << f.fault->id << " changed " << p->changed << " of " << p->cases << " cases of "
                << p->form->opcode << " sel=" << p->selector << " and the run said " << name(p->status) << "\n";
  for (const auto& f : report.faults)
    for (const auto* p : f.unseeable())
      std::cout << "UNSEEABLE HERE: " << f.fault->id << " changed " << p->changed << " of " << p->cases << " cases of "
                << p->form->opcode << " sel=" << p->selector << " within the spec bound (the run said "
                << name(p->status) << "), and no bit-exact model judges this pair\n";
  if (!report.control_clean())
    for (const auto& p : report.control)
      if (p.caught())
        std::cout << "CONTROL NOT CLEAN: " << p.form->opcode << " sel=" << p.selector << " is " << name(p.status)
                  << " without any fault\n";
  std::cout << "\n" << report.faults.size() << " faults: " << (report.faults.size() - [&] {
    size_t n = 0;
    for (const auto& f : report.faults) n += !f.missed().empty();
    return n;
  }()) << " caught in every pair they changed where a tier could see it; " << missed_total << " pairs missed; "
            << unseeable_total << " pairs where only a bit-exact model could have seen the change and none judges; "
            << "control run " << (report.control_clean() ? "clean" : "NOT clean") << "\n";
  out["missed_pairs"] = missed_total;
  out["unseeable_pairs"] = unseeable_total;
  if (!o.json_path.empty()) {
    std::ofstream file(o.json_path);
    file << out.dump(1) << "\n";
    if (!file) throw std::runtime_error("cannot write " + o.json_path);
  }
  return report.control_clean() && report.all_caught() ? kExitPass : kExitFail;
}

}  // namespace mmasp::cli
