#include "run/emulated_arithmetic.h"

#include "oracle/numeric_model_table.h"

namespace mmasp::run {

ModelLookup emulated_arithmetic(const std::string& emulate, std::string* described) {
  if (emulate == "table") {
    *described = "sm_90 (table)";
    return [](const Form& form) { return verified_model(form, "sm_90", true); };
  }
  const std::string changes = emulate == "hypothesis" ? "" : emulate;
  with_changes(ModelParameters{}, changes);   // throws for an unknown name or value
  *described = changes.empty() ? "the published dense hypothesis" : "the hypothesis with " + changes;
  return [changes](const Form& form) -> std::optional<ModelParameters> {
    return with_changes(published_dense_hypothesis(form), changes);
  };
}

}  // namespace mmasp::run
