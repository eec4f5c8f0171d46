// The bulk generator's case streams (bulk.h, distributions.h), drawn element by element from flat tables: the form
// of the generator a GPU runs (resident/resident.h). Written once for the host's compiler and nvcc (MMASP_PORTABLE, as
// in oracle/model_arithmetic.h); the tables are made on the host from the very FormPlan the bulk generator draws
// with (case_tables.h), and a CPU test proves that every element drawn here equals the bulk generator's, form by form.
//
// Why element by element: a case's fields lie at positions of its SplitMix64 stream that depend only on the form and
// the case's profile (draw.h: a field never spans two outputs, and a whole-output draw leaves the current word
// alone). So the 32 lanes of a warp can each draw their share of one case's elements, in any order, without drawing
// the ones before them.
#pragma once

#include <cstdint>

#include "generators/splitmix.h"
#include "oracle/model_arithmetic.h"   // MMASP_PORTABLE

namespace mmasp::gen::portable {

inline constexpr uint64_t kGamma = kSplitMixGamma;
using mmasp::splitmix;
// Output `index` of the stream seeded `seed` (SplitMixDraw: mix(seed + index * gamma)).
MMASP_PORTABLE uint64_t stream_output(uint64_t seed, uint64_t index) { return splitmix(seed + index * kGamma); }

// Where a run of draws starts in the stream: the next unread output, the output the current word came from, and the
// bits of that word not yet cut into fields.
struct Cursor {
  uint32_t next = 0;
  uint32_t word = 0;
  uint32_t left = 0;
};

// A run of `count` draws of one kind: fields of `width` bits (1..32), or whole outputs (width 64).
MMASP_PORTABLE Cursor after_run(Cursor at, uint32_t count, uint32_t width) {
  if (width == 64) {
    at.next += count;
    return at;
  }
  const uint32_t from_word = at.left / width < count ? at.left / width : count;
  if (from_word == count) {
    at.left -= count * width;
    return at;
  }
  const uint32_t rest = count - from_word, per_output = 64 / width;
  const uint32_t outputs = (rest + per_output - 1) / per_output;
  at.word = at.next + outputs - 1;
  at.left = 64 - (rest - (outputs - 1) * per_output) * width;
  at.next += outputs;
  return at;
}

// How a run of `count` fields of `width` bits lies in the stream from `at`: the fields left in the current word, the
// fields per output, and the slots draw_run deals out (the rest of the current word, then each output; for whole
// outputs, width 64, one slot each). Made once per run on the host (case_tables.cpp), so that drawing divides by
// nothing.
struct RunShape {
  uint32_t from_word = 0, per_output = 0, slots = 0;
};
MMASP_PORTABLE RunShape run_shape(const Cursor& at, uint32_t count, uint32_t width) {
  if (width == 64) return {0, 1, count};
  RunShape shape;
  shape.from_word = at.left / width < count ? at.left / width : count;
  shape.per_output = 64 / width;
  shape.slots = 1 + (count - shape.from_word + shape.per_output - 1) / shape.per_output;
  return shape;
}

// Draw `index` of a run that starts at `at`: the bits it takes (a field, or a whole output for width 64).
MMASP_PORTABLE uint64_t draw_in_run(uint64_t seed, const Cursor& at, uint32_t index, uint32_t width) {
  if (width == 64) return stream_output(seed, at.next + index);
  const uint32_t from_word = at.left / width;
  uint64_t output;
  uint32_t shift;
  if (index < from_word) {
    output = at.word;
    shift = 64 - at.left + index * width;
  } else {
    const uint32_t j = index - from_word, per_output = 64 / width;
    output = at.next + j / per_output;
    shift = (j % per_output) * width;
  }
  return (stream_output(seed, output) >> shift) & ((uint64_t(1) << width) - 1);
}

// draw_in_run for fields of a width known at compile time (1..32 bits), with the run's shape: the same bits, without
// draw_in_run's three divisions by a width known only at run time (each some fifteen instructions on a GPU, where a
// lane draws its metadata noise this way once per case). PortableCase tests compare the two.
template <uint32_t kWidth>
MMASP_PORTABLE uint64_t draw_in_run_of_width(uint64_t seed, const Cursor& at, const RunShape& shape, uint32_t index) {
  static_assert(kWidth >= 1 && kWidth <= 32, "fields of an output");
  constexpr uint32_t per_output = 64 / kWidth;
  constexpr uint64_t mask = (uint64_t(1) << kWidth) - 1;
  uint64_t output;
  uint32_t shift;
  if (index < shape.from_word) {
    output = at.word;
    shift = 64 - at.left + index * kWidth;
  } else {
    const uint32_t j = index - shape.from_word;
    output = at.next + j / per_output;
    shift = (j % per_output) * kWidth;
  }
  return (stream_output(seed, output) >> shift) & mask;
}

// One ElementSampler (distributions_impl.h), flattened. Offsets are into the tables' word arena.
struct Sampler {
  uint32_t width = 0;          // bits per draw: a narrow slot field (8 or 12), a 32-bit field, or 64 (a whole output)
  // narrow: 2^width slots, each its code as a byte, four to an arena word (slot_codes): a 12-bit sampler's table in
  // 32-bit words would crowd out of L1 what is left beside the fp8 kernel's shared memory.
  uint32_t slots = 0;
  uint32_t mantissa_bits = 0;  // 32-bit fields: the type's mantissa and pad bits (code_of_field)
  uint32_t pad_bits = 0;
  // wide: 256 class numbers, a byte each, four to an arena word (slot_classes): 256 bytes a table where 32-bit numbers
  // took 1 KB, because the m16n8k32 forms' draws slow down with every table byte that crowds their L1.
  uint32_t slot_class = 0;
  uint32_t codes = 0;          // wide: every class's list, one after the other
  // Per value class: its list's offset in `codes` and size, and its mask and forced bits. One 16-byte record per
  // class, so that a GPU reads a drawn class's four numbers with one load.
  struct alignas(16) Class {
    uint32_t offset = 0, size = 0, mask = 0, force = 0;
  } classes[16] = {};
};

// A wide sampler's slot classes, a byte each (the arena's words read as bytes, as slot_codes).
MMASP_PORTABLE const uint8_t* slot_classes(const Sampler& s, const uint32_t* arena) {
  return reinterpret_cast<const uint8_t*>(arena + s.slot_class);
}

// A narrow sampler's slot codes, a byte each (the arena's words read as bytes, little-endian on the host as on a GPU).
MMASP_PORTABLE const uint8_t* slot_codes(const Sampler& s, const uint32_t* arena) {
  return reinterpret_cast<const uint8_t*>(arena + s.slots);
}

// The high 32 bits of a 32 x 32-bit product: one IMAD.HI on a GPU.
MMASP_PORTABLE uint32_t high_word_of_product(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

// A 32-bit field's index bits (code_of's field case: the 24 - mantissa_bits bits above the mantissa, below the slot
// byte) moved to the top of a word, the rest zero.
MMASP_PORTABLE uint32_t field_index_at_top(uint32_t field, uint32_t mantissa_bits) {
  return (field << 8) & (0xFFFFFFFFu << (8 + mantissa_bits));
}

// code_of's entry in a class list of `size` codes, (index * size) >> index_bits, from the index at the top of a word
// (field_index_at_top): the product's high word, exactly, since index * 2^(32 - index_bits) * size / 2^32 is it. On a
// GPU one IMAD.HI where the 64-bit product and a shift by a width known only at run time took some ten instructions.
// The kernels' draws use it (draw_codes); code_of, the reference, keeps the plain formula, and PortableCase tests
// compare the two over every mantissa width.
MMASP_PORTABLE uint32_t class_entry(uint32_t index_at_top, uint32_t size) { return high_word_of_product(index_at_top, size); }

MMASP_PORTABLE uint32_t code_of(const Sampler& s, const uint32_t* arena, uint64_t r) {
  if (s.width <= 12) return slot_codes(s, arena)[uint32_t(r)];
  uint32_t slot, index, extra;
  int index_bits;
  if (s.width == 32) {   // code_of_field
    const uint32_t field = uint32_t(r);
    index_bits = 24 - int(s.mantissa_bits);
    slot = field >> 24;
    index = (field >> s.mantissa_bits) & ((1u << index_bits) - 1);
    extra = field << s.pad_bits;
  } else {               // code_of_output
    index_bits = 32;
    slot = uint32_t(r >> 56);
    index = uint32_t(r >> 24);
    extra = uint32_t(r);
  }
  const Sampler::Class k = s.classes[slot_classes(s, arena)[slot]];
  return arena[s.codes + k.offset + uint32_t((uint64_t(index) * k.size) >> index_bits)] | (extra & k.mask) | k.force;
}

// How an operand's code becomes a value for the cancellation profile (C = -(the products' sum)): a table of floats
// (8-bit-or-narrower float types), an IEEE-style format's bits, or a two's-complement or unsigned integer of the width
// CaseTables' `values` field then holds (case_tables.cpp checks each integer kind against the type's value of every code).
enum class ValueKind : uint32_t { table, f16, bf16, tf32, signed_integer, unsigned_integer };
enum class AccumulatorKind : uint32_t { f32, f16, s32 };

inline constexpr int kProfiles = 7;        // gen::Profile::count
inline constexpr int kRuns = 6;            // profile, nibbles, A, B, C, metadata noise: the order draw_case draws them
enum Run : int { run_profile, run_nibbles, run_a, run_b, run_c, run_noise };

// A form's case dimensions, and the counts and logs that follow from them (case_dims).
struct CaseDims {
  uint32_t m = 0, n = 0, k = 0, chunk_width = 0, stored_per_chunk = 0;
  uint32_t a_count = 0, b_count = 0, c_count = 0, nibble_count = 0;   // M*K/2, K*N, M*N, M*K/chunk_width
  // log2 of N, of K/2 (stored elements per row), of K/chunk_width (chunks per row) and of stored_per_chunk: every form
  // has powers of two there (case_tables.cpp checks), so rows and columns are found by shifts, not divisions.
  uint32_t n_log2 = 0, stored_log2 = 0, chunks_log2 = 0, stored_per_chunk_log2 = 0;
};
MMASP_PORTABLE constexpr uint32_t floor_log2(uint32_t x) {
  uint32_t log2 = 0;
  while (x > 1) x >>= 1, ++log2;
  return log2;
}
// The one place the counts and logs are derived (case_tables.cpp, and the kernels whose dimensions are constants).
MMASP_PORTABLE constexpr CaseDims case_dims(uint32_t m, uint32_t n, uint32_t k, uint32_t chunk_width,
                                            uint32_t stored_per_chunk) {
  CaseDims d;
  d.m = m, d.n = n, d.k = k, d.chunk_width = chunk_width, d.stored_per_chunk = stored_per_chunk;
  d.a_count = m * k / 2, d.b_count = k * n, d.c_count = m * n, d.nibble_count = m * (k / chunk_width);
  d.n_log2 = floor_log2(n), d.stored_log2 = floor_log2(k / 2), d.chunks_log2 = floor_log2(k / chunk_width);
  d.stored_per_chunk_log2 = floor_log2(stored_per_chunk);
  return d;
}
MMASP_PORTABLE constexpr bool same_dims(const CaseDims& x, const CaseDims& y) {
  return x.m == y.m && x.n == y.n && x.k == y.k && x.chunk_width == y.chunk_width &&
         x.stored_per_chunk == y.stored_per_chunk && x.a_count == y.a_count && x.b_count == y.b_count &&
         x.c_count == y.c_count && x.nibble_count == y.nibble_count && x.n_log2 == y.n_log2 &&
         x.stored_log2 == y.stored_log2 && x.chunks_log2 == y.chunks_log2 &&
         x.stored_per_chunk_log2 == y.stored_per_chunk_log2;
}
// CaseDims as compile-time constants, for a kernel that runs one shape only (resident/resident_source.h): the same
// bytes as CaseDims, so that the host's tables are this type's in the kernel's parameter space, but every read of a
// dimension a constant, so that the loops and the index arithmetic over it fold. `held` is what the
// host wrote; the kernel checks it against kDims (holds_its_dims) before it trusts the constants.
template <CaseDims kDims>
struct FixedCaseDims {
  static constexpr uint32_t m = kDims.m, n = kDims.n, k = kDims.k, chunk_width = kDims.chunk_width,
                            stored_per_chunk = kDims.stored_per_chunk;
  static constexpr uint32_t a_count = kDims.a_count, b_count = kDims.b_count, c_count = kDims.c_count,
                            nibble_count = kDims.nibble_count;
  static constexpr uint32_t n_log2 = kDims.n_log2, stored_log2 = kDims.stored_log2, chunks_log2 = kDims.chunks_log2,
                            stored_per_chunk_log2 = kDims.stored_per_chunk_log2;
  CaseDims held;
  MMASP_PORTABLE bool holds_its_dims() const { return same_dims(held, kDims); }
};
static_assert(sizeof(FixedCaseDims<CaseDims{}>) == sizeof(CaseDims), "FixedCaseDims holds CaseDims' bytes");

// CaseTablesOf::chunk_columns' words: for each of the 16 nibbles, the columns of a chunk's (up to 4) stored elements.
inline constexpr uint32_t kChunkColumnWords = 16 * 4;

// Everything needed to draw the cases of one form, for one fixed selector (the random suite's streams: options.selector
// set, no undefined behaviour, no block scale). Offsets are into `arena`. Dims: CaseDims (CaseTables, every host use),
// or FixedCaseDims.
template <class Dims>
struct CaseTablesOf : Dims {
  uint32_t profiles = 0;                   // 256 profile numbers
  uint32_t chunk_nibbles = 0;              // 256 nibbles (the metadata slots without undefined behaviour)
  uint32_t chunk_columns = 0;              // 16 x 4 columns within a chunk, per nibble (kChunkColumnWords)
  uint32_t cancellation_profile = 0;
  uint32_t sampler[3][kProfiles] = {};     // index of the A, B and C samplers of each profile in `samplers`
  Cursor runs[kProfiles][kRuns] = {};      // where each run starts, per profile
  uint32_t run_width[kProfiles][kRuns] = {};
  RunShape run_shapes[kProfiles][kRuns] = {};   // run_shape() of each run for its count
  ValueKind a_kind = ValueKind::table, b_kind = ValueKind::table;
  uint32_t a_values = 0, b_values = 0;     // table kinds: the value of every code, as float bits; integer kinds: the
                                           // width of a code in bits
  AccumulatorKind c_kind = AccumulatorKind::f32;
  // Where the tables live (host pointers on the host, device pointers on a GPU).
  const uint32_t* arena = nullptr;
  const Sampler* samplers = nullptr;
};
using CaseTables = CaseTablesOf<CaseDims>;

template <class D>
MMASP_PORTABLE uint32_t profile_of(const CaseTablesOf<D>& t, uint64_t case_seed) {
  return t.arena[t.profiles + uint32_t(stream_output(case_seed, 0) & 0xFF)];
}

// What a draw's bits `r` become in `run`: an operand's code (run_a, run_b, run_c), a metadata nibble (run_nibbles), or
// a lane's metadata noise (run_noise).
template <class D>
MMASP_PORTABLE uint32_t code_of_draw(const CaseTablesOf<D>& t, uint32_t profile, int run, uint64_t r) {
  if (run == run_nibbles) return t.arena[t.chunk_nibbles + uint32_t(r)] & 0xFFu;
  if (run == run_noise) return uint32_t(r);
  return code_of(t.samplers[t.sampler[run - run_a][profile]], t.arena, r);
}

// The code of element `index` of a run, before the cancellation profile changes C.
template <class D>
MMASP_PORTABLE uint32_t drawn(const CaseTablesOf<D>& t, uint64_t case_seed, uint32_t profile, int run, uint32_t index) {
  return code_of_draw(t, profile, run, draw_in_run(case_seed, t.runs[profile][run], index, t.run_width[profile][run]));
}

// Lane `lane`'s metadata noise, drawn(t, case_seed, profile, run_noise, lane): by draw_in_run_of_width where the noise
// run has the 32-bit fields case_tables.cpp gives it (every form), else by drawn.
template <class D>
MMASP_PORTABLE uint32_t noise_of_lane(const CaseTablesOf<D>& t, uint64_t case_seed, uint32_t profile, uint32_t lane) {
  if (t.run_width[profile][run_noise] != 32) return drawn(t, case_seed, profile, run_noise, lane);
  return uint32_t(draw_in_run_of_width<32>(case_seed, t.runs[profile][run_noise], t.run_shapes[profile][run_noise], lane));
}

// Slot `slot` of a run that starts at `at` with `from_word` draws in the current word's rest: slot 0 that rest shifted
// down (where from_word is not 0), slot q >= 1 output at.next + q - 1.
MMASP_PORTABLE uint64_t slot_output(uint64_t seed, const Cursor& at, uint32_t from_word, uint32_t slot) {
  const bool rest = slot == 0;
  const uint64_t r = stream_output(seed, rest ? uint64_t(at.word) : uint64_t(at.next) + slot - 1);
  return rest && from_word != 0 ? r >> (64 - at.left) : r;
}

// Lane `lane` of `lanes`' share of a run of `count` draws that starts at `at`, taken by stream output rather than by
// draw: each output is computed once and cut into every field of the run it holds, where drawn() computes an output
// once per field (five times for 12-bit fields). put(index, bits) gets draw `index`'s bits, as draw_in_run gives them.
// `shape` is run_shape(at, count, width).
template <class Put>
MMASP_PORTABLE void draw_run(uint64_t seed, const Cursor& at, const RunShape& shape, uint32_t count, uint32_t width,
                             uint32_t lane, uint32_t lanes, const Put& put) {
  if (width == 64) {
    for (uint32_t i = lane; i < count; i += lanes) put(i, stream_output(seed, at.next + i));
    return;
  }
  const uint32_t from_word = shape.from_word, per_output = shape.per_output, slots = shape.slots;
  const uint64_t mask = (uint64_t(1) << width) - 1;
  // Slot 0: the rest of the current word (at.word); slot q >= 1: output at.next + q - 1.
  for (uint32_t slot = lane; slot < slots; slot += lanes) {
    if (slot == 0) {
      if (from_word == 0) continue;
      const uint64_t r = slot_output(seed, at, from_word, 0);
      for (uint32_t i = 0; i < from_word; ++i) put(i, (r >> (i * width)) & mask);
      continue;
    }
    const uint64_t r = stream_output(seed, at.next + slot - 1);
    const uint32_t first = from_word + (slot - 1) * per_output;
    const uint32_t fields = count - first < per_output ? count - first : per_output;
    for (uint32_t f = 0; f < fields; ++f) put(first + f, (r >> (f * width)) & mask);
  }
}

// x rotated right by n bits, 0 <= n < 64.
MMASP_PORTABLE uint64_t rotate_right_64(uint64_t x, uint32_t n) { return n == 0 ? x : (x >> n) | (x << (64 - n)); }

// draw_run for a width known at compile time (8, 12 or 32 bits): the fields of an output cut by constant shifts in an
// unrolled loop, a lane's slots found without the generic loop's bookkeeping. The same draws as draw_run, each put
// once (PortableCase tests compare them element by element); the kernel's drawing runs these. One output per round:
// two, so that their SplitMix chains overlap, cost registers the judge needs and drew no faster.
// Slot 0, the rest of the current word, takes the same unrolled loop as every output, so that the warp runs no
// branch of its own for it (lane 0's, where the generic loop puts it); the m16n8k128 4-bit forms draw so little per
// case that the longer loop costs them more than the branch, so Dealing::slot_zero_apart keeps lane 0's branch for their
// kernel (resident_kernel.cuh, kDenseOverCodes).
// Dealing::consecutive_draws: lane l takes a run's draws (count / lanes) l onward, where that is four draws a lane of
// 32-bit fields or two of 8 bits; any other run is dealt by outputs. Only for kernels of one shape, where the count is
// known at compile time (a kernel that takes every shape would hold both ways, and the 8-bit integer forms pay for it).
// - Four 32-bit draws a lane (C of every m16n8 form with a 32-bit accumulator: 128 draws): draws 4l .. 4l+3, two or
//   three outputs, in place of dealing 65 outputs (a third round to lane 0 alone, and six sampler lookups a lane where
//   four do). Its stores put four lanes in one bank; turning each lane's order by lane / 8, so that none did, cost
//   more instructions than the conflicts, so they stay in order.
// - Two 8-bit draws a lane (the 64 metadata nibbles of every m16n8k16 form): each lane computes one slot's output
//   (there are at most 9) and takes its draws 2l, 2l + 1 from the lanes that computed their slots, by shuffles on a GPU
//   (the host computes the slot again), in place of 9 lanes each looking up and storing 8 nibbles while the others
//   wait.
enum class Dealing { outputs, slot_zero_apart, consecutive_draws };

template <uint32_t kWidth, Dealing kDealing = Dealing::outputs, class Put>
MMASP_PORTABLE void draw_run_of_width(uint64_t seed, const Cursor& at, const RunShape& shape, uint32_t count,
                                      uint32_t lane, uint32_t lanes, const Put& put) {
  static_assert(kWidth >= 1 && kWidth <= 32, "fields of an output");
  constexpr uint32_t per_output = 64 / kWidth;
  constexpr uint64_t mask = (uint64_t(1) << kWidth) - 1;
  const uint32_t from_word = shape.from_word, slots = shape.slots;
  // Consecutive lanes take consecutive outputs, so at each step of the field loop their draws lie per_output words
  // apart; where that is a power of two (8-bit fields: 8, 32-bit: 2), per_output lanes would meet in one shared-memory
  // bank at every step. Where the fields fill the output (kWidth divides 64), an output's walk
  // therefore starts at field rotation = ((slot - 1) / (32 / per_output)) % per_output: the word rotated right by that
  // many fields, field f of the loop is draw first + (f + rotation) % per_output, and the lanes that share a bank
  // write different words at each step. Every draw is still put once, with the same bits. Not for 32-bit fields:
  // their 2-way conflicts cost less than the rotation.
  constexpr bool kRotated = per_output >= 4 && per_output * kWidth == 64 && per_output <= 32;
  if constexpr (kDealing == Dealing::slot_zero_apart) {
    // Slot q >= 1: output at.next + q - 1, holding draws from_word + (q - 1) * per_output on.
    const auto put_output = [&](uint32_t slot, uint64_t r) {
      const uint32_t first = from_word + (slot - 1) * per_output;
      uint32_t rotation = 0;
      if constexpr (kRotated) {
        rotation = ((slot - 1) / (32 / per_output)) & (per_output - 1);
        r = rotate_right_64(r, rotation * kWidth);
      }
MMASP_UNROLL
      for (uint32_t f = 0; f < per_output; ++f) {
        const uint32_t field = kRotated ? (f + rotation) & (per_output - 1) : f;
        if (first + field < count) put(first + field, (r >> (f * kWidth)) & mask);
      }
    };
    // Slot 0, the rest of the current word, is lane 0's (the generic loop deals slot q to lane q % lanes).
    if (lane == 0 && from_word != 0) {
      const uint64_t r = slot_output(seed, at, from_word, 0);
      for (uint32_t i = 0; i < from_word; ++i) put(i, (r >> (i * kWidth)) & mask);
    }
    for (uint32_t slot = lane == 0 ? lanes : lane; slot < slots; slot += lanes) put_output(slot, stream_output(seed, at.next + slot - 1));
  } else if (kDealing == Dealing::consecutive_draws && kWidth == 8 && count == 2 * lanes && lanes == 32) {
    // Two draws a lane (Dealing, above). Draw i is field i of slot 0 where i < from_word, else field (i - from_word) % 8
    // of slot 1 + (i - from_word) / 8. Every lane of the warp runs this (the shuffles need all 32).
#if defined(__CUDA_ARCH__)
    const uint64_t mine = slot_output(seed, at, from_word, lane);   // lanes past the last slot compute one unused
#endif
MMASP_UNROLL
    for (uint32_t j = 0; j < 2; ++j) {
      const uint32_t i = 2 * lane + j;
      const uint32_t slot = i < from_word ? 0u : 1u + ((i - from_word) >> 3);
      const uint32_t field = i < from_word ? i : (i - from_word) & 7u;
#if defined(__CUDA_ARCH__)
      const uint32_t low = __shfl_sync(0xFFFFFFFFu, uint32_t(mine), slot);
      const uint32_t high = __shfl_sync(0xFFFFFFFFu, uint32_t(mine >> 32), slot);
      put(i, ((field < 4 ? low : high) >> ((field & 3u) * kWidth)) & mask);
#else
      put(i, (slot_output(seed, at, from_word, slot) >> (field * kWidth)) & mask);
#endif
    }
  } else if (kDealing == Dealing::consecutive_draws && kWidth == 32 && count == 4 * lanes) {
    // Lane l takes draws 4l .. 4l+3: from_word 0, the two halves of outputs next + 2l and next + 2l + 1; from_word 1
    // (the current word's rest holds one 32-bit field; it cannot hold two, as at.left < 64), draw 4l is the high half
    // of output next + 2l - 1 (lane 0's: the rest of at.word) and the other three follow.
    const uint64_t first_output = uint64_t(at.next) + 2 * lane;
    const uint64_t r0 = stream_output(seed, first_output), r1 = stream_output(seed, first_output + 1);
    uint64_t d[4] = {r0, r0 >> 32, r1, r1 >> 32};
    if (from_word != 0) {
      const bool rest = lane == 0;
      d[3] = d[2];
      d[2] = d[1];
      d[1] = d[0];
      d[0] = stream_output(seed, rest ? uint64_t(at.word) : first_output - 1) >> (rest ? 64 - at.left : 32);
    }
MMASP_UNROLL
    for (uint32_t j = 0; j < 4; ++j) put(4 * lane + j, d[j] & mask);
  } else {
    // Slot 0 is the rest of the current word (at.word, its draws 0 .. from_word-1); slot q >= 1 is output
    // at.next + q - 1, holding draws from_word + (q - 1) * per_output on. Every slot takes the same unrolled loop, slot
    // 0 with its output shifted down and rotation 0; where from_word is 0 the slots start at 1. Lane l takes slots
    // l, l + lanes, ... counted from the first.
    const uint32_t skip = from_word == 0 ? 1u : 0u;
    for (uint32_t v = lane; v + skip < slots; v += lanes) {
      const uint32_t slot = v + skip;
      const bool rest = slot == 0;
      uint64_t r = stream_output(seed, rest ? uint64_t(at.word) : uint64_t(at.next) + slot - 1);
      if (rest) r >>= 64 - at.left;   // from_word > 0, so at.left >= kWidth
      const uint32_t first = rest ? 0u : from_word + (slot - 1) * per_output;
      const uint32_t limit = rest ? from_word : count;
      uint32_t rotation = 0;
      if constexpr (kRotated) {
        rotation = rest ? 0u : ((slot - 1) / (32 / per_output)) & (per_output - 1);
        r = rotate_right_64(r, rotation * kWidth);
      }
MMASP_UNROLL
      for (uint32_t f = 0; f < per_output; ++f) {
        const uint32_t field = kRotated ? (f + rotation) & (per_output - 1) : f;
        if (first + field < limit) put(first + field, (r >> (f * kWidth)) & mask);
      }
    }
  }
}

// A lane's share of a whole run's codes, into out[0 .. count-1] (draw_run, then code_of_draw); `count` is the run's
// count (the one its shape was made for). Every width the tables use (case_tables.cpp: nibbles 8, noise 32, narrow
// samplers 8 or 12, wide ones 32 or 64) takes draw_run_of_width or the whole-output loop; the sampler's fields are
// read into registers once per run (through a reference they would be read again after every store to `out`).
// kDealing: draw_run_of_width's.
template <Dealing kDealing = Dealing::outputs, class D>
MMASP_PORTABLE void draw_codes(const CaseTablesOf<D>& t, uint64_t case_seed, uint32_t profile, int run, uint32_t count,
                               uint32_t lane, uint32_t lanes, uint32_t* out) {
  const Cursor at = t.runs[profile][run];
  const uint32_t width = t.run_width[profile][run];
  const RunShape shape = t.run_shapes[profile][run];
  const uint32_t* const arena = t.arena;
  if (run == run_nibbles && width == 8) {
    const uint32_t* const nibbles = arena + t.chunk_nibbles;
    draw_run_of_width<8, kDealing>(case_seed, at, shape, count, lane, lanes, [&](uint32_t i, uint64_t r) { out[i] = nibbles[uint32_t(r)] & 0xFFu; });
    return;
  }
  if (run == run_noise && width == 32) {
    draw_run_of_width<32, kDealing>(case_seed, at, shape, count, lane, lanes, [&](uint32_t i, uint64_t r) { out[i] = uint32_t(r); });
    return;
  }
  if (run == run_nibbles || run == run_noise) {
    draw_run(case_seed, at, shape, count, width, lane, lanes,
             [&](uint32_t i, uint64_t r) { out[i] = code_of_draw(t, profile, run, r); });
    return;
  }
  const Sampler& sampler = t.samplers[t.sampler[run - run_a][profile]];
  if (sampler.width <= 12) {   // code_of's narrow case, its sampler read once per run instead of once per draw
    const uint8_t* const slots = slot_codes(sampler, arena);
    const auto put = [&](uint32_t i, uint64_t r) { out[i] = slots[uint32_t(r)]; };
    if (width == 8) draw_run_of_width<8, kDealing>(case_seed, at, shape, count, lane, lanes, put);
    else if (width == 12) draw_run_of_width<12, kDealing>(case_seed, at, shape, count, lane, lanes, put);
    else draw_run(case_seed, at, shape, count, width, lane, lanes, put);
    return;
  }
  if (width == 32) {   // code_of's 32-bit field case, its scalars in registers
    const uint32_t mantissa_bits = sampler.mantissa_bits, pad_bits = sampler.pad_bits;
    const uint8_t* const slot_class = slot_classes(sampler, arena);
    const uint32_t* const codes = arena + sampler.codes;
    const Sampler::Class* const classes = sampler.classes;
    draw_run_of_width<32, kDealing>(case_seed, at, shape, count, lane, lanes, [&](uint32_t i, uint64_t r) {
      const uint32_t field = uint32_t(r);
      const Sampler::Class k = classes[slot_class[field >> 24]];
      out[i] = codes[k.offset + class_entry(field_index_at_top(field, mantissa_bits), k.size)] | ((field << pad_bits) & k.mask) | k.force;
    });
    return;
  }
  draw_run(case_seed, at, shape, count, width, lane, lanes, [&](uint32_t i, uint64_t r) { out[i] = code_of(sampler, arena, r); });
}

MMASP_PORTABLE uint64_t double_bits(double x) {
#if defined(__CUDA_ARCH__)
  return uint64_t(__double_as_longlong(x));
#else
  return __builtin_bit_cast(uint64_t, x);
#endif
}
MMASP_PORTABLE double double_of(uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)bits);
#else
  return __builtin_bit_cast(double, bits);
#endif
}
MMASP_PORTABLE float float_of(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  return __builtin_bit_cast(float, bits);
#endif
}
MMASP_PORTABLE uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  return __builtin_bit_cast(uint32_t, x);
#endif
}

