// What the host hands the GPU-resident kernels (resident_kernel.cuh) and what they hand back: plain structs compiled
// by both the host's compiler and nvcc, so that the two sides cannot disagree about a field. resident/resident.h says
// what the path does and why.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "generators/portable_case.h"
#include "resident/narrow_model.h"

#if defined(__CUDACC__)
#include <cuda_fp16.h>   // f16_value_f32_bits' conversion
#endif

namespace mmasp {

// The case dimensions of the kernels that run one shape (gen::portable::FixedCaseDims): the fp8 kernel (m16n8k64 with
// 2:4 metadata, every fp8 form), the dense ones (m16n8k128 with 4 of each 8 stored, the 4-bit integer forms) and the
// k16 one. resident.cpp gives such a kernel only pairs of its dimensions (same_dims; narrow_fp8_blocks and
// dense_over_codes ask for them), and the kernel traps on any other; Resident tests check that each is the
// dimensions of forms the kernel would take. Here, beside what the kernels are sized by (kFp8SharedCellWords).
inline constexpr gen::portable::CaseDims kResidentFp8Dims = gen::portable::case_dims(16, 8, 64, 4, 2);
inline constexpr gen::portable::CaseDims kResidentDenseDims = gen::portable::case_dims(16, 8, 128, 8, 4);
inline constexpr gen::portable::CaseDims kResidentK16Dims = gen::portable::case_dims(16, 8, 16, 4, 2);

}  // namespace mmasp

