// A case at register level: what each of the 32 lanes of a warp holds in its A, B, C, metadata and scale registers,
// and D back out. Built only from the layouts (layout.h), the sparse encoding (sparse.h) and the containers
// (number_format.h). The GPU harness writes these registers; the emulator reads them back into a case, so that a
// layout error shows up as a wrong result on either backend.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp {

struct LaneRegisters {
  std::vector<uint32_t> a, b, c;
  uint32_t e = 0;          // sparsity metadata
  uint32_t scale_a = 0;    // scale-a-data (block scale only)
  uint32_t scale_b = 0;
};

struct WarpRegisters {
  int selector = 0;
  ScaleIds scale_ids;
  std::array<LaneRegisters, 32> lanes;
};

// Lanes that hold no metadata get test.metadata_noise (or zero); lanes and bytes that hold no scale get a scale of
// 1.0 unless set otherwise by the caller.
WarpRegisters to_registers(const MmaCase& test);
// Reads back exactly what the instruction reads: metadata only from the lanes the selector names, scales only from
// the lanes and bytes the ids name. metadata_noise is recovered from the other lanes.
MmaCase from_registers(const Form& form, const WarpRegisters& registers);

// D (M x N codes, row-major) to and from 32 lanes x regs.d registers, lane-major.
std::vector<uint32_t> d_to_registers(const Form& form, std::span<const uint32_t> d);
std::vector<uint32_t> d_from_registers(const Form& form, std::span<const uint32_t> registers);

}  // namespace mmasp
