// Case files (schema "mmasp-case/1", documented in docs/case-files.md): one test case in JSON, written by people or
// by mmasp when a failure is shrunk, read by `mmasp eval` and `mmasp repro`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/classification.h"
#include "oracle/mma_case.h"

namespace mmasp {

struct CaseFile {
  MmaCase test;
  std::vector<std::string> comment;                // free text; hand-written files derive expected_d here
  std::optional<std::vector<uint32_t>> expected_d;  // M x N codes the author expects (checked by the test suite)
  std::optional<std::vector<uint32_t>> observed_d;  // M x N codes a run produced
  std::optional<Status> expected_status;            // what classify must say of observed_d
  nlohmann::json provenance;                        // device, driver, seed, ... when a run wrote the file
  // The architecture of the device that observed the case ("sm_90"; provenance.architecture): `mmasp eval` judges
  // observed_d by that architecture's verified model. Absent for hand-written and emulated cases.
  std::optional<std::string> architecture;
};

class CaseFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

CaseFile parse_case_file(const nlohmann::json& json);   // throws CaseFileError naming the offending field
CaseFile load_case_file(const std::filesystem::path& path);
nlohmann::json to_json(const CaseFile& file);           // codes as hex strings; parse_case_file reads it back
void save_case_file(const CaseFile& file, const std::filesystem::path& path);

// The value notation of case files, for one element of `type`: a JSON number (encoded exactly, or an error), or a
// string: "0x..." / "0b..." raw code, "nan", "inf", "-inf", "-0".
uint32_t parse_element(ElemType type, const nlohmann::json& value, const std::string& where);

}  // namespace mmasp
