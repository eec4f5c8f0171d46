#include "harness/cuda_driver.h"

#include <cuda.h>
#include <dlfcn.h>

#include <stdexcept>

#include "harness/ptx_emitter.h"

namespace mmasp {

struct CudaDevice::Api {
  void* library = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int driver_version = 0;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, CUdevice_attribute, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, CUjit_option*, void**);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorString)(CUresult, const char**);

  template <typename F>
  void bind(F& function, const char* name) {
    function = reinterpret_cast<F>(dlsym(library, name));
    if (!function) throw std::runtime_error(std::string("CUDA driver lacks ") + name);
  }

  void check(CUresult status, const char* what) const {
    if (status == CUDA_SUCCESS) return;
    const char* text = "unknown error";
    if (cuGetErrorString) cuGetErrorString(status, &text);
    throw std::runtime_error(std::string(what) + " failed: " + text + " (CUresult " + std::to_string(int(status)) + ")");
  }
};

CudaDevice::CudaDevice(int ordinal) : api_(std::make_unique<Api>()) {
  Api& api = *api_;
  api.library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api.library) throw std::runtime_error("no CUDA driver (libcuda.so.1 not found)");
  api.bind(api.cuGetErrorString, "cuGetErrorString");
  api.bind(api.cuInit, "cuInit");
  api.bind(api.cuDriverGetVersion, "cuDriverGetVersion");
  api.bind(api.cuDeviceGet, "cuDeviceGet");
  api.bind(api.cuDeviceGetName, "cuDeviceGetName");
  api.bind(api.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  api.bind(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  api.bind(api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  api.bind(api.cuCtxSetCurrent, "cuCtxSetCurrent");
  api.bind(api.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  api.bind(api.cuModuleGetFunction, "cuModuleGetFunction");
  api.bind(api.cuModuleUnload, "cuModuleUnload");
  api.bind(api.cuMemAlloc, "cuMemAlloc_v2");
  api.bind(api.cuMemFree, "cuMemFree_v2");
  api.bind(api.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  api.bind(api.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  api.bind(api.cuMemsetD32, "cuMemsetD32_v2");
  api.bind(api.cuLaunchKernel, "cuLaunchKernel");
  api.bind(api.cuCtxSynchronize, "cuCtxSynchronize");
  api.check(api.cuInit(0), "cuInit");
  api.check(api.cuDriverGetVersion(&api.driver_version), "cuDriverGetVersion");
  api.check(api.cuDeviceGet(&api.device, ordinal), "cuDeviceGet");
  api.check(api.cuDevicePrimaryCtxRetain(&api.context, api.device), "cuDevicePrimaryCtxRetain");
  api.check(api.cuCtxSetCurrent(api.context), "cuCtxSetCurrent");
}

CudaDevice::~CudaDevice() {
  if (api_ && api_->context) api_->cuDevicePrimaryCtxRelease(api_->device);
}

std::string CudaDevice::name() const {
  char name[256] = {};
  api_->cuDeviceGetName(name, sizeof name, api_->device);
  return name;
}

int CudaDevice::sm() const {
  int major = 0, minor = 0;
  api_->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, api_->device);
  api_->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, api_->device);
  return major * 10 + minor;
}

int CudaDevice::driver_version() const { return api_->driver_version; }

std::vector<uint32_t> CudaDevice::run_ptx(const std::string& ptx, const std::vector<uint32_t>& input,
                                          int output_words, uint32_t cases) {
  const Api& api = *api_;
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(uintptr_t(sizeof log))};
  CUmodule module = nullptr;
  CUresult loaded = api.cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values);
  if (loaded != CUDA_SUCCESS) {
    const char* text = "unknown";
    api.cuGetErrorString(loaded, &text);
    throw std::runtime_error(std::string("driver JIT rejected the PTX: ") + text + "\n" + log);
  }
  CUfunction kernel = nullptr;
  CUdeviceptr device_input = 0, device_output = 0;
  const size_t output_count = size_t(cases) * 32 * size_t(output_words);
  std::vector<uint32_t> output(output_count);
  try {
    api.check(api.cuModuleGetFunction(&kernel, module, kKernelName), "cuModuleGetFunction");
    api.check(api.cuMemAlloc(&device_input, input.size() * 4), "cuMemAlloc");
    api.check(api.cuMemAlloc(&device_output, output_count * 4), "cuMemAlloc");
    api.check(api.cuMemcpyHtoD(device_input, input.data(), input.size() * 4), "cuMemcpyHtoD");
    // Poison, so that an element the kernel failed to write cannot pass for a result.
    api.check(api.cuMemsetD32(device_output, 0xDEADBEEF, output_count), "cuMemsetD32");
    void* params[] = {&device_input, &device_output, &cases};
    const unsigned threads = 128, blocks = unsigned((size_t(cases) * 32 + threads - 1) / threads);
    api.check(api.cuLaunchKernel(kernel, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel");
    api.check(api.cuCtxSynchronize(), "kernel execution");
    api.check(api.cuMemcpyDtoH(output.data(), device_output, output_count * 4), "cuMemcpyDtoH");
  } catch (...) {
    if (device_input) api.cuMemFree(device_input);
    if (device_output) api.cuMemFree(device_output);
    api.cuModuleUnload(module);
    throw;
  }
  api.cuMemFree(device_input);
  api.cuMemFree(device_output);
  api.cuModuleUnload(module);
  return output;
}

}  // namespace mmasp
