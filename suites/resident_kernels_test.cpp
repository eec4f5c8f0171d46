// The resident kernels as built: every kernel the generated source declares is in ptxas's report and in the sm_90a
// cubin, within its launch bounds' registers. Whether a kernel's code or frame moved since it was last measured is
// not a CPU test's question: bench/resident_kernel_report says so (advisory, cli.resident_kernel_report), and the
// GPU-labelled gpu.resident_benchmark_meets_the_expected_figures measures what matters, the speed.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/kernel_resources.h"
#include "resident/resident_source.h"

namespace {

using namespace mmasp;

// A report as ptxas 13.0 writes it for two entries and one device function that is not inlined.
constexpr const char* kSampleReport = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'mmasp_resident_lean_fp8' for 'sm_90a'
ptxas info    : Function properties for mmasp_resident_lean_fp8
    496 bytes stack frame, 136 bytes spill stores, 124 bytes spill loads
ptxas info    : Used 128 registers, used 16 barriers, 496 bytes cumulative stack size
ptxas info    : Function properties for _ZN5mmasp8resident9form_mmaEjNS0_9RegistersES1_S1_j
    0 bytes stack frame, 3872 bytes spill stores, 3872 bytes spill loads
ptxas info    : Compiling entry function 'mmasp_resident_lean' for 'sm_90a'
ptxas info    : Function properties for mmasp_resident_lean
    888 bytes stack frame, 852 bytes spill stores, 840 bytes spill loads
ptxas info    : Used 64 registers, used 16 barriers, 888 bytes cumulative stack size
)";

TEST(ResidentKernels, TheReportIsReadAsPtxasWritesIt) {
  std::istringstream in(kSampleReport);
  const auto entries = bench::read_ptxas_report(in);
  ASSERT_EQ(entries.size(), 2u);
  const bench::Resources fp8 = entries.at("mmasp_resident_lean_fp8"), lean = entries.at("mmasp_resident_lean");
  EXPECT_EQ(fp8.registers, 128);
  EXPECT_EQ(fp8.frame_bytes, 496);
  EXPECT_EQ(fp8.spill_store_bytes, 136);   // the entry's own line, not the device function's 3872 after it
  EXPECT_EQ(fp8.spill_load_bytes, 124);
  EXPECT_EQ(lean.registers, 64);
  EXPECT_EQ(lean.frame_bytes, 888);
  EXPECT_EQ(lean.spill_store_bytes, 852);
  EXPECT_EQ(lean.spill_load_bytes, 840);
}

// Each kernel the source declares, with the threads of its __launch_bounds__.
TEST(ResidentKernels, TheSourceDeclaresEveryKernelWithItsLaunchBounds) {
  const auto bounds = bench::kernel_launch_bounds(resident_kernels_source());
  EXPECT_EQ(bounds.size(), 10u);
  ASSERT_TRUE(bounds.count(kResidentLeanKernel));
  EXPECT_EQ(bounds.at(kResidentLeanKernel), kResidentLeanThreads);
  ASSERT_TRUE(bounds.count(kResidentLeanFp8Kernel));
  EXPECT_EQ(bounds.at(kResidentLeanFp8Kernel), kResidentLeanFp8Threads);
  ASSERT_TRUE(bounds.count(kResidentKernel));
  EXPECT_EQ(bounds.at(kResidentKernel), 128u);
}

// The sm_90a cubin holds every kernel; a PTX image the general and lean ones alone (holds_specialised_kernels), and
// resident_kernel_names says so for each image as its source does.
TEST(ResidentKernels, EachImageHoldsTheKernelsItNames) {
  for (const ResidentImage image : kResidentImages) {
    SCOPED_TRACE(std::string(name(image)));
    const auto bounds = bench::kernel_launch_bounds(resident_kernels_source(image));
    const std::vector<std::string> names = resident_kernel_names(image);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
    EXPECT_EQ(bounds.size(), names.size());
    for (const std::string& kernel : names) EXPECT_TRUE(bounds.count(kernel)) << kernel;
    EXPECT_EQ(names.size(), holds_specialised_kernels(image) ? 10u : 2u);
    EXPECT_EQ(bounds.count(kResidentKernel), 1u);
    EXPECT_EQ(bounds.count(kResidentLeanKernel), 1u);
  }
  EXPECT_TRUE(holds_specialised_kernels(ResidentImage::sm90a_cubin));
  EXPECT_FALSE(holds_specialised_kernels(ResidentImage::compute89_ptx));
  EXPECT_FALSE(holds_specialised_kernels(ResidentImage::compute80_ptx));
}

