// Where cases run, chosen once for every command: the GPU (one backend per compile path) when one is present and not
// refused, else the CPU emulator. Everything the backends point into (device, ptxas, module store) is owned here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/module_store.h"
#include "harness/ptxas.h"
#include "reports/run_record.h"

namespace mmasp::run {

struct BackendRequest {
  bool emulator = false;                      // the emulator even when a GPU is present
  int device = 0;
  std::string paths = "toolkit,driver-jit";   // GPU compile paths; the first runs the suites, a second is compared
  std::string ptxas;                          // explicit ptxas (else located as usual)
  std::string cache_dir;                      // ptxas cache (default: default_ptxas_cache_dir())
  std::string modules;                        // toolkit module store (default: <cache>/modules)
  unsigned jobs = 1;                          // parallel ptxas processes
  unsigned threads = 1;                       // emulator threads
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

// Throws UsageError for a GPU that cannot be opened or an unknown compile path.
Backends make_backends(const BackendRequest& request);

}  // namespace mmasp::run
