#include "harness/fragment_packing.h"

#include "oracle/layout.h"
#include "oracle/number_format.h"

namespace mmasp {
namespace {

// One lane's registers of an operand: gather its elements by the layout, then pack them lowest-first.
std::vector<uint32_t> lane_registers(const Form& form, Operand operand, int lane, const std::vector<uint32_t>& matrix,
                                     ElemType type, int container_bits) {
  std::vector<uint32_t> containers;
  const int cols = cols_of(form, operand);
  for (int i = 0; i < elements_per_lane(form, operand); ++i) {
    MatrixCoord at = coord_of(form, operand, lane, i);
    containers.push_back(to_container(type, form.kind, matrix[size_t(at.row * cols + at.col)]));
  }
  return pack_registers(containers, container_bits);
}

}  // namespace

void pack_case(const Form& form, const DenseCase& test, std::vector<uint32_t>& records) {
  const InstructionText instruction = instruction_for(form, test.selector);
  const LaneRecordLayout layout = lane_record_layout(instruction);
  const SparseA sparse = compress(form, test.a, test.positions);
  const int chunks_per_row = form.shape.k / form.chunk_width;

  std::vector<uint32_t> metadata = test.metadata_noise;
  metadata.resize(32, 0);
  std::vector<bool> holds_metadata(32, false);
  for (const auto& cell : metadata_cells(form, test.selector)) holds_metadata[size_t(cell.lane)] = true;
  for (int lane = 0; lane < 32; ++lane)
    if (holds_metadata[size_t(lane)]) metadata[size_t(lane)] = 0;
  for (const auto& cell : metadata_cells(form, test.selector))
    metadata[size_t(cell.lane)] |= sparse.nibbles[size_t(cell.row * chunks_per_row + cell.chunk)] << (4 * cell.nibble);

  const size_t base = records.size();
  records.resize(base + 32 * size_t(layout.input_words), 0);
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t* record = records.data() + base + size_t(lane) * size_t(layout.input_words);
    auto put = [&](int offset, const std::vector<uint32_t>& registers) {
      for (size_t r = 0; r < registers.size(); ++r) record[offset + int(r)] = registers[r];
    };
    put(layout.a, lane_registers(form, Operand::a_compressed, lane, sparse.compressed, form.a, form.a_container_bits));
    put(layout.b, lane_registers(form, Operand::b, lane, test.b, form.b, form.b_container_bits));
    put(layout.c, lane_registers(form, Operand::c, lane, test.c, form.c, info(form.c).bits));
    record[layout.e] = metadata[size_t(lane)];
  }
}

std::vector<uint32_t> unpack_d(const Form& form, const uint32_t* records) {
  const int bits = info(form.d).bits;
  const int words = form.regs.d;
  std::vector<uint32_t> d(size_t(form.shape.m * form.shape.n), 0);
  for (int lane = 0; lane < 32; ++lane) {
    std::vector<uint32_t> registers(records + lane * words, records + (lane + 1) * words);
    std::vector<uint32_t> elements = unpack_registers(registers, bits);
    for (int i = 0; i < elements_per_lane(form, Operand::d); ++i) {
      MatrixCoord at = coord_of(form, Operand::d, lane, i);
      d[size_t(at.row * form.shape.n + at.col)] = elements[size_t(i)];
    }
  }
  return d;
}

}  // namespace mmasp
