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

// Parses cuobjdump -sass output (exposed for tests).
SassSummary summarize_sass(const std::string& listing);

}  // namespace mmasp
