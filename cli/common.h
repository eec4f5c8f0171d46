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

namespace mmasp::cli {

// Exit codes (dEQP-like): every result Pass/QualityWarning/NotSupported/Waived -> 0, any Fail/Crash/Timeout -> 1,
// usage or environment error -> 2.
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<Target> parse_targets(const std::string& list);
std::vector<const Form*> filter_forms(const std::string& glob, const std::optional<Target>& target);
// The (form, selector) pairs a backend runs whose opcode matches `filter` and not `exclude` (empty: nothing excluded)
// and that `keep` accepts (empty: all).
std::vector<std::pair<const Form*, int>> selected_pairs(const std::string& filter, const std::string& exclude,
                                                        const std::function<bool(const Form&)>& runs,
                                                        const std::function<bool(const Form&)>& keep = {});

struct CompileOptions {
  std::string filter;
  std::string targets = "sm_80,sm_86,sm_89,sm_90a,sm_100a,sm_120a";
  std::string json_path;
  std::string cache_dir;
  bool no_cache = false;
  bool no_negative = false;
  std::string ptxas;
  std::string findings;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};
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

// Runs compile conformance and writes its reports; returns the exit code.
int compile_conformance(const CompileOptions& options, const std::filesystem::path& out_json);

}  // namespace mmasp::cli
