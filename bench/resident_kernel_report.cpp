// Advisory report on the resident kernels of this build: each kernel's launch bounds, ptxas's registers, stack frame
// and spills, and whether its code (.text in the sm_90a cubin) is the code last measured on a GPU
// (evidence/performance/resident-kernels.json). A change of code, registers or frame is not an error: it says that the
// kernel's speed is unknown until it is measured on a GPU (ctest -L gpu -R resident_benchmark, docs/performance.md).
// Usage: resident_kernel_report --ptxas-report FILE --cubin FILE --measured FILE
// Exit 0 with the report; 2 when an input is missing or unreadable, or a kernel of the source is not in the build.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/kernel_resources.h"
#include "resident/resident_source.h"
#include "harness/sha256.h"

int main(int argc, char** argv) {
  std::string report_file, cubin_file, measured_file;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--ptxas-report") report_file = argv[i + 1];
    else if (option == "--cubin") cubin_file = argv[i + 1];
    else if (option == "--measured") measured_file = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", option.c_str());
      return 2;
    }
  }
  if (report_file.empty() || cubin_file.empty() || measured_file.empty()) {
    std::fprintf(stderr, "usage: resident_kernel_report --ptxas-report FILE --cubin FILE --measured FILE\n");
    return 2;
  }
  std::ifstream report(report_file), cubin_in(cubin_file, std::ios::binary), measured_in(measured_file);
  if (!report || !cubin_in || !measured_in) {
    std::fprintf(stderr, "cannot read %s\n", !report ? report_file.c_str() : !cubin_in ? cubin_file.c_str() : measured_file.c_str());
    return 2;
  }
  const auto resources = mmasp::bench::read_ptxas_report(report);
  const std::vector<unsigned char> cubin((std::istreambuf_iterator<char>(cubin_in)), std::istreambuf_iterator<char>());
  const auto code = mmasp::bench::kernel_text_sections(cubin);
  const auto bounds = mmasp::bench::kernel_launch_bounds(mmasp::resident_kernels_source());
  nlohmann::json measured;
  try {
    measured = nlohmann::json::parse(measured_in);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", measured_file.c_str(), error.what());
    return 2;
  }
  const nlohmann::json& kernels = measured.at("kernels");
  std::printf("%-34s %7s %9s %6s %12s %12s  %s\n", "kernel", "threads", "registers", "frame", "spill stores",
              "spill loads", "against the kernel last measured on a GPU");
  unsigned changed = 0;
  for (const auto& [kernel, threads] : bounds) {
    if (!resources.count(kernel) || !code.count(kernel)) {
      std::fprintf(stderr, "%s is in the generated source but not in %s or %s\n", kernel.c_str(), report_file.c_str(),
                   cubin_file.c_str());
      return 2;
    }
    const auto& r = resources.at(kernel);
    std::string verdict;
    if (!kernels.contains(kernel)) {
      verdict = "NEW: never measured";
    } else {
      const nlohmann::json& m = kernels.at(kernel);
      if (mmasp::sha256_hex(code.at(kernel)) != m.at("text_sha256").get<std::string>()) verdict = "CODE CHANGED";
      if (m.contains("frame_bytes") && m["frame_bytes"].get<int>() != r.frame_bytes)
        verdict += std::string(verdict.empty() ? "" : "; ") + "frame was " + std::to_string(m["frame_bytes"].get<int>());
      if (verdict.empty()) verdict = "the same code";
    }
    if (verdict != "the same code") ++changed;
    std::printf("%-34s %7u %9d %6d %12d %12d  %s\n", kernel.c_str(), threads, r.registers, r.frame_bytes,
                r.spill_store_bytes, r.spill_load_bytes, verdict.c_str());
  }
  std::printf("%zu kernels; %u changed since they were measured (toolkit then %s)%s\n", bounds.size(), changed,
              measured.value("toolkit", "?").c_str(),
              changed ? ": their speed is unknown until measured: ctest -L gpu -R resident_benchmark (docs/performance.md)" : "");
  return 0;
}
