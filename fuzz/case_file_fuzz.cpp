// libFuzzer target: arbitrary bytes as a case file, read as `mmasp eval` and `mmasp repro` read one (the strict JSON
// reader: repeated keys, deep nesting and numbers a double cannot hold are refused). Reading must either succeed or
// fail with an error that names the problem — never crash, hang or throw anything else — and a case that was read must
// evaluate, classify, pack into the warp's registers and back, and run on the emulator without either, undefined-
// behaviour cases included (issue #29: out-of-range scale ids once wrote past the lane array in to_registers).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "harness/backend.h"
#include "judge/suites.h"
#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/fragments.h"
#include "oracle/input_file.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"
#include "oracle/reference.h"

namespace {

[[noreturn]] void broken(const std::string& what) {
  std::cerr << "case_file_fuzz: " << what << "\n";
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  nlohmann::json json;
  try {
    json = parse_json_input(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const InputFileError& error) {
    if (std::string(error.what()).rfind("fuzz.json: ", 0) != 0) broken(std::string("an error without the file: ") + error.what());
    return 0;
  }
  CaseFile file;
  try {
    file = parse_case_file(json);
  } catch (const CaseFileError&) {
    return 0;
  } catch (const nlohmann::json::exception& error) {
    broken(std::string("a JSON type error escaped as ") + error.what());
  }
  const MmaCase& test = file.test;
  // Through evaluation and classification, as `mmasp eval` does: judge() labels undefined inputs and never throws for
  // a file that was read; the model, where the form has one, computes a D of the right size.
  if (file.observed_d) (void)judge(test, *file.observed_d);
  if (file.expected_d) (void)judge(test, *file.expected_d);
  const bool defined = undefined_behaviour(test).empty();
  if (defined) {
    try {
      (void)reference(test);
      if (const auto model = verified_model(*test.form, "sm_90"))
        if (model_result(test, *model).size() != test.c.size()) broken("the model's D has the wrong size");
    } catch (const std::invalid_argument&) {
      // A refusal the reference and model document (e.g. codes they cannot decode), not a crash.
    }
  }
  // Through packing and the emulator, as `mmasp repro --emulator` (and its isolated child for undefined cases) does.
  const WarpRegisters registers = to_registers(test);
  const MmaCase back = from_registers(*test.form, registers);
  if (defined && (back.a_compressed != test.a_compressed || back.b != test.b || back.c != test.c || back.nibbles != test.nibbles))
    broken("a defined case does not read back from its registers");
  EmulatorBackend emulator;
  try {
    const auto d = execute(emulator, *test.form, test.selector, {test});
    if (d.size() != 1 || d[0].size() != test.c.size()) broken("the emulator's D has the wrong size");
  } catch (const std::invalid_argument&) {
    // The emulator refuses what it cannot compute (undefined metadata), as the reference does.
  }
  return 0;
}
