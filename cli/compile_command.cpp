// `mmasp compile`: compile conformance alone — ptxas against the catalog for every target, with the negative set.
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"

namespace mmasp::cli {

Subcommand add_compile_command(CLI::App& mmasp) {
  struct Options {
    CompileOptions compile;
    std::string json_path;
  };
  auto o = std::make_shared<Options>();
  CLI::App* compile = mmasp.add_subcommand("compile", "compile conformance: ptxas against the catalog, for every target");
  add_compile_options(compile, o->compile);
  compile->add_option("--json", o->json_path, "write the accept/reject matrix here (schema mmasp-compile/1)");
  return {compile, [o](int, char**) { return compile_conformance(o->compile, o->json_path); }};
}

}  // namespace mmasp::cli
