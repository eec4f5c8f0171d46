// The readable output of `mmasp eval` and `mmasp repro`: a case's expected D with its bounds, and, when D was
// observed, the classification and the worst element.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "oracle/classification.h"
#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"
#include "oracle/reference.h"

namespace mmasp {

std::string describe_value(ElemType type, uint32_t code);  // "1.5 [0x3e00]"

struct Evaluation {
  std::vector<std::string> undefined_reasons;
  std::optional<ReferenceResult> expected;       // absent for undefined metadata
  std::optional<CaseVerdict> verdict;     // present when D was observed
  // The model tier, when a model was given: its D, and the elements where the observed D differs from it.
  std::string model;                      // what the model is, e.g. "sm_90 bit-exact model"
  std::optional<std::vector<uint32_t>> model_d;
  std::vector<size_t> deviating_elements;
};
// With `model`, the observed D is also compared bit for bit with it: a result inside the spec bound that differs is
// a Deviation (the model tier of mmasp run).
Evaluation evaluate(const MmaCase& test, std::optional<std::span<const uint32_t>> observed_d,
                    const std::optional<ModelParameters>& model = std::nullopt, const std::string& model_name = "");

std::string format_evaluation(const MmaCase& test, const Evaluation& evaluation,
                              std::optional<std::span<const uint32_t>> observed_d);

}  // namespace mmasp
