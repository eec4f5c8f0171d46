// One GPU's handle in NVML (the driver's management library), opened at run time by dlopen as the driver is
// (gpu_probe.h): a runner without NVML still runs, and a device that cannot be opened answers nothing. gpu_serial and
// ClockWatch both read through it, so the library is opened, initialised and shut down in one place.
#pragma once

#include <string>

namespace mmasp {

class NvmlDevice {
 public:
  // Opens libnvidia-ml.so.1, initialises it and finds the GPU of this UUID (nvmlDeviceGetHandleByUUID); open() says
  // whether all three worked. Shut down and closed again by the destructor.
  explicit NvmlDevice(const std::string& uuid);
  ~NvmlDevice();
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  bool open() const { return handle_ != nullptr; }
  void* handle() const { return handle_; }   // nvmlDevice_t
  // An NVML function by name, of type F as nvml.h declares it (nvmlReturn_t is an int, a device a pointer); null
  // where this NVML lacks it or nothing was opened.
  template <class F>
  F function(const char* name) const { return reinterpret_cast<F>(symbol(name)); }

 private:
  void* symbol(const char* name) const;
  void* library_ = nullptr;
  void* handle_ = nullptr;
  bool initialised_ = false;
};

}  // namespace mmasp
