// PTX emission: one complete module per (instruction, selector, target) whose kernel runs a batch of independent
// cases, one case per warp.
#pragma once

#include <string>

#include "oracle/instruction_space.h"
#include "oracle/target.h"

namespace mmasp {

// What the emitter needs to write one mma.sp instruction. Derived from a Form for legal code; the negative set
// builds illegal ones (wrong register counts, bad qualifiers) through the same structure.
struct InstructionText {
  std::string opcode;
  RegisterCounts regs;
  bool c_is_f32 = false;   // .f32 registers for C; otherwise .b32 (f16x2 pairs, s32)
  bool d_is_f32 = false;
  int selector = 0;
  bool block_scale = false;
  bool dense = false;      // a dense mma.sync: no metadata operand and no selector (the e word is still loaded)
};
InstructionText instruction_for(const Form& form, int selector);

// Where each operand sits in the per-lane input and output records of a batch buffer. Lane L of case W reads input
// words [(W*32+L)*input_words, +input_words) and writes output words likewise. Block-scale ids travel as two u16 in
// one word: byte-id in bits 15:0, thread-id in bits 31:16.
struct LaneRecordLayout {
  int a = 0, b = 0, c = 0, e = 0;              // word offsets into the input record
  int scale_a = -1, scale_b = -1;              // -1 when the form has no block scale
  int scale_ids_a = -1, scale_ids_b = -1;
  int input_words = 0;
  int output_words = 0;                        // D registers, in order
};
LaneRecordLayout lane_record_layout(const InstructionText& instruction);

inline constexpr const char* kKernelName = "mmasp_kernel";

// Kernel signature: mmasp_kernel(.u64 input, .u64 output, .u32 case_count). Blocks must be a multiple of 32 threads;
// warps past case_count return before the mma, so each warp either runs it whole or not at all.
std::string emit_module(const InstructionText& instruction, PtxVersion version, const Target& target);
// The module mmasp runs for one form and selector on a target: the form's instruction at the PTX version the target
// needs. The module store prepares, and the GPU backend loads, exactly this text.
std::string form_module(const Form& form, int selector, const Target& target);

}  // namespace mmasp
