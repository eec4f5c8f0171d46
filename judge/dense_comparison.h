// mma.sp against dense mma.sync on the decompressed A (harness/dense_counterpart.h runs the dense instruction): the
// special set and random cases of a pair on both, compared bit for bit. A case whose D differs only where the dense
// instruction multiplies an unstored zero of A by an Inf or NaN of B is the sparse semantics (finding F-0011), not an
// arithmetic difference; any other difference is counted and its first few cases saved with both results.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "harness/backend.h"
#include "harness/cuda_driver.h"

namespace mmasp {

struct DenseComparison {
  std::string dense;                 // the dense instruction's opcode
  uint64_t cases = 0, identical = 0;
  uint64_t unstored_specials = 0;    // differ only by NaN from an unstored zero times Inf/NaN (F-0011)
  uint64_t other() const { return cases - identical - unstored_specials; }
  std::string first_difference;      // the repro line of the first other difference
};

// Where the form has a dense counterpart on this device: `random_cases` cases of the stream `seed` beside the special
// set; other differences saved into `save_dir` (the first 8). nullopt where the form has none.
std::optional<DenseComparison> compare_with_dense(Backend& sparse, CudaDevice& device, const Form& form, int selector,
                                                  uint64_t seed, uint64_t random_cases, unsigned threads,
                                                  const std::filesystem::path& save_dir);

}  // namespace mmasp
