// Shared pieces of the mmasp command: exit codes, usage errors, option groups, compile conformance.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "oracle/instruction_space.h"
#include "oracle/target.h"
#include "run/compile_step.h"
#include "run/usage_error.h"

namespace mmasp::cli {

// Exit codes (dEQP-like): every result Pass/QualityWarning/NotSupported/Waived -> 0, any Fail/Crash/Timeout -> 1,
// usage or environment error -> 2.
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

using mmasp::UsageError;
using run::parse_targets;
using run::CompileOptions;

std::vector<const Form*> filter_forms(const std::string& glob, const std::optional<Target>& target);
// The (form, selector) pairs a backend runs whose opcode matches `filter` and not `exclude` (empty: nothing excluded)
// and that `keep` accepts (empty: all).
std::vector<std::pair<const Form*, int>> selected_pairs(const std::string& filter, const std::string& exclude,
                                                        const std::function<bool(const Form&)>& runs,
                                                        const std::function<bool(const Form&)>& keep = {});

// Strict numbers on the command line, checked on the text before CLI11 converts it: digits only (CLI11 would read "-5"
// into an unsigned option as 2^64 - 5, and 2^64 as 2^64 - 1), within [low, high]. The message names the range.
CLI::Validator whole_number(uint64_t low, uint64_t high);
inline constexpr uint64_t kMaxThreads = 4096;
// A finite number of seconds greater than 0.
extern const CLI::Validator kSeconds;

// with_filter false: the command has its own --filter (mmasp run filters forms).
void add_compile_options(CLI::App* command, CompileOptions& options, bool with_filter = true);

// Progress of a long step: a rewritten line on a terminal, a line per tenth otherwise.
class Progress {
 public:
  explicit Progress(std::string label);
  void operator()(size_t done, size_t total);

 private:
  std::string label_;
  bool tty_;
};

// `mmasp compile`: runs compile conformance, prints its summary and writes its JSON; returns the exit code.
int compile_conformance(const CompileOptions& options, const std::filesystem::path& out_json);

}  // namespace mmasp::cli
