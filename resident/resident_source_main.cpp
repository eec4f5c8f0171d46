// Build step: writes the GPU-resident kernels' CUDA source for one image (resident_source.h) to the file named by
// argv[1]; argv[2] names the image by its nvcc architecture (sm_90a, compute_89, compute_80).
#include <cstdio>
#include <fstream>
#include <string_view>

#include "resident/resident_source.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: mmasp_resident_source OUT.cu sm_90a|compute_89|compute_80\n");
    return 2;
  }
  for (const mmasp::ResidentImage image : mmasp::kResidentImages) {
    if (mmasp::nvcc_architecture(image) != std::string_view(argv[2])) continue;
    std::ofstream out(argv[1]);
    out << mmasp::resident_kernels_source(image);
    return out.good() ? 0 : 1;
  }
  std::fprintf(stderr, "mmasp_resident_source: no image '%s'\n", argv[2]);
  return 2;
}