// The exact value of an IEEE-style code (f16, bf16, tf32 in its register), as a double; Inf and NaN as such. The
// formats' fields are restated in operand_value (device code cannot read number_format's table);
// ModelArithmetic.FormatConstantsAreNumberFormats checks every f16 and bf16 code, and tf32 codes, against it.
MMASP_PORTABLE double ieee_value(uint32_t code, int exponent_bits, int mantissa_bits, int bias) {
  const uint32_t mantissa = code & ((1u << mantissa_bits) - 1);
  const uint32_t exponent = (code >> mantissa_bits) & ((1u << exponent_bits) - 1);
  const uint64_t sign = uint64_t((code >> (mantissa_bits + exponent_bits)) & 1) << 63;
  if (exponent == (1u << exponent_bits) - 1)
    return double_of(sign | uint64_t(0x7FF) << 52 | uint64_t(mantissa) << (52 - mantissa_bits));
  if (exponent == 0) {   // subnormal or zero: mantissa * 2^(1 - bias - mantissa_bits), exact
    const double magnitude = double(mantissa) * double_of(uint64_t(1023 + 1 - bias - mantissa_bits) << 52);
    return sign ? -magnitude : magnitude;
  }
  return double_of(sign | uint64_t(int(exponent) - bias + 1023) << 52 | uint64_t(mantissa) << (52 - mantissa_bits));
}

