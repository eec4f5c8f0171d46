// `mmasp prepare`: every form's module for a target, compiled into a module store a GPU runner without a toolkit uses
// (`mmasp run --modules`). Each entry is written and read back; a write that fails (a full disk) is named, exit 1.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/module_store.h"
#include "harness/ptx_emitter.h"
#include "reports/findings.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::string target = "sm_90a", out, filter;
};

int prepare_main(const Options& o) {
  const Target target = parse_targets(o.target).front();
  if (const std::string problem = glob_problem(o.filter); !problem.empty()) throw UsageError("--filter: " + problem);
  const PtxasInfo info = locate_ptxas();
  const Ptxas ptxas(info, {}, 1);
  const ModuleStore store(o.out, &ptxas);
  int built = 0, failed = 0;
  for (const auto& form : instruction_space()) {
    if (!form.legal_on(target, form.version_for(target))) continue;
    if (!o.filter.empty() && !glob_match(o.filter, form.opcode)) continue;
    for (int selector : form.selectors) {
      std::string why;
      if (store.prepare(form_module(form, selector, target), target.name, &why)) {
        ++built;
      } else {
        ++failed;
        std::cerr << form.opcode << " sel=" << selector << ": " << why << "\n";
      }
    }
  }
  if (built + failed == 0) throw UsageError("prepare: no form legal on " + target.name + " matches --filter '" + o.filter + "'");
  std::cout << "prepared " << built << " modules for " << target.name << " in " << o.out << " (" << info.version << ")"
            << (failed ? ", " + std::to_string(failed) + " FAILED (the store is incomplete)" : "") << "\n";
  return failed ? kExitFail : kExitPass;
}

}  // namespace

Subcommand add_prepare_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* prepare = mmasp.add_subcommand("prepare", "compile every form's module for a target into a module store (for "
                                           "GPU runners without a toolkit)");
  prepare->add_option("--target", o->target, "target")->capture_default_str();
  prepare->add_option("--out", o->out, "module store directory")->required();
  prepare->add_option("--filter", o->filter, "only forms whose opcode matches this glob");
  return {prepare, [o](int, char**) { return prepare_main(*o); }};
}

}  // namespace mmasp::cli
