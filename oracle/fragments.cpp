#include "oracle/fragments.h"

#include <map>
#include <stdexcept>
#include <utility>

#include "oracle/layout.h"
#include "oracle/number_format.h"

namespace mmasp {
namespace {


ElemType type_of(const Form& form, Operand operand) {
  switch (operand) {
    case Operand::a_compressed: return form.a;
    case Operand::b: return form.b;
    case Operand::c: return form.c;
    case Operand::d: return form.d;
  }
  return form.a;
}


// Per lane, the row-major matrix index of each of its elements: coord_of (layout.h) evaluated once per form and
// operand, since every case of a batch packs and unpacks through it.
struct LaneIndices {
  int per_lane = 0;
  std::vector<int> index;   // [lane * per_lane + element]
};

const LaneIndices& lane_indices(const Form& form, Operand operand) {
  thread_local std::map<std::pair<const Form*, Operand>, LaneIndices> cache;
  auto [it, added] = cache.try_emplace({&form, operand});
  if (added) {
    LaneIndices& table = it->second;
    table.per_lane = elements_per_lane(form, operand);
    const int cols = cols_of(form, operand);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int i = 0; i < table.per_lane; ++i) {
        const MatrixCoord at = coord_of(form, operand, lane, i);
        table.index.push_back(at.row * cols + at.col);
      }
  }
  return it->second;
}

std::vector<uint32_t> gather(const Form& form, Operand operand, int lane, std::span<const uint32_t> matrix) {
  const LaneIndices& table = lane_indices(form, operand);
  const int* index = table.index.data() + size_t(lane * table.per_lane);
  const ElemType type = type_of(form, operand);
  thread_local std::vector<uint32_t> containers;
  containers.resize(size_t(table.per_lane));
  for (int i = 0; i < table.per_lane; ++i) containers[size_t(i)] = to_container(type, form.kind, matrix[size_t(index[i])]);
  return pack_registers(containers, container_bits(form, operand));
}

void scatter(const Form& form, Operand operand, int lane, std::span<const uint32_t> registers, std::vector<uint32_t>& matrix) {
  const std::vector<uint32_t> containers = unpack_registers(registers, container_bits(form, operand));
  const LaneIndices& table = lane_indices(form, operand);
  const int* index = table.index.data() + size_t(lane * table.per_lane);
  const ElemType type = type_of(form, operand);
  for (int i = 0; i < table.per_lane; ++i) matrix[size_t(index[i])] = from_container(type, form.kind, containers[size_t(i)]);
}

// Byte ids outside 0..3 are undefined behaviour (9.7.14.3); such a scale has no place in the register.
uint32_t with_byte(uint32_t word, int byte, uint32_t value) {
  if (byte < 0 || byte > 3) return word;
  return (word & ~(0xFFu << (8 * byte))) | ((value & 0xFF) << (8 * byte));
}

uint32_t byte_of(uint32_t word, int byte) { return byte < 0 || byte > 3 ? 0 : (word >> (8 * byte)) & 0xFF; }

}  // namespace

WarpRegisters to_registers(const MmaCase& test) {
  check_shape(test);
  const Form& form = *test.form;
  WarpRegisters out;
  out.selector = test.selector;
  out.scale_ids = test.scale_ids;
  const int chunks = form.shape.k / form.chunk_width;
  std::array<bool, kWarpLanes> holds_metadata{};
  const auto cells = metadata_cells(form, test.selector);
  for (const auto& cell : cells) holds_metadata[size_t(cell.lane)] = true;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    LaneRegisters& r = out.lanes[size_t(lane)];
    r.a = gather(form, Operand::a_compressed, lane, test.a_compressed);
    r.b = gather(form, Operand::b, lane, test.b);
    r.c = gather(form, Operand::c, lane, test.c);
    r.e = holds_metadata[size_t(lane)] || test.metadata_noise.empty() ? 0 : test.metadata_noise[size_t(lane)];
  }
  for (const auto& cell : cells)
    out.lanes[size_t(cell.lane)].e |= test.nibbles[size_t(cell.row * chunks + cell.chunk)] << (4 * cell.nibble);
  if (form.block_scale) {
    const uint32_t one = *encode(*form.stype, 1.0);
    for (auto& lane : out.lanes) lane.scale_a = lane.scale_b = one * 0x01010101u;
    const int blocks = scale_blocks(form);
    for (const auto& cell : scale_cells(form, Operand::a_compressed, test.scale_ids)) {
      uint32_t& word = out.lanes[size_t(cell.lane)].scale_a;
      word = with_byte(word, cell.byte, test.scale_a[size_t(cell.index * blocks + cell.block)]);
    }
    for (const auto& cell : scale_cells(form, Operand::b, test.scale_ids)) {
      uint32_t& word = out.lanes[size_t(cell.lane)].scale_b;
      word = with_byte(word, cell.byte, test.scale_b[size_t(cell.block * form.shape.n + cell.index)]);
    }
  }
  return out;
}

MmaCase from_registers(const Form& form, const WarpRegisters& registers) {
  MmaCase test = zero_case(form);
  test.selector = registers.selector;
  test.scale_ids = registers.scale_ids;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const LaneRegisters& r = registers.lanes[size_t(lane)];
    scatter(form, Operand::a_compressed, lane, r.a, test.a_compressed);
    scatter(form, Operand::b, lane, r.b, test.b);
    scatter(form, Operand::c, lane, r.c, test.c);
  }
  const int chunks = form.shape.k / form.chunk_width;
  test.metadata_noise.assign(kWarpLanes, 0);
  std::array<bool, kWarpLanes> holds_metadata{};
  for (const auto& cell : metadata_cells(form, registers.selector)) {
    holds_metadata[size_t(cell.lane)] = true;
    test.nibbles[size_t(cell.row * chunks + cell.chunk)] = (registers.lanes[size_t(cell.lane)].e >> (4 * cell.nibble)) & 0xF;
  }
  for (int lane = 0; lane < kWarpLanes; ++lane)
    if (!holds_metadata[size_t(lane)]) test.metadata_noise[size_t(lane)] = registers.lanes[size_t(lane)].e;
  if (form.block_scale) {
    const int blocks = scale_blocks(form);
    for (const auto& cell : scale_cells(form, Operand::a_compressed, registers.scale_ids))
      test.scale_a[size_t(cell.index * blocks + cell.block)] = byte_of(registers.lanes[size_t(cell.lane)].scale_a, cell.byte);
    for (const auto& cell : scale_cells(form, Operand::b, registers.scale_ids))
      test.scale_b[size_t(cell.block * form.shape.n + cell.index)] = byte_of(registers.lanes[size_t(cell.lane)].scale_b, cell.byte);
  }
  return test;
}

std::vector<uint32_t> d_to_registers(const Form& form, std::span<const uint32_t> d) {
  std::vector<uint32_t> out;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    std::vector<uint32_t> regs = gather(form, Operand::d, lane, d);
    out.insert(out.end(), regs.begin(), regs.end());
  }
  return out;
}

std::vector<uint32_t> d_from_registers(const Form& form, std::span<const uint32_t> registers) {
  const size_t words = size_t(form.regs.d);
  if (registers.size() != kWarpLanes * words) throw std::invalid_argument("d_from_registers: wrong register count");
  std::vector<uint32_t> d(size_t(form.shape.m * form.shape.n), 0);
  for (int lane = 0; lane < kWarpLanes; ++lane) scatter(form, Operand::d, lane, registers.subspan(size_t(lane) * words, words), d);
  return d;
}

}  // namespace mmasp
