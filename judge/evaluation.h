// One case as `mmasp eval` and `mmasp repro` judge it: its expected D (the exact reference, for showing), and, when D
// was observed, the verdict of both tiers (judge_case: the spec tier always runs; a model, when given, makes a result
// inside the spec bound that differs from its bits a Deviation, as the strict model tier of mmasp run does).
// reports/evaluation.h shows it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "oracle/classification.h"
#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"
#include "oracle/reference.h"

namespace mmasp {

struct Evaluation {
  std::vector<std::string> undefined_reasons;
  std::optional<ReferenceResult> expected;   // absent for undefined metadata
  std::optional<CaseVerdict> verdict;        // present when D was observed
  // The model tier, when a model was given: its D, and the elements where the observed D differs from it.
  std::string model;                         // what the model is, e.g. "sm_90 bit-exact model"
  std::optional<std::vector<uint32_t>> model_d;
  std::vector<size_t> deviating_elements;
};

Evaluation evaluate(const MmaCase& test, std::optional<std::span<const uint32_t>> observed_d,
                    const std::optional<ModelParameters>& model = std::nullopt, const std::string& model_name = "");

}  // namespace mmasp
