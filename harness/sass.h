// What each form lowers to in machine code: the SASS of a module, disassembled with the toolkit's cuobjdump where
// one exists (GPU runners have it). Forms whose module holds no sparse MMA instruction are reported as such.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mmasp {

struct SassSummary {
  std::vector<std::string> mma_instructions;  // distinct MMA-family opcodes with modifiers, e.g. "HMMA.SP.16816.F32"
  int instruction_count = 0;                  // all instructions of the kernel
  bool has_sparse_mma = false;                // an MMA opcode with .SP
};

// cuobjdump from $MMASP_CUOBJDUMP, $CUDA_HOME/bin, /usr/local/cuda/bin or PATH; nullopt when none runs.
std::optional<std::string> locate_cuobjdump();

// Disassembles a cubin. nullopt (with `why`) when cuobjdump is missing or fails.
std::optional<SassSummary> disassemble(const std::string& cubin, std::string* why);

// Whether the MMA instruction is the form's own (shape and operand types in the opcode, e.g. IMMA.SP.16832.S8.U8
// for s8 x u8 m16n8k32) or the form is emulated through another one (e4m3 through HMMA, u4 through IMMA.U8).
// Empty when native, else what was found.
struct Form;
std::string lowering_note(const Form& form, const SassSummary& sass);

// Parses cuobjdump -sass output (exposed for tests).
SassSummary summarize_sass(const std::string& listing);

}  // namespace mmasp
