#include "harness/sass.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <cctype>
#include <set>

#include "harness/ptxas.h"
#include "harness/temporary_files.h"
#include "oracle/instruction_space.h"

namespace fs = std::filesystem;

namespace mmasp {

std::optional<std::string> locate_cuobjdump() {
  std::vector<std::string> candidates;
  if (const char* explicit_path = std::getenv("MMASP_CUOBJDUMP")) candidates.push_back(explicit_path);
  if (const char* home = std::getenv("CUDA_HOME")) candidates.push_back(std::string(home) + "/bin/cuobjdump");
  candidates.push_back("/usr/local/cuda/bin/cuobjdump");
  candidates.push_back("cuobjdump");
  for (const auto& candidate : candidates) {
    CommandResult probe = run_tool({candidate, "--version"});
    if (probe.exit_code == 0) return candidate;
  }
  return std::nullopt;
}

SassSummary summarize_sass(const std::string& listing) {
  // Instruction lines look like "        /*0150*/                   HMMA.SP.16816.F32 R4, R4, R8, R12, R2, 0x0 ;"
  static const std::regex instruction(R"(/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*))");
  SassSummary summary;
  std::set<std::string> mma;
  for (std::sregex_iterator it(listing.begin(), listing.end(), instruction), end; it != end; ++it) {
    const std::string opcode = (*it)[1];
    ++summary.instruction_count;
    if (opcode.find("MMA") != std::string::npos) {
      mma.insert(opcode);
      if (opcode.find(".SP") != std::string::npos) summary.has_sparse_mma = true;
    }
  }
  summary.mma_instructions.assign(mma.begin(), mma.end());
  return summary;
}

std::string lowering_note(const Form& form, const SassSummary& sass) {
  auto upper = [](std::string_view text) {
    std::string out(text);
    for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string shape = std::to_string(form.shape.m) + std::to_string(form.shape.n) + std::to_string(form.shape.k);
  // The operand-type tags a native instruction carries: none for f16, the type for bf16/tf32/fp8/integers.
  std::vector<std::string> tags;
  if (form.a != ElemType::f16) tags.push_back("." + upper(ptx_name(form.a)));
  if (form.b != ElemType::f16 && form.b != form.a) tags.push_back("." + upper(ptx_name(form.b)));
  for (const auto& opcode : sass.mma_instructions) {
    bool native = opcode.find(".SP.") != std::string::npos && opcode.find("." + shape) != std::string::npos;
    for (const auto& tag : tags) native &= opcode.find(tag) != std::string::npos;
    if (form.a == ElemType::f16) native &= opcode.find("BF16") == std::string::npos && opcode.find("TF32") == std::string::npos;
    if (native) return "";
  }
  std::string found;
  for (const auto& opcode : sass.mma_instructions) found += (found.empty() ? "" : ", ") + opcode;
  return "emulated: lowers to " + (found.empty() ? std::string("no MMA instruction") : found) + " in " +
         std::to_string(sass.instruction_count) + " instructions, not a native m" + std::to_string(form.shape.m) + "n" +
         std::to_string(form.shape.n) + "k" + std::to_string(form.shape.k) + " " + std::string(ptx_name(form.a)) + " x " +
         std::string(ptx_name(form.b)) + " sparse MMA";
}

std::optional<SassSummary> disassemble(const std::string& cubin, std::string* why) {
  static const std::optional<std::string> tool = locate_cuobjdump();
  if (!tool) {
    if (why) *why = "no cuobjdump on this machine";
    return std::nullopt;
  }
  const std::string name = write_temporary_file(cubin, ".cubin").string();
  CommandResult result = run_tool({*tool, "-sass", name});
  fs::remove(name);
  if (result.exit_code != 0) {
    if (why) *why = "cuobjdump failed: " + result.output.substr(0, 300);
    return std::nullopt;
  }
  return summarize_sass(result.output);
}

}  // namespace mmasp
