// oracle/fragments: registers rebuild the case and the dense A.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "generators/bulk.h"
#include "oracle/fragments.h"
#include "oracle/layout.h"
#include "oracle/number_format.h"
#include "oracle/sparse.h"
#include "suites/test_forms.h"

namespace mmasp {
namespace {

using test::RandomSparse;
using test::random_sparse_a;
using test::case_with_a;

RC_GTEST_PROP(Fragments, RegistersRebuildTheCaseAndTheDenseA, ()) {
  const auto& forms = instruction_space();
  const Form& form = forms[*rc::gen::inRange<size_t>(0, forms.size())];
  const uint32_t a_mask = info(form.a).bits == 32 ? ~0u : (1u << info(form.a).bits) - 1;
  RandomSparse a = random_sparse_a(form, [&] { return *rc::gen::inRange<uint32_t>(1, a_mask) ; }, 0);
  MmaCase test = case_with_a(form, a);
  test.selector = *rc::gen::elementOf(form.selectors);
  auto codes = [](ElemType type) {
    const int bits = info(type).bits;
    return rc::gen::inRange<uint32_t>(0, bits == 32 ? ~0u : (1u << bits) - 1);
  };
  for (auto& code : test.b) code = *codes(form.b);
  for (auto& code : test.c) code = *codes(form.c);
  test.metadata_noise = *rc::gen::container<std::vector<uint32_t>>(32, rc::gen::arbitrary<uint32_t>());
  if (form.block_scale) {
    for (auto& code : test.scale_a) code = *rc::gen::inRange<uint32_t>(0, 0x7F);
    for (auto& code : test.scale_b) code = *rc::gen::inRange<uint32_t>(0, 0x7F);
    const int blocks = scale_blocks(form);
    test.scale_ids.byte_a = blocks == 4 ? 0 : blocks == 2 ? 2 * *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 4);
    test.scale_ids.byte_b = blocks == 4 ? 0 : blocks == 2 ? 2 * *rc::gen::inRange(0, 2) : *rc::gen::inRange(0, 4);
    test.scale_ids.thread_a = *rc::gen::inRange(0, 2);
    test.scale_ids.thread_b = *rc::gen::inRange(0, 4);
  }
  MmaCase back = from_registers(form, to_registers(test));
  RC_ASSERT(back.a_compressed == test.a_compressed);
  RC_ASSERT(back.nibbles == test.nibbles);
  RC_ASSERT(back.b == test.b);
  RC_ASSERT(back.c == test.c);
  RC_ASSERT(back.scale_a == test.scale_a);
  RC_ASSERT(back.scale_b == test.scale_b);
  RC_ASSERT(decompress(form, SparseA{back.a_compressed, back.nibbles}) == a.dense);
  // Lanes that hold metadata come back as zero noise; the others keep theirs.
  std::vector<bool> holds(32, false);
  for (const auto& cell : metadata_cells(form, test.selector)) holds[size_t(cell.lane)] = true;
  for (int lane = 0; lane < 32; ++lane)
    RC_ASSERT(back.metadata_noise[size_t(lane)] == (holds[size_t(lane)] ? 0u : test.metadata_noise[size_t(lane)]));
  std::vector<uint32_t> d(size_t(form.shape.m * form.shape.n));
  for (auto& code : d) code = *codes(form.d);
  RC_ASSERT(d_from_registers(form, d_to_registers(form, d)) == d);
  RC_TAG(std::string(name(form.sparsity)));
}

}  // namespace
}  // namespace mmasp
