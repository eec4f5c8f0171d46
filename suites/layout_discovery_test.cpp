// Layout discovery (issue #5) on the CPU: against the emulator, which uses the oracle's layouts, every probe must
// agree; against a backend whose registers are wired differently, discovery must say which probes disagree.
#include <gtest/gtest.h>

#include "harness/layout_discovery.h"
#include "harness/ptx_emitter.h"
#include "suites/defective_emulator.h"

namespace mmasp {
namespace {

class LayoutDiscoveryOnTheEmulator : public testing::TestWithParam<std::string> {};

TEST_P(LayoutDiscoveryOnTheEmulator, AgreesWithTheModelForEverySelector) {
  const Form& form = *find_form(GetParam());
  EmulatorBackend emulator;
  for (int selector : form.selectors) {
    LayoutDiscovery discovery = discover_layout(emulator, form, selector);
    ASSERT_TRUE(discovery.error.empty()) << discovery.error;
    for (const auto& operand : discovery.operands) {
      EXPECT_GT(operand.probes, 0) << operand.operand;
      EXPECT_EQ(operand.matched, operand.probes) << operand.operand << " selector " << selector << ": "
                                                 << (operand.mismatches.empty() ? "" : operand.mismatches.front());
    }
    EXPECT_TRUE(discovery.all_match());
  }
}

// One form per sparsity granularity and element width that sm_90 runs, plus a block-scale form.
INSTANTIATE_TEST_SUITE_P(
    Forms, LayoutDiscoveryOnTheEmulator,
    testing::Values("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
                    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
                    "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                    "mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32",
                    "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32",
                    "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.s4.s32",
                    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32"),
    [](const testing::TestParamInfo<std::string>& info) { return "form" + std::to_string(info.index); });

// The emulator behind a miswired register file: lane 0 and lane 1 swap their first A register, and lane 4 reads
// its metadata from lane 5.
class MiswiredBackend final : public DefectiveEmulator {
 public:
  MiswiredBackend() : DefectiveEmulator("miswired emulator (test)") {}
  std::vector<uint32_t> run(const Form& form, int selector, const std::vector<uint32_t>& input, uint32_t cases) override {
    const LaneRecordLayout layout = lane_record_layout(instruction_for(form, selector));
    std::vector<uint32_t> swapped = input;
    const size_t w = size_t(layout.input_words);
    for (uint32_t c = 0; c < cases; ++c) {
      uint32_t* warp = swapped.data() + c * 32 * w;
      std::swap(warp[0 * w + layout.a], warp[1 * w + layout.a]);
      warp[4 * w + layout.e] = input[c * 32 * w + 5 * w + layout.e];
    }
    return inner_.run(form, selector, swapped, cases);
  }
};

TEST(LayoutDiscovery, FindsAMiswiredRegisterFileAndSaysWhere) {
  const Form& form = *find_form("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
  MiswiredBackend miswired;
  LayoutDiscovery discovery = discover_layout(miswired, form, 0);
  EXPECT_FALSE(discovery.all_match());
  const OperandDiscovery& a = discovery.operands[0];
  EXPECT_EQ(a.operand, "A");
  EXPECT_LT(a.matched, a.probes);
  ASSERT_FALSE(a.mismatches.empty());
  EXPECT_NE(a.mismatches.front().find("lane 0"), std::string::npos) << a.mismatches.front();
  const OperandDiscovery& metadata = discovery.operands[3];
  EXPECT_LT(metadata.matched, metadata.probes);
  EXPECT_EQ(discovery.operands[2].matched, discovery.operands[2].probes) << "C was not miswired";
}

}  // namespace
}  // namespace mmasp
