// The GPU-resident kernels (resident/resident.h): each warp loops over cases — its 32 lanes draw one case's elements
// into shared memory (generators/portable_case.h, the bulk generator's streams), pack their registers from the
// layout tables, run mma.sp, and judge every element of D with the bit-exact model (oracle/model_arithmetic.h) or
// exact integer arithmetic — the very code the host runs (resident_abi.h). Only counters and the indices of
// deviating cases leave the GPU. Compiled by nvcc at build time with every form's instruction (resident_source.cpp).
//
// Two kernels from one body: the lean one (kLean) judges only what needs no general model — the narrow model and
// integer forms — so it holds no call to the general arithmetic and fits twice the warps per multiprocessor; the
// general one judges everything, including a test-only numerics fault's changed parameters. resident.cpp picks.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_fp16.h>

#include "resident/resident_abi.h"

namespace mmasp::resident {

// Written by resident_source.cpp: one instruction, and the bare-issue loop, for every form x selector. The lean kernel
// inlines its one call of the instruction (a call makes the caller save and restore its live registers around it);
// the general kernel calls it, twice where a register fault needs the clean result too.
// form_mma_inline's switch holds the instructions its Admitted (resident_abi.h's AdmittedForms) admits.
template <class Admitted>
__device__ __forceinline__ Registers form_mma_inline(uint32_t id, Registers a, Registers b, Registers c, uint32_t e);
__device__ __noinline__ Registers form_mma(uint32_t id, Registers a, Registers b, Registers c, uint32_t e);
__device__ __noinline__ uint32_t form_issue(uint32_t id, Registers a, Registers b, Registers c, uint32_t e, uint64_t rounds);

// Draws case `index` into a warp's shared memory (every lane its share of each run, stream output by stream output,
// then the cancellation profile's C); returns this lane's metadata noise. With `use_values`, `values` is room for
// scratch_values(t, sizeof(Value)) values the warp may use while it draws (the decoded operands' place). With `dense` (a lean
// kernel's integer pair with PairTables::integer_dense), `dense_rows` is room for spread_integer_dense's bytes, from
// which the cancellation profile's C is found. Never a null pointer: nvcc has hoisted a load through one that only a
// condition guarded. kDenseOverCodes (the kernel for PairTables::dense_over_codes pairs) leaves the cancellation
// profile's C to finish_case, which finds it from the dense bytes once the registers are packed.
// Value: double, or float where a narrow_over_codes kernel has only room for floats (every operand value of a narrow
// pair is one exactly: narrow_over_codes_fits; the products are still summed in double).
// kFp8Values (the fp8 kernel): the cancellation profile's C from the kernel's value copy, `fp8_values`
// (fp8_cancelled_c_row), instead of `values`.
template <bool kDenseOverCodes = false, class Value = double, bool kFp8Values = false, class D>
__device__ __forceinline__ uint32_t draw_shared_case(const LaunchOf<D>& launch, const PairTablesOf<D>& p,
                                                     uint64_t index, uint32_t lane, uint32_t* a, uint32_t* b,
                                                     uint32_t* c, uint32_t* nibbles, bool use_values, Value* values,
                                                     bool dense, uint32_t* dense_rows, const uint32_t* fp8_values) {
  namespace portable = gen::portable;
  const auto& t = p.cases;
  const uint32_t stored = t.k / 2, chunks = 1u << t.chunks_log2;
  const uint64_t seed = portable::splitmix(launch.stream_base + index * portable::kGamma);
  const uint32_t profile = portable::profile_of(t, seed);
  // How the lanes share a run (portable::Dealing says what each way measured): a kernel of one shape knows its counts
  // at compile time, so consecutive draws cost the others nothing.
  constexpr portable::Dealing kDealing = kDenseOverCodes                                   ? portable::Dealing::slot_zero_apart
                                         : !std::is_same_v<D, portable::CaseDims> ? portable::Dealing::consecutive_draws
                                                                                  : portable::Dealing::outputs;
  portable::draw_codes<kDealing>(t, seed, profile, portable::run_nibbles, t.nibble_count, lane, 32, nibbles);
  portable::draw_codes<kDealing>(t, seed, profile, portable::run_a, t.a_count, lane, 32, a);
  portable::draw_codes<kDealing>(t, seed, profile, portable::run_b, t.b_count, lane, 32, b);
  portable::draw_codes<kDealing>(t, seed, profile, portable::run_c, t.c_count, lane, 32, c);
  const uint32_t noise = portable::noise_of_lane(t, seed, profile, lane);
  __syncwarp();
  if (profile == t.cancellation_profile && !kDenseOverCodes) {
    const auto nibble = [&](uint32_t i, uint32_t chunk) { return nibbles[i * chunks + chunk]; };
    // Each lane rewrites only its own elements of C, and reads only A, B and the nibbles. Every A and B element
    // meets N (or about N) elements of C: with room, the warp turns each code into its value once.
    if constexpr (kFp8Values) {
      // fp8_cancelled_c_row's 16-byte loads of B codes: B's rows start on 16 bytes (after A's codes, from a warp's
      // start, which fp8_a_bytes_contiguous puts on 16 bytes) and a lane's four columns too.
      static_assert(D::c_count == 32 * 4 && D::n % 4 == 0 && D::a_count % 4 == 0,
                    "a lane's four elements adjacent in one row, B's rows on 16 bytes");
      fp8_cancelled_c_row(t, a, b, nibbles, fp8_values, lane, c);
    } else if (use_values) {
      // A's rows padded (scratch_a_stride), so that the rows the lanes read at once fall in different banks.
      const uint32_t a_stride = scratch_a_stride(t, uint32_t(sizeof(Value)));
      Value* a_values = values;
      Value* b_values = values + t.m * a_stride;
      for (uint32_t e = lane; e < t.a_count; e += 32)
        a_values[(e >> t.stored_log2) * a_stride + (e & (stored - 1))] =
            Value(portable::operand_value(t, t.a_kind, t.a_values, a[e]));
      for (uint32_t e = lane; e < t.b_count; e += 32) b_values[e] = Value(portable::operand_value(t, t.b_kind, t.b_values, b[e]));
      __syncwarp();
      const auto a_value = [&](uint32_t i, uint32_t s) { return double(a_values[i * a_stride + s]); };
      constexpr uint32_t kRow = 4;
      if (t.c_count == 32 * kRow && (t.n & (kRow - 1)) == 0) {
        // Every m16n8 form: a lane's four elements adjacent in one row, each stored element's column and A value found
        // once for the four (portable::cancelled_c_row_of_values; the same codes as element by element).
        const auto b_values_of = [&](uint32_t row, uint32_t j0, double* out) {
          for (uint32_t e = 0; e < kRow; ++e) out[e] = double(b_values[row * t.n + j0 + e]);
        };
        const uint32_t first = lane * kRow;
        portable::cancelled_c_row_of_values<kRow>(t, first >> t.n_log2, first & (t.n - 1), c + first, a_value,
                                                  b_values_of, nibble);
      } else {
        const auto b_value = [&](uint32_t row, uint32_t j) { return double(b_values[row * t.n + j]); };
        for (uint32_t e = lane; e < t.c_count; e += 32)
          c[e] = portable::cancelled_c_of_values(t, e >> t.n_log2, e & (t.n - 1), c[e], a_value, b_value, nibble);
      }
    } else if (dense) {
      // The dense integer judge's bytes hold every element's products, summed exactly in 32 bits: minus that sum is
      // cancelled_integer_c's C (Resident tests compare them), at the cost of one spread and one dot product per
      // element instead of a product loop.
      spread_integer_dense(p, a, b, nibbles, lane, 32, dense_rows);
      __syncwarp();
      for (uint32_t e = lane; e < t.c_count; e += 32) c[e] = 0u - dense_sum(p, dense_rows, e);
    } else {
      const auto a_of = [&](uint32_t i, uint32_t s) { return a[i * stored + s]; };
      const auto b_of = [&](uint32_t row, uint32_t j) { return b[row * t.n + j]; };
      for (uint32_t e = lane; e < t.c_count; e += 32)
        c[e] = portable::cancelled_c(t, e >> t.n_log2, e & (t.n - 1), c[e], a_of, b_of, nibble);
    }
    __syncwarp();
  }
  return noise;
}

__device__ __forceinline__ void swap_first_two(Registers& registers) {
  const uint32_t first = registers.r[0];
  registers.r[0] = registers.r[1];
  registers.r[1] = first;
}

// What a kernel is compiled with: each field turns on one special path of resident_cases, and a kernel that has it
// judges only the pairs resident.cpp sends it (resident_kernel_for). resident_source.cpp names each kernel's variant.
struct KernelVariant {
  // The lean kernels judge only pairs whose float forms the narrow model judges, and integer pairs; the general kernel
  // (lean false) judges every pair.
  bool lean = false;
  // The fp8 kernel: pairs with narrow_fp8_blocks, and nothing else.
  bool fp8_blocks = false;
  // The dense kernels: integer pairs with PairTables::dense_over_codes, and nothing else. A's and B's registers are
  // packed before the dense bytes are spread over their codes (pack_and_spread). Kernels of their own so that the
  // others' code, and ptxas's allocation of it, stay as they are: compiled into the lean kernels, this path slows the
  // float forms.
  bool dense_over_codes = false;
  // The narrow-over-codes kernels: narrow pairs with PairTables::narrow_over_codes, and nothing else. B's narrow words
  // go over the case's codes once the registers are packed (decode_narrow_over_codes), so that a warp needs
  // narrow_over_codes_shared_words; the fp8 kernel is one.
  bool narrow_over_codes = false;
  // The f16 kernels: pairs with f16_words_fit, and nothing else. Their A and B become f32 words (decode_f16_words, or
  // decode_f16_words_over_codes with narrow_over_codes) whose products the one-block walk sums by f32 multiplication.
  bool f16_words = false;
};
inline constexpr KernelVariant kGeneralVariant{};
inline constexpr KernelVariant kLeanVariant{.lean = true};
inline constexpr KernelVariant kDenseVariant{.lean = true, .dense_over_codes = true};
inline constexpr KernelVariant kFp8Variant{.lean = true, .fp8_blocks = true, .narrow_over_codes = true};
inline constexpr KernelVariant kNarrowVariant{.lean = true, .narrow_over_codes = true};
inline constexpr KernelVariant kNarrowF16Variant{.lean = true, .narrow_over_codes = true, .f16_words = true};
inline constexpr KernelVariant kF16Variant{.lean = true, .f16_words = true};

template <KernelVariant kVariant, class D = gen::portable::CaseDims>
__device__ __forceinline__ void resident_cases(const LaunchOf<D>& launch) {
  constexpr bool kLean = kVariant.lean, kFp8Blocks = kVariant.fp8_blocks, kDenseOverCodes = kVariant.dense_over_codes,
                 kNarrowOverCodes = kVariant.narrow_over_codes, kF16Words = kVariant.f16_words;
  static_assert(kLean || !kFp8Blocks, "the fp8 kernel is a lean one");
  static_assert(kLean || !kF16Words, "the f16 kernels are lean ones");
  static_assert(!(kF16Words && (kFp8Blocks || kDenseOverCodes)), "f16 words in kernels of their own");
  static_assert(kLean || !kDenseOverCodes, "the dense kernel is a lean one");
  static_assert(kLean || !kNarrowOverCodes, "the narrow-over-codes kernels are lean ones");
  extern __shared__ __align__(16) uint32_t shared[];   // 16: the dense integer judge's 128-bit loads
  const PairTablesOf<D>& p = launch.pair;   // parameter space (Launch::pair says why)
  const gen::portable::CaseTablesOf<D>& t = p.cases;
  // pack_whole_words unrolled in the kernels of the m16n8k16 float forms and of the f16 pairs, where it is faster than
  // the loop; the kernels that take every shape keep the loop, whose code size suits the 8-bit integer forms. Where
  // such a kernel runs one shape, pack_operand knows each operand's elements per lane at compile time (lane_elements),
  // and gathers only the words there are; not in the fp8 kernel, whose packing loop is slower with the constants.
  constexpr bool kOneShape = !std::is_same_v<D, gen::portable::CaseDims>;
  constexpr bool kUnrolledPacking = kF16Words || (kOneShape && !kFp8Blocks && !kDenseOverCodes);
  // The packing's loads turned so that fewer lanes meet in a bank (bank_spreading_turn): in the fp8 kernel (its B and
  // C; its A by pack_contiguous_bytes), whose shared-memory traffic is the heaviest.
  constexpr bool kSpreadPackingBanks = kFp8Blocks;
  if constexpr (kOneShape) {
    // A kernel of one shape (FixedCaseDims): the host sends it only pairs of that shape (resident.cpp); one of another
    // shape would be judged by the wrong constants, so the launch fails instead, as it does where the packing's
    // elements per lane would not be the tables' (never: lane_counts_are_shares holds for every fragment).
    if (!t.holds_its_dims()) __trap();
    if constexpr (kUnrolledPacking) {
      if (!lane_counts_are_shares(p)) __trap();
    }
  }
  if constexpr (kF16Words) {
    // Likewise a pair whose operands are not f16, or whose judge f32 words do not fit: refused.
    if (!f16_words_fit(p)) __trap();
  }
  // The fp8 kernel: the pair's cells, its operands' f32 tables and its value copy (fp8_value_copy_word) copied to
  // static shared memory and read there (kFp8SharedCellWords and kFp8SharedValueWords say why); a pair they do not
  // hold is refused (resident_pair_tables never sends one).
  const uint32_t *fp8_cells_copy = nullptr, *fp8_a_table = nullptr, *fp8_b_table = nullptr;
  const uint32_t* fp8_values = shared;   // read only in the fp8 kernel (draw_shared_case)
  if constexpr (kFp8Blocks) {
    __shared__ __align__(16) uint32_t fp8_cells[kFp8SharedCellWords];
    __shared__ __align__(16) uint32_t fp8_tables[2 * kFp8SharedTableWords];
    __shared__ uint32_t fp8_value_copy[kFp8ValueCopyWords];
    // Each thread checks its own lane's A cells (fp8_a_bytes_contiguous, lane by lane).
    if (!fp8_shared_tables_fit(p) || !fp8_a_bytes_contiguous_of_lane(p, threadIdx.x & 31, p.layouts)) __trap();
    const NarrowTable a_table = narrow_f32_table(p, operand_a), b_table = narrow_f32_table(p, operand_b);
    const uint32_t cell_count = cell_words(p), a_words = fp8_table_words(a_table), b_words = fp8_table_words(b_table);
    for (uint32_t x = threadIdx.x; x < cell_count; x += blockDim.x) fp8_cells[x] = p.layouts[x];
    for (uint32_t x = threadIdx.x; x < a_words; x += blockDim.x) fp8_tables[x] = p.layouts[a_table.offset + x];
    for (uint32_t x = threadIdx.x; x < b_words; x += blockDim.x)
      fp8_tables[kFp8SharedTableWords + x] = p.layouts[b_table.offset + x];
    for (uint32_t x = threadIdx.x; x < kFp8ValueCopyWords; x += blockDim.x)
      fp8_value_copy[x] = fp8_value_copy_word(p, x);
    __syncthreads();
    fp8_cells_copy = fp8_cells;
    fp8_values = fp8_value_copy;
    fp8_a_table = fp8_tables;
    fp8_b_table = fp8_tables + kFp8SharedTableWords;
  }
  // Where the cells are read: the fp8 kernel's copy, else p.layouts where it is used, as before the copy.
  const auto layouts = [&]() MMASP_INLINE_LAMBDA {
    if constexpr (kFp8Blocks) return fp8_cells_copy;
    else return p.layouts;
  };
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const uint32_t words = case_words(t), decoded_at = words + (words & 1);
  const Judge judge = p.judge;
  // Per warp: the case (A, B, C, nibbles), then (8-byte aligned) its A and B decoded once for the model.
  uint32_t* a = shared + warp * (kFp8Blocks         ? fp8_shared_words(t)
                                 : kNarrowOverCodes ? narrow_over_codes_shared_words(t)
                                                    : shared_words(p));
  uint32_t* b = a + t.a_count;
  uint32_t* c = b + t.b_count;
  uint32_t* nibbles = c + t.c_count;
  uint64_t* a_decoded = reinterpret_cast<uint64_t*>(a + decoded_at);   // float_model: decode_operands' layout
  uint64_t* b_decoded = a_decoded + t.a_count;
  uint32_t* columns = reinterpret_cast<uint32_t*>(b_decoded + t.b_count);
  // narrow_model: decode_narrow's layout; the fp8 kernel's A words over the nibbles (fp8_a_words_at)
  uint64_t* a_narrow = kFp8Blocks ? reinterpret_cast<uint64_t*>(a + fp8_a_words_at(t)) : a_decoded;
  uint64_t* b_narrow = kNarrowOverCodes ? reinterpret_cast<uint64_t*>(a) : a_narrow + narrow_a_slots(t);
  // Two elements of a row of D judged together (judged_narrow_elements), each A word loaded once for both and their B
  // words by one 16-byte load (the fp8 and narrow f16 kernels: the halves a pass reads, by one 8-byte load): where
  // every lane's D elements come in such pairs (PairTables::narrow_pairs) and this warp's B words lie on 16 bytes.
  // Only in the fp8 and narrow-over-codes kernels: in the lean kernels (64 registers) the second element's state
  // spills, and even the integer forms, which never take the pairs, slow down with it compiled in.
  constexpr bool kPairsCompiled = kFp8Blocks || kNarrowOverCodes;
  // B's f32 words in two planes of halves (decode_fp8_words_over_codes, decode_f16_words_over_codes): the kernels
  // that judge f32 words two elements at a time.
  constexpr bool kPlanes = kFp8Blocks || (kF16Words && kNarrowOverCodes);
  const bool judge_pairs = kPairsCompiled && p.narrow_pairs && (reinterpret_cast<uintptr_t>(b_narrow) & 15u) == 0;
  // While a case is drawn, the decoded operands' place is free (float forms): room for A's and B's values.
  const bool use_scratch = judge != Judge::integer;
  // (The fp8 kernel's cancellation reads its value copy instead: draw_shared_case's kFp8Values.)
  using ScratchValue = std::conditional_t<kNarrowOverCodes, float, double>;
  ScratchValue* scratch = reinterpret_cast<ScratchValue*>(a_decoded);
  // Integer pairs the lean kernel judges from dense bytes find the cancellation profile's C from them too.
  bool dense_cancellation = false;
  if constexpr (kLean && !kDenseOverCodes && !kNarrowOverCodes) dense_cancellation = judge == Judge::integer && p.integer_dense;
  uint32_t* const dense_rows = a + dense_rows_at(t, kDenseOverCodes);
  const uint64_t warp_index = uint64_t(blockIdx.x) * warps + warp, all_warps = uint64_t(gridDim.x) * warps;
  const uint32_t d_bits = p.container_bits[operand_d], d_per_lane = p.per_lane[operand_d];
  // D's layout, read as d_cell(q): this lane's element q of D (layout_cell).
  const uint32_t* d_cells = layouts() + p.layout[operand_d] + lane;
  const auto d_cell = [&](uint32_t q) { return d_cells[layout_cell(q, 0)]; };
  const uint32_t d_registers = (d_per_lane * d_bits + 31) / 32;
  const uint32_t instruction = p.instruction;
  // Registers are only ever indexed by unrolled loops or selects (resident_abi.h): an index known only at run time
  // would put them in local memory.
  Registers ra = {}, rb = {}, rc = {}, rd = {};
  const auto pack = [&](uint32_t noise) MMASP_INLINE_LAMBDA {
    // The f16 kernels' operands are packed without the switch on the tables' bits: A and B are 16-bit, C 16 or 32
    // (f16_words_fit, checked above).
    constexpr uint32_t kOperandBits = kF16Words ? kF16OperandBits : 0u;
    if constexpr (kFp8Blocks) ra = pack_contiguous_bytes(p, operand_a, a, lane, layouts());   // fp8_a_bytes_contiguous
    else ra = pack_operand<kUnrolledPacking, kOperandBits, kSpreadPackingBanks>(p, operand_a, a, lane, layouts());
    rb = pack_operand<kUnrolledPacking, kOperandBits, kSpreadPackingBanks>(p, operand_b, b, lane, layouts());
    if constexpr (kF16Words)   // C: f16 or f32 (f16_words_fit)
      rc = p.container_bits[operand_c] == 32 ? pack_operand<kUnrolledPacking, 32>(p, operand_c, c, lane, layouts())
                                             : pack_operand<kUnrolledPacking, kF16OperandBits>(p, operand_c, c, lane, layouts());
    else
      rc = pack_operand<kUnrolledPacking, 0, kSpreadPackingBanks>(p, operand_c, c, lane, layouts());
    return metadata_register(p, nibbles, lane, noise, layouts());
  };

  // Counts the case when a test-only fault changed any register of its D (rd against the clean result), so that a test
  // can ask that every changed case be caught.
  const auto count_fault_change = [&](const Registers& clean) {
    bool changed = false;
    for (uint32_t r = 0; r < 4; ++r) changed |= r < d_registers && rd.r[r] != clean.r[r];
    if (__any_sync(0xFFFFFFFFu, changed) && lane == 0) atomicAdd(&launch.counters->fault_changed, 1ull);
  };

  if (launch.mode == Mode::issue) {
    const uint32_t e = pack(draw_shared_case<kDenseOverCodes, ScratchValue, kFp8Blocks>(launch, p, launch.first, lane, a, b, c, nibbles,
                                                              use_scratch, scratch, dense_cancellation, dense_rows, fp8_values));
    const uint32_t fold = form_issue(instruction, ra, rb, rc, e, (launch.count + 3) / 4);
    atomicAdd(&launch.counters->sink, (unsigned long long)fold);
    if (lane == 0) atomicAdd(&launch.counters->generated, 1ull);
    return;
  }

  const Fault& fault = launch.fault;
  const Fault::Kind fault_kind = fault.kind;
  unsigned long long cases = 0;
  uint32_t sink = 0;
  // kDenseOverCodes: A's and B's codes are spent once the dense bytes are spread; a dumped case's codes go out before.
  const uint32_t dumped_from = kDenseOverCodes ? t.a_count + t.b_count : 0u;
  // kDenseOverCodes: A and B packed from their codes, the codes spread into the dense bytes over them, the
  // cancellation profile's C from those bytes (minus each element's products' sum, exact in 32 bits: cancelled_integer_c's
  // C, Resident tests compare them), then C packed. Inlined by force, as finish_case is.
  const auto pack_and_spread = [&](uint64_t w, uint64_t index, uint32_t noise) __attribute__((always_inline)) {
    ra = pack_operand(p, operand_a, a, lane);
    rb = pack_operand(p, operand_b, b, lane);
    const uint32_t e = metadata_register(p, nibbles, lane, noise);
    if (launch.mode == Mode::dump) {
      uint32_t* out = launch.dump + w * dump_words(p);
      for (uint32_t x = lane; x < dumped_from; x += 32) out[x] = a[x];
    }
    __syncwarp();   // every lane has read its codes
    spread_integer_dense_over_codes(p, a, b, nibbles, lane, 32, dense_rows);
    __syncwarp();
    const uint64_t seed = gen::portable::splitmix(launch.stream_base + index * gen::portable::kGamma);
    if (gen::portable::profile_of(t, seed) == t.cancellation_profile) {
      for (uint32_t x = lane; x < t.c_count; x += 32) c[x] = 0u - dense_sum(p, dense_rows, x);
      __syncwarp();
    }
    rc = pack_operand(p, operand_c, c, lane);
    return e;
  };

  // One case from its drawn inputs: pack, run, judge. `return` ends the case. In the kDenseOverCodes kernel, with
  // pack_and_spread, nvcc made this a function of its own (a closure in local memory, and a stack frame in every lean
  // kernel), hence inlined by force.
  const auto finish_case = [&](uint64_t w, uint64_t index, bool fresh, uint32_t noise) __attribute__((always_inline)) {
    if (launch.mode == Mode::draw) {
      ++cases;
      return;
    }
    uint32_t e = 0;
    if constexpr (kDenseOverCodes) e = fresh ? pack_and_spread(w, index, noise) : 0u;
    else e = fresh ? pack(noise) : 0u;
    if (!fresh) {
      // Judge mode after the first case: rd stays that case's result.
    } else if constexpr (kLean) {   // resident.cpp sends register faults to the general kernel
      rd = form_mma_inline<AdmittedForms<D, kF16Words>>(instruction, ra, rb, rc, e);
    } else if (fault_kind == Fault::registers) {
      // The clean instruction first, for the count of cases the fault changed; then the faulty one.
      const Registers clean = form_mma(instruction, ra, rb, rc, e);
      Registers fa = ra, fb = rb, fc = rc;
      if (fault.swap_operand == operand_a) swap_first_two(fa);
      if (fault.swap_operand == operand_b) swap_first_two(fb);
      if (fault.swap_operand == operand_c) swap_first_two(fc);
      if (fault.rotate_operand == operand_a) fa.r[0] = (fa.r[0] << 16) | (fa.r[0] >> 16);
      if (fault.rotate_operand == operand_b) fb.r[0] = (fb.r[0] << 16) | (fb.r[0] >> 16);
      rd = form_mma(instruction, fa, fb, fc, e ^ fault.e_xor);
      count_fault_change(clean);
    } else {
      rd = form_mma(instruction, ra, rb, rc, e);
    }
    if (launch.mode == Mode::run) {
      for (uint32_t r = 0; r < 4; ++r) sink ^= r < d_registers ? rd.r[r] : 0u;
      ++cases;
      return;
    }
    if (fault_kind == Fault::output || fault_kind == Fault::numerics) {
      const Registers clean = rd;
      if (fault_kind == Fault::output &&
          (fault.one_in <= 1 || gen::portable::splitmix(index ^ fault.salt) % fault.one_in == 0)) {
        for (uint32_t q = 0; q < d_per_lane; ++q) {
          if (d_cell(q) != fault.element % t.c_count) continue;
          rd = with_element(rd, q, d_bits, fault.set ? fault.set_value : element_of(rd, q, d_bits) ^ fault.xor_mask);
        }
      }
      if constexpr (!kLean) {   // resident.cpp sends a numerics fault to the general kernel
        if (fault_kind == Fault::numerics)
          for (uint32_t q = 0; q < d_per_lane; ++q)
            rd = with_element(rd, q, d_bits, judged(p, fault.changed, a, b, c, nibbles, d_cell(q)));
      }
      count_fault_change(clean);
    }
    if (launch.mode == Mode::dump) {
      uint32_t* out = launch.dump + w * dump_words(p);
      for (uint32_t x = dumped_from + lane; x < words; x += 32) out[x] = a[x];   // A, B, C, the nibbles one after another
      out[words + lane] = noise;
      for (uint32_t r = 0; r < 4; ++r)
        if (r < d_registers) out[words + 32 + lane * d_registers + r] = rd.r[r];
    }
    bool deviates = false;
    if constexpr (kDenseOverCodes) {
      if (judge == Judge::integer && p.integer_dense && p.dense_over_codes) {   // the bytes pack_and_spread wrote
        for (uint32_t q = 0; q < d_per_lane; ++q)
          deviates |= element_of(rd, q, d_bits) != judged_integer_dense(p, dense_rows, c, d_cell(q));
      } else {
        deviates = true;   // never: resident.cpp sends only dense_over_codes pairs to this kernel; if it did not, say so
      }
    } else if (judge == Judge::narrow_model) {
      if constexpr (kNarrowOverCodes) {
        // The codes are spent by it (a dumped case's went out above); judge mode keeps its first case's words.
        if constexpr (kF16Words) {
          if (fresh) decode_f16_words_over_codes(p, a, nibbles, lane, 32, a_narrow);
        } else {
          if constexpr (kFp8Blocks) {
            if (fresh)
              decode_fp8_words_over_codes(p, a, nibbles, lane, 32, a_narrow, fp8_a_table, fp8_b_table,
                                          fp8_values + kFp8ChunkColumnsAt);
          } else {
            if (fresh) decode_narrow_over_codes(p, a, nibbles, lane, 32, a_narrow);
          }
        }
      } else {
        if constexpr (kF16Words) decode_f16_words(p, a, b, nibbles, lane, 32, a_narrow, b_narrow);
        else decode_narrow(p, a, b, nibbles, lane, 32, a_narrow, b_narrow);
      }
      __syncwarp();
      if (judge_pairs) {
        for (uint32_t q = 0; q < d_per_lane; q += 2) {
          uint32_t codes[2];
          judged_narrow_elements<kFp8Blocks, 2, kF16Words, kPlanes>(p, a_narrow, b_narrow, c, d_cell(q), codes);
          deviates |= element_of(rd, q, d_bits) != codes[0] || element_of(rd, q + 1, d_bits) != codes[1];
        }
      } else {
        for (uint32_t q = 0; q < d_per_lane; ++q)
          deviates |= element_of(rd, q, d_bits) != judged_narrow_with<kFp8Blocks, kF16Words, kPlanes>(p, a_narrow, b_narrow, c, d_cell(q));
      }
    } else if constexpr (kFp8Blocks || kNarrowOverCodes) {
      deviates = true;   // never: resident.cpp sends only narrow fp8 or narrow_over_codes pairs here; if it did not, say so
    } else if (judge == Judge::integer) {
      bool dense = false;
      if constexpr (kLean) dense = p.integer_dense;
      if (dense) {
        uint32_t* rows = a + dense_at(t);
        spread_integer_dense(p, a, b, nibbles, lane, 32, rows);
        __syncwarp();
        for (uint32_t q = 0; q < d_per_lane; ++q)
          deviates |= element_of(rd, q, d_bits) != judged_integer_dense(p, rows, c, d_cell(q));
      } else {
        for (uint32_t q = 0; q < d_per_lane; ++q)
          deviates |= element_of(rd, q, d_bits) != judged_integer(p, a, b, c, nibbles, d_cell(q));
      }
    } else if constexpr (!kLean) {
      decode_operands(p, p.model, a, b, nibbles, lane, 32, a_decoded, b_decoded, columns);
      __syncwarp();
      for (uint32_t q = 0; q < d_per_lane; ++q)
        deviates |= element_of(rd, q, d_bits) != judged_decoded(p, p.model, a_decoded, b_decoded, columns, c, d_cell(q));
    } else {
      deviates = true;   // never: resident.cpp sends float_model pairs to the general kernel; if it did not, say so
    }
    if (__any_sync(0xFFFFFFFFu, deviates) && lane == 0) {
      const unsigned long long slot = atomicAdd(&launch.counters->deviating, 1ull);
      if (slot < launch.deviation_capacity) {
        launch.deviations[slot] = index;
        atomicAdd(&launch.counters->recorded, 1ull);
      }
    }
    ++cases;
  };

  // The loop runs the same rounds in every warp of a block (a warp past the end idles), so that the warps can keep
  // together (launch.phase_barrier): the warps one scheduler runs wait for each other after every case, then fetch
  // the same instructions at about the same time, drawing together and judging together, instead of thrashing the
  // instruction cache with both. Measured (reports/gpu-runs/2026-11-23d-phases/phases.log): one barrier a case, after
  // judging, is as fast as two (after drawing too); one every second or fourth case is slower.
  const uint32_t phase_group = warp % 4, phase_threads = (warps + 3 - phase_group) / 4 * 32;
  for (uint64_t first_warp = uint64_t(blockIdx.x) * warps; first_warp < launch.count; first_warp += all_warps) {
    const uint64_t w = first_warp + warp, index = launch.first + w;
    const bool active = w < launch.count;
    // Judge mode draws and runs only its first case, and judges it again and again.
    const bool fresh = launch.mode != Mode::judge || w == warp_index;
    const uint32_t noise = active && fresh ? draw_shared_case<kDenseOverCodes, ScratchValue, kFp8Blocks>(launch, p, index, lane, a, b, c, nibbles,
                                                                                use_scratch, scratch, dense_cancellation,
                                                                                dense_rows, fp8_values)
                                           : 0u;
    if (active) finish_case(w, index, fresh, noise);
    __syncwarp();   // every lane is done with this case before the next one overwrites it
    if (launch.phase_barrier)
      asm volatile("bar.sync %0, %1;" ::"r"(1 + phase_group), "r"(phase_threads) : "memory");
  }
  if (sink) atomicAdd(&launch.counters->sink, (unsigned long long)sink);
  if (lane == 0) {
    atomicAdd(&launch.counters->generated, cases);
    if (launch.mode != Mode::draw && launch.mode != Mode::run) atomicAdd(&launch.counters->checked, cases);
  }
}

}  // namespace mmasp::resident
