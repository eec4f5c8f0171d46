// The drawing code behind distributions.h. A template over the draw source, so that the bulk generator (SplitMixDraw)
// and RapidCheck (RapidCheckDraw) run the very same definitions.
//
// The weights of distributions.cpp are compiled once into lookup tables (samplers), and every draw is a bit field
// looked up in one of them: that is what makes the bulk generator fast (draw.h). RapidCheck draws the same fields
// (full-size, so uniform) and looks them up in the same tables, so both sources follow the same distribution.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp::gen {

using ClassTable = std::array<ValueClass, 256>;

// Codes of one element type, sorted by class; all classes a type lacks are left empty.
struct TypePlan {
  ElemType type{};
  bool is_float = false;
  int bits = 0;
  std::vector<double> values;           // the value of every code, for types of 8 bits or fewer (NaN if undefined)
  std::vector<float> float_values;      // the same as floats, all exact (half the size for gathers)
  double value_of(uint32_t code) const; // exact; fast through `values` where it exists

  // Per class, what a draw picks: by_class[c][i] | (random bits & class_mask[c]) << pad_bits | class_force[c], with
  // i uniform; a class the type lacks is empty. The first code of a class is the one shrinking moves toward (+0, 1).
  // Types of 8 bits or fewer list every code of a class and have no mask. Wider types do not: a random finite f16 is
  // a uniform (sign, exponent) prefix from the 62 that are finite, plus 10 random mantissa bits; tf32/f32
  // subnormals and NaNs are a sign (and all-ones exponent) plus a random mantissa with its lowest bit forced to 1
  // (never 0); a random s32 is 32 random bits.
  std::array<std::vector<uint32_t>, size_t(ValueClass::count)> by_class;
  std::array<uint32_t, size_t(ValueClass::count)> class_mask{}, class_force{};
  int mantissa_bits = 0;                // width of the float masks above
  int pad_bits = 0;                     // 13 for tf32, which sits in the top 19 bits of its register
  int field_bits = 0;                   // random bits per element: 32 (f16, bf16, tf32), 64 (f32, s32); for types of
                                        // 8 bits or fewer, each sampler's slot_bits
  const std::vector<uint32_t>& codes(ValueClass value_class) const { return by_class[size_t(value_class)]; }
};

// How one element is drawn for one type, profile and role (operand, accumulator or scale).
//  - Types of 8 bits or fewer: one field of slot_bits bits picks one of 2^slot_bits slots. The slots hold the classes
//    in class order (zero first), each class 2^slot_bits / 256 slots per 256th of weight, and the class's codes
//    spread evenly over its slots. One slot holds the code (low byte) and its class (high byte). slot_bits is 8
//    where every class drawn has at least one slot per code (4-bit types: a field is then one byte of a random
//    output, and the table fits in registers), else 12 (every code of 6- and 8-bit types stays drawable).
//  - f16, bf16, tf32: one 32-bit field. Its top 8 bits pick the class from a 256-slot table, the next 24 - m bits the
//    entry of the class's list, the low m bits are the mantissa bits the class's mask lets through (m: the type's
//    mantissa bits).
//  - f32, s32: 64 bits. The top 8 pick the class, the next 32 the list entry, the low 32 the masked bits.
//    Per class (indexed by ValueClass): its list, at class_offset in all_codes, class_size long, and its mask (shifted
//    left by the type's pad bits, like the codes) and forced bits.
struct ElementSampler {
  const TypePlan* type = nullptr;
  std::vector<uint16_t> slots;                 // narrow types only: 2^slot_bits slots and one of padding (byte_lookups)
  int slot_bits = 0;
  ClassTable classes{};                        // the 256 class slots
  // Wide types only.
  std::array<uint32_t, 256> slot_class{};      // `classes` widened to 32 bits, for the AVX-512 paths' gathers
  std::array<uint32_t, 16> class_offset{}, class_size{}, class_mask{}, class_force{};
  std::vector<uint32_t> all_codes;
  bool narrow() const { return !slots.empty(); }
};

