// The GPU-resident kernel's per-element work (resident/resident_abi.h), run on the CPU: for every pair with a resident
// kernel, the registers it packs from its tables are the ones fragments.h packs, and the D it expects is the model's
// (float forms, with the verified parameters) or the exact reference's (integer forms). What is left for the GPU test
// (suites/gpu_resident_test.cpp) is the instruction itself and nvcc's compilation of this same code.
#include <gtest/gtest.h>

#include "generators/bulk.h"
#include "generators/draw.h"
#include "harness/fault_injection.h"
#include "resident/resident.h"
#include "resident/resident_source.h"
#include "suites/cancellation_inputs.h"
#include "oracle/fragments.h"
#include "oracle/numeric_model_table.h"
#include "oracle/number_format.h"
#include "oracle/reference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace mmasp {
namespace {

std::optional<ModelParameters> model_for(const Form& form) { return verified_model(form, "sm_90"); }

// Which words a kernel judges a narrow pair from: pack()'s for the general walk (judged_narrow_with<false>), the fp8
// kernel's f32 words (decode_narrow<true>, judged_narrow_with<true>; B's in two planes of halves), the k16 f16
// kernel's (decode_f16_words, judged_narrow_with<false, true>), or the narrow f16 kernel's (decode_f16_words<true>,
// judged_narrow_with<false, true, true>; B's in two planes of halves).
enum class WordKind { general, fp8_f32, f16, f16_planes };
bool planes_of(WordKind kind) { return kind == WordKind::fp8_f32 || kind == WordKind::f16_planes; }
// A case's A and B as decode_narrow packs them (one lane doing every element), in words of `kind`.
struct NarrowWords {
  std::vector<uint64_t> a, b;
};
NarrowWords narrow_words(const resident::PairTables& p, const MmaCase& test, WordKind kind = WordKind::general) {
  NarrowWords words{std::vector<uint64_t>(resident::narrow_a_slots(p.cases)), std::vector<uint64_t>(test.b.size())};
  if (kind == WordKind::f16_planes)
    resident::decode_f16_words<true>(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1,
                                     words.a.data(), words.b.data());
  else if (kind == WordKind::f16)
    resident::decode_f16_words(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, words.a.data(),
                               words.b.data());
  else if (kind == WordKind::fp8_f32)
    resident::decode_narrow<true>(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, words.a.data(),
                                  words.b.data());
  else
    resident::decode_narrow(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, words.a.data(),
                            words.b.data());
  return words;
}
// The words judged_narrow reads for the pair (narrow_words_are_f32).
NarrowWords judged_words(const resident::PairTables& p, const MmaCase& test) {
  return narrow_words(p, test, resident::narrow_words_are_f32(p) ? WordKind::fp8_f32 : WordKind::general);
}

// Case `index` of a form's selector, as the bulk generator draws it from `seeds`.
MmaCase drawn_case(const Form& form, int selector, const gen::CaseSeeds& seeds, uint64_t index) {
  gen::Options options;
  options.selector = selector;
  MmaCase test;
  gen::BulkGenerator(seeds.of(index)).next(form, test, options);
  return test;
}

// A case in a warp's shared memory as the kernel draws it: A, B, C, then the nibbles, from the first word, in `words`
// words (at least case_words) whose rest holds `fill`.
std::vector<uint32_t> case_in_kernel_layout(const gen::portable::CaseTables& t, const MmaCase& test, uint32_t words,
                                            uint32_t fill) {
  std::vector<uint32_t> shared(words, fill);
  std::copy(test.a_compressed.begin(), test.a_compressed.end(), shared.begin());
  std::copy(test.b.begin(), test.b.end(), shared.begin() + t.a_count);
  std::copy(test.c.begin(), test.c.end(), shared.begin() + t.a_count + t.b_count);
  std::copy(test.nibbles.begin(), test.nibbles.end(), shared.begin() + t.a_count + t.b_count + t.c_count);
  return shared;
}

// A kernel's inlined switch holds only the instructions its AdmittedForms admits, and the host sends a kernel only
// pairs it accepts (the kernels trap on others): a kernel of one shape those whose tables hold its dimensions, an f16
// kernel those with f16_words_fit. So each pair's instruction must be one every kernel that accepts the pair admits:
// its form's shape is its tables' dimensions, f16_words_fit holds only where the form's A is f16, and the generated
// switch guards each instruction by its own form's shape and A.
TEST(Resident, EveryPairsInstructionIsInTheSwitchOfEachKernelThatAcceptsIt) {
  const std::string source = resident_kernels_source(ResidentImage::sm90a_cubin);
  ASSERT_NE(source.find("return form_mma_inline<EveryForm>(id, a, b, c, e);"), std::string::npos)
      << "the general kernel's call (form_mma) admits every instruction";
  using K16 = resident::AdmittedForms<gen::portable::FixedCaseDims<kResidentK16Dims>, false>;
  using K16F16 = resident::AdmittedForms<gen::portable::FixedCaseDims<kResidentK16Dims>, true>;
  using AnyF16 = resident::AdmittedForms<gen::portable::CaseDims, true>;
  int pairs = 0, f16_pairs = 0, k16_admitted = 0, k16_f16_admitted = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form)) continue;
    const auto model = model_for(form);
    const uint32_t m = uint32_t(form.shape.m), n = uint32_t(form.shape.n), k = uint32_t(form.shape.k);
    const bool a_f16 = form.a == ElemType::f16;
    for (int selector : form.selectors) {
      ++pairs;
      SCOPED_TRACE(form.opcode + " selector " + std::to_string(selector));
      const resident::PairTables p = resident_pair_tables(form, selector, model ? &*model : nullptr).tables;
      EXPECT_EQ(p.cases.m, m);
      EXPECT_EQ(p.cases.n, n);
      EXPECT_EQ(p.cases.k, k);
      EXPECT_TRUE(resident::EveryForm::admits(m, n, k, a_f16));
      // A kernel of kResidentK16Dims accepts the pairs whose tables hold them (and traps on others); tf32 m16n8k16
      // has other chunks, so its pairs are admitted there but never sent.
      const bool k16 = gen::portable::same_dims(p.cases, kResidentK16Dims);
      if (k16) EXPECT_TRUE(K16::admits(m, n, k, a_f16));
      k16_admitted += K16::admits(m, n, k, a_f16);
      if (resident::f16_words_fit(p)) {
        ++f16_pairs;
        EXPECT_TRUE(a_f16) << "an f16 kernel would take a pair whose A is not f16";
        EXPECT_TRUE(AnyF16::admits(m, n, k, a_f16));
        if (k16) EXPECT_TRUE(K16F16::admits(m, n, k, a_f16));
      }
      k16_f16_admitted += K16F16::admits(m, n, k, a_f16);
      std::ostringstream guard;
      guard << "case " << resident_instruction_id(form, selector) << ":  // " << form.opcode << " " << selector
            << "\n      if constexpr (Admitted::admits(" << m << ", " << n << ", " << k << ", " << (a_f16 ? "true" : "false")
            << ")) {";
      EXPECT_NE(source.find(guard.str()), std::string::npos) << "the switch's case is not guarded by its form: " << guard.str();
    }
  }
  EXPECT_EQ(pairs, 152);
  EXPECT_EQ(f16_pairs, 24) << "the f16 forms' pairs: m16n8k16 (4 selectors) and m16n8k32 (2), f16 and f32 D, both metadata kinds";
  // The point of it: the kernels of one shape search a few of the ids, not all 152.
  EXPECT_EQ(k16_admitted, 28) << "m16n8k16's pairs: f16 (f16 and f32 D) and bf16, 4 selectors, tf32 2, both metadata kinds";
  EXPECT_EQ(k16_f16_admitted, 16) << "m16n8k16 f16's pairs: f16 and f32 D, 4 selectors, both metadata kinds";
}

// Which kernel judges a pair is one function (resident_kernel_for), asked here for every sm_90 pair on an H100's shared
// memory: each kernel takes the pairs it was built for and no other, a pair of the general model or with a numerics
// or register fault goes to the general kernel, and every kernel has a name of its own (run.json writes it).
TEST(Resident, OneFunctionSaysWhichKernelJudgesEachPair) {
  constexpr size_t kH100SharedOptin = 227 * 1024;
  std::map<ResidentKernel, int> taken;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form)) continue;
    const auto model = model_for(form);
    const bool f16 = form.a == ElemType::f16, bf16 = form.a == ElemType::bf16;
    const bool fp8 = form.a == ElemType::e4m3 || form.a == ElemType::e5m2;
    for (int selector : form.selectors) {
      SCOPED_TRACE(form.opcode + " sel=" + std::to_string(selector));
      const resident::PairTables tables = resident_pair_tables(form, selector, model ? &*model : nullptr).tables;
      const ResidentKernel kernel = resident_kernel_for(tables, resident::Fault::none, kH100SharedOptin);
      ++taken[kernel];
      EXPECT_NE(kernel, ResidentKernel::general) << "a verified sm_90 pair left to the general kernel";
      EXPECT_EQ(kernel == ResidentKernel::lean_fp8, fp8);
      if (form.shape.k == 32 && !form.is_integer()) {
        EXPECT_EQ(kernel == ResidentKernel::lean_narrow_f16, f16);
        EXPECT_EQ(kernel == ResidentKernel::lean_narrow, bf16);
      }
      if (form.shape.k == 16 && (f16 || bf16))
        EXPECT_EQ(kernel, f16 ? ResidentKernel::lean_k16_f16 : ResidentKernel::lean_k16);
      const bool dense = kernel == ResidentKernel::lean_dense || kernel == ResidentKernel::lean_dense_768;
      EXPECT_EQ(dense, form.is_integer() && form.shape.k == 128);
      if (kernel == ResidentKernel::lean_k16_f16 || kernel == ResidentKernel::lean_narrow_f16) EXPECT_TRUE(f16);
      // Faults the lean kernels cannot apply go to the general kernel; output faults stay.
      EXPECT_EQ(resident_kernel_for(tables, resident::Fault::numerics, kH100SharedOptin), ResidentKernel::general);
      EXPECT_EQ(resident_kernel_for(tables, resident::Fault::registers, kH100SharedOptin), ResidentKernel::general);
      EXPECT_EQ(resident_kernel_for(tables, resident::Fault::output, kH100SharedOptin), kernel);
      // A device with little shared memory sends the pairs with a full block of their own to the 768-thread kernels.
      const ResidentKernel small = resident_kernel_for(tables, resident::Fault::none, 16 * 1024);
      if (kernel == ResidentKernel::lean || kernel == ResidentKernel::lean_k16 || kernel == ResidentKernel::lean_k16_f16)
        EXPECT_EQ(small, ResidentKernel::lean_768);
      if (dense) EXPECT_EQ(small, ResidentKernel::lean_dense_768);
      EXPECT_EQ(resident_kernel_for(tables, resident::Fault::none, 16 * 1024, true) == ResidentKernel::lean_768, false);
    }
  }
  // Every lean kernel but the 768-thread ones (which no sm_90 pair needs on an H100) takes some pair there.
  for (ResidentKernel k : {ResidentKernel::lean_fp8, ResidentKernel::lean_narrow, ResidentKernel::lean_narrow_f16,
                           ResidentKernel::lean_k16, ResidentKernel::lean_k16_f16})
    EXPECT_GT(taken[k], 0) << name(k);
  // An image without the specialised kernels (the PTX images): no pair gets their layouts, every pair without a
  // general-kernel fault goes to the lean kernel, and tables with such a layout are refused there.
  for (const ResidentImage image : {ResidentImage::compute89_ptx, ResidentImage::compute80_ptx}) {
    int pairs = 0;
    for (const Form& form : instruction_space()) {
      if (!has_resident_kernel(form, nullptr, image) || !has_resident_kernel(form)) continue;
      const auto model = model_for(form);
      for (int selector : form.selectors) {
        SCOPED_TRACE(form.opcode + " sel=" + std::to_string(selector) + " " + std::string(name(image)));
        ++pairs;
        const resident::PairTables tables = resident_pair_tables(form, selector, model ? &*model : nullptr, image).tables;
        EXPECT_FALSE(tables.narrow_fp8_blocks || tables.narrow_over_codes || tables.dense_over_codes);
        for (const size_t shared : {kH100SharedOptin, size_t(16 * 1024)})
          EXPECT_EQ(resident_kernel_for(tables, resident::Fault::none, shared, false, image), ResidentKernel::lean);
        EXPECT_EQ(resident_kernel_for(tables, resident::Fault::output, kH100SharedOptin, false, image), ResidentKernel::lean);
        EXPECT_EQ(resident_kernel_for(tables, resident::Fault::numerics, kH100SharedOptin, false, image),
                  ResidentKernel::general);
        const resident::PairTables cubin = resident_pair_tables(form, selector, model ? &*model : nullptr).tables;
        if (cubin.narrow_fp8_blocks || cubin.narrow_over_codes || cubin.dense_over_codes)
          EXPECT_THROW(resident_kernel_for(cubin, resident::Fault::none, kH100SharedOptin, false, image), std::logic_error);
      }
    }
    EXPECT_EQ(pairs, image == ResidentImage::compute89_ptx ? 152 : 144) << name(image);
  }
  std::set<std::string_view> names;
  for (ResidentKernel k : {ResidentKernel::general, ResidentKernel::lean, ResidentKernel::lean_768, ResidentKernel::lean_dense,
                           ResidentKernel::lean_dense_768, ResidentKernel::lean_fp8, ResidentKernel::lean_narrow,
                           ResidentKernel::lean_narrow_f16, ResidentKernel::lean_k16, ResidentKernel::lean_k16_f16})
    EXPECT_TRUE(names.insert(name(k)).second) << name(k);
}