namespace mmasp::resident {

// How the kernel judges a D element.
enum class Judge : uint32_t {
  float_model,    // the bit-exact model (oracle/model_arithmetic.h) with the form's verified parameters
  integer,        // exact: C + the products' sum, wrapped to 32 bits or clamped (.satfinite)
  narrow_model,   // the same model through model::narrow (the verified sm_90 choices, operands packed in one word)
};

// narrow_model: per operand A, B, the table decode_narrow looks its codes up in instead of decoding them
// (PairTables::narrow_tables); offset kNoTable where there is none.
struct NarrowTable {
  uint32_t offset = 0xFFFFFFFFu;   // in `layouts`
  uint32_t pad_bits = 0;           // the code's bits below its encoding (tf32)
  uint32_t mantissa_bits = 0;      // the mantissa bits added to a looked-up word (0: the table holds every code)
  uint32_t index_bits = 0;         // the bits above them that index the table: sign and exponent, or the whole code
};

// One form x selector: its case tables, its fragment layouts and how a D element is judged. Offsets are into
// `layouts`. Dims: gen::portable::CaseDims (PairTables), or FixedCaseDims in a kernel that runs one shape only.
template <class Dims>
struct PairTablesOf {
  gen::portable::CaseTablesOf<Dims> cases;
  int32_t selector = 0;
  uint32_t instruction = 0;       // the form x selector's id in the kernel's switch (resident_instruction_id)
  // Per operand (A compressed, B, C, D): bits per element in a register (its container), elements per lane, and per
  // lane and element the row-major matrix index it holds (layout.h's coord_of, evaluated on the host), at
  // layout[operand] + layout_cell(element, lane).
  uint32_t container_bits[4] = {};
  uint32_t per_lane[4] = {};
  uint32_t layout[4] = {};
  // Metadata: per lane, 8 nibble positions of its e register (at metadata + layout_cell(position, lane)), each the
  // index (row * chunks + chunk) of the nibble it holds for this selector, or kNoNibble; a lane that holds none gets
  // the case's metadata noise.
  uint32_t metadata = 0;
  uint32_t holds_metadata = 0;    // bit L: lane L holds metadata
  Judge judge = Judge::float_model;
  uint32_t narrow_choices = 0;    // narrow_model: 0 Sm90Choices, 1 Sm90FaddChoices (below)
  // narrow_model with Sm90Choices and one block of 4, 8 or 16 products whose sum fits 32 bits
  // (narrow::products_fit_32): that number.
  uint32_t narrow_one_block = 0;
  // narrow_model with Sm90FaddChoices and the sm_90 fp8 record's blocks (32 stored products, blocks of 16 interleaved
  // by 2), a block's products summing in 32 bits: the blocks walked by compile-time indices (narrow::for_fixed_block),
  // from f32 words (narrow_f32_table), in the fp8 kernel (resident_pair_tables sets it only where that kernel takes
  // the pair: its words over the codes and nibbles fit, and f32 words and their tags fit the formats).
  bool narrow_fp8_blocks = false;
  // narrow_model whose C is the IEEE format of its D (narrow_accumulator_format): 1 for f32, 2 for f16; else 0. Where
  // it is not 0 the kernel decodes C, rounds and encodes D in a format known at compile time.
  uint32_t narrow_accumulator = 0;
  // narrow_model: per operand A, B, the table decode_narrow looks its codes up in (NarrowTable, above).
  NarrowTable narrow_tables[2];
  model::Parameters model;
  model::OperandFormat a_format, b_format, c_format;
  bool f16_d = false;
  // Integer forms: element bits and signedness of A and B (C and D are s32), and .satfinite.
  uint32_t a_bits = 0, b_bits = 0;
  bool a_signed = false, b_signed = false, satfinite = false;
  // Integer forms the lean kernel judges from dense bytes (integer_dense_fits): A spread by its metadata and B
  // transposed once per case, each element of D a run of dp4a.
  bool integer_dense = false;
  // integer_dense pairs whose dense bytes go in the room of A's codes (dense_over_codes_fits, and where that measured
  // faster: resident_pair_tables): the dense kernels write them there once the A and B registers are packed, so that
  // the case alone sizes a warp's shared memory.
  bool dense_over_codes = false;
  // integer_dense pairs whose chunks dense_selectors_fit: per metadata nibble (0..15), the two byte-permute selectors
  // that place a chunk's stored bytes at its logical columns (dense_chunk_selectors), at dense_selectors + 2 * nibble
  // in `layouts`; kNoTable where there are none. The dense kernels' spread reads them (spread_integer_dense_over_codes).
  uint32_t dense_selectors = 0xFFFFFFFFu;
  const uint32_t* layouts = nullptr;
  // narrow_model pairs whose words go over the case's codes (narrow_over_codes_fits, where the words after the case
  // leave fewer than 32 warps a multiprocessor: resident_pair_tables): B's words in the room of A's and B's codes once
  // the registers are packed, A's after the case (decode_narrow_over_codes), so that a warp needs about 60 % of the
  // room. Their kernels (the fp8 one, and kResidentLeanNarrowKernel for the rest) judge nothing else. Last in the
  // struct, so that the other kernels read every other field where they did before.
  bool narrow_over_codes = false;
  // narrow_model pairs whose every lane holds its D elements in pairs q, q + 1 (q even) of adjacent columns of one row,
  // the first in an even column (narrow_pairs_fit): the kernels judge each such pair together, sharing its A words
  // (judged_narrow_elements). After narrow_over_codes for the reason given there.
  bool narrow_pairs = false;
};
using PairTables = PairTablesOf<gen::portable::CaseDims>;
// An operand's elements per lane as an unrolled packing reads them. An mma fragment holds each element of A
// (compressed), B, C and D in exactly one lane, so per_lane is the operand's count over 32 (lane_counts_are_shares,
// which the kernels check and Resident tests assert for every pair); a kernel of one shape knows that at compile time.
template <class D>
MMASP_PORTABLE uint32_t lane_elements(const PairTablesOf<D>& p, int operand) {
  if constexpr (std::is_same_v<D, gen::portable::CaseDims>) {
    return p.per_lane[operand];
  } else {
    return operand == 0 ? D::a_count / 32 : operand == 1 ? D::b_count / 32 : D::c_count / 32;
  }
}
template <class D>
MMASP_PORTABLE bool lane_counts_are_shares(const PairTablesOf<D>& p) {
  const auto& t = p.cases;
  return p.per_lane[0] * 32 == t.a_count && p.per_lane[1] * 32 == t.b_count && p.per_lane[2] * 32 == t.c_count &&
         p.per_lane[3] * 32 == t.c_count;
}
inline constexpr uint32_t kNoNibble = 0xFFFFFFFFu, kNoTable = 0xFFFFFFFFu;

// Where a lane's element `element` lies in a per-lane table (an operand's layout, the metadata's nibble positions):
// element-major, so that a warp's 32 lanes read one element's cells from 32 consecutive words, one coalesced load.
// Lane-major (each lane's cells together) would put the lanes 16 to 64 bytes apart, and most of each global sector
// read would go unused.
MMASP_PORTABLE constexpr uint32_t layout_cell(uint32_t element, uint32_t lane) { return element * 32 + lane; }
enum OperandIndex { operand_a = 0, operand_b = 1, operand_c = 2, operand_d = 3 };

// A test-only fault the kernel applies to its own results, to prove that the resident check catches what the host
// path catches (harness/fault_injection.h's catalogue, translated by resident.cpp).
struct Fault {
  enum Kind : uint32_t { none, output, numerics, registers } kind = none;
  // output: in the cases the rate picks (splitmix(case index ^ salt) % one_in == 0; one_in 1: every case), D element
  // `element` (row-major) has `xor_mask` flipped, or is set to `set_value` when `set` is true.
  uint32_t element = 0, xor_mask = 0, set_value = 0;
  bool set = false;
  uint64_t one_in = 1, salt = 0;
  // numerics: D is what the model computes with these parameters instead of the true ones.
  model::Parameters changed;
  // registers: registers 0 and 1 of an operand swapped (swap_operand), the halves of register 0 of an operand
  // swapped (rotate_operand), the e register xor-ed with e_xor. -1: none.
  int32_t swap_operand = -1, rotate_operand = -1;
  uint32_t e_xor = 0;
};

// What the kernel does with its cases.
enum class Mode : uint32_t {
  check,   // generate, run, judge every element; count, and record deviating case indices
  issue,   // only the instruction, `count` times per warp on one case's registers: the bare issue rate
  dump,    // generate and run, and write every case and its D to `dump` (for the host to compare)
  draw,    // only draw the cases (where the time goes: the benchmark)
  run,     // draw and run the cases, judge nothing (likewise)
  judge,   // draw and run one case per warp, then judge it `count` times (likewise: the judge alone)
};

struct Counters {
  unsigned long long generated = 0;   // cases drawn
  unsigned long long checked = 0;     // cases whose every D element was judged
  unsigned long long deviating = 0;   // cases with at least one element unlike the judge's
  unsigned long long recorded = 0;    // deviating cases whose index is in `deviations` (the rest overflowed)
  unsigned long long sink = 0;        // issue mode: the results, folded, so that no instruction is dead code
  unsigned long long fault_changed = 0;   // with a test-only fault: cases whose D the fault changed
};

template <class Dims>
struct LaunchOf {
  // The pair's tables by value, in the kernel's parameter space (the launch is a __grid_constant__ parameter): the
  // kernel reads their fields as constant-bank operands, which need no register to keep them and no load from memory.
  // Through a pointer to global memory, ptxas kept them in registers or loaded them again, and the 64-register kernels
  // spilled more (ptxas: the lean kernel's spill stores 834 -> 608 bytes, the narrow one's 956 -> 664). Its pointers
  // (the arena, the samplers, the layouts) still point to global memory, where lanes index them apart: a constant
  // bank serves one address a warp at a time.
  PairTablesOf<Dims> pair;
  uint64_t stream_base = 0;      // the case seed of index i is splitmix(stream_base + i * gamma) (gen::CaseSeeds)
  uint64_t first = 0;            // first case index
  uint64_t count = 0;            // cases (issue mode: instructions per warp)
  Mode mode = Mode::check;
  Counters* counters = nullptr;
  uint64_t* deviations = nullptr;
  uint32_t deviation_capacity = 0;
  uint32_t* dump = nullptr;      // dump mode: dump_words(pair) words per case
  Fault fault;
  // Whether the warps of one scheduler wait for each other after every case (warp % 4: named barriers 1-4; that a
  // block's warps go to the schedulers in turn is inferred, not documented — the measured gain is the evidence, and a
  // whole-block barrier gained nearly as much).
  uint32_t phase_barrier = 0;
};
using Launch = LaunchOf<gen::portable::CaseDims>;
// A kernel of one shape reads the host's Launch as LaunchOf<FixedCaseDims<...>>: the same bytes, whatever the shape.
static_assert(sizeof(LaunchOf<gen::portable::FixedCaseDims<gen::portable::CaseDims{}>>) == sizeof(Launch),
              "a kernel of one shape reads the launch the host wrote");
// A kernel's parameters hold at most 4 KB on every driver and GPU the images are for (more needs CUDA 12.1 and Volta).
static_assert(sizeof(Launch) <= 4096, "the launch is a kernel parameter");

// Words per warp of shared memory (one case: A, B, C and the nibbles), and per dumped case (the case, its noise and
// 32 lanes' D registers).
template <class D>
MMASP_PORTABLE uint32_t case_words(const gen::portable::CaseTablesOf<D>& t) {
  return t.a_count + t.b_count + t.c_count + t.nibble_count;
}
// Words per warp for the decoded operands of float forms (decoded_operands): A and B as 64-bit values, and the
// logical column of every stored A element; a multiple of two, so that what follows stays 8-byte aligned.
template <class D>
MMASP_PORTABLE uint32_t decoded_words(const gen::portable::CaseTablesOf<D>& t) {
  return 2 * t.a_count + 2 * t.b_count + (t.a_count + 1) / 2 * 2;
}
// The dense integer judge's bytes (spread_integer_dense, below). Bytes per row of dense A and of B transposed: K and
// 16 more, so that rows stay 16-byte aligned for 128-bit loads and successive rows start four banks apart (the eight B
// rows a warp's lanes write or read at once fall in different banks for K = 32, 64 and 128).
template <class D>
MMASP_PORTABLE uint32_t dense_row_words(const gen::portable::CaseTablesOf<D>& t) { return (t.k + 16) / 4; }
// Where the dense rows start in a warp's shared memory (after the case, 16-byte aligned), and their words: M rows of
// A, then N rows of B transposed.
template <class D>
MMASP_PORTABLE uint32_t dense_at(const gen::portable::CaseTablesOf<D>& t) { return (case_words(t) + 3) & ~3u; }
template <class D>
MMASP_PORTABLE uint32_t dense_words(const gen::portable::CaseTablesOf<D>& t) { return (t.m + t.n) * dense_row_words(t); }
// Whether the dense rows can be written over the case's codes (A's, from its first word) once the registers are
// packed: all M + N rows within A's codes (so B's codes are still whole while B is transposed), and a dense row no
// longer than a row of A's stored codes (so that dense row i lies below the codes of every row after i, and a warp
// that reads one pass of chunks before it writes them never overwrites codes it has still to read:
// spread_integer_dense). An m16n8k128 4-bit case is 2,432 words with 864 more of dense rows: 16 warps fit a
// multiprocessor's 227 KB, 20 with the rows over the codes.
template <class D>
MMASP_PORTABLE bool dense_over_codes_fits(const gen::portable::CaseTablesOf<D>& t) {
  return (t.m + t.n) * dense_row_words(t) <= t.a_count && dense_row_words(t) <= t.k / 2;
}
// Where the dense rows start in a warp's shared memory: over the codes (PairTables::dense_over_codes), or after the
// case.
template <class D>
MMASP_PORTABLE uint32_t dense_rows_at(const gen::portable::CaseTablesOf<D>& t, bool over_codes) {
  return over_codes ? 0u : dense_at(t);
}

// The cancellation profile's operand values while a case is drawn (draw_shared_case's scratch, `value_bytes` each: 8
// for doubles, 4 for floats, 2 for the fp8 kernel's f16): A's rows of stored values, each padded by one value (two of
// 2 bytes) so that a row spans an odd number of 4-byte words and the 16 rows the lanes read at once
// (cancelled_c_row_of_values: a row's four adjacent elements a lane) start in different banks; then B's values.
template <class D>
MMASP_PORTABLE uint32_t scratch_a_stride(const gen::portable::CaseTablesOf<D>& t, uint32_t value_bytes) {
  return t.k / 2 + (value_bytes == 2 ? 2u : 1u);
}
template <class D>
MMASP_PORTABLE uint32_t scratch_values(const gen::portable::CaseTablesOf<D>& t, uint32_t value_bytes) {
  return t.m * scratch_a_stride(t, value_bytes) + t.b_count;
}

// The narrow model's A words (decode_narrow): a row of A's stored elements, then one unused word, so that the eight rows
// a warp's lanes read at once start in eight different shared-memory banks (a row of 8, 16 or 32 64-bit words spans a
// multiple of 16 banks: unpadded, rows i and i+2 met in one bank).
template <class D>
MMASP_PORTABLE uint32_t narrow_a_slots(const gen::portable::CaseTablesOf<D>& t) { return t.a_count + (t.a_count >> t.stored_log2); }
template <class D>
MMASP_PORTABLE uint32_t narrow_a_slot(const gen::portable::CaseTablesOf<D>& t, uint32_t e) { return e + (e >> t.stored_log2); }
// The same for the narrow model (decode_narrow): per A element its packed 64-bit word (rows padded), per B element its.
template <class D>
MMASP_PORTABLE uint32_t narrow_words(const gen::portable::CaseTablesOf<D>& t) { return 2 * narrow_a_slots(t) + 2 * t.b_count; }
// Whether a narrow pair's words can go over its codes (PairTables::narrow_over_codes): B's words, 8 bytes each, fill
// the room of A's and B's codes, 4 bytes each, when B has no more elements than A; A's words go after the case. The
// cancellation profile's operand values, drawn before the words exist, then have the A words' room: as floats (every
// operand value of a narrow pair is one: f16, bf16, tf32 and the fp8 value tables), a_count + b_count of them fit
// in 2 * narrow_a_slots words when b_count <= a_count.
template <class D>
MMASP_PORTABLE bool narrow_over_codes_fits(const gen::portable::CaseTablesOf<D>& t) {
  return t.b_count <= t.a_count && t.b_count % 32 == 0;
}
// Words per warp for a narrow_over_codes pair: the case (8-byte aligned), then A's words (rows padded as
// narrow_a_slot pads them). fp8 k64: 2,464 words instead of 3,488; m16n8k32 f16 and bf16: 1,312 instead of 1,824.
template <class D>
MMASP_PORTABLE uint32_t narrow_over_codes_shared_words(const gen::portable::CaseTablesOf<D>& t) {
  const uint32_t words = case_words(t);
  return words + (words & 1) + 2 * narrow_a_slots(t);
}
// The fp8 kernel's layout (kResidentLeanFp8Kernel), tighter than narrow_over_codes_shared_words so that 24 of its warps
// fit an H100's shared memory where 23 did: A's words start where the nibbles do (8-byte aligned) and outgrow them,
// written once the registers are packed (decode_fp8_words_over_codes: every lane has read a step's codes and
// nibbles before any of them writes, the steps from the last elements down, so that a step's words cover only nibbles
// that no later step reads; fp8_words_over_nibbles_fit checks that geometry). The cancellation profile's C reads the
// operands' values from the kernel's copy of the value tables (fp8_cancelled_c_row), so that a warp needs no room for
// them. fp8 k64: 2,208 words a warp instead of 2,464.
template <class D>
MMASP_PORTABLE uint32_t fp8_a_words_at(const gen::portable::CaseTablesOf<D>& t) {
  const uint32_t codes = t.a_count + t.b_count + t.c_count;
  return codes + (codes & 1);
}
template <class D>
MMASP_PORTABLE uint32_t fp8_shared_words(const gen::portable::CaseTablesOf<D>& t) {
  const uint32_t words = fp8_a_words_at(t) + 2 * narrow_a_slots(t);
  return words + (words & 1);
}
// Whether A's words may go over the nibbles in steps of `lanes` elements from the last (fp8_a_words_at): no step
// writes a word over a nibble that an element of a later step (a lower one) still reads, and the steps are whole.
// The host decides with it (resident.cpp) before a pair takes the fp8 kernel's layout.
template <class D>
MMASP_PORTABLE bool fp8_words_over_nibbles_fit(const gen::portable::CaseTablesOf<D>& t, uint32_t lanes) {
  if (lanes == 0 || t.a_count % lanes != 0 || t.b_count > t.a_count) return false;
  const uint32_t nibbles_at = t.a_count + t.b_count + t.c_count, chunks = 1u << t.chunks_log2;
  for (uint32_t e = 0; e < t.a_count; ++e) {
    const uint32_t step_first = e / lanes * lanes;
    for (uint32_t w = 0; w < 2; ++w) {
      const uint32_t word = fp8_a_words_at(t) + 2 * narrow_a_slot(t, e) + w;
      if (word < nibbles_at || word >= nibbles_at + t.nibble_count) continue;
      const uint32_t nibble = word - nibbles_at;
      // The first element that reads this nibble: its row's stored element at the chunk's first place.
      const uint32_t first_reader = (nibble / chunks) * (t.k / 2) + (nibble % chunks) * t.stored_per_chunk;
      if (first_reader < step_first) return false;
    }
  }
  return true;
}
// Words per warp of shared memory for a pair: the case, then (8-byte aligned) its decoded operands, or (16-byte
// aligned, a multiple of 4 words in all, so that every warp's rows stay aligned) its dense bytes, if any. In every
// kernel but the narrow-over-codes ones, which size a warp by narrow_over_codes_shared_words: a narrow_over_codes
// pair that a fault sends to the general kernel has this layout there.
template <class D>
MMASP_PORTABLE uint32_t shared_words(const PairTablesOf<D>& p) {
  const uint32_t words = case_words(p.cases), aligned = words + (words & 1);
  switch (p.judge) {
    case Judge::float_model: return aligned + decoded_words(p.cases);
    case Judge::narrow_model: return aligned + narrow_words(p.cases);
    case Judge::integer:
      return p.integer_dense && !p.dense_over_codes ? dense_rows_at(p.cases, false) + dense_words(p.cases) : words;
  }
  return words;
}
template <class D>
MMASP_PORTABLE uint32_t dump_words(const PairTablesOf<D>& p) {
  return case_words(p.cases) + 32 + 32 * ((p.per_lane[operand_d] * p.container_bits[operand_d] + 31) / 32);
}

// --- The kernel's per-element work, here so that the host can run it too (suites/resident_test.cpp proves on the
// CPU that it packs what fragments.h packs and judges what the model and the reference judge). ---
#if defined(__CUDACC__)
#define MMASP_SHARED_CODE __host__ __device__ __noinline__   // one copy, called from everywhere (build time)
#else
#define MMASP_SHARED_CODE inline
#endif

// The e register of `lane`: its metadata nibbles for the pair's selector, or the case's noise where it holds none.
// `layouts` as pack_operand's; the overload without it reads p.layouts.
template <class D>
MMASP_PORTABLE uint32_t metadata_register(const PairTablesOf<D>& p, const uint32_t* nibbles, uint32_t lane, uint32_t noise,
                                          const uint32_t* layouts) {
  const uint32_t* cells = layouts + p.metadata + lane;
  uint32_t e = (p.holds_metadata >> lane) & 1 ? 0u : noise;
  for (uint32_t q = 0; q < 8; ++q) {
    const uint32_t cell = cells[layout_cell(q, 0)];
    if (cell != kNoNibble) e |= nibbles[cell] << (4 * q);
  }
  return e;
}
template <class D>
MMASP_PORTABLE uint32_t metadata_register(const PairTablesOf<D>& p, const uint32_t* nibbles, uint32_t lane, uint32_t noise) {
  return metadata_register(p, nibbles, lane, noise, p.layouts);
}

MMASP_PORTABLE long long integer_value(uint32_t code, uint32_t bits, bool is_signed) {
  if (!is_signed || bits >= 32) return is_signed ? (long long)int32_t(code) : (long long)code;
  const uint32_t shift = 32 - bits;
  return (long long)(int32_t(code << shift) >> shift);
}

// The exact integer D[idx] for the case in a, b, c (row-major codes) and nibbles: C + the products' sum, wrapped to
// 32 bits or clamped.
template <class D>
MMASP_PORTABLE uint32_t judged_integer(const PairTablesOf<D>& p, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                       const uint32_t* nibbles, uint32_t idx) {
  const auto& t = p.cases;
  const uint32_t n = t.n, i = idx >> t.n_log2, j = idx & (n - 1), stored = t.k / 2, chunks = 1u << t.chunks_log2;
  const uint32_t* row_nibbles = nibbles + i * chunks;
  const auto nibble_of = [&](uint32_t chunk) { return row_nibbles[chunk]; };
  long long sum = (long long)int32_t(c[idx]);
  for (uint32_t s = 0; s < stored; ++s) {
    const uint32_t column = gen::portable::logical_column(t, nibble_of, s);
    sum += integer_value(a[i * stored + s], p.a_bits, p.a_signed) * integer_value(b[column * n + j], p.b_bits, p.b_signed);
  }
  if (p.satfinite) sum = sum > 2147483647LL ? 2147483647LL : sum < -2147483648LL ? -2147483648LL : sum;
  return uint32_t((unsigned long long)sum);
}

// The logical column (0..K-1) of stored A element e (row-major) of a case whose chunk nibbles are `nibbles`.
template <class D>
MMASP_PORTABLE uint32_t a_element_column(const gen::portable::CaseTablesOf<D>& t, const uint32_t* nibbles, uint32_t e) {
  const uint32_t* row_nibbles = nibbles + (e >> t.stored_log2) * (1u << t.chunks_log2);
  return gen::portable::logical_column(t, [&](uint32_t chunk) { return row_nibbles[chunk]; }, e & ((t.k / 2) - 1));
}
// a_element_column from the chunk column table at `columns` (the fp8 kernel's copy, fp8_value_copy_word).
template <class D>
MMASP_PORTABLE uint32_t a_element_column_in(const gen::portable::CaseTablesOf<D>& t, const uint32_t* columns,
                                            const uint32_t* nibbles, uint32_t e) {
  const uint32_t* row_nibbles = nibbles + (e >> t.stored_log2) * (1u << t.chunks_log2);
  return gen::portable::logical_column_in(t, columns, [&](uint32_t chunk) { return row_nibbles[chunk]; },
                                          e & ((t.k / 2) - 1));
}

// --- The lean kernel's integer judge (issue #28): four-byte dot products. judged_integer finds each product's logical
// column from the metadata (a table read, a nibble read and arithmetic) once per product, so once per element of D that
// reads it, and multiplies one pair of codes at a time. The dense judge spreads a case once into bytes: A dense (each
// stored element at its logical column, zero elsewhere) and B transposed, each row K bytes plus 16 of padding; an
// element of D is then K/4 dp4a instructions over 128-bit loads, a zero in A adding nothing to the exact sum. ---

// Whether a pair's integer judge can use the dense bytes: codes of at most 8 bits (a byte, sign-extended where signed),
// K a multiple of 16 (whole 128-bit loads), a chunk of 4 or 8 logical columns (one or two words of dense A), every
// products' sum exact in 32 bits (stored * |a| * |b| < 2^31), and every metadata nibble the generator draws naming
// distinct columns within its chunk (so that no stored element overwrites another in dense A; legal metadata does, and
// the tables are checked rather than trusted).
template <class D>
MMASP_PORTABLE bool integer_dense_fits(const PairTablesOf<D>& p) {
  const auto& t = p.cases;
  if (p.judge != Judge::integer || p.a_bits > 8 || p.b_bits > 8 || t.k % 16 != 0) return false;
  if ((t.chunk_width != 4 && t.chunk_width != 8) || t.stored_per_chunk > 4 || t.arena == nullptr) return false;
  const uint64_t largest_product = (uint64_t(1) << (p.a_signed ? p.a_bits - 1 : p.a_bits)) *
                                   (uint64_t(1) << (p.b_signed ? p.b_bits - 1 : p.b_bits));
  if (uint64_t(t.k / 2) * largest_product >= (uint64_t(1) << 31)) return false;
  for (uint32_t slot = 0; slot < 256; ++slot) {
    const uint32_t nibble = t.arena[t.chunk_nibbles + slot] & 0xFFu;
    uint32_t seen = 0;
    for (uint32_t s = 0; s < t.stored_per_chunk; ++s) {
      const uint32_t column = t.arena[t.chunk_columns + nibble * 4 + s];
      if (column >= t.chunk_width || (seen >> column) & 1) return false;
      seen |= 1u << column;
    }
  }
  return true;
}

// An integer code of `bits` bits as a byte: sign-extended where signed (a 4-bit -8 is 0xF8), as is where not.
MMASP_PORTABLE uint32_t integer_byte(uint32_t code, uint32_t bits, bool is_signed) {
  const uint32_t shift = 32 - bits;
  return (is_signed ? uint32_t(int32_t(code << shift) >> shift) : (code << shift) >> shift) & 0xFFu;
}

// PTX prmt.b32 in its default mode (the CUDA intrinsic __byte_perm): byte i of the result is byte
// (selector >> 4i) & 7 of the eight bytes of b:a (a's bytes 0-3, b's 4-7). The selectors here never set a nibble's top
// bit (prmt's sign replication). Resident.BytePermuteIsPrmt checks the host's emulation; gpu_resident_test, whose
// device judge runs the instruction on every dense-over-codes pair, checks the two agree.
MMASP_PORTABLE uint32_t byte_permute(uint32_t a, uint32_t b, uint32_t selector) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(a, b, selector);
#else
  const uint64_t both = uint64_t(b) << 32 | a;
  uint32_t out = 0;
  for (uint32_t i = 0; i < 4; ++i) out |= uint32_t((both >> (8 * ((selector >> (4 * i)) & 7))) & 0xFFu) << (8 * i);
  return out;
#endif
}
// The low bytes of four words, as one word (byte s from word s): three byte permutes.
MMASP_PORTABLE uint32_t low_bytes(uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  return byte_permute(byte_permute(w0, w1, 0x0040u), byte_permute(w2, w3, 0x4000u), 0x7610u);
}
// Four integer codes of `bits` bits (1..8), one in the low bits of each byte (anything above them ignored), each as
// its value's low byte (sign-extended where signed: a 4-bit -8 is 0xF8), as dp4a reads them. A byte whose sign bit
// 2^(bits-1) is set gains 2^8 - 2^bits = that bit times 2^(9-bits) - 2, which never carries into the next byte.
MMASP_PORTABLE uint32_t integer_bytes(uint32_t four, uint32_t bits, bool is_signed) {
  if (bits >= 8) return four;   // the low byte is the value's, signed or not
  four &= 0x01010101u * ((1u << bits) - 1);
  if (!is_signed) return four;
  return four | ((four & (0x01010101u << (bits - 1))) * ((1u << (9 - bits)) - 2));
}
// The selectors' table (PairTables::dense_selectors): two words for each metadata nibble below this.
inline constexpr uint32_t kDenseSelectorNibbles = 16;
// Whether a pair's chunks can be spread by byte permutes: 2 or 4 stored elements a chunk (low_bytes gathers them) and
// every metadata nibble the generator draws below kDenseSelectorNibbles (the selectors' table).
template <class D>
MMASP_PORTABLE bool dense_selectors_fit(const gen::portable::CaseTablesOf<D>& t) {
  if (t.stored_per_chunk != 2 && t.stored_per_chunk != 4) return false;
  for (uint32_t slot = 0; slot < 256; ++slot)
    if ((t.arena[t.chunk_nibbles + slot] & 0xFFu) >= kDenseSelectorNibbles) return false;
  return true;
}
// The selectors that spread a chunk's stored bytes (byte s of a word: stored element s, as low_bytes gives them) over
// its logical columns: selectors[w] makes word w of the chunk's dense bytes (columns 4w .. 4w+3), byte 4 of b:a (b is
// 0) where no stored element lies. From the case tables' metadata columns; a column outside the chunk (a nibble the
// generator never draws: integer_dense_fits checks every one it draws) is left out.
template <class D>
MMASP_PORTABLE void dense_chunk_selectors(const gen::portable::CaseTablesOf<D>& t, uint32_t nibble, uint32_t* selectors) {
  selectors[0] = selectors[1] = 0x4444u;
  for (uint32_t s = 0; s < t.stored_per_chunk; ++s) {
    const uint32_t column = t.arena[t.chunk_columns + nibble * 4 + s], shift = 4 * (column & 3);
    if (column >= t.chunk_width) continue;
    selectors[column >> 2] = (selectors[column >> 2] & ~(0xFu << shift)) | (s << shift);
  }
}
// x rotated left by n bits, 0 <= n < 32.
MMASP_PORTABLE uint32_t rotate_left_32(uint32_t x, uint32_t n) { return (x << n) | (x >> ((32 - n) & 31)); }

