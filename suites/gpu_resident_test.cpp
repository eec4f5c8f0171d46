// GPU: the resident path (resident/resident.h) on the hardware, once per image the device can load: the sm_90a cubin
// (sm_90 only) and the PTX image the driver JIT-compiles (any sm_80+ GPU; on sm_90 the compute_89 image). For every
// form x selector the image holds: the cases the GPU draws are the host's bit for bit (dump mode against the bulk
// generator), the hardware's D is the model's (the same check the kernel makes, repeated on the host for the dumped
// cases), a resident check of many cases finds no deviation, and faults of the catalogue are caught by the resident
// check. Float forms need a verified model of the device's architecture; without one only integer forms are checked.
// Skipped, with the reason, where no GPU is present, where the build has no resident kernel, or where the device
// cannot load the image (the cubin on another architecture). MMASP_RESIDENT_CUBIN_FILE, when set, names a cubin built
// by hand from a variant of the kernels (resident_benchmark --image-file): the cubin tests load it in place of the
// embedded one, so that a kernel change is checked before it is built into the binary.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "harness/gpu_probe.h"
#include "resident/resident.h"
#include "resident/resident_source.h"
#include "oracle/numeric_model_table.h"
#include "suites/gpu_resource.h"

namespace mmasp {
// gtest names each parametrized test with the image (test names in CTest read "…/cubin  # GetParam() = cubin").
void PrintTo(ResidentImageChoice choice, std::ostream* out) { *out << name(choice); }

namespace {

class GpuResident : public ::testing::TestWithParam<ResidentImageChoice> {
 protected:
  void SetUp() override {
    const GpuProbe probe = probe_gpus();
    if (!probe.available) GTEST_SKIP() << "no GPU: " << probe.reason;
    if (!ResidentPath::built()) GTEST_SKIP() << "this build has no resident kernel (no nvcc at build time)";
    device_ = std::make_unique<CudaDevice>(test_gpu());
    if (GetParam() == ResidentImageChoice::cubin && device_->sm() != 90)
      GTEST_SKIP() << "the cubin is for sm_90a; this GPU is sm_" << device_->sm();
    const char* variant = std::getenv("MMASP_RESIDENT_CUBIN_FILE");
    const std::string file = GetParam() == ResidentImageChoice::cubin && variant ? variant : "";
    // A PTX image's JIT kept where mmasp run keeps it (the module store's default): one test process pays it.
    path_ = std::make_unique<ResidentPath>(*device_, GetParam(), file, &store_);
    std::cout << "image: " << name(path_->image()) << (file.empty() ? "" : " from " + file) << ", loaded in "
              << path_->load_seconds() << " s\n";
  }
  // The pairs this path judges: every pair its image holds, float forms where the architecture has a verified model.
  bool judged(const Form& form) const { return path_->covers(form) && (form.is_integer() || model_for(form)); }
  std::optional<ModelParameters> model_for(const Form& form) const {
    return verified_model(form, "sm_" + std::to_string(device_->sm()));
  }
  std::unique_ptr<CudaDevice> device_;
  const ModuleStore store_{default_ptxas_cache_dir() / "modules", nullptr};
  std::unique_ptr<ResidentPath> path_;
};

TEST_P(GpuResident, TheGpuDrawsTheHostsCasesAndComputesTheModelsResultsForEveryPair) {
  int pairs = 0;
  for (const Form& form : instruction_space()) {
    if (!judged(form)) continue;
    const auto model = model_for(form);
    for (int selector : form.selectors) {
      ++pairs;
      const uint64_t stream = 0x5eed0000 + uint64_t(selector);
      const auto dumped = path_->dump(form, selector, model ? &*model : nullptr, stream, 1000, 64);
      ASSERT_EQ(dumped.size(), 64u) << form.opcode;
      ASSERT_EQ(dump_disagreement(form, model ? &*model : nullptr, stream, 1000, dumped), "");
    }
  }
  // On sm_90 every form x selector with a resident kernel: 152 in the cubin, the same 152 in the compute_89 image.
  if (device_->sm() == 90) EXPECT_EQ(pairs, 152);
  EXPECT_GT(pairs, 0);
}

// A kernel of one shape refuses a pair it does not take (resident_kernel.cuh): it traps, and the launch fails, rather
// than judge the pair by another shape's constants. Each in a process of its own (a trap leaves the CUDA context
// unusable), first given a pair it takes, which must pass: the m16n8k16 kernel given an m16n8k32 pair (other case
// dimensions), the f16 kernels given the bf16 pair of their shape (no f16 words).
TEST_P(GpuResident, AKernelOfOneShapeRefusesAPairItDoesNotTake) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");   // the child runs the test from the start, with a context of its own
  if (!holds_specialised_kernels(path_->image()))
    GTEST_SKIP() << "the " << name(path_->image()) << " image holds no kernel of one shape (holds_specialised_kernels)";
  const auto refuses = [&](const char* kernel, const char* taken_opcode, const char* refused_opcode) {
    const Form* taken = find_form(taken_opcode);
    const Form* refused = find_form(refused_opcode);
    ASSERT_TRUE(taken && refused) << taken_opcode << ", " << refused_opcode;
    if (!judged(*taken) || !judged(*refused)) GTEST_SKIP() << "this GPU's path does not judge " << taken_opcode << " and " << refused_opcode;
    const auto check = [&](const Form& form) {
      const auto model = model_for(form);
      return path_->check(form, form.selectors.front(), model ? &*model : nullptr, 20261129, 0, 1 << 16);
    };
    EXPECT_EXIT(
        {
          path_->send_every_pair_to(kernel);
          const ResidentResult fine = check(*taken);
          if (fine.counts.checked != (1u << 16) || fine.counts.deviating != 0) {
            std::cerr << kernel << " did not pass " << taken_opcode;
            std::exit(4);
          }
          try {
            check(*refused);
          } catch (const std::exception& e) {
            std::cerr << kernel << " refused " << refused_opcode << ": " << e.what();
            std::exit(3);
          }
          std::exit(5);   // judged a pair it does not take
        },
        ::testing::ExitedWithCode(3), std::string(kernel) + " refused .*kernel execution")
        << kernel << " given " << refused_opcode;
  };
  refuses(kResidentLeanK16Kernel, "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
          "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
  refuses(kResidentLeanK16F16Kernel, "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
          "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  refuses(kResidentLeanNarrowF16Kernel, "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
          "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
}

TEST_P(GpuResident, EveryPairChecksManyCasesWithoutADeviation) {
  uint64_t cases = 0;
  double seconds = 0;
  for (const Form& form : instruction_space()) {
    if (!judged(form)) continue;
    const auto model = model_for(form);
    for (int selector : form.selectors) {
      const ResidentResult result = path_->check(form, selector, model ? &*model : nullptr, 20261123 + uint64_t(selector), 0, 1 << 20);
      EXPECT_EQ(result.counts.generated, uint64_t(1) << 20) << form.opcode;
      EXPECT_EQ(result.counts.checked, uint64_t(1) << 20) << form.opcode;
      EXPECT_EQ(result.counts.deviating, 0u) << form.opcode << " selector " << selector << ": first deviating case "
                                              << (result.deviating_indices.empty() ? 0 : result.deviating_indices[0]);
      cases += result.counts.checked;
      seconds += result.seconds;
    }
  }
  std::cout << cases << " cases judged on the GPU in " << seconds << " s of kernel time\n";
}

TEST_P(GpuResident, EveryCatalogueFaultIsCaughtWhereverItChangesAResult) {
  // Every fault the kernel can apply, on every pair it applies to: every case whose D the fault changed is a
  // deviating case (the hardware itself agreeing with the model), as on the host path (mmasp selftest --faults).
  int applied = 0, changed_somewhere = 0;
  uint64_t launches = 0;
  std::map<std::string, uint64_t> changed_by_fault;
  for (const Form& form : instruction_space()) {
    if (!judged(form)) continue;
    const auto model = model_for(form);
    for (int selector : form.selectors)
      for (const Fault& fault : fault_catalog()) {
        if (!fault.applies(form, selector)) continue;
        const auto on_device = resident_fault(fault, form, model ? &*model : nullptr, nullptr);
        if (!on_device) continue;
        ++applied;
        ++launches;
        const ResidentResult result = path_->check(form, selector, model ? &*model : nullptr, 77, 0, 20000, &*on_device);
        EXPECT_EQ(result.counts.deviating, result.counts.fault_changed)
            << fault.id << " on " << form.opcode << " selector " << selector << ": changed "
            << result.counts.fault_changed << " cases, caught " << result.counts.deviating;
        EXPECT_EQ(result.counts.recorded + result.counts.overflowed(), result.counts.deviating);
        changed_by_fault[fault.id] += result.counts.fault_changed;
      }
  }
  for (const auto& [id, changed] : changed_by_fault) changed_somewhere += changed > 0;
  std::cout << applied << " fault x pair launches; " << changed_somewhere << " of " << changed_by_fault.size()
            << " faults changed some result, and every changed case was caught\n";
  for (const auto& [id, changed] : changed_by_fault)
    if (!changed) std::cout << "  changed no result on any pair: " << id << "\n";
  EXPECT_GE(changed_somewhere, 25);
}

INSTANTIATE_TEST_SUITE_P(Images, GpuResident, ::testing::Values(ResidentImageChoice::cubin, ResidentImageChoice::ptx),
                         [](const auto& info) { return std::string(name(info.param)); });

}  // namespace
}  // namespace mmasp
