// Sources of random choices for the case distributions (distributions.h). Every distribution is written once,
// against this three-call interface (bits, field, below), and instantiated with SplitMixDraw for the bulk generator
// (fast, seeded, identical on every machine), with RapidCheckDraw (rapidcheck_gen.h) for property tests, where each
// choice shrinks toward 0 — and choice 0 is always the simplest option (zero value, canonical metadata, selector 0) —
// and with the fuzzer's input bytes (fuzz/oracle_fuzz.cpp).
#pragma once

#include <cstddef>
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
  // The next `width` (1..32) bits. Fields are cut from the low end of one 64-bit output at a time; a field never
  // spans two outputs (the bits left over are dropped), so five 12-bit fields cost one call of bits().
  uint32_t field(int width) {
    if (left_ < width) {
      word_ = bits();
      left_ = 64;
    }
    const uint32_t value = uint32_t(word_ & ((uint64_t(1) << width) - 1));
    word_ >>= width;
    left_ -= width;
    return value;
  }
  // Exactly what `count` calls of field(width) would return, handed to sink(i, field) in order: whole outputs are cut
  // into 64 / width fields at a time, with no per-field bookkeeping.
  template <int width, class Sink>
  void fields(size_t count, Sink&& sink) {
    static_assert(width >= 1 && width <= 32);
    constexpr uint64_t mask = (uint64_t(1) << width) - 1;
    constexpr int per_output = 64 / width;
    size_t i = 0;
    for (; i < count && left_ >= width; ++i) sink(i, field(width));
    if (count - i >= size_t(per_output)) {
      // The state in a local: the sink's stores (coverage counters are uint64_t too) could otherwise alias it and
      // keep it in memory, which puts a store-to-load delay on every output.
      SplitMixDraw local(state_);
      uint64_t word = 0;
      for (; count - i >= size_t(per_output); i += per_output) {
        word = local.bits();
        for (int f = 0; f < per_output; ++f) sink(i + size_t(f), uint32_t((word >> (f * width)) & mask));
      }
      state_ = local.state_;
      word_ = per_output * width == 64 ? 0 : word >> (per_output * width);
      left_ = 64 - per_output * width;
    }
    for (; i < count; ++i) sink(i, field(width));
  }
  // Uniform in [0, n) by multiply-shift (Lemire), n > 0.
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(uint32_t(bits() >> 32)) * n) >> 32); }
  uint64_t state() const { return state_; }

 private:
  uint64_t state_;
  uint64_t word_ = 0;
  int left_ = 0;
};

}  // namespace mmasp::gen