// Lane `lane`'s share of writing a case's dense bytes (dense_words words at `dense`, 16-byte aligned) from its codes:
// dense A a chunk at a time (the chunk's stored elements placed by its nibble, whole words written, so nothing needs
// clearing first), B transposed a word at a time (four rows of one column; each lane starts at a different one of
// the four, so that a warp's loads of B fall in 32 banks rather than 8). Reads only A, B and the nibbles, so running
// it again writes the same bytes (the benchmark's judge mode judges one case again and again). The lean kernels'
// spread; the dense kernels' is spread_integer_dense_over_codes, below.
template <class D>
MMASP_PORTABLE void spread_integer_dense(const PairTablesOf<D>& p, const uint32_t* a, const uint32_t* b,
                                         const uint32_t* nibbles, uint32_t lane, uint32_t lanes, uint32_t* dense) {
  const auto& t = p.cases;
  const uint32_t row_words = dense_row_words(t), chunk_log2 = t.chunks_log2, per_chunk = t.stored_per_chunk;
  const uint32_t a_bits = p.a_bits, b_bits = p.b_bits;
  const bool a_signed = p.a_signed, b_signed = p.b_signed;
  const uint32_t* columns = t.arena + t.chunk_columns;
  // A chunk's dense bytes (chunk = row * chunks + chunk in row), and where they go.
  const auto chunk_bytes = [&](uint32_t chunk) {
    const uint32_t* nibble_columns = columns + nibbles[chunk] * 4;
    const uint32_t* stored = a + chunk * per_chunk;
    uint64_t bytes = 0;
    for (uint32_t s = 0; s < per_chunk; ++s)
      bytes |= uint64_t(integer_byte(stored[s], a_bits, a_signed)) << (8 * nibble_columns[s]);
    return bytes;
  };
  const auto put_chunk = [&](uint32_t chunk, uint64_t bytes) {
    const uint32_t row = chunk >> chunk_log2, within = chunk & ((1u << chunk_log2) - 1);
    uint32_t* out = dense + row * row_words + within * (t.chunk_width / 4);
    out[0] = uint32_t(bytes);
    if (t.chunk_width == 8) out[1] = uint32_t(bytes >> 32);
  };
  for (uint32_t chunk = lane; chunk < t.nibble_count; chunk += lanes) put_chunk(chunk, chunk_bytes(chunk));
  const uint32_t n = t.n, words_per_column = t.k / 4;
  uint32_t* b_transposed = dense + t.m * row_words;
  for (uint32_t x = lane; x < n * words_per_column; x += lanes) {   // x = word * N + column
    const uint32_t column = x & (n - 1), word = x >> t.n_log2;
    const uint32_t* rows = b + 4 * word * n + column;
    uint32_t packed = 0;
    for (uint32_t step = 0; step < 4; ++step) {
      const uint32_t r = (step + word) & 3;
      packed |= integer_byte(rows[r * n], b_bits, b_signed) << (8 * r);
    }
    b_transposed[column * row_words + word] = packed;
  }
}

// The dense kernels' spread (PairTables::dense_over_codes, which also has dense_selectors): the same bytes as
// spread_integer_dense, with `dense` at `a` itself. The warp takes A's chunks a pass of `lanes` at a time, every lane
// reading its chunk's codes before any writes (__syncwarp), and dense_over_codes_fits keeps each pass's rows below the
// codes of the passes after it; B's rows land in A's codes, all read by then. A's and B's codes are then spent: the
// registers must be packed first, and it runs once per case. The bytes are made four at a time: a chunk's stored
// codes gathered into one word by byte permutes and placed by its nibble's selectors, B's four rows gathered and
// rotated into place, four bytes sign-extended at once (integer_bytes), because one code at a time, each placed by a
// 64-bit shift, is a large share of a 4-bit integer case's work. The lean kernels, which the float forms share, keep
// spread_integer_dense: there this code's registers slow the float forms.
template <class D>
MMASP_PORTABLE void spread_integer_dense_over_codes(const PairTablesOf<D>& p, const uint32_t* a, const uint32_t* b,
                                                    const uint32_t* nibbles, uint32_t lane, uint32_t lanes, uint32_t* dense) {
  const auto& t = p.cases;
  const uint32_t row_words = dense_row_words(t), chunk_log2 = t.chunks_log2, per_chunk = t.stored_per_chunk;
  const uint32_t a_bits = p.a_bits, b_bits = p.b_bits;
  const bool a_signed = p.a_signed, b_signed = p.b_signed;
  const bool two_words = t.chunk_width == 8;
  const uint32_t* selectors = p.layouts + p.dense_selectors;
  for (uint32_t pass = 0; pass < t.nibble_count; pass += lanes) {   // the same passes in every lane
    const uint32_t chunk = pass + lane;
    uint32_t first = 0, second = 0;
    if (chunk < t.nibble_count) {
      const uint32_t* stored = a + chunk * per_chunk;
      const uint32_t gathered = per_chunk == 4 ? low_bytes(stored[0], stored[1], stored[2], stored[3])
                                               : byte_permute(stored[0], stored[1], 0x0040u);   // bytes 2, 3 unused
      const uint32_t bytes = integer_bytes(gathered, a_bits, a_signed);
      const uint32_t* chunk_selectors = selectors + 2 * nibbles[chunk];
      first = byte_permute(bytes, 0u, chunk_selectors[0]);
      second = two_words ? byte_permute(bytes, 0u, chunk_selectors[1]) : 0u;
    }
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
    if (chunk < t.nibble_count) {
      const uint32_t row = chunk >> chunk_log2, within = chunk & ((1u << chunk_log2) - 1);
      uint32_t* out = dense + row * row_words + within * (two_words ? 2 : 1);
      out[0] = first;
      if (two_words) out[1] = second;
    }
  }
  const uint32_t n = t.n, words_per_column = t.k / 4;
  uint32_t* b_transposed = dense + t.m * row_words;
  for (uint32_t x = lane; x < n * words_per_column; x += lanes) {   // x = word * N + column
    const uint32_t column = x & (n - 1), word = x >> t.n_log2, turn = word & 3;
    const uint32_t* rows = b + 4 * word * n + column;
    // Byte s of `turned` is row (s + turn) & 3; rotated left by `turn` bytes, byte r is row r.
    const uint32_t turned = low_bytes(rows[turn * n], rows[((turn + 1) & 3) * n], rows[((turn + 2) & 3) * n],
                                      rows[((turn + 3) & 3) * n]);
    b_transposed[column * row_words + word] = integer_bytes(rotate_left_32(turned, 8 * turn), b_bits, b_signed);
  }
}

// c + the dot product of four bytes of a and of b, signed or unsigned as the types say (PTX dp4a), wrapped to 32 bits.
template <bool kASigned, bool kBSigned>
MMASP_PORTABLE uint32_t dot4(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
  uint32_t d;
  if constexpr (kASigned && kBSigned) asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  if constexpr (kASigned && !kBSigned) asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  if constexpr (!kASigned && kBSigned) asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  if constexpr (!kASigned && !kBSigned) asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
#else
  for (uint32_t x = 0; x < 32; x += 8) {
    const int32_t av = kASigned ? int32_t(int8_t(uint8_t(a >> x))) : int32_t((a >> x) & 0xFFu);
    const int32_t bv = kBSigned ? int32_t(int8_t(uint8_t(b >> x))) : int32_t((b >> x) & 0xFFu);
    c += uint32_t(av * bv);
  }
  return c;
#endif
}

// The products' sum of a row of dense A and a row of B transposed, `words` words (a multiple of 4), 16 bytes a load.
template <bool kASigned, bool kBSigned>
MMASP_PORTABLE uint32_t dense_products(const uint32_t* a_row, const uint32_t* b_row, uint32_t words) {
  uint32_t sum = 0;
MMASP_NO_UNROLL
  for (uint32_t w = 0; w < words; w += 4) {
#if defined(__CUDA_ARCH__)
    const uint4 x = *reinterpret_cast<const uint4*>(a_row + w), y = *reinterpret_cast<const uint4*>(b_row + w);
    sum = dot4<kASigned, kBSigned>(x.w, y.w, dot4<kASigned, kBSigned>(x.z, y.z, dot4<kASigned, kBSigned>(
                                                   x.y, y.y, dot4<kASigned, kBSigned>(x.x, y.x, sum))));
#else
    for (uint32_t v = 0; v < 4; ++v) sum = dot4<kASigned, kBSigned>(a_row[w + v], b_row[w + v], sum);
#endif
  }
  return sum;
}

