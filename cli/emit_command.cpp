// `mmasp emit`: the PTX module mmasp runs for one form, or the module of one compile case (a minimal reproduction for
// a compiler team). A module the legality predicate says ptxas must reject is written only with --illegal.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/compile_conformance.h"
#include "harness/ptx_emitter.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::string form, target = "sm_90a", version, case_id;
  int selector = 0;
  bool illegal = false;
};

int emit_case(const std::string& id) {
  // The exact module compile conformance assembles for this case.
  const std::vector<Target> targets = known_targets();
  auto cases = catalog_cases(instruction_space(), targets);
  auto negatives = negative_cases(instruction_space(), targets);
  cases.insert(cases.end(), negatives.begin(), negatives.end());
  for (const auto& test : cases)
    if (test.id == id) {
      std::cout << "// " << test.id << "\n// expected: " << name(test.expected) << " (" << test.why << ")\n"
                << "// ptxas -arch=" << test.target.name << " this.ptx\n"
                << emit_module(test.instruction, test.version, test.target);
      return kExitPass;
    }
  throw UsageError("no compile case '" + id + "' (ids are in compile.json)");
}

int emit_form(const Options& o) {
  if (o.form.empty()) throw UsageError("emit: give a form's opcode or --case ID");
  const Form* form = find_form(o.form);
  if (!form) throw UsageError("no form '" + o.form + "' in the catalog; see `mmasp list`");
  const Target target = parse_targets(o.target).front();
  PtxVersion version = form->version_for(target);
  if (!o.version.empty()) {
    const auto parsed = parse_ptx_version(o.version);
    if (!parsed) throw UsageError("bad PTX version '" + o.version + "'");
    version = *parsed;
  }
  // The legality predicate decides, as compile conformance does: a module the catalog says ptxas must reject is
  // written only when asked for (to reproduce a compile finding), never as if it were a runnable one.
  const Legality legal = legality(parts_of(*form), o.selector, nullptr, target, version);
  if (!legal.legal()) {
    if (!o.illegal)
      throw UsageError("emit: " + form->opcode + " sel=" + std::to_string(o.selector) + " in PTX " + version.str() + " for " +
                       target.name + " is illegal (" + legal.rule + ": " + legal.why +
                       "); ptxas must reject it. Give --illegal to write it anyway, or see `mmasp list --target " +
                       target.name + "`");
    std::cerr << "note: illegal by the catalog (" << legal.rule << "): ptxas must reject this module\n";
  }
  std::cout << emit_module(instruction_for(*form, o.selector), version, target);
  return kExitPass;
}

}  // namespace

Subcommand add_emit_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* emit = mmasp.add_subcommand("emit", "print the PTX module mmasp runs for one form, or the module of one compile case");
  emit->add_option("form", o->form, "the form's opcode (see mmasp list)");
  emit->add_option("--case", o->case_id, "the id of a compile case, legal or not (see compile.json), e.g. 'reject/ctype-ne-dtype/...@sm_90a'")
      ->excludes("form");
  emit->add_option("--selector", o->selector, "sparsity selector (the operand is 0..3)")->capture_default_str()
      ->check(whole_number(0, 3));
  emit->add_option("--target", o->target, "target")->capture_default_str();
  emit->add_option("--ptx-version", o->version, "PTX version (default: the lowest that works)");
  emit->add_flag("--illegal", o->illegal, "write the module even where the catalog says ptxas must reject it (a form "
                 "not legal on the target, a PTX version below the form's minimum, a selector outside its range)");
  return {emit, [o](int, char**) { return o->case_id.empty() ? emit_form(*o) : emit_case(o->case_id); }};
}

}  // namespace mmasp::cli
