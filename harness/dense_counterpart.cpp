#include "harness/dense_counterpart.h"

#include <stdexcept>

#include "harness/fragment_packing.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {

std::optional<InstructionText> dense_counterpart(const Form& form) {
  const bool half = (form.family == "f16" || form.family == "bf16") && form.shape.k == 16;
  const bool tf32 = form.family == "tf32" && form.shape.k == 8;
  if (!half && !tf32) return std::nullopt;
  InstructionText text = instruction_for(form, 0);
  text.opcode = "mma.sync.aligned." + form.shape.str() + ".row.col." + std::string(ptx_name(form.d)) + "." +
                std::string(ptx_name(form.a)) + "." + std::string(ptx_name(form.b)) + "." + std::string(ptx_name(form.c));
  text.regs.a = form.regs.a * 2;   // K columns instead of K/2
  text.dense = true;
  text.selector = 0;
  return text;
}

std::vector<uint32_t> dense_records(const Form& form, const std::vector<MmaCase>& cases) {
  const InstructionText text = *dense_counterpart(form);
  const LaneRecordLayout dense = lane_record_layout(text);
  const LaneRecordLayout sparse = lane_record_layout(instruction_for(form, 0));
  const int m = form.shape.m, k = form.shape.k;
  const int bits = form.a_container_bits, per_register = 32 / bits;
  std::vector<uint32_t> records;
  records.reserve(cases.size() * 32 * size_t(dense.input_words));
  for (const MmaCase& test : cases) {
    std::vector<uint32_t> packed;
    pack_case(test, packed);   // the sparse records: B and C are laid out as the dense instruction reads them
    const std::vector<uint32_t> a = decompress(form, SparseA{test.a_compressed, test.nibbles}, 0);
    for (int lane = 0; lane < 32; ++lane) {
      std::vector<uint32_t> record(size_t(dense.input_words), 0);
      // The compressed-A map of oracle/layout.h does not depend on K: over twice the registers it is the dense A.
      for (int index = 0; index < text.regs.a * per_register; ++index) {
        const MatrixCoord at = coord_of(form, Operand::a_compressed, lane, index);
        if (at.row >= m || at.col >= k) throw std::logic_error("dense A layout out of range");
        const uint32_t code = a[size_t(at.row * k + at.col)];
        const int q = index % per_register;
        record[size_t(dense.a + index / per_register)] |= bits == 32 ? code : code << (bits * q);
      }
      const uint32_t* from = packed.data() + size_t(lane) * size_t(sparse.input_words);
      for (int r = 0; r < text.regs.b; ++r) record[size_t(dense.b + r)] = from[sparse.b + r];
      for (int r = 0; r < text.regs.c; ++r) record[size_t(dense.c + r)] = from[sparse.c + r];
      records.insert(records.end(), record.begin(), record.end());
    }
  }
  return records;
}

bool differs_only_by_unstored_specials(const MmaCase& test, const std::vector<uint32_t>& sparse_d,
                                       const std::vector<uint32_t>& dense_d) {
  const Form& form = *test.form;
  const int n = form.shape.n, k = form.shape.k;
  const std::vector<uint32_t> a = decompress(form, SparseA{test.a_compressed, test.nibbles}, 0);
  std::vector<int> stored_column(size_t(form.shape.m * k), 0);
  for (int i = 0; i < form.shape.m; ++i)
    for (int s = 0; s < k / 2; ++s)
      stored_column[size_t(i * k + logical_column(form, test.nibbles.data() + size_t(i * (k / form.chunk_width)), s))] = 1;
  for (size_t e = 0; e < dense_d.size(); ++e) {
    if (dense_d[e] == sparse_d[e]) continue;
    const auto value = decode(form.d, dense_d[e]);
    if (!value || value->cls != FloatClass::nan) return false;
    const int i = int(e) / n, j = int(e) % n;
    bool special = false;
    for (int col = 0; col < k && !special; ++col) {
      if (stored_column[size_t(i * k + col)]) continue;
      const auto b = decode(form.b, test.b[size_t(col * n + j)]);
      special = b && (b->cls == FloatClass::nan || b->cls == FloatClass::infinite);
    }
    if (!special) return false;
  }
  return true;
}

std::vector<std::vector<uint32_t>> run_dense(CudaDevice& device, const Form& form, const std::vector<MmaCase>& cases,
                                             const Target& target) {
  const auto text = dense_counterpart(form);
  if (!text) throw std::invalid_argument("no dense counterpart for " + form.opcode);
  // Dense mma.sync of these shapes needs PTX 6.4 (f16), 7.0 (bf16, tf32); the target's own version covers them.
  const std::string ptx = emit_module(*text, form.version_for(target), target);
  auto module = device.load_cubin(device.jit_cubin(ptx));
  const std::vector<uint32_t> output = device.run(*module, dense_records(form, cases), form.regs.d, uint32_t(cases.size()));
  std::vector<std::vector<uint32_t>> d(cases.size());
  const size_t words = 32 * size_t(form.regs.d);
  for (size_t i = 0; i < cases.size(); ++i) d[i] = unpack_d(form, output.data() + i * words);
  return d;
}

}  // namespace mmasp
