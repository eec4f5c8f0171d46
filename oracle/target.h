// PTX targets and PTX ISA versions, and the rules that say which targets accept an instruction form.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmasp {

struct PtxVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const PtxVersion&) const = default;
  std::string str() const;  // "8.5"
};
std::optional<PtxVersion> parse_ptx_version(std::string_view text);

// sm_XY with an optional suffix: 'a' (arch-specific, only that exact chip) or 'f' (family-specific).
struct Target {
  std::string name;      // "sm_90a"
  int sm = 0;            // 90
  char suffix = '\0';    // 'a', 'f' or '\0'
  PtxVersion min_ptx;    // the first PTX ISA version that knows this target
  int family() const { return sm / 10; }
};

// The compute capability an architecture's name spells: "sm_90" -> 90. Only "sm_" and two or three digits, the first
// not 0 (no suffix: a model record or a case's provenance is for a compute capability, not a target); nullopt else.
std::optional<int> architecture_number(std::string_view name);

// Targets this build knows by name. Their minimum PTX versions come from the PTX ISA's "PTX ISA version" table of
// target architectures (release notes, section 1.3 and the .target directive, 11.3.x).
const std::vector<Target>& known_targets();
std::optional<Target> find_target(std::string_view name);

// The six targets that compile conformance covers by default (issue #2).
const std::vector<Target>& conformance_targets();

// Which targets accept a form. The three shapes are the three ways the Target ISA Notes of 9.7.14.6.3 phrase it.
struct TargetRule {
  enum class Type {
    at_least,          // "Requires sm_NN or higher"
    family_specific,   // "requires sm_NNNa and is supported on sm_NNNf or higher in the same family from PTX 8.8"
    exact_arch,        // "supported on the following architectures: sm_120a, sm_121a"
  };
  Type type = Type::at_least;
  int sm = 80;                       // at_least and family_specific: the first sm
  std::vector<std::string> exact;    // exact_arch: the listed targets
  PtxVersion family_from{8, 8};      // family_specific: the PTX version from which sm_XXXf targets qualify

  bool accepts(const Target& target, PtxVersion version) const;
  std::string describe() const;      // "sm_80+", "sm_120a (sm_120f+ from PTX 8.8)", "sm_120a|sm_121a"
};

}  // namespace mmasp
