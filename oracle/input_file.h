// Reading a file that came from outside (a case file, a run.json, a waivers file, a journal): one place that says what
// is too large to be what it claims, so that a wrong or damaged file fails at once with its name instead of costing
// seconds and gigabytes before a parse error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace mmasp {

// The largest file of each kind mmasp reads. A case file holds one case (about 20 KB for the largest form); a run.json
// of all 152 sm_90 pairs is about 1 MB, and a journal about the same.
inline constexpr uintmax_t kMaxCaseFileBytes = uintmax_t(4) << 20;
inline constexpr uintmax_t kMaxRunFileBytes = uintmax_t(256) << 20;
inline constexpr uintmax_t kMaxSmallJsonBytes = uintmax_t(16) << 20;   // waivers, findings

struct InputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole file; InputFileError "PATH: cannot open" / "PATH: a directory, not a file" / "PATH: 52428800 bytes, more
// than the 4194304 a case file can be".
std::string read_input_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind);

}  // namespace mmasp
