// Element and scale types that appear in mma.sp operands (PTX ISA 5.2.3 for the narrow formats, 9.7.14.6.3 for
// where each may appear).
#pragma once

#include <optional>
#include <string_view>

namespace mmasp {

enum class ElemType {
  f16, bf16, tf32, f32,
  e4m3, e5m2, e3m2, e2m3, e2m1,
  u8, s8, u4, s4, s32,
  ue8m0, ue4m3,
};

struct ElemTypeInfo {
  ElemType type;
  std::string_view ptx;  // the qualifier without its leading dot
  int bits;              // width of the encoding itself, before any container padding
  bool is_float;
};

const ElemTypeInfo& info(ElemType type);
inline std::string_view ptx_name(ElemType type) { return info(type).ptx; }
std::optional<ElemType> elem_type_from_ptx(std::string_view name);

}  // namespace mmasp
