// One case judged by both tiers — the one place where a case's observed D becomes a verdict, for every command:
// `mmasp run` (host path, and the host replay of what the GPU-resident path found), `eval`, `repro`, `selftest` and
// `characterize`'s random checks.
//   - The spec tier: the exact reference and the spec-derived bounds (oracle/classification.h: Pass, QualityWarning,
//     Fail; UB-not-judged for undefined inputs).
//   - The model tier: where a bit-exact model applies, D must be the model's bits. A case inside the spec bound whose D
//     differs is a Deviation (strict) or a QualityWarning (warn). A case the model predicted bit for bit needs no
//     reference unless it is sampled (the special set, the first and every Nth random case).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "judge/model_tier.h"
#include "oracle/classification.h"
#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"

namespace mmasp {

struct CaseJudgement {
  CaseVerdict verdict;                 // its status is the case's final status (both tiers)
  Status spec_status = Status::pass;   // the spec tier's own status, where it ran
  bool reference_ran = true;           // false: the model alone judged the case (it predicted every bit)
  bool model_active = false;           // the model tier judged the case (a model applies to the form)
  bool model_mismatch = false;         // D differs from the model's, whatever the spec tier said
  bool deviation = false;              // ... while inside the spec bound: the model tier's own finding
  std::optional<std::vector<uint32_t>> model_d;   // the model's D, when it predicted one
};

// The model was asked for a case it cannot compute (parameters outside their range): an error of the run, never a
// case "judged by the model".
struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The model's D for a case, or nullopt where the inputs are undefined (metadata outside the defined values); throws
// ModelError for anything else the model cannot compute.
std::optional<std::vector<uint32_t>> model_prediction(const MmaCase& test, const ModelParameters& parameters);

// `model` null: the spec tier alone. `reference_required`: the spec tier judges the case even when the model predicted
// it (a sampled case; eval and repro always).
CaseJudgement judge_case(const MmaCase& test, std::span<const uint32_t> observed, const ModelParameters* model,
                         ModelMode mode, bool reference_required);

}  // namespace mmasp
