#include "run/backends.h"

#include <algorithm>
#include <sstream>

#include "harness/gpu_probe.h"
#include "run/usage_error.h"

namespace fs = std::filesystem;

namespace mmasp::run {

int Backends::sm() const { return device ? device->sm() : 0; }

EnvironmentRecord Backends::environment() const {
  EnvironmentRecord environment;
  environment.toolkit = store->toolkit_version();
  environment.emulated = !hardware();
  environment.backend = hardware() ? "gpu" : "emulator";
  if (hardware()) environment.device = device->fingerprint();
  if (hardware()) {
    std::string paths;
    for (const GpuBackend* backend : gpu) paths += (paths.empty() ? "" : ",") + std::string(name(backend->path()));
    environment.compile_paths = paths;
  }
  return environment;
}

std::optional<BackendChoice> backend_choice_named(std::string_view text) {
  if (text == "auto") return BackendChoice::automatic;
  if (text == "gpu") return BackendChoice::gpu;
  if (text == "emulator") return BackendChoice::emulator;
  return std::nullopt;
}

std::string_view name(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::automatic: return "auto";
    case BackendChoice::gpu: return "gpu";
    case BackendChoice::emulator: return "emulator";
  }
  return "auto";
}

Backends make_backends(const BackendRequest& request) {
  Backends out;
  if (request.choice != BackendChoice::emulator) {
    const GpuProbe probe = probe_gpus();
    if (probe.available) {
      try {
        out.device = std::make_shared<CudaDevice>(request.device);
      } catch (const std::exception& error) {
        throw UsageError("GPU " + std::to_string(request.device) + ": " + error.what());
      }
    } else if (request.choice == BackendChoice::gpu) {
      throw UsageError(request.gpu_required_by + " needs a GPU, and there is no usable one here (" + probe.reason +
                       "); an emulated run would say nothing about hardware, so none is made");
    } else {
      out.why_emulated = "no GPU (" + probe.reason + ")";
    }
  } else {
    out.why_emulated = "--backend emulator given";
  }
  try {
    out.ptxas_info = locate_ptxas(request.ptxas.empty() ? std::nullopt : std::optional<fs::path>(request.ptxas));
  } catch (const PtxasNotFound& error) {
    throw UsageError(error.what());   // a ptxas the user named must be the one tested
  } catch (const std::exception&) {
    // No toolkit here: GPU runners may run from a prepared module store (mmasp prepare) and the driver's JIT.
  }
  const fs::path cache = request.cache_dir.empty() ? default_ptxas_cache_dir() : fs::path(request.cache_dir);
  if (out.ptxas_info) out.ptxas = std::make_unique<Ptxas>(*out.ptxas_info, cache, request.jobs);
  out.module_dir = request.modules.empty() ? cache / "modules" : fs::path(request.modules);
  out.store = std::make_unique<ModuleStore>(out.module_dir, out.ptxas.get());
  if (!out.device) {
    out.all.push_back(std::make_unique<EmulatorBackend>(request.threads, request.emulator_arithmetic,
                                                        request.emulator_arithmetic_name));
    return out;
  }
  for (const CompilePath path : request.paths.paths) {
    std::unique_ptr<GpuBackend> backend =
        std::make_unique<GpuBackend>(out.device, path, path == CompilePath::toolkit ? out.store.get() : nullptr);
    out.gpu.push_back(backend.get());
    out.all.push_back(std::move(backend));
  }
  return out;
}

std::string name(const CompilePaths& paths) {
  std::string text;
  for (const CompilePath path : paths.paths) text += (text.empty() ? "" : ",") + std::string(name(path));
  return text;
}

std::optional<CompilePaths> compile_paths_named(std::string_view text, std::string* why) {
  CompilePaths out;
  out.paths.clear();
  std::stringstream items{std::string(text)};
  for (std::string item; std::getline(items, item, ',');) {
    std::optional<CompilePath> path;
    for (const CompilePath known : {CompilePath::toolkit, CompilePath::driver_jit})
      if (name(known) == item) path = known;
    if (!path) {
      *why = "toolkit and/or driver-jit is expected, not '" + item + "'";
      return std::nullopt;
    }
    if (std::find(out.paths.begin(), out.paths.end(), *path) != out.paths.end()) {
      *why = "'" + item + "' is named twice";
      return std::nullopt;
    }
    out.paths.push_back(*path);
  }
  if (out.paths.empty()) {
    *why = "no compile path is named";
    return std::nullopt;
  }
  return out;
}

}  // namespace mmasp::run
