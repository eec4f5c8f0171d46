// Which model parameters each architecture's float mma.sp forms use, with the evidence that established them: the
// one place they live (numeric_model_table.cpp). A record is `verified` only when mmasp characterize on hardware found
// it and it then agreed bit for bit with the hardware on every random and special case checked; only verified records
// drive the model tier of mmasp run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/numeric_model.h"

namespace mmasp {

struct ModelRecord {
  std::string architecture;        // "sm_90": every device of that compute capability
  std::string family;              // f16, bf16, tf32, fp8
  int k = 0;                       // 0: every shape of the family
  std::optional<ElemType> d;       // nullopt: every D type
  ModelParameters parameters;
  bool verified = false;
  std::string evidence;            // where the parameters come from (a committed report and the command behind it)
};

const std::vector<ModelRecord>& model_records();
// The most specific record for the form on an architecture ("sm_90"), verified or not; nullptr when there is none.
const ModelRecord* find_model_record(const Form& form, std::string_view architecture);
// The verified model parameters of the form on an architecture, if any. With `candidates`, unverified records count
// too (to verify them: mmasp run --model-candidates on the hardware).
std::optional<ModelParameters> verified_model(const Form& form, std::string_view architecture, bool candidates = false);

// Where mmasp characterize starts its search: the published parameters of the corresponding *dense* Hopper
// instructions (Khattak & Mikaitis, arXiv 2512.07004, H100: f16/bf16 block 16 and 2 extra alignment bits, tf32
// block 8, truncation, f32 results toward zero, f16 results to nearest even). A hypothesis, never a verdict.
ModelParameters published_dense_hypothesis(const Form& form);

}  // namespace mmasp