// One chunk's metadata: 256 slots, one byte-wide field per chunk. In slot order: increasing patterns (canonical
// first), then reversed ones (legal for .sp, 1/4 where allowed), then undefined nibbles (1/16, only when undefined
// behaviour is asked for), so that shrinking a field toward 0 leaves the rare choices first.
inline constexpr int kChunkSlotBits = 8;
struct ChunkSlot {
  uint8_t nibble = 0;
  uint8_t pattern = 0;   // index into the increasing patterns
  uint8_t kind = 0;      // 0 increasing, 1 reversed, 2 undefined
};

struct FormPlan {
  const Form* form = nullptr;
  const TypePlan* a = nullptr;
  const TypePlan* b = nullptr;
  const TypePlan* c = nullptr;
  const TypePlan* scale = nullptr;   // null without block scale
  std::array<const ElementSampler*, size_t(Profile::count)> a_samplers{}, b_samplers{}, c_samplers{}, scale_samplers{};
  std::array<Profile, 256> profiles{};
  std::vector<ChunkPositions> patterns;   // increasing patterns, (0,1) first
  std::array<std::vector<ChunkSlot>, 2> chunk_slots;   // [undefined behaviour asked for]
  std::array<std::vector<uint16_t>, 2> chunk_nibbles;  // the same slots' nibbles alone, padded like a sampler's slots
  uint16_t undefined_nibbles = 0;                      // bit v set: nibble v is undefined for the form's sparsity
  // Per nibble, the columns of a chunk's stored elements relative to the chunk's first column (logical_column),
  // for the cancellation profile's dot products. Meaningless for undefined nibbles.
  std::array<std::array<uint8_t, 4>, 16> chunk_columns{};
  int stored_per_chunk = 0;                            // stored elements per chunk: 2, or 4 for pair-wise 4:8, 1 for 1:2
};

