#include "harness/gpu_probe.h"

#include "harness/nvml_device.h"

#include <cuda.h>
#include <dlfcn.h>

namespace mmasp {

GpuProbe probe_gpus() {
  GpuProbe probe;
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    probe.reason = "no CUDA driver (libcuda.so.1 not found)";
    return probe;
  }
  auto symbol = [&](const char* name) { return dlsym(driver, name); };
  auto init = reinterpret_cast<CUresult (*)(unsigned)>(symbol("cuInit"));
  auto driver_version = reinterpret_cast<CUresult (*)(int*)>(symbol("cuDriverGetVersion"));
  auto count = reinterpret_cast<CUresult (*)(int*)>(symbol("cuDeviceGetCount"));
  auto get = reinterpret_cast<CUresult (*)(CUdevice*, int)>(symbol("cuDeviceGet"));
  auto get_name = reinterpret_cast<CUresult (*)(char*, int, CUdevice)>(symbol("cuDeviceGetName"));
  auto attribute = reinterpret_cast<CUresult (*)(int*, CUdevice_attribute, CUdevice)>(symbol("cuDeviceGetAttribute"));
  if (!init || !driver_version || !count || !get || !get_name || !attribute) {
    probe.reason = "the CUDA driver library lacks the entry points mmasp needs";
    return probe;
  }
  if (CUresult status = init(0); status != CUDA_SUCCESS) {
    probe.reason = "cuInit failed with CUresult " + std::to_string(int(status));
    return probe;
  }
  driver_version(&probe.driver_version);
  int devices = 0;
  if (count(&devices) != CUDA_SUCCESS || devices == 0) {
    probe.reason = "the CUDA driver reports no devices";
    return probe;
  }
  for (int ordinal = 0; ordinal < devices; ++ordinal) {
    CUdevice device;
    if (get(&device, ordinal) != CUDA_SUCCESS) continue;
    GpuDevice entry;
    entry.ordinal = ordinal;
    char name[256] = {};
    get_name(name, sizeof name, device);
    entry.name = name;
    int major = 0, minor = 0;
    attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    entry.sm = major * 10 + minor;
    probe.devices.push_back(entry);
  }
  probe.available = !probe.devices.empty();
  if (!probe.available) probe.reason = "no CUDA device could be opened";
  return probe;
}

std::optional<std::string> gpu_serial(const std::string& uuid) {
  const NvmlDevice nvml(uuid);
  const auto serial = nvml.function<int (*)(void*, char*, unsigned)>("nvmlDeviceGetSerial");
  char text[96] = {};
  if (!nvml.open() || !serial || serial(nvml.handle(), text, sizeof text) != 0 || !text[0]) return std::nullopt;
  return std::string(text);
}

}  // namespace mmasp
