// A fault model of the sparse MMA datapath, as data (issue #71): every place where a defect of the arithmetic could
// sit, derived from the stages of the bit-exact model (model_arithmetic.h) and, for the integer forms, from the exact
// integer sum the reference computes. A site is a register or signal of one stage, `width` bits wide; each of its bits
// has a stuck-at-0 and a stuck-at-1 fault, and a few transient patterns (bursts of adjacent bits, one bit of one
// register in every lane of the warp, strikes periodic in the case index) flip bits for the cases they strike.
//
// The model evaluates a case with one fault active: the operand, selection and output sites here, the internal ones
// through the arithmetic's fault hooks (model::NoFaults), which only the fault model's policy fills in. What this
// models is the arithmetic as the PTX ISA and the measured parameters describe it, not the chip's netlist: a site is a
// value the function computes, and a fault of it one the functional model can express (docs/coverage.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"

namespace mmasp {

// The stages of the datapath, in the order a case passes through them.
enum class FaultStage : uint8_t {
  operand_decode,     // the A, B and C codes entering the datapath
  sparse_selection,   // the metadata index that picks the B element each stored A element meets
  products,           // each product's significand (integer forms: the product)
  alignment,          // each term's alignment distance below the block's largest exponent
  block_sum,          // the block's aligned sum and its carries (integer forms: the accumulator)
  rounding,           // normalisation and rounding: the normaliser's shift, the sticky bit and the increment
  c_addition,         // the accumulator carried into the next block's addition
  output_conversion,  // D's code
  saturation,         // integer .satfinite: the clamp
};
inline constexpr int kFaultStages = 9;
std::string_view name(FaultStage stage);

enum class FaultSiteKind : uint8_t {
  a_code,
  b_code,
  c_code,
  selection_index,
  product,
  alignment_distance,
  block_sum,
  normalise_shift,
  round_sticky,
  round_increment,
  accumulator,
  d_code,
  saturation,
};

// One register or signal. `lane`: the stored product it belongs to (0 .. K/2-1) for the per-product sites, -1 for a
// site shared by the element's computation (alignment: -1 is the accumulator's or C's term).
struct FaultSite {
  FaultSiteKind kind = FaultSiteKind::d_code;
  int lane = -1;
  int width = 0;
  int low_bit = 0;  // where bit 0 of the site sits in its code (tf32's encoding above 13 padding bits)
  FaultStage stage() const;
  std::string name() const;  // "product[3]", "alignment[c]", "block_sum", "d"
  bool operator==(const FaultSite&) const = default;
};

enum class FaultEffect : uint8_t { stuck_at_0, stuck_at_1, flip };
enum class FaultPattern : uint8_t {
  permanent,   // every element of every case
  burst,       // `bits` adjacent bits of element `element`, in the struck cases
  warp_lanes,  // one bit of D fragment index `element` in every lane of the warp, in the struck cases
  periodic,    // one bit of element `element`, in every `period`-th case from `phase` on
};

struct DatapathFault {
  FaultSite site;
  int bit = 0;   // the lowest bit it touches, 0 .. site.width - 1
  int bits = 1;  // adjacent bits touched (a burst)
  FaultEffect effect = FaultEffect::stuck_at_0;
  FaultPattern pattern = FaultPattern::permanent;
  uint64_t period = 0;  // transients: struck cases are phase, phase + period, ... (period 0: phase alone)
  uint64_t phase = 0;
  int element = 0;         // transients: the D element (row-major), or the D fragment index (warp_lanes)
  std::string id() const;  // "product[3].bit7.sa1", "block_sum.bits4-6.burst@3:e0" (parse_datapath_fault reads it)
  bool permanent() const { return pattern == FaultPattern::permanent; }
  bool strikes(uint64_t case_index) const;
  bool operator==(const DatapathFault&) const = default;
};

// The site table of a form. `p`: the form's model parameters (float forms; the widths follow the arithmetic they
// describe); null for the integer forms. Empty for forms the fault model does not cover (block scale).
std::vector<FaultSite> fault_sites(const Form& form, const ModelParameters* p);
bool fault_model_applies(const Form& form);
// Both stuck-at faults of every bit of every site, and the transient patterns, of a form.
std::vector<DatapathFault> stuck_at_faults(const Form& form, const ModelParameters* p);
std::vector<DatapathFault> transient_faults(const Form& form, const ModelParameters* p);
// The fault an id names, if it is one of the form's (stuck-at or transient).
std::optional<DatapathFault> parse_datapath_fault(const Form& form, const ModelParameters* p, std::string_view id);

// Why a fault cannot change any D of this form whatever the inputs (the fault-free and faulty datapaths agree on every
// input), or empty when no such reason is known. Faults with a reason are not simulated.
std::string undetectable_reason(const Form& form, const ModelParameters* p, const DatapathFault& fault);

// D as the fault-free datapath computes it: the model's (float) or the exact integer result. nullopt for undefined
// inputs (metadata outside the defined values).
std::optional<std::vector<uint32_t>> datapath_result(const MmaCase& test, const ModelParameters* p);
// D with `fault` active, for the case at `case_index` of its stream (whether a transient strikes it). `activations`,
// when given, counts the values the fault changed inside the datapath (a guide for the search of a detecting case).
// nullopt for undefined inputs.
std::optional<std::vector<uint32_t>> faulty_result(const MmaCase& test, const ModelParameters* p,
                                                   const DatapathFault& fault, uint64_t case_index,
                                                   uint64_t* activations = nullptr);

}  // namespace mmasp
