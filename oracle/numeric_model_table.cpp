// The measured model parameters. Change a record only with new hardware evidence: a committed mmasp characterize
// report that finds the parameters, and a bit-exact check on random cases (suites/numeric_model_table_test.cpp keeps
// this table and the committed report in agreement).
#include "oracle/numeric_model_table.h"

namespace mmasp {

ModelParameters published_dense_hypothesis(const Form& form) {
  ModelParameters p;
  p.block_products = form.family == "tf32" ? 8 : 16;
  p.fraction_bits = 25;
  if (form.family == "fp8") p.fraction_bits = 13;   // dense fp8 wgmma/mma on H100 (13 fraction bits kept)
  return p;
}

namespace {

// sm_90 (H100): f16, bf16 and tf32: every stored product and C in one block, aligned by their exponent fields keeping
// 25 fraction bits, shifted-out bits truncated, one rounding toward zero to f32 (to nearest even for an f16 D and for
// results below f32's normal range), subnormals kept, every zero result +0, NaN canonical. mmasp characterize found these on the hardware; see the evidence string.
ModelParameters sm90(int block_products, int block_interleave = 0, int fraction_bits = 25) {
  ModelParameters p;
  p.block_products = block_products;
  p.block_interleave = block_interleave;
  p.fraction_bits = fraction_bits;
  p.shifted_out = ShiftedOut::truncate;
  p.alignment = AlignmentExponent::exponent_sum;
  p.block_rounding = Rounding::toward_zero;
  p.output_rounding = Rounding::nearest_even;
  p.narrow_output = NarrowOutput::from_sum;
  p.c_placement = CPlacement::first_block;
  p.subnormal_inputs = Subnormals::kept;
  p.subnormal_results = Subnormals::kept;
  p.subnormal_rounding = SubnormalRounding::as_normal;
  p.alignment_floor_guard = 9;
  p.overflow = SumOverflow::to_infinity;
  p.signed_zero_results = false;
  p.canonical_nan = true;
  return p;
}

ModelParameters fp8_sm90() {
  ModelParameters p = sm90(16, 2);
  p.fp8_fields_as_f16 = true;
  p.c_placement = CPlacement::fadd_after;
  return p;
}

constexpr const char* kSm90Evidence =
    "NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0: mmasp characterize found these parameters for all 56 "
    "sm_90 float form x selector pairs (evidence/characterize/h100-sm90-driver580.159.04.json: every probe explained, "
    "1,120,788 special and random cases bit-exact), and mmasp run --model strict judged 10.08-10.09 M random cases "
    "per family bit for bit with 0 deviations (evidence/model-verification/h100-sm90-driver580.159.04/)";

}  // namespace

const std::vector<ModelRecord>& model_records() {
  static const std::vector<ModelRecord> records = {
      {"sm_90", "f16", 0, std::nullopt, sm90(16), true, kSm90Evidence},
      {"sm_90", "bf16", 0, std::nullopt, sm90(16), true, kSm90Evidence},
      {"sm_90", "tf32", 0, std::nullopt, sm90(8), true, kSm90Evidence},
      // fp8 runs as F2FP conversions to f16 and two HMMA.SP.16832.F32 (finding F-0004; SASS in
      // evidence/characterize/): the first from zero over stored products 0,1 | 4,5 | ..., the second over 2,3 | 6,7 |
      // ... onto the first's f32 result, then C added by an FADD (round to nearest even). Exponent fields are f16's.
      {"sm_90", "fp8", 0, std::nullopt, fp8_sm90(), true, kSm90Evidence},
  };
  return records;
}

const ModelRecord* find_model_record(const Form& form, std::string_view architecture) {
  const ModelRecord* best = nullptr;
  int best_score = -1;
  for (const auto& record : model_records()) {
    if (record.architecture != architecture || record.family != form.family) continue;
    if (record.k && record.k != form.shape.k) continue;
    if (record.d && *record.d != form.d) continue;
    const int score = (record.k ? 1 : 0) + (record.d ? 1 : 0);
    if (score > best_score) { best = &record; best_score = score; }
  }
  return best;
}

std::optional<ModelParameters> verified_model(const Form& form, std::string_view architecture, bool candidates) {
  const ModelRecord* record = find_model_record(form, architecture);
  if (!record || (!record->verified && !candidates) || !model_applies(form)) return std::nullopt;
  return record->parameters;
}

}  // namespace mmasp
