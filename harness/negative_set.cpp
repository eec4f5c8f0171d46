// The negative set: perturbations of legal catalog forms — one qualifier, type, shape, selector, register count or
// PTX version changed — each assembled only on targets (and at PTX versions) where the unperturbed form is legal.
// Which perturbations are illegal, and which rule each breaks, is the legality predicate's answer
// (oracle/instruction_space.h), never restated here: a perturbation the predicate calls legal is not a negative case.
#include <map>
#include <set>

#include "harness/compile_conformance.h"

namespace mmasp {
namespace {

using T = ElemType;

struct Perturbation {
  std::string detail;                        // what was changed, for the case id
  OpcodeParts parts;
  int selector = 0;
  InstructionText text;                      // spelled from parts, selector and register counts
  std::optional<PtxVersion> version;         // pinned PTX version (perturbations of the version itself)
  PtxVersion at_least;                       // raise the base form's version to at least this
};

// The instruction for a perturbation: the base form's, with the perturbed qualifiers; register counts follow the
// (possibly illegal) types and shape, so that the only thing wrong is what was changed.
Perturbation perturbed(const Form& form, std::string detail, const OpcodeParts& parts, int selector) {
  Perturbation p{std::move(detail), parts, selector, instruction_for(form, form.selectors.front()), std::nullopt, {}};
  p.text.opcode = spell_opcode(parts);
  p.text.selector = selector;
  if (parts.c && parts.d) {
    p.text.regs = register_counts(parts.shape, form.a_container_bits, form.b_container_bits, *parts.c, *parts.d, parts.block_scale);
    p.text.c_is_f32 = *parts.c == T::f32;
    p.text.d_is_f32 = *parts.d == T::f32;
  }
  return p;
}

std::string short_name(const Form& form) {
  // The opcode minus the part every form shares, which keeps case ids readable.
  std::string id = form.opcode;
  const std::string common = ".sync.aligned.";
  if (auto at = id.find(common); at != std::string::npos) id.replace(at, common.size(), ".");
  return id;
}

// The PTX version released just before `version` within its major version (the last minor of an older major is not
// derivable from the version alone, and no form's minimum is an x.0).
std::optional<PtxVersion> version_below(PtxVersion version) {
  if (version.minor == 0) return std::nullopt;
  return PtxVersion{version.major, version.minor - 1};
}

// Perturbations of every form: accumulators, .satfinite, .kind, the variant, the selector, the PTX version.
std::vector<Perturbation> form_perturbations(const Form& form) {
  const std::string base = short_name(form);
  const OpcodeParts parts = parts_of(form);
  std::vector<Perturbation> out;
  if (form.c == T::f16 || form.c == T::f32) {   // the other float accumulator for C only
    OpcodeParts changed = parts;
    changed.c = form.c == T::f16 ? T::f32 : T::f16;
    out.push_back(perturbed(form, base, changed, form.selectors.front()));
  }
  OpcodeParts saturated = parts;
  saturated.satfinite = !form.satfinite;
  if (!form.is_integer()) out.push_back(perturbed(form, base, saturated, form.selectors.front()));
  if (form.family == "fp8") {
    // f16 accumulation and the m16n8k32 shape: the PTX ISA notes of mma.sp mention both for e4m3/e5m2 from PTX 8.7
    // (finding F-0012), the syntax lists neither; at PTX 8.7 or later only the syntax can reject them.
    auto at_ptx_8_7 = [](Perturbation p) {
      p.at_least = PtxVersion{8, 7};
      return p;
    };
    OpcodeParts half = parts;
    half.c = half.d = T::f16;
    out.push_back(at_ptx_8_7(perturbed(form, base + "/f16", half, form.selectors.front())));
    for (T accumulator : {T::f32, T::f16}) {
      OpcodeParts k32 = parts;
      k32.shape.k = 32;
      k32.c = k32.d = accumulator;
      out.push_back(at_ptx_8_7(perturbed(form, base + "/m16n8k32." + std::string(ptx_name(accumulator)), k32, form.selectors.front())));
    }
  }
  if (form.kind == Kind::f8f6f4 && form.d == T::f32 && form.a == form.b && info(form.a).bits < 8) {
    OpcodeParts no_kind = parts;
    no_kind.kind = Kind::none;
    out.push_back(perturbed(form, base, no_kind, form.selectors.front()));
  }
  if (form.variant == SpVariant::ordered_metadata) {
    OpcodeParts plain = parts;
    plain.variant = SpVariant::sp;
    out.push_back(perturbed(form, base, plain, form.selectors.front()));
  }
  // Every selector value past the shape's range, up to and including the first outside the operand's own 0..3.
  for (int selector = form.selectors.back() + 1; selector <= kSelectorOperandValues; ++selector)
    out.push_back(perturbed(form, base + "/sel=" + std::to_string(selector), parts, selector));
  // One PTX version below the form's minimum. Forms that came with mma.sp itself (PTX 7.1) are left out: below
  // 7.1 the whole instruction is unknown, which tests nothing about the form.
  if (const auto below = version_below(form.min_ptx); below && form.min_ptx > kMmaSpIntroduced) {
    Perturbation older = perturbed(form, base + "/ptx" + below->str(), parts, form.selectors.front());
    older.version = below;
    out.push_back(older);
  }
  return out;
}

// Perturbations of one representative per (family, variant, shape, accumulator), for what does not depend on the
// exact types: register counts, the other accumulator, mixed 16-bit A/B, the .kind shape, the block-scale qualifiers.
std::vector<Perturbation> representative_perturbations(const Form& form) {
  const std::string base = short_name(form);
  const OpcodeParts parts = parts_of(form);
  std::vector<Perturbation> out;
  struct Miscount { const char* operand; int RegisterCounts::*field; int delta; };
  for (auto miscount : {Miscount{"a", &RegisterCounts::a, -1}, Miscount{"b", &RegisterCounts::b, +1},
                        Miscount{"c", &RegisterCounts::c, -1}, Miscount{"d", &RegisterCounts::d, +1}}) {
    Perturbation p = perturbed(form, base + "/" + miscount.operand + (miscount.delta > 0 ? "+1" : "-1"), parts, form.selectors.front());
    p.text.regs.*miscount.field += miscount.delta;
    out.push_back(p);
  }
  if (form.family == "bf16" || form.family == "tf32" || form.family == "int8") {
    OpcodeParts other = parts;
    const T accumulator = form.is_integer() ? T::f32 : T::f16;
    other.c = other.d = accumulator;
    other.satfinite = false;
    out.push_back(perturbed(form, base + "/" + std::string(ptx_name(accumulator)), other, form.selectors.front()));
  }
  if (form.a == T::f16 || form.a == T::bf16) {
    OpcodeParts mixed = parts;
    mixed.b = form.a == T::f16 ? T::bf16 : T::f16;
    out.push_back(perturbed(form, base, mixed, form.selectors.front()));
  }
  if (form.kind != Kind::none) {
    OpcodeParts reshaped = parts;
    reshaped.shape.k = form.shape.k == 64 ? 128 : 64;
    out.push_back(perturbed(form, base + "/" + reshaped.shape.str(), reshaped, form.selectors.front()));
  }
  if (form.block_scale) {
    for (ScaleVec scale_vec : {ScaleVec::none, ScaleVec::x1, ScaleVec::x2, ScaleVec::x4})
      for (T stype : {T::ue8m0, T::ue4m3}) {
        OpcodeParts scaled = parts;
        scaled.scale_vec = scale_vec;
        scaled.stype = stype;
        const std::string scale_name = scale_vec == ScaleVec::none ? "no-scale_vec" : std::string(ptx_qualifier(scale_vec)).substr(11);
        out.push_back(perturbed(form, base + "/" + scale_name + "." + std::string(ptx_name(stype)), scaled, form.selectors.front()));
      }
    OpcodeParts half = parts;
    half.c = half.d = T::f16;
    out.push_back(perturbed(form, base + "/f16", half, form.selectors.front()));
  }
  return out;
}

struct NegativeBuilder {
  const std::vector<Target>& targets;
  std::vector<CompileCase> cases;
  std::set<std::string> seen;

