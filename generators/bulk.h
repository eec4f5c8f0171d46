// The bulk generator: seeded, identical on every machine, fast enough for soak and fuzz runs. It draws from the same
// distribution definitions as the RapidCheck generators (distributions.h).
#pragma once

#include <cstdint>
#include <string>

#include "generators/distributions.h"
#include "generators/draw.h"

namespace mmasp::gen {

class BulkGenerator {
 public:
  // Counting coverage costs a memory increment per element, so it is asked for, not default.
  explicit BulkGenerator(uint64_t seed, bool count_coverage = false) : draw_(seed), count_coverage_(count_coverage) {}
  // Overwrites `out` (reusing its storage) with the next case of `form`.
  void next(const Form& form, MmaCase& out, const Options& options = {}) {
    draw_case(draw_, form, options, out, count_coverage_ ? &coverage_ : nullptr);
  }
  const Coverage& coverage() const { return coverage_; }

 private:
  SplitMixDraw draw_;
  bool count_coverage_;
  Coverage coverage_;
};

// The seeds of the cases of stream `seed` for one form: runs split across shards or resumed mid-way draw the same
// cases, and a single case can be regenerated from (seed, form, index) alone.
class CaseSeeds {
 public:
  CaseSeeds(uint64_t seed, const Form& form);
  uint64_t of(uint64_t index) const;
  // of(index) is SplitMixDraw::mix(base() + index * gamma): what a GPU drawing the same stream is given.
  uint64_t base() const { return base_; }

 private:
  uint64_t base_;
};
uint64_t case_seed(uint64_t seed, const Form& form, uint64_t index);   // CaseSeeds(seed, form).of(index)

// A digest of the cases the generators draw: `cases` bulk cases of `form` from CaseSeeds(seed, form), every field.
uint64_t case_stream_digest(const Form& form, uint64_t seed, int cases);

// Which cases a given seed names, as 16 hex digits: a digest of a few bulk cases of every catalog form and of the
// named special-value set. Two runs with the same seed and the same identity drew the same cases; `mmasp run`
// records it and `mmasp diff` reads it, so that a change of generator is not mistaken for a change of hardware.
std::string case_streams_identity();

}  // namespace mmasp::gen