// For each image's tables (a PTX image's pairs have no specialised layout: holds_specialised_kernels), with the
// sm_90 model, which the judge must compute whatever its parameters.
class ResidentImages : public ::testing::TestWithParam<ResidentImage> {};
}  // namespace
void PrintTo(ResidentImage image, std::ostream* out) { *out << name(image); }   // gtest's name of a parameter (ADL)
namespace {

TEST_P(ResidentImages, EveryPairHasAKernelAndTablesThatPackAndJudgeAsTheHostDoes) {
  const ResidentImage image = GetParam();
  int pairs = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form, nullptr, image) || !has_resident_kernel(form)) continue;
    const auto model = model_for(form);
    if (!form.is_integer()) ASSERT_TRUE(model) << form.opcode << ": a float sm_90 form without a verified model";
    for (int selector : form.selectors) {
      ++pairs;
      const ResidentPairTables tables = resident_pair_tables(form, selector, model ? &*model : nullptr, image);
      const resident::PairTables& p = tables.tables;
      for (int operand = 0; operand < 4; ++operand)   // pack_operand's whole-word path (pack_whole_words)
        EXPECT_EQ(p.per_lane[operand] % (32 / p.container_bits[operand]), 0u) << form.opcode << " operand " << operand;
      // Each element of every operand in one lane: what a kernel of one shape's unrolled packing takes (lane_elements).
      EXPECT_TRUE(resident::lane_counts_are_shares(p)) << form.opcode << " selector " << selector;
      const gen::CaseSeeds seeds(0xabc + uint64_t(selector), form);
      for (uint64_t index = 0; index < 24; ++index) {
        MmaCase test = drawn_case(form, selector, seeds, index);
        const WarpRegisters expected = to_registers(test);
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const LaneRegisters& want = expected.lanes[lane];
          const resident::Registers a = resident::pack_operand(p, resident::operand_a, test.a_compressed.data(), lane);
          const resident::Registers b = resident::pack_operand(p, resident::operand_b, test.b.data(), lane);
          const resident::Registers c = resident::pack_operand(p, resident::operand_c, test.c.data(), lane);
          // The unrolled packing (kUnrolledPacking kernels), for every pair whichever kernel takes it.
          const resident::Registers a_unrolled = resident::pack_operand<true>(p, resident::operand_a, test.a_compressed.data(), lane);
          const resident::Registers b_unrolled = resident::pack_operand<true>(p, resident::operand_b, test.b.data(), lane);
          const resident::Registers c_unrolled = resident::pack_operand<true>(p, resident::operand_c, test.c.data(), lane);
          // The fp8 kernel's packing: each lane's loads turned (bank_spreading_turn), and where A's bytes lie four
          // to a register in consecutive codes (contiguous_bytes), A's by pack_contiguous_bytes.
          const resident::Registers a_turned = resident::pack_operand<false, 0, true>(p, resident::operand_a, test.a_compressed.data(), lane, p.layouts);
          const resident::Registers b_turned = resident::pack_operand<false, 0, true>(p, resident::operand_b, test.b.data(), lane, p.layouts);
          const resident::Registers c_turned = resident::pack_operand<false, 0, true>(p, resident::operand_c, test.c.data(), lane, p.layouts);
          const resident::Registers a_contiguous =
              resident::contiguous_bytes(p, resident::operand_a)
                  ? resident::pack_contiguous_bytes(p, resident::operand_a, test.a_compressed.data(), lane, p.layouts)
                  : a;
          // The f16 kernels' packing, by the container bits f16_words_fit makes theirs (pack_operand's kBits).
          resident::Registers a_f16 = a, b_f16 = b, c_f16 = c;
          if (resident::f16_words_fit(p)) {
            a_f16 = resident::pack_operand<true, resident::kF16OperandBits>(p, resident::operand_a, test.a_compressed.data(), lane);
            b_f16 = resident::pack_operand<true, resident::kF16OperandBits>(p, resident::operand_b, test.b.data(), lane);
            c_f16 = p.container_bits[resident::operand_c] == 32
                        ? resident::pack_operand<true, 32>(p, resident::operand_c, test.c.data(), lane)
                        : resident::pack_operand<true, resident::kF16OperandBits>(p, resident::operand_c, test.c.data(), lane);
          }
          // The registers the instruction does not read are zero (the kernel passes all four).
          for (int r = 0; r < 4; ++r) {
            ASSERT_EQ(a_f16.r[r], a.r[r]) << form.opcode << " lane " << lane << " A register " << r << " (f16 kernels)";
            ASSERT_EQ(b_f16.r[r], b.r[r]) << form.opcode << " lane " << lane << " B register " << r << " (f16 kernels)";
            ASSERT_EQ(c_f16.r[r], c.r[r]) << form.opcode << " lane " << lane << " C register " << r << " (f16 kernels)";
            ASSERT_EQ(a.r[r], r < form.regs.a ? want.a[size_t(r)] : 0u) << form.opcode << " lane " << lane << " A register " << r;
            ASSERT_EQ(b.r[r], r < form.regs.b ? want.b[size_t(r)] : 0u) << form.opcode << " lane " << lane << " B register " << r;
            ASSERT_EQ(c.r[r], r < form.regs.c ? want.c[size_t(r)] : 0u) << form.opcode << " lane " << lane << " C register " << r;
            ASSERT_EQ(a_unrolled.r[r], a.r[r]) << form.opcode << " lane " << lane << " A register " << r << " (unrolled)";
            ASSERT_EQ(b_unrolled.r[r], b.r[r]) << form.opcode << " lane " << lane << " B register " << r << " (unrolled)";
            ASSERT_EQ(c_unrolled.r[r], c.r[r]) << form.opcode << " lane " << lane << " C register " << r << " (unrolled)";
            ASSERT_EQ(a_turned.r[r], a.r[r]) << form.opcode << " lane " << lane << " A register " << r << " (turned)";
            ASSERT_EQ(b_turned.r[r], b.r[r]) << form.opcode << " lane " << lane << " B register " << r << " (turned)";
            ASSERT_EQ(c_turned.r[r], c.r[r]) << form.opcode << " lane " << lane << " C register " << r << " (turned)";
            ASSERT_EQ(a_contiguous.r[r], a.r[r]) << form.opcode << " lane " << lane << " A register " << r << " (contiguous)";
          }
          ASSERT_EQ(resident::metadata_register(p, test.nibbles.data(), lane, test.metadata_noise[lane]), want.e)
              << form.opcode << " selector " << selector << " lane " << lane << " metadata";
        }
        const std::vector<uint32_t> d_expected = resident_expected_d(test, model ? &*model : nullptr);
        for (uint32_t idx = 0; idx < uint32_t(d_expected.size()); ++idx)
          ASSERT_EQ(resident::judged(p, p.model, test.a_compressed.data(), test.b.data(), test.c.data(), test.nibbles.data(), idx),
                    d_expected[idx])
              << form.opcode << " case " << index << " element " << idx;
        if (p.judge == resident::Judge::narrow_model) {   // the kernel's hot path: the narrow model
          if (p.narrow_choices == 0 && form.shape.k / 2 <= 16)   // one block of 4, 8 or 16: the unrolled element
            EXPECT_EQ(p.narrow_one_block, uint32_t(form.shape.k / 2)) << form.opcode;
          // Two blocks walked at compile time, in the fp8 kernel.
          EXPECT_EQ(p.narrow_fp8_blocks, form.family == "fp8" && holds_specialised_kernels(image)) << form.opcode;
          // C and D in one IEEE format the kernel knows at compile time; a C of any other format is refused.
          EXPECT_EQ(p.narrow_accumulator, form.d == ElemType::f16 ? 2u : 1u) << form.opcode;
          resident::PairTables other_c = p;
          other_c.c_format.bias += 1;
          EXPECT_EQ(resident::narrow_accumulator_of(other_c), 0u) << form.opcode;
          EXPECT_NE(p.narrow_tables[resident::operand_a].offset, resident::kNoTable) << form.opcode << ": A looked up";
          EXPECT_NE(p.narrow_tables[resident::operand_b].offset, resident::kNoTable) << form.opcode << ": B looked up";
          const NarrowWords words = judged_words(p, test);
          for (uint32_t idx = 0; idx < uint32_t(d_expected.size()); ++idx)
            ASSERT_EQ(resident::judged_narrow(p, words.a.data(), words.b.data(), test.c.data(), idx), d_expected[idx])
                << form.opcode << " case " << index << " element " << idx << " (narrow model)";
        }
        if (form.is_integer()) {   // the lean kernel's integer path: dense bytes and dp4a
          EXPECT_TRUE(p.integer_dense) << form.opcode << ": every sm_90 integer form fits the dense judge";
          // A warp's 32 lanes write what one lane alone writes.
          std::vector<uint32_t> alone(resident::dense_words(p.cases), 0xA5A5A5A5u), warp(alone.size(), 0x5A5A5A5Au);
          resident::spread_integer_dense(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, alone.data());
          for (uint32_t lane = 0; lane < 32; ++lane)
            resident::spread_integer_dense(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), lane, 32,
                                           warp.data());
          const uint32_t row_words = resident::dense_row_words(p.cases);
          for (uint32_t w = 0; w < alone.size(); ++w)   // padding words (past K/4 in a row) are never read
            if (w % row_words < p.cases.k / 4) ASSERT_EQ(warp[w], alone[w]) << form.opcode << " dense word " << w;
          for (uint32_t idx = 0; idx < uint32_t(d_expected.size()); ++idx)
            ASSERT_EQ(resident::judged_integer_dense(p, alone.data(), test.c.data(), idx), d_expected[idx])
                << form.opcode << " case " << index << " element " << idx << " (dense integer judge)";
        }
        if (!form.is_integer()) {   // the general kernel's path: operands decoded once per case
          std::vector<uint64_t> a_decoded(test.a_compressed.size()), b_decoded(test.b.size());
          std::vector<uint32_t> columns(test.a_compressed.size());
          resident::decode_operands(p, p.model, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1,
                                    a_decoded.data(), b_decoded.data(), columns.data());
          for (uint32_t idx = 0; idx < uint32_t(d_expected.size()); ++idx)
            ASSERT_EQ(resident::judged_decoded(p, p.model, a_decoded.data(), b_decoded.data(), columns.data(), test.c.data(), idx),
                      d_expected[idx])
                << form.opcode << " case " << index << " element " << idx << " (decoded operands)";
        }
        // The D layout: every element of D is some lane's, once.
        std::vector<int> seen(d_expected.size());
        for (uint32_t lane = 0; lane < 32; ++lane)
          for (uint32_t q = 0; q < p.per_lane[resident::operand_d]; ++q)
            ++seen[p.layouts[p.layout[resident::operand_d] + resident::layout_cell(q, lane)]];
        for (int count : seen) ASSERT_EQ(count, 1) << form.opcode << ": D layout";
      }
    }
  }
  EXPECT_EQ(pairs, image == ResidentImage::compute80_ptx ? 144 : 152) << "every sm_90 form x selector pair the image holds";
}

INSTANTIATE_TEST_SUITE_P(Images, ResidentImages, ::testing::ValuesIn(kResidentImages),
                         [](const ::testing::TestParamInfo<ResidentImage>& info) {
                           return std::string(nvcc_architecture(info.param));
                         });

TEST(Resident, TheCataloguesDeclaredFaultsTranslateAndNumericsFaultsChangeTheModel) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const ModelParameters truth = *model_for(form);
  int translated = 0;
  for (const Fault& fault : fault_catalog()) {
    if (!fault.applies(form, 0)) continue;
    std::string why;
    const auto on_device = resident_fault(fault, form, &truth, &why);
    if (fault.kind == FaultKind::numerics) {
      ASSERT_TRUE(on_device) << fault.id << ": " << why;
      EXPECT_FALSE(on_device->changed == static_cast<const model::Parameters&>(truth)) << fault.id << " changes nothing";
    }
    if (fault.output_change || fault.register_change) ASSERT_TRUE(on_device) << fault.id << ": " << why;
    if (!on_device) EXPECT_FALSE(why.empty()) << fault.id;
    translated += on_device.has_value();
  }
  EXPECT_GE(translated, 20);
}

// The narrow model (model::narrow) is the model: judged_narrow equals model_result on every element of cases whose
// codes are drawn uniformly from every bit pattern (every exponent, subnormals, zeros, Inf and NaN of every sign), on
// cases where the products cancel (a column of B the negation of another), and on the bulk generator's own profiles.
TEST(Resident, TheNarrowModelIsTheModelOnEveryInput) {
  int forms = 0;
  uint64_t elements = 0, f16_forms_cases = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.is_integer()) continue;
    const ModelParameters model = *model_for(form);
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &model);
    const resident::PairTables& p = tables.tables;
    ASSERT_EQ(p.judge, resident::Judge::narrow_model) << form.opcode << ": a verified sm_90 float form off the narrow model";
    ASSERT_TRUE(p.narrow_pairs) << form.opcode << ": D's m16n8 layout holds adjacent pairs of a row";
    ++forms;
    const auto code_mask = [](ElemType type) {
      const auto& t = info(type);
      const uint32_t bits = t.bits >= 32 ? 0xFFFFFFFFu : (1u << t.bits) - 1;
      return bits & ~((1u << float_format(type)->low_pad_bits) - 1);
    };
    const uint32_t a_mask = code_mask(form.a), b_mask = code_mask(form.b), c_mask = code_mask(form.c);
    const gen::CaseSeeds seeds(0x5eed, form);
    gen::SplitMixDraw bits(0xfeedULL + uint64_t(forms));
    for (uint64_t index = 0; index < 300; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);   // metadata, and every third case as drawn
      const int kind = int(index % 3);
      if (kind > 0) {
        for (auto& x : test.a_compressed) x = uint32_t(bits.bits()) & a_mask;
        for (auto& x : test.b) x = uint32_t(bits.bits()) & b_mask;
        for (auto& x : test.c) x = uint32_t(bits.bits()) & c_mask;
      }
      if (kind == 2) {
        // Every row of B is row 0, and each odd stored A element is its even neighbour negated, its lowest code bit
        // flipped at random: the products cancel in pairs, to nothing or to a last-bit residue far below C.
        const size_t n = size_t(form.shape.n), stored = size_t(form.shape.k / 2);
        for (size_t e = n; e < test.b.size(); ++e) test.b[e] = test.b[e % n];
        const uint32_t sign = 1u << (info(form.a).bits - 1), lowest = 1u << float_format(form.a)->low_pad_bits;
        for (size_t e = 0; e + 1 < test.a_compressed.size(); e += 2)
          if ((e % stored) + 1 < stored) test.a_compressed[e + 1] = test.a_compressed[e] ^ sign ^ (bits.bits() & 1 ? lowest : 0);
      }
      if (!undefined_behaviour(test).empty()) continue;
      const std::vector<uint32_t> expected = model_result(test, model);
      const NarrowWords words = narrow_words(p, test), judged = judged_words(p, test);
      for (uint32_t idx = 0; idx < uint32_t(expected.size()); ++idx, ++elements) {
        ASSERT_EQ(resident::judged_narrow(p, judged.a.data(), judged.b.data(), test.c.data(), idx), expected[idx])
            << form.opcode << " case " << index << " (kind " << kind << ") element " << idx;
        // The kernels other than the fp8 one judge an fp8 pair by the general walk.
        ASSERT_EQ(resident::judged_narrow_with<false>(p, words.a.data(), words.b.data(), test.c.data(), idx), expected[idx])
            << form.opcode << " case " << index << " (kind " << kind << ") element " << idx << ", general walk";
      }
      // The m16n8k16 f16 kernel's words and judge (f16_words_fit: every f16 pair): f32 words, products summed by f32
      // multiplication.
      if (resident::f16_words_fit(p)) {
        const NarrowWords f16 = narrow_words(p, test, WordKind::f16), planes = narrow_words(p, test, WordKind::f16_planes);
        for (uint32_t idx = 0; idx < uint32_t(expected.size()); ++idx) {
          ASSERT_EQ((resident::judged_narrow_with<false, true>(p, f16.a.data(), f16.b.data(), test.c.data(), idx)), expected[idx])
              << form.opcode << " case " << index << " (kind " << kind << ") element " << idx << ", f16 words";
          ASSERT_EQ((resident::judged_narrow_with<false, true, true>(p, planes.a.data(), planes.b.data(), test.c.data(), idx)),
                    expected[idx])
              << form.opcode << " case " << index << " (kind " << kind << ") element " << idx << ", f16 words in planes";
        }
        // Two elements of a row at a time, as the narrow f16 kernel judges them (narrow_pairs), from B's planes.
        for (uint32_t idx = 0; idx < uint32_t(expected.size()); idx += 2) {
          uint32_t pair[2] = {~0u, ~0u};
          resident::judged_narrow_elements<false, 2, true, true>(p, planes.a.data(), planes.b.data(), test.c.data(), idx, pair);
          ASSERT_EQ(pair[0], expected[idx]) << form.opcode << " case " << index << " (kind " << kind << ") element " << idx << ", f16 words in pairs";
          ASSERT_EQ(pair[1], expected[idx + 1]) << form.opcode << " case " << index << " (kind " << kind << ") element " << idx + 1 << ", f16 words in pairs";
        }
        ++f16_forms_cases;
      }
      // Two elements of a row at a time, as the kernels judge them where narrow_pairs holds (every sm_90 float pair).
      for (uint32_t idx = 0; idx < uint32_t(expected.size()); idx += 2) {
        uint32_t fixed[2] = {~0u, ~0u}, general[2] = {~0u, ~0u};
        if (p.narrow_fp8_blocks) resident::judged_narrow_elements<true, 2>(p, judged.a.data(), judged.b.data(), test.c.data(), idx, fixed);
        else resident::judged_narrow_elements<false, 2>(p, words.a.data(), words.b.data(), test.c.data(), idx, fixed);
        resident::judged_narrow_elements<false, 2>(p, words.a.data(), words.b.data(), test.c.data(), idx, general);
        for (uint32_t e = 0; e < 2; ++e) {
          ASSERT_EQ(fixed[e], expected[idx + e]) << form.opcode << " case " << index << " (kind " << kind << ") elements "
                                                 << idx << " and " << idx + 1 << ", the " << (e ? "second" : "first");
          ASSERT_EQ(general[e], expected[idx + e]) << form.opcode << " case " << index << " (kind " << kind
                                                   << ") elements " << idx << " and " << idx + 1 << ", general walk";
        }
      }
    }
  }
  EXPECT_GE(forms, 20);
  EXPECT_GT(elements, 100000u);
  EXPECT_GE(f16_forms_cases, 8u * 100u) << "the f16 pairs' cases judged from f16 words too";
}

