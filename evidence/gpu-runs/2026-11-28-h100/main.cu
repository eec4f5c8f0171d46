#include <cstdio>
#include <cstdint>
#include "shift.cu"
int main() {
  uint32_t* d; cudaMalloc(&d, 1024 * 4);
  check<<<1, 1024>>>(d);
  uint32_t h[1024]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  unsigned long long bad = 0; for (int i = 0; i < 1024; ++i) bad += h[i];
  printf("check: %s, %llu bad of %d\n", cudaGetErrorString(cudaGetLastError()), bad, 1024 * 80);
}
