// The mma.sp / mma.sp::ordered_metadata instruction space (PTX ISA 9.7.14.6), as data.
//
// A few declarative family rules (instruction_space.cpp) expand into every legal form. Everything else in mmasp —
// PTX emission, compile conformance, generators, layouts, reports — derives from the Form records below; nothing
// else may list forms by hand.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/element_type.h"
#include "oracle/target.h"

namespace mmasp {

enum class SpVariant { sp, ordered_metadata };
enum class Kind { none, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4 };
enum class ScaleVec { none, x1, x2, x4 };

// 9.7.14.6.1: 2:4 for 16-bit and 8-bit elements, 1:2 for tf32, pair-wise 4:8 for 4-bit elements.
enum class Sparsity { two_of_four, one_of_two, pairwise_four_of_eight };

std::string_view ptx_qualifier(SpVariant variant);  // "sp" / "sp::ordered_metadata"
std::string_view ptx_qualifier(Kind kind);          // "" / "kind::f8f6f4" / ...
std::string_view ptx_qualifier(ScaleVec scale_vec); // "" / "scale_vec::1X" / ...
std::string_view name(Sparsity sparsity);           // "2:4" / "1:2" / "4:8 pair-wise"
int scale_vec_columns(ScaleVec scale_vec);          // 1X -> 1, 2X -> 2, 4X -> 4 (Table 35, 9.7.14.3)

struct Shape {
  int m = 16, n = 8, k = 0;
  std::string str() const;  // "m16n8k16"
  bool operator==(const Shape&) const = default;
};

struct RegisterCounts {
  int a = 0, b = 0, c = 0, d = 0;
  int scale_a = 0, scale_b = 0;  // .b32 scale-data registers (block scale only)
  bool operator==(const RegisterCounts&) const = default;
};

struct Form {
  std::string opcode;       // canonical spelling, e.g. mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
  std::string family;       // f16, bf16, tf32, fp8, f8f6f4, mxf8f6f4, mxf4, mxf4nvf4, int8, int4
  SpVariant variant = SpVariant::sp;
  Shape shape;
  Kind kind = Kind::none;
  bool block_scale = false;
  ScaleVec scale_vec = ScaleVec::none;   // the effective scale-vector size (the default when not spelled)
  bool scale_vec_spelled = false;        // false for the spellings that omit .scale_vec_size and take its default
  bool satfinite = false;
  ElemType a{}, b{}, c{}, d{};
  std::optional<ElemType> stype;
  int a_container_bits = 0;              // bits each A element occupies in a .b32 (8 for e2m1 under kind::f8f6f4)
  int b_container_bits = 0;
  RegisterCounts regs;
  Sparsity sparsity = Sparsity::two_of_four;
  int chunk_width = 0;                   // K-elements per sparsity chunk (4, 2 or 8)
  std::vector<int> selectors;            // the sparsity-selector values the spec defines for this form
  PtxVersion min_ptx;
  TargetRule target;
  std::string spec_section;              // where the form and its rules come from

  bool is_integer() const;
  // Whether a module of this PTX version for this target may contain the form.
  bool legal_on(const Target& where, PtxVersion version) const;
  // The lowest PTX version at which the form can be assembled for a target (when legal there at all).
  PtxVersion version_for(const Target& where) const;
};

const std::vector<Form>& instruction_space();
const Form* find_form(std::string_view opcode);

// The opcode string for a combination of qualifiers, legal or not. Forms use it; so does the negative set, which
// spells illegal combinations through the same function so that both share one grammar.
struct OpcodeParts {
  SpVariant variant = SpVariant::sp;
  Shape shape;
  Kind kind = Kind::none;
  bool block_scale = false;
  ScaleVec scale_vec = ScaleVec::none;   // only spelled when not none
  bool satfinite = false;
  std::optional<ElemType> a, b, c, d, stype;
};
std::string spell_opcode(const OpcodeParts& parts);
OpcodeParts parts_of(const Form& form);

// 9.7.14.6.3: "f is a constant in 0..3" — the sparsity selector operand's own range; each shape defines fewer.
inline constexpr int kSelectorOperandValues = 4;
// PTX ISA Notes of 9.7.14.6.3: "Introduced in PTX ISA version 7.1."
inline constexpr PtxVersion kMmaSpIntroduced{7, 1};
// Threads of a warp: every fragment is spread over them (9.7.14.6.2).
inline constexpr int kWarpLanes = 32;

// The legality predicate: is an instruction — a combination of qualifiers, a selector and operand register counts,
// legal or not — one the catalog allows? It answers from the same family rules that expand() turns into the forms,
// so the catalog and the negative set cannot disagree. Illegal tuples name the first rule they break (a stable id
// for case names, e.g. "ctype-ne-dtype") and that rule with its citation.
struct Legality {
  const Form* form = nullptr;   // the catalog form, when the qualifiers name one
  std::string rule;             // empty when legal
  std::string why;
  bool legal() const { return rule.empty(); }
};
// Legal on some target at some PTX version. regs null: the form's own counts.
Legality legality(const OpcodeParts& parts, int selector = 0, const RegisterCounts* regs = nullptr);
// Legal in a module of PTX `version` for `target`.
Legality legality(const OpcodeParts& parts, int selector, const RegisterCounts* regs, const Target& target,
                  PtxVersion version);

// Register counts implied by a shape and element container widths (9.7.14.6.2): A holds M*K/2 elements, B K*N,
// C and D M*N, spread over 32 lanes and packed 32/bits to a .b32 register.
RegisterCounts register_counts(Shape shape, int a_container_bits, int b_container_bits, ElemType c, ElemType d,
                               bool block_scale);

}  // namespace mmasp
