// Layouts and sparse encoding against the spec text. The expectations are the spec's own per-section formulas and
// value lists, transcribed here independently of oracle/layout.cpp and oracle/sparse.cpp.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "oracle/layout.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

const Form& first_form(const std::string& family, int k) {
  for (const auto& form : instruction_space())
    if (form.family == family && form.shape.k == k) return form;
  throw std::runtime_error("no form " + family + " k" + std::to_string(k));
}

TEST(Layout, EveryOperandCoversItsMatrixExactlyOnce) {
  for (const auto& form : instruction_space())
    for (Operand operand : {Operand::a_compressed, Operand::b, Operand::c, Operand::d}) {
      std::set<std::pair<int, int>> seen;
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < elements_per_lane(form, operand); ++i) {
          MatrixCoord at = coord_of(form, operand, lane, i);
          ASSERT_GE(at.row, 0);
          ASSERT_LT(at.row, rows_of(form, operand)) << form.opcode;
          ASSERT_GE(at.col, 0);
          ASSERT_LT(at.col, cols_of(form, operand)) << form.opcode;
          EXPECT_TRUE(seen.insert({at.row, at.col}).second) << form.opcode << " operand " << int(operand);
        }
      EXPECT_EQ(int(seen.size()), rows_of(form, operand) * cols_of(form, operand));
    }
}

// 9.7.14.6.2.1-8: the spec's row and firstcol formulas for A, per section, with a_i numbered across the lane's
// elements. Compressed column cc of a chunk-wise packed row lies in logical chunk cc / (chunk_width / 2).
TEST(Layout, CompressedAFollowsTheSpecFormulas) {
  struct Section {
    const char* family;
    int k;
    std::function<bool(int)> upper_row;       // row = groupID + 8 for these a_i
    std::function<int(int, int)> firstcol;    // (threadID_in_group, i)
    int width;                                // lastcol - firstcol + 1
  };
  const std::vector<Section> sections = {
      {"f16", 16, [](int i) { return i >= 2; }, [](int t, int) { return 4 * t; }, 4},                      // .2.1
      {"bf16", 32, [](int i) { return !(i < 2 || (4 <= i && i < 6)); },
       [](int t, int i) { return i < 4 ? 4 * t : 4 * t + 16; }, 4},                                        // .2.2
      {"tf32", 16, [](int i) { return i == 1 || i == 3; }, [](int t, int i) { return i < 2 ? 2 * t : 2 * t + 8; }, 2},  // .2.3
      {"tf32", 8, [](int i) { return i == 1; }, [](int t, int) { return 2 * t; }, 2},                      // .2.4
      {"int8", 32, [](int i) { return i >= 4; }, [](int t, int) { return 8 * t; }, 8},                     // .2.5
      {"int8", 64, [](int i) { return !(i < 4 || (8 <= i && i < 12)); },
       [](int t, int i) { return i < 8 ? 8 * t : 8 * t + 32; }, 8},                                        // .2.6
      {"fp8", 64, [](int i) { return !(i < 4 || (8 <= i && i < 12)); },
       [](int t, int i) { return i < 8 ? 8 * t : 8 * t + 32; }, 8},                                        // .2.6
      {"f8f6f4", 64, [](int i) { return !(i < 4 || (8 <= i && i < 12)); },
       [](int t, int i) { return i < 8 ? 8 * t : 8 * t + 32; }, 8},                                        // .2.6
      {"int4", 64, [](int i) { return i >= 8; }, [](int t, int) { return 16 * t; }, 16},                   // .2.7
      {"int4", 128, [](int i) { return !(i < 8 || (16 <= i && i < 24)); },
       [](int t, int i) { return i < 16 ? 16 * t : 16 * t + 64; }, 16},                                    // .2.8
      {"mxf4", 128, [](int i) { return !(i < 8 || (16 <= i && i < 24)); },
       [](int t, int i) { return i < 16 ? 16 * t : 16 * t + 64; }, 16},                                    // .2.8
  };
  for (const auto& section : sections) {
    const Form& form = first_form(section.family, section.k);
    const int stored_per_chunk = form.chunk_width / 2;
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < elements_per_lane(form, Operand::a_compressed); ++i) {
        MatrixCoord at = coord_of(form, Operand::a_compressed, lane, i);
        EXPECT_EQ(at.row, (lane >> 2) + (section.upper_row(i) ? 8 : 0)) << form.opcode << " lane " << lane << " a" << i;
        int chunk_start = at.col / stored_per_chunk * form.chunk_width;
        int first = section.firstcol(lane % 4, i);
        EXPECT_GE(chunk_start, first) << form.opcode << " lane " << lane << " a" << i;
        EXPECT_LT(chunk_start, first + section.width) << form.opcode << " lane " << lane << " a" << i;
      }
  }
}

