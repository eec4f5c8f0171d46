#include "harness/cuda_driver.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
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
  CUresult (*cuDeviceGetUuid)(CUuuid*, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t*, CUdevice);
  CUresult (*cuLinkCreate)(unsigned, CUjit_option*, void**, CUlinkState*);
  CUresult (*cuLinkAddData)(CUlinkState, CUjitInputType, void*, size_t, const char*, unsigned, CUjit_option*, void**);
  CUresult (*cuLinkComplete)(CUlinkState, void**, size_t*);
  CUresult (*cuLinkDestroy)(CUlinkState);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t);
  CUresult (*cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int);
  CUresult (*cuFuncGetAttribute)(int*, CUfunction_attribute, CUfunction);
  // Persistent device buffers, grown as needed, so a batch costs two copies and a launch.
  CUdeviceptr input = 0, output = 0;
  size_t input_bytes = 0, output_bytes = 0;

  ~Api() {
    if (!context) return;
    if (input) cuMemFree(input);
    if (output) cuMemFree(output);
    cuDevicePrimaryCtxRelease(device);
  }

  void ensure(CUdeviceptr& buffer, size_t& capacity, size_t bytes) {
    if (bytes <= capacity) return;
    if (buffer) cuMemFree(buffer);
    buffer = 0;
    capacity = 0;
    check(cuMemAlloc(&buffer, bytes), "cuMemAlloc");
    capacity = bytes;
  }

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

CudaDevice::CudaDevice(int ordinal) : api_(std::make_shared<Api>()) {
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
  api.bind(api.cuDeviceGetUuid, "cuDeviceGetUuid");
  api.bind(api.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  api.bind(api.cuLinkCreate, "cuLinkCreate_v2");
  api.bind(api.cuLinkAddData, "cuLinkAddData_v2");
  api.bind(api.cuLinkComplete, "cuLinkComplete");
  api.bind(api.cuLinkDestroy, "cuLinkDestroy");
  api.bind(api.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  api.bind(api.cuFuncSetAttribute, "cuFuncSetAttribute");
  api.bind(api.cuFuncGetAttribute, "cuFuncGetAttribute");
  api.check(api.cuInit(0), "cuInit");
  api.check(api.cuDriverGetVersion(&api.driver_version), "cuDriverGetVersion");
  api.check(api.cuDeviceGet(&api.device, ordinal), "cuDeviceGet");
  api.check(api.cuDevicePrimaryCtxRetain(&api.context, api.device), "cuDevicePrimaryCtxRetain");
  api.check(api.cuCtxSetCurrent(api.context), "cuCtxSetCurrent");
}

// Modules hold the Api too, so the context goes only after the last module is unloaded.
CudaDevice::~CudaDevice() = default;

CudaModule::~CudaModule() {
  if (api_ && module_) api_->cuModuleUnload(static_cast<CUmodule>(module_));
}

std::string CudaDevice::name() const {
  char name[256] = {};
  api_->cuDeviceGetName(name, sizeof name, api_->device);
  return name;
}

bool CudaDevice::usable() const { return api_->cuCtxSynchronize() == CUDA_SUCCESS; }

int CudaDevice::sm() const {
  int major = 0, minor = 0;
  api_->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, api_->device);
  api_->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, api_->device);
  return major * 10 + minor;
}

int CudaDevice::driver_version() const { return api_->driver_version; }

