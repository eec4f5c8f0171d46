// Sources of random choices for the case distributions (distributions.h). Every distribution is written once,
// against this two-call interface, and instantiated twice: with SplitMixDraw for the bulk generator (fast, seeded,
// identical on every machine) and with RapidCheckDraw (rapidcheck_gen.h) for property tests, where each choice
// shrinks toward 0 — and choice 0 is always the simplest option (zero value, canonical metadata, selector 0).
#pragma once

#include <cstdint>

namespace mmasp::gen {

// SplitMix64 (Steele, Lea, Flood 2014): tiny state, full 64-bit output, the same stream everywhere. Standard-library
// distributions differ between implementations, so none is used.
class SplitMixDraw {
 public:
  explicit SplitMixDraw(uint64_t seed) : state_(seed) {}
  uint64_t bits() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // 32 bits: the halves of one 64-bit output, in turn.
  uint32_t bits32() {
    if (have_half_) {
      have_half_ = false;
      return half_;
    }
    const uint64_t value = bits();
    half_ = uint32_t(value >> 32);
    have_half_ = true;
    return uint32_t(value);
  }
  // Uniform in [0, n) by multiply-shift (Lemire), n > 0.
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(uint32_t(bits() >> 32)) * n) >> 32); }
  uint64_t state() const { return state_; }

 private:
  uint64_t state_;
  uint32_t half_ = 0;
  bool have_half_ = false;
};

}  // namespace mmasp::gen
