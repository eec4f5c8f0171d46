// `mmasp ub-probe` (internal): undefined-behaviour jobs in a process of their own, started by `mmasp run --ub` on a
// GPU (run/ub_isolation.h), so that a trapping instruction takes this process and not the run.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "run/backends.h"
#include "run/ub_isolation.h"

namespace mmasp::cli {
namespace {

struct UbProbeOptions : run::UbChildOptions {
  std::string form;
  int selector = 0;
  int out_of_range = -1;
  // Batch mode: "opcode@selector@value" per job (value -1: the UB suite of that selector; else that out-of-range
  // selector value).
  std::vector<std::string> jobs;
};

void add_ub_probe_options(CLI::App* command, UbProbeOptions& o) {
  command->add_option("--form", o.form, "opcode");
  command->add_option("--job", o.jobs, "opcode@selector@value, repeatable (batch mode)");
  command->add_option("--selector", o.selector, "the suite's selector");
  command->add_option("--seed", o.seed, "seed");
  command->add_option("--device", o.device, "GPU ordinal");
  add_enum_option<CompilePath>(command, "--path", o.path,
                               {{"toolkit", CompilePath::toolkit}, {"driver-jit", CompilePath::driver_jit}},
                               "toolkit or driver-jit");
  command->add_option("--modules", o.modules, "toolkit module store");
  command->add_option("--cases", o.cases, "undefined-behaviour cases");
  command->add_option("--threads", o.threads, "host threads");
  command->add_option("--out-of-range", o.out_of_range, "probe this out-of-range selector value instead");
}

int ub_probe_main(const UbProbeOptions& o) {
  std::vector<run::UbJob> jobs;
  for (const auto& text : o.jobs) jobs.push_back(run::parse_ub_job(text));
  if (jobs.empty()) {
    const Form* form = find_form(o.form);
    if (!form) throw UsageError("no form '" + o.form + "'");
    jobs.push_back({form, o.selector, o.out_of_range});
  }
  run::BackendRequest request;
  request.device = o.device;
  request.paths = run::CompilePaths{{o.path}};
  request.modules = o.modules;
  const run::Backends backends = run::make_backends(request);
  if (!backends.hardware()) throw UsageError("ub-probe needs a GPU: " + backends.why_emulated);
  return run::run_ub_jobs(*backends.gpu.front(), *backends.device, jobs, o, std::cout);
}

}  // namespace

Subcommand add_ub_probe_command(CLI::App& mmasp) {
  auto o = std::make_shared<UbProbeOptions>();
  CLI::App* ub_probe = mmasp.add_subcommand("ub-probe", "internal: undefined-behaviour probes in a process of their own");
  ub_probe->group("");
  add_ub_probe_options(ub_probe, *o);
  return {ub_probe, [o](int, char**) { return ub_probe_main(*o); }};
}

}  // namespace mmasp::cli
