// The oracle's codecs against an independent implementation: the CUDA toolkit's host-side conversions. Every code of
// every format of 16 bits or fewer is decoded; encoders are checked on every f16 or bf16 value as input.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "oracle/number_format.h"

namespace mmasp {
namespace {

using T = ElemType;

double from_half_raw(__half_raw raw) { return double(__half2float(__half(raw))); }
double cuda_f16(uint32_t code) { return from_half_raw(__half_raw{uint16_t(code)}); }
double cuda_bf16(uint32_t code) { return double(__bfloat162float(__nv_bfloat16(__nv_bfloat16_raw{uint16_t(code)}))); }
double cuda_fp8(uint32_t code, __nv_fp8_interpretation_t kind) {
  return from_half_raw(__nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t(code), kind));
}
double cuda_fp6(uint32_t code, __nv_fp6_interpretation_t kind) {
  return from_half_raw(__nv_cvt_fp6_to_halfraw(__nv_fp6_storage_t(code), kind));
}
double cuda_e2m1(uint32_t code) { return from_half_raw(__nv_cvt_fp4_to_halfraw(__nv_fp4_storage_t(code), __NV_E2M1)); }
double cuda_ue8m0(uint32_t code) {
  return double(__bfloat162float(__nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__nv_fp8_storage_t(code)))));
}

// Same value, with NaN equal to NaN and -0 distinct from +0.
void expect_same(double ours, double theirs, const std::string& what) {
  if (std::isnan(theirs)) {
    EXPECT_TRUE(std::isnan(ours)) << what << ": expected NaN, got " << ours;
    return;
  }
  EXPECT_EQ(ours, theirs) << what;
  EXPECT_EQ(std::signbit(ours), std::signbit(theirs)) << what << " (sign of zero)";
}

std::string hex(uint32_t code) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%x", code);
  return buffer;
}

void check_every_code(ElemType type, uint32_t codes, const std::function<double(uint32_t)>& reference) {
  for (uint32_t code = 0; code < codes; ++code)
    expect_same(decode_to_double(type, code), reference(code), std::string(ptx_name(type)) + " " + hex(code));
}

TEST(DecodeEveryCode, F16) { check_every_code(T::f16, 1u << 16, cuda_f16); }
TEST(DecodeEveryCode, Bf16) { check_every_code(T::bf16, 1u << 16, cuda_bf16); }
TEST(DecodeEveryCode, E4m3) { check_every_code(T::e4m3, 256, [](uint32_t c) { return cuda_fp8(c, __NV_E4M3); }); }
TEST(DecodeEveryCode, E5m2) { check_every_code(T::e5m2, 256, [](uint32_t c) { return cuda_fp8(c, __NV_E5M2); }); }
TEST(DecodeEveryCode, E3m2) { check_every_code(T::e3m2, 64, [](uint32_t c) { return cuda_fp6(c, __NV_E3M2); }); }
TEST(DecodeEveryCode, E2m3) { check_every_code(T::e2m3, 64, [](uint32_t c) { return cuda_fp6(c, __NV_E2M3); }); }
TEST(DecodeEveryCode, E2m1) { check_every_code(T::e2m1, 16, cuda_e2m1); }
TEST(DecodeEveryCode, Ue8m0) { check_every_code(T::ue8m0, 256, cuda_ue8m0); }

// ue4m3 is e4m3 with the sign bit fixed at 0 (PTX ISA 5.2.3); codes with the top bit set are not ue4m3 codes.
TEST(DecodeEveryCode, Ue4m3) {
  check_every_code(T::ue4m3, 128, [](uint32_t c) { return cuda_fp8(c, __NV_E4M3); });
  for (uint32_t code = 128; code < 256; ++code) EXPECT_FALSE(decode(T::ue4m3, code).has_value()) << hex(code);
}

// Every tf32 encoding (the top 19 bits of the register), each with several patterns in the 13 low bits. The oracle's
// model: the low 13 bits are ignored (inferred from the wgmma text; verified on hardware by the GPU suites).
TEST(DecodeEveryCode, Tf32IgnoresTheLow13Bits) {
  for (uint32_t top = 0; top < (1u << 19); ++top) {
    uint32_t base = top << 13;
    double expected = double(std::bit_cast<float>(base));
    for (uint32_t low : {0u, 1u, 0x1000u, 0x1FFFu}) expect_same(decode_to_double(T::tf32, base | low), expected, hex(base | low));
  }
}

TEST(DecodeEveryCode, Integers) {
  for (uint32_t code = 0; code < 256; ++code) {
    EXPECT_EQ(decode_integer(T::u8, code), int64_t(code));
    EXPECT_EQ(decode_integer(T::s8, code), int64_t(int8_t(code)));
    EXPECT_EQ(encode_integer(T::s8, decode_integer(T::s8, code)), code);
  }
  for (uint32_t code = 0; code < 16; ++code) {
    EXPECT_EQ(decode_integer(T::u4, code), int64_t(code));
    EXPECT_EQ(decode_integer(T::s4, code), int64_t(int32_t(code << 28) >> 28));
    EXPECT_EQ(encode_integer(T::s4, decode_integer(T::s4, code)), code);
  }
}

