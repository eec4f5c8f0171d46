// Sources of random choices for the case distributions (distributions.h). Every distribution is written once,
// against this three-call interface (bits, field, below), and instantiated with SplitMixDraw for the bulk generator
// (fast, seeded, identical on every machine), with RapidCheckDraw (rapidcheck_gen.h) for property tests, where each
// choice shrinks toward 0 — and choice 0 is always the simplest option (zero value, canonical metadata, selector 0) —
// and with the fuzzer's input bytes (fuzz/oracle_fuzz.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "generators/portable_case.h"

namespace mmasp::gen {

// True when MMASP_PORTABLE=1 is set: the generators' hand-written AVX-512 paths (draw.cpp, distributions.cpp) are
// left unused, so that tests and benchmarks can run the portable code on any machine. Same streams either way.
bool portable_only();

// SplitMix64 (Steele, Lea, Flood 2014): tiny state, full 64-bit output, the same stream everywhere. Standard-library
// distributions differ between implementations, so none is used.
//
// Output i of a stream is mix(seed + (i + 1) * gamma): outputs do not depend on each other, so they are made a block
// at a time by a loop the compiler vectorises (draw.cpp), which is what the bulk generator's speed rests on. The
// stream is the same as one output at a time.
class SplitMixDraw {
 public:
  static constexpr uint64_t kGamma = kSplitMixGamma;
  static constexpr int kBlock = 32;

  explicit SplitMixDraw(uint64_t seed) : state_(seed) {}

  // The output that follows `state`: for one-off hashes, without a block.
  static uint64_t mix(uint64_t state) { return portable::splitmix(state); }

  uint64_t bits() {
    if (next_ == kBlock) refill();
    return block_[size_t(next_++)];
  }

  // The next `width` (1..32) bits. Fields are cut from the low end of one 64-bit output at a time; a field never
  // spans two outputs (the bits left over are dropped), so five 12-bit fields cost one output.
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
    constexpr size_t per_output = size_t(64 / width);
    size_t i = 0;
    for (; i < count && left_ >= width; ++i) sink(i, field(width));
    while (count - i >= per_output) {
      if (next_ == kBlock) refill();
      // Block position and count in locals: the sink's stores (coverage counters are uint64_t too) could alias the
      // members and force a reload per field.
      const uint64_t* outputs = block_.data() + next_;
      const size_t words = std::min(size_t(kBlock - next_), (count - i) / per_output);
      for (size_t w = 0; w < words; ++w, i += per_output) {
        const uint64_t word = outputs[w];
        for (size_t f = 0; f < per_output; ++f) sink(i + f, uint32_t((word >> (f * width)) & mask));
      }
      next_ += int(words);
      if constexpr (per_output * width == 64) word_ = 0;
      else word_ = outputs[words - 1] >> (per_output * width);
      left_ = int(64 - per_output * width);
    }
    for (; i < count; ++i) sink(i, field(width));
  }

  // Exactly what `count` calls of bits() would return, handed to sink(i, output) in order.
  template <class Sink>
  void outputs(size_t count, Sink&& sink) {
    for (size_t i = 0; i < count;) {
      if (next_ == kBlock) refill();
      const uint64_t* block = block_.data() + next_;   // in locals, as in fields()
      const size_t words = std::min(size_t(kBlock - next_), count - i);
      for (size_t w = 0; w < words; ++w) sink(i + w, block[w]);
      next_ += int(words);
      i += words;
    }
  }

  // Exactly what `count` calls of `table[field(width)] & 0xFF` would give, written to out[0], out[1], ...: the
  // narrow element and chunk metadata draws, width 8 or 12. `table` holds 2^width entries and one more of padding,
  // because the AVX-512 path for 12 bits gathers 4 bytes at a time. On CPUs with AVX-512 the outputs are computed
  // in registers and never stored in the block (draw.cpp).
  template <int width>
  void byte_lookups(size_t count, const uint16_t* table, uint32_t* out);

  // Uniform in [0, n) by multiply-shift (Lemire), n > 0.
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(uint32_t(bits() >> 32)) * n) >> 32); }

 private:
  void refill();   // the next kBlock outputs (draw.cpp)

  uint64_t state_;
  std::array<uint64_t, kBlock> block_;
  int next_ = kBlock;
  uint64_t word_ = 0;
  int left_ = 0;
};

}  // namespace mmasp::gen
