// A bit-exact model of how a tensor core computes one float mma.sp result: a parametrised "block FMA".
//
// For one element D[i][j] the products a_s * b[col(s)][j] of the stored elements s (in stored order) are taken
// block_products at a time. A block's terms (its products, and the accumulator: C for the first block, the previous
// block's rounded result after it) are aligned to the largest of their alignment exponents, keeping fraction_bits
// bits below it; the bits shifted out are dropped (or rounded, per shifted_out); the aligned terms are added exactly;
// the sum is normalised once and rounded to the accumulator format (f32) per block_rounding. A D narrower than f32
// (f16) is rounded per output_rounding. Special values follow IEEE 754 with a canonical NaN.
//
// This is the model of Fasi, Higham, Mikaitis and Pranesh (PeerJ CS 2021) and of the published dense-instruction
// models (Khattak and Mikaitis, arXiv 2512.07004; MMA-Sim, arXiv 2511.10909), generalised: every choice they make is a
// parameter here, so that probes can tell each value apart on the hardware (mmasp characterize) and injected faults
// can change one at a time. Which values an architecture uses is data, with its evidence: numeric_model_table.cpp.
// Host C++; its arithmetic (model_arithmetic.h) is also compiled by nvcc into the GPU-resident kernels.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/mma_case.h"
#include "oracle/model_arithmetic.h"

