// The CUDA Driver API, opened at run time (dlopen), for running emitted kernels on a GPU. Only harness/ talks to
// the GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mmasp {

// What a result was measured on. Everything a reader needs to tell two runs' machines apart.
struct DeviceFingerprint {
  std::string name;
  int sm = 0;
  std::string uuid;
  int driver_api_version = 0;      // cuDriverGetVersion, e.g. 13000
  std::string driver_version;      // the kernel driver, e.g. "580.159.04" (from /proc/driver/nvidia/version)
  bool ecc = false;
  int sm_clock_khz = 0;            // the device's peak clocks as reported by the driver
  int memory_clock_khz = 0;
  int sm_count = 0;
  size_t memory_bytes = 0;
};

class CudaModule;

class CudaDevice {
 public:
  // Throws std::runtime_error with the reason when no usable GPU is present.
  explicit CudaDevice(int ordinal = 0);
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  std::string name() const;
  int sm() const;
  int driver_version() const;
  DeviceFingerprint fingerprint() const;
  // Whether the context still works: after an instruction traps, every call in it fails with the same sticky error.
  bool usable() const;

  // The driver's JIT on PTX (cuModuleLoadDataEx). Throws with the JIT's log when it rejects the PTX.
  std::shared_ptr<CudaModule> load_ptx(const std::string& ptx);
  // A toolkit-compiled cubin.
  std::shared_ptr<CudaModule> load_cubin(const std::string& cubin);
  // The cubin the driver's JIT makes of this PTX for this device (cuLink*), its optimisations spread over the cores.
  std::string jit_cubin(const std::string& ptx);

  // Runs mmasp_kernel over `cases` warps, 128 threads per block. `input` holds cases*32 lane records; returns
  // cases*32*output_words words. Output is poisoned (0xDEADBEEF) first, so a word the kernel did not write is seen.
  std::vector<uint32_t> run(CudaModule& module, const std::vector<uint32_t>& input, int output_words, uint32_t cases);
  std::vector<uint32_t> run_ptx(const std::string& ptx, const std::vector<uint32_t>& input, int output_words,
                                uint32_t cases);

  struct Api;

  // Lower-level calls for kernels with their own parameters (the GPU-resident path, resident/resident.h).
  class Memory {
   public:
    ~Memory();
    Memory(const Memory&) = delete;
    Memory& operator=(const Memory&) = delete;
    uint64_t address() const { return address_; }
    size_t bytes() const { return bytes_; }

   private:
    friend class CudaDevice;
    Memory() = default;
    std::shared_ptr<Api> api_;
    uint64_t address_ = 0;
    size_t bytes_ = 0;
  };
  std::shared_ptr<Memory> allocate(size_t bytes);   // zeroed
  void copy_to(Memory& memory, const void* data, size_t bytes, size_t offset = 0);
  void copy_from(void* data, const Memory& memory, size_t bytes, size_t offset = 0);
  // A module without the harness's entry point, and one of its kernels by name (nullptr when it has none).
  std::shared_ptr<CudaModule> load_image(const void* image);
  void* function(CudaModule& module, const std::string& name);
  // Blocks of `threads` threads with `shared_bytes` of dynamic shared memory that fit on one multiprocessor at once.
  int resident_blocks(void* function, int threads, size_t shared_bytes);
  // The most threads a block of `function` may have: its __launch_bounds__, or what its registers allow.
  int max_threads(void* function);
  // The static shared memory a block of `function` has (its __shared__ variables), which the dynamic shared memory
  // it may be given leaves room for (max_shared_per_block less this).
  int static_shared_bytes(void* function);
  // The most dynamic shared memory one block may be given (bytes), after opting in.
  int max_shared_per_block() const;
  // Launches and waits; throws with the driver's error (a trap loses the context, as in run()).
  void launch(void* function, unsigned blocks, unsigned threads, size_t shared_bytes, void** parameters);

 private:
  std::shared_ptr<CudaModule> wrap_module(void* module);
  std::shared_ptr<Api> api_;
};

class CudaModule {
 public:
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

 private:
  friend class CudaDevice;
  CudaModule() = default;
  std::shared_ptr<CudaDevice::Api> api_;
  void* module_ = nullptr;
  void* function_ = nullptr;
};

}  // namespace mmasp
