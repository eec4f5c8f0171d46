#include "generators/draw.h"

namespace mmasp::gen {

namespace {

// One clone per instruction set, chosen when the program loads: with AVX-512DQ's 64-bit multiplies the block costs
// about a quarter of the scalar loop (bench/generator_benchmark). Every clone computes the same outputs.
#if defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx512dq", "avx2", "default")))
#endif
void fill_block(uint64_t state, uint64_t* out) {
  for (int i = 0; i < SplitMixDraw::kBlock; ++i) out[i] = SplitMixDraw::mix(state + uint64_t(i) * SplitMixDraw::kGamma);
}

}  // namespace

void SplitMixDraw::refill() {
  fill_block(state_, block_.data());
  state_ += uint64_t(kBlock) * kGamma;
  next_ = 0;
}

}  // namespace mmasp::gen