// Dense B and C/D formulas of 9.7.14.5 that 9.7.14.6.2 refers to.
TEST(Layout, BAndCFollowTheDenseFormulas) {
  const Form& f16 = first_form("f16", 16);   // 9.7.14.5.8: b_i row = 2t + (i&1) + 8*(i>>1)
  const Form& tf32 = first_form("tf32", 8);  // 9.7.14.5.7: b_i row = t + 4i
  const Form& s8 = first_form("int8", 32);   // 9.7.14.5.10: b_i row = 4t + (i&3) + 16*(i>>2)
  for (int lane = 0; lane < 32; ++lane) {
    int t = lane % 4, g = lane >> 2;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(coord_of(f16, Operand::b, lane, i), (MatrixCoord{2 * t + (i & 1) + 8 * (i >> 1), g}));
    for (int i = 0; i < 2; ++i) EXPECT_EQ(coord_of(tf32, Operand::b, lane, i), (MatrixCoord{t + 4 * i, g}));
    for (int i = 0; i < 8; ++i) EXPECT_EQ(coord_of(s8, Operand::b, lane, i), (MatrixCoord{4 * t + (i & 3) + 16 * (i >> 2), g}));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(coord_of(f16, Operand::c, lane, i), (MatrixCoord{g + 8 * (i >> 1), 2 * t + (i & 1)}));
  }
  // f16 C/D: two f16x2 registers, c0/c1 in the first; f32 C/D: one element per register.
  EXPECT_EQ(slot_of(f16, Operand::c, 1, 0).reg, 0);
  EXPECT_EQ(slot_of(f16, Operand::c, 2, 0).reg, 1);
  EXPECT_EQ(slot_of(tf32, Operand::c, 2, 0).reg, 2);
}

TEST(Metadata, EachSelectorCoversEveryRowChunkOnceFromItsOwnLanes) {
  for (const auto& form : instruction_space())
    for (int selector : form.selectors) {
      const int lanes_per_group = 4 / int(form.selectors.size());
      std::set<std::pair<int, int>> seen;
      for (const auto& cell : metadata_cells(form, selector)) {
        int t = cell.lane % 4;
        EXPECT_GE(t, lanes_per_group * selector) << form.opcode;
        EXPECT_LT(t, lanes_per_group * (selector + 1)) << form.opcode;
        EXPECT_TRUE(seen.insert({cell.row, cell.chunk}).second) << form.opcode << " sel " << selector;
      }
      EXPECT_EQ(int(seen.size()), form.shape.m * form.shape.k / form.chunk_width) << form.opcode;
    }
}

// Worked examples read off the PTX ISA 9.7.14.6.2 metadata figures (layout discovery checks them on hardware,
// oracle/verified_layouts.cpp).
TEST(Metadata, WorkedExamples) {
  auto cell_of = [](const Form& form, int selector, int lane, int nibble) {
    for (const auto& cell : metadata_cells(form, selector))
      if (cell.lane == lane && cell.nibble == nibble) return std::pair{cell.row, cell.chunk};
    return std::pair{-1, -1};
  };
  const Form& f16 = first_form("f16", 16);
  EXPECT_EQ(cell_of(f16, 2, 10, 0), (std::pair{2, 0}));
  EXPECT_EQ(cell_of(f16, 2, 10, 3), (std::pair{2, 3}));
  EXPECT_EQ(cell_of(f16, 2, 10, 4), (std::pair{10, 0}));
  EXPECT_EQ(cell_of(f16, 1, 10, 0), (std::pair{-1, -1}));  // lane 10 holds no metadata for selector 1
  const Form& bf16 = first_form("bf16", 32);
  EXPECT_EQ(cell_of(bf16, 1, 3, 0), (std::pair{0, 4}));    // cols 16-19
  EXPECT_EQ(cell_of(bf16, 1, 3, 7), (std::pair{8, 7}));    // cols 28-31
  const Form& s8 = first_form("int8", 64);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(cell_of(s8, 0, 7, j), (std::pair{9, 8 + j}));  // cols 32+4j
  const Form& u4 = first_form("int4", 64);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(cell_of(u4, 0, 1, j), (std::pair{8, j}));      // cols 8j (pairs)
}