// f16_word is pack_f32's word of every f16 code's decoded value (subnormals kept), whatever its tag. (That the format it
// assumes is every f16 pair's is f16_words_fit's to check: KernelsOfOneShapeComputeAsTheTables.)
TEST(Resident, F16WordsAreEveryCodesF32Word) {
  const model::OperandFormat f16 = resident::narrow_f16_format();
  for (uint32_t code = 0; code < 0x10000u; ++code)
    for (uint32_t tag : {0u, 64u, model::narrow::kF32TagMask}) {
      const uint64_t want = model::narrow::pack_f32(model::decode_operand(code, f16, Subnormals::kept), tag);
      ASSERT_EQ(resident::f16_word(code, tag), want) << std::hex << "code 0x" << code << " tag 0x" << tag;
    }
}

// The f16 kernels' C words (accumulator_word): an f32 C's low half is pack_f32's of its decoded value (subnormals kept)
// and its high half the code; an f16 C's word is f16_word's (F16WordsAreEveryCodesF32Word). Every exponent and sign,
// with the mantissas at both ends and inside.
TEST(Resident, AccumulatorWordsArePackedValues) {
  const model::OperandFormat f32 = resident::narrow_accumulator_format(false);
  gen::SplitMixDraw bits(0xacc);
  int specials = 0, subnormals = 0;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t exponent = 0; exponent < 256; ++exponent)
      for (uint32_t mantissa : {0u, 1u, 2u, 0x400000u, 0x7FFFFFu, uint32_t(bits.bits()) & 0x7FFFFFu, uint32_t(bits.bits()) & 0x7FFFFFu}) {
        const uint32_t code = sign | exponent << 23 | mantissa;
        const model::Value v = model::decode_operand(code, f32, Subnormals::kept);
        const uint64_t word = resident::accumulator_word(code, model::KnownBool<false>{});
        ASSERT_EQ(uint32_t(word), uint32_t(model::narrow::pack_f32(v))) << std::hex << "code 0x" << code;
        ASSERT_EQ(uint32_t(word >> 32), code) << std::hex << "code 0x" << code;
        specials += v.cls == model::Value::nan || v.cls == model::Value::infinite;
        subnormals += exponent == 0 && mantissa != 0;
      }
  EXPECT_GE(specials, 2 * 7);
  EXPECT_GE(subnormals, 2 * 5);
  for (uint32_t code = 0; code < 0x10000u; code += 7)
    ASSERT_EQ(resident::accumulator_word(code, model::KnownBool<true>{}), resident::f16_word(code)) << std::hex << code;
}

// The f16 kernels' judge with C as an f32 word (Block::*_f32_term) is the model where C decides the block's alignment:
// for every f16 pair, C of every exponent (f32 C: 0 to 255, so subnormal, tiny, huge, Inf and NaN; f16 C: 0 to 31)
// against A of zeros, of subnormals, and as drawn, element by element and in pairs against model_result.
TEST(Resident, F16JudgeTakesCOfEveryExponent) {
  int pairs = 0;
  uint64_t elements = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.is_integer()) continue;
    const ModelParameters model = *model_for(form);
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &model);
    const resident::PairTables& p = tables.tables;
    if (!resident::f16_words_fit(p)) continue;
    ++pairs;
    const gen::CaseSeeds seeds(0xc0de, form);
    gen::SplitMixDraw bits(0xe1 + uint64_t(pairs));
    const bool f16_c = info(form.c).bits == 16;
    const uint32_t exponents = f16_c ? 32 : 256, exponent_shift = f16_c ? 10 : 23;
    const uint32_t mantissa_mask = (1u << exponent_shift) - 1, sign = f16_c ? 0x8000u : 0x80000000u;
    for (uint32_t exponent = 0; exponent < exponents; ++exponent)
      for (int a_kind = 0; a_kind < 3; ++a_kind) {
        MmaCase test = drawn_case(form, form.selectors.front(), seeds, exponent * 3 + uint64_t(a_kind));
        for (auto& x : test.c)
          x = (bits.bits() & 1 ? sign : 0u) | exponent << exponent_shift | (uint32_t(bits.bits()) & mantissa_mask);
        if (a_kind == 0) for (auto& x : test.a_compressed) x = bits.bits() & 1 ? 0x8000u : 0u;   // zeros of either sign
        if (a_kind == 1) for (auto& x : test.a_compressed) x = uint32_t(bits.bits()) & 0x83FFu;  // subnormals and zeros
        if (!undefined_behaviour(test).empty()) continue;
        const std::vector<uint32_t> expected = model_result(test, model);
        const NarrowWords f16 = narrow_words(p, test, WordKind::f16), planes = narrow_words(p, test, WordKind::f16_planes);
        for (uint32_t idx = 0; idx < uint32_t(expected.size()); ++idx, ++elements) {
          ASSERT_EQ((resident::judged_narrow_with<false, true>(p, f16.a.data(), f16.b.data(), test.c.data(), idx)),
                    expected[idx])
              << form.opcode << " C exponent " << exponent << " A kind " << a_kind << " element " << idx << std::hex
              << " C 0x" << test.c[idx];
          ASSERT_EQ((resident::judged_narrow_with<false, true, true>(p, planes.a.data(), planes.b.data(), test.c.data(), idx)),
                    expected[idx])
              << form.opcode << " C exponent " << exponent << " A kind " << a_kind << " element " << idx << " (planes)";
        }
        for (uint32_t idx = 0; idx < uint32_t(expected.size()); idx += 2) {   // as the narrow f16 kernel, in pairs
          uint32_t pair[2] = {~0u, ~0u};
          resident::judged_narrow_elements<false, 2, true, true>(p, planes.a.data(), planes.b.data(), test.c.data(), idx, pair);
          for (uint32_t e = 0; e < 2; ++e)
            ASSERT_EQ(pair[e], expected[idx + e]) << form.opcode << " C exponent " << exponent << " A kind " << a_kind
                                                  << " element " << idx + e << " (in pairs)";
        }
      }
  }
  EXPECT_GE(pairs, 8);
  EXPECT_GT(elements, 100000u);
}

// narrow_pairs_fit takes a pair's D layout as it is: a lane whose two elements are swapped, or whose pair starts in an
// odd column (two rows' elements, or no 16-byte pair of B words), takes the kernels' one-element judge; so do integer
// pairs.
TEST(Resident, NarrowPairsFitOnlyAdjacentColumnsOfARow) {
  const Form* f16 = nullptr;
  const Form* integer = nullptr;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form)) continue;
    if (!f16 && form.a == ElemType::f16 && form.d == ElemType::f32) f16 = &form;
    if (!integer && form.is_integer()) integer = &form;
  }
  ASSERT_TRUE(f16 && integer);
  const auto model = model_for(*f16);
  ASSERT_TRUE(model);
  const ResidentPairTables tables = resident_pair_tables(*f16, f16->selectors.front(), &*model);
  EXPECT_TRUE(tables.tables.narrow_pairs) << f16->opcode;
  const uint32_t d = tables.tables.layout[resident::operand_d];
  const auto with_layouts = [&](const std::vector<uint32_t>& layouts) {
    resident::PairTables p = tables.tables;
    p.layouts = layouts.data();
    return resident::narrow_pairs_fit(p);
  };
  const std::vector<uint32_t> same = tables.layouts;
  EXPECT_TRUE(with_layouts(same));
  for (uint32_t lane : {0u, 17u, 31u}) {
    std::vector<uint32_t> swapped = same;   // lane's elements 2 and 3 in the other order
    std::swap(swapped[d + resident::layout_cell(2, lane)], swapped[d + resident::layout_cell(3, lane)]);
    EXPECT_FALSE(with_layouts(swapped)) << "lane " << lane;
    std::vector<uint32_t> odd = same;   // lane's first pair a column to the right: it starts in an odd column
    odd[d + resident::layout_cell(0, lane)] += 1;
    odd[d + resident::layout_cell(1, lane)] += 1;
    EXPECT_FALSE(with_layouts(odd)) << "lane " << lane;
  }
  const ResidentPairTables integers = resident_pair_tables(*integer, integer->selectors.front(), nullptr);
  EXPECT_FALSE(integers.tables.narrow_pairs) << integer->opcode;
}

// The dense integer judge (spread_integer_dense, judged_integer_dense: dp4a over bytes) gives the exact reference's D,
// and minus its products' sum (dense_sum) the cancellation profile's C that the generator gives,
// on drawn cases, on codes drawn uniformly from all bit patterns, and on the largest products (every A and B element
// at its type's extreme, C at the edges of .satfinite's clamp), for every integer form.
TEST(Resident, TheDenseIntegerJudgeIsTheReferenceOnEveryInput) {
  int forms = 0;
  uint64_t elements = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || !form.is_integer()) continue;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), nullptr);
    const resident::PairTables& p = tables.tables;
    ASSERT_TRUE(p.integer_dense) << form.opcode;
    ++forms;
    const uint32_t a_mask = (1u << info(form.a).bits) - 1, b_mask = (1u << info(form.b).bits) - 1;
    // A type's extremes as codes: its most negative (signed) or largest (unsigned) value, and its largest.
    const auto extreme = [](uint32_t bits, bool is_signed, bool low) {
      if (!is_signed) return (1u << bits) - 1;
      return low ? 1u << (bits - 1) : (1u << (bits - 1)) - 1;
    };
    const gen::CaseSeeds seeds(0xd0d0, form);
    gen::SplitMixDraw bits(0xbeefULL + uint64_t(forms));
    for (uint64_t index = 0; index < 200; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);   // metadata, and every fourth case as drawn
      const int kind = int(index % 4);
      if (kind == 1) {
        for (auto& x : test.a_compressed) x = uint32_t(bits.bits()) & a_mask;
        for (auto& x : test.b) x = uint32_t(bits.bits()) & b_mask;
        for (auto& x : test.c) x = uint32_t(bits.bits());
      }
      if (kind >= 2) {   // every product at its largest, of one sign (kind 2) or the other (kind 3)
        for (auto& x : test.a_compressed) x = extreme(p.a_bits, p.a_signed, true);
        for (auto& x : test.b) x = extreme(p.b_bits, p.b_signed, kind == 2);
        const uint32_t edges[] = {0x7FFFFFFFu, 0x80000000u, 0u, 0x7FFF0000u, 0x80010000u};
        for (size_t e = 0; e < test.c.size(); ++e) test.c[e] = edges[e % 5];
      }
      if (!undefined_behaviour(test).empty()) continue;
      const auto want = reference(test).d;
      std::vector<uint32_t> dense(resident::dense_words(p.cases));
      resident::spread_integer_dense(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, dense.data());
      const gen::portable::CaseTables& t = p.cases;
      const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width;
      const auto a_of = [&](uint32_t i, uint32_t s) { return test.a_compressed[i * stored + s]; };
      const auto b_of = [&](uint32_t row, uint32_t j) { return test.b[row * t.n + j]; };
      const auto nibble = [&](uint32_t i, uint32_t chunk) { return test.nibbles[i * chunks + chunk]; };
      for (uint32_t idx = 0; idx < uint32_t(want.size()); ++idx, ++elements) {
        ASSERT_EQ(resident::judged_integer_dense(p, dense.data(), test.c.data(), idx), want[idx].rounded_code)
            << form.opcode << " case " << index << " (kind " << kind << ") element " << idx;
        // The kernel's cancellation C from the same bytes (draw_shared_case) is the generator's (cancelled_integer_c).
        ASSERT_EQ(0u - resident::dense_sum(p, dense.data(), idx),
                  gen::portable::cancelled_integer_c(t, idx >> t.n_log2, idx & (t.n - 1), a_of, b_of, nibble))
            << form.opcode << " case " << index << " (kind " << kind << ") element " << idx << ": cancellation C";
      }
    }
  }
  EXPECT_GE(forms, 16);
  EXPECT_GT(elements, 100000u);
}

// byte_permute's host emulation is PTX prmt.b32's default mode: result byte i is byte (selector >> 4i) & 7 of b:a.
TEST(Resident, BytePermuteIsPrmt) {
  const uint32_t a = 0x33221100u, b = 0x77665544u;
  EXPECT_EQ(resident::byte_permute(a, b, 0x3210u), a);
  EXPECT_EQ(resident::byte_permute(a, b, 0x7654u), b);
  EXPECT_EQ(resident::byte_permute(a, b, 0x0123u), 0x00112233u);
  EXPECT_EQ(resident::byte_permute(a, b, 0x4444u), 0x44444444u);
  EXPECT_EQ(resident::byte_permute(a, b, 0x5140u), 0x55114400u);
  EXPECT_EQ(resident::low_bytes(0xAAAAAA01u, 0xBBBBBB02u, 0xCCCCCC03u, 0xDDDDDD04u), 0x04030201u);
  for (uint32_t n = 0; n < 32; ++n)
    EXPECT_EQ(resident::rotate_left_32(0x80000001u, n), n == 0 ? 0x80000001u : (0x80000001u << n) | (0x80000001u >> (32 - n)));
}