// Element idx's products summed from the dense bytes, exactly, as 32 bits (integer_dense_fits).
template <class D>
MMASP_PORTABLE uint32_t dense_sum(const PairTablesOf<D>& p, const uint32_t* dense, uint32_t idx) {
  const auto& t = p.cases;
  const uint32_t i = idx >> t.n_log2, j = idx & (t.n - 1), row_words = dense_row_words(t), words = t.k / 4;
  const uint32_t* a_row = dense + i * row_words;
  const uint32_t* b_row = dense + (t.m + j) * row_words;
  return p.a_signed ? (p.b_signed ? dense_products<true, true>(a_row, b_row, words)
                                  : dense_products<true, false>(a_row, b_row, words))
                    : (p.b_signed ? dense_products<false, true>(a_row, b_row, words)
                                  : dense_products<false, false>(a_row, b_row, words));
}
// judged_integer from the dense bytes: the same exact result (integer_dense_fits).
template <class D>
MMASP_PORTABLE uint32_t judged_integer_dense(const PairTablesOf<D>& p, const uint32_t* dense, const uint32_t* c,
                                             uint32_t idx) {
  const uint32_t products = dense_sum(p, dense, idx);
  if (!p.satfinite) return c[idx] + products;   // wrapped to 32 bits, as the 64-bit sum wrapped is
  const long long sum = (long long)int32_t(c[idx]) + int32_t(products);   // the products' sum is exact in 32 bits
  return uint32_t(sum > 2147483647LL ? 2147483647LL : sum < -2147483648LL ? -2147483648LL : sum);
}

// What D[idx] must be for the case in a, b, c (row-major codes) and nibbles: the model's result with `parameters`
// (float forms) or the exact integer result.
template <class D>
MMASP_SHARED_CODE uint32_t judged(const PairTablesOf<D>& p, const model::Parameters& parameters, const uint32_t* a,
                                  const uint32_t* b, const uint32_t* c, const uint32_t* nibbles, uint32_t idx) {
  if (p.judge == Judge::integer) return judged_integer(p, a, b, c, nibbles, idx);
  const auto& t = p.cases;
  const uint32_t n = t.n, i = idx >> t.n_log2, j = idx & (n - 1), stored = t.k / 2, chunks = 1u << t.chunks_log2;
  const uint32_t* row_nibbles = nibbles + i * chunks;
  const auto nibble_of = [&](uint32_t chunk) { return row_nibbles[chunk]; };
  // Copies in registers: on a GPU the tables are in global memory, and the arithmetic reads these in its loops.
  const model::Parameters local = parameters;
  const model::OperandFormat a_format = p.a_format, b_format = p.b_format;
  const auto operands = [&](int s, model::Value& a_value, model::Value& b_value) {
    const uint32_t column = gen::portable::logical_column(t, nibble_of, uint32_t(s));
    a_value = model::decode_operand(a[i * stored + uint32_t(s)], a_format, local.subnormal_inputs);
    b_value = model::decode_operand(b[column * n + j], b_format, local.subnormal_inputs);
  };
  const model::Value c_value = model::decode_operand(c[idx], p.c_format, local.subnormal_inputs);
  return model::element(local, int(stored), operands, c_value, p.f16_d, model::NoEvents{});
}

// A decoded operand (model::Value) in 64 bits, so that a warp decodes each element of a case once rather than once per
// element of D that reads it: class (2 bits), sign, exponent and field (11 bits each, offset by 1024), significand
// (the top 39 bits; operands have at most 24).
MMASP_PORTABLE uint64_t pack_value(const model::Value& v) {
  return uint64_t(v.cls) | uint64_t(v.negative) << 2 | uint64_t(uint32_t(v.exponent + 1024) & 0x7FFu) << 3 |
         uint64_t(uint32_t(v.field + 1024) & 0x7FFu) << 14 | v.significand << 25;
}
MMASP_PORTABLE model::Value unpack_value(uint64_t x) {
  model::Value v;
  v.cls = model::Value::Class(x & 3);
  v.negative = (x >> 2) & 1;
  v.exponent = int((x >> 3) & 0x7FF) - 1024;
  v.field = int((x >> 14) & 0x7FF) - 1024;
  v.significand = x >> 25;
  return v;
}

// Lane `lane`'s share of decoding a case's A and B under `parameters` (and A's logical columns), for judged_decoded.
// A warp calls it with every lane, then synchronises.
template <class D>
MMASP_PORTABLE void decode_operands(const PairTablesOf<D>& p, const model::Parameters& parameters, const uint32_t* a,
                                    const uint32_t* b, const uint32_t* nibbles, uint32_t lane, uint32_t lanes,
                                    uint64_t* a_decoded, uint64_t* b_decoded, uint32_t* columns) {
  const auto& t = p.cases;
  const model::OperandFormat a_format = p.a_format, b_format = p.b_format;
  for (uint32_t e = lane; e < t.a_count; e += lanes) {
    a_decoded[e] = pack_value(model::decode_operand(a[e], a_format, parameters.subnormal_inputs));
    columns[e] = a_element_column(t, nibbles, e);
  }
  for (uint32_t e = lane; e < t.b_count; e += lanes)
    b_decoded[e] = pack_value(model::decode_operand(b[e], b_format, parameters.subnormal_inputs));
}

// The kernel's fast paths: the arithmetic instantiated for the choices of the verified sm_90 records
// (numeric_model_table.cpp: f16, bf16 and tf32 chained with C in the first block; fp8 with C added by an FADD), the
// numbers (block size, interleave, fraction bits, floor guard) still from the table. Used only where the runtime
// parameters match; anything else takes the general instantiation. Resident.VerifiedRecordsTakeAFastPath keeps the
// list in step with the table.
using Sm90Choices = model::FixedChoices<ShiftedOut::truncate, AlignmentExponent::exponent_sum, Rounding::toward_zero,
                                        Rounding::nearest_even, NarrowOutput::from_sum, CPlacement::first_block,
                                        BlockCombination::chained, Subnormals::kept, Subnormals::kept,
                                        SubnormalRounding::as_normal, SumOverflow::to_infinity, false, true>;
using Sm90FaddChoices = model::FixedChoices<ShiftedOut::truncate, AlignmentExponent::exponent_sum, Rounding::toward_zero,
                                            Rounding::nearest_even, NarrowOutput::from_sum, CPlacement::fadd_after,
                                            BlockCombination::chained, Subnormals::kept, Subnormals::kept,
                                            SubnormalRounding::as_normal, SumOverflow::to_infinity, false, true>;
MMASP_PORTABLE bool has_fast_path(const model::Parameters& p) {
  return Sm90Choices::matches(p) || Sm90FaddChoices::matches(p);
}
template <class Operands>
MMASP_PORTABLE uint32_t fast_element(const model::Parameters& p, int stored, const Operands& operands, const model::Value& c,
                                     bool f16_d) {
  if (Sm90Choices::matches(p)) return model::element(Sm90Choices::from(p), stored, operands, c, f16_d, model::NoEvents{});
  if (Sm90FaddChoices::matches(p)) return model::element(Sm90FaddChoices::from(p), stored, operands, c, f16_d, model::NoEvents{});
  return model::element(p, stored, operands, c, f16_d, model::NoEvents{});
}

// judged() for a float form from decoded operands: the same arithmetic, without decoding in its loops. Inlined into
// the kernel's one call site: a call there made the kernel save and restore its registers around every element.
template <class D>
MMASP_PORTABLE uint32_t judged_decoded(const PairTablesOf<D>& p, const model::Parameters& parameters,
                                          const uint64_t* a_decoded, const uint64_t* b_decoded, const uint32_t* columns,
                                          const uint32_t* c, uint32_t idx) {
  const auto& t = p.cases;
  const uint32_t n = t.n, i = idx >> t.n_log2, j = idx & (n - 1), stored = t.k / 2;
  const model::Parameters local = parameters;
  const uint64_t* a_row = a_decoded + i * stored;
  const uint32_t* row_columns = columns + i * stored;
  const uint64_t* b_column = b_decoded + j;
  const auto operands = [&](int s, model::Value& a_value, model::Value& b_value) {
    a_value = unpack_value(a_row[s]);
    b_value = unpack_value(b_column[row_columns[s] * n]);
  };
  const model::Value c_value = model::decode_operand(c[idx], p.c_format, local.subnormal_inputs);
  return fast_element(local, int(stored), operands, c_value, p.f16_d);
}

// --- The narrow model (model::narrow): for pairs whose parameters are the verified sm_90 choices and whose operands
// pack into one word; narrow_pair() says which. The kernel's fast path. ---
// An A word's tag (model::narrow's packed word): the byte offset, in B's words, of the B row that the A element's
// logical column meets, so that the judge finds the B word by one add.
template <class D>
MMASP_PORTABLE uint32_t narrow_tag(const gen::portable::CaseTablesOf<D>& t, uint32_t column) {
  return column * t.n * uint32_t(sizeof(uint64_t));
}
// An A tag where B's words lie in two planes of halves (b_words_over_codes<true>: the fp8 kernel's and the narrow f16
// kernel's; decode_narrow<true> and decode_f16_words<true> on the host): the B row's byte offset in either plane, rows
// of n 4-byte halves.
template <class D>
MMASP_PORTABLE uint32_t plane_tag(const gen::portable::CaseTablesOf<D>& t, uint32_t column) {
  return column * t.n * uint32_t(sizeof(uint32_t));
}
template <class D>
MMASP_PORTABLE bool narrow_pair(const PairTablesOf<D>& p) {
  return p.judge != Judge::integer && has_fast_path(p.model) && model::narrow::applies(p.model) &&
         model::narrow::fits(p.a_format) && model::narrow::fits(p.b_format) &&
         narrow_tag(p.cases, p.cases.k - 1) < (1u << model::narrow::kTagBits);   // every B row offset fits a tag
}

// decode_narrow's tables (PairTables::NarrowTable). A code's word is the table's entry for its sign and exponent
// (index_bits above the mantissa) and for whether its mantissa is zero, with the mantissa ORed into the significand
// where the entry is finite: for IEEE-style formats whose exponent fields do not depend on the mantissa (every format
// but fp8 with f16 fields), a code's class, exponent and field are its sign and exponent's and its mantissa's being
// zero, and its significand is the entry's (the implicit bit, or 0 for a subnormal) plus the mantissa. Formats of at
// most 8 bits take the whole code as the index (mantissa_bits 0). narrow_table_fits says which; resident_pair_tables
// builds the tables and Resident.NarrowTablesLookUpEveryCodeAsDecoded checks every code of every pair's formats.
MMASP_PORTABLE bool narrow_table_fits(const model::OperandFormat& f, uint32_t* mantissa_bits, uint32_t* index_bits) {
  const int code_bits = f.code_bits();
  if (code_bits <= 8) {
    *mantissa_bits = 0;
    *index_bits = uint32_t(code_bits);
    return true;
  }
  if (f.fp8_fields_as_f16 || f.specials == 1 || 1 + f.exponent_bits > 9) return false;
  *mantissa_bits = uint32_t(f.mantissa_bits);
  *index_bits = uint32_t(1 + f.exponent_bits);
  return true;
}
// Words (two per entry) of a table: an entry per index for a zero mantissa, then one per index for any other.
MMASP_PORTABLE uint32_t narrow_table_words(uint32_t index_bits) { return 4u << index_bits; }
// f32_words: the words are model::narrow::pack_f32's (narrow_f32_table; whole codes only).
MMASP_PORTABLE void narrow_table(const model::OperandFormat& f, Subnormals subnormals, uint32_t mantissa_bits,
                                 uint32_t index_bits, uint32_t* out, bool f32_words = false) {
  const uint32_t entries = 1u << index_bits;
  for (uint32_t nonzero = 0; nonzero < 2; ++nonzero)
    for (uint32_t index = 0; index < entries; ++index) {
      if (nonzero && mantissa_bits == 0) {   // no mantissa is looked up apart: never read
        out[2 * (entries + index)] = out[2 * (entries + index) + 1] = 0;
        continue;
      }
      const uint32_t code = ((index << mantissa_bits) | nonzero) << f.low_pad_bits;
      const model::Value value = model::decode_operand(code, f, subnormals);
      uint64_t word = f32_words ? model::narrow::pack_f32(value) : model::narrow::pack(value);
      if (nonzero && (word >> 32) & model::narrow::kFinite) word &= ~(uint64_t(1) << 32);   // the mantissa's 1 comes back
      out[2 * (nonzero * entries + index)] = uint32_t(word);
      out[2 * (nonzero * entries + index) + 1] = uint32_t(word >> 32);
    }
}
// narrow_looked_up for a table that holds every code (mantissa_bits 0) of codes without padding (pad_bits 0): the fp8
// codes. The same word, without the mantissa's arithmetic; on the GPU by one 8-byte load, so `table` must be 8-byte
// aligned there (its one device caller reads the fp8 kernel's copies in shared memory, 16-byte aligned).
MMASP_PORTABLE uint64_t narrow_code_looked_up(const uint32_t* table, uint32_t index_bits, uint32_t code) {
  const uint32_t at = 2 * (code & ((1u << index_bits) - 1));
#if defined(__CUDA_ARCH__)
  return reinterpret_cast<const uint64_t*>(table)[at / 2];
#else
  return uint64_t(table[at + 1]) << 32 | table[at];
#endif
}
MMASP_PORTABLE uint64_t narrow_looked_up(const uint32_t* table, uint32_t pad_bits, uint32_t mantissa_bits,
                                         uint32_t index_bits, uint32_t code) {
  const uint32_t field = code >> pad_bits;
  const uint32_t mantissa = field & ((1u << mantissa_bits) - 1);
  const uint32_t at = 2 * (((mantissa != 0) << index_bits) + ((field >> mantissa_bits) & ((1u << index_bits) - 1)));
  const uint32_t high = table[at + 1];
  const uint32_t finite = uint32_t(int32_t(high << (31 - model::narrow::kFiniteBit)) >> 31);   // all ones where kFinite
  return uint64_t(high | (mantissa & finite)) << 32 | table[at];
}

