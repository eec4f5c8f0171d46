// The CUDA source of the GPU-resident kernels, written from the instruction space (each form x selector's mma.sp
// spelled from its Form record, in one switch) and compiled by nvcc at build time (CMakeLists.txt). The kernels' body
// is resident_kernel.cuh: a general kernel and a lean one, each with the switch rather than a kernel per form, so nvcc
// compiles the generator and the model once per kernel (a kernel per form took over five minutes on two cores; the
// switch costs a uniform branch per case).
#pragma once

#include <string>
#include <vector>

#include "oracle/instruction_space.h"

namespace mmasp {

// The target the resident kernels are compiled for: the one architecture with hardware here, and verified models.
inline constexpr const char* kResidentTarget = "sm_90a";

// The forms that get a resident kernel: legal on kResidentTarget, drawable from flat tables
// (generators/case_tables.h), and judged exactly on the device (float forms by the model, integer forms exactly).
bool has_resident_kernel(const Form& form, std::string* why = nullptr);
// The id of a form x selector's instruction in the kernel's switch (PairTables::instruction).
int resident_instruction_id(const Form& form, int selector);
inline constexpr const char* kResidentKernel = "mmasp_resident";           // judges every pair
inline constexpr const char* kResidentLeanKernel = "mmasp_resident_lean";  // the narrow model and integer pairs only
std::string resident_kernels_source();   // the kernel and every instruction, for nvcc

}  // namespace mmasp
