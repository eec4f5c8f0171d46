// mmasp: conformance and fuzz testing of the mma.sp / mma.sp::ordered_metadata instructions. Each subcommand is a file
// of its own (cli/commands.h); this lists them, names an unknown one, and turns errors into exit status 2.
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/common.h"

using namespace mmasp::cli;

int main(int argc, char** argv) {
  CLI::App app{"mmasp: conformance and fuzz tests for PTX mma.sp / mma.sp::ordered_metadata"};
  app.require_subcommand(1);
  const std::vector<Subcommand> commands = {
      add_list_command(app),   add_emit_command(app),     add_compile_command(app),  add_run_command(app),
      add_characterize_command(app), add_selftest_command(app), add_eval_command(app), add_ub_probe_command(app),
      add_diff_command(app),   add_repro_command(app),    add_merge_command(app),    add_report_command(app),
      add_prepare_command(app), add_screen_command(app), add_coverage_command(app)};
  // An unknown command is named (CLI11 would only say that a subcommand is required).
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const Subcommand& command : commands) {
      found |= command.app->get_name() == argv[1];
      if (!command.app->get_group().empty()) known += " " + command.app->get_name();
    }
    if (!found) {
      std::cerr << "mmasp: unknown command '" << argv[1] << "'; commands:" << known << "\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }
  try {
    for (const Subcommand& command : commands)
      if (*command.app) return command.run(argc, argv);
  } catch (const std::exception& error) {   // UsageError included: the message names what is wrong
    std::cerr << "mmasp: " << error.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
