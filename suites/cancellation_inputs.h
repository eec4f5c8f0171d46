// A case's codes for the tests of the cancellation profile's C (portable_case_test's row against element, and
// resident_test's fp8 kernel against the portable element): in trial 0 every A and B code the all-ones code, in trial
// 1 the one below the sign bit (NaN, the largest finite or the integer extremes), after that uniform over every code
// (Inf and NaN among them, so that some sums are not finite and keep their drawn C); C's codes uniform 32-bit words,
// the nibbles drawn from the tables' chunk slots.
#pragma once

#include <cstdint>
#include <vector>

#include "generators/draw.h"
#include "generators/portable_case.h"

namespace mmasp::test {

struct CancellationInputs {
  std::vector<uint32_t> a, b, c, nibbles;   // row-major, as a warp's shared memory holds them
};

inline CancellationInputs cancellation_inputs(const gen::portable::CaseTables& t, int trial, uint64_t a_codes,
                                              uint64_t b_codes, gen::SplitMixDraw& draw) {
  CancellationInputs in{std::vector<uint32_t>(t.a_count), std::vector<uint32_t>(t.b_count),
                        std::vector<uint32_t>(t.c_count), std::vector<uint32_t>(t.m * (t.k / t.chunk_width))};
  const auto code = [&](uint64_t codes) {
    return uint32_t(trial < 2 ? (trial == 0 ? codes - 1 : codes / 2 - 1) : draw.bits() % codes);
  };
  for (auto& x : in.a) x = code(a_codes);
  for (auto& x : in.b) x = code(b_codes);
  for (auto& x : in.c) x = uint32_t(draw.bits());
  for (auto& x : in.nibbles) x = t.arena[t.chunk_nibbles + uint32_t(draw.bits() & 0xFF)] & 0xFFu;
  return in;
}

}  // namespace mmasp::test