// What the build made of them: each in the report and in the cubin, its registers within what its launch bounds
// leave a thread (a kernel over them would not launch with the blocks resident.cpp sizes).
TEST(ResidentKernels, EveryKernelIsBuiltWithinItsLaunchBounds) {
#if !defined(MMASP_PTXAS_REPORT)
  GTEST_SKIP() << "this build has no GPU-resident kernels (no nvcc), so there is no ptxas report to check";
#else
  std::ifstream report(MMASP_PTXAS_REPORT);
  ASSERT_TRUE(report) << "the build wrote no ptxas report at " << MMASP_PTXAS_REPORT;
  const auto resources = bench::read_ptxas_report(report);
  std::ifstream in(MMASP_RESIDENT_CUBIN, std::ios::binary);
  ASSERT_TRUE(in) << "the build wrote no cubin at " << MMASP_RESIDENT_CUBIN;
  const std::vector<unsigned char> cubin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto code = bench::kernel_text_sections(cubin);
  const auto bounds = bench::kernel_launch_bounds(resident_kernels_source());
  EXPECT_EQ(code.size(), bounds.size()) << "the cubin holds other kernels than the source declares";
  for (const auto& [kernel, threads] : bounds) {
    SCOPED_TRACE(kernel);
    ASSERT_TRUE(resources.count(kernel)) << "the report (" << MMASP_PTXAS_REPORT << ") has no entry " << kernel;
    ASSERT_TRUE(code.count(kernel)) << "the cubin has no .text." << kernel;
    EXPECT_FALSE(code.at(kernel).empty());
    const int registers = resources.at(kernel).registers;
    EXPECT_GT(registers, 0);
    EXPECT_LE(registers, std::min(255, int(65536 / threads)));
  }
#endif
}

// The PTX images as the build wrote them: the lean kernel's code (its body and every function it calls) holds every
// mma.sp instruction of its image, each form with each selector, so that assembling that kernel alone (ptxas --entry, the
// resident.ptx_image_assembles_for_* tests) assembles every instruction the image has.
TEST(ResidentKernels, TheLeanKernelOfEachPtxImageHoldsEveryInstructionOfIt) {
#if !defined(MMASP_GENERATED_DIR)
  GTEST_SKIP() << "this build has no GPU-resident kernels (no nvcc), so there is no PTX image to read";
#else
  for (const char* image : {"compute_89", "compute_80"}) {
    SCOPED_TRACE(image);
    std::ifstream in(std::string(MMASP_GENERATED_DIR) + "/resident_" + image + ".ptx");
    ASSERT_TRUE(in) << "the build wrote no PTX image " << image;
    // Top-level functions: a line starting ".visible .entry NAME(" or ".func (...) NAME(", to the "}" that ends it
    // (a declaration's lines go to its name too: they hold no instruction).
    std::map<std::string, std::string> bodies;
    std::string line, current;
    while (std::getline(in, line)) {
      if (line.rfind(".visible .entry ", 0) == 0 || line.rfind(".func ", 0) == 0) {
        std::string name = line.substr(line.find_last_of(" \t") + 1);   // "NAME(" or, in a declaration, "NAME"
        if (!name.empty() && name.back() == '(') name.pop_back();
        current = name;
        bodies[current];
        continue;
      }
      if (line == "}") current.clear();
      else if (!current.empty()) bodies[current] += line + "\n";
    }
    // Each mma.sp as its opcode and its sparsity selector (the immediate before the ';').
    const auto instructions = [](const std::string& text) {
      std::set<std::string> out;
      for (size_t at = text.find("mma.sp"); at != std::string::npos; at = text.find("mma.sp", at + 1)) {
        const size_t end = text.find(';', at), comma = text.rfind(',', end);
        out.insert(text.substr(at, text.find_first_of(" \t", at) - at) + " selector" + text.substr(comma + 1, end - comma - 1));
      }
      return out;
    };
    std::set<std::string> everywhere, lean;
    for (const auto& [name, body] : bodies)
      for (const std::string& each : instructions(body)) everywhere.insert(each);
    ASSERT_TRUE(bodies.count(kResidentLeanKernel));
    std::set<std::string> reached = {kResidentLeanKernel}, to_visit = reached;
    while (!to_visit.empty()) {
      const std::string name = *to_visit.begin();
      to_visit.erase(to_visit.begin());
      for (const std::string& each : instructions(bodies[name])) lean.insert(each);
      for (const auto& [callee, body] : bodies)
        if (!reached.count(callee) && bodies[name].find(callee + ",") != std::string::npos) {
          reached.insert(callee);
          to_visit.insert(callee);
        }
    }
    EXPECT_GT(everywhere.size(), 100u) << "every form x selector of the image";
    EXPECT_EQ(lean, everywhere);
  }
#endif
}

// The section reader on a crafted file: a header that points past the end, and a file that is not ELF, give nothing.
TEST(ResidentKernels, TheSectionReaderRefusesWhatIsNotAWholeElfFile) {
  EXPECT_TRUE(bench::kernel_text_sections({}).empty());
  std::vector<unsigned char> elf(64, 0);
  std::memcpy(elf.data(), "\x7f" "ELF", 4);
  elf[4] = 2;
  elf[5] = 1;
  elf[0x28] = 0xF0;   // the section table past the end
  elf[0x3A] = 64;
  elf[0x3C] = 4;
  EXPECT_TRUE(bench::kernel_text_sections(elf).empty());
  elf[4] = 1;   // ELF32
  EXPECT_TRUE(bench::kernel_text_sections(elf).empty());
}

}  // namespace
