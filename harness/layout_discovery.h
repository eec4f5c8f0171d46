// Layout discovery: one-hot probes that derive, from what the hardware computes, which lane, register and slot holds
// which element of A, B and C/D, and which metadata nibbles the instruction reads for a selector — then compare
// that with the oracle's layout model (oracle/layout.h). Probes are written as registers, not through the model.
//
// What the probes cannot see: any permutation of K applied alike to A's columns and B's rows leaves every D
// unchanged, so "verified" means verified up to such a permutation — which no program can observe either.
#pragma once

#include <string>
#include <vector>

#include "harness/backend.h"

namespace mmasp {

struct OperandDiscovery {
  std::string operand;                 // "A", "B", "C/D", "metadata"
  int probes = 0;
  int matched = 0;
  std::vector<std::string> mismatches; // the first few, each a minimal probe and what differed
};

struct LayoutDiscovery {
  const Form* form = nullptr;
  int selector = 0;
  std::vector<OperandDiscovery> operands;
  bool all_match() const;
  std::string error;                   // set when the probes could not run
};

LayoutDiscovery discover_layout(Backend& backend, const Form& form, int selector);

}  // namespace mmasp
