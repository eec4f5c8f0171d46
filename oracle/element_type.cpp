#include "oracle/element_type.h"

#include <array>

namespace mmasp {
namespace {

// tf32 is a 19-bit format carried in a 32-bit register (PTX ISA 5.2.3); it is listed at its register width because
// that is what sizes fragments.
constexpr std::array<ElemTypeInfo, 16> kElemTypes{{
    {ElemType::f16, "f16", 16, true},
    {ElemType::bf16, "bf16", 16, true},
    {ElemType::tf32, "tf32", 32, true},
    {ElemType::f32, "f32", 32, true},
    {ElemType::e4m3, "e4m3", 8, true},
    {ElemType::e5m2, "e5m2", 8, true},
    {ElemType::e3m2, "e3m2", 6, true},
    {ElemType::e2m3, "e2m3", 6, true},
    {ElemType::e2m1, "e2m1", 4, true},
    {ElemType::u8, "u8", 8, false},
    {ElemType::s8, "s8", 8, false},
    {ElemType::u4, "u4", 4, false},
    {ElemType::s4, "s4", 4, false},
    {ElemType::s32, "s32", 32, false},
    {ElemType::ue8m0, "ue8m0", 8, true},
    {ElemType::ue4m3, "ue4m3", 8, true},
}};

constexpr bool table_is_indexed_by_enum() {
  for (size_t i = 0; i < kElemTypes.size(); ++i)
    if (static_cast<size_t>(kElemTypes[i].type) != i) return false;
  return true;
}
static_assert(table_is_indexed_by_enum(), "kElemTypes must list the types in enum order");

}  // namespace

const ElemTypeInfo& info(ElemType type) { return kElemTypes[static_cast<size_t>(type)]; }

std::optional<ElemType> elem_type_from_ptx(std::string_view name) {
  for (const auto& entry : kElemTypes)
    if (entry.ptx == name) return entry.type;
  return std::nullopt;
}

}  // namespace mmasp
