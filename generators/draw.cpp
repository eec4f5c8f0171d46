#include "generators/draw.h"

#include <algorithm>

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

// byte_lookups for whole groups of 16 outputs (80 fields of 12 bits, 5 per output, the top 4 bits of each output
// dropped), from the output that follows `position`. Returns the last output, whose unused bits the draw keeps.
using GroupLookup = uint64_t (*)(uint64_t position, size_t groups, const uint16_t* table, uint32_t* out);

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define MMASP_AVX512 __attribute__((target("avx512f,avx512dq,avx512vbmi2")))

MMASP_AVX512 __m512i mix_lanes(__m512i z) {
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), _mm512_set1_epi64(int64_t(0xBF58476D1CE4E5B9ull)));
  z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), _mm512_set1_epi64(int64_t(0x94D049BB133111EBull)));
  return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}

MMASP_AVX512 uint64_t group_lookup_avx512(uint64_t position, size_t groups, const uint16_t* table, uint32_t* out) {
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
  __m512i high = _mm512_setzero_si512();
  for (size_t done = 0; done < groups;) {
    const size_t pass = std::min(kGroupsPerPass, groups - done);
    for (size_t g = 0; g < pass; ++g, position += 16 * gamma) {
      const __m512i base = _mm512_set1_epi64(int64_t(position));
      const __m512i low = mix_lanes(_mm512_add_epi64(base, low_offsets));
      high = mix_lanes(_mm512_add_epi64(base, high_offsets));
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
  alignas(64) uint64_t last[8];
  _mm512_store_si512(last, high);
  return last[7];
}

GroupLookup pick_group_lookup() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vbmi2"))
    return group_lookup_avx512;
  return nullptr;
}
#else
GroupLookup pick_group_lookup() { return nullptr; }
#endif

const GroupLookup group_lookup = pick_group_lookup();

}  // namespace

void SplitMixDraw::refill() {
  fill_block(state_, block_.data());
  state_ += uint64_t(kBlock) * kGamma;
  next_ = 0;
}

void SplitMixDraw::byte_lookups(size_t count, const uint16_t* table, uint32_t* out) {
  size_t i = 0;
  for (; i < count && left_ >= 12; ++i) out[i] = table[field(12)] & 0xFFu;
  const size_t groups = (count - i) / 80;
  if (group_lookup && groups) {
    // The outputs still in the block are recomputed rather than read: the group starts at the first unread one.
    const uint64_t position = state_ - uint64_t(kBlock - next_) * kGamma;
    const uint64_t last = group_lookup(position, groups, table, out + i);
    state_ = position + uint64_t(groups) * 16 * kGamma;
    next_ = kBlock;
    word_ = last >> 60;
    left_ = 4;
    i += groups * 80;
  } else {
    fields<12>(count - i, [&](size_t j, uint32_t r) { out[i + j] = table[r] & 0xFFu; });
    i = count;
  }
  for (; i < count; ++i) out[i] = table[field(12)] & 0xFFu;
}

}  // namespace mmasp::gen
