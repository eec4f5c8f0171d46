// The CUDA Driver API, opened at run time (dlopen), for running emitted PTX on a GPU. Only harness/ talks to the GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mmasp {

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

  // JIT-compiles PTX with the driver and runs mmasp_kernel over `cases` warps, 128 threads per block.
  // `input` holds cases*32 lane records; returns cases*32*output_words words.
  std::vector<uint32_t> run_ptx(const std::string& ptx, const std::vector<uint32_t>& input, int output_words,
                                uint32_t cases);

 private:
  struct Api;
  std::unique_ptr<Api> api_;
};

}  // namespace mmasp