// integer_bytes gives each of four codes (any bits above the code's ignored) its value's low byte, for every width of
// at most a byte and both signednesses: what dp4a must read.
TEST(Resident, IntegerBytesAreEachCodesValue) {
  gen::SplitMixDraw junk(0x1b1b);
  for (uint32_t bits = 1; bits <= 8; ++bits)
    for (const bool is_signed : {false, true}) {
      const auto kind = is_signed ? gen::portable::ValueKind::signed_integer : gen::portable::ValueKind::unsigned_integer;
      for (uint32_t code = 0; code < (1u << bits); ++code)
        for (uint32_t place = 0; place < 4; ++place) {
          uint32_t codes[4];
          for (uint32_t& c : codes) c = uint32_t(junk.bits());
          codes[place] = (codes[place] & ~((1u << bits) - 1)) | code;
          uint32_t four = 0, want = 0;
          for (uint32_t q = 0; q < 4; ++q) {
            four |= (codes[q] & 0xFFu) << (8 * q);
            want |= (gen::portable::integer_operand(kind, bits, codes[q]) & 0xFFu) << (8 * q);
          }
          ASSERT_EQ(resident::integer_bytes(four, bits, is_signed), want)
              << bits << " bits, " << (is_signed ? "signed" : "unsigned") << ", code " << code << " in byte " << place;
        }
    }
}

// The dense kernels' spread (spread_integer_dense_over_codes, byte permutes) from codes whose bits above the type's are
// random: dense A holds each stored element's value (its low byte, as integer_operand gives it) at the logical column
// its metadata names and 0 at every other column; B transposed holds B[k][j] at byte k of row j. Every integer form
// with the selectors (all of them), cases drawn by the bulk generator (its metadata).
TEST(Resident, TheDenseKernelsBytesAreEveryElementsValueAtItsColumn) {
  int forms = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || !form.is_integer()) continue;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), nullptr);
    const resident::PairTables& p = tables.tables;
    ASSERT_TRUE(p.integer_dense) << form.opcode;
    ASSERT_NE(p.dense_selectors, resident::kNoTable) << form.opcode;
    ++forms;
    const gen::portable::CaseTables& t = p.cases;
    const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width, row_words = resident::dense_row_words(t);
    const gen::CaseSeeds seeds(0xde45e, form);
    gen::SplitMixDraw junk(0x5eed + uint64_t(forms));
    for (uint64_t index = 0; index < 40; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);
      for (auto& x : test.a_compressed) x |= uint32_t(junk.bits()) << t.a_values;
      for (auto& x : test.b) x |= uint32_t(junk.bits()) << t.b_values;
      std::vector<uint32_t> dense(resident::dense_words(t), 0xA5A5A5A5u);
      resident::spread_integer_dense_over_codes(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1,
                                           dense.data());
      const auto byte_at = [&](uint32_t row, uint32_t column) { return (dense[row * row_words + column / 4] >> (8 * (column % 4))) & 0xFFu; };
      for (uint32_t i = 0; i < t.m; ++i) {
        std::vector<uint32_t> want(t.k, 0);
        const auto nibble_of = [&](uint32_t chunk) { return test.nibbles[i * chunks + chunk]; };
        for (uint32_t s = 0; s < stored; ++s)
          want[gen::portable::logical_column(t, nibble_of, s)] =
              gen::portable::integer_operand(t.a_kind, t.a_values, test.a_compressed[i * stored + s]) & 0xFFu;
        for (uint32_t column = 0; column < t.k; ++column)
          ASSERT_EQ(byte_at(i, column), want[column]) << form.opcode << " case " << index << " A row " << i << " column " << column;
      }
      for (uint32_t j = 0; j < t.n; ++j)
        for (uint32_t k = 0; k < t.k; ++k)
          ASSERT_EQ(byte_at(t.m + j, k), gen::portable::integer_operand(t.b_kind, t.b_values, test.b[k * t.n + j]) & 0xFFu)
              << form.opcode << " case " << index << " B row " << k << " column " << j;
    }
  }
  EXPECT_GE(forms, 64) << "every sm_90 integer form";
}

// The selectors' table has a row per nibble below 16 and gathers 2 or 4 stored elements a chunk: tables outside that
// have none, and their pairs keep the lean kernels' spread (resident_pair_tables).
TEST(Resident, TheDenseSelectorsRefuseWhatTheirTableCannotHold) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32");
  ResidentPairTables tables = resident_pair_tables(form, 0, nullptr);
  ASSERT_TRUE(tables.tables.dense_over_codes);
  gen::portable::CaseTables t = tables.tables.cases;
  EXPECT_TRUE(resident::dense_selectors_fit(t));
  std::vector<uint32_t> arena = tables.cases.arena;
  arena[t.chunk_nibbles + 17] = 16;   // a drawable nibble past the table
  t.arena = arena.data();
  EXPECT_FALSE(resident::dense_selectors_fit(t));
  t.arena = tables.cases.arena.data();
  for (const uint32_t stored : {1u, 3u}) {   // chunks low_bytes does not gather
    t.stored_per_chunk = stored;
    EXPECT_FALSE(resident::dense_selectors_fit(t)) << stored;
  }
  t.stored_per_chunk = 2;
  EXPECT_TRUE(resident::dense_selectors_fit(t));
}

// Where PairTables::dense_over_codes, the kernel writes the dense bytes over the case's codes (its A's first word on),
// once the registers are packed: the bytes must be those written elsewhere, C and the nibbles untouched, and the case
// alone sizes a warp's shared memory. One lane spreading chunk by chunk is the strictest order (each chunk's bytes
// written before the next chunk's codes are read; a warp reads a pass of 32 chunks before it writes them). Every pair
// that fits (m16n8k64 and m16n8k128; m16n8k32's 24 dense rows are more than A's 256 codes) is checked; the tables
// take it for m16n8k128, where it measured faster (resident_pair_tables).
TEST(Resident, DenseBytesWrittenOverTheCodesAreTheBytes) {
  int fits = 0, taken = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || !form.is_integer()) continue;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), nullptr);
    resident::PairTables p = tables.tables;
    const gen::portable::CaseTables& t = p.cases;
    EXPECT_EQ(resident::dense_over_codes_fits(t), form.shape.k >= 64) << form.opcode;
    EXPECT_EQ(p.dense_over_codes, form.shape.k >= 128) << form.opcode;
    EXPECT_EQ(resident::shared_words(p), p.dense_over_codes ? resident::case_words(t)
                                                            : resident::dense_at(t) + resident::dense_words(t))
        << form.opcode;
    taken += p.dense_over_codes;
    if (!resident::dense_over_codes_fits(t)) continue;
    ++fits;
    p.dense_over_codes = true;
    const gen::CaseSeeds seeds(0x0ce4, form);
    for (uint64_t index = 0; index < 20; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);
      std::vector<uint32_t> elsewhere(resident::dense_words(t), 0);
      resident::spread_integer_dense(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, elsewhere.data());
      std::vector<uint32_t> shared = case_in_kernel_layout(t, test, resident::case_words(t), 0);
      const uint32_t* nibbles = shared.data() + t.a_count + t.b_count + t.c_count;
      resident::spread_integer_dense_over_codes(p, shared.data(), shared.data() + t.a_count, nibbles, 0, 1, shared.data());
      const uint32_t row_words = resident::dense_row_words(t);
      for (uint32_t w = 0; w < elsewhere.size(); ++w)   // padding words (past K/4 in a row) are never read
        if (w % row_words < t.k / 4) ASSERT_EQ(shared[w], elsewhere[w]) << form.opcode << " case " << index << " dense word " << w;
      for (uint32_t x = 0; x < t.c_count; ++x)   // C and the nibbles untouched
        ASSERT_EQ(shared[t.a_count + t.b_count + x], test.c[x]) << form.opcode << " C " << x;
      for (uint32_t x = 0; x < t.nibble_count; ++x)
        ASSERT_EQ(nibbles[x], test.nibbles[x]) << form.opcode << " nibble " << x;
    }
  }
  EXPECT_GE(fits, 48) << "every m16n8k64 and m16n8k128 form: 8- and 4-bit, signednesses, .satfinite, both metadata orders";
  EXPECT_GE(taken, 16) << "every m16n8k128 form";
}

// After decode_narrow_over_codes in a kernel layout `shared` (A's words at `a_words`): B's words over the codes and A's
// words are the words decode_narrow writes in words of `kind` (WordKind::fp8_f32: the fp8 kernel's), C is untouched,
// and the judge that reads them (the walk of that kind) finds the model's D. WordKind::f16_planes: after
// decode_f16_words_over_codes, the words decode_f16_words<true> writes, judged as the narrow f16 kernel judges.
void expect_words_over_codes(const resident::PairTables& p, const MmaCase& test, const ModelParameters* model,
                             const uint32_t* shared, const uint64_t* a_words, WordKind kind, const std::string& what) {
  const gen::portable::CaseTables& t = p.cases;
  const NarrowWords elsewhere = narrow_words(p, test, kind);
  std::vector<uint64_t> b_words(t.b_count);
  if (planes_of(kind)) {
    // B's words in two planes of halves (b_words_over_codes<true>), as decode_narrow<true> and decode_f16_words<true> put them.
    std::memcpy(b_words.data(), shared, size_t(t.b_count) * sizeof(uint64_t));
    std::vector<uint32_t> planes(2 * t.b_count);
    std::memcpy(planes.data(), elsewhere.b.data(), planes.size() * sizeof(uint32_t));
    for (uint32_t x = 0; x < 2 * t.b_count; ++x)
      ASSERT_EQ(shared[x], planes[x]) << what << " B plane word " << x << (x < t.b_count ? " (low)" : " (high)");
  } else {
    for (uint32_t e = 0; e < t.b_count; ++e) {
      b_words[e] = uint64_t(shared[2 * e + 1]) << 32 | shared[2 * e];
      ASSERT_EQ(b_words[e], elsewhere.b[e]) << what << " B word " << e;
    }
  }
  for (uint32_t e = 0; e < t.a_count; ++e)
    ASSERT_EQ(a_words[resident::narrow_a_slot(t, e)], elsewhere.a[resident::narrow_a_slot(t, e)]) << what << " A word " << e;
  for (uint32_t x = 0; x < t.c_count; ++x) ASSERT_EQ(shared[t.a_count + t.b_count + x], test.c[x]) << what << " C " << x;
  const std::vector<uint32_t> d_expected = resident_expected_d(test, model);
  for (uint32_t idx = 0; idx < uint32_t(d_expected.size()); ++idx) {
    const uint32_t judged =
        kind == WordKind::f16_planes ? resident::judged_narrow_with<false, true, true>(p, a_words, b_words.data(), test.c.data(), idx)
        : kind == WordKind::f16     ? resident::judged_narrow_with<false, true>(p, a_words, b_words.data(), test.c.data(), idx)
        : kind == WordKind::fp8_f32 ? resident::judged_narrow_with<true>(p, a_words, b_words.data(), test.c.data(), idx)
                                    : resident::judged_narrow_with<false>(p, a_words, b_words.data(), test.c.data(), idx);
    ASSERT_EQ(judged, d_expected[idx]) << what << " element " << idx;
  }
}

// The narrow words over the codes (PairTables::narrow_over_codes; the fp8 and m16n8k32 f16 and bf16 forms on sm_90):
// decode_narrow_over_codes leaves, in the kernel's layout, the words decode_narrow writes elsewhere, with C and the
// nibbles untouched, and the judge finds the model's D from them; no step of a warp's 32 lanes writes over a B code
// still to be read; the cancellation profile's operand values fit their room as floats, every one of them exactly.
TEST(Resident, NarrowWordsWrittenOverTheCodesAreTheWords) {
  int taken = 0, f16_taken = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.is_integer()) continue;
    const auto model = model_for(form);
    ASSERT_TRUE(model) << form.opcode;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &*model);
    const resident::PairTables& p = tables.tables;
    const gen::portable::CaseTables& t = p.cases;
    const bool expected = p.judge == resident::Judge::narrow_model &&
                          (form.family == "fp8" || (form.shape.k == 32 && (form.family == "f16" || form.family == "bf16")));
    EXPECT_EQ(p.narrow_over_codes, expected) << form.opcode;
    EXPECT_EQ(resident_shared_words(p, WarpLayout::case_then_words), resident::shared_words(p)) << form.opcode;   // the general kernel's too
    EXPECT_EQ(resident_shared_words(p, WarpLayout::narrow_over_codes), resident::narrow_over_codes_shared_words(t)) << form.opcode;
    EXPECT_EQ(resident_shared_words(p, WarpLayout::fp8), resident::fp8_shared_words(t)) << form.opcode;
    if (!p.narrow_over_codes) continue;
    ++taken;
    EXPECT_TRUE(resident::narrow_over_codes_fits(t)) << form.opcode;
    EXPECT_LT(resident::narrow_over_codes_shared_words(t), resident::shared_words(p)) << form.opcode;
    for (uint32_t step = 0; step < t.b_count; step += 32)   // writes below 2 (step + 32); codes read below a_count + step + 32
      ASSERT_LE(2 * (step + 32), t.a_count + step + 32) << form.opcode << " step " << step;
    const uint32_t words = resident::case_words(t), aligned = words + (words & 1);
    EXPECT_LE(resident::scratch_values(t, 4), resident::narrow_over_codes_shared_words(t) - aligned) << form.opcode << ": the floats' room";
    const ElemType operand_types[2] = {form.a, form.b};
    for (int operand = 0; operand < 2; ++operand) {
      const int bits = info(operand_types[operand]).bits;
      ASSERT_LE(bits, 16) << form.opcode;
      const gen::portable::ValueKind kind = operand == 0 ? t.a_kind : t.b_kind;
      const uint32_t values = operand == 0 ? t.a_values : t.b_values;
      for (uint32_t code = 0; code < (1u << bits); ++code) {
        const double value = gen::portable::operand_value(t, kind, values, code);
        if (std::isnan(value)) ASSERT_TRUE(std::isnan(double(float(value)))) << form.opcode << " code " << code;
        else ASSERT_EQ(double(float(value)), value) << form.opcode << " operand " << operand << " code " << code;
      }
    }
    const gen::CaseSeeds seeds(0x0a11, form);
    for (uint64_t index = 0; index < 20; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);
      // The kernel's layout: the case, then (8-byte aligned) A's words.
      std::vector<uint32_t> shared =
          case_in_kernel_layout(t, test, resident::narrow_over_codes_shared_words(t), 0xA5A5A5A5u);
      const uint32_t* nibbles = shared.data() + t.a_count + t.b_count + t.c_count;
      std::vector<uint64_t> a_words(resident::narrow_a_slots(t));
      resident::decode_narrow_over_codes(p, shared.data(), nibbles, 0, 1, a_words.data());
      ASSERT_NO_FATAL_FAILURE(expect_words_over_codes(p, test, &*model, shared.data(), a_words.data(), WordKind::general,
                                                      form.opcode + " case " + std::to_string(index)));
      for (uint32_t x = 0; x < t.nibble_count; ++x) ASSERT_EQ(nibbles[x], test.nibbles[x]) << form.opcode << " nibble " << x;
      if (resident::f16_words_fit(p)) {   // the narrow f16 kernel's words, in the same layout
        ++f16_taken;
        std::vector<uint32_t> f16_shared =
            case_in_kernel_layout(t, test, resident::narrow_over_codes_shared_words(t), 0xA5A5A5A5u);
        std::vector<uint64_t> f16_a_words(resident::narrow_a_slots(t));
        resident::decode_f16_words_over_codes(p, f16_shared.data(), f16_shared.data() + t.a_count + t.b_count + t.c_count,
                                              0, 1, f16_a_words.data());
        ASSERT_NO_FATAL_FAILURE(expect_words_over_codes(p, test, &*model, f16_shared.data(), f16_a_words.data(), WordKind::f16_planes,
                                                        form.opcode + " case " + std::to_string(index) + ", f16 words"));
        for (uint32_t x = 0; x < t.nibble_count; ++x)
          ASSERT_EQ(f16_shared[t.a_count + t.b_count + t.c_count + x], test.nibbles[x]) << form.opcode << " nibble " << x;
      }
    }
  }
  EXPECT_EQ(taken, 14) << "the 8 fp8 forms and the 6 m16n8k32 f16 and bf16 forms";
  EXPECT_EQ(f16_taken, 4 * 20) << "the 4 m16n8k32 f16 forms' cases, in the narrow f16 kernel's words too";
}