// 9.7.14.6.1: the meaningful and undefined metadata values, as the spec lists them.
TEST(Sparse, MetadataValidityMatchesTheSpecLists) {
  const std::set<uint32_t> ordered_meaningful = {0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110};
  const std::set<uint32_t> undefined = {0b0000, 0b0101, 0b1010, 0b1111};
  for (Sparsity sparsity : {Sparsity::two_of_four, Sparsity::pairwise_four_of_eight})
    for (uint32_t nibble = 0; nibble < 16; ++nibble) {
      MetadataValidity expected = ordered_meaningful.count(nibble) ? MetadataValidity::legal
                                  : undefined.count(nibble)        ? MetadataValidity::undefined
                                                                   : MetadataValidity::unordered;
      EXPECT_EQ(validity(sparsity, nibble), expected) << nibble;
      EXPECT_EQ(defined_for(SpVariant::sp, sparsity, nibble), !undefined.count(nibble)) << nibble;
      EXPECT_EQ(defined_for(SpVariant::ordered_metadata, sparsity, nibble), bool(ordered_meaningful.count(nibble)));
    }
  for (uint32_t nibble = 0; nibble < 16; ++nibble)
    EXPECT_EQ(validity(Sparsity::one_of_two, nibble) == MetadataValidity::legal, nibble == 0b0100 || nibble == 0b1110);
}

// Compress then decompress is the identity on any structured-sparse A, in every granularity, and for .sp also with
// the indices of a chunk in either order.
RC_GTEST_PROP(Sparse, CompressDecompressIsTheIdentity, ()) {
  const auto& forms = instruction_space();
  const Form& form = forms[*rc::gen::inRange<size_t>(0, forms.size())];
  const int m = form.shape.m, k = form.shape.k, chunks = m * k / form.chunk_width;
  const int units = positions_per_chunk(form.sparsity);
  std::vector<ChunkPositions> positions;
  for (int c = 0; c < chunks; ++c) {
    if (form.sparsity == Sparsity::one_of_two) {
      positions.push_back({*rc::gen::inRange(0, 2), 0});
      continue;
    }
    int first = *rc::gen::inRange(0, units);
    int second = *rc::gen::suchThat(rc::gen::inRange(0, units), [first](int p) { return p != first; });
    if (form.variant == SpVariant::ordered_metadata && first > second) std::swap(first, second);
    positions.push_back({first, second});
  }
  // Dense A: random non-zero codes where kept, zero elsewhere.
  const uint32_t code_mask = form.a_container_bits == 32 ? ~0u : (1u << form.a_container_bits) - 1;
  std::vector<uint32_t> dense(size_t(m * k), 0);
  const int unit = elements_per_position(form.sparsity);
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < k / form.chunk_width; ++c) {
      auto where = positions[size_t(row * (k / form.chunk_width) + c)];
      for (int stored = 0; stored < stored_per_chunk(form.sparsity); ++stored)
        for (int e = 0; e < unit; ++e)
          dense[size_t(row * k + c * form.chunk_width + (stored ? where.second : where.first) * unit + e)] =
              *rc::gen::inRange<uint32_t>(1, code_mask) ;
    }
  SparseA sparse = compress(form, dense, positions);
  RC_ASSERT(sparse.compressed.size() == size_t(m * k / 2));
  for (uint32_t nibble : sparse.nibbles) RC_ASSERT(defined_for(form.variant, form.sparsity, nibble));
  RC_ASSERT(decompress(form, sparse) == dense);
  RC_TAG(std::string(name(form.sparsity)));
}

TEST(Sparse, UndefinedMetadataIsRefused) {
  const Form& f16 = first_form("f16", 16);
  SparseA sparse{std::vector<uint32_t>(16 * 8, 1), std::vector<uint32_t>(16 * 4, 0b0100)};
  EXPECT_NO_THROW(decompress(f16, sparse));
  sparse.nibbles[5] = 0b0101;
  EXPECT_THROW(decompress(f16, sparse), std::invalid_argument);
}

}  // namespace
}  // namespace mmasp
