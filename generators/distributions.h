// The case distributions of mmasp: one definition of how every operand of every form is drawn, used by the
// RapidCheck generators and by the bulk generator alike (draw.h explains how).
//
// A case is drawn in this order: a profile (what kind of numbers the case stresses), the selector, the sparsity
// pattern of every chunk, A, B, C, block scales and scale ids, and the metadata noise of lanes that hold none.
// Profile 0, value class 0 (zero), pattern 0 (positions 0,1) and selector index 0 are the simplest choices, so a
// shrinking draw source moves every case toward fewer non-zero elements, canonical metadata and selector 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp::gen {

enum class ValueClass : uint8_t {
  zero,           // +0 or -0
  small,          // 1, -1, 2, -2, 0.5, ... (every float type holds them; exact sums)
  random_finite,  // uniform over every finite code
  subnormal,
  near_max,       // the four largest finite magnitudes, either sign
  infinity,
  nan,
  int_extreme,    // integer minimum, maximum and their neighbours; s32 C near the limits
  count
};
std::string_view name(ValueClass value_class);

enum class Profile : uint8_t {
  small_exact,    // zeros and small values: exact results, the simplest cases
  random_bits,    // uniform finite codes
  special_values, // subnormals, ±0, Inf, NaN, max finite, mixed with ordinary values
  near_overflow,  // magnitudes near the largest finite values: partial sums near accumulator overflow
  cancellation,   // C set to minus the rounded sum of the products: catastrophic cancellation
  int_extremes,   // integer extremes: .satfinite and wrap-around differ
  few_terms,      // mostly zero operands: one or two products per block, far apart, so the others are shifted out
  count
};
std::string_view name(Profile profile);

struct Options {
  // Also draw undefined-behaviour inputs: undefined metadata values, unordered metadata under ::ordered_metadata,
  // out-of-range selectors and scale ids. Such cases are run only in isolation.
  bool undefined_behaviour = false;
  std::optional<Profile> profile;   // force one profile
  std::optional<int> selector;      // force one selector
};

// How often each class of each kind of choice was drawn (the coverage statistics of a run).
struct Coverage {
  std::array<uint64_t, size_t(ValueClass::count)> value_classes{};
  std::array<uint64_t, size_t(Profile::count)> profiles{};
  std::array<uint64_t, 6> patterns{};      // index into the chunk's pattern list (6 for 2:4 and 4:8, 2 for 1:2)
  std::array<uint64_t, 4> selectors{};
  uint64_t unordered_chunks = 0;           // reversed index pairs (legal for .sp)
  uint64_t undefined_chunks = 0;           // undefined metadata (UB only)
  uint64_t cases = 0;
  void merge(const Coverage& other);
};

// Everything about a form that drawing needs, computed once: per-profile class tables and code tables.
struct FormPlan;
const FormPlan& plan_for(const Form& form);

}  // namespace mmasp::gen

#include "generators/distributions_impl.h"
