// Which GPU a GPU test uses: the one CTest gave it (RESOURCE_GROUPS "gpus:1" with `ctest --resource-spec-file`, so
// that `ctest -L gpu -j N` runs one test per GPU), else GPU 0. CTest says it as CTEST_RESOURCE_GROUP_0_GPUS="id:2,slots:1".
#pragma once

#include <cstdlib>
#include <string>

namespace mmasp {

inline int test_gpu() {
  const char* assigned = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!assigned) return 0;
  const std::string text = assigned;
  const size_t at = text.find("id:");
  return at == std::string::npos ? 0 : std::atoi(text.c_str() + at + 3);
}

}  // namespace mmasp
