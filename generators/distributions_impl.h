// The drawing code behind distributions.h. A template over the draw source, so that the bulk generator (SplitMixDraw)
// and RapidCheck (RapidCheckDraw) run the very same definitions.
#pragma once

#include <algorithm>
#include <cmath>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp::gen {

using ClassTable = std::array<ValueClass, 256>;

// Codes of one element type, sorted by class; all classes a type lacks are left empty.
struct TypePlan {
  ElemType type{};
  bool is_float = false;
  int bits = 0;
  std::vector<uint32_t> small;          // first entry is 1 (1.0 for floats): the value shrinking moves toward
  std::vector<uint32_t> finite;         // every finite code, for types of 16 bits or fewer
  std::vector<uint32_t> subnormal;      // every subnormal code, for types of 16 bits or fewer
  std::vector<uint32_t> nan;            // every NaN code, for types of 16 bits or fewer
  std::vector<uint32_t> near_max;       // the 4 largest finite magnitudes, both signs
  std::vector<uint32_t> int_extremes;   // integers: minimum, maximum and neighbours (s32: within 4096 of them)
  uint32_t positive_inf = 0, negative_inf = 0;
  bool has_inf = false;
  uint32_t negative_zero = 0;           // 0 where the type has no -0
  std::vector<double> values;           // the value of every code, for types of 16 bits or fewer (NaN if undefined)
  double value_of(uint32_t code) const; // exact; fast through `values` where it exists

  // Per class, the codes to pick from uniformly; empty where the code is computed instead (random bits of integers
  // and of tf32/f32). Built from the lists above by finish().
  std::array<std::vector<uint32_t>, size_t(ValueClass::count)> by_class;
  void finish();
};

struct FormPlan {
  const Form* form = nullptr;
  const TypePlan* a = nullptr;
  const TypePlan* b = nullptr;
  const TypePlan* c = nullptr;
  const TypePlan* scale = nullptr;   // null without block scale
  std::array<ClassTable, size_t(Profile::count)> a_classes{}, b_classes{}, c_classes{}, scale_classes{};
  std::array<Profile, 256> profiles{};
  std::vector<ChunkPositions> patterns;  // increasing patterns, (0,1) first
};

namespace detail {

// A wide float (tf32, f32) code from 64 random bits in the given class.
uint32_t wide_float_code(ElemType type, ValueClass value_class, uint64_t r);
// SplitMix-style fair index from 32 bits.
inline uint32_t index_of(uint64_t r, size_t size) { return uint32_t((uint64_t(uint32_t(r)) * size) >> 32); }

inline uint32_t draw_code(const TypePlan& plan, ValueClass value_class, uint64_t r) {
  const std::vector<uint32_t>& codes = plan.by_class[size_t(value_class)];
  if (!codes.empty()) return codes[index_of(r, codes.size())];
  if (!plan.is_float) return plan.bits == 32 ? uint32_t(r) : uint32_t(r) & ((1u << plan.bits) - 1);
  return wide_float_code(plan.type, value_class, r);
}

template <class Draw>
uint32_t draw_element(Draw& draw, const TypePlan& plan, const ClassTable& table, Coverage* coverage) {
  if (plan.bits <= 16) {
    // 32 random bits suffice for a narrow element: 8 pick the class, 24 the code (every code list is shorter than
    // 2^16, so the pick stays close to uniform).
    const uint32_t r = draw.bits32();
    const ValueClass value_class = table[r & 0xFF];
    if (coverage) ++coverage->value_classes[size_t(value_class)];
    const std::vector<uint32_t>& codes = plan.by_class[size_t(value_class)];
    if (!codes.empty()) return codes[size_t((uint64_t(r >> 8) * codes.size()) >> 24)];
    return draw_code(plan, value_class, uint64_t(r >> 8) * 0x9E3779B97F4A7C15ull);
  }
  const uint64_t r = draw.bits();
  const ValueClass value_class = table[r & 0xFF];
  if (coverage) ++coverage->value_classes[size_t(value_class)];
  return draw_code(plan, value_class, r >> 8);
}

// C = -(the products' sum, rounded to C's type): D* is then the rounding error of that sum, or 0 for integers.
void cancel_with_c(MmaCase& test);

}  // namespace detail

