#include "generators/shrink.h"

#include <algorithm>
#include <optional>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp::gen {
namespace {

uint32_t one_of(ElemType type) { return info(type).is_float ? *encode(type, 1.0) : encode_integer(type, 1); }

}  // namespace

MmaCase shrink_case(const MmaCase& failing, const std::function<bool(const MmaCase&)>& still_fails, int max_attempts,
                    ShrinkStats* stats) {
  MmaCase best = failing;
  const Form& form = *failing.form;
  int attempts = 0, accepted = 0;
  auto attempt = [&](MmaCase candidate) {
    if (attempts >= max_attempts) return false;
    ++attempts;
    if (!still_fails(candidate)) return false;
    best = std::move(candidate);
    ++accepted;
    return true;
  };
  // Each pass tries, per element, the simplest replacement first; passes repeat while something shrinks.
  // Replaces runs of elements, halving the run length down to single elements (as delta debugging does), so that
  // a field whose elements are all irrelevant costs one attempt, not one per element.
  auto pass_over = [&](std::vector<uint32_t> MmaCase::*field, uint32_t replacement, std::optional<uint32_t> keep = {}) {
    bool progress = false;
    const size_t size = (best.*field).size();
    for (size_t run = size; run >= 1 && attempts < max_attempts; run /= 2) {
      for (size_t begin = 0; begin < size && attempts < max_attempts; begin += run) {
        const size_t end = std::min(size, begin + run);
        bool changes = false;
        MmaCase candidate = best;
        for (size_t i = begin; i < end; ++i) {
          uint32_t& element = (candidate.*field)[i];
          if (element == replacement || (keep && element == *keep)) continue;
          element = replacement;
          changes = true;
        }
        if (!changes) continue;
        progress |= attempt(std::move(candidate));
      }
      if (run == 1) break;
    }
    return progress;
  };
  auto all_at_once = [&](std::vector<uint32_t> MmaCase::*field, uint32_t replacement) {
    MmaCase candidate = best;
    std::fill((candidate.*field).begin(), (candidate.*field).end(), replacement);
    return candidate.*field != best.*field && attempt(std::move(candidate));
  };
  const uint32_t canonical = nibble_of(form.sparsity, {0, 1});
  for (bool progress = true; progress && attempts < max_attempts;) {
    progress = false;
    if (!best.metadata_noise.empty()) progress |= all_at_once(&MmaCase::metadata_noise, 0);
    progress |= all_at_once(&MmaCase::c, 0);
    progress |= pass_over(&MmaCase::a_compressed, 0);
    progress |= pass_over(&MmaCase::b, 0);
    progress |= pass_over(&MmaCase::c, 0);
    progress |= pass_over(&MmaCase::nibbles, canonical);
    // Values toward 1, leaving zeros zero.
    progress |= pass_over(&MmaCase::a_compressed, one_of(form.a), 0u);
    progress |= pass_over(&MmaCase::b, one_of(form.b), 0u);
    if (form.block_scale) {
      progress |= pass_over(&MmaCase::scale_a, *encode(*form.stype, 1.0));
      progress |= pass_over(&MmaCase::scale_b, *encode(*form.stype, 1.0));
    }
    if (!best.metadata_noise.empty()) progress |= pass_over(&MmaCase::metadata_noise, 0);
  }
  if (stats) *stats = {attempts, accepted};
  return best;
}

}  // namespace mmasp::gen
