#include "generators/bulk.h"

namespace mmasp::gen {

CaseSeeds::CaseSeeds(uint64_t seed, const Form& form) {
  // FNV-1a of the opcode, mixed with the seed and index through one SplitMix step each.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : form.opcode) hash = (hash ^ uint8_t(c)) * 0x100000001b3ull;
  base_ = SplitMixDraw::mix(seed ^ hash);
}

uint64_t CaseSeeds::of(uint64_t index) const { return SplitMixDraw::mix(base_ + index * SplitMixDraw::kGamma); }

uint64_t case_seed(uint64_t seed, const Form& form, uint64_t index) { return CaseSeeds(seed, form).of(index); }

}  // namespace mmasp::gen