namespace detail {

// Hands `count` fields of `width` bits to sink(i, field), in draw order. A draw source may offer a faster fields()
// that gives exactly what repeated field() calls would (SplitMixDraw does).
template <int width, class Draw, class Sink>
void for_each_field(Draw& draw, size_t count, Sink&& sink) {
  if constexpr (requires { draw.template fields<width>(count, sink); }) {
    draw.template fields<width>(count, sink);
  } else {
    for (size_t i = 0; i < count; ++i) sink(i, draw.field(width));
  }
}

// Whether a draw source offers SplitMixDraw::byte_lookups (exactly what table[field(12)] & 0xFF gives, faster).
template <class Draw>
constexpr bool has_byte_lookups = requires(Draw& draw, const uint16_t* table, uint32_t* out) {
  draw.template byte_lookups<12>(size_t(0), table, out);
};

// Hands `count` 64-bit outputs to sink(i, output), like for_each_field.
template <class Draw, class Sink>
void for_each_output(Draw& draw, size_t count, Sink&& sink) {
  if constexpr (requires { draw.outputs(count, sink); }) {
    draw.outputs(count, sink);
  } else {
    for (size_t i = 0; i < count; ++i) sink(i, draw.bits());
  }
}

// A wide element's code: the class of `slot`, entry index * size >> index_bits of its list, the random bits `extra`
// its mask lets through, and its forced bits.
inline uint32_t wide_code(const ElementSampler& sampler, uint32_t slot, uint32_t index, int index_bits, uint32_t extra) {
  const size_t c = size_t(sampler.classes[slot]);
  return sampler.all_codes[sampler.class_offset[c] + size_t((uint64_t(index) * sampler.class_size[c]) >> index_bits)] |
         (extra & sampler.class_mask[c]) | sampler.class_force[c];
}
// The code a 32-bit field (f16, bf16, tf32) or a 64-bit output (f32, s32) draws.
inline uint32_t code_of_field(const ElementSampler& sampler, uint32_t r) {
  const TypePlan& type = *sampler.type;
  const int index_bits = 24 - type.mantissa_bits;
  return wide_code(sampler, r >> 24, (r >> type.mantissa_bits) & ((1u << index_bits) - 1), index_bits, r << type.pad_bits);
}
inline uint32_t code_of_output(const ElementSampler& sampler, uint64_t r) {
  return wide_code(sampler, uint32_t(r >> 56), uint32_t(r >> 24), 32, uint32_t(r));
}

// Where the CPU has AVX-512, wide elements' fields (outputs) are drawn first and turned into codes 16 (8) at a time.
bool wide_codes_available();
void wide_codes_from_fields(const ElementSampler& sampler, uint32_t* fields, size_t count);   // in place
void wide_codes_from_outputs(const ElementSampler& sampler, const uint64_t* outputs, uint32_t* codes, size_t count);

// The 32-bit-field types, with their shifts as constants: f16 (10 mantissa bits), bf16 (7), tf32 (10, 13 pad bits).
template <int mantissa_bits, int pad_bits, bool counting, class Draw>
void draw_wide_32(Draw& draw, const ElementSampler& sampler, uint32_t* destination, size_t count, Coverage* coverage) {
  if constexpr (!counting) {
    if (count >= 16 && wide_codes_available()) {
      for_each_field<32>(draw, count, [&](size_t i, uint32_t r) { destination[i] = r; });
      wide_codes_from_fields(sampler, destination, count);
      return;
    }
  }
  constexpr int index_bits = 24 - mantissa_bits;
  for_each_field<32>(draw, count, [&](size_t i, uint32_t r) {
    destination[i] = wide_code(sampler, r >> 24, (r >> mantissa_bits) & ((1u << index_bits) - 1), index_bits, r << pad_bits);
    if constexpr (counting) ++coverage->value_classes[size_t(sampler.classes[r >> 24])];
  });
}

template <int slot_bits, bool counting, class Draw>
void narrow_elements(Draw& draw, const uint16_t* slots, uint32_t* destination, size_t count, Coverage* coverage) {
  if constexpr (!counting && has_byte_lookups<Draw>) {
    draw.template byte_lookups<slot_bits>(count, slots, destination);
  } else {
    for_each_field<slot_bits>(draw, count, [&](size_t i, uint32_t r) {
      destination[i] = slots[r] & 0xFFu;
      if constexpr (counting) ++coverage->value_classes[slots[r] >> 8];
    });
  }
}

// `counting` as a constant keeps the coverage test out of the per-element loops when nobody counts.
template <bool counting, class Draw>
void fill_elements(Draw& draw, const ElementSampler& sampler, uint32_t* destination, size_t count, Coverage* coverage) {
  const TypePlan& type = *sampler.type;
  if (sampler.narrow()) {
    const uint16_t* slots = sampler.slots.data();
    if (sampler.slot_bits == 8) narrow_elements<8, counting>(draw, slots, destination, count, coverage);
    else narrow_elements<12, counting>(draw, slots, destination, count, coverage);
  } else if (type.field_bits == 32) {
    if (type.mantissa_bits == 10 && type.pad_bits == 0)
      draw_wide_32<10, 0, counting>(draw, sampler, destination, count, coverage);
    else if (type.mantissa_bits == 7 && type.pad_bits == 0)
      draw_wide_32<7, 0, counting>(draw, sampler, destination, count, coverage);
    else if (type.mantissa_bits == 10 && type.pad_bits == 13)
      draw_wide_32<10, 13, counting>(draw, sampler, destination, count, coverage);
    else
      throw std::logic_error("no 32-bit draw for this type");
  } else {
    if constexpr (!counting) {
      if (count >= 16 && wide_codes_available()) {
        uint64_t outputs[128];
        for (size_t done = 0; done < count; done += 128) {
          const size_t chunk = std::min<size_t>(128, count - done);
          for_each_output(draw, chunk, [&](size_t i, uint64_t r) { outputs[i] = r; });
          wide_codes_from_outputs(sampler, outputs, destination + done, chunk);
        }
        return;
      }
    }
    for_each_output(draw, count, [&](size_t i, uint64_t r) {
      destination[i] = code_of_output(sampler, r);
      if constexpr (counting) ++coverage->value_classes[size_t(sampler.classes[r >> 56])];
    });
  }
}

template <class Draw>
void draw_elements(Draw& draw, const ElementSampler& sampler, std::vector<uint32_t>& out, size_t count,
                   Coverage* coverage) {
  out.resize(count);
  if (coverage) fill_elements<true>(draw, sampler, out.data(), count, coverage);
  else fill_elements<false>(draw, sampler, out.data(), count, coverage);
}

// f16 without decode() or encode(), for the cancellation profile (Generators.F16ShortcutsAreTheOracles checks them):
// a code's value, and the code nearest a value (ties to even), or nothing where that rounds to Inf.
float f16_to_float(uint32_t code);
std::optional<uint32_t> f16_nearest_finite(double value);

// Every chunk's metadata nibble, one field each from the form's chunk slots.
template <class Draw>
void draw_chunk_nibbles(Draw& draw, const FormPlan& plan, bool undefined_behaviour, std::vector<uint32_t>& nibbles,
                        Coverage* coverage) {
  if constexpr (has_byte_lookups<Draw>) {
    if (!coverage) {
      draw.template byte_lookups<kChunkSlotBits>(nibbles.size(), plan.chunk_nibbles[undefined_behaviour].data(),
                                                 nibbles.data());
      return;
    }
  }
  const ChunkSlot* chunk_slots = plan.chunk_slots[undefined_behaviour].data();
  for_each_field<kChunkSlotBits>(draw, nibbles.size(), [&](size_t i, uint32_t r) {
    const ChunkSlot& chunk = chunk_slots[r];
    nibbles[i] = chunk.nibble;
    if (coverage) {
      if (chunk.kind < 2) ++coverage->patterns[chunk.pattern];
      coverage->unordered_chunks += chunk.kind == 1;
      coverage->undefined_chunks += chunk.kind == 2;
    }
  });
}

// C = -(the products' sum, rounded to C's type): D* is then the rounding error of that sum, or 0 for integers.
void cancel_with_c(MmaCase& test);

}  // namespace detail

