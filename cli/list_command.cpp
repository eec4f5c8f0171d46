// `mmasp list`: the instruction space, every legal form (schema mmasp-catalog/1 with --json).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "reports/catalog_json.h"
#include "reports/findings.h"

namespace mmasp::cli {

Subcommand add_list_command(CLI::App& mmasp) {
  struct Options {
    bool json = false;
    std::string filter, target;
  };
  auto o = std::make_shared<Options>();
  CLI::App* list = mmasp.add_subcommand("list", "print the instruction space (every legal form)");
  list->add_flag("--json", o->json, "print JSON (schema mmasp-catalog/1)");
  list->add_option("--filter", o->filter, "only forms whose opcode matches this glob, e.g. '*ordered*bf16*'");
  list->add_option("--target", o->target, "only forms legal on this target, e.g. sm_90a");
  return {list, [o](int, char**) {
            std::optional<Target> target;
            if (!o->target.empty()) target = parse_targets(o->target).front();
            if (const std::string problem = glob_problem(o->filter); !problem.empty()) throw UsageError("--filter: " + problem);
            const auto forms = filter_forms(o->filter, target);
            // As `mmasp run` does: a filter that matches nothing is a mistake to say, not an empty answer.
            if (forms.empty())
              throw UsageError("no form matches --filter '" + o->filter + "'" + (target ? " on " + target->name : std::string()) +
                               " (filters are globs over the whole opcode: '*bf16*', not 'bf16')");
            if (o->json) std::cout << catalog_json(forms).dump(2) << "\n";
            else std::cout << catalog_table(forms);
            return kExitPass;
          }};
}

}  // namespace mmasp::cli