// The special values the research table and PTX ISA 5.2.3 give for each narrow format.
TEST(SpecialValues, LargestFiniteAndSmallestSubnormal) {
  struct Expect { ElemType type; uint32_t max_code; double max; double min_subnormal; };
  for (auto [type, max_code, max, min_subnormal] : std::vector<Expect>{
           {T::f16, 0x7BFF, 65504, std::ldexp(1, -24)},
           {T::bf16, 0x7F7F, double(std::bit_cast<float>(0x7F7F0000u)), std::ldexp(1, -133)},
           {T::e4m3, 0x7E, 448, std::ldexp(1, -9)},
           {T::e5m2, 0x7B, 57344, std::ldexp(1, -16)},
           {T::e3m2, 0x1F, 28, 0.0625},
           {T::e2m3, 0x1F, 7.5, 0.125},
           {T::e2m1, 0x7, 6, 0.5},
           {T::ue8m0, 0xFE, std::ldexp(1, 127), std::ldexp(1, -127)},
           {T::ue4m3, 0x7E, 448, std::ldexp(1, -9)},
       }) {
    EXPECT_EQ(max_finite_code(type), max_code) << ptx_name(type);
    EXPECT_EQ(decode_to_double(type, max_code), max) << ptx_name(type);
    uint32_t smallest = type == T::ue8m0 ? 0 : 1;
    EXPECT_EQ(decode_to_double(type, smallest), min_subnormal) << ptx_name(type);
  }
  EXPECT_EQ(decode(T::e4m3, 0x7F)->cls, FloatClass::nan);
  EXPECT_EQ(decode(T::e4m3, 0xFF)->cls, FloatClass::nan);
  EXPECT_EQ(decode(T::e5m2, 0x7C)->cls, FloatClass::infinite);
  EXPECT_EQ(decode(T::e5m2, 0xFD)->cls, FloatClass::nan);
  EXPECT_EQ(decode(T::ue8m0, 0xFF)->cls, FloatClass::nan);
  EXPECT_EQ(decode(T::ue8m0, 0x7F)->to_double(), 1.0);
  EXPECT_EQ(decode(T::ue4m3, 0x38)->to_double(), 1.0);
  EXPECT_TRUE(std::signbit(decode_to_double(T::e2m1, 0x8)));  // -0
}

TEST(Encode, EveryCodeRoundTrips) {
  for (T type : {T::f16, T::bf16, T::e4m3, T::e5m2, T::e3m2, T::e2m3, T::e2m1, T::ue8m0, T::ue4m3}) {
    const FloatFormat* f = float_format(type);
    for (uint32_t code = 0; code < (1u << f->code_bits); ++code) {
      auto value = decode(type, code);
      ASSERT_TRUE(value);
      if (value->cls == FloatClass::nan) {
        auto again = encode(type, value->to_double());
        ASSERT_TRUE(again);
        EXPECT_EQ(decode(type, *again)->cls, FloatClass::nan);
        continue;
      }
      EXPECT_EQ(encode(type, value->to_double()), code) << ptx_name(type) << " " << hex(code);
    }
  }
}

// Inputs: every f16 value and every bf16 value, as floats.
std::vector<float> sweep_inputs() {
  std::vector<float> inputs;
  for (uint32_t code = 0; code < (1u << 16); ++code) {
    inputs.push_back(__half2float(__half(__half_raw{uint16_t(code)})));
    inputs.push_back(__bfloat162float(__nv_bfloat16(__nv_bfloat16_raw{uint16_t(code)})));
  }
  return inputs;
}

TEST(Encode, MatchesCudaRoundToNearestEven) {
  for (float x : sweep_inputs()) {
    const std::string what = "input " + std::to_string(x) + " (" + hex(std::bit_cast<uint32_t>(x)) + ")";
    expect_same(decode_to_double(T::f16, *encode(T::f16, x)), cuda_f16(__half_raw(__float2half_rn(x)).x),
                "f16 " + what);
    expect_same(decode_to_double(T::bf16, *encode(T::bf16, x)),
                cuda_bf16(__nv_bfloat16_raw(__float2bfloat16_rn(x)).x), "bf16 " + what);
    for (auto [type, kind] : {std::pair{T::e4m3, __NV_E4M3}, std::pair{T::e5m2, __NV_E5M2}}) {
      uint32_t theirs = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, kind);
      auto ours = encode(type, x, Overflow::saturate);
      ASSERT_TRUE(ours) << what;
      expect_same(decode_to_double(type, *ours), decode_to_double(type, theirs), std::string(ptx_name(type)) + " " + what);
    }
    if (std::isnan(x)) continue;  // fp6 and fp4 have no NaN; the toolkit's choice for it is not ours to copy
    for (auto [type, kind] : {std::pair{T::e3m2, __NV_E3M2}, std::pair{T::e2m3, __NV_E2M3}}) {
      uint32_t theirs = __nv_cvt_float_to_fp6(x, kind, cudaRoundNearest);
      auto ours = encode(type, x, Overflow::saturate);
      ASSERT_TRUE(ours) << what;
      expect_same(decode_to_double(type, *ours), decode_to_double(type, theirs), std::string(ptx_name(type)) + " " + what);
    }
    uint32_t theirs = __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
    auto ours = encode(T::e2m1, x, Overflow::saturate);
    ASSERT_TRUE(ours) << what;
    expect_same(decode_to_double(T::e2m1, *ours), decode_to_double(T::e2m1, theirs), "e2m1 " + what);
  }
}

