// libFuzzer target: arbitrary bytes as a case file. Reading one must either succeed or fail with a CaseFileError
// that names the problem — never crash, hang or throw anything else — and a case that was read must evaluate and
// classify without either.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"
#include "oracle/reference.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto json = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (json.is_discarded()) return 0;
  try {
    const mmasp::CaseFile file = mmasp::parse_case_file(json);
    // Through evaluation and classification too, as `mmasp eval` does: judge() labels undefined inputs and never
    // throws for a file that was read; the model, where the form has one, computes a D of the right size.
    if (file.observed_d) (void)mmasp::judge(file.test, *file.observed_d);
    if (file.expected_d) (void)mmasp::judge(file.test, *file.expected_d);
    if (mmasp::undefined_behaviour(file.test).empty()) {
      try {
        (void)mmasp::reference(file.test);
        if (const auto model = mmasp::verified_model(*file.test.form, "sm_90")) {
          if (mmasp::model_result(file.test, *model).size() != file.test.c.size()) {
            std::cerr << "case_file_fuzz: the model's D has the wrong size\n";
            std::abort();
          }
        }
      } catch (const std::invalid_argument&) {
        // A refusal the reference and model document (e.g. codes they cannot decode), not a crash.
      }
    }
  } catch (const mmasp::CaseFileError&) {
  } catch (const nlohmann::json::exception& error) {
    std::cerr << "case_file_fuzz: a JSON type error escaped as " << error.what() << "\n";
    std::abort();
  }
  return 0;
}
