// `--emulate`: what the CPU emulator computes float forms with, for run, characterize and coverage.
#pragma once

#include <string>

#include "oracle/numeric_model.h"

namespace mmasp::run {

// "table" (the built-in sm_90 records), "hypothesis" (the published dense parameters) or "name=value,..." changes to
// the hypothesis; `described` says which, for the reports. Throws std::invalid_argument naming a bad change.
ModelLookup emulated_arithmetic(const std::string& emulate, std::string* described);

}  // namespace mmasp::run
