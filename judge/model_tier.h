// The model tier's configuration: on a device whose arithmetic has a verified bit-exact model
// (oracle/numeric_model_table.h), every element is also compared bit for bit with the model. The model judges every
// case; the exact reference (the spec tier) judges every case the model does not predict, the whole special set and a
// sample of the random cases. A result inside the spec bound that differs from the model is a Deviation (strict) or a
// QualityWarning (warn).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "oracle/numeric_model.h"

namespace mmasp {

enum class ModelMode { off, warn, strict };
std::string_view name(ModelMode mode);   // "off", "warn", "strict"

struct ModelTier {
  ModelMode mode = ModelMode::off;
  ModelLookup parameters;          // the verified parameters of a form, or nullopt
  std::string description;         // e.g. "sm_90 model (verified on NVIDIA H100 80GB HBM3)"
  std::string eval_options;        // what `mmasp eval` needs to judge a deviation's case file by the same model
                                   // ("--model-record /abs/record.json"); empty: the built-in table
  uint64_t reference_first = 1024; // random suite: the exact reference also judges the first cases of each pair ...
  uint64_t reference_every = 16;   // ... and every Nth after them
  bool active_for(const Form& form) const { return mode != ModelMode::off && parameters && parameters(form).has_value(); }
};

}  // namespace mmasp