// A narrow pair's word of a decoded operand with a tag, a looked-up word given its tag, and an A word's tag: pack()'s
// words, or with kF32Words the f32 words (model::narrow::pack_f32) of the fp8 kernel (narrow_f32_table).
template <bool kF32Words>
MMASP_PORTABLE uint64_t narrow_word(const model::Value& v, uint32_t tag = 0) {
  if constexpr (kF32Words) return model::narrow::pack_f32(v, tag);
  else return model::narrow::pack(v, tag);
}
template <bool kF32Words>
MMASP_PORTABLE uint64_t narrow_word_tagged(uint64_t word, uint32_t tag) {
  if constexpr (kF32Words) return model::narrow::with_f32_tag(word, tag);
  else return model::narrow::with_tag(word, tag);
}
template <bool kF32Words>
MMASP_PORTABLE uint32_t narrow_word_tag(uint64_t word) {
  if constexpr (kF32Words) return model::narrow::f32_tag(word);
  else return model::narrow::tag(word);
}
// An operand's table of f32 words (every code's model::narrow::pack_f32 word), which the fp8 kernel's words are
// (decode_fp8_words_over_codes; decode_narrow<true> on the host) and its judge sums by f32 multiplication
// (judged_narrow_elements<true>): right after the operand's narrow_tables words, indexed alike. resident_pair_tables
// puts one there where the operand's table holds every code unpadded and f32 words fit its format, and gives a pair
// narrow_fp8_blocks only where both operands have one. Found from narrow_tables rather than a field of PairTables, so that the
// struct, and with it every other kernel's code, stays as it was. The other kernels judge such a pair by the general
// walk, from narrow_tables' words.
template <class D>
MMASP_PORTABLE NarrowTable narrow_f32_table(const PairTablesOf<D>& p, int operand) {
  NarrowTable table = p.narrow_tables[operand];
  if (table.offset != kNoTable) table.offset += narrow_table_words(table.index_bits);
  return table;
}
// The table a pair's words of operand `operand` come from: narrow_f32_table for f32 words.
template <bool kF32Words, class D>
MMASP_PORTABLE NarrowTable narrow_table_of(const PairTablesOf<D>& p, int operand) {
  return kF32Words ? narrow_f32_table(p, operand) : p.narrow_tables[operand];
}

// The fp8 kernel's copy, in static shared memory, of what each of its cases reads from the pair's `layouts`: the cells
// (A's, B's, C's and D's layouts and the metadata's, at their offsets: pack_operand, metadata_register, the kernel's
// d_cell), and A's and B's f32 words of every code (narrow_f32_table: decode_fp8_words_over_codes). Read there instead
// of through L1, which beside the warps' 212 KB of shared memory has little room for these and the draw's tables
// (its 12-bit slot tables alone are 4 KB a profile). Sized for the kernel's shape
// (kResidentFp8Dims: a cell per element of A, B, C and D, and kMetadataCells: 1,536; kFp8Codes, 2 words each);
// resident_pair_tables gives a pair narrow_fp8_blocks only where fp8_shared_tables_fit, and the kernel traps on any
// other. The launch leaves these bytes out of a block's dynamic shared memory (resident.cpp, the kernel's static size).
inline constexpr uint32_t kMetadataCells = 32 * 8;   // 8 nibble positions a lane (metadata_register)
inline constexpr uint32_t kFp8SharedCellWords =
    kResidentFp8Dims.a_count + kResidentFp8Dims.b_count + 2 * kResidentFp8Dims.c_count + kMetadataCells;
inline constexpr uint32_t kFp8Codes = 256;   // every code of an 8-bit type
inline constexpr uint32_t kFp8WordsPerCode = 2;   // an f32 word: model::narrow::pack_f32's 64 bits
inline constexpr uint32_t kFp8SharedTableWords = kFp8WordsPerCode * kFp8Codes;
// And its copy of what the draw's cancellation profile reads (fp8_cancelled_c_row) and the judge's A words' columns
// (decode_fp8_words_over_codes): the case tables' float value of every A code, then of every B code
// (kFp8SharedValueWords each: a word a code), then their chunk column table (fp8_value_copy_word). Read there, the
// cancellation profile's C needs no f16 values of every code first, and no column a load through L1.
inline constexpr uint32_t kFp8SharedValueWords = kFp8Codes;
inline constexpr uint32_t kFp8ChunkColumnsAt = 2 * kFp8SharedValueWords;
inline constexpr uint32_t kFp8ValueCopyWords = kFp8ChunkColumnsAt + gen::portable::kChunkColumnWords;
inline constexpr uint32_t kFp8StaticSharedBytes =
    4 * (kFp8SharedCellWords + 2 * kFp8SharedTableWords + kFp8ValueCopyWords);
// The end, in `layouts`, of a pair's cells: the operands' layouts (32 lanes of per_lane cells each) and the metadata's
// (8 nibble positions a lane).
template <class D>
MMASP_PORTABLE uint32_t cell_words(const PairTablesOf<D>& p) {
  uint32_t end = p.metadata + kMetadataCells;
  for (int operand = 0; operand < 4; ++operand) {
    const uint32_t operand_end = p.layout[operand] + 32 * p.per_lane[operand];
    end = operand_end > end ? operand_end : end;
  }
  return end;
}
// The words of an operand's f32 table the fp8 kernel copies, and its codes (every code: fp8_shared_tables_fit).
MMASP_PORTABLE uint32_t fp8_table_words(const NarrowTable& table) { return kFp8WordsPerCode << table.index_bits; }
MMASP_PORTABLE uint32_t fp8_table_codes(const NarrowTable& table) { return fp8_table_words(table) / kFp8WordsPerCode; }
// Whether the fp8 kernel's copies hold a pair's cells and both operands' f32 tables, each a table of every code, and
// both operands' values as a table of floats (the case tables' ValueKind::table) of as many codes.
template <class D>
MMASP_PORTABLE bool fp8_shared_tables_fit(const PairTablesOf<D>& p) {
  if (cell_words(p) > kFp8SharedCellWords) return false;
  if (p.cases.a_kind != gen::portable::ValueKind::table || p.cases.b_kind != gen::portable::ValueKind::table)
    return false;
  for (int operand = 0; operand < 2; ++operand) {
    const NarrowTable table = narrow_f32_table(p, operand);
    if (table.offset == kNoTable || table.mantissa_bits != 0 || table.pad_bits != 0 ||
        fp8_table_words(table) > kFp8SharedTableWords)   // codes of at most 8 bits
      return false;
  }
  return true;
}
// Word x (below kFp8ValueCopyWords) of the fp8 kernel's value copy: A's value of code x, B's of code
// x - kFp8SharedValueWords (0 past the codes an operand's f32 table holds, which is as many as its value table:
// fp8_shared_tables_fit), then the chunk column table from kFp8ChunkColumnsAt.
template <class D>
MMASP_PORTABLE uint32_t fp8_value_copy_word(const PairTablesOf<D>& p, uint32_t x) {
  const auto& t = p.cases;
  if (x >= kFp8ChunkColumnsAt) return t.arena[t.chunk_columns + x - kFp8ChunkColumnsAt];
  const int operand = x < kFp8SharedValueWords ? operand_a : operand_b;
  const uint32_t code = x % kFp8SharedValueWords;
  if (code >= fp8_table_codes(narrow_f32_table(p, operand))) return 0u;
  return t.arena[(operand == operand_a ? t.a_values : t.b_values) + code];
}

// The cancellation profile's C in the fp8 kernel: portable::cancelled_c_row_of_values for lane `lane`'s four elements
// of one row (C's codes c[4 * lane ..] in and out), each code's value looked up where it is read in `copy`, the
// kernel's value copy (fp8_value_copy_word: the floats operand_value reads, and the chunk columns). The product of two
// floats is exact in double, so the device's fused multiply-add sums what the product and addition there sum.
template <class D>
MMASP_PORTABLE void fp8_cancelled_c_row(const gen::portable::CaseTablesOf<D>& t, const uint32_t* a, const uint32_t* b,
                                        const uint32_t* nibbles, const uint32_t* copy, uint32_t lane, uint32_t* c) {
  constexpr uint32_t kRow = 4;
  const uint32_t first = lane * kRow, i = first >> t.n_log2, j0 = first & (t.n - 1), stored = t.k / 2;
  const uint32_t* const a_row = a + i * stored;
  const uint32_t* const b_values = copy + kFp8SharedValueWords;
  const uint32_t* const columns = copy + kFp8ChunkColumnsAt;
  const auto nibble_of = [&](uint32_t chunk) { return nibbles[(i << t.chunks_log2) + chunk]; };
  double sums[kRow] = {};
  for (uint32_t s = 0; s < stored; ++s) {
    const uint32_t* const b_codes = b + gen::portable::logical_column_in(t, columns, nibble_of, s) * t.n + j0;
    uint32_t codes[kRow];
#if defined(__CUDA_ARCH__)
    const uint4 four = *reinterpret_cast<const uint4*>(b_codes);   // j0 a multiple of 4, and so is a row's start
    codes[0] = four.x, codes[1] = four.y, codes[2] = four.z, codes[3] = four.w;
#else
    for (uint32_t e = 0; e < kRow; ++e) codes[e] = b_codes[e];
#endif
    const double a_value = double(gen::portable::float_of(copy[a_row[s]]));
MMASP_UNROLL
    for (uint32_t e = 0; e < kRow; ++e) {
      const double b_value = double(gen::portable::float_of(b_values[codes[e]]));
#if defined(__CUDA_ARCH__)
      sums[e] = __fma_rn(a_value, b_value, sums[e]);
#else
      sums[e] += a_value * b_value;
#endif
    }
  }
MMASP_UNROLL
  for (uint32_t e = 0; e < kRow; ++e) c[first + e] = gen::portable::cancelled_code_of_sum(t, sums[e], c[first + e]);
}

// B word e's halves put in the two planes b_words_over_codes<true> writes (low halves, then high halves, b_count
// 32-bit words each), at `planes`: the host's storage of b_count 64-bit words, written by bytes (decode_narrow<true>).
MMASP_PORTABLE void store_plane_halves(uint64_t* planes, uint32_t b_count, uint32_t e, uint64_t word) {
  const uint32_t low = uint32_t(word), high = uint32_t(word >> 32);
  unsigned char* const bytes = reinterpret_cast<unsigned char*>(planes);
  memcpy(bytes + sizeof(uint32_t) * e, &low, sizeof low);
  memcpy(bytes + sizeof(uint32_t) * (b_count + e), &high, sizeof high);
}

// decode_narrow's A tag and B word: narrow_tag's and whole words, or (kF32Words, the fp8 kernel's layout) plane_tag's
// and store_plane_halves'. Functions inlined by force rather than lambdas: with lambdas the general kernel's code
// changed.
template <bool kF32Words, class D>
MMASP_PORTABLE uint32_t narrow_tag_of(const gen::portable::CaseTablesOf<D>& t, uint32_t column) {
  if constexpr (kF32Words) return plane_tag(t, column);
  else return narrow_tag(t, column);
}
template <bool kF32Words>
MMASP_PORTABLE void put_narrow_b(uint64_t* b_narrow, uint32_t b_count, uint32_t e, uint64_t word) {
  if constexpr (kF32Words) store_plane_halves(b_narrow, b_count, e, word);
  else b_narrow[e] = word;
}

// Lane `lane`'s share of packing a case's A and B (decode_operand, then narrow::pack, or their table): per A element
// its word (at narrow_a_slot), tagged with the byte offset (narrow_tag) of the B row its logical column meets; per B
// element its word. kF32Words: the fp8 kernel's f32 words (narrow_word), for a pair with narrow_fp8_blocks, in its
// layout: B's in two planes of halves (store_plane_halves), A's tags their rows' offsets there (plane_tag).
template <bool kF32Words = false, class D>
MMASP_PORTABLE void decode_narrow(const PairTablesOf<D>& p, const uint32_t* a, const uint32_t* b, const uint32_t* nibbles,
                                  uint32_t lane, uint32_t lanes, uint64_t* a_narrow, uint64_t* b_narrow) {
  const auto& t = p.cases;
  const model::OperandFormat a_format = p.a_format, b_format = p.b_format;
  const Subnormals subnormals = p.model.subnormal_inputs;
  // A packed word's tag is its own bits (narrow::pack, pack_f32), so a looked-up word takes its tag by an OR.
  const NarrowTable a_table = narrow_table_of<kF32Words>(p, operand_a),
                                b_table = narrow_table_of<kF32Words>(p, operand_b);
  if (a_table.offset != kNoTable) {
    const uint32_t* table = p.layouts + a_table.offset;
    for (uint32_t e = lane; e < t.a_count; e += lanes)
      a_narrow[narrow_a_slot(t, e)] = narrow_word_tagged<kF32Words>(
          narrow_looked_up(table, a_table.pad_bits, a_table.mantissa_bits, a_table.index_bits, a[e]),
          narrow_tag_of<kF32Words>(t, a_element_column(t, nibbles, e)));
  } else {
    for (uint32_t e = lane; e < t.a_count; e += lanes)
      a_narrow[narrow_a_slot(t, e)] = narrow_word<kF32Words>(model::decode_operand(a[e], a_format, subnormals),
                                                             narrow_tag_of<kF32Words>(t, a_element_column(t, nibbles, e)));
  }
  if (b_table.offset != kNoTable) {
    const uint32_t* table = p.layouts + b_table.offset;
    for (uint32_t e = lane; e < t.b_count; e += lanes)
      put_narrow_b<kF32Words>(b_narrow, t.b_count, e,
                              narrow_looked_up(table, b_table.pad_bits, b_table.mantissa_bits, b_table.index_bits, b[e]));
  } else {
    for (uint32_t e = lane; e < t.b_count; e += lanes)
      put_narrow_b<kF32Words>(b_narrow, t.b_count, e, narrow_word<kF32Words>(model::decode_operand(b[e], b_format, subnormals)));
  }
}

