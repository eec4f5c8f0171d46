// GPU: every integer form the device supports, every selector, random cases packed with the oracle's layouts and
// judged by the oracle's exact reference. A mismatch means the hardware or our layout model is wrong (a finding);
// the reference is not adjusted to make it pass. Skipped, with the reason, where no GPU is present.
#include <gtest/gtest.h>

#include <chrono>

#include "harness/cuda_driver.h"
#include "harness/fragment_packing.h"
#include "oracle/classification.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {
namespace {

// SplitMix64: the same stream on every machine (standard-library distributions differ between implementations).
struct SplitMix {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

MmaCase random_case(const Form& form, int selector, SplitMix& random, bool extremes) {
  const int m = form.shape.m, k = form.shape.k;
  const uint32_t code_mask = (1u << info(form.a).bits) - 1;
  MmaCase test = zero_case(form);
  test.selector = selector;
  std::vector<uint32_t> dense(size_t(m * k), 0);
  std::vector<ChunkPositions> positions;
  const int units = positions_per_chunk(form.sparsity);
  const int unit = elements_per_position(form.sparsity);
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < k / form.chunk_width; ++c) {
      int first = int(random.below(uint32_t(units)));
      int second = int(random.below(uint32_t(units - 1)));
      if (second >= first) ++second;
      if (form.variant == SpVariant::ordered_metadata && first > second) std::swap(first, second);
      positions.push_back({first, second});
      for (int position : {first, second})
        for (int e = 0; e < unit; ++e)
          dense[size_t(row * k + c * form.chunk_width + position * unit + e)] = random.next() & code_mask;
    }
  SparseA sparse = compress(form, dense, positions);
  test.a_compressed = sparse.compressed;
  test.nibbles = sparse.nibbles;
  for (auto& code : test.b) code = random.next() & ((1u << info(form.b).bits) - 1);
  for (auto& code : test.c) {
    // Near the s32 limits half the time in the extreme set, so wrap and .satfinite give different answers.
    if (extremes && random.below(2)) code = random.below(2) ? uint32_t(INT32_MAX - int32_t(random.below(1 << 12)))
                                                            : uint32_t(INT32_MIN + int32_t(random.below(1 << 12)));
    else code = uint32_t(int32_t(random.below(2001)) - 1000);
  }
  test.metadata_noise.resize(32);
  for (auto& noise : test.metadata_noise) noise = uint32_t(random.next());
  return test;
}

TEST(GpuIntegerForms, EveryFormAndSelectorMatchesTheExactReference) {
  std::unique_ptr<CudaDevice> device;
  try {
    device = std::make_unique<CudaDevice>(0);
  } catch (const std::exception& error) {
    GTEST_SKIP() << "no GPU: " << error.what();
  }
  const int sm = device->sm();
  auto target = find_target("sm_" + std::to_string(sm) + "a");
  if (!target) target = find_target("sm_" + std::to_string(sm));
  if (!target) GTEST_SKIP() << "device sm_" << sm << " is not a target mmasp knows";
  RecordProperty("gpu", device->name());
  RecordProperty("driver", device->driver_version());
  std::cout << "device: " << device->name() << " (sm_" << sm << "), driver " << device->driver_version()
            << ", target " << target->name << "\n";

  constexpr uint32_t kCases = 2048;
  size_t forms_run = 0, cases_run = 0;
  auto start = std::chrono::steady_clock::now();
  SplitMix random{20261122};
  for (const auto& form : instruction_space()) {
    if (!form.is_integer() || !form.legal_on(*target, form.version_for(*target))) continue;
    ++forms_run;
    for (int selector : form.selectors) {
      const InstructionText instruction = instruction_for(form, selector);
      std::vector<MmaCase> cases;
      std::vector<uint32_t> records;
      for (uint32_t i = 0; i < kCases; ++i) {
        cases.push_back(random_case(form, selector, random, i % 2 == 1));
        pack_case(cases.back(), records);
      }
      std::string ptx = emit_module(instruction, form.version_for(*target), *target);
      std::vector<uint32_t> output;
      try {
        output = device->run_ptx(ptx, records, lane_record_layout(instruction).output_words, kCases);
      } catch (const std::exception& error) {
        ADD_FAILURE() << form.opcode << " sel=" << selector << ": " << error.what();
        continue;
      }
      int mismatched_cases = 0;
      for (uint32_t i = 0; i < kCases; ++i) {
        auto observed = unpack_d(form, output.data() + size_t(i) * 32 * size_t(form.regs.d));
        CaseVerdict verdict = judge(cases[i], observed);
        if (verdict.status != Status::pass && ++mismatched_cases <= 1)
          ADD_FAILURE() << form.opcode << " sel=" << selector << " case " << i << " element (" << verdict.worst.row
                        << "," << verdict.worst.col << "): " << verdict.worst.reason;
      }
      if (mismatched_cases) ADD_FAILURE() << form.opcode << " sel=" << selector << ": " << mismatched_cases << "/"
                                          << kCases << " cases differ";
      cases_run += kCases;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << forms_run << " integer forms, " << cases_run << " cases in " << seconds << " s ("
            << cases_run / seconds << " cases/s including packing and the reference)\n";
  EXPECT_GT(forms_run, 0u);
}

}  // namespace
}  // namespace mmasp
