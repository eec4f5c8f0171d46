// The subcommands of mmasp, one file each (cli/<name>_command.cpp): each registers its options on its own CLI11 app and
// says what it does once they are parsed. cli/mmasp.cpp only lists them and dispatches.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace mmasp::cli {

struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int(int argc, char** argv)> run;   // the exit status; UsageError and std::exception are caught by main
};

Subcommand add_list_command(CLI::App& mmasp);
Subcommand add_emit_command(CLI::App& mmasp);
Subcommand add_compile_command(CLI::App& mmasp);
Subcommand add_run_command(CLI::App& mmasp);
Subcommand add_characterize_command(CLI::App& mmasp);
Subcommand add_selftest_command(CLI::App& mmasp);
Subcommand add_eval_command(CLI::App& mmasp);
Subcommand add_ub_probe_command(CLI::App& mmasp);
Subcommand add_diff_command(CLI::App& mmasp);
Subcommand add_repro_command(CLI::App& mmasp);
Subcommand add_merge_command(CLI::App& mmasp);
Subcommand add_report_command(CLI::App& mmasp);
Subcommand add_prepare_command(CLI::App& mmasp);
Subcommand add_screen_command(CLI::App& mmasp);
Subcommand add_coverage_command(CLI::App& mmasp);

}  // namespace mmasp::cli
