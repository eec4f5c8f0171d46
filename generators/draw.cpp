#include "generators/draw.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace mmasp::gen {

namespace {

// One clone per instruction set, chosen when the program loads: with AVX-512DQ's 64-bit multiplies the block costs
// about a quarter of the scalar loop (bench/generator_benchmark). Every clone computes the same outputs.
#if defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx512dq", "avx2", "default")))
#endif
void fill_block(uint64_t state, uint64_t* out) {
  for (int i = 0; i < SplitMixDraw::kBlock; ++i) out[i] = SplitMixDraw::mix(state + uint64_t(i) * SplitMixDraw::kGamma);
}

// byte_lookups for whole groups of outputs, from the output that follows `position`: 16 outputs (80 fields of 12 bits,
// 5 per output, the top 4 bits of each dropped) or 8 outputs (64 fields of 8 bits).
using GroupLookup = void (*)(uint64_t position, size_t groups, const uint16_t* table, uint32_t* out);

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define MMASP_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vbmi,avx512vbmi2")))

MMASP_AVX512 __m512i mix_lanes(__m512i z) {
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64(int64_t(0xBF58476D1CE4E5B9ull)));
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64(int64_t(0x94D049BB133111EBull)));
  return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}

MMASP_AVX512 void group_lookup12_avx512(uint64_t position, size_t groups, const uint16_t* table, uint32_t* out) {
  constexpr uint64_t gamma = SplitMixDraw::kGamma;
  // Output j of a group is mix(position + (j + 1) * gamma), j < 16: lanes of two vectors, 32 dwords in all. Field e
  // of a group (e < 80) is 12 bits at bit 12 * (e % 5) of output e / 5: the low bits of a funnel shift (vpshrdvd) of
  // the dword that holds its first bit and the dword above it, picked by vpermt2d. Per vector of 16 fields: the two
  // dword indices and the shift.
  struct Constants {
    alignas(64) uint64_t offsets[16];
    alignas(64) uint32_t low_dword[5][16], high_dword[5][16], shift[5][16];
  };
  static constexpr Constants constants = [] {
    Constants c{};
    for (int j = 0; j < 16; ++j) c.offsets[j] = uint64_t(j + 1) * gamma;
    for (int e = 0; e < 80; ++e) {
      const int bit = 64 * (e / 5) + 12 * (e % 5);
      c.low_dword[e / 16][e % 16] = uint32_t(bit / 32);
      c.high_dword[e / 16][e % 16] = uint32_t((bit / 32 + 1) % 32);   // past the last output: its bits are not used
      c.shift[e / 16][e % 16] = uint32_t(bit % 32);
    }
    return c;
  }();
  const __m512i low_offsets = _mm512_load_si512(constants.offsets), high_offsets = _mm512_load_si512(constants.offsets + 8);
  const __m512i field_mask = _mm512_set1_epi32(0xFFF), byte_mask = _mm512_set1_epi32(0xFF);
  // Two passes over up to 8 groups at a time, the fields first, then the gathers: a gather waits for its indices,
  // which wait for two 64-bit multiplies, and interleaved, the gathers' many micro-ops leave the CPU too little room
  // to overlap those waits.
  constexpr size_t kGroupsPerPass = 8;
  alignas(64) uint32_t indices[kGroupsPerPass * 80];
  for (size_t done = 0; done < groups;) {
    const size_t pass = std::min(kGroupsPerPass, groups - done);
    for (size_t g = 0; g < pass; ++g, position += 16 * gamma) {
      const __m512i base = _mm512_set1_epi64(int64_t(position));
      const __m512i low = mix_lanes(_mm512_add_epi64(base, low_offsets));
      const __m512i high = mix_lanes(_mm512_add_epi64(base, high_offsets));
      for (int v = 0; v < 5; ++v) {
        const __m512i first = _mm512_permutex2var_epi32(low, _mm512_load_si512(constants.low_dword[v]), high);
        const __m512i second = _mm512_permutex2var_epi32(low, _mm512_load_si512(constants.high_dword[v]), high);
        const __m512i fields = _mm512_shrdv_epi32(first, second, _mm512_load_si512(constants.shift[v]));
        _mm512_store_si512(indices + g * 80 + size_t(v) * 16, _mm512_and_si512(fields, field_mask));
      }
    }
    uint32_t* destination = out + done * 80;
    for (size_t v = 0; v < pass * 5; ++v) {
      const __m512i entries = _mm512_i32gather_epi32(_mm512_load_si512(indices + v * 16), static_cast<const void*>(table), 2);
      _mm512_storeu_si512(destination + v * 16, _mm512_and_si512(entries, byte_mask));
    }
    done += pass;
  }
}

