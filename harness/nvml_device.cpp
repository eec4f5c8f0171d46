#include "harness/nvml_device.h"

#include <dlfcn.h>

namespace mmasp {

NvmlDevice::NvmlDevice(const std::string& uuid) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library_) return;
  const auto init = function<int (*)()>("nvmlInit_v2");
  const auto by_uuid = function<int (*)(const char*, void**)>("nvmlDeviceGetHandleByUUID");
  if (!init || !by_uuid || !function<int (*)()>("nvmlShutdown") || init() != 0) return;
  initialised_ = true;
  void* handle = nullptr;
  if (by_uuid(uuid.c_str(), &handle) == 0) handle_ = handle;
}

NvmlDevice::~NvmlDevice() {
  if (initialised_) function<int (*)()>("nvmlShutdown")();
  if (library_) dlclose(library_);
}

void* NvmlDevice::symbol(const char* name) const { return library_ ? dlsym(library_, name) : nullptr; }

}  // namespace mmasp