// B's words over a case's codes (decode_narrow_over_codes says why its steps are safe): word e, word_of(B's code e),
// at the case's words 2e and 2e + 1, the warp taking B a step of `lanes` elements at a time, every lane reading its
// code before any writes. kPlanes (the fp8 and narrow f16 kernels' B words): word e's low half at the case's word e,
// its high half at word b_count + e; step k then writes words below lanes * (k + 1) and from b_count + lanes * k to
// below b_count + lanes * (k + 1), and has read every B code below lanes * (k + 1), at words below
// a_count + lanes * (k + 1): with b_count <= a_count no write reaches a code still to be read, nor C (below
// 2 * b_count <= a_count + b_count).
template <bool kPlanes = false, class WordOf, class D>
MMASP_PORTABLE void b_words_over_codes(const gen::portable::CaseTablesOf<D>& t, uint32_t* codes, uint32_t lane,
                                       uint32_t lanes, const WordOf& word_of) {
  const uint32_t* b = codes + t.a_count;
  for (uint32_t step = 0; step < t.b_count; step += lanes) {   // the same steps in every lane
    const uint32_t e = step + lane;
    const uint32_t code = e < t.b_count ? b[e] : 0u;
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
    if (e >= t.b_count) continue;
    const uint64_t word = word_of(code);
    if constexpr (kPlanes) {
      codes[e] = uint32_t(word);
      codes[t.b_count + e] = uint32_t(word >> 32);
    } else {
#if defined(__CUDA_ARCH__)
      reinterpret_cast<uint64_t*>(codes)[e] = word;
#else
      codes[2 * e] = uint32_t(word);   // the GPU's little-endian 64-bit word, without a type-punned store on the host
      codes[2 * e + 1] = uint32_t(word >> 32);
#endif
    }
  }
}

// decode_narrow for a narrow_over_codes pair, whose case starts at `codes` (A's codes, B's, C's, the nibbles): A's
// words as decode_narrow writes them, at `a_narrow` (after the case); then B's words over the codes, word e at the
// case's words 2e and 2e + 1. The warp takes B a step of `lanes` elements at a time, every lane reading its code
// before any writes (__syncwarp): step k writes words below 2 * lanes * (k + 1) and has read every B code below
// lanes * (k + 1), at words below a_count + lanes * (k + 1), so with b_count <= a_count (narrow_over_codes_fits) no
// write reaches a code still to be read, nor C. A's and B's codes are then spent: the registers must be packed first
// (and a dumped case's codes written out), and it runs once per case. Its word-making repeats decode_narrow's on
// purpose: one function for both is compiled for both kernels' needs and slows the m16n8k16 forms.
template <class D>
MMASP_PORTABLE void decode_narrow_over_codes(const PairTablesOf<D>& p, uint32_t* codes, const uint32_t* nibbles,
                                             uint32_t lane, uint32_t lanes, uint64_t* a_narrow) {
  const auto& t = p.cases;
  const Subnormals subnormals = p.model.subnormal_inputs;
  const NarrowTable a_table = p.narrow_tables[operand_a], b_table = p.narrow_tables[operand_b];
  const model::OperandFormat a_format = p.a_format, b_format = p.b_format;
  for (uint32_t e = lane; e < t.a_count; e += lanes) {
    const uint64_t word =
        a_table.offset != kNoTable
            ? narrow_looked_up(p.layouts + a_table.offset, a_table.pad_bits, a_table.mantissa_bits, a_table.index_bits, codes[e])
            : model::narrow::pack(model::decode_operand(codes[e], a_format, subnormals));
    a_narrow[narrow_a_slot(t, e)] = model::narrow::with_tag(word, narrow_tag(t, a_element_column(t, nibbles, e)));
  }
#if defined(__CUDA_ARCH__)
  __syncwarp();   // every lane has read its A codes
#endif
  b_words_over_codes(t, codes, lane, lanes, [&](uint32_t code) MMASP_INLINE_LAMBDA {
    return b_table.offset != kNoTable
               ? narrow_looked_up(p.layouts + b_table.offset, b_table.pad_bits, b_table.mantissa_bits,
                                  b_table.index_bits, code)
               : narrow_word<false>(model::decode_operand(code, b_format, subnormals));
  });
}

// The fp8 kernel's words (a pair with narrow_fp8_blocks, so fp8_shared_tables_fit): B's words over the codes in two
// planes of halves (b_words_over_codes<true>; A's tags their rows' offsets there, plane_tag), and A's words over the nibbles (fp8_a_words_at) in steps of `lanes` elements from the last, each
// step's codes and nibbles read by every lane before any writes (fp8_words_over_nibbles_fit(t, lanes)); the nibbles
// are then spent too. Its words are f32 words (narrow_word<true>), each looked up whole in `a_table` and `b_table`,
// the operands' f32 tables of every code (narrow_f32_table's words; in the kernel its copies in shared memory). A
// choice between tables and decoding made for each element would take a constant load and two branches an element;
// the pairs this kernel takes have both tables. A's words' columns from the chunk column table at `columns` (the tables' own, or the kernel's copy).
template <class D>
MMASP_PORTABLE void decode_fp8_words_over_codes(const PairTablesOf<D>& p, uint32_t* codes, const uint32_t* nibbles,
                                                uint32_t lane, uint32_t lanes, uint64_t* a_narrow,
                                                const uint32_t* a_table, const uint32_t* b_table,
                                                const uint32_t* columns) {
  const auto& t = p.cases;
  const uint32_t a_bits = p.narrow_tables[operand_a].index_bits, b_bits = p.narrow_tables[operand_b].index_bits;
  for (uint32_t top = t.a_count; top > 0; top -= lanes) {   // the same steps in every lane
    const uint32_t e = top - lanes + lane;
    const uint64_t word = narrow_code_looked_up(a_table, a_bits, codes[e]);
    const uint32_t tag = plane_tag(t, a_element_column_in(t, columns, nibbles, e));
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
    a_narrow[narrow_a_slot(t, e)] = narrow_word_tagged<true>(word, tag);
  }
#if defined(__CUDA_ARCH__)
  __syncwarp();   // every lane has read its A codes
#endif
  b_words_over_codes<true>(t, codes, lane, lanes,
                           [&](uint32_t code) MMASP_INLINE_LAMBDA { return narrow_code_looked_up(b_table, b_bits, code); });
}

// The accumulator formats as operand formats, for C known at compile time (PairTables::narrow_accumulator): f32 or
// f16, IEEE, no padding. resident_pair_tables compares a pair's C format (number_format's, through
// model_operand_format) with them field by field, and Resident's every-pair test asks that every sm_90 float pair
// match: so these fields cannot drift from number_format's without that test failing.
MMASP_PORTABLE constexpr model::OperandFormat narrow_accumulator_format(bool f16) {
  model::OperandFormat f;
  f.exponent_bits = f16 ? 5 : 8;
  f.mantissa_bits = f16 ? 10 : 23;
  f.bias = f16 ? model::kF16Bias : 127;
  return f;
}
MMASP_PORTABLE bool same_operand_format(const model::OperandFormat& x, const model::OperandFormat& y) {
  return x.exponent_bits == y.exponent_bits && x.mantissa_bits == y.mantissa_bits && x.bias == y.bias &&
         x.low_pad_bits == y.low_pad_bits && x.specials == y.specials && x.fp8_fields_as_f16 == y.fp8_fields_as_f16;
}
// What narrow_accumulator is for a narrow pair: 1 where C is f32 and D f32, 2 where both are f16, else 0.
template <class D>
MMASP_PORTABLE uint32_t narrow_accumulator_of(const PairTablesOf<D>& p) {
  if (p.judge != Judge::narrow_model || !same_operand_format(p.c_format, narrow_accumulator_format(p.f16_d))) return 0;
  return p.f16_d ? 2 : 1;
}
// f(model::KnownBool<D is f16>) for a pair with narrow_accumulator: f16_d and C's format as constants.
template <class F, class D>
MMASP_PORTABLE uint32_t with_accumulator_known(const PairTablesOf<D>& p, const F& f) {
  return p.narrow_accumulator == 2 ? f(model::KnownBool<true>{}) : f(model::KnownBool<false>{});
}

// Which instructions a resident kernel's inlined switch holds (resident_kernels_source's form_mma_inline<Admitted>):
// a kernel of one shape (FixedCaseDims) only the forms of its m, n and k, an f16 kernel only those whose A is f16, so
// that its search is over its own ids (a binary search over all 152 takes more branches a case, and the larger switch
// makes the k16 f16 kernel spill). The host sends a kernel only pairs of its shape, and an f16
// kernel only f16 pairs (resident.cpp; the kernels trap on any other), so an id left out is never asked for
// (Resident.EveryPairsInstructionIsInTheSwitchOfEachKernelThatAcceptsIt); if one were, its D would be zero and every
// case judged deviating.
template <class D, bool kF16Only>
struct AdmittedForms {
  MMASP_PORTABLE static constexpr bool admits(uint32_t m, uint32_t n, uint32_t k, bool a_is_f16) {
    if (kF16Only && !a_is_f16) return false;
    if constexpr (std::is_same_v<D, gen::portable::CaseDims>) return true;
    else return m == D::m && n == D::n && k == D::k;
  }
};
using EveryForm = AdmittedForms<gen::portable::CaseDims, false>;

// --- The f16 kernels' words (kResidentLeanK16F16Kernel, kResidentLeanNarrowF16Kernel): f32 words from f16 codes. --
// Every f16 value is an f32 value, every product of two is an exact f32 product, and f32_words_fit holds for f16 at
// the sm_90 records' fraction bits: so f16 operands can take the fp8 kernel's f32 words (model::narrow::pack_f32), and
// the one-block judge sum their products by f32 multiplication (Block::sum_f32_product: two multiplications and a
// conversion, where sum_product_32 takes two masks, a product, a funnel shift and a signed sum). No table (f16 has
// 65,536 codes): the value's f32 bits by conversion (on the GPU one cvt.f32.f16, exact for every finite f16 value,
// as IEEE 754 widening is), the field and the Inf/NaN flag from the exponent bits.
MMASP_PORTABLE constexpr model::OperandFormat narrow_f16_format() { return narrow_accumulator_format(true); }
// The f32 bits of an f16 code's value as pack_f32 has them: a zero's sign kept, Inf of its sign, a NaN 0x7FC00000 with
// its sign (whatever the conversion makes of a NaN's payload: the judge reads only a NaN product's class).
// Resident.F16WordsAreEveryCodesF32Word compares the host's with pack_f32 on every code.
MMASP_PORTABLE uint32_t f16_value_f32_bits(uint32_t code) {
  const uint32_t nan = (code & 0x8000u) << 16 | 0x7FC00000u;
#if defined(__CUDA_ARCH__)
  // Every value but a NaN by the conversion, Inf too (widening is exact), then a NaN chosen by a select, not a branch.
  const uint32_t widened = __float_as_uint(__half2float(__ushort_as_half((unsigned short)code)));
  return (code & 0x7FFFu) > 0x7C00u ? nan : widened;
#else
  const uint32_t sign = (code & 0x8000u) << 16, exponent = (code >> 10) & 31u, mantissa = code & 1023u;
  if (exponent == 31u) return mantissa ? nan : sign | 0x7F800000u;
  if (exponent == 0) return sign | gen::portable::float_bits(float(mantissa) * 0x1p-24f);   // zero or subnormal, exact
  return sign | (exponent + 127u - uint32_t(model::kF16Bias)) << 23 | mantissa << 13;
#endif
}
// An f16 code's f32 word (model::narrow::pack_f32 of its decoded value, subnormals kept) with a tag. Its class bits by
// selects, joined to the tag last: or-ing each class's bits into the tag under an if gives three branches and a
// convergence barrier a word in the f16 kernels.
MMASP_PORTABLE uint64_t f16_word(uint32_t code, uint32_t tag = 0) {
  const uint32_t exponent = (code >> 10) & 31u;
  // the field: the exponent, at least the smallest normal one's
  const uint32_t field = uint32_t((exponent ? int(exponent) : 1) - model::kF16Bias + model::narrow::kFieldOffset) << 16;
  const uint32_t low = exponent == 31u ? model::narrow::kF32Special : (code & 0x7FFFu) ? field : 0u;
  return uint64_t(f16_value_f32_bits(code)) << 32 | (tag | low);
}
// C's f32 word for the f16 kernels' judge (Block::sum_f32_term): an f16 C's is f16_word's, an f32 C's
// model::narrow::f32_code_word's. Resident.AccumulatorWordsArePackedValues compares both with pack_f32 of the decoded
// value.
template <class F16D>
MMASP_PORTABLE uint64_t accumulator_word(uint32_t code, F16D f16_d) {
  return f16_d ? f16_word(code) : model::narrow::f32_code_word(code);
}
// An f16 operand's container bits, which the f16 kernels pack A and B by (pack_operand's kBits), and C by these or 32.
inline constexpr uint32_t kF16OperandBits = 16;
// Whether a pair's A and B can take f16 words: f16 operands judged by the one-block walk (narrow_one_block: the sm_90
// choices, subnormal inputs kept, products that sum in 32 bits) in 16-bit containers with C in 16 or 32 (the bits the
// f16 kernels pack by), f32 words fitting f16 at its fraction bits, and every B row's offset fitting an f32 word's
// tag. The host sends such pairs to the f16 kernels (resident.cpp), which refuse any other.
template <class D>
MMASP_PORTABLE bool f16_words_fit(const PairTablesOf<D>& p) {
  const model::OperandFormat f16 = narrow_f16_format();
  return p.judge == Judge::narrow_model && p.narrow_one_block != 0 && p.model.subnormal_inputs == Subnormals::kept &&
         same_operand_format(p.a_format, f16) && same_operand_format(p.b_format, f16) &&
         p.container_bits[operand_a] == kF16OperandBits && p.container_bits[operand_b] == kF16OperandBits &&
         (p.container_bits[operand_c] == kF16OperandBits || p.container_bits[operand_c] == 32) &&
         model::narrow::f32_words_fit(f16, p.model.fraction_bits) &&
         model::narrow::f32_accumulator_fits(p.model.fraction_bits) &&
         narrow_tag(p.cases, p.cases.k - 1) <= model::narrow::kF32TagMask;
}
// decode_narrow for a pair with f16_words_fit: the same layout, A's words tagged alike, f16 words (the k16 f16
// kernel's). kPlanes: B's words in two planes of halves and A's tags plane_tag's, as the narrow f16 kernel's
// (decode_f16_words_over_codes), for the host's tests.
template <bool kPlanes = false, class D>
MMASP_PORTABLE void decode_f16_words(const PairTablesOf<D>& p, const uint32_t* a, const uint32_t* b,
                                     const uint32_t* nibbles, uint32_t lane, uint32_t lanes, uint64_t* a_narrow,
                                     uint64_t* b_narrow) {
  const auto& t = p.cases;
  for (uint32_t e = lane; e < t.a_count; e += lanes)
    a_narrow[narrow_a_slot(t, e)] = f16_word(a[e], narrow_tag_of<kPlanes>(t, a_element_column(t, nibbles, e)));
  for (uint32_t e = lane; e < t.b_count; e += lanes) put_narrow_b<kPlanes>(b_narrow, t.b_count, e, f16_word(b[e]));
}
// decode_narrow_over_codes for a pair with f16_words_fit (the narrow f16 kernel): the same steps, f16 words
// (decode_f16_words'), B's in two planes of halves (b_words_over_codes<true>) and A's tags plane_tag's, as the fp8
// kernel's: two elements of a row judged together (judged_narrow_elements<false, 2, true, true>) then load 8 bytes a
// product where whole words took 16; the m16n8k16 f16 kernel, one element a lane, would load 4 bytes where 8 are and
// gains nothing from the planes' extra indexing, so it keeps whole words.
template <class D>
MMASP_PORTABLE void decode_f16_words_over_codes(const PairTablesOf<D>& p, uint32_t* codes, const uint32_t* nibbles,
                                                uint32_t lane, uint32_t lanes, uint64_t* a_narrow) {
  const auto& t = p.cases;
  for (uint32_t e = lane; e < t.a_count; e += lanes)
    a_narrow[narrow_a_slot(t, e)] = f16_word(codes[e], plane_tag(t, a_element_column(t, nibbles, e)));
#if defined(__CUDA_ARCH__)
  __syncwarp();   // every lane has read its A codes
#endif
  b_words_over_codes<true>(t, codes, lane, lanes, [](uint32_t code) MMASP_INLINE_LAMBDA { return f16_word(code); });
}

