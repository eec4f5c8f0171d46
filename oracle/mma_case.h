// One test case of one form: the operands exactly as the instruction sees them (compressed A, metadata nibbles,
// selector, B, C, block scales and their ids), in logical matrix order. Generators produce it, the harness packs it
// into registers, the emulator and the reference compute from it, case files store it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp {

// 9.7.14.3 / 9.7.14.6.3 (block scale): which byte of scale-a/b-data and which lane of a quad supply the scales.
struct ScaleIds {
  int byte_a = 0, thread_a = 0, byte_b = 0, thread_b = 0;
  bool operator==(const ScaleIds&) const = default;
};

struct MmaCase {
  const Form* form = nullptr;
  int selector = 0;
  std::vector<uint32_t> a_compressed;    // M x K/2 element codes, row-major, in stored order (sparse.h)
  std::vector<uint32_t> nibbles;         // M x K/chunk_width metadata nibbles, row-major
  std::vector<uint32_t> b;               // K x N codes, row-major
  std::vector<uint32_t> c;               // M x N codes, row-major
  std::vector<uint32_t> scale_a;         // M x scale_blocks codes (block scale only)
  std::vector<uint32_t> scale_b;         // scale_blocks x N codes
  ScaleIds scale_ids;
  // The e register of lanes that hold no metadata for the selector: the instruction must ignore it. Empty = zeros.
  std::vector<uint32_t> metadata_noise;
};

// 9.7.14.3 (block scaling): the byte-id values valid for the form's scale vector size (1X: 0..3, 2X: 0 and 2,
// 4X: 0), and the lane-pair / lane choices of thread-id-a (0..1) and thread-id-b (0..3).
std::vector<int> valid_byte_ids(const Form& form);
inline constexpr int kThreadIdsA = 2;
inline constexpr int kThreadIdsB = 4;

// Scale factors per row of A / column of B: 1, 2 or 4 for scale_vec 1X/2X/4X (Table 35); 0 without block scale.
int scale_blocks(const Form& form);
// Logical K elements covered by one scale factor (K / scale_blocks).
int scale_block_width(const Form& form);

// The logical column (0..K-1) of stored element `stored` (0..K/2-1) of a row, given that row's nibbles. Meaningful
// only where the nibble is not undefined (sparse.h).
int logical_column(const Form& form, const uint32_t* row_nibbles, int stored);

// Why a case's behaviour is undefined by the spec, one reason per line; empty when every input is defined.
// Undefined cases are run only in isolation and labelled "UB: not judged".
std::vector<std::string> undefined_behaviour(const MmaCase& test);

// Throws std::invalid_argument when the vectors do not have the form's sizes.
void check_shape(const MmaCase& test);

// A zero case of the right sizes: A, B and C all +0, canonical metadata (positions 0,1), scales 1.0, selector 0.
MmaCase zero_case(const Form& form);

}  // namespace mmasp
