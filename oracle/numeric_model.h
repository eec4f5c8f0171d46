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
// models (shared/research/numerics.md), generalised: every choice they make is a parameter here, so that probes can
// tell each value apart on the hardware (mmasp characterize) and injected faults can change one at a time. Which
// values an architecture uses is data, with its evidence: numeric_model_table.cpp. Pure C++, no CUDA.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp {

// What happens to the bits of an aligned term that fall below the kept fraction bits.
enum class ShiftedOut {
  truncate,      // dropped from the magnitude: toward zero (sign-magnitude alignment)
  floor,         // dropped from the two's-complement value: toward minus infinity
  nearest_even,  // rounded to nearest, ties to even, per term
  floor_in_largest_sign,  // dropped from the two's complement value in the frame where the largest term is positive:
                          // toward minus infinity when the largest term is positive, toward plus infinity when it is
                          // negative (terms of the largest's sign lose magnitude, terms of the other sign gain it)
};
// How a sum is rounded to its format.
enum class Rounding { toward_zero, nearest_even };
// Which exponent a term is aligned by.
enum class AlignmentExponent {
  leading_bit,   // the exponent of the term's exact leading bit
  exponent_sum,  // a product's exponent fields added (its significand then lies in [1, 4)); subnormals count as the
                 // format's smallest normal exponent
};
// Where C enters the sum.
enum class CPlacement {
  first_block,      // aligned and added with the first block's products
  after_products,   // the products summed (and rounded) first, C added in a block of its own at the end
  fadd_after,       // the products summed (and rounded) first, C added by an IEEE f32 addition rounded to nearest
                    // even (a separate FADD instruction)
};
// How a D narrower than the accumulator (f16) is made.
enum class NarrowOutput {
  from_sum,      // the last block's exact aligned sum rounded once to D's format
  via_f32,       // the last block rounded to f32 first (block_rounding), then to D's format
};
// How the blocks of one element are combined.
enum class BlockCombination {
  chained,   // each block's rounded result is the next block's accumulator term (C in the first)
  fadd,      // each block sums its products alone (rounded per block_rounding); C and the block results are then
             // added in order by IEEE f32 additions rounded to nearest even (as separate FADD instructions would)
};
enum class Subnormals { kept, flushed };
// How a sum below the normal range is rounded onto the subnormal grid.
enum class SubnormalRounding {
  as_normal,                 // like every other result (block_rounding / output_rounding)
  nearest_even,              // to nearest even from the sum
  nearest_after_truncation,  // the sum first truncated to the format's precision as if normal, then to nearest even
};
enum class SumOverflow { to_infinity, saturate };

struct ModelParameters {
  int block_products = 16;          // products fused at once, in stored order (chained blocks beyond)
  int block_interleave = 0;         // 0: block b holds stored products [b*size, (b+1)*size); k > 0: runs of k stored
                                    // products go to the blocks in turn (k = 2, two blocks: 0,1 | 2,3 | 4,5 | ...)
  int fraction_bits = 25;           // bits kept below the alignment exponent
  ShiftedOut shifted_out = ShiftedOut::truncate;
  AlignmentExponent alignment = AlignmentExponent::leading_bit;
  bool fp8_fields_as_f16 = false;   // e4m3/e5m2 operands are converted to f16 first, so their exponent fields are
                                    // f16's (an e4m3 subnormal is a normal f16)
  Rounding block_rounding = Rounding::toward_zero;   // each block's sum to f32
  Rounding output_rounding = Rounding::nearest_even; // to an f16 D
  NarrowOutput narrow_output = NarrowOutput::from_sum;
  CPlacement c_placement = CPlacement::first_block;
  BlockCombination block_combination = BlockCombination::chained;
  Subnormals subnormal_inputs = Subnormals::kept;    // A, B and C elements
  Subnormals subnormal_results = Subnormals::kept;   // each block's result and D
  SubnormalRounding subnormal_rounding = SubnormalRounding::as_normal;
  // The lowest bit an aligned term keeps is never below 2^(accumulator's smallest subnormal exponent - floor_guard):
  // an accumulator of fixed width at the bottom of the range. -1: no such floor (alignment alone decides).
  int alignment_floor_guard = -1;
  SumOverflow overflow = SumOverflow::to_infinity;        // a finite sum beyond f32's (or D's) range
  bool signed_zero_results = true;  // IEEE: -0 from a negative sum that rounds (or flushes) to zero and from a sum of
                                    // negative zeros alone; false: every zero result is +0
  bool canonical_nan = true;        // every NaN result is the format's canonical NaN (0x7FFFFFFF, 0x7FFF)

