// Shared pieces of the mmasp command: exit codes, usage errors, option groups, compile conformance.
#pragma once

#include <cstdint>
#include <filesystem>
#include <type_traits>
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
#include "run/run_options.h"
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

// Registers the options a visit_*_options() list declares (run/run_options.h) with CLI11: whole numbers checked
// strictly against the declared range, seconds positive, enums by their names (parsed here, once, into the typed
// member), --x,!--no-x flags as optional<bool>, internal options hidden. An option only a GPU honours, given
// explicitly with a value other than auto or off, records itself in `gpu_option` (the first one given).
class OptionRegistrar {
 public:
  explicit OptionRegistrar(CLI::App* app, std::string* gpu_option = nullptr) : app_(app), gpu_option_(gpu_option) {}
  template <typename T>
  void operator()(const run::OptionSpec& spec, T& member);

 private:
  void finish(CLI::Option* option, const run::OptionSpec& spec, bool by_value = true);
  // Called by CLI11 while it parses, after this registrar is gone: it holds only the target of the record.
  static void needs_gpu(std::string* gpu_option, const run::OptionSpec& spec, const std::string& value);
  CLI::App* app_;
  std::string* gpu_option_;
};

template <typename T>
void OptionRegistrar::operator()(const run::OptionSpec& spec, T& member) {
  if constexpr (std::is_same_v<T, bool>) {
    finish(app_->add_flag(spec.flags, member, spec.help), spec, false);
  } else if constexpr (std::is_same_v<T, std::optional<bool>>) {
    finish(app_->add_flag_function(spec.flags, [&member](int64_t count) { member = count > 0; }, spec.help), spec, false);
  } else if constexpr (std::is_enum_v<T>) {
    std::vector<std::string> names;
    for (const auto& [spelled, value] : run::choices<T>()) names.push_back(spelled);
    CLI::Option* option = app_->add_option_function<std::string>(
        spec.flags,
        [gpu_option = gpu_option_, spec, &member](const std::string& text) {
          for (const auto& [spelled, value] : run::choices<T>())
            if (spelled == text) member = value;
          if (spec.gpu_only) needs_gpu(gpu_option, spec, text);
        },
        spec.help);
    option->check(CLI::IsMember(names))->default_str(std::string(run::name(member)));
    finish(option, spec, false);
  } else if constexpr (std::is_same_v<T, run::CompilePaths>) {
    CLI::Option* option = app_->add_option_function<std::string>(
        spec.flags,
        [&member](const std::string& text) {
          std::string why;   // the check below has refused what does not parse
          if (auto parsed = run::compile_paths_named(text, &why)) member = *parsed;
        },
        spec.help);
    option->check(CLI::Validator(
        [](std::string& text) {
          std::string why;
          return run::compile_paths_named(text, &why) ? std::string() : why;
        },
        "PATHS"));
    option->default_str(run::name(member));
    finish(option, spec);
  } else if constexpr (std::is_integral_v<T>) {
    CLI::Option* option = app_->add_option(spec.flags, member, spec.help)->check(whole_number(spec.low, spec.high));
    if (uint64_t(member) >= spec.low) option->capture_default_str();   // 0 for --cases means "not given": not shown
    finish(option, spec);
  } else if constexpr (std::is_floating_point_v<T>) {
    CLI::Option* option = app_->add_option(spec.flags, member, spec.help);
    if (spec.seconds) option->check(kSeconds);
    finish(option, spec);
  } else {
    finish(app_->add_option(spec.flags, member, spec.help)->capture_default_str(), spec);
  }
}

// An option whose values are the names of an enum's values: refused with the list of names, carried as the enum.
template <typename E>
CLI::Option* add_enum_option(CLI::App* app, const std::string& flags, E& member,
                             const std::vector<std::pair<std::string, E>>& names, const std::string& help) {
  std::vector<std::string> spelled;
  std::string shown;
  for (const auto& [text, value] : names) {
    spelled.push_back(text);
    if (value == member) shown = text;
  }
  return app
      ->add_option_function<std::string>(
          flags,
          [&member, names](const std::string& text) {
            for (const auto& [name, value] : names)
              if (name == text) member = value;
          },
          help)
      ->check(CLI::IsMember(spelled))
      ->default_str(shown);
}

// with_filter false: the command has its own --filter (mmasp run filters forms).
void add_compile_options(CLI::App* command, CompileOptions& options, bool with_filter = true);

// argv as a line a shell reads back to the same words (what reports show as the command).
std::string command_line(int argc, char** argv);

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