// The cancellation profile's operand values while a case is drawn (draw_shared_case's scratch, A's rows padded:
// scratch_values) fit every kernel's room for them, after the case: doubles in the general and lean kernels' layout
// (shared_words), floats in the narrow-over-codes kernels'; and the padded A rows start in different banks, for the 16
// rows the lanes read at once. (The fp8 kernel reads its value copy instead: TheFp8KernelsCancelledCIsEachElements.)
TEST(Resident, CancellationValuesFitEveryKernelsLayout) {
  int pairs = 0, over_codes = 0, fp8 = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form)) continue;
    const auto model = model_for(form);
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), model ? &*model : nullptr);
    const resident::PairTables& p = tables.tables;
    const gen::portable::CaseTables& t = p.cases;
    if (p.judge == resident::Judge::integer) continue;
    ++pairs;
    const uint32_t words = resident::case_words(t), aligned = words + (words & 1);
    EXPECT_LE(aligned + 2 * resident::scratch_values(t, 8), resident::shared_words(p)) << form.opcode << ": doubles";
    if (p.narrow_over_codes) {
      ++over_codes;
      EXPECT_LE(aligned + resident::scratch_values(t, 4), resident::narrow_over_codes_shared_words(t)) << form.opcode;
    }
    fp8 += p.narrow_fp8_blocks;
    for (const uint32_t bytes : {4u, 8u}) {
      const uint32_t stride_bytes = resident::scratch_a_stride(t, bytes) * bytes;
      std::set<uint32_t> banks;
      for (uint32_t row = 0; row < 16 && row < t.m; ++row) banks.insert(row * stride_bytes / 4 % 32);
      EXPECT_EQ(banks.size(), std::min<size_t>(16, t.m)) << form.opcode << ", " << bytes << "-byte values";
      if (bytes == 8) for (const uint32_t bank : banks) EXPECT_EQ(banks.count(bank + 1), 0u) << form.opcode << ": a double's two banks";
    }
  }
  EXPECT_EQ(pairs, 24) << "the float forms, each with and without ordered metadata: fp8 k64 (8), f16 and bf16 k16 and k32 (12), tf32 k8 and k16 (4)";
  EXPECT_EQ(over_codes, 14) << "the 8 fp8 forms and the 6 m16n8k32 f16 and bf16 forms";
  EXPECT_EQ(fp8, 8);
}

// A pair's tables as a kernel of one shape reads them (PairTablesOf<FixedCaseDims<kDims>>: the host's bytes, its
// dimensions constants): the same fields where the host wrote them, the same layout sizes, and the same draws,
// registers and judged D on real cases, so that the constants change nothing but the code.
template <gen::portable::CaseDims kDims>
void expect_one_shape_computes_as_the_tables(const Form& form, int selector, const ModelParameters* model) {
  const ResidentPairTables tables = resident_pair_tables(form, selector, model);
  const resident::PairTables& p = tables.tables;
  const gen::portable::CaseTables& t = p.cases;
  resident::PairTablesOf<gen::portable::FixedCaseDims<kDims>> fixed;
  static_assert(sizeof fixed == sizeof p);
  std::memcpy(static_cast<void*>(&fixed), &p, sizeof p);
  const auto& ft = fixed.cases;
  ASSERT_TRUE(ft.holds_its_dims()) << form.opcode;
  EXPECT_EQ(ft.a_count, t.a_count);
  EXPECT_EQ(ft.nibble_count, t.nibble_count);
  EXPECT_EQ(ft.stored_per_chunk_log2, t.stored_per_chunk_log2);
  EXPECT_EQ(ft.profiles, t.profiles);
  EXPECT_EQ(ft.cancellation_profile, t.cancellation_profile);
  EXPECT_EQ(ft.runs[gen::portable::kProfiles - 1][gen::portable::run_noise].next, t.runs[gen::portable::kProfiles - 1][gen::portable::run_noise].next);
  EXPECT_EQ(ft.arena, t.arena);
  EXPECT_EQ(ft.samplers, t.samplers);
  EXPECT_EQ(fixed.layouts, p.layouts);
  EXPECT_EQ(fixed.narrow_pairs, p.narrow_pairs);
  EXPECT_EQ(fixed.narrow_fp8_blocks, p.narrow_fp8_blocks);
  EXPECT_EQ(resident::shared_words(fixed), resident::shared_words(p));
  EXPECT_EQ(resident::fp8_shared_words(ft), resident::fp8_shared_words(t));
  EXPECT_EQ(resident::narrow_over_codes_shared_words(ft), resident::narrow_over_codes_shared_words(t));
  EXPECT_EQ(resident::dump_words(fixed), resident::dump_words(p));
  const gen::CaseSeeds seeds(0x5eed + uint64_t(selector), form);
  for (uint64_t index = 0; index < 8; ++index) {
    const uint64_t seed = seeds.of(index);
    const uint32_t profile = gen::portable::profile_of(t, seed);
    ASSERT_EQ(gen::portable::profile_of(ft, seed), profile);
    const uint32_t counts[] = {0, t.nibble_count, t.a_count, t.b_count, t.c_count};
    for (int run = gen::portable::run_nibbles; run <= gen::portable::run_c; ++run) {
      std::vector<uint32_t> general(counts[run], 0xFFFFFFFFu), constant(counts[run], 0xFFFFFFFFu),
          consecutive(counts[run], 0xFFFFFFFFu);
      for (uint32_t lane = 0; lane < 32; ++lane) {
        gen::portable::draw_codes(t, seed, profile, run, counts[run], lane, 32, general.data());
        gen::portable::draw_codes(ft, seed, profile, run, counts[run], lane, 32, constant.data());
        // as the kernels of one shape deal them
        gen::portable::draw_codes<gen::portable::Dealing::consecutive_draws>(ft, seed, profile, run, counts[run], lane, 32,
                                                                             consecutive.data());
      }
      ASSERT_EQ(constant, general) << form.opcode << " case " << index << " run " << run;
      ASSERT_EQ(consecutive, general) << form.opcode << " case " << index << " run " << run;
    }
    const MmaCase test = drawn_case(form, selector, seeds, index);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      for (int operand : {resident::operand_a, resident::operand_b, resident::operand_c}) {
        const std::vector<uint32_t>& codes = operand == resident::operand_a ? test.a_compressed : operand == resident::operand_b ? test.b : test.c;
        const resident::Registers want = resident::pack_operand(p, operand, codes.data(), lane);
        const resident::Registers got = resident::pack_operand(fixed, operand, codes.data(), lane);
        // unrolled, its elements per lane the shape's constants (lane_elements), as the k16 kernels pack
        const resident::Registers unrolled = resident::pack_operand<true>(fixed, operand, codes.data(), lane);
        for (int r = 0; r < 4; ++r) ASSERT_EQ(got.r[r], want.r[r]) << form.opcode << " lane " << lane << " operand " << operand;
        for (int r = 0; r < 4; ++r)
          ASSERT_EQ(unrolled.r[r], want.r[r]) << form.opcode << " lane " << lane << " operand " << operand << " (unrolled)";
      }
      ASSERT_EQ(resident::metadata_register(fixed, test.nibbles.data(), lane, 77u),
                resident::metadata_register(p, test.nibbles.data(), lane, 77u));
    }
    for (uint32_t idx = 0; idx < t.c_count; ++idx)
      ASSERT_EQ(resident::judged(fixed, p.model, test.a_compressed.data(), test.b.data(), test.c.data(), test.nibbles.data(), idx),
                resident::judged(p, p.model, test.a_compressed.data(), test.b.data(), test.c.data(), test.nibbles.data(), idx))
          << form.opcode << " case " << index << " element " << idx;
    if (p.judge == resident::Judge::narrow_model) {
      const NarrowWords words = judged_words(p, test);
      for (uint32_t idx = 0; idx < t.c_count; ++idx)
        ASSERT_EQ(resident::judged_narrow(fixed, words.a.data(), words.b.data(), test.c.data(), idx),
                  resident::judged_narrow(p, words.a.data(), words.b.data(), test.c.data(), idx))
            << form.opcode << " case " << index << " element " << idx;
    }
    if (p.integer_dense) {
      std::vector<uint32_t> general(resident::dense_words(t), 0u), constant(resident::dense_words(t), 0u);
      resident::spread_integer_dense(p, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, general.data());
      resident::spread_integer_dense(fixed, test.a_compressed.data(), test.b.data(), test.nibbles.data(), 0, 1, constant.data());
      ASSERT_EQ(constant, general) << form.opcode;
      for (uint32_t idx = 0; idx < t.c_count; ++idx)
        ASSERT_EQ(resident::judged_integer_dense(fixed, constant.data(), test.c.data(), idx),
                  resident::judged_integer_dense(p, general.data(), test.c.data(), idx));
    }
    if (p.dense_over_codes) {   // the dense kernels' spread, over the codes in the kernel's layout
      std::vector<uint32_t> general = case_in_kernel_layout(t, test, resident::case_words(t), 0), constant = general;
      const uint32_t nibbles_at = t.a_count + t.b_count + t.c_count;
      resident::spread_integer_dense_over_codes(p, general.data(), general.data() + t.a_count, general.data() + nibbles_at,
                                                0, 1, general.data());
      resident::spread_integer_dense_over_codes(fixed, constant.data(), constant.data() + t.a_count,
                                                constant.data() + nibbles_at, 0, 1, constant.data());
      ASSERT_EQ(constant, general) << form.opcode;
    }
  }
}

// The kernels of one shape (resident_source.h): each kResident*Dims is the dimensions of the forms its kernel takes —
// every fp8 form (narrow_fp8_blocks), every m16n8k128 4-bit one (dense_over_codes), every m16n8k16 f16 and bf16 one —
// and those forms' tables read as that kernel reads them compute what the general tables do.
TEST(Resident, KernelsOfOneShapeComputeAsTheTables) {
  int fp8 = 0, dense = 0, k16 = 0, k16_f16 = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form)) continue;
    const auto model = model_for(form);
    const ModelParameters* m = model ? &*model : nullptr;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), m);
    const resident::PairTables& p = tables.tables;
    const bool is_k16 = form.shape.k == 16 && (form.a == ElemType::f16 || form.a == ElemType::bf16);
    EXPECT_EQ(gen::portable::same_dims(p.cases, kResidentK16Dims), is_k16) << form.opcode;
    if (form.family == "fp8") EXPECT_TRUE(gen::portable::same_dims(p.cases, kResidentFp8Dims)) << form.opcode;
    if (form.shape.k == 128) EXPECT_TRUE(gen::portable::same_dims(p.cases, kResidentDenseDims)) << form.opcode;
    fp8 += p.narrow_fp8_blocks;
    dense += p.dense_over_codes;
    k16 += is_k16;
    // The f16 kernel's pairs (resident.cpp): those of the k16 shape whose operands take f16 words.
    EXPECT_EQ(resident::f16_words_fit(p), !form.is_integer() && form.a == ElemType::f16) << form.opcode;
    k16_f16 += is_k16 && resident::f16_words_fit(p);
    for (int selector : std::set<int>{form.selectors.front(), form.selectors.back()}) {
      if (p.narrow_fp8_blocks) expect_one_shape_computes_as_the_tables<kResidentFp8Dims>(form, selector, m);
      if (p.dense_over_codes) expect_one_shape_computes_as_the_tables<kResidentDenseDims>(form, selector, m);
      if (is_k16) expect_one_shape_computes_as_the_tables<kResidentK16Dims>(form, selector, m);
      if (HasFailure()) return;
    }
  }
  EXPECT_EQ(fp8, 8) << "the fp8 forms";
  EXPECT_EQ(dense, 16) << "the m16n8k128 4-bit forms: four type pairs, with and without .satfinite and ordered metadata";
  EXPECT_EQ(k16, 6) << "m16n8k16 f16->f16, f16->f32 and bf16->f32, with and without ordered metadata";
  EXPECT_EQ(k16_f16, 4) << "m16n8k16 f16->f16 and f16->f32, with and without ordered metadata";
}

// The fp8 kernel's layout (fp8_shared_words): A's words written over the nibbles, from the last elements down, equal
// decode_narrow's, B's words over the codes too, C untouched, and the judge finds the model's D from them; a warp's
// steps of 32 never overwrite a nibble a later step reads (nor do steps of one, as here); 24 warps and the kernel's
// copies in shared memory fit an H100's 227 KB, and the copies hold the pair's cells and tables exactly (the words are
// made from the tables as the kernel copies them: the pair's own f32 tables, and the value copy's chunk columns).
TEST(Resident, Fp8WordsWrittenOverTheNibblesAreTheWords) {
  int taken = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.family != "fp8") continue;
    const auto model = model_for(form);
    ASSERT_TRUE(model) << form.opcode;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &*model);
    const resident::PairTables& p = tables.tables;
    const gen::portable::CaseTables& t = p.cases;
    if (!p.narrow_fp8_blocks || !p.narrow_over_codes) continue;
    ++taken;
    ASSERT_TRUE(resident::fp8_words_over_nibbles_fit(t, 32)) << form.opcode;
    ASSERT_TRUE(resident::fp8_words_over_nibbles_fit(t, 1)) << form.opcode;
    const uint32_t words = resident::fp8_shared_words(t);
    EXPECT_LT(words, resident::narrow_over_codes_shared_words(t)) << form.opcode;
    EXPECT_LE(24u * words * 4u + resident::kFp8StaticSharedBytes, 227u * 1024u) << form.opcode << ": 24 warps on an H100";
    ASSERT_TRUE(resident::fp8_shared_tables_fit(p)) << form.opcode;
    EXPECT_EQ(resident::cell_words(p), resident::kFp8SharedCellWords) << form.opcode << ": the copy is the cells' size";
    for (int operand = 0; operand < 2; ++operand)
      EXPECT_EQ(resident::fp8_table_words(resident::narrow_f32_table(p, operand)), resident::kFp8SharedTableWords)
          << form.opcode << ": 8-bit codes";
    EXPECT_EQ(resident::fp8_a_words_at(t) % 2, 0u) << form.opcode;
    std::vector<uint32_t> value_copy(resident::kFp8ValueCopyWords);
    for (uint32_t x = 0; x < resident::kFp8ValueCopyWords; ++x) value_copy[x] = resident::fp8_value_copy_word(p, x);
    const gen::CaseSeeds seeds(0x0f8, form);
    for (uint64_t index = 0; index < 20; ++index) {
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, index);
      const std::vector<uint32_t> layout = case_in_kernel_layout(t, test, words, 0xA5A5A5A5u);
      std::vector<uint64_t> backing(words / 2);   // 8-byte aligned, as a warp's shared memory
      std::memcpy(backing.data(), layout.data(), size_t(words) * 4);
      uint32_t* shared = reinterpret_cast<uint32_t*>(backing.data());
      const uint32_t* nibbles = shared + t.a_count + t.b_count + t.c_count;
      uint64_t* a_words = backing.data() + resident::fp8_a_words_at(t) / 2;
      resident::decode_fp8_words_over_codes(p, shared, nibbles, 0, 1, a_words,
                                            p.layouts + resident::narrow_f32_table(p, resident::operand_a).offset,
                                            p.layouts + resident::narrow_f32_table(p, resident::operand_b).offset,
                                            value_copy.data() + resident::kFp8ChunkColumnsAt);
      ASSERT_NO_FATAL_FAILURE(expect_words_over_codes(p, test, &*model, shared, a_words, WordKind::fp8_f32,
                                                      form.opcode + " case " + std::to_string(index)));
    }
  }
  EXPECT_EQ(taken, 8) << "the 8 fp8 forms";
}

