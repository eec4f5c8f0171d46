// SASS parsing and the native/emulated verdict, on listings shaped like cuobjdump -sass output.
#include <gtest/gtest.h>

#include "harness/sass.h"
#include "oracle/instruction_space.h"

namespace mmasp {
namespace {

const char* kNativeListing = R"(
        Function : mmasp_kernel
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0150*/                   HMMA.SP.16816.F32.BF16 R4, R4, R8, R12, R2, 0x0 ;
        /*0160*/              @!P0 EXIT ;
        /*0170*/                   STG.E.128 desc[UR4][R2.64], R4 ;
)";

const char* kEmulatedListing = R"(
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0040*/                   F2FP.F16.E4M3.UNPACK_B R6, R6 ;
        /*0050*/                   HMMA.SP.16832.F32 R4, R4, R8, R12, R2, 0x0 ;
        /*0060*/                   HMMA.SP.16832.F32 R4, R16, R20, R4, R3, 0x0 ;
        /*0070*/                   EXIT ;
)";

TEST(Sass, CountsInstructionsAndCollectsMmaOpcodes) {
  const SassSummary summary = summarize_sass(kNativeListing);
  EXPECT_EQ(summary.instruction_count, 5);
  ASSERT_EQ(summary.mma_instructions.size(), 1u);
  EXPECT_EQ(summary.mma_instructions[0], "HMMA.SP.16816.F32.BF16");
  EXPECT_TRUE(summary.has_sparse_mma);
}

TEST(Sass, NativeWhenShapeAndOperandTypesAreInTheOpcode) {
  const Form& bf16 = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  EXPECT_EQ(lowering_note(bf16, summarize_sass(kNativeListing)), "");
}

TEST(Sass, EmulatedWhenTheOpcodeIsAnotherTypesMma) {
  const Form& e4m3 = *find_form("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
  const std::string note = lowering_note(e4m3, summarize_sass(kEmulatedListing));
  EXPECT_NE(note.find("emulated: lowers to HMMA.SP.16832.F32"), std::string::npos) << note;
  EXPECT_NE(note.find("5 instructions"), std::string::npos) << note;
  // The bf16 listing is not native for an f16 form either: the type tag differs.
  const Form& f16 = *find_form("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  EXPECT_NE(lowering_note(f16, summarize_sass(kNativeListing)), "");
}

}  // namespace
}  // namespace mmasp
