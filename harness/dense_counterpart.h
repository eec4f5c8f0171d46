// The dense mma.sync counterpart of a sparse form: the same shape and types with the decompressed A. Where one exists
// (f16/bf16 m16n8k16, tf32 m16n8k8 — the other sparse shapes have no dense instruction of the same K), running both
// on the same data tells whether mma.sp computes exactly what the dense instruction computes on the decompressed A.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/cuda_driver.h"
#include "harness/ptx_emitter.h"
#include "oracle/mma_case.h"

namespace mmasp {

// The dense instruction text for a sparse form, or nullopt where sm_90 has no dense instruction of that shape.
std::optional<InstructionText> dense_counterpart(const Form& form);

// The lane records of the dense instruction for these cases: A decompressed (unstored elements +0) and laid out as the
// dense A fragment of the form's K (PTX ISA 9.7.14.5: the same formula as compressed A, over K columns), B and C as
// for the sparse form.
std::vector<uint32_t> dense_records(const Form& form, const std::vector<MmaCase>& cases);

// Whether every element where the dense D differs from the sparse one is a NaN that the dense instruction makes by
// multiplying an unstored (zero) A element by an Inf or NaN of B: mma.sp never multiplies unstored elements
// (finding F-0011), so those differences are the sparse semantics, not an arithmetic difference.
bool differs_only_by_unstored_specials(const MmaCase& test, const std::vector<uint32_t>& sparse_d,
                                       const std::vector<uint32_t>& dense_d);

// Runs the dense counterpart on the device; each case's D (M x N codes).
std::vector<std::vector<uint32_t>> run_dense(CudaDevice& device, const Form& form, const std::vector<MmaCase>& cases,
                                             const Target& target);

}  // namespace mmasp