// The fp8 kernel's copies in shared memory refuse a pair they would not hold: a cell past kFp8SharedCellWords, an
// f32 table of codes wider than 8 bits or of not every code, or none; and resident_pair_tables gives such a pair no
// narrow_fp8_blocks (the kernel would trap on it).
TEST(Resident, TheFp8KernelsSharedCopiesRefuseAPairTheyWouldNotHold) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32");
  const auto model = model_for(form);
  ASSERT_TRUE(model);
  const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &*model);
  const resident::PairTables& held = tables.tables;
  ASSERT_TRUE(held.narrow_fp8_blocks);
  ASSERT_TRUE(resident::fp8_shared_tables_fit(held));
  for (int operand = 0; operand < 4; ++operand) {
    resident::PairTables p = held;
    p.layout[operand] = resident::kFp8SharedCellWords - 32 * p.per_lane[operand] + 1;   // its last cell one past
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "operand " << operand;
    p.layout[operand] -= 1;
    EXPECT_TRUE(resident::fp8_shared_tables_fit(p)) << "operand " << operand << " ending at the copy's end";
  }
  resident::PairTables p = held;
  p.metadata = resident::kFp8SharedCellWords - 32 * 8 + 1;
  EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "the metadata's cells";
  for (int operand = 0; operand < 2; ++operand) {
    p = held;
    p.narrow_tables[operand].index_bits = 9;
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "9-bit codes";
    p = held;
    p.narrow_tables[operand].mantissa_bits = 1;
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "not every code";
    p = held;
    p.narrow_tables[operand].pad_bits = 2;
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "padded codes";
    p = held;
    p.narrow_tables[operand].offset = resident::kNoTable;
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "no table";
    p = held;
    (operand == 0 ? p.cases.a_kind : p.cases.b_kind) = gen::portable::ValueKind::f16;
    EXPECT_FALSE(resident::fp8_shared_tables_fit(p)) << "values not a table of floats";
  }
  // Every pair the kernel takes fits (Fp8WordsWrittenOverTheNibblesAreTheWords checks the 8 fp8 forms' cells too).
  for (const Form& f : instruction_space()) {
    if (!has_resident_kernel(f) || f.is_integer()) continue;
    const auto m = model_for(f);
    for (int selector : f.selectors) {
      const resident::PairTables q = resident_pair_tables(f, selector, m ? &*m : nullptr).tables;
      if (q.narrow_fp8_blocks) EXPECT_TRUE(resident::fp8_shared_tables_fit(q)) << f.opcode << " selector " << selector;
    }
  }
}

// The fp8 kernel's cancellation profile (fp8_cancelled_c_row, from its value copy as fp8_value_copy_word makes it)
// gives every element of C the code portable::cancelled_c_of_values gives it from operand_value, lane by lane, for
// every fp8 pair: codes uniform over every code (NaN and Inf among them, so that some sums are not finite and keep
// their drawn C) and operands all at one extreme code (the all-ones code and the one below the sign bit); and the copy
// holds every code's float (the table each operand's value table is) and the chunk columns. On the host the sum is a
// product and an addition; the kernel's fused multiply-add is the same sum (a product of two floats is exact in
// double), which the GPU resident test's device cases and resident_benchmark's dump check compare with the host's.
TEST(Resident, TheFp8KernelsCancelledCIsEachElements) {
  int pairs = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.family != "fp8") continue;
    const auto model = model_for(form);
    ASSERT_TRUE(model) << form.opcode;
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &*model);
    const resident::PairTables& p = tables.tables;
    const gen::portable::CaseTables& t = p.cases;
    if (!p.narrow_fp8_blocks) continue;
    ++pairs;
    std::vector<uint32_t> copy(resident::kFp8ValueCopyWords);
    for (uint32_t x = 0; x < resident::kFp8ValueCopyWords; ++x) copy[x] = resident::fp8_value_copy_word(p, x);
    const uint64_t a_codes = uint64_t(1) << info(form.a).bits, b_codes = uint64_t(1) << info(form.b).bits;
    ASSERT_LE(std::max(a_codes, b_codes), uint64_t(resident::kFp8SharedValueWords)) << form.opcode;
    ASSERT_EQ(t.a_kind, gen::portable::ValueKind::table) << form.opcode;
    ASSERT_EQ(t.b_kind, gen::portable::ValueKind::table) << form.opcode;
    for (uint32_t code = 0; code < a_codes; ++code)
      ASSERT_EQ(copy[code], t.arena[t.a_values + code]) << form.opcode << " A code " << code;
    for (uint32_t code = 0; code < b_codes; ++code)
      ASSERT_EQ(copy[resident::kFp8SharedValueWords + code], t.arena[t.b_values + code]) << form.opcode << " B code " << code;
    for (uint32_t x = 0; x < gen::portable::kChunkColumnWords; ++x)
      ASSERT_EQ(copy[resident::kFp8ChunkColumnsAt + x], t.arena[t.chunk_columns + x]) << form.opcode << " column word " << x;
    const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width;
    gen::SplitMixDraw draw(0xCA9C + uint64_t(pairs));
    int differing = 0;
    for (int trial = 0; trial < 24; ++trial) {
      const test::CancellationInputs in = test::cancellation_inputs(t, trial, a_codes, b_codes, draw);
      const std::vector<uint32_t> &a = in.a, &b = in.b, &c = in.c, &nibbles = in.nibbles;
      const auto nibble = [&](uint32_t i, uint32_t chunk) { return nibbles[i * chunks + chunk]; };
      const auto a_value = [&](uint32_t i, uint32_t s) { return gen::portable::operand_value(t, t.a_kind, t.a_values, a[i * stored + s]); };
      const auto b_value = [&](uint32_t row, uint32_t j) { return gen::portable::operand_value(t, t.b_kind, t.b_values, b[row * t.n + j]); };
      std::vector<uint32_t> cancelled = c;
      for (uint32_t lane = 0; lane < 32; ++lane)
        resident::fp8_cancelled_c_row(t, a.data(), b.data(), nibbles.data(), copy.data(), lane, cancelled.data());
      for (uint32_t e = 0; e < t.c_count; ++e) {
        const uint32_t i = e >> t.n_log2, j = e & (t.n - 1);
        const uint32_t expected = gen::portable::cancelled_c_of_values(t, i, j, c[e], a_value, b_value, nibble);
        ASSERT_EQ(cancelled[e], expected) << form.opcode << " trial " << trial << " C[" << i << "][" << j << "]";
        differing += expected != c[e];
      }
    }
    EXPECT_GT(differing, 0) << form.opcode << ": no element was cancelled, so nothing was compared";
  }
  EXPECT_EQ(pairs, 8) << "the 8 fp8 forms";
}

// The fp8 kernel packs A four codes at a time (pack_contiguous_bytes): a pair whose A cells are not four consecutive
// codes a register, the first on 16 bytes, is refused, as are B's (column by column); every fp8 k64 pair has them.
TEST(Resident, TheFp8KernelsContiguousPackingRefusesCellsThatAreNotFourInARow) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32");
  const auto model = model_for(form);
  ASSERT_TRUE(model);
  const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &*model);
  const resident::PairTables& held = tables.tables;
  ASSERT_TRUE(held.narrow_fp8_blocks);
  ASSERT_TRUE(resident::fp8_a_bytes_contiguous(held));
  EXPECT_FALSE(resident::contiguous_bytes(held, resident::operand_b)) << "B's bytes run down a column";
  std::vector<uint32_t> layouts(held.layouts, held.layouts + resident::cell_words(held));
  resident::PairTables p = held;
  p.layouts = layouts.data();
  const auto cell = [&](uint32_t element, uint32_t lane) -> uint32_t& {
    return layouts[p.layout[resident::operand_a] + resident::layout_cell(element, lane)];
  };
  for (uint32_t lane : {0u, 13u, 31u}) {
    for (uint32_t element : {0u, 5u, 15u}) {
      std::swap(cell(element, lane), cell(element ^ 1, lane));   // two codes of a register in the other order
      EXPECT_FALSE(resident::contiguous_bytes_of_lane(p, resident::operand_a, lane, p.layouts))
          << "lane " << lane << " element " << element;
      EXPECT_FALSE(resident::fp8_a_bytes_contiguous(p));
      std::swap(cell(element, lane), cell(element ^ 1, lane));
      EXPECT_TRUE(resident::fp8_a_bytes_contiguous(p));
    }
    const uint32_t first = cell(4, lane);   // a register's four codes one place on: consecutive, not on 16 bytes
    for (uint32_t k = 0; k < 4; ++k) cell(4 + k, lane) = first + 1 + k;
    EXPECT_FALSE(resident::contiguous_bytes_of_lane(p, resident::operand_a, lane, p.layouts)) << "lane " << lane;
    for (uint32_t k = 0; k < 4; ++k) cell(4 + k, lane) = first + k;
  }
  EXPECT_TRUE(resident::fp8_a_bytes_contiguous(p));
  p.container_bits[resident::operand_a] = 16;
  EXPECT_FALSE(resident::fp8_a_bytes_contiguous(p)) << "16-bit containers";
  // Every fp8 k64 pair has them, so that each still takes the fp8 kernel.
  int fp8_pairs = 0;
  for (const Form& f : instruction_space()) {
    if (!has_resident_kernel(f) || f.is_integer() || f.shape.k != 64) continue;
    const auto m = model_for(f);
    for (int selector : f.selectors) {
      const ResidentPairTables kept = resident_pair_tables(f, selector, m ? &*m : nullptr);   // q.layouts points in it
      const resident::PairTables& q = kept.tables;
      if (!q.narrow_fp8_blocks) continue;
      ++fp8_pairs;
      EXPECT_TRUE(resident::fp8_a_bytes_contiguous(q)) << f.opcode << " selector " << selector;
    }
  }
  EXPECT_EQ(fp8_pairs, 8) << "the eight fp8 forms, one selector each";
}

// A stored element that metadata placed on another's column would overwrite it in dense A: tables whose drawable
// nibbles name a column twice keep the general integer judge.
TEST(Resident, TheDenseIntegerJudgeRefusesMetadataThatRepeatsAColumn) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  ResidentPairTables tables = resident_pair_tables(form, 0, nullptr);
  ASSERT_TRUE(tables.tables.integer_dense);
  std::vector<uint32_t> arena = tables.cases.arena;
  resident::PairTables p = tables.tables;
  const uint32_t nibble = arena[p.cases.chunk_nibbles + 17] & 0xFFu;   // one nibble the generator draws
  arena[p.cases.chunk_columns + nibble * 4 + 1] = arena[p.cases.chunk_columns + nibble * 4];
  p.cases.arena = arena.data();
  EXPECT_FALSE(resident::integer_dense_fits(p));
  p.cases.arena = tables.cases.arena.data();
  EXPECT_TRUE(resident::integer_dense_fits(p));
  p.a_bits = 16;   // a code wider than a byte
  EXPECT_FALSE(resident::integer_dense_fits(p));
}

