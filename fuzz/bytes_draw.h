// The fuzzers' bytes as the random choices of the case distributions (generators/draw.h): every byte string is a case,
// so no execution is spent on inputs that decode to nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "generators/splitmix.h"

namespace mmasp::fuzz {

// Draws from the fuzzer's bytes. Once they run out: zeros (zero is always the simplest choice), or, with
// `random_tail`, a pseudo-random stream seeded by the bytes themselves — so that a short input is already a case as
// rich as random generation gives (a case of m16n8k16 takes about 3 KB of choices), and the fuzzer's mutations steer
// its first choices (profile, selector, metadata pattern, leading values).
class BytesDraw {
 public:
  BytesDraw(const uint8_t* data, size_t size, bool random_tail = false) : data_(data), size_(size), random_tail_(random_tail) {
    for (size_t i = 0; i < size; ++i) state_ = (state_ ^ data[i]) * 0x100000001B3ull;   // FNV-1a of the input
  }
  uint64_t bits() {
    if (used_ >= size_ && random_tail_) {
      state_ += kSplitMixGamma;
      return splitmix_finalize(state_);
    }
    uint64_t value = 0;
    const size_t n = std::min<size_t>(8, size_ - used_);
    std::memcpy(&value, data_ + used_, n);
    used_ += n;
    return value;
  }
  uint32_t field(int width) { return uint32_t(bits() & ((uint64_t(1) << width) - 1)); }
  uint32_t below(uint32_t n) { return uint32_t(bits() % n); }

 private:
  const uint8_t* data_;
  size_t size_, used_ = 0;
  bool random_tail_;
  uint64_t state_ = 0xCBF29CE484222325ull;
};

}  // namespace mmasp::fuzz