// An integer kind's value of `code` (a code of `bits` bits, 1..32), as 32 bits: sign-extended where signed.
MMASP_PORTABLE uint32_t integer_operand(ValueKind kind, uint32_t bits, uint32_t code) {
  const uint32_t unused = 32 - bits;
  return kind == ValueKind::signed_integer ? uint32_t(int32_t(code << unused) >> unused) : (code << unused) >> unused;
}

template <class D>
MMASP_PORTABLE double operand_value(const CaseTablesOf<D>& t, ValueKind kind, uint32_t values, uint32_t code) {
  switch (kind) {
    case ValueKind::signed_integer: return double(int32_t(integer_operand(kind, values, code)));
    case ValueKind::unsigned_integer: return double(integer_operand(kind, values, code));
    case ValueKind::table: return double(float_of(t.arena[values + code]));
    case ValueKind::f16: return ieee_value(code, 5, 10, 15);
    case ValueKind::bf16: return ieee_value(code, 8, 7, 127);
    case ValueKind::tf32: return ieee_value(code >> 13, 8, 10, 127);
  }
  return 0;
}

// The f16 code nearest `value` (ties to even), or 0xFFFFFFFF where that rounds to Inf (distributions.cpp uses it).
MMASP_PORTABLE uint32_t f16_nearest_finite(double value) {
  // Round to nearest, ties to even, in units of the f16 spacing at |value|: adding and subtracting 2^52 rounds a
  // double below 2^52 to an integer exactly that way. At or above 65520 (max finite + half a spacing) the rounding
  // is Inf.
  const uint64_t bits = double_bits(value);
  const uint32_t sign = (bits >> 63) ? 0x8000u : 0;
  const double magnitude = double_of(bits & ~(uint64_t(1) << 63));
  if (!(magnitude < 65520.0)) return 0xFFFFFFFFu;
  const double two52 = 4503599627370496.0;
  if (magnitude < 0x1p-14) return sign | uint32_t((magnitude * 0x1p24 + two52) - two52);   // 1024 is 2^-14
  const int exponent = int((double_bits(magnitude) >> 52) & 0x7FF) - 1023;                // -14 .. 15
  const double units = (magnitude * double_of(uint64_t(1023 + 10 - exponent) << 52) + two52) - two52;
  // units in [1024, 2048]; 2048 carries into the next binade, which the sum below does by itself.
  return sign | ((uint32_t(exponent + 14) << 10) + uint32_t(units));
}

