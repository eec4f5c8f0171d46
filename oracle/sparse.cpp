#include "oracle/sparse.h"

#include <stdexcept>

namespace mmasp {
namespace {

// 9.7.14.6.1, tf32: "0b1110 and 0b0100 are the only meaningful index values". Read as a 2:4 chunk of 16-bit halves,
// 0b0100 keeps halves 0 and 1 (element 0) and 0b1110 halves 2 and 3 (element 1).
constexpr uint32_t kTf32KeepsFirst = 0b0100;
constexpr uint32_t kTf32KeepsSecond = 0b1110;

}  // namespace

// 9.7.14.6.1: 2:4 keeps 2 of 4 elements, 1:2 keeps 1 of 2, pair-wise 4:8 keeps 2 of 4 two-element pairs.
int elements_per_position(Sparsity sparsity) { return sparsity == Sparsity::pairwise_four_of_eight ? 2 : 1; }
int positions_per_chunk(Sparsity sparsity) { return sparsity == Sparsity::one_of_two ? 2 : 4; }
int stored_per_chunk(Sparsity sparsity) { return sparsity == Sparsity::one_of_two ? 1 : 2; }

std::vector<ChunkPositions> increasing_patterns(Sparsity sparsity) {
  if (sparsity == Sparsity::one_of_two) return {{0, 0}, {1, 0}};
  std::vector<ChunkPositions> patterns;
  for (int first = 0; first < positions_per_chunk(sparsity); ++first)
    for (int second = first + 1; second < positions_per_chunk(sparsity); ++second) patterns.push_back({first, second});
  return patterns;
}

uint32_t nibble_of(Sparsity sparsity, ChunkPositions positions) {
  if (sparsity == Sparsity::one_of_two) return positions.first == 0 ? kTf32KeepsFirst : kTf32KeepsSecond;
  // 9.7.14.6.1 / Figures 112-117: two 2-bit indices, the first stored element's index in bits 1..0.
  return uint32_t(positions.first) | uint32_t(positions.second) << 2;
}

ChunkPositions positions_of(Sparsity sparsity, uint32_t nibble) {
  if (sparsity == Sparsity::one_of_two) return {nibble == kTf32KeepsSecond ? 1 : 0, 0};
  return {int(nibble & 3), int((nibble >> 2) & 3)};
}

MetadataValidity validity(Sparsity sparsity, uint32_t nibble) {
  nibble &= 0xF;
  if (sparsity == Sparsity::one_of_two)
    return nibble == kTf32KeepsFirst || nibble == kTf32KeepsSecond ? MetadataValidity::legal : MetadataValidity::undefined;
  auto [first, second] = positions_of(sparsity, nibble);
  if (first == second) return MetadataValidity::undefined;
  return first < second ? MetadataValidity::legal : MetadataValidity::unordered;
}

bool defined_for(SpVariant variant, Sparsity sparsity, uint32_t nibble) {
  switch (validity(sparsity, nibble)) {
    case MetadataValidity::legal: return true;
    // 9.7.14.6.3: "mma.sp::ordered_metadata requires the indices in the sparsity metadata to be sorted in an
    // increasing order starting from LSB, otherwise behavior is undefined."
    case MetadataValidity::unordered: return variant == SpVariant::sp;
    case MetadataValidity::undefined: return false;
  }
  return false;
}

SparseA compress(const Form& form, std::span<const uint32_t> dense, std::span<const ChunkPositions> positions) {
  const int m = form.shape.m, k = form.shape.k, chunk = form.chunk_width;
  const int chunks_per_row = k / chunk;
  if (dense.size() != size_t(m * k) || positions.size() != size_t(m * chunks_per_row))
    throw std::invalid_argument("compress: dense A or positions have the wrong size");
  const int unit = elements_per_position(form.sparsity);
  SparseA sparse;
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < chunks_per_row; ++c) {
      ChunkPositions where = positions[size_t(row * chunks_per_row + c)];
      uint32_t nibble = nibble_of(form.sparsity, where);
      if (validity(form.sparsity, nibble) == MetadataValidity::undefined)
        throw std::invalid_argument("compress: positions do not form valid metadata");
      sparse.nibbles.push_back(nibble);
      for (int stored = 0; stored < stored_per_chunk(form.sparsity); ++stored) {
        int position = stored == 0 ? where.first : where.second;
        for (int e = 0; e < unit; ++e) sparse.compressed.push_back(dense[size_t(row * k + c * chunk + position * unit + e)]);
      }
    }
  return sparse;
}

std::vector<uint32_t> decompress(const Form& form, const SparseA& sparse, uint32_t zero_code) {
  const int m = form.shape.m, k = form.shape.k, chunk = form.chunk_width;
  const int chunks_per_row = k / chunk;
  const int unit = elements_per_position(form.sparsity);
  if (sparse.compressed.size() != size_t(m * k / 2) || sparse.nibbles.size() != size_t(m * chunks_per_row))
    throw std::invalid_argument("decompress: compressed A or metadata have the wrong size");
  std::vector<uint32_t> dense(size_t(m * k), zero_code);
  size_t next = 0;
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < chunks_per_row; ++c) {
      uint32_t nibble = sparse.nibbles[size_t(row * chunks_per_row + c)];
      if (validity(form.sparsity, nibble) == MetadataValidity::undefined)
        throw std::invalid_argument("decompress: undefined metadata value");
      ChunkPositions where = positions_of(form.sparsity, nibble);
      for (int stored = 0; stored < stored_per_chunk(form.sparsity); ++stored) {
        int position = stored == 0 ? where.first : where.second;
        for (int e = 0; e < unit; ++e) dense[size_t(row * k + c * chunk + position * unit + e)] = sparse.compressed[next++];
      }
    }
  return dense;
}

}  // namespace mmasp