DeviceFingerprint CudaDevice::fingerprint() const {
  const Api& api = *api_;
  DeviceFingerprint f;
  f.name = name();
  f.sm = sm();
  f.driver_api_version = api.driver_version;
  CUuuid uuid{};
  if (api.cuDeviceGetUuid(&uuid, api.device) == CUDA_SUCCESS) {
    char text[64];
    const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
    std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                  b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    f.uuid = text;
  }
  int value = 0;
  if (api.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_ECC_ENABLED, api.device) == CUDA_SUCCESS) f.ecc = value != 0;
  api.cuDeviceGetAttribute(&f.sm_clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, api.device);
  api.cuDeviceGetAttribute(&f.memory_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, api.device);
  api.cuDeviceGetAttribute(&f.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, api.device);
  api.cuDeviceTotalMem(&f.memory_bytes, api.device);
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..." — the kernel driver's own version.
  std::ifstream proc("/proc/driver/nvidia/version");
  std::string line;
  if (std::getline(proc, line)) {
    std::istringstream words(line);
    for (std::string word; words >> word;)
      if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) && word.find('.') != std::string::npos) {
        f.driver_version = word;
        break;
      }
  }
  if (f.driver_version.empty()) f.driver_version = "unknown (no /proc/driver/nvidia/version)";
  return f;
}

std::shared_ptr<CudaModule> CudaDevice::load_ptx(const std::string& ptx) {
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
  return wrap_module(module);
}

std::shared_ptr<CudaModule> CudaDevice::load_cubin(const std::string& cubin) {
  CUmodule module = nullptr;
  api_->check(api_->cuModuleLoadDataEx(&module, cubin.data(), 0, nullptr, nullptr), "loading the toolkit's cubin");
  return wrap_module(module);
}

std::string CudaDevice::jit_cubin(const std::string& ptx) {
  const Api& api = *api_;
  CUlinkState link = nullptr;
  // The JIT's optimisations on every core (CU_JIT_SPLIT_COMPILE 0): the same code as on one, sooner for a PTX image of
  // several kernels. A driver older than the option refuses it, and then compiles on one.
  CUjit_option options[] = {CU_JIT_SPLIT_COMPILE};
  void* values[] = {reinterpret_cast<void*>(uintptr_t(0))};
  if (api.cuLinkCreate(1, options, values, &link) != CUDA_SUCCESS)
    api.check(api.cuLinkCreate(0, nullptr, nullptr, &link), "cuLinkCreate");
  std::string image;
  try {
    api.check(api.cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "mmasp.ptx", 0,
                                nullptr, nullptr),
              "cuLinkAddData");
    void* cubin = nullptr;
    size_t size = 0;
    api.check(api.cuLinkComplete(link, &cubin, &size), "cuLinkComplete");
    image.assign(static_cast<const char*>(cubin), size);
  } catch (...) {
    api.cuLinkDestroy(link);
    throw;
  }
  api.cuLinkDestroy(link);
  return image;
}

std::vector<uint32_t> CudaDevice::run(CudaModule& module, const std::vector<uint32_t>& input, int output_words,
                                      uint32_t cases) {
  Api& api = *api_;
  const size_t output_count = size_t(cases) * 32 * size_t(output_words);
  std::vector<uint32_t> output(output_count);
  api.ensure(api.input, api.input_bytes, input.size() * 4);
  api.ensure(api.output, api.output_bytes, output_count * 4);
  api.check(api.cuMemcpyHtoD(api.input, input.data(), input.size() * 4), "cuMemcpyHtoD");
  api.check(api.cuMemsetD32(api.output, 0xDEADBEEF, output_count), "cuMemsetD32");
  CUdeviceptr in = api.input, out = api.output;
  void* params[] = {&in, &out, &cases};
  const unsigned threads = 128, blocks = unsigned((size_t(cases) * 32 + threads - 1) / threads);
  api.check(api.cuLaunchKernel(static_cast<CUfunction>(module.function_), blocks, 1, 1, threads, 1, 1, 0, nullptr, params,
                               nullptr),
            "cuLaunchKernel");
  api.check(api.cuCtxSynchronize(), "kernel execution");
  api.check(api.cuMemcpyDtoH(output.data(), api.output, output_count * 4), "cuMemcpyDtoH");
  return output;
}

std::vector<uint32_t> CudaDevice::run_ptx(const std::string& ptx, const std::vector<uint32_t>& input, int output_words,
                                          uint32_t cases) {
  auto module = load_ptx(ptx);
  return run(*module, input, output_words, cases);
}

