#include "judge/case_judgement.h"

#include <algorithm>
#include <stdexcept>

namespace mmasp {

std::optional<std::vector<uint32_t>> model_prediction(const MmaCase& test, const ModelParameters& parameters) {
  try {
    return model_result(test, parameters);
  } catch (const ModelUndefinedInput&) {
    return std::nullopt;
  } catch (const std::invalid_argument& error) {
    // Parameters the arithmetic cannot compute with, or a case it cannot take: the judgement cannot be made, and a case
    // the model did not predict must never count as judged by it.
    throw ModelError(std::string("the model cannot compute this case: ") + error.what());
  }
}

CaseJudgement judge_case(const MmaCase& test, std::span<const uint32_t> observed, const ModelParameters* model,
                         ModelMode mode, bool reference_required) {
  CaseJudgement out;
  if (!model || mode == ModelMode::off) {
    out.verdict = judge(test, observed);
    out.spec_status = out.verdict.status;
    return out;
  }
  out.model_d = model_prediction(test, *model);
  out.model_active = out.model_d.has_value();
  const bool predicted = out.model_d && std::equal(out.model_d->begin(), out.model_d->end(), observed.begin(), observed.end());
  if (predicted && !reference_required) {
    out.verdict.status = Status::pass;   // the model predicted every bit: judged by the model tier alone
    out.reference_ran = false;
    return out;
  }
  out.verdict = judge(test, observed);
  out.spec_status = out.verdict.status;
  if (out.model_d && !predicted) {
    out.model_mismatch = true;
    if (!is_failure(out.verdict.status) && out.verdict.status != Status::ub_not_judged) {
      out.deviation = true;
      out.verdict.status = mode == ModelMode::strict ? Status::deviation : worse(out.verdict.status, Status::quality_warning);
    }
  }
  return out;
}

}  // namespace mmasp
