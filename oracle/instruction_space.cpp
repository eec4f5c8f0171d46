#include "oracle/instruction_space.h"

#include <algorithm>
#include <stdexcept>
#include <variant>

namespace mmasp {

std::string_view ptx_qualifier(SpVariant variant) {
  return variant == SpVariant::sp ? "sp" : "sp::ordered_metadata";
}

std::string_view ptx_qualifier(Kind kind) {
  switch (kind) {
    case Kind::none: return "";
    case Kind::f8f6f4: return "kind::f8f6f4";
    case Kind::mxf8f6f4: return "kind::mxf8f6f4";
    case Kind::mxf4: return "kind::mxf4";
    case Kind::mxf4nvf4: return "kind::mxf4nvf4";
  }
  return "";
}

std::string_view ptx_qualifier(ScaleVec scale_vec) {
  switch (scale_vec) {
    case ScaleVec::none: return "";
    case ScaleVec::x1: return "scale_vec::1X";
    case ScaleVec::x2: return "scale_vec::2X";
    case ScaleVec::x4: return "scale_vec::4X";
  }
  return "";
}

std::string_view name(Sparsity sparsity) {
  switch (sparsity) {
    case Sparsity::two_of_four: return "2:4";
    case Sparsity::one_of_two: return "1:2";
    case Sparsity::pairwise_four_of_eight: return "4:8 pair-wise";
  }
  return "";
}

int scale_vec_columns(ScaleVec scale_vec) {
  switch (scale_vec) {
    case ScaleVec::none: return 0;
    case ScaleVec::x1: return 1;
    case ScaleVec::x2: return 2;
    case ScaleVec::x4: return 4;
  }
  return 0;
}

std::string Shape::str() const {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

bool Form::is_integer() const { return !info(a).is_float; }

bool Form::legal_on(const Target& where, PtxVersion version) const {
  return version >= min_ptx && version >= where.min_ptx && target.accepts(where, version);
}

PtxVersion Form::version_for(const Target& where) const {
  PtxVersion version = std::max(min_ptx, where.min_ptx);
  if (target.type == TargetRule::Type::family_specific && !target.accepts(where, version))
    version = std::max(version, target.family_from);
  return version;
}

std::string spell_opcode(const OpcodeParts& parts) {
  std::string op = "mma.";
  op += ptx_qualifier(parts.variant);
  op += ".sync.aligned." + parts.shape.str() + ".row.col";
  auto add = [&](std::string_view qualifier) {
    if (!qualifier.empty()) (op += '.') += qualifier;
  };
  add(ptx_qualifier(parts.kind));
  if (parts.block_scale) add("block_scale");
  add(ptx_qualifier(parts.scale_vec));
  if (parts.satfinite) add("satfinite");
  for (const auto& type : {parts.d, parts.a, parts.b, parts.c, parts.stype})
    if (type) add(ptx_name(*type));
  return op;
}

OpcodeParts parts_of(const Form& form) {
  OpcodeParts parts;
  parts.variant = form.variant;
  parts.shape = form.shape;
  parts.kind = form.kind;
  parts.block_scale = form.block_scale;
  parts.scale_vec = form.scale_vec_spelled ? form.scale_vec : ScaleVec::none;
  parts.satfinite = form.satfinite;
  parts.a = form.a;
  parts.b = form.b;
  parts.c = form.c;
  parts.d = form.d;
  parts.stype = form.stype;
  return parts;
}

RegisterCounts register_counts(Shape shape, int a_container_bits, int b_container_bits, ElemType c, ElemType d,
                               bool block_scale) {
  auto regs = [](int elements, int bits) { return elements * bits / (kWarpLanes * 32); };
  RegisterCounts counts;
  counts.a = regs(shape.m * shape.k / 2, a_container_bits);
  counts.b = regs(shape.k * shape.n, b_container_bits);
  counts.c = regs(shape.m * shape.n, info(c).bits);
  counts.d = regs(shape.m * shape.n, info(d).bits);
  counts.scale_a = counts.scale_b = block_scale ? 1 : 0;
  return counts;
}

namespace {

using T = ElemType;

// One row per syntax block of 9.7.14.6.3. Every legal form is one choice from each list of a row.
struct ScaleOption {
  ScaleVec scale_vec;
  ElemType stype;
  PtxVersion min_ptx;          // raised above the family's when the combination came later
  bool may_omit_scale_vec;     // 9.7.14.6.3: .scale_vec_size defaults to 1X (mxf8f6f4) and 2X (mxf4) when omitted
};

struct FamilyRule {
  const char* family;
  std::vector<int> k_values;
  std::vector<ElemType> ab_types;
  bool a_equals_b;                                   // f16/bf16/tf32 name one type for both A and B
  std::vector<std::pair<ElemType, ElemType>> c_d;    // (ctype, dtype) pairs; dtype == ctype at k16/k32/k64
  Kind kind;
  std::vector<ScaleOption> scales;                   // empty: no block scale
  bool ordered_only;                                 // .kind forms exist only as .sp::ordered_metadata
  bool satfinite_optional;                           // integer forms, with and without .satfinite
  PtxVersion min_ptx;
  TargetRule target;
  const char* spec_section;
};

TargetRule at_least(int sm) { return {TargetRule::Type::at_least, sm, {}, {8, 8}}; }
TargetRule sm120_family() { return {TargetRule::Type::family_specific, 120, {}, {8, 8}}; }
TargetRule sm120a_sm121a() { return {TargetRule::Type::exact_arch, 120, {"sm_120a", "sm_121a"}, {8, 8}}; }

const std::vector<ElemType> kF8F6F4Types = {T::e4m3, T::e5m2, T::e3m2, T::e2m3, T::e2m1};

// PTX ISA Notes (9.7.14.6.3): mma.sp in 7.1; e4m3/e5m2 in 8.4; ::ordered_metadata in 8.5; .kind, .block_scale,
// .scale_vec_size and e3m2/e2m3/e2m1 in 8.7; .scale_vec::4X with .ue8m0 for mxf4nvf4 in 9.1.
// Target ISA Notes: sm_80; e4m3/e5m2 sm_89; .kind/.block_scale sm_120a (sm_120f family from 8.8) except
// mxf4/mxf4nvf4, which are sm_120a and sm_121a only.
const std::vector<FamilyRule>& family_rules() {
  static const std::vector<FamilyRule> rules = {
      {"f16", {16, 32}, {T::f16}, true, {{T::f16, T::f16}, {T::f32, T::f32}}, Kind::none, {}, false, false,
       {7, 1}, at_least(80), "9.7.14.6.3 Half precision floating point type"},
      {"bf16", {16, 32}, {T::bf16}, true, {{T::f32, T::f32}}, Kind::none, {}, false, false,
       {7, 1}, at_least(80), "9.7.14.6.3 Alternate floating point type"},
      {"tf32", {8, 16}, {T::tf32}, true, {{T::f32, T::f32}}, Kind::none, {}, false, false,
       {7, 1}, at_least(80), "9.7.14.6.3 Alternate floating point type"},
      {"fp8", {64}, {T::e4m3, T::e5m2}, false, {{T::f32, T::f32}}, Kind::none, {}, false, false,
       {8, 4}, at_least(89), "9.7.14.6.3 Alternate floating point type (.f8type)"},
      {"f8f6f4", {64}, kF8F6F4Types, false, {{T::f16, T::f16}, {T::f32, T::f32}}, Kind::f8f6f4, {}, true, false,
       {8, 7}, sm120_family(), "9.7.14.6.3 Alternate floating point type (.kind::f8f6f4)"},
      {"mxf8f6f4", {64}, kF8F6F4Types, false, {{T::f32, T::f32}}, Kind::mxf8f6f4,
       {{ScaleVec::x1, T::ue8m0, {8, 7}, true}}, true, false,
       {8, 7}, sm120_family(), "9.7.14.6.3 Alternate floating point type with block scaling; 9.7.14.3 Table 36"},
      {"mxf4", {128}, {T::e2m1}, true, {{T::f32, T::f32}}, Kind::mxf4,
       {{ScaleVec::x2, T::ue8m0, {8, 7}, true}}, true, false,
       {8, 7}, sm120a_sm121a(), "9.7.14.6.3 Alternate floating point type with block scaling; 9.7.14.3 Table 36"},
      {"mxf4nvf4", {128}, {T::e2m1}, true, {{T::f32, T::f32}}, Kind::mxf4nvf4,
       {{ScaleVec::x2, T::ue8m0, {8, 7}, false},
        {ScaleVec::x4, T::ue4m3, {8, 7}, false},
        {ScaleVec::x4, T::ue8m0, {9, 1}, false}},
       true, false,
       {8, 7}, sm120a_sm121a(), "9.7.14.6.3 Alternate floating point type with block scaling; 9.7.14.3 Table 36"},
      {"int8", {32, 64}, {T::u8, T::s8}, false, {{T::s32, T::s32}}, Kind::none, {}, false, true,
       {7, 1}, at_least(80), "9.7.14.6.3 Integer type"},
      {"int4", {64, 128}, {T::u4, T::s4}, false, {{T::s32, T::s32}}, Kind::none, {}, false, true,
       {7, 1}, at_least(80), "9.7.14.6.3 Integer type"},
  };
  return rules;
}

// 9.7.14.6.3: under .kind::f8f6f4 and .kind::mxf8f6f4 every element sits in an 8-bit container; under mxf4 and
// mxf4nvf4 e2m1 is packed tightly.
int container_bits(ElemType type, Kind kind) {
  if (kind == Kind::f8f6f4 || kind == Kind::mxf8f6f4) return 8;
  return info(type).bits;
}

// 9.7.14.6.1: tf32 is 1:2, 4-bit elements (u4/s4, and e2m1 tightly packed) are pair-wise 4:8, the rest 2:4.
Sparsity sparsity_of(ElemType a, int a_container_bits) {
  if (a == T::tf32) return Sparsity::one_of_two;
  if (a_container_bits == 4) return Sparsity::pairwise_four_of_eight;
  return Sparsity::two_of_four;
}

int chunk_width(Sparsity sparsity) {
  switch (sparsity) {
    case Sparsity::two_of_four: return 4;
    case Sparsity::one_of_two: return 2;
    case Sparsity::pairwise_four_of_eight: return 8;
  }
  return 0;
}

// 9.7.14.6.1-2: each chunk of a row is described by 4 metadata bits (two 2-bit indices, or one 4-bit index for
// tf32). The M*(K/chunk)*4 bits fill whole .b32 registers; the 8 groups of four consecutive lanes share them equally,
// and the selector picks which 1, 2 or 4 lanes of each group hold them. So 4 / lanes-per-group selector values exist.
std::vector<int> selector_values(Shape shape, int chunk) {
  constexpr int kMetadataBitsPerChunk = 4;
  constexpr int kGroups = 8;
  constexpr int kLanesPerGroup = 4;
  int lanes_holding_metadata = shape.m * (shape.k / chunk) * kMetadataBitsPerChunk / 32;
  int per_group = lanes_holding_metadata / kGroups;
  if (per_group < 1 || kLanesPerGroup % per_group != 0) throw std::logic_error("metadata does not tile the warp");
  std::vector<int> values;
  for (int value = 0; value < kLanesPerGroup / per_group; ++value) values.push_back(value);
  return values;
}

void add_form(std::vector<Form>& forms, const FamilyRule& rule, SpVariant variant, int k, ElemType a, ElemType b,
              std::pair<ElemType, ElemType> c_d, bool satfinite, const ScaleOption* scale, bool spell_scale_vec) {
  Form form;
  form.family = rule.family;
  form.variant = variant;
  form.shape = {16, 8, k};
  form.kind = rule.kind;
  form.block_scale = scale != nullptr;
  form.scale_vec = scale ? scale->scale_vec : ScaleVec::none;
  form.scale_vec_spelled = scale && spell_scale_vec;
  form.satfinite = satfinite;
  form.a = a;
  form.b = b;
  form.c = c_d.first;
  form.d = c_d.second;
  if (scale) form.stype = scale->stype;
  form.a_container_bits = container_bits(a, rule.kind);
  form.b_container_bits = container_bits(b, rule.kind);
  form.regs = register_counts(form.shape, form.a_container_bits, form.b_container_bits, form.c, form.d,
                              form.block_scale);
  form.sparsity = sparsity_of(a, form.a_container_bits);
  form.chunk_width = chunk_width(form.sparsity);
  form.selectors = selector_values(form.shape, form.chunk_width);
  form.min_ptx = rule.min_ptx;
  if (variant == SpVariant::ordered_metadata) form.min_ptx = std::max(form.min_ptx, PtxVersion{8, 5});
  if (scale) form.min_ptx = std::max(form.min_ptx, scale->min_ptx);
  form.target = rule.target;
  form.spec_section = rule.spec_section;
  form.opcode = spell_opcode(parts_of(form));
  forms.push_back(std::move(form));
}

std::vector<Form> expand(const std::vector<FamilyRule>& rules) {
  std::vector<Form> forms;
  for (const auto& rule : rules) {
    std::vector<SpVariant> variants = {SpVariant::ordered_metadata};
    if (!rule.ordered_only) variants.insert(variants.begin(), SpVariant::sp);
    std::vector<bool> satfinite = {false};
    if (rule.satfinite_optional) satfinite.push_back(true);
    for (auto variant : variants)
      for (int k : rule.k_values)
        for (auto a : rule.ab_types)
          for (auto b : rule.ab_types) {
            if (rule.a_equals_b && a != b) continue;
            for (const auto& c_d : rule.c_d)
              for (bool sat : satfinite) {
                if (rule.scales.empty()) {
                  add_form(forms, rule, variant, k, a, b, c_d, sat, nullptr, false);
                  continue;
                }
                for (const auto& scale : rule.scales) {
                  add_form(forms, rule, variant, k, a, b, c_d, sat, &scale, true);
                  if (scale.may_omit_scale_vec) add_form(forms, rule, variant, k, a, b, c_d, sat, &scale, false);
                }
              }
          }
  }
  return forms;
}

}  // namespace

const std::vector<Form>& instruction_space() {
  static const std::vector<Form> forms = expand(family_rules());
  return forms;
}

const Form* find_form(std::string_view opcode) {
  for (const auto& form : instruction_space())
    if (form.opcode == opcode) return &form;
  return nullptr;
}

namespace {

bool contains(const std::vector<ElemType>& types, const std::optional<ElemType>& type) {
  return type && std::find(types.begin(), types.end(), *type) != types.end();
}

Legality illegal(std::string rule, std::string why) { return {nullptr, std::move(rule), std::move(why)}; }

std::string type_name(const std::optional<ElemType>& type) { return type ? std::string(ptx_name(*type)) : "(none)"; }

// The family rule whose syntax block takes these A and B types with this .kind, or why none does.
std::variant<const FamilyRule*, Legality> family_of(const OpcodeParts& p) {
  for (const auto& rule : family_rules())
    if (rule.kind == p.kind && contains(rule.ab_types, p.a) && contains(rule.ab_types, p.b)) {
      if (rule.a_equals_b && p.a != p.b) break;
      return &rule;
    }
  const bool both_16_bit = p.a && p.b && info(*p.a).bits == 16 && info(*p.b).bits == 16;
  if (p.a != p.b && both_16_bit)
    return illegal("mixed-16bit-ab", "9.7.14.6.3: A and B are both .f16 or both .bf16");
  for (const auto& rule : family_rules())
    if (p.kind == Kind::none && rule.kind != Kind::none && (contains(rule.ab_types, p.a) || contains(rule.ab_types, p.b)))
      return illegal("narrow-float-without-kind", "9.7.14.6.3: ." + type_name(contains(rule.ab_types, p.a) ? p.a : p.b) +
                                                      " exists only with .kind::f8f6f4 / .kind::mxf8f6f4");
  return illegal("types", "9.7.14.6.3: no syntax block takes A ." + type_name(p.a) + ", B ." + type_name(p.b) +
                              (p.kind == Kind::none ? "" : " with ." + std::string(ptx_qualifier(p.kind))));
}

// The scale option these qualifiers choose, or why none.
std::variant<const ScaleOption*, Legality> scale_of(const FamilyRule& rule, const OpcodeParts& p) {
  if (rule.scales.empty()) {
    if (p.block_scale || p.scale_vec != ScaleVec::none || p.stype)
      return illegal("block-scale-without-kind", "9.7.14.6.3: .block_scale exists only with .kind::mxf8f6f4/mxf4/mxf4nvf4");
    return static_cast<const ScaleOption*>(nullptr);
  }
  if (!p.block_scale || !p.stype)
    return illegal("block-scale-missing", "9.7.14.6.3: ." + std::string(ptx_qualifier(rule.kind)) + " needs .block_scale and a .stype");
  for (const auto& option : rule.scales)
    if (option.stype == *p.stype && (option.scale_vec == p.scale_vec || (p.scale_vec == ScaleVec::none && option.may_omit_scale_vec)))
      return &option;
  return illegal("block-scale-combination",
                 "9.7.14.3 Table 36: ." + std::string(ptx_qualifier(rule.kind)) + " does not take this scale_vec/stype" +
                     (p.scale_vec == ScaleVec::none ? " (.scale_vec_size may be omitted only where a default exists)" : ""));
}

}  // namespace

Legality legality(const OpcodeParts& p, int selector, const RegisterCounts* regs) {
  const auto family = family_of(p);
  if (const auto* verdict = std::get_if<Legality>(&family)) return *verdict;
  const FamilyRule& rule = *std::get<const FamilyRule*>(family);
  if (std::find(rule.k_values.begin(), rule.k_values.end(), p.shape.k) == rule.k_values.end() || p.shape.m != 16 || p.shape.n != 8) {
    std::string shapes;
    for (int k : rule.k_values) shapes += (shapes.empty() ? "m16n8k" : ", m16n8k") + std::to_string(k);
    return illegal(rule.kind != Kind::none ? "kind-wrong-shape" : "shape-not-in-syntax",
                   "9.7.14.6.3 syntax: " + std::string(rule.family) + " forms are defined only at " + shapes);
  }
  if (p.variant == SpVariant::sp && rule.ordered_only)
    return illegal("sp-with-kind", "9.7.14.6.3: .kind forms exist only with .sp::ordered_metadata");
  if (p.satfinite && !rule.satfinite_optional)
    return illegal("satfinite-on-float", "9.7.14.6.3: .satfinite exists only for integer types");
  const std::pair<ElemType, ElemType> c_d = {p.c.value_or(ElemType{}), p.d.value_or(ElemType{})};
  if (!p.c || !p.d || std::find(rule.c_d.begin(), rule.c_d.end(), c_d) == rule.c_d.end()) {
    if (p.c != p.d) return illegal("ctype-ne-dtype", "9.7.14.6.3: at m16n8k16/k32/k64 .dtype must equal .ctype");
    std::string accumulators;
    for (const auto& [c, d] : rule.c_d) accumulators += (accumulators.empty() ? "." : " or .") + std::string(ptx_name(d));
    return illegal("wrong-accumulator", "9.7.14.6.3 syntax: " + std::string(rule.family) + " forms have " + accumulators + " C and D only");
  }
  const auto scale = scale_of(rule, p);
  if (const auto* verdict = std::get_if<Legality>(&scale)) return *verdict;
  const Form* form = find_form(spell_opcode(p));
  if (!form) return illegal("not-in-catalog", "no catalog form is spelled " + spell_opcode(p));
  if (std::find(form->selectors.begin(), form->selectors.end(), selector) == form->selectors.end())
    return {form, "selector-out-of-range",
            "9.7.14.6.1: " + form->shape.str() + " defines selector values 0.." + std::to_string(form->selectors.back())};
  if (regs && !(*regs == form->regs))
    return {form, "register-count", "9.7.14.6.2: each operand has a fixed number of .b32 registers for " + form->shape.str()};
  return {form, "", ""};
}

Legality legality(const OpcodeParts& parts, int selector, const RegisterCounts* regs, const Target& target, PtxVersion version) {
  Legality verdict = legality(parts, selector, regs);
  if (!verdict.legal()) return verdict;
  const Form& form = *verdict.form;
  if (version < form.min_ptx)
    return {&form, "below-min-ptx", "PTX ISA Notes: " + form.opcode + " needs PTX " + form.min_ptx.str()};
  if (!form.target.accepts(target, version))
    return {&form, "target", "Target ISA Notes: needs " + form.target.describe()};
  if (version < target.min_ptx) return {&form, "target-too-new", target.name + " needs PTX " + target.min_ptx.str()};
  return verdict;
}

}  // namespace mmasp
