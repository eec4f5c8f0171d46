#include "cli/repro_command.h"

#include <iostream>
#include <memory>

#include "cli/common.h"
#include "harness/backend.h"
#include "harness/execution.h"
#include "run/backends.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model_table.h"
#include "reports/evaluation.h"

namespace mmasp::cli {

int repro_main(const std::string& case_file, int device, bool force_emulator) {
  CaseFile file;
  try {
    file = load_case_file(case_file);
  } catch (const CaseFileError& error) {
    throw UsageError(error.what());
  }
  const Form& form = *file.test.form;
  run::BackendRequest request;
  request.emulator = force_emulator;
  request.device = device;
  request.paths = "driver-jit";   // needs no toolkit on the GPU runner
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

}  // namespace mmasp::cli
