#include "oracle/target.h"

#include <algorithm>
#include <charconv>

namespace mmasp {

std::optional<int> architecture_number(std::string_view name) {
  if (!name.starts_with("sm_")) return std::nullopt;
  const std::string_view digits = name.substr(3);
  if (digits.size() < 2 || digits.size() > 3 || digits[0] == '0') return std::nullopt;
  int value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string PtxVersion::str() const { return std::to_string(major) + "." + std::to_string(minor); }

std::optional<PtxVersion> parse_ptx_version(std::string_view text) {
  auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  PtxVersion version;
  auto major = std::from_chars(text.data(), text.data() + dot, version.major);
  auto minor = std::from_chars(text.data() + dot + 1, text.data() + text.size(), version.minor);
  if (major.ec != std::errc{} || minor.ec != std::errc{} || major.ptr != text.data() + dot ||
      minor.ptr != text.data() + text.size())
    return std::nullopt;
  return version;
}

const std::vector<Target>& known_targets() {
  static const std::vector<Target> targets = {
      {"sm_80", 80, '\0', {7, 0}},   {"sm_86", 86, '\0', {7, 1}},   {"sm_87", 87, '\0', {7, 4}},
      {"sm_89", 89, '\0', {7, 8}},   {"sm_90", 90, '\0', {7, 8}},   {"sm_90a", 90, 'a', {8, 0}},
      {"sm_100", 100, '\0', {8, 6}}, {"sm_100a", 100, 'a', {8, 6}}, {"sm_100f", 100, 'f', {8, 8}},
      {"sm_120", 120, '\0', {8, 7}}, {"sm_120a", 120, 'a', {8, 7}}, {"sm_120f", 120, 'f', {8, 8}},
      {"sm_121", 121, '\0', {8, 8}}, {"sm_121a", 121, 'a', {8, 8}}, {"sm_121f", 121, 'f', {8, 8}},
  };
  return targets;
}

std::optional<Target> find_target(std::string_view name) {
  for (const auto& target : known_targets())
    if (target.name == name) return target;
  return std::nullopt;
}

const std::vector<Target>& conformance_targets() {
  static const std::vector<Target> targets = [] {
    std::vector<Target> out;
    for (auto name : {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_120a"}) out.push_back(*find_target(name));
    return out;
  }();
  return targets;
}

bool TargetRule::accepts(const Target& target, PtxVersion version) const {
  switch (type) {
    case Type::at_least:
      return target.sm >= sm;
    case Type::family_specific: {
      bool same_family = target.family() == sm / 10 && target.sm >= sm;
      bool first_arch_specific = target.sm == sm && target.suffix == 'a';
      bool family_member = same_family && (target.suffix == 'a' || target.suffix == 'f') && version >= family_from;
      return first_arch_specific || family_member;
    }
    case Type::exact_arch:
      return std::find(exact.begin(), exact.end(), target.name) != exact.end();
  }
  return false;
}

std::string TargetRule::describe() const {
  switch (type) {
    case Type::at_least:
      return "sm_" + std::to_string(sm) + "+";
    case Type::family_specific:
      return "sm_" + std::to_string(sm) + "a (sm_" + std::to_string(sm) + "f+ from PTX " + family_from.str() + ")";
    case Type::exact_arch: {
      std::string out;
      for (const auto& name : exact) out += (out.empty() ? "" : "|") + name;
      return out;
    }
  }
  return {};
}

}  // namespace mmasp
