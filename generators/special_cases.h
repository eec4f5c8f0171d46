// The special-value set: a fixed, named list of cases per form that isolate one rule each (IEEE special values,
// overflow, subnormals, cancellation, s32 wrap and saturation, tf32's low bits, ignored metadata lanes). Unlike the
// random cases these are the same on every run, so a change in any of them is a change in behaviour.
#pragma once

#include <string>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp::gen {

struct NamedCase {
  std::string name;
  MmaCase test;
};

std::vector<NamedCase> special_value_cases(const Form& form, int selector);

}  // namespace mmasp::gen