namespace mmasp {

// The parameters' meanings (their enums are declared with the arithmetic, model_arithmetic.h):
//  ShiftedOut: what happens to the bits of an aligned term that fall below the kept fraction bits —
//    truncate (dropped from the magnitude: toward zero), floor (dropped from the two's-complement value: toward minus
//    infinity), nearest_even (rounded per term), floor_in_largest_sign (dropped from the two's complement value in
//    the frame where the largest term is positive: terms of the largest's sign lose magnitude, the others gain it).
//  Rounding: how a sum is rounded to its format. AlignmentExponent: leading_bit (the exponent of the term's exact
//    leading bit) or exponent_sum (a product's exponent fields added, its significand then in [1, 4); subnormals
//    count as the format's smallest normal exponent).
//  CPlacement: first_block (aligned and added with the first block's products), after_products (products summed and
//    rounded first, C added in a block of its own), fadd_after (the same, C added by an IEEE f32 addition rounded to
//    nearest even: a separate FADD).
//  NarrowOutput (an f16 D): from_sum (the last block's exact aligned sum rounded once) or via_f32 (rounded to f32
//    first, then to f16). BlockCombination: chained (each block's rounded result is the next block's accumulator
//    term) or fadd (each block sums its products alone; C and the block results are then added in order by IEEE f32
//    additions). SubnormalRounding: as_normal, nearest_even (from the sum), nearest_after_truncation (truncated to the
//    format's precision as if normal, then to nearest even). SumOverflow: to_infinity or saturate.

// Every choice of the model (defaults: model::Parameters in model_arithmetic.h, commented per field below).
//  block_products: products fused at once, in stored order (chained blocks beyond). block_interleave: 0, or k > 0:
//  runs of k stored products go to the blocks in turn. fraction_bits: bits kept below the alignment exponent.
//  fp8_fields_as_f16: e4m3/e5m2 operands are converted to f16 first, so their exponent fields are f16's.
//  block_rounding: each block's sum to f32; output_rounding: to an f16 D. subnormal_inputs (A, B, C elements),
//  subnormal_results (each block's result and D). alignment_floor_guard: the lowest bit an aligned term keeps is
//  never below 2^(f32's smallest subnormal exponent - guard); -1: no floor. signed_zero_results: IEEE zero signs
//  (false: every zero result is +0). canonical_nan: every NaN result is the format's canonical NaN.
struct ModelParameters : model::Parameters {
  bool operator==(const ModelParameters&) const = default;
  std::string str() const;          // "block 16, 25 fraction bits, truncate, ..."
};

// The parameters of a form's arithmetic, where something (a verified table, a characterisation, a hypothesis) has
// them: how the emulator, the model tier and the fault catalogue are told which model to use.
using ModelLookup = std::function<std::optional<ModelParameters>(const Form&)>;

// One parameter of the model, for probes, sweeps and fault injection: its name, the values it can take, and a
// setter. The list is the model's whole parameter space.
struct ModelParameter {
  std::string_view name;                               // "fraction_bits"
  std::vector<std::string> values;                     // each value as text
  std::function<std::string(const ModelParameters&)> get;
  std::function<void(ModelParameters&, std::string_view value)> set;
  // Whole-number parameters: any value in [minimum, maximum] is one the arithmetic can compute with (values lists the
  // ones characterize tries). A named parameter (whole_number false) takes only the values listed.
  bool whole_number = false;
  int minimum = 0, maximum = 0;
  // Empty when `value` (as written in a record, an --emulate change or a fault) is one this parameter takes; else what
  // is wrong with it, for a message that names the parameter's place.
  std::string problem(std::string_view value) const;
};
const std::vector<ModelParameter>& model_parameter_space();
// The parameters that can change some D of this form whatever the others are: the whole space but the block-scale
// ones on a form without block scale, and the scale product's rounding on ue8m0 scales (powers of two). What
// characterize searches over (a parameter left out is equivalent on the form: equivalence_on says why).
std::vector<const ModelParameter*> parameters_of(const Form& form);
const ModelParameter* find_model_parameter(std::string_view name);
// `changes`: "name=value,name=value" (e.g. "fraction_bits=24,block_rounding=nearest-even"), applied in order.
// Throws std::invalid_argument naming the unknown parameter or value (ModelParameter::problem).
ModelParameters with_changes(ModelParameters parameters, std::string_view changes);
// Empty when every whole-number parameter of `p` is inside its range (the arithmetic can compute with it); else the
// first that is not. model_result() refuses such parameters, and records and --emulate never produce them.
std::string parameters_problem(const ModelParameters& p);

// The model cannot say what a case computes because its inputs are undefined (metadata outside the defined index
// values): the one refusal that is not an error of the caller's.
struct ModelUndefinedInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Whether two parameter sets compute the same D for every input of a form, shown from the arithmetic's structure
// (model_arithmetic.h) rather than from cases. Each rule names what makes a parameter idle or two values alike on the
// form: no e4m3/e5m2 operand (fp8_fields); an f32 D (output_rounding, narrow_output, subnormal_rounding where every
// value is a multiple of 2^-149); an f16 D (block_combination; c_placement fadd-after is after-products); the same
// blocks of stored products (block_products, block_interleave); no term with a bit below 2^-149
// (alignment_floor_guard); one block with C and an f16 D rounded from the sum (block_rounding). Returns the reasons
// when `p` and `q` are equivalent on the form by these rules, nullopt otherwise (they may still be: no rule says so).
// suites/numeric_model_test.cpp checks every rule against the model on random and special cases.
std::optional<std::string> equivalence_on(const Form& form, const ModelParameters& p, const ModelParameters& q);

// The model's D for a float case (M x N codes, row-major). Throws std::invalid_argument for integer forms, block-scale
// forms and undefined metadata.
std::vector<uint32_t> model_result(const MmaCase& test, const ModelParameters& parameters);
// How the arithmetic (model_arithmetic.h) decodes an operand type's codes under these parameters. Throws for types it
// cannot take (unsigned scale types).
model::OperandFormat model_operand_format(ElemType type, const ModelParameters& parameters);
// Whether the model can express the form's arithmetic at all (float, no block scale).
bool model_applies(const Form& form);

// What the model decides while it computes, as countable events (issue #17): libFuzzer cannot see inside a GPU, but
// it can see these, and a new event is a new numeric situation worth keeping. Each event has a value (clamped to
// [0, kModelEventValues)) and the stage of the computation it happened in. Nothing is reported unless a sink is
// installed on the calling thread (ModelEventScope); without one the model pays one branch per event.
// The events (ModelEvent, ModelStage: model_arithmetic.h): block_terms (finite non-zero terms in a block),
// alignment_from_c (1: C or the running sum sets the block's alignment), shifted_out (bits of one term shifted below
// the kept fraction; 64: every bit), shifted_out_lost (the same, when those bits were not all zero), carry (bits the
// aligned sum grew above its largest term), cancellation (leading bits it lost below it), rounding (0 exact, 1 down,
// 2 up), result (0 zero, 1 subnormal, 2 normal, 3 saturated, 4 infinity, 5 flushed), special (0 NaN input, 1 Inf x 0,
// 2 Inf, 3 +Inf and -Inf, 4 only negative zeros), rounding_bits (4 guard + 2 round + sticky), second_term_gap (how
// far below the block's alignment the second-largest term's alignment lies).
using ModelEventSink = void (*)(void* context, ModelEvent event, ModelStage stage, int value);
class ModelEventScope {
 public:
  ModelEventScope(ModelEventSink sink, void* context);
  ~ModelEventScope();
  ModelEventScope(const ModelEventScope&) = delete;
  ModelEventScope& operator=(const ModelEventScope&) = delete;
};

}  // namespace mmasp
