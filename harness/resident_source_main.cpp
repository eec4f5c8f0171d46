// Build step: writes the GPU-resident kernels' CUDA source (resident_source.h) to the file named by argv[1].
#include <cstdio>
#include <fstream>

#include "harness/resident_source.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mmasp_resident_source OUT.cu\n");
    return 2;
  }
  std::ofstream out(argv[1]);
  out << mmasp::resident_kernels_source();
  return out.good() ? 0 : 1;
}