// decode_narrow's tables give every code of every narrow pair's A and B formats the word decode_operand and
// narrow::pack give it (the f16, bf16 and tf32 tables by sign, exponent and a zero mantissa; fp8's by the whole code),
// and the fp8 kernel's tables (narrow_f32_table) its f32 word: the same field, and the value as an f32.
TEST(Resident, NarrowTablesLookUpEveryCodeAsDecoded) {
  int tables = 0;
  uint64_t whole_code_lookups = 0, f32_lookups = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.is_integer()) continue;
    const ModelParameters model = *model_for(form);
    const ResidentPairTables built = resident_pair_tables(form, form.selectors.front(), &model);
    const resident::PairTables& p = built.tables;
    const model::OperandFormat* formats[2] = {&p.a_format, &p.b_format};
    for (int operand = 0; operand < 2; ++operand) {
      const resident::NarrowTable& table = p.narrow_tables[operand];
      ASSERT_NE(table.offset, resident::kNoTable) << form.opcode << " operand " << operand;
      ++tables;
      const model::OperandFormat& f = *formats[operand];
      for (uint32_t field = 0; field < (1u << f.code_bits()); ++field) {
        const uint32_t code = field << f.low_pad_bits;
        const uint64_t decoded = model::narrow::pack(model::decode_operand(code, f, p.model.subnormal_inputs));
        ASSERT_EQ(resident::narrow_looked_up(p.layouts + table.offset, table.pad_bits, table.mantissa_bits,
                                             table.index_bits, code),
                  decoded)
            << form.opcode << " operand " << operand << " code 0x" << std::hex << code;
        // The fp8 kernel's lookup of a table that holds every code (decode_narrow_over_codes).
        if (table.mantissa_bits == 0 && table.pad_bits == 0) {
          ASSERT_EQ(resident::narrow_code_looked_up(p.layouts + table.offset, table.index_bits, code), decoded)
              << form.opcode << " operand " << operand << " code 0x" << std::hex << code << ", whole-code lookup";
          ++whole_code_lookups;
        }
        // The fp8 kernel's table of f32 words: pack()'s field, kF32Special for Inf and NaN, and the value as an f32.
        if (!p.narrow_fp8_blocks) continue;
        const resident::NarrowTable f32_table = resident::narrow_f32_table(p, operand);
        ASSERT_LE(f32_table.offset + resident::narrow_table_words(f32_table.index_bits), built.layouts.size()) << form.opcode;
        const model::Value value = model::decode_operand(code, f, p.model.subnormal_inputs);
        const uint64_t f32_word = resident::narrow_code_looked_up(p.layouts + f32_table.offset, f32_table.index_bits, code);
        const std::string what = form.opcode + " operand " + std::to_string(operand) + " code " + std::to_string(code);
        ASSERT_EQ(f32_word, model::narrow::pack_f32(value)) << what;
        const uint32_t low = uint32_t(f32_word);
        ASSERT_EQ((low & ~model::narrow::kF32Special) >> 16, uint32_t(decoded) >> 16) << what << ": the field as pack() has it";
        ASSERT_EQ((low & model::narrow::kF32Special) != 0, value.cls == model::Value::infinite || value.cls == model::Value::nan)
            << what << ": kF32Special";
        ASSERT_EQ(low & 0xFFFFu, 0u) << what << ": no tag";
        const float as_f32 = std::bit_cast<float>(uint32_t(f32_word >> 32));
        if (value.cls == model::Value::nan) {
          ASSERT_TRUE(std::isnan(as_f32)) << what;
        } else {
          const double exact = value.cls == model::Value::infinite ? INFINITY
                               : value.cls == model::Value::zero   ? 0.0
                                                                   : std::ldexp(double(value.significand), value.exponent);
          ASSERT_EQ(double(as_f32), value.negative ? -exact : exact) << what;
          ASSERT_EQ(std::signbit(as_f32), value.negative) << what;
        }
        ++f32_lookups;
      }
    }
  }
  EXPECT_GE(tables, 40);
  EXPECT_GE(whole_code_lookups, 16u * 256u);   // the eight fp8 forms' A and B, every code
  EXPECT_EQ(f32_lookups, 16u * 256u);          // and their f32 words
  // A format whose subnormals are flushed: the same table scheme, its subnormals zeros.
  model::OperandFormat f16{5, 10, 15, 0, 0, false};
  uint32_t mantissa_bits = 0, index_bits = 0;
  ASSERT_TRUE(resident::narrow_table_fits(f16, &mantissa_bits, &index_bits));
  std::vector<uint32_t> flushed(resident::narrow_table_words(index_bits));
  resident::narrow_table(f16, Subnormals::flushed, mantissa_bits, index_bits, flushed.data());
  for (uint32_t code = 0; code < 0x10000u; ++code)
    ASSERT_EQ(resident::narrow_looked_up(flushed.data(), 0, mantissa_bits, index_bits, code),
              model::narrow::pack(model::decode_operand(code, f16, Subnormals::flushed)))
        << "flushed f16 code 0x" << std::hex << code;
  // fp8 with f16 fields: its field depends on the mantissa, so it is looked up whole (8 bits), never split.
  model::OperandFormat e4m3{4, 3, 7, 0, 1, true};
  ASSERT_TRUE(resident::narrow_table_fits(e4m3, &mantissa_bits, &index_bits));
  EXPECT_EQ(mantissa_bits, 0u);
  model::OperandFormat wide_fp8_fields{5, 10, 15, 0, 0, true};
  EXPECT_FALSE(resident::narrow_table_fits(wide_fp8_fields, &mantissa_bits, &index_bits));
  // f32 words fit fp8 (its every product exact and normal, scaled to the block's lsb); not bf16, whose products of
  // subnormals fall below f32's normal range.
  EXPECT_TRUE(model::narrow::f32_words_fit(e4m3, 25));
  EXPECT_TRUE(model::narrow::f32_words_fit(model::OperandFormat{5, 2, 15, 0, 0, true}, 25));
  EXPECT_FALSE(model::narrow::f32_words_fit(model::OperandFormat{8, 7, 127, 0, 0, false}, 25));
}

// The unrolled elements sum a block's products in 32 bits (narrow::products_fit_32). The largest sums a block can
// have: every A and B element the largest significand of one binade, all of one sign, every product at the block's
// top, with C zero, of the products' own binade, or far below them; each must equal the model.
TEST(Resident, TheNarrowThirtyTwoBitSumsHoldTheLargestBlocks) {
  EXPECT_TRUE(model::narrow::products_fit_32(16, 25));
  EXPECT_FALSE(model::narrow::products_fit_32(17, 25));
  EXPECT_FALSE(model::narrow::products_fit_32(16, 26));
  EXPECT_TRUE(model::narrow::products_fit_32(1, 28));
  EXPECT_FALSE(model::narrow::products_fit_32(1, 29));
  int forms = 0;
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form) || form.is_integer()) continue;
    const ModelParameters model = *model_for(form);
    const ResidentPairTables tables = resident_pair_tables(form, form.selectors.front(), &model);
    const resident::PairTables& p = tables.tables;
    if (p.narrow_one_block == 0 && !p.narrow_fp8_blocks) continue;
    ++forms;
    // The code of +-(2 - ulp) * 2^exponent in `type` (biased exponent field `field`).
    const auto largest = [](ElemType type, uint32_t field, bool negative) {
      const FloatFormat& f = *float_format(type);
      const uint32_t code = (field << f.mantissa_bits | ((1u << f.mantissa_bits) - 1)) << f.low_pad_bits;
      return code | (negative ? 1u << (f.low_pad_bits + f.mantissa_bits + f.exponent_bits) : 0u);
    };
    const FloatFormat& af = *float_format(form.a);
    const FloatFormat& bf = *float_format(form.b);
    const FloatFormat& cf = *float_format(form.c);
    const gen::CaseSeeds seeds(0x5eed, form);
    for (int variant = 0; variant < 8; ++variant) {
      const bool negative = variant & 1;
      MmaCase test = drawn_case(form, form.selectors.front(), seeds, uint64_t(variant));   // its metadata
      for (auto& x : test.a_compressed) x = largest(form.a, uint32_t(af.bias), negative);
      for (auto& x : test.b) x = largest(form.b, uint32_t(bf.bias + (variant & 2 ? 1 : 0)), false);
      // C: zero, or +-(2 - ulp) times 2^(log2 of the block's product sum), or 2^-10 of it, of the products' sign.
      const int c_binade = (variant >> 2) == 0 ? 0 : (variant & 2 ? 6 : 5) - ((variant >> 2) == 2 ? 10 : 0);
      for (auto& x : test.c) x = (variant >> 2) == 0 ? 0u : largest(form.c, uint32_t(cf.bias + c_binade), negative);
      if (!undefined_behaviour(test).empty()) continue;
      const std::vector<uint32_t> expected = model_result(test, model);
      const NarrowWords words = judged_words(p, test);
      for (uint32_t idx = 0; idx < uint32_t(expected.size()); ++idx)
        ASSERT_EQ(resident::judged_narrow(p, words.a.data(), words.b.data(), test.c.data(), idx), expected[idx])
            << form.opcode << " variant " << variant << " element " << idx;
    }
  }
  EXPECT_GE(forms, 20);
}

// narrow::aligned_at aligns a value by one number m either way: left by 32 - m while m is below 32, right by m - 32
// (the bits shifted out cut off) from there, 0 from 64 on, as the left and right shifts it replaced did, for every m
// a 32-bit register can hold.
TEST(ModelArithmetic, AlignedAtShiftsEitherWay) {
  const uint32_t values[] = {0u, 1u, 3u, 0x7FFu, 0x3FFFFFu, 0x12345u, 0x1FFFFFFu, 0x40000000u, 0xFFFFFFFFu};
  for (uint32_t value : values)
    for (uint64_t m = 0; m <= 0xFFFFFFFFu; m = m < 200 ? m + 1 : m * 3 + 1) {
      uint32_t expected = 0;
      if (m < 32) expected = uint32_t(uint64_t(value) << (32 - m));   // the low word
      else if (m < 64) expected = value >> (m - 32);
      ASSERT_EQ(model::narrow::aligned_at(value, uint32_t(m)), expected) << "value " << value << ", m " << m;
    }
  ASSERT_EQ(model::narrow::aligned_at(0x3FFFFFu, 0xFFFFFFFFu), 0u);   // a shift past the product's top, read unsigned
}

// A packed word's tag has one place: pack(v, tag) (which writes it in the high half itself) is with_tag(pack(v), tag)
// for every tag that fits kTagBits and every class of value, tag() reads it back, and the tag leaves the value's bits
// (the significand, flags and both low-half sums) as they were.
TEST(ModelArithmetic, NarrowTagsAreOnePlace) {
  model::Value finite;
  finite.cls = model::Value::finite;
  finite.negative = true;
  finite.significand = 0x5A5;
  finite.exponent = -20;
  finite.field = -10;
  model::Value values[4] = {model::Value{}, finite, finite, finite};
  values[2].cls = model::Value::infinite;
  values[3].cls = model::Value::nan;
  const uint64_t value_bits = (uint64_t(1) << (32 + model::narrow::kTagShift)) - 1;
  for (const model::Value& v : values)
    for (uint32_t tag = 0; tag < (1u << model::narrow::kTagBits); tag += tag < 64 ? 1 : 997) {
      const uint64_t packed = model::narrow::pack(v, tag);
      ASSERT_EQ(packed, model::narrow::with_tag(model::narrow::pack(v), tag)) << "tag " << tag;
      ASSERT_EQ(model::narrow::tag(packed), tag);
      ASSERT_EQ(packed & value_bits, model::narrow::pack(v));
    }
  EXPECT_EQ(model::narrow::tag(model::narrow::with_tag(0, (1u << model::narrow::kTagBits) - 1)),
            (1u << model::narrow::kTagBits) - 1);
}

// A narrow pair needs the verified choices and operands that pack; anything else keeps the general model.
// model::for_block walks a block's products without block_of's divisions; block_of stays the rule.
TEST(ModelArithmetic, ForBlockEnumeratesBlockOf) {
  for (int interleave : {0, 1, 2, 4})
    for (int products : {4, 8, 16})
      for (int stored : {2, 4, 8, 16, 32, 64}) {
        model::Parameters p;
        p.block_interleave = interleave;
        p.block_products = products;
        const int blocks = (stored + products - 1) / products;
        for (int block = 0; block < blocks; ++block) {
          std::vector<int> walked, expected;
          model::for_block(p, block, blocks, stored, [&](int s) { walked.push_back(s); });
          for (int s = 0; s < stored; ++s)
            if (model::block_of(p, s, blocks) == block) expected.push_back(s);
          ASSERT_EQ(walked, expected) << "interleave " << interleave << ", " << products << " per block, " << stored
                                      << " stored, block " << block;
        }
      }
}

// The compile-time walk (for_fixed_block) visits the same products as for_block, in the same order.
template <int kStored, int kBlockProducts, int kInterleave, int kGroup>
void expect_fixed_walk_is_for_block() {
  model::Parameters p;
  p.block_interleave = kInterleave;
  p.block_products = kBlockProducts;
  constexpr int blocks = kStored / kBlockProducts;
  for (int block = 0; block < blocks; ++block) {
    std::vector<int> fixed, walked;
    model::narrow::for_fixed_block<kStored, kBlockProducts, kInterleave, kGroup>(block, [&](int s) { fixed.push_back(s); });
    model::for_block(p, block, blocks, kStored, [&](int s) { walked.push_back(s); });
    EXPECT_EQ(fixed, walked) << kStored << " stored, blocks of " << kBlockProducts << " interleaved by " << kInterleave
                             << ", groups of " << kGroup << ", block " << block;
  }
}
TEST(ModelArithmetic, FixedBlockWalkIsForBlock) {
  expect_fixed_walk_is_for_block<32, 16, 2, 4>();   // the sm_90 fp8 record (the kernel's instance)
  expect_fixed_walk_is_for_block<32, 16, 2, 2>();
  expect_fixed_walk_is_for_block<32, 8, 4, 4>();
  expect_fixed_walk_is_for_block<64, 16, 0, 4>();
  expect_fixed_walk_is_for_block<16, 16, 0, 16>();
}

TEST(Resident, ParametersOutsideTheNarrowModelKeepTheGeneralOne) {
  const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ModelParameters model = *model_for(form);
  EXPECT_EQ(resident_pair_tables(form, 0, &model).tables.judge, resident::Judge::narrow_model);
  ModelParameters rounding = model;
  rounding.shifted_out = ShiftedOut::nearest_even;
  EXPECT_EQ(resident_pair_tables(form, 0, &rounding).tables.judge, resident::Judge::float_model);
  ModelParameters wide = model;
  wide.fraction_bits = model::narrow::kNarrowFractionBits + 1;
  EXPECT_EQ(resident_pair_tables(form, 0, &wide).tables.judge, resident::Judge::float_model);
  model::OperandFormat f32 = model_operand_format(ElemType::f32, model);
  EXPECT_FALSE(model::narrow::fits(f32)) << "24 significand bits do not pack";
}

TEST(Resident, VerifiedRecordsTakeAFastPath) {
  // The kernel's instantiations for fixed choices (resident_abi.h) must cover every verified sm_90 record, or the
  // resident path silently runs the general (slower) arithmetic; the results are the same either way (above).
  for (const ModelRecord& record : model_records())
    if (record.architecture == "sm_90" && record.verified)
      EXPECT_TRUE(resident::has_fast_path(record.parameters)) << record.family << ": " << record.parameters.str();
}

// The format constants the portable code restates (device code cannot read number_format's table) are the table's.
TEST(ModelArithmetic, FormatConstantsAreNumberFormats) {
  const auto expect_format = [](const model::ResultFormat& got, ElemType type) {
    const FloatFormat& f = *float_format(type);
    EXPECT_EQ(got.mantissa_bits, f.mantissa_bits) << ptx_name(type);
    EXPECT_EQ(got.min_exponent, 1 - f.bias) << ptx_name(type);
    EXPECT_EQ(got.max_exponent, (1 << f.exponent_bits) - 2 - f.bias) << ptx_name(type);
  };
  expect_format(model::f32_format(), ElemType::f32);
  expect_format(model::f16_format(), ElemType::f16);
  EXPECT_EQ(model::kF16Bias, float_format(ElemType::f16)->bias);
  EXPECT_EQ(model::kF32MinSubnormalExponent, 1 - float_format(ElemType::f32)->bias - float_format(ElemType::f32)->mantissa_bits);
  gen::portable::CaseTables none;
  const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b)); };
  for (uint32_t code = 0; code < 0x10000; ++code) {
    ASSERT_TRUE(same(gen::portable::operand_value(none, gen::portable::ValueKind::f16, 0, code), decode_to_double(ElemType::f16, code))) << code;
    ASSERT_TRUE(same(gen::portable::operand_value(none, gen::portable::ValueKind::bf16, 0, code), decode_to_double(ElemType::bf16, code))) << code;
  }
  for (uint32_t i = 0; i < 0x80000; i += 7) {   // tf32: 19 code bits above 13 padding bits
    const uint32_t code = i << 13;
    ASSERT_TRUE(same(gen::portable::operand_value(none, gen::portable::ValueKind::tf32, 0, code), decode_to_double(ElemType::tf32, code))) << code;
  }
}