// The products of kN elements of a row (judged_narrow_elements) where B's words lie in two planes of halves
// (b_words_over_codes<true>) and A's tags are plane_tag's: for the pass a WordHalvesOf names (sum_blocks'
// products_of_halves), stored product s's A word whole, and only those halves of its kN B words, kN at once, the
// other half zero. A functor rather than a lambda, so that the kernels without planes compile as before.
template <int kN>
struct PlaneHalves {
  const uint64_t* a_row;
  const unsigned char* b_low;    // column j's low half in row 0
  const unsigned char* b_high;   // and its high half
  MMASP_PORTABLE PlaneHalves(const uint64_t* a_row_words, const uint64_t* b_narrow, uint32_t j, uint32_t b_count)
      : a_row(a_row_words),
        b_low(reinterpret_cast<const unsigned char*>(b_narrow) + j * sizeof(uint32_t)),
        b_high(b_low + b_count * sizeof(uint32_t)) {}
  template <model::narrow::WordHalves kHalves>
  MMASP_PORTABLE void operator()(int s, uint64_t& a_word, uint64_t* b_words, model::narrow::WordHalvesOf<kHalves>) const {
    static_assert(kHalves != model::narrow::WordHalves::both, "one half a pass");
    constexpr bool kLow = kHalves == model::narrow::WordHalves::low;
    a_word = a_row[s];
    const unsigned char* const row = (kLow ? b_low : b_high) + narrow_word_tag<true>(a_word);
    uint32_t w[kN];
#if defined(__CUDA_ARCH__)
    if constexpr (kN == 2) {   // 8 bytes at once (j even, the planes on 8 bytes)
      const uint2 both = *reinterpret_cast<const uint2*>(row);
      w[0] = both.x;
      w[1] = both.y;
    } else {
      w[0] = *reinterpret_cast<const uint32_t*>(row);
    }
#else
MMASP_UNROLL
    for (int e = 0; e < kN; ++e) memcpy(&w[e], row + sizeof(uint32_t) * e, sizeof(uint32_t));   // 64-bit storage
#endif
MMASP_UNROLL
    for (int e = 0; e < kN; ++e) b_words[e] = kLow ? uint64_t(w[e]) : uint64_t(w[e]) << 32;
  }
};

// D[idx] .. D[idx + kN - 1] by the narrow model from decode_narrow's words and C's codes, into codes[0 .. kN - 1]: kN
// elements of one row (idx a multiple of kN, and kN dividing n), which share every A word; with kN = 2 each A word is
// loaded once for both elements, and their two B words (one row of B, adjacent columns) by one 16-byte load on the
// GPU, so that b_narrow must be 16-byte aligned there (the kernels check: narrow_pairs_fit).
// kFp8Blocks: the pair has narrow_fp8_blocks, its words are f32 words (decode_fp8_words_over_codes) whose products
// are summed by f32 multiplication (narrow::sum_f32_product), and its blocks are walked by compile-time indices; only
// the fp8 kernel is compiled with it (resident_kernel.cuh: in the kernel every pair shares, that code gives ptxas a
// stack frame that slows the f16, bf16 and integer forms). Without it an fp8 pair takes the general walk, from
// pack()'s words: the same result. Its B words lie in two planes of halves (b_words_over_codes<true>), and a pass
// loads only the halves it reads (with kN = 2 8 bytes a lane where whole words took 16): B's loads at random rows are
// most of the kernel's shared-memory traffic, and they keep its L1 data pipe busy.
// kF16Words: the words are decode_f16_words' (f16_words_fit), judged by the one-block walk on f32 words; only the
// f16 kernels are compiled with it. kPlanes: B's words lie in two planes of halves (the fp8 kernel's always, the
// narrow f16 kernel's too: decode_f16_words_over_codes), and each pass loads the halves it reads.
template <bool kFp8Blocks, int kN, bool kF16Words = false, bool kPlanes = kFp8Blocks, class D>
MMASP_PORTABLE void judged_narrow_elements(const PairTablesOf<D>& p, const uint64_t* a_narrow, const uint64_t* b_narrow,
                                           const uint32_t* c, uint32_t idx, uint32_t* codes) {
  static_assert(kN == 1 || kN == 2, "one element, or two of one row");
  static_assert(!(kFp8Blocks && kF16Words), "fp8 blocks or f16 words");
  static_assert(!kPlanes || kFp8Blocks || kF16Words, "B's words in planes of halves are f32 words");
  static_assert(!kFp8Blocks || kPlanes, "the fp8 kernel's B words lie in planes");
  const auto& t = p.cases;
  const uint32_t n = t.n, i = idx >> t.n_log2, j = idx & (n - 1), stored = t.k / 2;
  const uint64_t* a_row = a_narrow + narrow_a_slot(t, i * stored);
  const unsigned char* b_column = reinterpret_cast<const unsigned char*>(b_narrow + j);   // tags are byte offsets
  const auto products = [&](int s, uint64_t& a_word, uint64_t* b_words) {
    a_word = a_row[s];
    const unsigned char* b_row = b_column + narrow_word_tag<kFp8Blocks || kF16Words>(a_word);
#if defined(__CUDA_ARCH__)
    if constexpr (kN == 2) {   // 16 bytes at once, on 16 bytes (the kernel checks; the host's words need not be)
      const ulonglong2 both = *reinterpret_cast<const ulonglong2*>(b_row);
      b_words[0] = both.x;
      b_words[1] = both.y;
    } else
#endif
    {
MMASP_UNROLL
      for (int e = 0; e < kN; ++e) b_words[e] = reinterpret_cast<const uint64_t*>(b_row)[e];
    }
  };
  // C's values, decoded in the format narrow_accumulator names (its fields constants at compile time).
  const auto c_values_in = [&](const auto f16_d, Subnormals subnormals, model::Value* values) {
MMASP_UNROLL
    for (int e = 0; e < kN; ++e) values[e] = model::decode_operand(c[idx + e], narrow_accumulator_format(f16_d), subnormals);
  };
  if constexpr (kFp8Blocks) {   // resident_pair_tables sets narrow_fp8_blocks only with narrow_accumulator
    const PlaneHalves<kN> halves_of_products(a_row, b_narrow, j, t.b_count);
    with_accumulator_known(p, [&](const auto f16_d) {
      model::Value c_values[kN];
      c_values_in(f16_d, Sm90FaddChoices::subnormal_inputs, c_values);
      // Each block's 16 products by two groups of 8 (one group of 16 makes ptxas spill).
      model::narrow::elements_of_blocks<model::narrow::kProductsOfF32Words, kN, true>(
          Sm90FaddChoices::from(p.model), 2, halves_of_products, c_values, f16_d,
          [](int block, const auto& f) { model::narrow::for_fixed_block<32, 16, 2, 8>(block, f); }, codes, c + idx);
      return 0u;
    });
    return;
  }
  // One block of 4, 8 or 16 products (tf32 k8; f16, bf16 and tf32 k16; f16 and bf16 k32): the loops unrolled, by
  // groups of 4 for 16 (whole, the 16 products' registers spill in bf16 k32's judge). Two elements at a time by groups
  // of 2, which the narrow-over-codes kernel (m16n8k32) holds in its registers where groups of 4 would not fit.
  // resident_pair_tables sets narrow_one_block only with narrow_accumulator.
  // kF16Words: the words are decode_f16_words', whose products are summed by f32 multiplication, and C is an f32
  // word too (accumulator_word); the caller has made sure of f16_words_fit (so of narrow_one_block).
  if (kF16Words || p.narrow_one_block != 0) {
    constexpr int kSum = kF16Words ? model::narrow::kProductsOfF32Words : model::narrow::kProductsIn32;
    with_accumulator_known(p, [&](const auto f16_d) {
      const Sm90Choices choices = Sm90Choices::from(p.model);
      const auto one_block = [&](const auto* c_in) {
        constexpr int kPairGroup = 2;
        if constexpr (kPlanes && kF16Words) {   // the narrow f16 kernel: B's halves from their planes
          const PlaneHalves<kN> halves(a_row, b_narrow, j, t.b_count);
          if (p.narrow_one_block == 8) model::narrow::one_block_elements<8, kN == 1 ? 8 : kPairGroup, kN, kSum>(choices, halves, c_in, f16_d, codes);
          else if (p.narrow_one_block == 16) model::narrow::one_block_elements<16, kN == 1 ? 4 : kPairGroup, kN, kSum>(choices, halves, c_in, f16_d, codes);
          else model::narrow::one_block_elements<4, kN == 1 ? 4 : kPairGroup, kN, kSum>(choices, halves, c_in, f16_d, codes);
        } else {
          if (p.narrow_one_block == 8) model::narrow::one_block_elements<8, kN == 1 ? 8 : kPairGroup, kN, kSum>(choices, products, c_in, f16_d, codes);
          else if (p.narrow_one_block == 16) model::narrow::one_block_elements<16, kN == 1 ? 4 : kPairGroup, kN, kSum>(choices, products, c_in, f16_d, codes);
          else model::narrow::one_block_elements<4, kN == 1 ? 4 : kPairGroup, kN, kSum>(choices, products, c_in, f16_d, codes);
        }
      };
      if constexpr (kF16Words) {
        uint64_t c_words[kN];
MMASP_UNROLL
        for (int e = 0; e < kN; ++e) c_words[e] = accumulator_word(c[idx + e], f16_d);
        one_block(c_words);
      } else {
        model::Value c_values[kN];
        c_values_in(f16_d, Sm90Choices::subnormal_inputs, c_values);
        one_block(c_values);
      }
      return 0u;
    });
    return;
  }
MMASP_UNROLL
  for (int e = 0; e < kN; ++e) {
    const auto one = [&](int s, uint64_t& a_word, uint64_t& b_word) {
      a_word = a_row[s];
      b_word = reinterpret_cast<const uint64_t*>(b_column + model::narrow::tag(a_word))[e];
    };
    const model::Value c_value = model::decode_operand(c[idx + e], p.c_format, p.model.subnormal_inputs);
    codes[e] = p.narrow_choices == 0
                   ? model::narrow::element(Sm90Choices::from(p.model), int(stored), one, c_value, p.f16_d)
                   : model::narrow::element(Sm90FaddChoices::from(p.model), int(stored), one, c_value, p.f16_d);
  }
}

// D[idx] by the narrow model (judged_narrow_elements for one element).
template <bool kFp8Blocks, bool kF16Words = false, bool kPlanes = kFp8Blocks, class D>
MMASP_PORTABLE uint32_t judged_narrow_with(const PairTablesOf<D>& p, const uint64_t* a_narrow, const uint64_t* b_narrow,
                                           const uint32_t* c, uint32_t idx) {
  uint32_t code = 0;
  judged_narrow_elements<kFp8Blocks, 1, kF16Words, kPlanes>(p, a_narrow, b_narrow, c, idx, &code);
  return code;
}

// Whether every lane's D elements come in pairs q, q + 1 (q even) of adjacent columns of one row, the first in an even
// column (PairTables::narrow_pairs): then element q's index is even, and q + 1's is the next, in the same row.
template <class D>
MMASP_PORTABLE bool narrow_pairs_fit(const PairTablesOf<D>& p) {
  const uint32_t per_lane = p.per_lane[operand_d];
  if (p.judge != Judge::narrow_model || per_lane % 2 != 0 || p.cases.n % 2 != 0) return false;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t* cells = p.layouts + p.layout[operand_d] + lane;
    for (uint32_t q = 0; q < per_lane; q += 2) {
      const uint32_t first = cells[layout_cell(q, 0)], second = cells[layout_cell(q + 1, 0)];
      if (first % 2 != 0 || second != first + 1) return false;
    }
  }
  return true;
}

