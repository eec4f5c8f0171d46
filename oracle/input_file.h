// Reading a file that came from outside (a case file, a run.json, a waivers file, a journal, a findings file, a cache
// entry): the one place that says what is too large to be what it claims, and the one JSON reader every such file
// goes through. A wrong, damaged or crafted file fails at once with its name and the JSON pointer of what is wrong,
// never with a crash, a silent reinterpretation or an unnamed library error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "oracle/text.h"   // printable(), for what a file says in an error

namespace mmasp {

// The largest file of each kind mmasp reads. A case file holds one case (about 20 KB for the largest form); a run.json
// of all 152 sm_90 pairs is about 1 MB, and a journal about the same.
inline constexpr uintmax_t kMaxCaseFileBytes = uintmax_t(4) << 20;
inline constexpr uintmax_t kMaxRunFileBytes = uintmax_t(256) << 20;
inline constexpr uintmax_t kMaxSmallJsonBytes = uintmax_t(16) << 20;   // waivers, findings, cache entries

// The deepest nesting any file mmasp writes or documents has is 6 (run.json: /results/0/resident/...); 64 leaves room
// for hand-written provenance. Deeper input is refused before it is built: copying and destroying a value nested
// 100,000 deep recurses once per level and overflows the stack.
inline constexpr int kMaxJsonDepth = 64;

struct InputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The whole file; InputFileError "PATH: cannot open" / "PATH: a directory, not a file" / "PATH: not a regular file" /
// "PATH: 52428800 bytes, more than the 4194304 a case file can be". A FIFO or device is refused without being opened
// for reading, so a planted FIFO never hangs the reader.
std::string read_input_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind);

// `text` as JSON, read strictly: a key given twice in one object, nesting deeper than kMaxJsonDepth, and a number a
// double cannot hold (1e400, or 1e-400 which would silently read as 0) are errors. InputFileError
// "SOURCE: /pointer: what", or "SOURCE: ends early (truncated?) at byte N" / "SOURCE: not valid JSON at byte N (...)".
nlohmann::json parse_json_input(std::string_view text, const std::string& source);

// read_input_file, then parse_json_input with the path as the source.
nlohmann::json read_json_file(const std::filesystem::path& path, uintmax_t max_bytes, const std::string& kind);

}  // namespace mmasp
