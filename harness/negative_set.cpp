// The negative set: instructions that must be rejected, each made by breaking exactly one rule of a legal catalog
// form, and assembled only on targets (and at PTX versions) where the unbroken form is legal. So a rejection can
// only come from the broken rule.
#include <map>
#include <set>

#include "harness/compile_conformance.h"

namespace mmasp {
namespace {

using T = ElemType;

struct NegativeBuilder {
  const std::vector<Target>& targets;
  std::vector<CompileCase> cases;
  std::set<std::string> seen;

  // Adds `instruction` on every target where `base` is legal, at the version the base form needs there.
  // `version_override` pins the PTX version (for rules about the version itself); `at_least` raises it, so that a
  // rejection cannot come from a feature being newer than the module.
  void add(const std::string& rule, const std::string& detail, const Form& base, InstructionText instruction,
           const std::string& why, std::optional<PtxVersion> version_override = std::nullopt,
           PtxVersion at_least = {}) {
    for (const auto& target : targets) {
      PtxVersion version = version_override ? *version_override : std::max(base.version_for(target), at_least);
      // A version override below the base form's minimum is the point of some rules; only the target must know it.
      bool base_legal_here = version_override
                                 ? base.target.accepts(target, base.version_for(target)) && version >= target.min_ptx
                                 : base.legal_on(target, version);
      if (!base_legal_here) continue;
      CompileCase test;
      test.rule = rule;
      test.form = base.opcode;
      test.id = "reject/" + rule + "/" + detail + "@" + target.name;
      if (!seen.insert(test.id).second) continue;
      test.instruction = instruction;
      test.version = version;
      test.target = target;
      test.expected = Expected::reject;
      test.why = why;
      cases.push_back(std::move(test));
    }
  }
};

InstructionText with_opcode(const Form& form, const OpcodeParts& parts) {
  InstructionText text = instruction_for(form, form.selectors.front());
  text.opcode = spell_opcode(parts);
  return text;
}

// Register counts follow the (possibly illegal) types, so that the only thing wrong is the type itself.
InstructionText with_types(const Form& form, const OpcodeParts& parts) {
  InstructionText text = with_opcode(form, parts);
  text.regs = register_counts(parts.shape, form.a_container_bits, form.b_container_bits, *parts.c, *parts.d,
                              parts.block_scale);
  text.c_is_f32 = *parts.c == T::f32;
  text.d_is_f32 = *parts.d == T::f32;
  return text;
}

std::string short_name(const Form& form) {
  // The opcode minus the part every form shares, which keeps case ids readable.
  std::string id = form.opcode;
  const std::string common = ".sync.aligned.";
  if (auto at = id.find(common); at != std::string::npos) id.replace(at, common.size(), ".");
  return id;
}

}  // namespace

std::vector<CompileCase> negative_cases(const std::vector<Form>& forms, const std::vector<Target>& targets) {
  NegativeBuilder out{targets, {}, {}};

  for (const auto& form : forms) {
    const std::string base = short_name(form);
    OpcodeParts parts = parts_of(form);

    // 9.7.14.6.3: "In case of shapes .m16n8k16, .m16n8k32 and .m16n8k64, .dtype must be the same as .ctype."
    if (form.c == T::f16 || form.c == T::f32) {
      OpcodeParts mismatched = parts;
      mismatched.c = form.c == T::f16 ? T::f32 : T::f16;
      out.add("ctype-ne-dtype", base, form, with_types(form, mismatched),
              "9.7.14.6.3: at m16n8k16/k32/k64 .dtype must equal .ctype");
    }

    // 9.7.14.6.3 syntax: .satfinite appears only in the integer syntax block.
    if (!form.is_integer()) {
      OpcodeParts saturated = parts;
      saturated.satfinite = true;
      out.add("satfinite-on-float", base, form, with_opcode(form, saturated),
              "9.7.14.6.3: .satfinite exists only for integer types");
    }

    // 9.7.14.6.3 syntax: .f8type without .kind accumulates only in .f32. Dense mma gained f16 accumulation for
    // e4m3/e5m2 in PTX 8.7 (sm_120), and the sparse ISA notes repeat that sentence, but the sparse syntax never lists
    // it; the module is at least PTX 8.7 so that only the syntax can reject it.
    if (form.family == "fp8") {
      OpcodeParts half = parts;
      half.c = half.d = T::f16;
      out.add("wrong-accumulator", base + "/f16", form, with_types(form, half),
              "9.7.14.6.3 syntax: .f8type without .kind has .f32 C and D only", std::nullopt, PtxVersion{8, 7});
    }

    // 9.7.14.6.3 syntax: the no-.kind alternate-float block lists only .e4m3/.e5m2; e3m2/e2m3/e2m1 need a .kind.
    // Built from the kind::f8f6f4 form itself, so it runs only where that form is legal.
    if (form.kind == Kind::f8f6f4 && form.d == T::f32 && form.a == form.b && info(form.a).bits < 8) {
      OpcodeParts no_kind = parts;
      no_kind.kind = Kind::none;
      out.add("narrow-float-without-kind", base, form, with_opcode(form, no_kind),
              "9.7.14.6.3: ." + std::string(ptx_name(form.a)) + " exists only with .kind::f8f6f4 / .kind::mxf8f6f4");
    }

    // 9.7.14.6.3 syntax: every .kind form is spelled .sp::ordered_metadata; .spvariant = {.sp::ordered_metadata}.
    if (form.kind != Kind::none) {
      OpcodeParts plain = parts;
      plain.variant = SpVariant::sp;
      out.add("sp-with-kind", base, form, with_opcode(form, plain),
              "9.7.14.6.3: .kind forms exist only with .sp::ordered_metadata");
    }

    // 9.7.14.6.3: f is a constant in 0..3, and each shape defines fewer values (9.7.14.6.1); ptxas checks the
    // immediate against the shape's range.
    // Every value past the shape's range up to 3 (inside the operand's 0..3), and 4 (outside it).
    for (int selector = form.selectors.back() + 1; selector <= 4; ++selector) {
      out.add("selector-out-of-range", base + "/sel=" + std::to_string(selector), form,
              instruction_for(form, selector),
              "9.7.14.6.1: " + form.shape.str() + " defines selector values 0.." +
                  std::to_string(form.selectors.back()));
    }

    // PTX ISA Notes: ::ordered_metadata from 8.5, e4m3/e5m2 from 8.4, .scale_vec::4X with .ue8m0 from 9.1.
    if (form.variant == SpVariant::ordered_metadata && form.kind == Kind::none) {
      out.add("below-min-ptx", base + "/ptx8.4", form, instruction_for(form, form.selectors.front()),
              "PTX ISA Notes: mma.sp::ordered_metadata introduced in PTX 8.5", PtxVersion{8, 4});
    }
    if (form.family == "fp8" && form.variant == SpVariant::sp) {
      out.add("below-min-ptx", base + "/ptx8.3", form, instruction_for(form, form.selectors.front()),
              "PTX ISA Notes: .e4m3/.e5m2 mma introduced in PTX 8.4", PtxVersion{8, 3});
    }
    if (form.min_ptx == PtxVersion{9, 1}) {
      out.add("below-min-ptx", base + "/ptx9.0", form, instruction_for(form, form.selectors.front()),
              "PTX ISA Notes: .scale_vec::4X with .ue8m0 for mxf4nvf4 introduced in PTX 9.1", PtxVersion{9, 0});
    }
  }

  // One representative form per (family, shape, accumulator) for the rules that do not depend on the exact types.
  std::map<std::string, const Form*> representatives;
  for (const auto& form : forms) {
    std::string key = form.family + "/" + std::string(ptx_qualifier(form.variant)) + "/" + form.shape.str() + "/" +
                      std::string(ptx_name(form.c));
    if (!representatives.count(key)) representatives[key] = &form;
  }
  for (const auto& [key, form_ptr] : representatives) {
    const Form& form = *form_ptr;
    const std::string base = short_name(form);
    // 9.7.14.6.2: each fragment has a fixed number of .b32 registers; one too few or too many must be rejected.
    struct Miscount { const char* operand; int RegisterCounts::*field; int delta; };
    for (auto miscount : {Miscount{"a", &RegisterCounts::a, -1}, Miscount{"b", &RegisterCounts::b, +1},
                          Miscount{"c", &RegisterCounts::c, -1}, Miscount{"d", &RegisterCounts::d, +1}}) {
      InstructionText text = instruction_for(form, form.selectors.front());
      text.regs.*miscount.field += miscount.delta;
      out.add("register-count", base + "/" + miscount.operand + (miscount.delta > 0 ? "+1" : "-1"), form, text,
              "9.7.14.6.2: operand " + std::string(miscount.operand) + " has exactly " +
                  std::to_string(form.regs.*miscount.field) + " registers for " + form.shape.str());
    }

    OpcodeParts parts = parts_of(form);
    // 9.7.14.6.3 syntax: bf16 and tf32 accumulate only in .f32; integers only in .s32.
    if (form.family == "bf16" || form.family == "tf32" || form.family == "int8") {
      OpcodeParts other = parts;
      T accumulator = form.family == "int8" ? T::f32 : T::f16;
      other.c = other.d = accumulator;
      other.satfinite = false;
      out.add("wrong-accumulator", base + "/" + std::string(ptx_name(accumulator)), form, with_types(form, other),
              "9.7.14.6.3: " + form.family + " forms have " + std::string(ptx_name(form.d)) + " C and D only");
    }
    // 9.7.14.6.3 syntax: f16 and bf16 forms name a single type for A and B.
    if (form.family == "f16" || form.family == "bf16") {
      OpcodeParts mixed = parts;
      mixed.b = form.a == T::f16 ? T::bf16 : T::f16;
      out.add("mixed-16bit-ab", base, form, with_opcode(form, mixed),
              "9.7.14.6.3: A and B are both .f16 or both .bf16");
    }
    // 9.7.14.6.3: each .kind has one shape (k64 for f8f6f4/mxf8f6f4, k128 for mxf4/mxf4nvf4).
    if (form.kind != Kind::none) {
      OpcodeParts reshaped = parts;
      reshaped.shape.k = form.shape.k == 64 ? 128 : 64;
      out.add("kind-wrong-shape", base + "/" + reshaped.shape.str(), form, with_opcode(form, reshaped),
              "9.7.14.6.3: " + std::string(ptx_qualifier(form.kind)) + " is defined only at " + form.shape.str());
    }
    // 9.7.14.6.3 / 9.7.14.3 Table 36: valid (kind, scale_vec, stype) combinations.
    if (form.block_scale) {
      struct Combo { ScaleVec scale_vec; T stype; };
      std::vector<Combo> invalid;
      if (form.kind == Kind::mxf8f6f4) invalid = {{ScaleVec::x2, T::ue8m0}, {ScaleVec::x4, T::ue8m0}, {ScaleVec::x1, T::ue4m3}};
      if (form.kind == Kind::mxf4) invalid = {{ScaleVec::x1, T::ue8m0}, {ScaleVec::x4, T::ue8m0}, {ScaleVec::x2, T::ue4m3}};
      if (form.kind == Kind::mxf4nvf4) invalid = {{ScaleVec::x1, T::ue8m0}, {ScaleVec::x2, T::ue4m3}, {ScaleVec::none, T::ue8m0}, {ScaleVec::none, T::ue4m3}};
      for (auto combo : invalid) {
        OpcodeParts scaled = parts;
        scaled.scale_vec = combo.scale_vec;
        scaled.stype = combo.stype;
        std::string scale_name = combo.scale_vec == ScaleVec::none ? "no-scale_vec" : std::string(ptx_qualifier(combo.scale_vec)).substr(11);
        out.add("block-scale-combination", base + "/" + scale_name + "." + std::string(ptx_name(combo.stype)), form,
                with_opcode(form, scaled),
                "9.7.14.3 Table 36: " + std::string(ptx_qualifier(form.kind)) + " does not take this scale_vec/stype" +
                    (combo.scale_vec == ScaleVec::none ? " (.scale_vec_size is mandatory for mxf4nvf4)" : ""));
      }
      // 9.7.14.6.3 syntax: block-scaled forms accumulate in .f32 only.
      OpcodeParts half = parts;
      half.c = half.d = T::f16;
      out.add("wrong-accumulator", base + "/f16", form, with_types(form, half),
              "9.7.14.6.3: block-scaled forms have .f32 C and D only");
    }
  }
  return std::move(out.cases);
}

}  // namespace mmasp
