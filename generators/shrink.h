// Greedy shrinking of a failing case without RapidCheck (GPU runners have none): zero elements, restore canonical
// metadata and unit values and scales, one change at a time, keeping each change that still fails.
#pragma once

#include <functional>

#include "oracle/mma_case.h"

namespace mmasp::gen {

struct ShrinkStats {
  int attempts = 0;
  int accepted = 0;
};

// still_fails must be true for `failing`. Stops after max_attempts calls of still_fails.
MmaCase shrink_case(const MmaCase& failing, const std::function<bool(const MmaCase&)>& still_fails, int max_attempts,
                    ShrinkStats* stats = nullptr);

}  // namespace mmasp::gen