// The logical column (0..K-1) of stored element s of a row whose chunk nibbles are `nibble_of(chunk)`.
template <class Nibbles, class D>
MMASP_PORTABLE uint32_t logical_column(const CaseTablesOf<D>& t, const Nibbles& nibble_of, uint32_t s) {
  const uint32_t chunk = s >> t.stored_per_chunk_log2;
  return chunk * t.chunk_width + t.arena[t.chunk_columns + nibble_of(chunk) * 4 + (s & (t.stored_per_chunk - 1))];
}
// logical_column from a copy of the chunk column table's kChunkColumnWords at `columns` (the fp8 kernel's). Its own
// function: logical_column written as this over t.arena + t.chunk_columns changed every other kernel's code.
template <class Nibbles, class D>
MMASP_PORTABLE uint32_t logical_column_in(const CaseTablesOf<D>& t, const uint32_t* columns, const Nibbles& nibble_of,
                                          uint32_t s) {
  const uint32_t chunk = s >> t.stored_per_chunk_log2;
  return chunk * t.chunk_width + columns[nibble_of(chunk) * 4 + (s & (t.stored_per_chunk - 1))];
}

// The cancellation profile's C from minus the products' sum, `sum` (cancelled_c_of_values): rounded to C's type, or
// `drawn_c` where that is not finite.
template <class D>
MMASP_PORTABLE uint32_t cancelled_code_of_sum(const CaseTablesOf<D>& t, double sum, uint32_t drawn_c) {
  if (t.c_kind == AccumulatorKind::s32) return uint32_t(-(long long)(sum));   // exact: |sum| < 2^53
  if ((double_bits(sum) & (uint64_t(0x7FF) << 52)) == (uint64_t(0x7FF) << 52)) return drawn_c;   // Inf or NaN
  if (t.c_kind == AccumulatorKind::f32) {
    const uint32_t rounded = float_bits(float(-sum));   // to nearest even
    return (rounded & 0x7F800000u) == 0x7F800000u ? drawn_c : rounded;
  }
  const uint32_t code = f16_nearest_finite(-sum);
  return code == 0xFFFFFFFFu ? drawn_c : code;
}

