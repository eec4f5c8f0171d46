// The GPU-resident kernel (harness/resident.h): each warp loops over cases — its 32 lanes draw one case's elements
// into shared memory (generators/portable_case.h, the bulk generator's streams), pack their registers from the
// layout tables, run mma.sp, and judge every element of D with the bit-exact model (oracle/model_arithmetic.h) or
// exact integer arithmetic — the very code the host runs (resident_abi.h). Only counters and the indices of
// deviating cases leave the GPU. Compiled by nvcc at build time with every form's instruction (resident_source.cpp).
#pragma once

#include <cstdint>

#include "harness/resident_abi.h"

namespace mmasp::resident {

// Written by resident_source.cpp: one instruction, and the bare-issue loop, for every form x selector.
__device__ void form_mma(uint32_t id, const uint32_t (&a)[4], const uint32_t (&b)[4], const uint32_t (&c)[4], uint32_t e,
                         uint32_t (&d)[4]);
__device__ uint32_t form_issue(uint32_t id, const uint32_t (&a)[4], const uint32_t (&b)[4], const uint32_t (&c)[4],
                               uint32_t e, uint64_t rounds);

// Draws case `index` into a warp's shared memory (every lane its share, then the cancellation profile's C); returns
// this lane's metadata noise.
__device__ __noinline__ uint32_t draw_shared_case(const Launch& launch, const gen::portable::CaseTables& t, uint64_t index,
                                                  uint32_t lane, uint32_t* a, uint32_t* b, uint32_t* c, uint32_t* nibbles) {
  const uint32_t stored = t.k / 2, chunks = t.k / t.chunk_width;
  const uint64_t seed = gen::portable::splitmix(launch.stream_base + index * gen::portable::kGamma);
  const uint32_t profile = gen::portable::profile_of(t, seed);
  for (uint32_t e = lane; e < t.a_count; e += 32) a[e] = gen::portable::drawn(t, seed, profile, gen::portable::run_a, e);
  for (uint32_t e = lane; e < t.b_count; e += 32) b[e] = gen::portable::drawn(t, seed, profile, gen::portable::run_b, e);
  for (uint32_t e = lane; e < t.c_count; e += 32) c[e] = gen::portable::drawn(t, seed, profile, gen::portable::run_c, e);
  for (uint32_t e = lane; e < t.nibble_count; e += 32)
    nibbles[e] = gen::portable::drawn(t, seed, profile, gen::portable::run_nibbles, e);
  const uint32_t noise = gen::portable::drawn(t, seed, profile, gen::portable::run_noise, lane);
  __syncwarp();
  if (profile == t.cancellation_profile) {
    const auto a_of = [&](uint32_t i, uint32_t s) { return a[i * stored + s]; };
    const auto b_of = [&](uint32_t row, uint32_t j) { return b[row * t.n + j]; };
    const auto nibble = [&](uint32_t i, uint32_t chunk) { return nibbles[i * chunks + chunk]; };
    // Each lane rewrites only its own elements of C, and reads only A, B and the nibbles.
    for (uint32_t e = lane; e < t.c_count; e += 32)
      c[e] = gen::portable::cancelled_c(t, e / t.n, e % t.n, c[e], a_of, b_of, nibble);
    __syncwarp();
  }
  return noise;
}

__device__ inline void swap_first_two(uint32_t (&registers)[4]) {
  const uint32_t first = registers[0];
  registers[0] = registers[1];
  registers[1] = first;
}

__device__ void resident_cases(const Launch& launch) {
  extern __shared__ uint32_t shared[];
  const PairTables& p = *launch.pair;
  const gen::portable::CaseTables& t = p.cases;
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const uint32_t words = case_words(t);
  // Per warp: the case (A, B, C, nibbles), then for float forms its A and B decoded once (8-byte aligned).
  const bool decode = p.judge == Judge::float_model;
  const uint32_t warp_words = words + (decode ? (words & 1) + decoded_words(t) : 0);
  uint32_t* a = shared + warp * warp_words;
  uint32_t* b = a + t.a_count;
  uint32_t* c = b + t.b_count;
  uint32_t* nibbles = c + t.c_count;
  uint64_t* a_decoded = reinterpret_cast<uint64_t*>(shared + warp * warp_words + words + (words & 1));
  uint64_t* b_decoded = a_decoded + t.a_count;
  uint32_t* columns = reinterpret_cast<uint32_t*>(b_decoded + t.b_count);
  const uint64_t warp_index = uint64_t(blockIdx.x) * warps + warp, all_warps = uint64_t(gridDim.x) * warps;
  const uint32_t d_bits = p.container_bits[operand_d], d_per_lane = p.per_lane[operand_d];
  const uint32_t* d_index = p.layouts + p.layout[operand_d] + lane * d_per_lane;
  const uint32_t d_registers = (d_per_lane * d_bits + 31) / 32;
  uint32_t ra[4] = {}, rb[4] = {}, rc[4] = {}, rd[4] = {};
  const auto pack = [&](uint32_t noise) {
    for (uint32_t r = 0; r < 4; ++r) {
      ra[r] = pack_register(p, operand_a, a, lane, r);
      rb[r] = pack_register(p, operand_b, b, lane, r);
      rc[r] = pack_register(p, operand_c, c, lane, r);
    }
    return metadata_register(p, nibbles, lane, noise);
  };

  if (launch.mode == Mode::issue) {
    const uint32_t e = pack(draw_shared_case(launch, t, launch.first, lane, a, b, c, nibbles));
    const uint32_t fold = form_issue(p.instruction, ra, rb, rc, e, (launch.count + 3) / 4);
    atomicAdd(&launch.counters->sink, (unsigned long long)fold);
    if (lane == 0) atomicAdd(&launch.counters->generated, 1ull);
    return;
  }

  const Fault& fault = launch.fault;
  unsigned long long cases = 0;
  uint32_t sink = 0;
  for (uint64_t w = warp_index; w < launch.count; w += all_warps) {
    const uint64_t index = launch.first + w;
    const uint32_t noise = draw_shared_case(launch, t, index, lane, a, b, c, nibbles);
    if (launch.mode == Mode::draw) {
      ++cases;
      __syncwarp();
      continue;
    }
    uint32_t e = pack(noise);
    uint32_t clean_a[4] = {ra[0], ra[1], ra[2], ra[3]}, clean_b[4] = {rb[0], rb[1], rb[2], rb[3]},
             clean_c[4] = {rc[0], rc[1], rc[2], rc[3]};
    const uint32_t clean_e = e;
    if (fault.kind == Fault::registers) {
      if (fault.swap_operand == operand_a) swap_first_two(ra);
      if (fault.swap_operand == operand_b) swap_first_two(rb);
      if (fault.swap_operand == operand_c) swap_first_two(rc);
      if (fault.rotate_operand == operand_a) ra[0] = (ra[0] << 16) | (ra[0] >> 16);
      if (fault.rotate_operand == operand_b) rb[0] = (rb[0] << 16) | (rb[0] >> 16);
      e ^= fault.e_xor;
    }
    form_mma(p.instruction, ra, rb, rc, e, rd);
    if (launch.mode == Mode::run) {
      for (uint32_t r = 0; r < d_registers; ++r) sink ^= rd[r];
      ++cases;
      __syncwarp();
      continue;
    }
    uint32_t clean[4] = {rd[0], rd[1], rd[2], rd[3]};
    if (fault.kind == Fault::registers) form_mma(p.instruction, clean_a, clean_b, clean_c, clean_e, clean);
    if (fault.kind == Fault::output &&
        (fault.one_in <= 1 || gen::portable::splitmix(index ^ fault.salt) % fault.one_in == 0)) {
      for (uint32_t q = 0; q < d_per_lane; ++q) {
        if (d_index[q] != fault.element % t.c_count) continue;
        set_element(rd, q, d_bits, fault.set ? fault.set_value : element_of(rd, q, d_bits) ^ fault.xor_mask);
      }
    }
    if (fault.kind == Fault::numerics)
      for (uint32_t q = 0; q < d_per_lane; ++q) set_element(rd, q, d_bits, judged(p, fault.changed, a, b, c, nibbles, d_index[q]));
    if (fault.kind != Fault::none) {
      // Whether the fault changed this case's D (against the same instruction on the clean registers), so that a
      // test can ask that every changed case be caught.
      bool changed = false;
      for (uint32_t r = 0; r < d_registers; ++r) changed |= rd[r] != clean[r];
      if (__any_sync(0xFFFFFFFFu, changed) && lane == 0) atomicAdd(&launch.counters->fault_changed, 1ull);
    }
    if (launch.mode == Mode::dump) {
      uint32_t* out = launch.dump + w * dump_words(p);
      for (uint32_t x = lane; x < words; x += 32) out[x] = a[x];   // A, B, C and the nibbles lie one after the other
      out[words + lane] = noise;
      for (uint32_t r = 0; r < d_registers; ++r) out[words + 32 + lane * d_registers + r] = rd[r];
    }
    bool deviates = false;
    if (decode) {
      decode_operands(p, p.model, a, b, nibbles, lane, 32, a_decoded, b_decoded, columns);
      __syncwarp();
      for (uint32_t q = 0; q < d_per_lane; ++q)
        deviates |= element_of(rd, q, d_bits) != judged_decoded(p, p.model, a_decoded, b_decoded, columns, c, d_index[q]);
    } else {
      for (uint32_t q = 0; q < d_per_lane; ++q)
        deviates |= element_of(rd, q, d_bits) != judged(p, p.model, a, b, c, nibbles, d_index[q]);
    }
    if (__any_sync(0xFFFFFFFFu, deviates) && lane == 0) {
      const unsigned long long slot = atomicAdd(&launch.counters->deviating, 1ull);
      if (slot < launch.deviation_capacity) {
        launch.deviations[slot] = index;
        atomicAdd(&launch.counters->recorded, 1ull);
      }
    }
    ++cases;
    __syncwarp();   // every lane is done with this case before the next one overwrites it
  }
  if (sink) atomicAdd(&launch.counters->sink, (unsigned long long)sink);
  if (lane == 0) {
    atomicAdd(&launch.counters->generated, cases);
    if (launch.mode != Mode::draw && launch.mode != Mode::run) atomicAdd(&launch.counters->checked, cases);
  }
}

}  // namespace mmasp::resident