CudaDevice::Memory::~Memory() {
  if (api_ && address_) api_->cuMemFree(CUdeviceptr(address_));
}

std::shared_ptr<CudaDevice::Memory> CudaDevice::allocate(size_t bytes) {
  std::shared_ptr<Memory> memory(new Memory());
  CUdeviceptr address = 0;
  api_->check(api_->cuMemAlloc(&address, bytes ? bytes : 4), "cuMemAlloc");
  memory->api_ = api_;
  memory->address_ = uint64_t(address);
  memory->bytes_ = bytes;
  api_->check(api_->cuMemsetD32(address, 0, (bytes + 3) / 4), "cuMemsetD32");
  return memory;
}

void CudaDevice::copy_to(Memory& memory, const void* data, size_t bytes, size_t offset) {
  if (offset + bytes > memory.bytes()) throw std::logic_error("copy_to: past the end of the device buffer");
  api_->check(api_->cuMemcpyHtoD(CUdeviceptr(memory.address() + offset), data, bytes), "cuMemcpyHtoD");
}

void CudaDevice::copy_from(void* data, const Memory& memory, size_t bytes, size_t offset) {
  if (offset + bytes > memory.bytes()) throw std::logic_error("copy_from: past the end of the device buffer");
  api_->check(api_->cuMemcpyDtoH(data, CUdeviceptr(memory.address() + offset), bytes), "cuMemcpyDtoH");
}

std::shared_ptr<CudaModule> CudaDevice::load_image(const void* image) {
  CUmodule module = nullptr;
  api_->check(api_->cuModuleLoadDataEx(&module, image, 0, nullptr, nullptr), "loading a kernel image");
  std::shared_ptr<CudaModule> result(new CudaModule());
  result->api_ = api_;
  result->module_ = module;
  return result;
}

void* CudaDevice::function(CudaModule& module, const std::string& name) {
  CUfunction function = nullptr;
  if (api_->cuModuleGetFunction(&function, static_cast<CUmodule>(module.module_), name.c_str()) != CUDA_SUCCESS)
    return nullptr;
  return function;
}

int CudaDevice::max_shared_per_block() const {
  int bytes = 0;
  api_->check(api_->cuDeviceGetAttribute(&bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, api_->device),
              "cuDeviceGetAttribute");
  return bytes;
}

int CudaDevice::resident_blocks(void* function, int threads, size_t shared_bytes) {
  const auto f = static_cast<CUfunction>(function);
  api_->check(api_->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(shared_bytes)),
              "cuFuncSetAttribute");
  int blocks = 0;
  api_->check(api_->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, threads, shared_bytes), "cuOccupancy");
  return blocks;
}

int CudaDevice::max_threads(void* function) {
  int threads = 0;
  api_->check(api_->cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, static_cast<CUfunction>(function)),
              "cuFuncGetAttribute");
  return threads;
}

int CudaDevice::static_shared_bytes(void* function) {
  int bytes = 0;
  api_->check(api_->cuFuncGetAttribute(&bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, static_cast<CUfunction>(function)),
              "cuFuncGetAttribute");
  return bytes;
}

void CudaDevice::launch(void* function, unsigned blocks, unsigned threads, size_t shared_bytes, void** parameters) {
  api_->check(api_->cuLaunchKernel(static_cast<CUfunction>(function), blocks, 1, 1, threads, 1, 1, unsigned(shared_bytes),
                                   nullptr, parameters, nullptr),
              "cuLaunchKernel");
  api_->check(api_->cuCtxSynchronize(), "kernel execution");
}

std::shared_ptr<CudaModule> CudaDevice::wrap_module(void* module) {
  std::shared_ptr<CudaModule> result(new CudaModule());
  result->api_ = api_;
  result->module_ = module;
  CUfunction function = nullptr;
  api_->check(api_->cuModuleGetFunction(&function, static_cast<CUmodule>(module), kKernelName), "cuModuleGetFunction");
  result->function_ = function;
  return result;
}

}  // namespace mmasp
