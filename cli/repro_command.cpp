// `mmasp repro CASE.json`: one case on this machine's backend (the GPU when it can run the form, else the emulator),
// expected against observed element by element. A case whose behaviour is undefined (an out-of-range selector or scale
// id, undefined metadata) is refused unless --ub is given, and then runs only in a process of its own (a trapping
// instruction takes that process, not this one) and is labelled "UB: not judged".
#include "cli/commands.h"

#include <iostream>
#include <memory>

#include "cli/common.h"
#include "harness/ptxas.h"
#include "oracle/mma_case.h"
#include "harness/backend.h"
#include "judge/suites.h"
#include "run/backends.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model_table.h"
#include "reports/evaluation.h"

namespace mmasp::cli {

namespace {

struct ReproOptions {
  std::string case_file;
  int device = 0;
  bool emulator = false;
  bool device_given = false;   // --device was given: a GPU is required
  bool ub = false;         // run an undefined-behaviour case (in isolation) instead of refusing it
  bool ub_child = false;   // internal: this process is that isolation
};


// The undefined-behaviour case in a process of its own: this program again, as `repro --ub-child`, whose output is
// shown as it is; however that process ends (a trap, a lost context, a signal) is said and is not this run's failure.
int run_in_isolation(const ReproOptions& o, const std::vector<std::string>& reasons) {
  std::cout << "UB: not judged — the behaviour of this case is undefined:\n";
  for (const auto& reason : reasons) std::cout << "  " << reason << "\n";
  std::vector<std::string> args = {"/proc/self/exe", "repro", "--ub-child", "--device", std::to_string(o.device), o.case_file};
  if (o.emulator) args.push_back("--emulator");
  std::cout << "running it in a process of its own:\n" << std::flush;
  const CommandResult child = run_command(args);
  std::cout << child.output;
  if (!child.completed || child.exit_code != 0)
    std::cout << "the isolated process ended with status " << child.exit_code
              << (child.completed ? "" : " (killed by a signal, or could not start)") << ": what undefined behaviour did here\n";
  return kExitPass;
}

int repro_main(const ReproOptions& o) {
  CaseFile file;
  try {
    file = load_case_file(o.case_file);
  } catch (const CaseFileError& error) {
    throw UsageError(error.what());
  }
  const Form& form = *file.test.form;
  const std::vector<std::string> undefined = undefined_behaviour(file.test);
  if (!undefined.empty() && !o.ub_child) {
    if (!o.ub) {
      std::string reasons;
      for (const auto& reason : undefined) reasons += "\n  " + reason;
      throw UsageError(o.case_file + ": the behaviour of this case is undefined, so it is never judged:" + reasons +
                       "\n  `mmasp repro --ub " + o.case_file + "` runs it in a process of its own and shows what the backend did");
    }
    return run_in_isolation(o, undefined);
  }
  run::BackendRequest request;
  // --device names a GPU: without one the case must not quietly run on the emulator.
  request.choice = o.emulator ? run::BackendChoice::emulator : o.device_given ? run::BackendChoice::gpu : run::BackendChoice::automatic;
  request.device = o.device;
  request.paths = run::CompilePaths{{CompilePath::driver_jit}};   // needs no toolkit on the GPU runner
  const run::Backends backends = run::make_backends(request);
  Backend* backend = &backends.primary();
  std::string why_emulated = backends.why_emulated;
  std::unique_ptr<Backend> fallback;   // a form this GPU cannot run (sm_120a) is emulated, and said so
  if (backends.hardware() && !backend->supports(form, &why_emulated)) {
    fallback = std::make_unique<EmulatorBackend>();
    backend = fallback.get();
  }
  std::optional<ModelParameters> model;   // the device's verified bit-exact model, where it has one
  const std::string model_name = "sm_" + std::to_string(backends.sm()) + " bit-exact model";
  if (backend->is_hardware()) model = verified_model(form, "sm_" + std::to_string(backends.sm()));
  std::cout << "backend   " << backend->description() << (backend->is_hardware() ? "" : " — " + why_emulated) << "\n";
  const std::vector<uint32_t> observed = execute(*backend, form, file.test.selector, {file.test})[0];
  Evaluation evaluation = evaluate(file.test, std::span<const uint32_t>(observed), model, model_name);
  std::cout << format_evaluation(file.test, evaluation, std::span<const uint32_t>(observed));
  if (evaluation.verdict && evaluation.verdict->status != Status::ub_not_judged) {
    std::cout << "elements that differ from D* rounded once:\n";
    int shown = 0;
    for (const auto& e : evaluation.verdict->elements)
      if (e.observed != e.expected) {
        std::cout << "  [" << e.row << "][" << e.col << "] expected " << describe_value(form.d, e.expected) << ", observed "
                  << describe_value(form.d, e.observed) << " — " << name(e.status)
                  << (e.reason.empty() ? "" : ": " + e.reason) << "\n";
        ++shown;
      }
    if (!shown) std::cout << "  none\n";
  }
  if (file.observed_d && *file.observed_d != observed)
    std::cout << "note: this run's D differs from the observed_d recorded in the file\n";
  return evaluation.verdict && is_failure(evaluation.verdict->status) ? kExitFail : kExitPass;
}

}  // namespace

Subcommand add_repro_command(CLI::App& mmasp) {
  auto o = std::make_shared<ReproOptions>();
  CLI::App* repro = mmasp.add_subcommand("repro", "rerun one case file on this machine's backend; expected vs observed per element");
  repro->add_option("case", o->case_file, "case file")->required();
  repro->add_option("--device", o->device, "GPU ordinal (requires that GPU: no fallback to the emulator)")
      ->capture_default_str()->check(whole_number(0, INT32_MAX))->each([o](const std::string&) { o->device_given = true; });
  repro->add_flag("--emulator", o->emulator, "use the CPU emulator even with a GPU present");
  repro->add_flag("--ub", o->ub, "run a case whose behaviour is undefined (in a process of its own; never judged) "
                  "instead of refusing it");
  repro->add_flag("--ub-child", o->ub_child)->group("");
  return {repro, [o](int, char**) { return repro_main(*o); }};
}

}  // namespace mmasp::cli
