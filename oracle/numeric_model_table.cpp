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
    "per family bit for bit with 0 deviations (evidence/model-verification/summary.md)";

// Candidates for the architectures no lent GPU has: the published *dense* parameters of that generation, applied to
// the sparse forms as sm_90's were before they were measured. Never verified: mmasp run uses them only with
// --model-candidates, and mmasp characterize starts its search there (docs/architectures.md).
//  - Ampere (sm_80, sm_86) and Ada (sm_89): f16/bf16 in blocks of 8 with 1 extra alignment bit (24 fraction bits),
//    tf32 in blocks of 4 (Khattak & Mikaitis, arXiv 2512.07004, A100); k16 split into two halves of 8 (MMA-Sim,
//    arXiv 2511.10909, A100 and Ada). Ada's own alignment bits are not published: A100's are assumed.
//  - Ada fp8 (sm_89): no published model; H100's sparse fp8 (fp8_sm90) is assumed.
//  - Blackwell (sm_100): f16/bf16 block 16 and 2 extra bits, tf32 block 8, fp8 blocks of 32 keeping 25 fraction bits
//    (arXiv 2512.07004, B200). sm_120 (RTX 50, RTX PRO): no published model; B200's is assumed.
// The other parameters (rounding, subnormals, zero signs, NaN, the accumulator floor) are sm_90's: no publication
// separates them by generation.
ModelParameters candidate(int block_products, int fraction_bits) { return sm90(block_products, 0, fraction_bits); }

ModelParameters fp8_blackwell() {
  ModelParameters p = candidate(32, 25);
  p.fp8_fields_as_f16 = false;
  return p;
}

constexpr const char* kAmpereCandidate =
    "unverified candidate: the published dense A100 parameters (arXiv 2512.07004: f16/bf16 block 8, 1 extra bit; tf32 "
    "block 4), never measured on a sparse form";
constexpr const char* kAdaCandidate =
    "unverified candidate: A100's dense parameters (Ampere and Ada split k16 in halves of 8, arXiv 2511.10909); fp8: "
    "H100's sparse fp8 model; never measured on sm_89";
constexpr const char* kBlackwellCandidate =
    "unverified candidate: the published dense B200 parameters (arXiv 2512.07004: f16/bf16 block 16, 2 extra bits; "
    "tf32 block 8; fp8 block 32 keeping 25 fraction bits), never measured on a sparse form";
constexpr const char* kSm120Candidate =
    "unverified candidate: B200's dense parameters (no published sm_120 model), never measured on sm_120";
// Block scale (kind::mxf8f6f4, mxf4, mxf4nvf4; issue #31): B200's dense kind::f8f6f4 parameters for the products, and
// the scales as PTX ISA 9.7.14.3 writes the operation, D = (A * scale_A) * (B * scale_B) + C: each product scaled
// exactly, the row's and column's scale product kept whole. Where the hardware applies the scale and how it rounds a
// ue4m3 product is not published for any sm_120 GPU (MMA-Sim, arXiv 2511.10909, models B200's tcgen05 block-scaled
// arithmetic, not the warp-level mma); characterize settles both (scale_placement, scale_bits, scale_rounding).
ModelParameters block_scale_sm120() {
  ModelParameters p = fp8_blackwell();
  p.scale_placement = ScalePlacement::product;
  p.scale_bits = 8;
  p.scale_rounding = Rounding::nearest_even;
  return p;
}
constexpr const char* kSm120BlockScaleCandidate =
    "unverified candidate: B200's dense kind::f8f6f4 parameters (arXiv 2512.07004: blocks of 32 keeping 25 fraction "
    "bits) with each product scaled exactly, as PTX ISA 9.7.14.3's D = (A*scale_A)*(B*scale_B)+C reads; no published "
    "sm_120 model of the block-scaled arithmetic; never measured on hardware";

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
      {"sm_80", "f16", 0, std::nullopt, candidate(8, 24), false, kAmpereCandidate},
      {"sm_80", "bf16", 0, std::nullopt, candidate(8, 24), false, kAmpereCandidate},
      {"sm_80", "tf32", 0, std::nullopt, candidate(4, 24), false, kAmpereCandidate},
      {"sm_86", "f16", 0, std::nullopt, candidate(8, 24), false, kAmpereCandidate},
      {"sm_86", "bf16", 0, std::nullopt, candidate(8, 24), false, kAmpereCandidate},
      {"sm_86", "tf32", 0, std::nullopt, candidate(4, 24), false, kAmpereCandidate},
      {"sm_89", "f16", 0, std::nullopt, candidate(8, 24), false, kAdaCandidate},
      {"sm_89", "bf16", 0, std::nullopt, candidate(8, 24), false, kAdaCandidate},
      {"sm_89", "tf32", 0, std::nullopt, candidate(4, 24), false, kAdaCandidate},
      {"sm_89", "fp8", 0, std::nullopt, fp8_sm90(), false, kAdaCandidate},
      {"sm_100", "f16", 0, std::nullopt, candidate(16, 25), false, kBlackwellCandidate},
      {"sm_100", "bf16", 0, std::nullopt, candidate(16, 25), false, kBlackwellCandidate},
      {"sm_100", "tf32", 0, std::nullopt, candidate(8, 25), false, kBlackwellCandidate},
      {"sm_100", "fp8", 0, std::nullopt, fp8_blackwell(), false, kBlackwellCandidate},
      {"sm_120", "f16", 0, std::nullopt, candidate(16, 25), false, kSm120Candidate},
      {"sm_120", "bf16", 0, std::nullopt, candidate(16, 25), false, kSm120Candidate},
      {"sm_120", "tf32", 0, std::nullopt, candidate(8, 25), false, kSm120Candidate},
      {"sm_120", "fp8", 0, std::nullopt, fp8_blackwell(), false, kSm120Candidate},
      {"sm_120", "f8f6f4", 0, std::nullopt, fp8_blackwell(), false, kSm120Candidate},
      {"sm_120", "mxf8f6f4", 0, std::nullopt, block_scale_sm120(), false, kSm120BlockScaleCandidate},
      {"sm_120", "mxf4", 0, std::nullopt, block_scale_sm120(), false, kSm120BlockScaleCandidate},
      {"sm_120", "mxf4nvf4", 0, std::nullopt, block_scale_sm120(), false, kSm120BlockScaleCandidate},
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
