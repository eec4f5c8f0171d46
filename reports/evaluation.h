// The readable output of `mmasp eval` and `mmasp repro`: a case's expected D with its bounds, and, when D was
// observed, the classification and the worst element (the judging itself: judge/evaluation.h).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "oracle/classification.h"
#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"
#include "oracle/reference.h"
#include "judge/evaluation.h"

namespace mmasp {

std::string describe_value(ElemType type, uint32_t code);  // "1.5 [0x3e00]"

std::string format_evaluation(const MmaCase& test, const Evaluation& evaluation,
                              std::optional<std::span<const uint32_t>> observed_d);

}  // namespace mmasp
