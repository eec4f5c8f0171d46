// Inputs that tell two parameter sets of the bit-exact model apart (issue #27): where mmasp characterize's probes
// cannot decide between two values of a parameter, an input on which the two predict different D settles it when the
// hardware runs it. The search is on the CPU (the model is pure C++): it only finds the input; the device decides.
//
// Where to look, in order:
//  1. the cases given (probes, the special set, random cases of every generator profile);
//  2. a mutation search guided by the model's events (oracle/numeric_model.h, ModelEventScope): from the given cases,
//     one to three element codes are changed at a time (a random code, a bit, the sign, zero, a copy of another
//     element, an exponent near another element's, the type's extremes, C set to cancel its row's products), and a
//     change is kept when the two parameter sets' events differ at least as much as before: inputs on which the two
//     compute differently inside, even where their roundings still agree, lead to inputs where D differs.
// Nothing found within the budget does not show the two equivalent: the caller says so (alternatives left).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "oracle/mma_case.h"
#include "oracle/numeric_model.h"

namespace mmasp {

struct DiscriminatingSearch {
  uint64_t seed = 1;
  uint64_t random_cases = 4096;    // fresh random cases of every profile tried before the mutation search
  uint64_t mutations = 20000;      // mutated inputs tried
};

// An input (defined: no undefined metadata) whose D differs between `a` and `b`; nullopt when none was found.
std::optional<MmaCase> find_discriminating_case(const Form& form, int selector, const ModelParameters& a,
                                                const ModelParameters& b, std::span<const MmaCase> starts,
                                                const DiscriminatingSearch& search);

// The same search between any two computations of D: `probe` says of an input whether both are defined on it,
// whether they differ, and (when asked: it may cost more) how close it comes to telling them apart (larger is closer; a mutation is kept when it does
// not lower it). A fault of the datapath (oracle/fault_model.h) against the fault-free datapath is such a pair, guided
// by how often the fault changed a value inside. Integer forms too.
struct Discrimination {
  bool defined = false;
  bool differs = false;
  int64_t distance = 0;
};
std::optional<MmaCase> find_discriminating_case(const Form& form, int selector,
                                                const std::function<Discrimination(const MmaCase&, bool distance)>& probe,
                                                std::span<const MmaCase> starts, const DiscriminatingSearch& search);

}  // namespace mmasp
