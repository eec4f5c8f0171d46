// The catalog against the spec text. Expected values here are transcribed from shared/spec/ptx-9.7.14.6-mma-sp.md
// independently of the family rules in oracle/instruction_space.cpp, so a slip in either shows up as a failure.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "oracle/instruction_space.h"

namespace mmasp {
namespace {

const Form& form(const std::string& opcode) {
  const Form* found = find_form(opcode);
  if (!found) throw std::runtime_error("not in catalog: " + opcode);
  return *found;
}

TEST(InstructionSpace, FamilyCountsFollowTheSyntaxBlocks) {
  std::map<std::string, int> counts;
  for (const auto& f : instruction_space()) counts[f.family]++;
  // f16: 2 shapes x {f16,f32} accumulators x {.sp, ::ordered_metadata}.
  EXPECT_EQ(counts["f16"], 2 * 2 * 2);
  // bf16, tf32: 2 shapes x 1 accumulator x 2 variants.
  EXPECT_EQ(counts["bf16"], 2 * 2);
  EXPECT_EQ(counts["tf32"], 2 * 2);
  // .f8type: e4m3/e5m2 for A and B independently, one shape, f32, 2 variants.
  EXPECT_EQ(counts["fp8"], 2 * 2 * 2);
  // kind::f8f6f4: 5 x 5 types, {f16,f32}, ::ordered_metadata only.
  EXPECT_EQ(counts["f8f6f4"], 5 * 5 * 2);
  // mxf8f6f4: 5 x 5 types, spelled with .scale_vec::1X and without it.
  EXPECT_EQ(counts["mxf8f6f4"], 5 * 5 * 2);
  // mxf4: e2m1 only, with .scale_vec::2X and without it.
  EXPECT_EQ(counts["mxf4"], 2);
  // mxf4nvf4: 2X+ue8m0, 4X+ue4m3, 4X+ue8m0; .scale_vec_size is mandatory.
  EXPECT_EQ(counts["mxf4nvf4"], 3);
  // Integers: 2 shapes x 2 x 2 signedness x {no satfinite, .satfinite} x 2 variants.
  EXPECT_EQ(counts["int8"], 2 * 4 * 2 * 2);
  EXPECT_EQ(counts["int4"], 2 * 4 * 2 * 2);

  int block_scale = 0;
  for (const auto& f : instruction_space()) block_scale += f.block_scale;
  // The public count (LLVM's rules): 138 forms without block scale, 55 with (29 + 26 default spellings).
  EXPECT_EQ(int(instruction_space().size()) - block_scale, 138);
  EXPECT_EQ(block_scale, 55);
}

TEST(InstructionSpace, OpcodesAreUniqueAndRoundTripThroughTheSpeller) {
  std::set<std::string> seen;
  for (const auto& f : instruction_space()) {
    EXPECT_TRUE(seen.insert(f.opcode).second) << "duplicate " << f.opcode;
    EXPECT_EQ(spell_opcode(parts_of(f)), f.opcode);
    EXPECT_FALSE(f.spec_section.empty()) << f.opcode;
    EXPECT_FALSE(f.selectors.empty()) << f.opcode;
  }
}

// Every instruction in the spec's "Examples" (9.7.14.6.3) is a catalog form, spelled exactly so.
TEST(InstructionSpace, SpecExamplesAreCatalogForms) {
  for (const char* example : {
           "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
           "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
           "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
           "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
           "mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m3.f32",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e2m3.e2m1.f16",
           "mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32",
           "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32",
           "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
           "mma.sp.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.u4.s32",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e3m2.e2m1.f32.ue8m0",
           "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e5m2.f32.ue8m0",
       }) {
    EXPECT_NE(find_form(example), nullptr) << example;
  }
}

// Register counts in the spec's examples and fragment tables (9.7.14.6.2, 9.7.14.6.3).
TEST(InstructionSpace, RegisterCountsMatchTheSpec) {
  struct Expect { const char* opcode; RegisterCounts regs; };
  for (const auto& [opcode, regs] : std::vector<Expect>{
           {"mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", {2, 2, 2, 2, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", {4, 4, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", {2, 2, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", {4, 4, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", {2, 2, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32", {4, 4, 4, 4, 0, 0}},
           {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e2m3.e2m1.f16", {4, 4, 2, 2, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", {2, 2, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32", {4, 4, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", {2, 2, 4, 4, 0, 0}},
           {"mma.sp.sync.aligned.m16n8k128.row.col.satfinite.s32.u4.u4.s32", {4, 4, 4, 4, 0, 0}},
           {"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0", {4, 4, 4, 4, 1, 1}},
           {"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e3m2.e2m1.f32.ue8m0", {4, 4, 4, 4, 1, 1}},
       }) {
    EXPECT_EQ(form(opcode).regs, regs) << opcode;
  }
}

// 9.7.14.6.1, the sentences on the sparsity selector, one per shape and type.
TEST(InstructionSpace, SelectorRangesMatchTheSpecText) {
  std::map<std::string, int> last_selector;  // "family/k" -> highest valid selector
  for (const auto& f : instruction_space())
    last_selector[f.family + "/" + std::to_string(f.shape.k)] = f.selectors.back();
  EXPECT_EQ(last_selector["f16/16"], 3);   // "m16n8k16: ... {0, 1, 2, 3}"
  EXPECT_EQ(last_selector["bf16/16"], 3);
  EXPECT_EQ(last_selector["f16/32"], 1);   // "m16n8k32: ... either 0 (threads T0, T1) or 1 (threads T2, T3)"
  EXPECT_EQ(last_selector["bf16/32"], 1);
  EXPECT_EQ(last_selector["tf32/8"], 3);   // tf32 "m16n8k8: ... {0, 1, 2, 3}"
  EXPECT_EQ(last_selector["tf32/16"], 1);  // tf32 "m16n8k16: ... 0 or 1"
  EXPECT_EQ(last_selector["int8/32"], 1);  // "m16n8k32 with .u8/.s8 ... 0 or 1"
  EXPECT_EQ(last_selector["int4/64"], 1);  // "m16n8k64 with .u4/.s4 ... 0 or 1"
  EXPECT_EQ(last_selector["int8/64"], 0);  // "m16n8k64 with .u8/.s8 ... must be 0"
  EXPECT_EQ(last_selector["int4/128"], 0); // "m16n8k128 with .u4/.s4 ... must be 0"
  EXPECT_EQ(last_selector["fp8/64"], 0);
  EXPECT_EQ(last_selector["f8f6f4/64"], 0);
  EXPECT_EQ(last_selector["mxf8f6f4/64"], 0);
  EXPECT_EQ(last_selector["mxf4/128"], 0);
  EXPECT_EQ(last_selector["mxf4nvf4/128"], 0);
}

TEST(InstructionSpace, SparsityGranularityFollowsElementWidth) {
  for (const auto& f : instruction_space()) {
    if (f.a == ElemType::tf32) {
      EXPECT_EQ(f.sparsity, Sparsity::one_of_two) << f.opcode;
    } else if (f.kind == Kind::mxf4 || f.kind == Kind::mxf4nvf4 || f.a == ElemType::u4 || f.a == ElemType::s4) {
      EXPECT_EQ(f.sparsity, Sparsity::pairwise_four_of_eight) << f.opcode;
      EXPECT_EQ(f.chunk_width, 8);
    } else {
      // 9.7.14.6.1: kind::f8f6f4 e2m1 is 2:4 on its 8-bit containers, not pair-wise.
      EXPECT_EQ(f.sparsity, Sparsity::two_of_four) << f.opcode;
      EXPECT_EQ(f.chunk_width, 4);
    }
  }
}

TEST(InstructionSpace, DefaultScaleVecSpellings) {
  int omitted = 0;
  for (const auto& f : instruction_space()) {
    if (!f.block_scale) continue;
    if (!f.scale_vec_spelled) {
      ++omitted;
      EXPECT_NE(f.kind, Kind::mxf4nvf4) << "mxf4nvf4 must spell .scale_vec_size";
      EXPECT_EQ(f.scale_vec, f.kind == Kind::mxf4 ? ScaleVec::x2 : ScaleVec::x1) << f.opcode;
      EXPECT_EQ(f.opcode.find("scale_vec"), std::string::npos);
    }
  }
  EXPECT_EQ(omitted, 25 + 1);
}

TEST(InstructionSpace, MinimumPtxVersions) {
  EXPECT_EQ(form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16").min_ptx, (PtxVersion{7, 1}));
  EXPECT_EQ(form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16").min_ptx,
            (PtxVersion{8, 5}));
  EXPECT_EQ(form("mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32").min_ptx, (PtxVersion{8, 4}));
  EXPECT_EQ(form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32").min_ptx,
            (PtxVersion{8, 5}));
  EXPECT_EQ(form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e3m2.e2m3.f32").min_ptx,
            (PtxVersion{8, 7}));
  EXPECT_EQ(form("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X."
                 "f32.e2m1.e2m1.f32.ue8m0").min_ptx,
            (PtxVersion{9, 1}));
}

TEST(InstructionSpace, TargetRules) {
  auto target = [](const char* name) { return *find_target(name); };
  const Form& base = form("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  const Form& fp8 = form("mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
  const Form& f8f6f4 = form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32");
  const Form& mxf4 = form("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0");
  EXPECT_TRUE(base.legal_on(target("sm_80"), {7, 1}));
  EXPECT_FALSE(base.legal_on(target("sm_80"), {7, 0}));  // PTX 7.0 predates mma.sp
  EXPECT_FALSE(fp8.legal_on(target("sm_86"), {8, 4}));
  EXPECT_TRUE(fp8.legal_on(target("sm_89"), {8, 4}));
  EXPECT_TRUE(fp8.legal_on(target("sm_120a"), {8, 7}));
  EXPECT_FALSE(f8f6f4.legal_on(target("sm_90a"), {8, 7}));
  EXPECT_FALSE(f8f6f4.legal_on(target("sm_100a"), {8, 8}));
  EXPECT_TRUE(f8f6f4.legal_on(target("sm_120a"), {8, 7}));
  EXPECT_FALSE(f8f6f4.legal_on(target("sm_120f"), {8, 7}));  // family targets only from PTX 8.8
  EXPECT_TRUE(f8f6f4.legal_on(target("sm_120f"), {8, 8}));
  EXPECT_TRUE(f8f6f4.legal_on(target("sm_121a"), {8, 8}));
  EXPECT_FALSE(f8f6f4.legal_on(target("sm_120"), {8, 8}));   // the plain target has no arch-specific features
  EXPECT_TRUE(mxf4.legal_on(target("sm_121a"), {8, 8}));
  EXPECT_FALSE(mxf4.legal_on(target("sm_120f"), {8, 8}));    // mxf4 is sm_120a/sm_121a only
  EXPECT_EQ(f8f6f4.version_for(target("sm_120a")), (PtxVersion{8, 7}));
  EXPECT_EQ(f8f6f4.version_for(target("sm_120f")), (PtxVersion{8, 8}));
}

TEST(InstructionSpace, SpellerPlacesQualifiersInSyntaxOrder) {
  OpcodeParts parts;
  parts.variant = SpVariant::ordered_metadata;
  parts.shape = {16, 8, 128};
  parts.kind = Kind::mxf4nvf4;
  parts.block_scale = true;
  parts.scale_vec = ScaleVec::x2;
  parts.a = parts.b = ElemType::e2m1;
  parts.c = parts.d = ElemType::f32;
  parts.stype = ElemType::ue8m0;
  EXPECT_EQ(spell_opcode(parts),
            "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X."
            "f32.e2m1.e2m1.f32.ue8m0");
}

// The legality predicate over every combination of qualifiers the speller can write (LLVM wmma.py style): a tuple is
// legal exactly when expand() made a form of it, and then the predicate returns that form.
TEST(Legality, AgreesWithTheExpandedCatalogOverEveryCombination) {
  const std::vector<ElemType> types = {ElemType::f16, ElemType::bf16, ElemType::tf32, ElemType::f32,  ElemType::e4m3,
                                       ElemType::e5m2, ElemType::e3m2, ElemType::e2m3, ElemType::e2m1, ElemType::u8,
                                       ElemType::s8,  ElemType::u4,   ElemType::s4,   ElemType::s32};
  const std::vector<ElemType> accumulators = {ElemType::f16, ElemType::f32, ElemType::s32};
  size_t tuples = 0, legal = 0;
  std::set<const Form*> found;
  for (SpVariant variant : {SpVariant::sp, SpVariant::ordered_metadata})
    for (Kind kind : {Kind::none, Kind::f8f6f4, Kind::mxf8f6f4, Kind::mxf4, Kind::mxf4nvf4})
      for (int k : {8, 16, 32, 64, 128})
        for (ElemType a : types)
          for (ElemType b : types)
            for (ElemType c : accumulators)
              for (ElemType d : accumulators)
                for (bool satfinite : {false, true}) {
                  const bool scaled = kind == Kind::mxf8f6f4 || kind == Kind::mxf4 || kind == Kind::mxf4nvf4;
                  for (ScaleVec scale_vec : {ScaleVec::none, ScaleVec::x1, ScaleVec::x2, ScaleVec::x4})
                    for (ElemType stype : {ElemType::ue8m0, ElemType::ue4m3}) {
                      if (!scaled && (scale_vec != ScaleVec::none || stype != ElemType::ue8m0)) continue;
                      OpcodeParts parts{variant, {16, 8, k}, kind, scaled, scale_vec, satfinite, a, b, c, d, std::nullopt};
                      if (scaled) parts.stype = stype;
                      const Legality verdict = legality(parts);
                      const Form* form = find_form(spell_opcode(parts));
                      ++tuples;
                      ASSERT_EQ(verdict.legal(), form != nullptr) << spell_opcode(parts) << ": " << verdict.rule << " " << verdict.why;
                      if (!verdict.legal()) {
                        EXPECT_FALSE(verdict.why.empty()) << spell_opcode(parts);
                        continue;
                      }
                      ++legal;
                      EXPECT_EQ(verdict.form, form);
                      found.insert(form);
                    }
                }
  EXPECT_EQ(found.size(), instruction_space().size()) << "every catalog form is reachable as a tuple";
  EXPECT_GT(tuples, 100000u);
  EXPECT_EQ(legal, instruction_space().size());
}

TEST(Legality, SelectorsRegistersAndVersionsOfEveryForm) {
  for (const auto& form : instruction_space()) {
    const OpcodeParts parts = parts_of(form);
    for (int selector : form.selectors) EXPECT_TRUE(legality(parts, selector, &form.regs).legal()) << form.opcode;
    EXPECT_EQ(legality(parts, form.selectors.back() + 1).rule, "selector-out-of-range") << form.opcode;
    RegisterCounts fewer = form.regs;
    fewer.a -= 1;
    EXPECT_EQ(legality(parts, 0, &fewer).rule, "register-count") << form.opcode;
    for (const auto& target : known_targets()) {
      const PtxVersion version = std::max(form.version_for(target), target.min_ptx);
      EXPECT_EQ(legality(parts, 0, &form.regs, target, version).legal(), form.legal_on(target, version))
          << form.opcode << " on " << target.name;
    }
    const PtxVersion below{form.min_ptx.major, form.min_ptx.minor - 1};
    EXPECT_EQ(legality(parts, 0, &form.regs, *find_target("sm_120a"), below).rule, "below-min-ptx") << form.opcode;
  }
}

// The spec's note about m16n8k32 e4m3/e5m2 (finding F-0012): the syntax has no such sparse form.
TEST(Legality, SparseFp8HasNoM16n8k32) {
  const Form* fp8 = find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
  ASSERT_NE(fp8, nullptr);
  OpcodeParts parts = parts_of(*fp8);
  parts.shape.k = 32;
  EXPECT_EQ(legality(parts).rule, "shape-not-in-syntax");
  parts.c = parts.d = ElemType::f16;
  EXPECT_EQ(legality(parts).rule, "shape-not-in-syntax");
}

}  // namespace
}  // namespace mmasp