// judged_narrow_with as the kernels choose it: the compile-time walk for a pair with narrow_fp8_blocks, from the f32
// words decode_narrow<true> writes; else the general walk, from decode_narrow<false>'s (narrow_words_are_f32(p) says
// which the pair's judge reads).
template <class D>
MMASP_PORTABLE bool narrow_words_are_f32(const PairTablesOf<D>& p) { return p.narrow_fp8_blocks; }
template <class D>
MMASP_PORTABLE uint32_t judged_narrow(const PairTablesOf<D>& p, const uint64_t* a_narrow, const uint64_t* b_narrow,
                                      const uint32_t* c, uint32_t idx) {
  return p.narrow_fp8_blocks ? judged_narrow_with<true>(p, a_narrow, b_narrow, c, idx)
                             : judged_narrow_with<false>(p, a_narrow, b_narrow, c, idx);
}

// A fragment's four registers, passed and changed by value: a register array whose address is taken, or that is
// indexed at run time, lives in local memory on a GPU.
struct Registers {
  uint32_t r[4];
};

// pack_operand for a container width known at compile time, where a lane's elements fill whole words: each word's
// elements gathered by an unrolled loop with constant shifts. `index` is the lane's first cell of the operand's
// layout (layout_cell). The same registers (Resident tests compare every pair's
// packing with fragments.h's).
// kUnrolled: the four registers each gathered under a condition (uniform across the warp), in place of a loop that
// pushes each finished word in at r[3] and then pads with zeros; only in the kernels where that measured faster
// (resident_kernel.cuh, kUnrolledPacking).
// Where a lane starts gathering each register's elements (pack_whole_words_turned's turn), for the fragments of every sm_90
// m16n8 shape, whose lane is 4 * group + thread-in-group: a row-major A gives the lanes of one group one row, the
// threads of a group adjacent elements, and its rows lie a multiple of 32 words apart, so lanes of one thread in
// different groups read one bank at once (8 ways for fp8 k64's A); B, column by column, gives a group one column and
// the threads of a group rows of one bank (4 ways). Turning by group + thread makes that 2 ways for A and none for B.
MMASP_PORTABLE uint32_t bank_spreading_turn(uint32_t lane) { return lane + (lane >> 2); }
template <uint32_t kBits, bool kUnrolled = false>
MMASP_PORTABLE Registers pack_whole_words(const uint32_t* index, uint32_t per_lane, const uint32_t* matrix) {
  constexpr uint32_t per_word = 32 / kBits;
  Registers x = {};
  if constexpr (kUnrolled) {
MMASP_UNROLL
    for (uint32_t w = 0; w < 4; ++w) {
      uint32_t word = 0;
      if (w * per_word < per_lane) {
MMASP_UNROLL
        for (uint32_t k = 0; k < per_word; ++k) word |= matrix[index[layout_cell(w * per_word + k, 0)]] << (k * kBits);
      }
      x.r[w] = word;
    }
    return x;
  }
  uint32_t pushed = 0;
MMASP_NO_UNROLL
  for (uint32_t e = 0; e < per_lane; e += per_word) {
    uint32_t word = 0;
MMASP_UNROLL
    for (uint32_t k = 0; k < per_word; ++k) word |= matrix[index[layout_cell(e + k, 0)]] << (k * kBits);
    x = {{x.r[1], x.r[2], x.r[3], word}};
    ++pushed;
  }
  while (pushed < 4) {
    x = {{x.r[1], x.r[2], x.r[3], 0u}};
    ++pushed;
  }
  return x;
}
// pack_whole_words' loop with each lane starting a word's gathering at element `turn` of it and going round
// (bank_spreading_turn), so that lanes which would read one bank at once read different ones; the same registers. A
// function of its own, so that the kernels that do not turn keep their code.
template <uint32_t kBits>
MMASP_PORTABLE Registers pack_whole_words_turned(const uint32_t* index, uint32_t per_lane, const uint32_t* matrix,
                                                 uint32_t turn) {
  constexpr uint32_t per_word = 32 / kBits;
  Registers x = {};
  uint32_t pushed = 0;
MMASP_NO_UNROLL
  for (uint32_t e = 0; e < per_lane; e += per_word) {
    uint32_t word = 0;
MMASP_UNROLL
    for (uint32_t k = 0; k < per_word; ++k) {
      const uint32_t at = (k + turn) & (per_word - 1);
      word |= matrix[index[layout_cell(e + at, 0)]] << (at * kBits);
    }
    x = {{x.r[1], x.r[2], x.r[3], word}};
    ++pushed;
  }
  while (pushed < 4) {
    x = {{x.r[1], x.r[2], x.r[3], 0u}};
    ++pushed;
  }
  return x;
}

// Whether lane `lane`'s elements of an 8-bit operand come four to a register from four consecutive codes, the first
// 16-byte aligned (its cell a multiple of 4), so that pack_contiguous_bytes may load each register's codes at once:
// in every sm_90 m16n8k64 fp8 A fragment (a thread's four adjacent columns of a row), not in a B fragment.
template <class D>
MMASP_PORTABLE bool contiguous_bytes_of_lane(const PairTablesOf<D>& p, int operand, uint32_t lane, const uint32_t* layouts) {
  const uint32_t per_lane = lane_elements(p, operand);
  if (p.container_bits[operand] != 8 || per_lane % 4 != 0 || per_lane > 16) return false;
  const uint32_t* index = layouts + p.layout[operand] + lane;
  for (uint32_t e = 0; e < per_lane; e += 4) {
    const uint32_t first = index[layout_cell(e, 0)];
    if (first % 4 != 0) return false;
    for (uint32_t k = 1; k < 4; ++k)
      if (index[layout_cell(e + k, 0)] != first + k) return false;
  }
  return true;
}
template <class D>
MMASP_PORTABLE bool contiguous_bytes(const PairTablesOf<D>& p, int operand) {
  for (uint32_t lane = 0; lane < 32; ++lane)
    if (!contiguous_bytes_of_lane(p, operand, lane, p.layouts)) return false;
  return true;
}
// Whether the fp8 kernel packs a pair's A by pack_contiguous_bytes: its A has contiguous_bytes, and each warp's case,
// A's codes first, starts on 16 bytes (fp8_shared_words a multiple of 4 words; the dynamic shared memory is aligned
// so). resident_pair_tables gives a pair narrow_fp8_blocks only where it holds; the kernel traps on any other, each
// thread testing its own lane (fp8_a_bytes_contiguous_of_lane).
template <class D>
MMASP_PORTABLE bool fp8_a_bytes_contiguous_of_lane(const PairTablesOf<D>& p, uint32_t lane, const uint32_t* layouts) {
  return contiguous_bytes_of_lane(p, operand_a, lane, layouts) && fp8_shared_words(p.cases) % 4 == 0;
}
template <class D>
MMASP_PORTABLE bool fp8_a_bytes_contiguous(const PairTablesOf<D>& p) {
  for (uint32_t lane = 0; lane < 32; ++lane)
    if (!fp8_a_bytes_contiguous_of_lane(p, lane, p.layouts)) return false;
  return true;
}
// pack_operand for an operand with contiguous_bytes, its matrix 16-byte aligned: each register's four codes by one
// 16-byte load on the GPU, where pack_whole_words takes four loads, and of eight rows that lie 128 bytes apart (fp8
// k64's A) each met its bank eight times. The same registers (Resident tests compare).
template <class D>
MMASP_PORTABLE Registers pack_contiguous_bytes(const PairTablesOf<D>& p, int operand, const uint32_t* matrix,
                                               uint32_t lane, const uint32_t* layouts) {
  const uint32_t per_lane = lane_elements(p, operand);
  const uint32_t* index = layouts + p.layout[operand] + lane;
  Registers x = {};
MMASP_UNROLL
  for (uint32_t w = 0; w < 4; ++w) {
    if (4 * w >= per_lane) continue;
    const uint32_t* codes = matrix + index[layout_cell(4 * w, 0)];
#if defined(__CUDA_ARCH__)
    const uint4 four = *reinterpret_cast<const uint4*>(codes);
    x.r[w] = four.x | four.y << 8 | four.z << 16 | four.w << 24;
#else
    x.r[w] = codes[0] | codes[1] << 8 | codes[2] << 16 | codes[3] << 24;
#endif
  }
  return x;
}

// A lane's registers for an operand, from its matrix of codes (row-major): element e in register e / (32 / bits) at
// bit bits * (e % (32 / bits)), as fragments.h packs them. Where a lane's elements fill whole words (every sm_90
// operand), pack_whole_words (kUnrolled: its unrolled form); else one loop, not unrolled. No register is indexed at
// run time: a loop's finished word enters at r[3] as the others move down, an unrolled one goes to its own r[w].
// kUnrolled: per_lane by lane_elements, so that a kernel of one shape gathers only the words there are (each unrolled
// word is under a condition on per_lane: with a count known only at run time all four words' loads are issued,
// predicated).
// kBits: the operand's container bits where the kernel knows them (the f16 kernels' A and B, which f16_words_fit makes
// 16 bits: kF16OperandBits), so that no switch on the tables' bits runs a case; 0: the tables'.
// layouts: where the pair's cells are read, p.layouts or a copy at the same offsets (the fp8 kernel's in shared memory,
// kFp8SharedCellWords); the overload without it reads p.layouts.
// kSpreadBanks: each lane's loads turned (pack_whole_words_turned), in the fp8 kernel; with the loop and the tables'
// bits only.
template <bool kUnrolled = false, uint32_t kBits = 0, bool kSpreadBanks = false, class D>
MMASP_PORTABLE Registers pack_operand(const PairTablesOf<D>& p, int operand, const uint32_t* matrix, uint32_t lane,
                                      const uint32_t* layouts) {
  const uint32_t bits = kBits ? kBits : p.container_bits[operand];
  const uint32_t per_lane = kUnrolled ? lane_elements(p, operand) : p.per_lane[operand];
  const uint32_t* index = layouts + p.layout[operand] + lane;
  static_assert(!(kSpreadBanks && (kUnrolled || kBits != 0)), "turned: the loop, by the tables' bits");
  if constexpr (kBits != 0) {
    static_assert(kBits == 4 || kBits == 8 || kBits == 16 || kBits == 32, "a container of whole words");
    return pack_whole_words<kBits, kUnrolled>(index, per_lane, matrix);
  }
  if constexpr (kSpreadBanks) {
    if ((per_lane * bits) % 32 == 0) {
      const uint32_t turn = bank_spreading_turn(lane);
      switch (bits) {
        case 4: return pack_whole_words_turned<4>(index, per_lane, matrix, turn);
        case 8: return pack_whole_words_turned<8>(index, per_lane, matrix, turn);
        case 16: return pack_whole_words_turned<16>(index, per_lane, matrix, turn);
        case 32: return pack_whole_words<32>(index, per_lane, matrix);   // one element a word: nothing to turn
        default: break;
      }
    }
  }
  if ((per_lane * bits) % 32 == 0) {   // every sm_90 operand: whole words (bits divides 32; no division by bits)
    switch (bits) {
      case 4: return pack_whole_words<4, kUnrolled>(index, per_lane, matrix);
      case 8: return pack_whole_words<8, kUnrolled>(index, per_lane, matrix);
      case 16: return pack_whole_words<16, kUnrolled>(index, per_lane, matrix);
      case 32: return pack_whole_words<32, kUnrolled>(index, per_lane, matrix);
      default: break;
    }
  }
  Registers x = {};
  uint32_t word = 0, filled = 0, pushed = 0;
  const auto push = [&]() {
    x = {{x.r[1], x.r[2], x.r[3], word}};
    word = filled = 0;
    ++pushed;
  };
MMASP_NO_UNROLL
  for (uint32_t e = 0; e < per_lane; ++e) {
    word |= matrix[index[layout_cell(e, 0)]] << filled;
    filled += bits;
    if (filled == 32) push();
  }
  if (filled) push();
  while (pushed < 4) push();
  return x;
}
template <bool kUnrolled = false, uint32_t kBits = 0, class D>
MMASP_PORTABLE Registers pack_operand(const PairTablesOf<D>& p, int operand, const uint32_t* matrix, uint32_t lane) {
  return pack_operand<kUnrolled, kBits>(p, operand, matrix, lane, p.layouts);
}

// Element `element` (0 .. per_lane - 1) of a lane's registers, `bits` wide, and the registers with it replaced. The
// register is chosen by selects, never by an index.
MMASP_PORTABLE uint32_t register_of(const Registers& x, uint32_t i) {
  const uint32_t low = i & 1 ? x.r[1] : x.r[0], high = i & 1 ? x.r[3] : x.r[2];
  return i & 2 ? high : low;
}
// `bits` is 4, 8, 16 or 32 (container_bits), so elements per register are found by a shift.
MMASP_PORTABLE uint32_t per_register_log2(uint32_t bits) { return bits == 32 ? 0 : bits == 16 ? 1 : bits == 8 ? 2 : 3; }
MMASP_PORTABLE uint32_t element_of(const Registers& x, uint32_t element, uint32_t bits) {
  const uint32_t log2 = per_register_log2(bits);
  const uint32_t word = register_of(x, element >> log2);
  return bits == 32 ? word : (word >> (bits * (element & ((1u << log2) - 1)))) & ((1u << bits) - 1);
}
MMASP_PORTABLE Registers with_element(Registers x, uint32_t element, uint32_t bits, uint32_t value) {
  const uint32_t log2 = per_register_log2(bits), which = element >> log2;
  const uint32_t shift = bits == 32 ? 0 : bits * (element & ((1u << log2) - 1));
  const uint32_t mask = bits == 32 ? ~0u : ((1u << bits) - 1) << shift;
  const auto changed = [&](uint32_t word) { return (word & ~mask) | ((value << shift) & mask); };
  return {{which == 0 ? changed(x.r[0]) : x.r[0], which == 1 ? changed(x.r[1]) : x.r[1],
           which == 2 ? changed(x.r[2]) : x.r[2], which == 3 ? changed(x.r[3]) : x.r[3]}};
}

}  // namespace mmasp::resident
