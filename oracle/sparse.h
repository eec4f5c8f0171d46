// Structured sparsity of A (PTX ISA 9.7.14.6.1): between a dense logical row and its compressed values plus one
// 4-bit metadata nibble per chunk, and the validity of each nibble.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp {

// Positions a chunk stores, in stored order (slot 0 first): element positions 0..3 for 2:4, pair positions 0..3 for
// 4:8 pair-wise, one element position 0..1 for 1:2 (second unused).
struct ChunkPositions {
  int first = 0;
  int second = 0;
};

enum class MetadataValidity {
  legal,               // meaningful for .sp and .sp::ordered_metadata
  unordered,           // two distinct indices in decreasing order: meaningful for .sp, undefined for ::ordered_metadata
  undefined,           // 0b0000, 0b0101, 0b1010, 0b1111 for 2:4 and 4:8; anything but 0b0100/0b1110 for tf32
};

// A chunk has positions_per_chunk places to keep from (elements, or pairs for 4:8), each elements_per_position wide,
// and keeps stored_per_chunk of them.
int positions_per_chunk(Sparsity sparsity);
int elements_per_position(Sparsity sparsity);
int stored_per_chunk(Sparsity sparsity);

// Every position choice a chunk can make with increasing indices, canonical (0,1) — or, for 1:2, element 0 — first:
// 6 for 2:4 and pair-wise 4:8, 2 for 1:2.
std::vector<ChunkPositions> increasing_patterns(Sparsity sparsity);

uint32_t nibble_of(Sparsity sparsity, ChunkPositions positions);
ChunkPositions positions_of(Sparsity sparsity, uint32_t nibble);  // meaningful only where validity != undefined
MetadataValidity validity(Sparsity sparsity, uint32_t nibble);
// Whether the instruction's behaviour is defined for this nibble under this variant.
bool defined_for(SpVariant variant, Sparsity sparsity, uint32_t nibble);

// Dense logical A, row-major M x K, as element codes; compressed A row-major M x K/2; metadata M x (K/chunk) nibbles.
struct SparseA {
  std::vector<uint32_t> compressed;
  std::vector<uint32_t> nibbles;
};

// Keeps, in every chunk of every row, the elements `positions` names (one ChunkPositions per chunk, row-major).
SparseA compress(const Form& form, std::span<const uint32_t> dense, std::span<const ChunkPositions> positions);
// Rebuilds dense A; elements not stored get `zero_code`. Undefined nibbles throw std::invalid_argument.
std::vector<uint32_t> decompress(const Form& form, const SparseA& sparse, uint32_t zero_code = 0);

}  // namespace mmasp
