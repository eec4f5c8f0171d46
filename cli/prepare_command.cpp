// `mmasp prepare`: fills the module store a run uses (`mmasp run --modules`, default <cache>/modules) ahead of it.
//  - Every form's module for a target, compiled by the toolkit's ptxas, for GPU runners without a toolkit. Each entry
//    is written and read back; a write that fails (a full disk) is named, exit 1.
//  - On a GPU: the resident kernels' image for it, where that is PTX (any GPU but sm_90, or --resident-image ptx),
//    JIT-compiled by the driver and kept by the GPU's architecture and the driver's version, so that no run on this
//    GPU and driver spends its --budget on the JIT.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/cuda_driver.h"
#include "harness/gpu_probe.h"
#include "harness/module_store.h"
#include "harness/ptx_emitter.h"
#include "reports/findings.h"
#include "resident/resident.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::string target = "sm_90a", out, filter;
  bool resident = true;
  ResidentImageChoice image = ResidentImageChoice::automatic;
  int device = 0;
};

// The toolkit's modules; false when one failed. Without a toolkit, says so and prepares none.
bool prepare_toolkit_modules(const Options& o, const Target& target, const std::filesystem::path& dir) {
  std::optional<PtxasInfo> info;
  try {
    info = locate_ptxas();
  } catch (const PtxasNotFound&) {
    throw;   // a ptxas the user named (MMASP_PTXAS) that does not run: not silently skipped
  } catch (const std::exception& error) {
    std::cout << "toolkit modules: none prepared, no toolkit ptxas here (" << error.what()
              << "); a run here uses the driver's JIT path, or a store prepared on a machine with one\n";
    return true;
  }
  const Ptxas ptxas(*info, {}, 1);
  const ModuleStore store(dir, &ptxas);
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
  std::cout << "prepared " << built << " modules for " << target.name << " in " << dir.string() << " (" << info->version
            << ")" << (failed ? ", " + std::to_string(failed) + " FAILED (the store is incomplete)" : "") << "\n";
  return failed == 0;
}

// The resident image's JIT for GPU `o.device`; false when it was made but could not be kept.
bool prepare_resident_image(const Options& o, const std::filesystem::path& dir) {
  const GpuProbe probe = probe_gpus();
  if (!probe.available) {
    std::cout << "resident image: no GPU here (" << probe.reason
              << "); its JIT is made on the GPU that runs it (mmasp prepare there)\n";
    return true;
  }
  if (!ResidentPath::built()) {
    std::cout << "resident image: this build has none (no nvcc at build time)\n";
    return true;
  }
  CudaDevice device(o.device);
  const ModuleStore store(dir, nullptr);
  const ResidentPath path(device, o.image, "", &store);
  const std::string image = std::string(name(path.image())) + " image for sm_" + std::to_string(device.sm()) + " (" +
                            device.name() + ", driver " + device.fingerprint().driver_version + ")";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", path.load_seconds());
  switch (path.image_load()) {
    case ResidentPath::ImageLoad::cubin:
      std::cout << "resident image: the " << image << " is a cubin, loaded as built in " << seconds << " s: nothing to JIT\n";
      return true;
    case ResidentPath::ImageLoad::from_store:
      std::cout << "resident image: the " << image << " was already JIT-compiled and kept in " << dir.string()
                << " (loaded in " << seconds << " s)\n";
      return true;
    case ResidentPath::ImageLoad::jit_compiled:
      std::snprintf(seconds, sizeof seconds, "%.1f", path.jit_seconds());
      if (!path.store_problem().empty()) {
        std::cerr << "resident image: the " << image << " was JIT-compiled in " << seconds << " s but " << path.store_problem() << "\n";
        return false;
      }
      std::cout << "resident image: the " << image << " JIT-compiled in " << seconds << " s and kept in " << dir.string()
                << "\n";
      return true;
  }
  return true;
}

int prepare_main(const Options& o) {
  const Target target = parse_targets(o.target).front();
  if (const std::string problem = glob_problem(o.filter); !problem.empty()) throw UsageError("--filter: " + problem);
  const std::filesystem::path dir = o.out.empty() ? default_ptxas_cache_dir() / "modules" : std::filesystem::path(o.out);
  bool whole = prepare_toolkit_modules(o, target, dir);
  if (o.resident) whole = prepare_resident_image(o, dir) && whole;
  return whole ? kExitPass : kExitFail;
}

}  // namespace

Subcommand add_prepare_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* prepare = mmasp.add_subcommand("prepare", "fill the module store a run uses: every form's module for a target "
                                           "(for GPU runners without a toolkit), and on a GPU the resident image's JIT");
  prepare->add_option("--target", o->target, "target of the toolkit modules")->capture_default_str();
  prepare->add_option("--out", o->out, "module store directory (default: <cache>/modules, where mmasp run looks)");
  prepare->add_option("--filter", o->filter, "only forms whose opcode matches this glob");
  add_enum_option<ResidentImageChoice>(prepare, "--resident-image", o->image,
                                       {{"auto", ResidentImageChoice::automatic}, {"cubin", ResidentImageChoice::cubin},
                                        {"ptx", ResidentImageChoice::ptx}},
                                       "the resident image whose JIT to keep: auto (PTX on any GPU but sm_90), ptx");
  prepare->add_flag("!--no-resident", o->resident, "leave the resident image out");
  prepare->add_option("--device", o->device, "the GPU whose JIT to keep (ordinal)")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  return {prepare, [o](int, char**) { return prepare_main(*o); }};
}

}  // namespace mmasp::cli
