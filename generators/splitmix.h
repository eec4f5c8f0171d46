// SplitMix64 (Steele, Lea, Flood 2014), the one copy: the generators' streams (the bulk generator on the host, the
// portable one the GPU-resident kernel runs), the rare faults' hash of a case's position, the fuzzer's tail stream and
// the result digests all use it. Written for the host's compiler and nvcc alike (MMASP_PORTABLE).
#pragma once

#include <cstdint>

#include "oracle/model_arithmetic.h"   // MMASP_PORTABLE: __host__ __device__ under nvcc

namespace mmasp {

// The golden-ratio increment of the state between outputs.
inline constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ull;

// The output function alone (a bijective 64-bit mixer): also what the digests fold their words with.
MMASP_PORTABLE uint64_t splitmix_finalize(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The output that follows `state`.
MMASP_PORTABLE uint64_t splitmix(uint64_t state) { return splitmix_finalize(state + kSplitMixGamma); }

}  // namespace mmasp
