#include "judge/evaluation.h"

#include <stdexcept>

#include "judge/case_judgement.h"

namespace mmasp {

Evaluation evaluate(const MmaCase& test, std::optional<std::span<const uint32_t>> observed_d,
                    const std::optional<ModelParameters>& model, const std::string& model_name) {
  Evaluation evaluation;
  evaluation.undefined_reasons = undefined_behaviour(test);
  try {
    evaluation.expected = reference(test);
  } catch (const std::invalid_argument&) {
    // Undefined metadata: nothing can be expected; the reasons say why.
  }
  // The model judges only defined cases of the forms it describes.
  const bool modelled = model && evaluation.undefined_reasons.empty() && model_applies(*test.form);
  if (modelled) evaluation.model = model_name;
  if (observed_d) {
    const CaseJudgement judged = judge_case(test, *observed_d, modelled ? &*model : nullptr, ModelMode::strict, true);
    evaluation.verdict = judged.verdict;
    evaluation.model_d = judged.model_d;
  } else if (modelled) {
    evaluation.model_d = model_prediction(test, *model);
  }
  if (observed_d && evaluation.model_d)
    for (size_t e = 0; e < evaluation.model_d->size(); ++e)
      if ((*evaluation.model_d)[e] != (*observed_d)[e]) evaluation.deviating_elements.push_back(e);
  return evaluation;
}

}  // namespace mmasp
