// Characterisation probes: named, hand-built cases in the style of Fasi, Higham, Mikaitis and Pranesh (PeerJ CS
// 2021), each of which makes one property of the arithmetic visible in D (how many fraction bits survive alignment,
// how a block's sum is rounded, which products are fused together, what happens to subnormals, ...).
//
// A probe names the parameter it was built for, but it is not interpreted by hand: mmasp characterize asks the model
// (oracle/numeric_model.h) what each value of every parameter predicts for it, so a probe tells apart whichever values
// it happens to separate. Probes whose terms a form's types cannot represent exactly are left out for that form.
#pragma once

#include <string>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp::gen {

struct ModelProbe {
  std::string name;        // what the probe holds, e.g. "fraction bits: 1 - 1 + 2^-25 (C=0)"
  std::string parameter;   // the model parameter it was built to show
  MmaCase test;
};

std::vector<ModelProbe> model_probes(const Form& form, int selector);

}  // namespace mmasp::gen