template <class Draw>
void draw_case(Draw& draw, const Form& form, const Options& options, MmaCase& out, Coverage* coverage = nullptr) {
  const FormPlan& plan = plan_for(form);
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  out.form = &form;

  const Profile profile = options.profile ? *options.profile : plan.profiles[draw.field(8)];
  const size_t p = size_t(profile);

  // Selector: index 0 first; out-of-range values only when undefined behaviour is asked for.
  if (options.selector) {
    out.selector = *options.selector;
  } else if (options.undefined_behaviour && form.selectors.size() < 4 && draw.below(8) == 7) {
    out.selector = int(form.selectors.size()) + int(draw.below(uint32_t(4 - form.selectors.size())));
  } else {
    out.selector = form.selectors[draw.below(uint32_t(form.selectors.size()))];
  }

  out.nibbles.resize(size_t(m * (k / form.chunk_width)));
  detail::draw_chunk_nibbles(draw, plan, options.undefined_behaviour, out.nibbles, coverage);

  detail::draw_elements(draw, *plan.a_samplers[p], out.a_compressed, size_t(m * k / 2), coverage);
  detail::draw_elements(draw, *plan.b_samplers[p], out.b, size_t(k * n), coverage);
  detail::draw_elements(draw, *plan.c_samplers[p], out.c, size_t(m * n), coverage);

  out.scale_ids = {};
  if (form.block_scale) {
    const int blocks = scale_blocks(form);
    detail::draw_elements(draw, *plan.scale_samplers[p], out.scale_a, size_t(m * blocks), coverage);
    detail::draw_elements(draw, *plan.scale_samplers[p], out.scale_b, size_t(blocks * n), coverage);
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
    // Undefined: a ue4m3 scale with its unused top bit set (a .b8 holds it; the format has 7 bits). Only when undefined
    // behaviour is asked for, so the other streams are unchanged.
    if (options.undefined_behaviour && *form.stype == ElemType::ue4m3 && draw.below(8) == 7)
      out.scale_a[draw.below(uint32_t(out.scale_a.size()))] |= 0x80u;
  } else {
    out.scale_a.clear();
    out.scale_b.clear();
  }

  out.metadata_noise.resize(32);
  uint32_t* noise = out.metadata_noise.data();
  detail::for_each_field<32>(draw, 32, [&](size_t i, uint32_t r) { noise[i] = r; });

  if (profile == Profile::cancellation) detail::cancel_with_c(out);
  if (coverage) {
    ++coverage->profiles[p];
    ++coverage->selectors[size_t(out.selector & 3)];
    ++coverage->cases;
  }
}

}  // namespace mmasp::gen
