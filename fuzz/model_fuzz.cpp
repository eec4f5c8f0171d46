// libFuzzer target: the verified bit-exact sm_90 model against the exact reference. Every byte string is a defined
// case of a form that has a verified model (fuzz/bytes_draw.h); the model's D — what the hardware computes, verified
// bit for bit on millions of cases — must stay inside the spec bound (never Fail). An input where it does not is a
// finding about the hardware's arithmetic or a defect of the model or the bound: libFuzzer keeps it, and the case is
// printed as a case file.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "fuzz/bytes_draw.h"
#include "generators/distributions.h"
#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"

namespace {

const std::vector<const mmasp::Form*>& modelled_forms() {
  static const std::vector<const mmasp::Form*> forms = [] {
    std::vector<const mmasp::Form*> out;
    for (const auto& form : mmasp::instruction_space())
      if (mmasp::verified_model(form, "sm_90")) out.push_back(&form);
    return out;
  }();
  return forms;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  if (size < 2 || modelled_forms().empty()) return 0;
  const Form& form = *modelled_forms()[data[0] % modelled_forms().size()];
  fuzz::BytesDraw draw(data + 1, size - 1, /*random_tail=*/true);
  gen::Options options;
  options.undefined_behaviour = false;
  MmaCase test;
  gen::draw_case(draw, form, options, test);
  if (!undefined_behaviour(test).empty()) return 0;
  const std::vector<uint32_t> d = model_result(test, *verified_model(form, "sm_90"));
  const CaseVerdict verdict = judge(test, d);
  if (is_failure(verdict.status)) {
    CaseFile file{test, {"model_fuzz: the verified sm_90 model is outside the spec bound: " + verdict.worst.reason}, {}, d, {}, {}};
    std::cerr << "model_fuzz: " << verdict.worst.reason << " at D[" << verdict.worst.row << "][" << verdict.worst.col
              << "]\n" << to_json(file).dump(1) << "\n";
    std::abort();
  }
  return 0;
}
