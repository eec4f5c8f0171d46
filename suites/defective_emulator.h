// Test backends: the CPU emulator with a defect that a subclass adds in run(), to show that a suite catches it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include <utility>

#include "harness/backend.h"

namespace mmasp {

class DefectiveEmulator : public Backend {
 public:
  explicit DefectiveEmulator(std::string description) : description_(std::move(description)) {}
  std::string description() const override { return description_; }
  bool is_hardware() const override { return false; }
  bool supports(const Form&, std::string*) const override { return true; }

 protected:
  EmulatorBackend inner_;

 private:
  std::string description_;
};

// The emulator with bits `mask` of D[0][0] (lane 0, register 0) flipped in the cases `hit` picks, by launch number and
// by the case's index over all launches: a transient fault (first launch only), one bad case, ...
class FlippingEmulator final : public DefectiveEmulator {
 public:
  FlippingEmulator(std::string description, uint32_t mask, std::function<bool(int launch, uint64_t case_index)> hit)
      : DefectiveEmulator(std::move(description)), mask_(mask), hit_(std::move(hit)) {}
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override {
    std::vector<uint32_t> out = inner_.run(form, selector, input, cases);
    for (uint32_t c = 0; c < cases; ++c)
      if (hit_(launches_, seen_ + c)) out[c * (out.size() / cases)] ^= mask_;
    seen_ += cases;
    ++launches_;
    return out;
  }

 private:
  uint32_t mask_;
  std::function<bool(int, uint64_t)> hit_;
  int launches_ = 0;
  uint64_t seen_ = 0;
};

}  // namespace mmasp