  // Adds the perturbation on every target where `base` is legal, at the version the base form needs there (or the
  // pinned one, which only the target must know), when the legality predicate calls it illegal there.
  void add(const Form& base, const Perturbation& p) {
    for (const auto& target : targets) {
      const PtxVersion version = p.version ? *p.version : std::max(base.version_for(target), p.at_least);
      const bool base_legal_here = p.version ? base.target.accepts(target, base.version_for(target)) && version >= target.min_ptx
                                             : base.legal_on(target, version);
      if (!base_legal_here) continue;
      const Legality verdict = legality(p.parts, p.selector, &p.text.regs, target, version);
      if (verdict.legal()) continue;
      CompileCase test;
      test.set = CompileSet::negative;
      test.rule = verdict.rule;
      test.form = base.opcode;
      test.id = "reject/" + verdict.rule + "/" + p.detail + "@" + target.name;
      if (!seen.insert(test.id).second) continue;
      test.instruction = p.text;
      test.version = version;
      test.target = target;
      test.expected = Expected::reject;
      test.why = verdict.why;
      cases.push_back(std::move(test));
    }
  }
};

}  // namespace

std::vector<CompileCase> negative_cases(const std::vector<Form>& forms, const std::vector<Target>& targets) {
  NegativeBuilder out{targets, {}, {}};
  for (const auto& form : forms)
    for (const auto& p : form_perturbations(form)) out.add(form, p);
  std::map<std::string, const Form*> representatives;
  for (const auto& form : forms) {
    const std::string key = form.family + "/" + std::string(ptx_qualifier(form.variant)) + "/" + form.shape.str() + "/" +
                            std::string(ptx_name(form.c));
    if (!representatives.count(key)) representatives[key] = &form;
  }
  for (const auto& [key, form] : representatives)
    for (const auto& p : representative_perturbations(*form)) out.add(*form, p);
  return std::move(out.cases);
}

}  // namespace mmasp
