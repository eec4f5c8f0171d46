#include "oracle/layout.h"

#include <algorithm>

#include <stdexcept>

#include "oracle/mma_case.h"
#include "oracle/verified_layouts.h"

namespace mmasp {
namespace {



// Elements per .b32 register.
int per_register(const Form& form, Operand operand) { return 32 / container_bits(form, operand); }

}  // namespace

int container_bits(const Form& form, Operand operand) {
  switch (operand) {
    case Operand::a_compressed: return form.a_container_bits;
    case Operand::b: return form.b_container_bits;
    case Operand::c: return info(form.c).bits;
    case Operand::d: return info(form.d).bits;
  }
  return 32;
}

int rows_of(const Form& form, Operand operand) { return operand == Operand::b ? form.shape.k : form.shape.m; }

int cols_of(const Form& form, Operand operand) {
  switch (operand) {
    case Operand::a_compressed: return form.shape.k / 2;
    case Operand::b: return form.shape.n;
    default: return form.shape.n;
  }
}

int elements_per_lane(const Form& form, Operand operand) {
  return rows_of(form, operand) * cols_of(form, operand) / kWarpLanes;
}

FragmentSlot slot_of(const Form& form, Operand operand, int index, int lane) {
  const int pe = per_register(form, operand);
  return {lane, index / pe, index % pe};
}

MatrixCoord coord_of(const Form& form, Operand operand, int lane, int index) {
  const int group = lane >> 2;            // groupID
  const int thread_in_group = lane % 4;   // threadID_in_group
  const int pe = per_register(form, operand);
  const int reg = index / pe, slot = index % pe;
  switch (operand) {
    case Operand::a_compressed:
      // 9.7.14.6.2.1-8, A: "row = groupID for a0..(first half of each register pair), groupID + 8 otherwise;
      // firstcol = threadID_in_group * chunk ... + K/2 for the upper registers". In compressed columns the same
      // statement is: register r holds row g + 8*(r&1), columns PE*t + 4*PE*(r>>1) + slot.
      return {group + 8 * (reg & 1), pe * thread_in_group + 4 * pe * (reg >> 1) + slot};
    case Operand::b:
      // 9.7.14.5.x (dense B, which 9.7.14.6.2 reuses) and Figures 121/124/132-135/142-145: column groupID,
      // row PE*t + 4*PE*r + slot.
      return {pe * thread_in_group + 4 * pe * reg + slot, group};
    case Operand::c:
    case Operand::d: {
      // 9.7.14.5.8/.10 (C/D of m16n8kX, which 9.7.14.6.2 reuses): element i at row g + 8*(i>>1), col 2t + (i&1).
      return {group + 8 * (index >> 1), 2 * thread_in_group + (index & 1)};
    }
  }
  throw std::logic_error("coord_of: bad operand");
}

std::vector<MetadataCell> metadata_cells(const Form& form, int selector) {
  // 9.7.14.6.1: 1, 2 or 4 lanes of each group of four hold metadata; the selector picks which.
  const int lanes_per_group = 4 / int(form.selectors.size());
  // The selector operand is an immediate 0..3 (9.7.14.6.1); a value beyond it (a hand-written undefined-behaviour case)
  // names no lane.
  if (selector < 0 || selector >= kSelectorOperandValues) return {};
  // 9.7.14.6.2 metadata figures (119/122/125/127: 16- and 32-bit types; 129/136-137/139/146-147: 8- and 4-bit types):
  // for 16/32-bit A each lane's register holds two rows (bits 15..0 row g, 31..16 row g+8) and the lanes of a pair
  // split K; for 8/4-bit A each lane's whole register is one row, the odd lane of a pair holding row g+8, and lanes 2-3
  // of a group of four the upper half of K.
  const bool wide_elements = form.a_container_bits >= 16;
  std::vector<MetadataCell> cells;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const int group = lane >> 2, thread_in_group = lane % 4;
    const int h = thread_in_group - lanes_per_group * selector;
    if (h < 0 || h >= lanes_per_group) continue;
    for (int nibble = 0; nibble < 8; ++nibble) {
      MetadataCell cell{lane, nibble, 0, 0};
      if (wide_elements) {
        cell.row = group + 8 * (nibble >> 2);
        cell.chunk = 4 * h + (nibble & 3);
      } else {
        cell.row = group + 8 * (h & 1);
        cell.chunk = 8 * (h >> 1) + nibble;
      }
      cells.push_back(cell);
    }
  }
  return cells;
}

std::vector<ScaleCell> scale_cells(const Form& form, Operand operand, const ScaleIds& ids) {
  if (!form.block_scale) return {};
  const int blocks = scale_blocks(form);
  // 9.7.14.3: with 1X the byte byte-id holds the one scale, with 2X bytes byte-id and byte-id+1, with 4X all four
  // bytes; which byte goes with which K-block (lower byte, lower block) is inferred (spec-supplement 3.3).
  // Ids are any int in a case file; clamped far outside every range first, so that the sums below cannot overflow
  // and an id out of range stays out of range.
  const auto clamped = [](int id) { return std::clamp(id, -64, 64); };
  auto byte_for = [&](int byte_id, int block) { return blocks == 4 ? block : clamped(byte_id) + block; };
  std::vector<ScaleCell> cells;
  // Ids outside their range (thread-id-a beyond 0..1, thread-id-b beyond 0..3) are undefined behaviour (9.7.14.3) and
  // can name lanes outside the warp: such a cell has no place in any register, like a byte id beyond 0..3.
  const auto add = [&](ScaleCell cell) {
    if (cell.lane >= 0 && cell.lane < kWarpLanes) cells.push_back(cell);
  };
  if (operand == Operand::a_compressed) {
    // Rows g and g+8 come from the pair of lanes 2*thread-id-a, 2*thread-id-a+1 of each quad: row g from the even
    // lane, g+8 from the odd one (spec-supplement 3.3: PTX figure for the pair, CuTe SFALayout for the order).
    for (int row = 0; row < form.shape.m; ++row)
      for (int block = 0; block < blocks; ++block)
        add({4 * (row % 8) + 2 * clamped(ids.thread_a) + row / 8, byte_for(ids.byte_a, block), row, block});
  } else if (operand == Operand::b) {
    // Column n comes from lane 4n + thread-id-b.
    for (int col = 0; col < form.shape.n; ++col)
      for (int block = 0; block < blocks; ++block)
        add({4 * col + clamped(ids.thread_b), byte_for(ids.byte_b, block), col, block});
  } else {
    throw std::invalid_argument("scale_cells: only A and B have scales");
  }
  return cells;
}

LayoutEvidence layout_evidence(const Form& form) {
  const LayoutVerificationRecord& record = layout_verification_record();
  for (const auto& opcode : record.forms)
    if (opcode == form.opcode)
      return {true, "PTX ISA 9.7.14.6.2 formulas, confirmed by layout discovery on " + record.device + " (" +
                        record.evidence + ")"};
  return {false, "PTX ISA 9.7.14.6.2 formulas and figures (not confirmed "
                 "on hardware: no device that runs this form has been probed)"};
}

}  // namespace mmasp