// The cancellation profile's C[i][j] from the operands' values: minus the products' sum, summed in stored order in
// doubles and rounded to C's type (detail::cancel_with_c), or the drawn code where that is not finite. `a_value(i, s)`
// and `b_value(row, j)` give operand_value() of the case's drawn A and B elements; `nibble(i, chunk)` reads its nibbles.
template <class A, class B, class Nibble, class D>
MMASP_PORTABLE uint32_t cancelled_c_of_values(const CaseTablesOf<D>& t, uint32_t i, uint32_t j, uint32_t drawn_c,
                                              const A& a_value, const B& b_value, const Nibble& nibble) {
  const uint32_t stored = t.k / 2;
  double sum = 0;
  for (uint32_t s = 0; s < stored; ++s) {
    const uint32_t column = logical_column(t, [&](uint32_t chunk) { return nibble(i, chunk); }, s);
    sum += a_value(i, s) * b_value(column, j);
  }
  return cancelled_code_of_sum(t, sum, drawn_c);
}

// cancelled_c_of_values for kN adjacent elements of one row, C[i][j0 .. j0 + kN - 1] in c[0 .. kN - 1] (their drawn
// codes in, their cancelled codes out): each element's sum is the same doubles added in the same order, so its code is
// the same; only each stored element's logical column and A value are found once for the kN elements instead of once
// for each. For the GPU-resident kernels, where per element they made a cancelled fp8 case much longer than another,
// and the warps that keep together (Launch::phase_barrier) waited for it. PortableCase.RowCancellationIsEachElements
// compares the two. `b_values(row,
// j0, out)` gives operand_value() of B[row][j0 .. j0 + kN - 1] in out[0 .. kN - 1].
template <int kN, class A, class B, class Nibble, class D>
MMASP_PORTABLE void cancelled_c_row_of_values(const CaseTablesOf<D>& t, uint32_t i, uint32_t j0, uint32_t* c,
                                              const A& a_value, const B& b_values, const Nibble& nibble) {
  const uint32_t stored = t.k / 2;
  double sums[kN] = {};
  for (uint32_t s = 0; s < stored; ++s) {
    const uint32_t column = logical_column(t, [&](uint32_t chunk) { return nibble(i, chunk); }, s);
    const double a = a_value(i, s);
    double b[kN];
    b_values(column, j0, b);
MMASP_UNROLL
    for (int e = 0; e < kN; ++e) sums[e] += a * b[e];
  }
MMASP_UNROLL
  for (int e = 0; e < kN; ++e) c[e] = cancelled_code_of_sum(t, sums[e], c[e]);
}