  bool operator==(const ModelParameters&) const = default;
  std::string str() const;          // "block 16, 25 fraction bits, truncate, ..."
};

// One parameter of the model, for probes, sweeps and fault injection: its name, the values it can take, and a
// setter. The list is the model's whole parameter space.
struct ModelParameter {
  std::string_view name;                               // "fraction_bits"
  std::vector<std::string> values;                     // each value as text
  std::function<std::string(const ModelParameters&)> get;
  std::function<void(ModelParameters&, std::string_view value)> set;
};
const std::vector<ModelParameter>& model_parameter_space();
const ModelParameter* find_model_parameter(std::string_view name);
// `changes`: "name=value,name=value" (e.g. "fraction_bits=24,block_rounding=nearest-even"), applied in order.
// Throws std::invalid_argument naming the unknown parameter or value.
ModelParameters with_changes(ModelParameters parameters, std::string_view changes);

// The model's D for a float case (M x N codes, row-major). Throws std::invalid_argument for integer forms, block-scale
// forms and undefined metadata.
std::vector<uint32_t> model_result(const MmaCase& test, const ModelParameters& parameters);
// Whether the model can express the form's arithmetic at all (float, no block scale).
bool model_applies(const Form& form);

// What the model decides while it computes, as countable events (issue #17): libFuzzer cannot see inside a GPU, but
// it can see these, and a new event is a new numeric situation worth keeping. Each event has a value (clamped to
// [0, kModelEventValues)) and the stage of the computation it happened in. Nothing is reported unless a sink is
// installed on the calling thread (ModelEventScope); without one the model pays one branch per event.
enum class ModelEvent : uint8_t {
  block_terms,        // finite non-zero terms in a block (products, and C or the running sum)
  alignment_from_c,   // 1: C or the running sum sets the block's alignment; 0: a product does
  shifted_out,        // bits of one term shifted below the block's kept fraction (64: every bit)
  shifted_out_lost,   // the same, when the bits shifted out were not all zero (precision was lost)
  carry,              // bits the aligned sum grew above its largest term
  cancellation,       // leading bits the aligned sum lost below its largest term
  rounding,           // 0: exact, 1: rounded down, 2: rounded up
  result,             // 0: zero, 1: subnormal, 2: normal, 3: saturated, 4: infinity, 5: flushed to zero
  special,            // 0: NaN input, 1: Inf x 0, 2: Inf, 3: +Inf and -Inf, 4: only negative zeros
  rounding_bits,      // the three bits below the kept last place when rounding: 4 guard + 2 round + 1 sticky
  second_term_gap,    // how far below the block's alignment the second-largest term's alignment lies
};
inline constexpr int kModelEventKinds = 11;
inline constexpr int kModelEventValues = 72;
enum class ModelStage : uint8_t { first_block, later_block, c_addition };   // where in the element's computation
inline constexpr int kModelStages = 3;
using ModelEventSink = void (*)(void* context, ModelEvent event, ModelStage stage, int value);
class ModelEventScope {
 public:
  ModelEventScope(ModelEventSink sink, void* context);
  ~ModelEventScope();
  ModelEventScope(const ModelEventScope&) = delete;
  ModelEventScope& operator=(const ModelEventScope&) = delete;
};

}  // namespace mmasp
