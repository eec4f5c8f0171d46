#include "harness/fragment_packing.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mmasp {

namespace {

void pack_warp_into(const Form& form, const WarpRegisters& registers, std::span<uint32_t> destination) {
  const LaneRecordLayout layout = lane_record_layout(instruction_for(form, registers.selector));
  if (destination.size() != 32 * size_t(layout.input_words))
    throw std::logic_error("pack: a case's records need " + std::to_string(32 * layout.input_words) + " words, not " +
                           std::to_string(destination.size()));
  std::fill(destination.begin(), destination.end(), 0u);
  const ScaleIds& ids = registers.scale_ids;
  for (int lane = 0; lane < 32; ++lane) {
    uint32_t* record = destination.data() + size_t(lane) * size_t(layout.input_words);
    const LaneRegisters& r = registers.lanes[size_t(lane)];
    std::copy(r.a.begin(), r.a.end(), record + layout.a);
    std::copy(r.b.begin(), r.b.end(), record + layout.b);
    std::copy(r.c.begin(), r.c.end(), record + layout.c);
    record[layout.e] = r.e;
    if (layout.scale_a >= 0) {
      record[layout.scale_a] = r.scale_a;
      record[layout.scale_b] = r.scale_b;
      // Byte-id in bits 15:0, thread-id in bits 31:16 (LaneRecordLayout).
      record[layout.scale_ids_a] = uint32_t(ids.byte_a & 0xFFFF) | uint32_t(ids.thread_a) << 16;
      record[layout.scale_ids_b] = uint32_t(ids.byte_b & 0xFFFF) | uint32_t(ids.thread_b) << 16;
    }
  }
}

}  // namespace

size_t case_record_words(const Form& form, int selector) {
  return 32 * size_t(lane_record_layout(instruction_for(form, selector)).input_words);
}

void pack_case(const MmaCase& test, std::vector<uint32_t>& records) { pack_warp(*test.form, to_registers(test), records); }

void pack_case_into(const MmaCase& test, std::span<uint32_t> destination) {
  pack_warp_into(*test.form, to_registers(test), destination);
}

void pack_warp(const Form& form, const WarpRegisters& registers, std::vector<uint32_t>& records) {
  const size_t base = records.size();
  records.resize(base + case_record_words(form, registers.selector), 0);
  pack_warp_into(form, registers, std::span<uint32_t>(records.data() + base, records.size() - base));
}

WarpRegisters registers_from_records(const Form& form, int selector, const uint32_t* records) {
  const LaneRecordLayout layout = lane_record_layout(instruction_for(form, selector));
  WarpRegisters registers;
  registers.selector = selector;
  for (int lane = 0; lane < 32; ++lane) {
    const uint32_t* record = records + size_t(lane) * size_t(layout.input_words);
    LaneRegisters& r = registers.lanes[size_t(lane)];
    r.a.assign(record + layout.a, record + layout.a + form.regs.a);
    r.b.assign(record + layout.b, record + layout.b + form.regs.b);
    r.c.assign(record + layout.c, record + layout.c + form.regs.c);
    r.e = record[layout.e];
    if (layout.scale_a >= 0) {
      r.scale_a = record[layout.scale_a];
      r.scale_b = record[layout.scale_b];
      // Every lane passes the same ids (the instruction takes them as warp-uniform operands); lane 0's are used.
      if (lane == 0) {
        registers.scale_ids.byte_a = int(record[layout.scale_ids_a] & 0xFFFF);
        registers.scale_ids.thread_a = int(record[layout.scale_ids_a] >> 16);
        registers.scale_ids.byte_b = int(record[layout.scale_ids_b] & 0xFFFF);
        registers.scale_ids.thread_b = int(record[layout.scale_ids_b] >> 16);
      }
    }
  }
  return registers;
}

std::vector<uint32_t> unpack_d(const Form& form, const uint32_t* output_records) {
  return d_from_registers(form, std::span<const uint32_t>(output_records, size_t(32 * form.regs.d)));
}

void pack_d(const Form& form, std::span<const uint32_t> d, uint32_t* output_records) {
  std::vector<uint32_t> registers = d_to_registers(form, d);
  std::copy(registers.begin(), registers.end(), output_records);
}

}  // namespace mmasp
