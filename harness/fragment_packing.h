// Moves a warp's registers (oracle/fragments.h) in and out of the per-lane records of an emitted kernel's batch
// buffer (harness/ptx_emitter.h, LaneRecordLayout).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "harness/ptx_emitter.h"
#include "oracle/fragments.h"
#include "oracle/mma_case.h"

namespace mmasp {

// Appends the 32 lane records of one case to `records`.
void pack_case(const MmaCase& test, std::vector<uint32_t>& records);
// Words of one case's 32 lane records for the instruction of `form` and `selector` (the same for every selector).
size_t case_record_words(const Form& form, int selector);
// The 32 lane records of one case into `destination`, which holds case_record_words() words; batches pack their cases
// into slices of one buffer, in parallel.
void pack_case_into(const MmaCase& test, std::span<uint32_t> destination);
// The same from registers directly (layout discovery writes registers without going through the layouts).
void pack_warp(const Form& form, const WarpRegisters& registers, std::vector<uint32_t>& records);
// The registers of one case back from its 32 input records (what the emulator executes).
WarpRegisters registers_from_records(const Form& form, int selector, const uint32_t* records);
// D as M x N codes from the 32 output records of one case, and the output records for a D.
std::vector<uint32_t> unpack_d(const Form& form, const uint32_t* output_records);
void pack_d(const Form& form, std::span<const uint32_t> d, uint32_t* output_records);

}  // namespace mmasp
