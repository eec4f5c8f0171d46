// The fuzzers' bytes as the random choices of the case distributions (generators/draw.h): every byte string is a case,
// so no execution is spent on inputs that decode to nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace mmasp::fuzz {

// Draws from the fuzzer's bytes; zeros once they run out (zero is always the simplest choice).
class BytesDraw {
 public:
  BytesDraw(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint64_t bits() {
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
};

}  // namespace mmasp::fuzz
