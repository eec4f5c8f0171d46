// The CUDA source of the GPU-resident kernels, written from the instruction space (each form x selector's mma.sp
// spelled from its Form record, in one switch) and compiled by nvcc at build time (CMakeLists.txt). The kernels' body
// is resident_kernel.cuh: a general kernel and a lean one, each with the switch rather than a kernel per form, so nvcc
// compiles the generator and the model once per kernel (a kernel per form took over five minutes on two cores; the
// switch costs a uniform branch per case).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "generators/portable_case.h"
#include "resident/resident_abi.h"
#include "oracle/instruction_space.h"

namespace mmasp {

// The images the resident kernels are built into (CMakeLists.txt), each with the forms its target can express:
//  - sm_90a: a cubin, the fast path on sm_90 (the one architecture with hardware here);
//  - compute_89: PTX, JIT-compiled by the driver on any sm_89 or newer GPU (e4m3/e5m2 need sm_89);
//  - compute_80: PTX for sm_80 .. sm_88 (f16, bf16, tf32 and integer forms).
// The PTX images' forms are those legal on sm_89 and sm_80 (the catalog's targets of the same rules).
enum class ResidentImage { sm90a_cubin, compute89_ptx, compute80_ptx };
inline constexpr ResidentImage kResidentImages[] = {ResidentImage::sm90a_cubin, ResidentImage::compute89_ptx,
                                                    ResidentImage::compute80_ptx};
std::string_view name(ResidentImage image);           // "sm_90a cubin", "compute_89 PTX", "compute_80 PTX"
std::string_view catalog_target(ResidentImage image);  // the catalog target whose legal forms it holds: sm_90a, sm_89, sm_80
std::string_view nvcc_architecture(ResidentImage image);   // "sm_90a", "compute_89", "compute_80"
// Whether the image holds the kernels of one layout or shape (fp8, dense, narrow, k16, their f16 and 768-thread
// twins) besides the general and lean ones. The sm_90a cubin does: each of them is kept for a gain measured on sm_90
// (docs/resident.md). A PTX image holds the general and lean kernels alone: those gains are unmeasured on any other
// GPU, and every kernel in a PTX image lengthens the driver's JIT that each such GPU pays (docs/performance.md). The
// lean kernel judges every pair the others take, alike (resident_pair_tables leaves such a pair their layouts).
bool holds_specialised_kernels(ResidentImage image);
// The names of the kernels `image` holds (those below), in the order resident_kernels_source writes them.
std::vector<std::string> resident_kernel_names(ResidentImage image);

// The forms that get a resident kernel in `image`: legal on its catalog target, drawable from flat tables
// (generators/case_tables.h), and judged exactly on the device (float forms by the model, integer forms exactly).
bool has_resident_kernel(const Form& form, std::string* why = nullptr, ResidentImage image = ResidentImage::sm90a_cubin);
// The id of a form x selector's instruction in the kernel's switch (PairTables::instruction).
int resident_instruction_id(const Form& form, int selector);
inline constexpr const char* kResidentKernel = "mmasp_resident";           // judges every pair
inline constexpr const char* kResidentLeanKernel = "mmasp_resident_lean";  // the narrow model and integer pairs only
// The same lean kernel for blocks of at most 768 threads: 80 registers instead of 64 (resident.cpp takes it where
// shared memory holds fewer than 32 warps of a pair anyway).
inline constexpr const char* kResidentLean768Kernel = "mmasp_resident_lean_768";
// The lean kernel for fp8 pairs with the sm_90 record's blocks (PairTables::narrow_fp8_blocks) and nothing else: their
// blocks walked by compile-time indices, in blocks of at most 768 threads, so up to 80 registers. B's words go over
// their codes (PairTables::narrow_over_codes) and A's over the nibbles (fp8_shared_words), so that 24 warps fit in an
// H100's shared memory: for this kernel the warps in flight pay, not the registers each warp may use. It reads the
// pair's cells and f32 tables from its own copies in static shared memory (resident_abi.h's kFp8SharedCellWords).
inline constexpr const char* kResidentLeanFp8Kernel = "mmasp_resident_lean_fp8";
// The lean kernel for integer pairs whose dense bytes are written over their codes (PairTables::dense_over_codes) and
// nothing else, for blocks of up to 1,024 threads (64 registers) and of up to 768 (80), as the two above.
inline constexpr const char* kResidentLeanDenseKernel = "mmasp_resident_lean_dense";
inline constexpr const char* kResidentLeanDense768Kernel = "mmasp_resident_lean_dense_768";
// The lean kernel for narrow pairs whose words go over their codes (PairTables::narrow_over_codes) other than fp8 ones
// (the m16n8k32 f16 and bf16 forms on sm_90), and nothing else, for blocks of up to 1,024 threads (64 registers).
inline constexpr const char* kResidentLeanNarrowKernel = "mmasp_resident_lean_narrow";
// The same for those of them whose A and B take f16 words (resident_abi.h's f16_words_fit: the m16n8k32 f16 ones),
// their products summed by f32 multiplication; it traps on a pair without them.
inline constexpr const char* kResidentLeanNarrowF16Kernel = "mmasp_resident_lean_narrow_f16";
// The lean kernel for the m16n8k16 pairs with 2:4 metadata (f16 and bf16) alone, its case dimensions compile-time
// constants (kResidentK16Dims), for blocks of up to 1,024 threads (64 registers) as the lean one; and the same for
// those of them whose A and B take f16 words (resident_abi.h's f16_words_fit: the f16 ones), their products summed by
// f32 multiplication. Each traps on a pair it does not take.
inline constexpr const char* kResidentLeanK16Kernel = "mmasp_resident_lean_k16";
inline constexpr const char* kResidentLeanK16F16Kernel = "mmasp_resident_lean_k16_f16";
// The case dimensions of the kernels that run one shape (kResidentFp8Dims and the others) are in resident_abi.h,
// where the fp8 kernel's shared copies are sized from them.
// The lean kernels' largest blocks: their __launch_bounds__ (resident_kernels_source writes them) and what
// resident.cpp launches.
inline constexpr unsigned kResidentLeanThreads = 1024, kResidentLean768Threads = 768, kResidentLeanFp8Threads = 768;
// The kernels and every instruction of `image`, for nvcc.
std::string resident_kernels_source(ResidentImage image = ResidentImage::sm90a_cubin);

}  // namespace mmasp