// decode_operand's field is the value's binade (floor of log2 |value|), at least the smallest normal one (f16's with
// fp8_fields_as_f16): checked against the value number_format decodes, for every code of every signed float format
// (f32: every exponent with assorted mantissas), with subnormals kept and flushed.
TEST(ModelArithmetic, TheDecodedFieldIsTheBinadeOfEveryCode) {
  uint64_t finite = 0;
  for (const ElemType type : {ElemType::f16, ElemType::bf16, ElemType::tf32, ElemType::f32, ElemType::e4m3,
                              ElemType::e5m2, ElemType::e3m2, ElemType::e2m3, ElemType::e2m1}) {
    const FloatFormat& format = *float_format(type);
    const int code_bits = 1 + format.exponent_bits + format.mantissa_bits;
    std::vector<uint32_t> codes;
    if (code_bits <= 19) {
      for (uint32_t field = 0; field < (1u << code_bits); ++field) codes.push_back(field << format.low_pad_bits);
    } else {
      gen::SplitMixDraw bits(0xb1ade);
      for (uint32_t top = 0; top < (1u << (1 + format.exponent_bits)); ++top)
        for (const uint32_t mantissa : {0u, 1u, 2u, 3u, 0x400000u, 0x7FFFFFu, uint32_t(bits.bits()) & 0x7FFFFFu})
          codes.push_back(top << format.mantissa_bits | mantissa);
    }
    for (const bool f16_fields : {false, true}) {
      if (f16_fields && type != ElemType::e4m3 && type != ElemType::e5m2) continue;
      ModelParameters parameters;
      parameters.fp8_fields_as_f16 = f16_fields;
      const model::OperandFormat f = model_operand_format(type, parameters);
      const int smallest_normal = 1 - (f16_fields ? model::kF16Bias : format.bias);
      for (const Subnormals subnormals : {Subnormals::kept, Subnormals::flushed})
        for (const uint32_t code : codes) {
          const model::Value v = model::decode_operand(code, f, subnormals);
          const double value = decode_to_double(type, code);
          if (v.cls != model::Value::finite) continue;
          ++finite;
          ASSERT_TRUE(std::isfinite(value) && value != 0) << ptx_name(type) << " code " << code;
          ASSERT_EQ(v.field, std::max(std::ilogb(value), smallest_normal))
              << ptx_name(type) << " code " << code << (f16_fields ? " (f16 fields)" : "");
        }
    }
  }
  EXPECT_GT(finite, 1000000u);
}

// model::rounded_code (the narrow judge's rounding and encoding in one pass) against round_to then encode_value, for
// both result formats and both roundings the sm_90 records use, on every exponent from below the smallest subnormal's
// half to above the largest finite value, with magnitudes at and around every power of two, every exact tie of every
// shift, and random bits of every length.
TEST(ModelArithmetic, RoundedCodeIsRoundToEncoded) {
  const resident::Sm90Choices choices{};
  std::vector<uint64_t> magnitudes;
  for (int bits = 0; bits < 64; ++bits) {
    const uint64_t power = uint64_t(1) << bits;
    for (const uint64_t m : {power, power - 1, power + 1, power | (power >> 1), power | 1}) magnitudes.push_back(m);
    if (bits >= 1)   // ties: x followed by a one and zeros at shift `bits`, x even and odd
      for (const uint64_t x : {0ull, 1ull, 2ull, 3ull, 0x5ull, 0xFFFFFFull})
        if (x < (uint64_t(1) << (64 - bits))) magnitudes.push_back((x << bits) | (power >> 1));
  }
  gen::SplitMixDraw draw(0x20261127);
  for (int i = 0; i < 400; ++i) magnitudes.push_back(draw.bits() >> (i % 64));
  uint64_t compared = 0, finite = 0;
  for (const bool f16 : {false, true}) {
    const model::ResultFormat format = f16 ? model::f16_format() : model::f32_format();
    for (const Rounding rounding : {Rounding::toward_zero, Rounding::nearest_even})
      for (const bool negative : {false, true})
        for (const uint64_t magnitude : magnitudes) {
          if (magnitude == 0) continue;
          const int length = model::bit_length(magnitude);
          const int lowest = format.min_exponent - format.mantissa_bits - 3, highest = format.max_exponent + 2;
          for (int leading = lowest; leading <= highest; ++leading) {
            const int exponent = leading - (length - 1);
            const uint32_t expected = model::encode_value(
                format, model::round_to(format, negative, magnitude, exponent, rounding, choices, model::NoEvents{}),
                choices.canonical_nan);
            ASSERT_EQ(model::rounded_code(format, negative, magnitude, exponent, rounding, choices), expected)
                << (f16 ? "f16" : "f32") << (rounding == Rounding::nearest_even ? " nearest" : " toward zero")
                << (negative ? " -" : " +") << magnitude << " * 2^" << exponent;
            ++compared;
            finite += (expected & ~format.sign_bit) < format.infinity && (expected & ~format.sign_bit) != 0;
          }
        }
  }
  EXPECT_GT(compared, 1000000u);
  EXPECT_GT(finite, compared / 2);   // most land inside the range, not only on zero or Inf
}

// model::narrow::f32_toward_zero_code (an f32 element's finishing where 2^exponent is a normal f32: the magnitude truncated to
// 24 significant bits, then one f32 multiplication) against rounded_code toward zero, on every exponent it takes, both
// signs, with magnitudes at and around every power of two, runs of ones just above and below the 24 bits kept, and
// random bits of every length: normal results, the largest finite ones, and overflow to Inf.
TEST(ModelArithmetic, F32TowardZeroCodeIsRoundedCode) {
  const resident::Sm90Choices choices{};
  const model::ResultFormat f32 = model::f32_format();
  std::vector<uint64_t> magnitudes;
  for (int bits = 0; bits < 64; ++bits) {
    const uint64_t power = uint64_t(1) << bits;
    for (const uint64_t m : {power, power - 1, power + 1, power | (power >> 1), (power - 1) | power})
      if (m) magnitudes.push_back(m);
    for (const int kept : {23, 24, 25})   // ones just past the 24 bits kept, then zeros
      if (bits >= kept) magnitudes.push_back(((uint64_t(1) << kept) - 1) << (bits - kept + 1));
  }
  gen::SplitMixDraw draw(0x20261129);
  for (int i = 0; i < 600; ++i) magnitudes.push_back(draw.bits() >> (i % 64));
  uint64_t compared = 0, infinite = 0, largest = 0;
  for (const bool negative : {false, true})
    for (const uint64_t magnitude : magnitudes) {
      // A total is a signed 64-bit sum: up to 2^63 - 1, or 2^63 below zero.
      if (magnitude == 0 || magnitude > (uint64_t(1) << 63) || (magnitude >> 63 && !negative)) continue;
      const long long total = negative ? (long long)(0 - magnitude) : (long long)magnitude;
      for (int exponent = -126; exponent <= 127; ++exponent) {
        const uint32_t expected = model::rounded_code(f32, negative, magnitude, exponent, Rounding::toward_zero, choices);
        ASSERT_EQ(model::narrow::f32_toward_zero_code(total, exponent), expected)
            << (negative ? "-" : "+") << magnitude << " * 2^" << exponent;
        ++compared;
        infinite += (expected & ~f32.sign_bit) == f32.infinity;
        largest += (expected & ~f32.sign_bit) == f32.infinity - 1;
      }
    }
  EXPECT_GT(compared, 300000u);
  EXPECT_GT(infinite, 10000u);   // overflow to Inf is reached
  EXPECT_GT(largest, 10u);       // and the largest finite value, just below it
}

// f32_sum_code, the fp8 judge's addition of C (one f32 addition, the device's or the host's), is ieee_add encoded: on
// every pair of a set of edge codes (zeros, subnormals, the normal range's ends, Inf, NaN, each sign), on codes one
// unit from each other's negation (cancellation to a last bit or to zero), on sums that overflow or land on a tie, and
// on random codes (every bit pattern, and pairs a few binades apart).
TEST(ModelArithmetic, F32SumCodeIsIeeeAdd) {
  const resident::Sm90FaddChoices choices{};
  const model::OperandFormat f32 = resident::narrow_accumulator_format(false);
  const auto expected = [&](uint32_t a, uint32_t c) {
    return model::encode_value(model::f32_format(),
                               model::ieee_add(model::decode_operand(a, f32, Subnormals::kept),
                                               model::decode_operand(c, f32, Subnormals::kept), choices, model::NoEvents{}),
                               choices.canonical_nan);
  };
  std::vector<uint32_t> edges;
  for (const uint32_t magnitude : {0x0u, 0x1u, 0x2u, 0x3u, 0x7FFFFFu, 0x400000u, 0x800000u, 0x800001u, 0xFFFFFFu,
                                   0x1000000u, 0x3F800000u, 0x3F800001u, 0x3FFFFFFFu, 0x4B000000u, 0x4B7FFFFFu,
                                   0x7F000000u, 0x7F7FFFFEu, 0x7F7FFFFFu, 0x7F800000u, 0x7F800001u, 0x7FC00000u,
                                   0x7FFFFFFFu})
    for (const uint32_t sign : {0u, 0x80000000u}) edges.push_back(magnitude | sign);
  uint64_t compared = 0, zeros = 0, nans = 0;
  const auto check = [&](uint32_t a, uint32_t c) {
    const uint32_t want = expected(a, c);
    ASSERT_EQ(model::narrow::f32_sum_code(a, c), want) << std::hex << "0x" << a << " + 0x" << c;
    ++compared;
    zeros += want == 0;
    nans += want == model::f32_format().canonical_nan;
  };
  for (const uint32_t a : edges)
    for (const uint32_t c : edges) check(a, c);
  gen::SplitMixDraw draw(0x20261128);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t a = uint32_t(draw.bits());
    check(a, uint32_t(draw.bits()));
    check(a, a ^ 0x80000000u);                                        // x + -x: +0
    check(a, (a ^ 0x80000000u) + uint32_t(draw.bits() % 3) - 1u);     // a last-bit residue
    // a's exponent field moved by -30 .. 29, kept within 0 .. 254 (finite): the two up to 30 binades apart.
    const int exponent = std::clamp(int((a >> 23) & 0xFFu) + int(draw.bits() % 60) - 30, 0, 254);
    const uint32_t near = (a & 0x807FFFFFu) | uint32_t(exponent) << 23;
    check(a, near ^ (draw.bits() & 1 ? 0x80000000u : 0u));
  }
  EXPECT_GT(compared, 800000u);
  EXPECT_GT(zeros, 200000u);   // the negations above
  EXPECT_GT(nans, 1000u);
}

// Rounding depends on the value alone: m * 2^e rounds as (m >> z) * 2^(e + z) does, where m has z trailing zero bits.
// So the magnitude's width cannot matter. A value shifted 64 places below its quantum (m's top bit at bit 63, exactly
// half the quantum) once rounded to nearest even as above the half: 2^63 * 2^e rounded up to the smallest subnormal,
// where 1 * 2^(e + 63) is a tie that rounds to the even 0. round_to and rounded_code, both formats, both roundings.
TEST(ModelArithmetic, RoundingDependsOnlyOnTheValue) {
  const resident::Sm90Choices choices{};
  std::vector<uint64_t> odd_parts = {1, 3, 5, 0xB, 0x7F, 0x3FF, 0xFFF, 0x1FFFFFF, 0x2AAAAAAB};
  uint64_t compared = 0, nonzero = 0;
  for (const bool f16 : {false, true}) {
    const model::ResultFormat format = f16 ? model::f16_format() : model::f32_format();
    for (const Rounding rounding : {Rounding::toward_zero, Rounding::nearest_even})
      for (const uint64_t odd : odd_parts)
        for (int zeros = 1; model::bit_length(odd) + zeros <= 64; ++zeros) {
          const uint64_t wide = odd << zeros;
          const int length = model::bit_length(odd);
          for (int leading = format.min_exponent - format.mantissa_bits - 3; leading <= format.max_exponent + 2; ++leading) {
            const int exponent = leading - (length - 1);   // of `odd`; `wide` sits `zeros` places lower
            const auto code = [&](uint64_t m, int e) {
              return model::encode_value(format, model::round_to(format, false, m, e, rounding, choices, model::NoEvents{}),
                                         choices.canonical_nan);
            };
            const uint32_t expected = code(odd, exponent);
            ASSERT_EQ(code(wide, exponent - zeros), expected)
                << "round_to " << (f16 ? "f16" : "f32") << (rounding == Rounding::nearest_even ? " nearest " : " toward zero ")
                << odd << " * 2^" << exponent << " as " << wide << " * 2^" << exponent - zeros;
            ASSERT_EQ(model::rounded_code(format, false, wide, exponent - zeros, rounding, choices), expected)
                << "rounded_code " << (f16 ? "f16" : "f32") << (rounding == Rounding::nearest_even ? " nearest " : " toward zero ")
                << wide << " * 2^" << exponent - zeros;
            ++compared;
            nonzero += expected != 0;
          }
        }
  }
  EXPECT_GT(compared, 100000u);
  EXPECT_GT(nonzero, compared / 2);
}

// dump_disagreement (what gpu_resident_test and resident_benchmark ask of the cases a GPU dumps) finds nothing in the
// host's own cases and D, and names the case and the operand or element of D where one differs: a float form
// (judged by the model) and an integer one (by the exact reference).
TEST(Resident, DumpDisagreementNamesWhatDiffers) {
  for (const bool integer : {false, true}) {
    const Form* chosen = nullptr;
    for (const Form& form : instruction_space())
      if (has_resident_kernel(form) && form.is_integer() == integer && (integer || model_for(form))) {
        chosen = &form;
        break;
      }
    ASSERT_NE(chosen, nullptr) << (integer ? "integer" : "float");
    const Form& form = *chosen;
    const auto model = model_for(form);
    const int selector = form.selectors.front();
    const uint64_t stream = 77, first = 1000;
    const gen::CaseSeeds seeds(stream, form);
    std::vector<ResidentDump> dumped(4);
    for (size_t w = 0; w < dumped.size(); ++w) {
      dumped[w].test = drawn_case(form, selector, seeds, first + w);
      dumped[w].d = resident_expected_d(dumped[w].test, model ? &*model : nullptr);
    }
    const ModelParameters* parameters = model ? &*model : nullptr;
    EXPECT_EQ(dump_disagreement(form, parameters, stream, first, dumped), "") << form.opcode;
    std::vector<ResidentDump> changed = dumped;
    changed[2].test.c[5] ^= 1u;
    EXPECT_EQ(dump_disagreement(form, parameters, stream, first, changed),
              form.opcode + " selector " + std::to_string(selector) + " case 1002: the GPU drew another C than the host");
    changed = dumped;
    changed[1].d[uint32_t(form.shape.n) + 1] ^= 1u;
    const std::string said = dump_disagreement(form, parameters, stream, first, changed);
    EXPECT_NE(said.find("case 1001: D[1][1] is "), std::string::npos) << said;
    EXPECT_NE(said.find(integer ? "(the exact reference's)" : "(the model's)"), std::string::npos) << said;
    EXPECT_NE(dump_disagreement(form, parameters, stream + 1, first, dumped), "") << "another stream's cases";
  }
}

TEST(Resident, APairWithoutAKernelIsRefusedWithItsReason) {
  for (const Form& form : instruction_space()) {
    std::string why;
    if (has_resident_kernel(form, &why)) continue;
    EXPECT_FALSE(why.empty()) << form.opcode;
    EXPECT_THROW(resident_pair_tables(form, form.selectors.front(), nullptr), std::invalid_argument) << form.opcode;
    return;
  }
}

}  // namespace
}  // namespace mmasp
