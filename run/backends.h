// Where cases run, chosen once for every command: the GPU (one backend per compile path) when one is present and not
// refused, else the CPU emulator. Everything the backends point into (device, ptxas, module store) is owned here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/backend.h"
#include "harness/module_store.h"
#include "harness/ptxas.h"
#include "reports/run_record.h"

namespace mmasp::run {

// Which backend a command may use. `gpu` never falls back: without a usable device it is a usage error naming why (a
// runner that lost its GPU must fail its nightly, not go green on the emulator). `automatic` takes the GPU when there
// is one and the emulator otherwise, and says so in the reports; `emulator` never touches a GPU.
enum class BackendChoice { automatic, gpu, emulator };
std::optional<BackendChoice> backend_choice_named(std::string_view text);   // "auto", "gpu", "emulator"
std::string_view name(BackendChoice choice);

// --paths: the GPU compile paths in order; the first runs the suites, a second is compared with it. Parsed once from
// "toolkit,driver-jit" (compile_paths_named), written back as that text (name()).
struct CompilePaths {
  std::vector<CompilePath> paths{CompilePath::toolkit, CompilePath::driver_jit};
};
std::string name(const CompilePaths& paths);
// nullopt, with `why` set, for an unknown path, a repeated one, or none.
std::optional<CompilePaths> compile_paths_named(std::string_view text, std::string* why);

struct BackendRequest {
  BackendChoice choice = BackendChoice::automatic;
  std::string gpu_required_by = "--backend gpu";   // named when there is no GPU (e.g. "--device 0")
  int device = 0;
  CompilePaths paths;
  std::string ptxas;                          // explicit ptxas (else located as usual)
  std::string cache_dir;                      // ptxas cache (default: default_ptxas_cache_dir())
  std::string modules;                        // toolkit module store (default: <cache>/modules)
  unsigned jobs = 1;                          // parallel ptxas processes
  unsigned threads = 1;                       // emulator threads
  ModelLookup emulator_arithmetic;            // what the emulator computes with (none: the exact reference)
  std::string emulator_arithmetic_name;
};

class Backends {
 public:
  std::shared_ptr<CudaDevice> device;          // null when emulated
  std::string why_emulated;                    // "--emulator given" or "no GPU (...)"
  std::optional<PtxasInfo> ptxas_info;         // none when no ptxas runs here
  std::unique_ptr<Ptxas> ptxas;
  std::unique_ptr<ModuleStore> store;
  std::filesystem::path module_dir;
  std::vector<std::unique_ptr<Backend>> all;   // [0] runs the suites; [1] (if any) is compared with it
  std::vector<GpuBackend*> gpu;                // the same backends, typed, on a GPU (empty when emulated)

  Backend& primary() const { return *all.front(); }
  bool hardware() const { return device != nullptr; }
  int sm() const;                              // 0 when emulated
  EnvironmentRecord environment() const;
};

// Throws UsageError for a GPU that cannot be opened, no GPU under BackendChoice::gpu, or an unknown compile path.
Backends make_backends(const BackendRequest& request);

}  // namespace mmasp::run