// Whether C is s32 and both operands integers: then cancelled_integer_c gives cancelled_c_of_values' C.
template <class D>
MMASP_PORTABLE bool integer_cancellation(const CaseTablesOf<D>& t) {
  const auto integer = [](ValueKind kind) { return kind == ValueKind::signed_integer || kind == ValueKind::unsigned_integer; };
  return t.c_kind == AccumulatorKind::s32 && integer(t.a_kind) && integer(t.b_kind);
}

// cancelled_c_of_values for integer_cancellation(t), in 32-bit integers instead of doubles. The double sum is exact
// (integer products below 2^16 and partial sums far below 2^53), so minus it, as 32 bits, is minus the exact sum
// modulo 2^32: what the wrapping 32-bit sum here gives, without the two conversions from the value table's floats a
// double product costs on a GPU. (The resident kernel's lean integer pairs find the same C from the dense judge's
// bytes, resident/resident_kernel.cuh.) `a(i, s)`, `b(row, j)` read the case's A and B codes.
template <class A, class B, class Nibble, class D>
MMASP_PORTABLE uint32_t cancelled_integer_c(const CaseTablesOf<D>& t, uint32_t i, uint32_t j, const A& a, const B& b,
                                            const Nibble& nibble) {
  const uint32_t stored = t.k / 2, a_bits = t.a_values, b_bits = t.b_values;
  const ValueKind a_kind = t.a_kind, b_kind = t.b_kind;
  uint32_t sum = 0;
  for (uint32_t s = 0; s < stored; ++s) {
    const uint32_t column = logical_column(t, [&](uint32_t chunk) { return nibble(i, chunk); }, s);
    sum += integer_operand(a_kind, a_bits, a(i, s)) * integer_operand(b_kind, b_bits, b(column, j));
  }
  return 0u - sum;
}

// The same from the drawn codes: `a(i, s)`, `b(row, j)` read the case's A and B codes.
template <class A, class B, class Nibble, class D>
MMASP_PORTABLE uint32_t cancelled_c(const CaseTablesOf<D>& t, uint32_t i, uint32_t j, uint32_t drawn_c, const A& a, const B& b,
                                    const Nibble& nibble) {
  if (integer_cancellation(t)) return cancelled_integer_c(t, i, j, a, b, nibble);
  return cancelled_c_of_values(
      t, i, j, drawn_c, [&](uint32_t row, uint32_t s) { return operand_value(t, t.a_kind, t.a_values, a(row, s)); },
      [&](uint32_t row, uint32_t column) { return operand_value(t, t.b_kind, t.b_values, b(row, column)); }, nibble);
}

}  // namespace mmasp::gen::portable
