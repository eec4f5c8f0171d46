// The bulk generator: seeded, identical on every machine, fast enough for soak and fuzz runs. It draws from the same
// distribution definitions as the RapidCheck generators (distributions.h).
#pragma once

#include <cstdint>

#include "generators/distributions.h"
#include "generators/draw.h"

namespace mmasp::gen {

class BulkGenerator {
 public:
  explicit BulkGenerator(uint64_t seed) : draw_(seed) {}
  // Overwrites `out` (reusing its storage) with the next case of `form`.
  void next(const Form& form, MmaCase& out, const Options& options = {}) { draw_case(draw_, form, options, out, &coverage_); }
  const Coverage& coverage() const { return coverage_; }
  uint64_t state() const { return draw_.state(); }

 private:
  SplitMixDraw draw_;
  Coverage coverage_;
};

// The seed of case `index` of stream `seed` for one form: runs split across shards or resumed mid-way draw the
// same cases, and a single case can be regenerated from (seed, form, index) alone.
uint64_t case_seed(uint64_t seed, const Form& form, uint64_t index);

}  // namespace mmasp::gen
