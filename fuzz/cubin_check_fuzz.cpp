// libFuzzer target: arbitrary bytes as a module-store entry (a cubin a runner loads). cubin_problem() reads the ELF
// headers at offsets the bytes themselves give, so it must never read past them; an entry it accepts has its
// section and program header tables inside the bytes.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "harness/store_warnings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string problem = mmasp::cubin_problem(bytes);
  if (problem.empty()) {
    uint64_t shoff = 0;
    uint16_t shentsize = 0, shnum = 0;
    std::memcpy(&shoff, bytes.data() + 0x28, 8);
    std::memcpy(&shentsize, bytes.data() + 0x3a, 2);
    std::memcpy(&shnum, bytes.data() + 0x3c, 2);
    if (shoff > size || uint64_t(shentsize) * shnum > size - shoff) {
      std::cerr << "cubin_check_fuzz: accepted an image whose section headers lie past its end\n";
      std::abort();
    }
  }
  return 0;
}
