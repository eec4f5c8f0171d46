// Whether a CUDA GPU is usable here. The driver library is opened at run time (dlopen), so every mmasp binary starts
// on machines with no driver at all and reports why there is no GPU instead of failing to load.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mmasp {

struct GpuDevice {
  int ordinal = 0;
  std::string name;
  int sm = 0;                 // compute capability major*10 + minor
};

struct GpuProbe {
  bool available = false;
  std::string reason;         // why not, when not available
  int driver_version = 0;     // cuDriverGetVersion, e.g. 13000
  std::vector<GpuDevice> devices;
};

GpuProbe probe_gpus();

// The board serial number NVML reports for the GPU with this UUID ("GPU-..."), where NVML is installed and the board
// has one; otherwise nothing (fleet verdicts then carry the UUID alone).
std::optional<std::string> gpu_serial(const std::string& uuid);

}  // namespace mmasp
