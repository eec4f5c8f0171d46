// Test backends: the CPU emulator with a defect that a subclass adds in run(), to show that a suite catches it.
#pragma once

#include <string>
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

}  // namespace mmasp
