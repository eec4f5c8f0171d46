// libFuzzer target: arbitrary bytes as a model record (mmasp characterize --save, read by run/screen/selftest
// --model-record). Reading one must either give a record whose every form's parameters the model can compute with
// (each value in its range: parameters_problem is empty, and the model predicts a case of the form), or fail with a
// ModelRecordError that names the source and a JSON pointer.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "generators/bulk.h"
#include "judge/case_judgement.h"
#include "oracle/instruction_space.h"
#include "oracle/model_record_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  const nlohmann::json document =
      nlohmann::json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (document.is_discarded()) return 0;
  ModelRecordFile record;
  try {
    record = parse_model_record(document, "fuzz.json");
  } catch (const ModelRecordError& error) {
    if (std::string(error.what()).rfind("fuzz.json: /", 0) != 0) {
      std::cerr << "model_record_fuzz: an error that names no file and pointer: " << error.what() << "\n";
      std::abort();
    }
    return 0;
  }
  for (const RecordedForm& recorded : record.forms) {
    if (const std::string problem = parameters_problem(recorded.parameters); !problem.empty()) {
      std::cerr << "model_record_fuzz: a record was accepted with " << problem << "\n";
      std::abort();
    }
    const Form* form = find_form(recorded.form);
    if (!form) {
      std::cerr << "model_record_fuzz: a record was accepted for an unknown form\n";
      std::abort();
    }
    // One case of the form: the accepted parameters must predict it (ModelError would mean "accepted but unusable").
    gen::BulkGenerator generator(size);
    MmaCase test;
    generator.next(*form, test, gen::Options{});
    try {
      (void)model_prediction(test, recorded.parameters);
    } catch (const ModelError& error) {
      std::cerr << "model_record_fuzz: an accepted record cannot compute: " << error.what() << "\n";
      std::abort();
    }
    (void)record.provenance();
  }
  return 0;
}