// 8-bit fields are the bytes of the outputs in memory order, and a 256-entry table of bytes fits in four registers:
// two vpermi2b lookups (index bits 0-6) and a blend on bit 7.
MMASP_AVX512 void group_lookup8_avx512(uint64_t position, size_t groups, const uint16_t* table, uint32_t* out) {
  constexpr uint64_t gamma = SplitMixDraw::kGamma;
  __m512i bytes_of[4];
  for (int q = 0; q < 4; ++q) {
    const __m256i first = _mm512_cvtepi16_epi8(_mm512_loadu_si512(table + q * 64));
    const __m256i second = _mm512_cvtepi16_epi8(_mm512_loadu_si512(table + q * 64 + 32));
    bytes_of[q] = _mm512_inserti64x4(_mm512_castsi256_si512(first), second, 1);
  }
  alignas(64) uint64_t offsets[8];
  for (int j = 0; j < 8; ++j) offsets[j] = uint64_t(j + 1) * gamma;
  const __m512i lane_offsets = _mm512_load_si512(offsets);
  for (size_t g = 0; g < groups; ++g, position += 8 * gamma) {
    const __m512i words = mix_lanes(_mm512_add_epi64(_mm512_set1_epi64(int64_t(position)), lane_offsets));
    const __m512i low = _mm512_permutex2var_epi8(bytes_of[0], words, bytes_of[1]);
    const __m512i high = _mm512_permutex2var_epi8(bytes_of[2], words, bytes_of[3]);
    const __m512i entries = _mm512_mask_blend_epi8(_mm512_movepi8_mask(words), low, high);
    uint32_t* destination = out + g * 64;
    _mm512_storeu_si512(destination, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(entries, 0)));
    _mm512_storeu_si512(destination + 16, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(entries, 1)));
    _mm512_storeu_si512(destination + 32, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(entries, 2)));
    _mm512_storeu_si512(destination + 48, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(entries, 3)));
  }
}

bool has_avx512() {
  __builtin_cpu_init();
  return !portable_only() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
         __builtin_cpu_supports("avx512vbmi2");
}
GroupLookup pick_group_lookup(int width) {
  if (!has_avx512()) return nullptr;
  return width == 8 ? group_lookup8_avx512 : group_lookup12_avx512;
}
#else
GroupLookup pick_group_lookup(int) { return nullptr; }
#endif

const GroupLookup group_lookup8 = pick_group_lookup(8), group_lookup12 = pick_group_lookup(12);

}  // namespace

bool portable_only() {
  static const bool portable = [] {
    const char* value = std::getenv("MMASP_PORTABLE");
    return value && std::string_view(value) == "1";
  }();
  return portable;
}

void SplitMixDraw::refill() {
  fill_block(state_, block_.data());
  state_ += uint64_t(kBlock) * kGamma;
  next_ = 0;
}

template <int width>
void SplitMixDraw::byte_lookups(size_t count, const uint16_t* table, uint32_t* out) {
  static_assert(width == 8 || width == 12);
  constexpr size_t per_output = size_t(64 / width);
  constexpr size_t outputs_per_group = width == 8 ? 8 : 16;
  constexpr size_t fields_per_group = outputs_per_group * per_output;
  const GroupLookup group_lookup = width == 8 ? group_lookup8 : group_lookup12;
  size_t i = 0;
  for (; i < count && left_ >= width; ++i) out[i] = table[field(width)] & 0xFFu;
  if (!group_lookup || i == count) {
    fields<width>(count - i, [&](size_t j, uint32_t r) { out[i + j] = table[r] & 0xFFu; });
    return;
  }
  // Whole groups straight into `out`; the last, partial group through a buffer, keeping the bits of its last used
  // output that are left over, as field() would.
  const uint64_t position = state_ - uint64_t(kBlock - next_) * kGamma;   // the first unread output of the block
  const size_t groups = (count - i) / fields_per_group, rest = (count - i) % fields_per_group;
  if (groups) group_lookup(position, groups, table, out + i);
  i += groups * fields_per_group;
  uint64_t next_output = groups * outputs_per_group;
  if (rest) {
    uint32_t buffer[fields_per_group];
    group_lookup(position + next_output * kGamma, 1, table, buffer);
    std::copy(buffer, buffer + rest, out + i);
    const size_t outputs = (rest + per_output - 1) / per_output, used = rest - (outputs - 1) * per_output;
    next_output += outputs;
    left_ = int(64 - used * width);
    word_ = left_ > 0 ? mix(position + (next_output - 1) * kGamma) >> (used * width) : 0;
  } else {
    left_ = int(64 % width);
    word_ = left_ ? mix(position + (next_output - 1) * kGamma) >> (64 - left_) : 0;
  }
  state_ = position + next_output * kGamma;
  next_ = kBlock;
}

template void SplitMixDraw::byte_lookups<8>(size_t, const uint16_t*, uint32_t*);
template void SplitMixDraw::byte_lookups<12>(size_t, const uint16_t*, uint32_t*);

}  // namespace mmasp::gen
