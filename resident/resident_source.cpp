#include "resident/resident_source.h"

#include <cctype>
#include <sstream>

#include "generators/case_tables.h"
#include "oracle/target.h"

namespace mmasp {

std::string_view name(ResidentImage image) {
  switch (image) {
    case ResidentImage::sm90a_cubin: return "sm_90a cubin";
    case ResidentImage::compute89_ptx: return "compute_89 PTX";
    case ResidentImage::compute80_ptx: return "compute_80 PTX";
  }
  return "?";
}

std::string_view catalog_target(ResidentImage image) {
  switch (image) {
    case ResidentImage::sm90a_cubin: return "sm_90a";
    case ResidentImage::compute89_ptx: return "sm_89";
    case ResidentImage::compute80_ptx: return "sm_80";
  }
  return "sm_90a";
}

std::string_view nvcc_architecture(ResidentImage image) {
  switch (image) {
    case ResidentImage::sm90a_cubin: return "sm_90a";
    case ResidentImage::compute89_ptx: return "compute_89";
    case ResidentImage::compute80_ptx: return "compute_80";
  }
  return "sm_90a";
}

bool holds_specialised_kernels(ResidentImage image) { return image == ResidentImage::sm90a_cubin; }

bool has_resident_kernel(const Form& form, std::string* why, ResidentImage image) {
  const Target target = *find_target(catalog_target(image));
  if (!form.legal_on(target, form.version_for(target))) {
    if (why) *why = "not legal on " + target.name;
    return false;
  }
  return gen::portable_drawable(form, why);
}


namespace {

// "{%0, %1}" for operands first .. first+count-1.
std::string operand_list(int first, int count) {
  std::string out = "{";
  for (int i = 0; i < count; ++i) out += (i ? ", %" : "%") + std::to_string(first + i);
  return out + "}";
}

// The instruction's text with its operands: D, A, B, C, e; f32 registers as floats ("f"), the rest as .b32 ("r").
// `d`, `a`, ... name the C++ arrays the operands come from.
std::string instruction(const Form& form, int selector, const std::string& d, const std::string& a = "a") {
  const RegisterCounts& r = form.regs;
  const bool c_f32 = form.c == ElemType::f32, d_f32 = form.d == ElemType::f32;
  std::ostringstream cu;
  cu << "asm volatile(\"" << form.opcode << " " << operand_list(0, r.d) << ", " << operand_list(r.d, r.a) << ", "
     << operand_list(r.d + r.a, r.b) << ", " << operand_list(r.d + r.a + r.b, r.c) << ", %" << r.d + r.a + r.b + r.c
     << ", " << selector << ";\" : ";
  for (int i = 0; i < r.d; ++i) cu << (i ? ", " : "") << (d_f32 ? "\"=f\"(" : "\"=r\"(") << d << "[" << i << "])";
  cu << " : ";
  for (int i = 0; i < r.a; ++i) cu << (i ? ", " : "") << "\"r\"(" << a << "[" << i << "])";
  for (int i = 0; i < r.b; ++i) cu << ", \"r\"(b[" << i << "])";
  for (int i = 0; i < r.c; ++i) cu << ", " << (c_f32 ? "\"f\"(cf[" : "\"r\"(c[") << i << "])";
  cu << ", \"r\"(e));";
  return cu.str();
}

// Calls f(form, selector) for every form x selector with a resident kernel, in the instruction space's order.
template <class F>
void for_each_resident_pair(ResidentImage image, const F& f) {
  for (const Form& form : instruction_space()) {
    if (!has_resident_kernel(form, nullptr, image)) continue;
    for (int selector : form.selectors) f(form, selector);
  }
}


// Every kernel: its name (resident_source.h), its __launch_bounds__ (threads, blocks per multiprocessor), its variant
// of resident_cases (resident_kernel.cuh's KernelVariant) and whether it is one of the specialised kernels
// (holds_specialised_kernels). The general kernel's 128 threads are resident.cpp's kThreads. A kernel of one shape
// takes its launch with its dimensions as constants (FixedCaseDims; the same bytes).
struct KernelEntry {
  const char* name;
  unsigned threads, blocks;
  const char* variant;
  bool specialised;
  const gen::portable::CaseDims* dims = nullptr;
};
constexpr KernelEntry kKernelEntries[] = {
    {kResidentKernel, 128, 4, "kGeneralVariant", false},
    {kResidentLeanKernel, kResidentLeanThreads, 1, "kLeanVariant", false},
    {kResidentLean768Kernel, kResidentLean768Threads, 1, "kLeanVariant", true},
    {kResidentLeanDenseKernel, kResidentLeanThreads, 1, "kDenseVariant", true, &kResidentDenseDims},
    {kResidentLeanDense768Kernel, kResidentLean768Threads, 1, "kDenseVariant", true, &kResidentDenseDims},
    {kResidentLeanFp8Kernel, kResidentLeanFp8Threads, 1, "kFp8Variant", true, &kResidentFp8Dims},
    {kResidentLeanNarrowKernel, kResidentLeanThreads, 1, "kNarrowVariant", true},
    {kResidentLeanNarrowF16Kernel, kResidentLeanThreads, 1, "kNarrowF16Variant", true},
    {kResidentLeanK16Kernel, kResidentLeanThreads, 1, "kLeanVariant", true, &kResidentK16Dims},
    {kResidentLeanK16F16Kernel, kResidentLeanThreads, 1, "kF16Variant", true, &kResidentK16Dims}};

bool in_image(const KernelEntry& e, ResidentImage image) { return !e.specialised || holds_specialised_kernels(image); }

}  // namespace

std::vector<std::string> resident_kernel_names(ResidentImage image) {
  std::vector<std::string> out;
  for (const KernelEntry& e : kKernelEntries)
    if (in_image(e, image)) out.push_back(e.name);
  return out;
}

int resident_instruction_id(const Form& form, int selector) {
  const auto& space = instruction_space();
  return int(&form - space.data()) * kSelectorOperandValues + selector;
}

std::string resident_kernels_source(ResidentImage image) {
  std::ostringstream cu;
  cu << "// Generated by mmasp_resident_source from the instruction space: every form x selector's mma.sp, for the one\n"
     << "// GPU-resident kernels (resident/resident_kernel.cuh), image " << name(image) << ". Instruction ids:\n"
     << "// resident_instruction_id().\n"
     << "#include \"resident/resident_kernel.cuh\"\n\n"
     << "namespace mmasp::resident {\n\n"
     << "// One instruction on registers a, b, c (as words; f32 ones travel as floats) and e: of those `Admitted` admits\n"
     << "// (resident_abi.h's AdmittedForms), the others left out of the switch, so that a kernel of one shape\n"
     << "// searches only its own ids.\n"
     << "template <class Admitted>\n"
     << "__device__ __forceinline__ Registers form_mma_inline(uint32_t id, Registers a_in, Registers b_in, Registers c_in,\n"
     << "                                                     uint32_t e) {\n"
     << "  const uint32_t *a = a_in.r, *b = b_in.r, *c = c_in.r;\n"
     << "  Registers d_out = {};\n"
     << "  uint32_t* d = d_out.r;\n"
     << "  float cf[4], df[4];\n"
     << "  for (int i = 0; i < 4; ++i) cf[i] = __uint_as_float(c[i]);\n"
     << "  switch (id) {\n";
  for_each_resident_pair(image, [&](const Form& form, int selector) {
    const bool d_f32 = form.d == ElemType::f32;
    cu << "    case " << resident_instruction_id(form, selector) << ":  // " << form.opcode << " " << selector << "\n"
       << "      if constexpr (Admitted::admits(" << form.shape.m << ", " << form.shape.n << ", " << form.shape.k << ", "
       << (form.a == ElemType::f16 ? "true" : "false") << ")) {\n"
       << "        " << instruction(form, selector, d_f32 ? "df" : "d") << "\n";
    if (d_f32) cu << "        for (int i = 0; i < " << form.regs.d << "; ++i) d[i] = __float_as_uint(df[i]);\n";
    cu << "        return d_out;\n      }\n      break;\n";
  });
  cu << "  }\n  return d_out;\n}\n\n"
     << "__device__ __noinline__ Registers form_mma(uint32_t id, Registers a, Registers b, Registers c, uint32_t e) {\n"
     << "  return form_mma_inline<EveryForm>(id, a, b, c, e);\n}\n\n"
     << "// `rounds` x 4 independent instructions on the same registers: the bare issue rate. Returns the results folded.\n"
     << "__device__ __noinline__ uint32_t form_issue(uint32_t id, Registers a_in, Registers b_in, Registers c_in, uint32_t e,\n"
     << "                                            uint64_t rounds) {\n"
     << "  const uint32_t *a = a_in.r, *b = b_in.r, *c = c_in.r;\n"
     << "  float cf[4], d0f[4], d1f[4], d2f[4], d3f[4];\n"
     << "  uint32_t d0[4] = {}, d1[4] = {}, d2[4] = {}, d3[4] = {};\n"
     << "  for (int i = 0; i < 4; ++i) cf[i] = __uint_as_float(c[i]), d0f[i] = d1f[i] = d2f[i] = d3f[i] = 0;\n"
     << "  uint32_t fold = 0;\n"
     << "  switch (id) {\n";
  for_each_resident_pair(image, [&](const Form& form, int selector) {
    const bool d_f32 = form.d == ElemType::f32;
    // Each copy's A differs (its first word xor-ed with the round and the copy), so that ptxas can neither merge the
    // four instructions nor lift them out of the loop.
    cu << "    case " << resident_instruction_id(form, selector) << ":\n"
       << "      for (uint64_t round = 0; round < rounds; ++round) {\n";
    for (int copy = 0; copy < 4; ++copy) {
      const std::string a = "a" + std::to_string(copy);
      cu << "        const uint32_t " << a << "[4] = {a[0] ^ (uint32_t(round) * 4u + " << copy << "u), a[1], a[2], a[3]};\n"
         << "        " << instruction(form, selector, (d_f32 ? "d" + std::to_string(copy) + "f" : "d" + std::to_string(copy)), a) << "\n";
    }
    cu << "        for (int i = 0; i < " << form.regs.d << "; ++i) fold ^= "
       << (d_f32 ? "__float_as_uint(d0f[i]) ^ __float_as_uint(d1f[i]) ^ __float_as_uint(d2f[i]) ^ __float_as_uint(d3f[i]);\n"
                 : "d0[i] ^ d1[i] ^ d2[i] ^ d3[i];\n")
       << "      }\n      return fold;\n";
  });
  cu << "  }\n  return fold;\n}\n\n}  // namespace mmasp::resident\n";
  for (const KernelEntry& e : kKernelEntries) {
    if (!in_image(e, image)) continue;
    std::string launch = "mmasp::resident::Launch";
    if (e.dims)
      launch = "mmasp::resident::LaunchOf<mmasp::gen::portable::FixedCaseDims<mmasp::gen::portable::case_dims(" +
               std::to_string(e.dims->m) + "u, " + std::to_string(e.dims->n) + "u, " + std::to_string(e.dims->k) + "u, " +
               std::to_string(e.dims->chunk_width) + "u, " + std::to_string(e.dims->stored_per_chunk) + "u)>>";
    cu << "\nextern \"C\" __global__ void __launch_bounds__(" << e.threads << ", " << e.blocks << ")\n"
       << e.name << "(const __grid_constant__ " << launch << " launch) {\n"
       << "  mmasp::resident::resident_cases<mmasp::resident::" << e.variant << ">(launch);\n}\n";
  }
  return cu.str();
}

}  // namespace mmasp
