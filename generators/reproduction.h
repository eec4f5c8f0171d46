// What a failing case leaves behind: a case file (docs/case-files.md) and one line that reproduces it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "oracle/mma_case.h"

namespace mmasp::gen {

// Where failures are saved: $MMASP_FAILURE_DIR, else ./mmasp-failures.
std::filesystem::path failure_directory();

// Saves the case (with the observed D when there is one) and returns the one-line reproduction:
// "repro: mmasp eval <file>   # <origin>". `origin` says where it came from (test name, seed, device).
// `comments`: extra lines for the file's comment (e.g. what a model predicted). `directory`: where to save; empty:
// failure_directory(). `architecture`: the device's ("sm_90"), recorded for `mmasp eval` to pick that model; empty on
// the emulator.
std::string save_failure(const MmaCase& test, std::optional<std::span<const uint32_t>> observed_d,
                         const std::string& origin, const std::vector<std::string>& comments = {},
                         const std::filesystem::path& directory = {}, const std::string& architecture = "");

}  // namespace mmasp::gen