template <class Draw>
void draw_case(Draw& draw, const Form& form, const Options& options, MmaCase& out, Coverage* coverage = nullptr) {
  const FormPlan& plan = plan_for(form);
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  const int chunks_per_row = k / form.chunk_width;
  out.form = &form;

  const Profile profile = options.profile ? *options.profile : plan.profiles[draw.below(256)];
  const size_t p = size_t(profile);

  // Selector: index 0 first; out-of-range values only when undefined behaviour is asked for.
  if (options.selector) {
    out.selector = *options.selector;
  } else if (options.undefined_behaviour && form.selectors.size() < 4 && draw.below(8) == 7) {
    out.selector = int(form.selectors.size()) + int(draw.below(uint32_t(4 - form.selectors.size())));
  } else {
    out.selector = form.selectors[draw.below(uint32_t(form.selectors.size()))];
  }

  out.nibbles.resize(size_t(m * chunks_per_row));
  const bool may_reverse = form.variant == SpVariant::sp && form.sparsity != Sparsity::one_of_two;
  for (auto& nibble : out.nibbles) {
    const uint32_t pattern = draw.below(uint32_t(plan.patterns.size()));
    ChunkPositions where = plan.patterns[pattern];
    if (coverage) ++coverage->patterns[pattern];
    // Reversed index pairs are legal for .sp (9.7.14.6.1) and undefined for ::ordered_metadata.
    // Rare choices are taken on the *last* value of a draw, so that shrinking (toward 0) leaves them.
    const bool reverse = (may_reverse || (options.undefined_behaviour && form.sparsity != Sparsity::one_of_two)) &&
                         draw.below(4) == 3;
    if (reverse) {
      std::swap(where.first, where.second);
      if (coverage) ++coverage->unordered_chunks;
    }
    nibble = nibble_of(form.sparsity, where);
    if (options.undefined_behaviour && draw.below(16) == 15) {
      // An undefined index value: two equal indices for 2:4 / 4:8, anything but 0b0100 / 0b1110 for tf32.
      if (form.sparsity == Sparsity::one_of_two) {
        do nibble = draw.below(16);
        while (validity(form.sparsity, nibble) != MetadataValidity::undefined);
      } else {
        nibble = 0b0101 * draw.below(4);
      }
      if (coverage) ++coverage->undefined_chunks;
    }
  }

  out.a_compressed.resize(size_t(m * k / 2));
  for (auto& code : out.a_compressed) code = detail::draw_element(draw, *plan.a, plan.a_classes[p], coverage);
  out.b.resize(size_t(k * n));
  for (auto& code : out.b) code = detail::draw_element(draw, *plan.b, plan.b_classes[p], coverage);
  out.c.resize(size_t(m * n));
  for (auto& code : out.c) code = detail::draw_element(draw, *plan.c, plan.c_classes[p], coverage);

  out.scale_a.clear();
  out.scale_b.clear();
  out.scale_ids = {};
  if (form.block_scale) {
    const int blocks = scale_blocks(form);
    out.scale_a.resize(size_t(m * blocks));
    out.scale_b.resize(size_t(blocks * n));
    for (auto& code : out.scale_a) code = detail::draw_element(draw, *plan.scale, plan.scale_classes[p], coverage);
    for (auto& code : out.scale_b) code = detail::draw_element(draw, *plan.scale, plan.scale_classes[p], coverage);
    const std::vector<int> bytes = valid_byte_ids(form);
    auto byte_id = [&]() -> int {
      // Undefined: an id just outside the valid set (1 for 2X, 1..3 for 4X, 4 for 1X).
      if (options.undefined_behaviour && draw.below(8) == 7) return blocks == 4 ? 1 + int(draw.below(3)) : blocks == 2 ? 1 : 4;
      return bytes.size() == 1 ? bytes.front() : bytes[draw.below(uint32_t(bytes.size()))];
    };
    out.scale_ids.byte_a = byte_id();
    out.scale_ids.thread_a = int(draw.below(kThreadIdsA));
    out.scale_ids.byte_b = byte_id();
    out.scale_ids.thread_b = int(draw.below(kThreadIdsB));
  }

  out.metadata_noise.resize(32);
  for (auto& word : out.metadata_noise) word = uint32_t(draw.bits());

  if (profile == Profile::cancellation) detail::cancel_with_c(out);
  if (coverage) {
    ++coverage->profiles[p];
    ++coverage->selectors[size_t(out.selector & 3)];
    ++coverage->cases;
  }
}

}  // namespace mmasp::gen
