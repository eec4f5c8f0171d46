// The flat tables (portable_case.h) that draw the bulk generator's cases element by element, made from the form's
// FormPlan (distributions.h) — the same samplers, profiles and metadata slots, copied, never restated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/portable_case.h"
#include "oracle/mma_case.h"

namespace mmasp::gen {

struct PortableCaseTables {
  portable::CaseTables tables;            // its arena and samplers point into the vectors below (or a GPU's copies)
  std::vector<uint32_t> arena;
  std::vector<portable::Sampler> samplers;
};

// Whether the random suite's cases of `form` can be drawn from flat tables, and why not (block scale, an accumulator
// other than f32, f16 or s32).
bool portable_drawable(const Form& form, std::string* why = nullptr);
// Throws std::invalid_argument when !portable_drawable(form).
PortableCaseTables portable_case_tables(const Form& form);

// A whole case drawn from the tables, as the bulk generator draws it with options.selector = selector: every element
// through portable::drawn, then the cancellation profile. The CPU side of the proof that a GPU draws the same cases.
MmaCase portable_case(const PortableCaseTables& tables, const Form& form, int selector, uint64_t case_seed);

}  // namespace mmasp::gen
