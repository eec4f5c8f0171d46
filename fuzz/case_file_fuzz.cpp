// libFuzzer target: arbitrary bytes as a case file. Reading one must either succeed or fail with a CaseFileError
// that names the problem — never crash, hang or throw anything else.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "oracle/case_file.h"
#include "oracle/reference.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto json = nlohmann::json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
  if (json.is_discarded()) return 0;
  try {
    const mmasp::CaseFile file = mmasp::parse_case_file(json);
    try {
      (void)mmasp::reference(file.test);
    } catch (const std::invalid_argument&) {
      // Undefined metadata or undecodable codes: the reference refuses, as documented.
    }
  } catch (const mmasp::CaseFileError&) {
  } catch (const nlohmann::json::exception& error) {
    std::cerr << "case_file_fuzz: a JSON type error escaped as " << error.what() << "\n";
    std::abort();
  }
  return 0;
}
