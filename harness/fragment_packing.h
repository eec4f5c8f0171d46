// Packs one case, given as dense logical matrices, into the per-lane input records of an emitted kernel, and unpacks
// D, using only the oracle's layouts (oracle/layout.h) and encodings (oracle/sparse.h, oracle/number_format.h).
#pragma once

#include <cstdint>
#include <vector>

#include "harness/ptx_emitter.h"
#include "oracle/instruction_space.h"
#include "oracle/sparse.h"

namespace mmasp {

struct DenseCase {
  std::vector<uint32_t> a;                    // M x K element codes, row-major; zero outside `positions`
  std::vector<ChunkPositions> positions;      // one per row chunk, row-major
  std::vector<uint32_t> b;                    // K x N codes, row-major
  std::vector<uint32_t> c;                    // M x N codes, row-major
  int selector = 0;
  std::vector<uint32_t> metadata_noise;       // 32 lanes: the e value of lanes that hold no metadata for the selector
};

// Appends 32 lane records to `records`.
void pack_case(const Form& form, const DenseCase& test, std::vector<uint32_t>& records);
// D as M x N codes from the 32 output records starting at `records`.
std::vector<uint32_t> unpack_d(const Form& form, const uint32_t* records);

}  // namespace mmasp