TEST(Encode, OverflowModes) {
  EXPECT_EQ(encode(T::f16, 70000.0), 0x7C00u);                                    // Inf
  EXPECT_EQ(encode(T::f16, 70000.0, Overflow::saturate), 0x7BFFu);
  EXPECT_EQ(encode(T::e4m3, 1000.0), 0x7Fu);                                      // no Inf: NaN
  EXPECT_EQ(encode(T::e4m3, -1000.0, Overflow::saturate), 0xFEu);
  EXPECT_FALSE(encode(T::e2m1, 100.0).has_value());                               // neither Inf nor NaN
  EXPECT_EQ(encode(T::e2m1, 100.0, Overflow::saturate), 0x7u);
  EXPECT_FALSE(encode(T::ue8m0, -2.0).has_value());                               // unsigned
  EXPECT_FALSE(encode(T::ue8m0, 0.0).has_value());                                // ue8m0 has no zero
  EXPECT_EQ(encode(T::ue8m0, 3.0), 0x81u);                                        // tie between 2 and 4: even
  EXPECT_EQ(encode(T::e2m1, 2.5), 0x4u);                                          // tie between 2 and 3: even
  EXPECT_EQ(encode(T::e2m1, 0.25), 0x0u);                                         // tie between 0 and 0.5: even
  EXPECT_EQ(encode(T::e2m1, -0.26), 0x9u);
}

TEST(Packing, LowestElementInLowestBits) {
  // f16x2 (PTX ISA 5.2.5.1): the first element in bits 15..0.
  std::vector<uint32_t> halves = {0x3C00, 0xC000};
  EXPECT_EQ(pack_registers(halves, 16), std::vector<uint32_t>{0xC0003C00u});
  std::vector<uint32_t> bytes = {0x11, 0x22, 0x33, 0x44, 0x55};
  EXPECT_EQ(pack_registers(bytes, 8), (std::vector<uint32_t>{0x44332211u, 0x55u}));
  std::vector<uint32_t> nibbles = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(pack_registers(nibbles, 4), std::vector<uint32_t>{0x87654321u});
  auto round_trip = unpack_registers(pack_registers(nibbles, 4), 4);
  EXPECT_EQ(round_trip, nibbles);
  std::vector<uint32_t> too_wide = {0x10};
  EXPECT_THROW(pack_registers(too_wide, 4), std::invalid_argument);
}

TEST(Packing, ContainersUnderEachKind) {
  // 9.7.14.6.3: under kind::f8f6f4 / mxf8f6f4, e2m1 sits in bits 5..2 of a byte, e3m2/e2m3 in bits 5..0.
  EXPECT_EQ(to_container(T::e2m1, Kind::f8f6f4, 0xF), 0x3Cu);
  EXPECT_EQ(to_container(T::e2m1, Kind::mxf8f6f4, 0x5), 0x14u);
  EXPECT_EQ(to_container(T::e3m2, Kind::f8f6f4, 0x3F), 0x3Fu);
  EXPECT_EQ(container_of(T::e2m3, Kind::f8f6f4).bits, 8);
  // Under mxf4/mxf4nvf4, e2m1 is packed tightly.
  EXPECT_EQ(container_of(T::e2m1, Kind::mxf4).bits, 4);
  EXPECT_EQ(to_container(T::e2m1, Kind::mxf4nvf4, 0xF), 0xFu);
  // Padding is dropped on the way back.
  EXPECT_EQ(from_container(T::e2m1, Kind::f8f6f4, 0xFF), 0xFu);
  EXPECT_EQ(from_container(T::e3m2, Kind::f8f6f4, 0xFF), 0x3Fu);
  for (uint32_t code = 0; code < 16; ++code)
    EXPECT_EQ(from_container(T::e2m1, Kind::f8f6f4, to_container(T::e2m1, Kind::f8f6f4, code)), code);
}

}  // namespace
}  // namespace mmasp
