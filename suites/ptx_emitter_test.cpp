#include <gtest/gtest.h>

#include <regex>

#include "harness/ptx_emitter.h"
#include "harness/sha256.h"

namespace mmasp {
namespace {

int count_of(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(LaneRecordLayout, OperandsAreContiguousAndComplete) {
  for (const auto& form : instruction_space()) {
    auto layout = lane_record_layout(instruction_for(form, 0));
    EXPECT_EQ(layout.a, 0);
    EXPECT_EQ(layout.b, form.regs.a);
    EXPECT_EQ(layout.c, form.regs.a + form.regs.b);
    EXPECT_EQ(layout.e, form.regs.a + form.regs.b + form.regs.c);
    EXPECT_EQ(layout.input_words, layout.e + 1 + (form.block_scale ? 4 : 0)) << form.opcode;
    EXPECT_EQ(layout.output_words, form.regs.d);
  }
}

TEST(PtxEmitter, ModuleCarriesVersionTargetOpcodeAndOperands) {
  for (const auto& form : instruction_space()) {
    const Target target = *find_target("sm_120a");
    for (int selector : form.selectors) {
      std::string ptx = form_module(form, selector, target);
      EXPECT_NE(ptx.find(".version " + form.version_for(target).str() + "\n"), std::string::npos);
      EXPECT_NE(ptx.find(".target sm_120a\n"), std::string::npos);
      EXPECT_EQ(count_of(ptx, "\n  " + form.opcode + "\n"), 1) << form.opcode;
      // The operand list: d, a, b, c vectors of the catalog's sizes, then e and the immediate selector.
      auto vector_of = [](const char* prefix, int count) {
        std::string out = "{";
        for (int i = 0; i < count; ++i) out += (i ? ", %" : "%") + std::string(prefix) + std::to_string(i);
        return out + "}";
      };
      std::string operands = vector_of("d", form.regs.d) + ",\n    " + vector_of("a", form.regs.a) + ",\n    " +
                             vector_of("b", form.regs.b) + ",\n    " + vector_of("c", form.regs.c) + ",\n    %e, " +
                             std::to_string(selector);
      EXPECT_NE(ptx.find(operands), std::string::npos) << form.opcode << "\n" << ptx;
      EXPECT_EQ(ptx.find("%scale_a, {%byte_id_a") != std::string::npos, form.block_scale) << form.opcode;
      EXPECT_EQ(count_of(ptx, "st.global."), form.regs.d);
    }
  }
}

TEST(PtxEmitter, AccumulatorRegisterTypesFollowTheForm) {
  const Form* half = find_form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  const Form* single = find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  ASSERT_TRUE(half && single);
  const Target target = *find_target("sm_80");
  std::string half_ptx = emit_module(instruction_for(*half, 0), {7, 1}, target);
  std::string single_ptx = emit_module(instruction_for(*single, 0), {7, 1}, target);
  EXPECT_NE(half_ptx.find(".reg .b32 %c<2>;"), std::string::npos);
  EXPECT_NE(single_ptx.find(".reg .f32 %c<4>;"), std::string::npos);
  EXPECT_NE(single_ptx.find("st.global.f32 [%out_rec+12], %d3;"), std::string::npos);
}

TEST(Sha256, KnownAnswers) {
  // FIPS 180-4 examples.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // 55/56/64-byte edges of the padding.
  EXPECT_EQ(sha256_hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

}  // namespace
}  // namespace mmasp
