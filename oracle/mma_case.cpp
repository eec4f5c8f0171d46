#include "oracle/mma_case.h"

#include <algorithm>
#include <stdexcept>

#include "oracle/number_format.h"
#include "oracle/sparse.h"

namespace mmasp {

std::vector<int> valid_byte_ids(const Form& form) {
  switch (form.scale_vec) {
    case ScaleVec::x1: return {0, 1, 2, 3};
    case ScaleVec::x2: return {0, 2};
    case ScaleVec::x4: return {0};
    case ScaleVec::none: break;
  }
  return {};
}

int scale_blocks(const Form& form) { return form.block_scale ? scale_vec_columns(form.scale_vec) : 0; }

int scale_block_width(const Form& form) {
  if (!form.block_scale) return form.shape.k;
  return form.shape.k / scale_blocks(form);
}

int logical_column(const Form& form, const uint32_t* row_nibbles, int stored) {
  const int unit = elements_per_position(form.sparsity);
  const int per_chunk = stored_per_chunk(form.sparsity) * unit;  // stored elements per chunk
  const int chunk = stored / per_chunk;
  const int within = stored % per_chunk;
  ChunkPositions where = positions_of(form.sparsity, row_nibbles[chunk]);
  const int position = within / unit == 0 ? where.first : where.second;
  return chunk * form.chunk_width + position * unit + within % unit;
}

void check_shape(const MmaCase& test) {
  if (!test.form) throw std::invalid_argument("case has no form");
  const Form& form = *test.form;
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  auto expect = [](const std::vector<uint32_t>& v, int size, const char* what) {
    if (v.size() != size_t(size))
      throw std::invalid_argument(std::string(what) + " has " + std::to_string(v.size()) + " elements, the form needs " +
                                  std::to_string(size));
  };
  expect(test.a_compressed, m * k / 2, "compressed A");
  expect(test.nibbles, m * k / form.chunk_width, "metadata");
  expect(test.b, k * n, "B");
  expect(test.c, m * n, "C");
  expect(test.scale_a, m * scale_blocks(form), "scale_a");
  expect(test.scale_b, scale_blocks(form) * n, "scale_b");
  if (!test.metadata_noise.empty()) expect(test.metadata_noise, 32, "metadata_noise");
}

std::vector<std::string> undefined_behaviour(const MmaCase& test) {
  check_shape(test);
  const Form& form = *test.form;
  std::vector<std::string> reasons;
  if (std::find(form.selectors.begin(), form.selectors.end(), test.selector) == form.selectors.end())
    reasons.push_back("sparsity selector " + std::to_string(test.selector) + " is outside the form's range (9.7.14.6.1)");
  const int chunks = form.shape.k / form.chunk_width;
  for (size_t i = 0; i < test.nibbles.size(); ++i) {
    if (defined_for(form.variant, form.sparsity, test.nibbles[i])) continue;
    const bool unordered = validity(form.sparsity, test.nibbles[i]) == MetadataValidity::unordered;
    reasons.push_back("metadata of row " + std::to_string(i / size_t(chunks)) + " chunk " + std::to_string(i % size_t(chunks)) +
                      (unordered ? " is not in increasing order under ::ordered_metadata (9.7.14.6.3)"
                                 : " is an undefined index value (9.7.14.6.1)"));
  }
  if (form.block_scale) {
    const std::vector<int> bytes = valid_byte_ids(form);
    auto byte_ok = [&](int id) { return std::find(bytes.begin(), bytes.end(), id) != bytes.end(); };
    if (!byte_ok(test.scale_ids.byte_a)) reasons.push_back("byte-id-a is out of range for the scale vector size");
    if (!byte_ok(test.scale_ids.byte_b)) reasons.push_back("byte-id-b is out of range for the scale vector size");
    if (test.scale_ids.thread_a < 0 || test.scale_ids.thread_a >= kThreadIdsA) reasons.push_back("thread-id-a is not 0 or 1");
    if (test.scale_ids.thread_b < 0 || test.scale_ids.thread_b >= kThreadIdsB) reasons.push_back("thread-id-b is not 0..3");
    for (uint32_t code : test.scale_a)
      if (!decode(*form.stype, code)) { reasons.push_back("a scale_a code is not a " + std::string(ptx_name(*form.stype)) + " value"); break; }
    for (uint32_t code : test.scale_b)
      if (!decode(*form.stype, code)) { reasons.push_back("a scale_b code is not a " + std::string(ptx_name(*form.stype)) + " value"); break; }
  }
  return reasons;
}

MmaCase zero_case(const Form& form) {
  MmaCase test;
  test.form = &form;
  test.selector = form.selectors.front();
  const int m = form.shape.m, n = form.shape.n, k = form.shape.k;
  test.a_compressed.assign(size_t(m * k / 2), 0);
  test.nibbles.assign(size_t(m * k / form.chunk_width), nibble_of(form.sparsity, {0, 1}));
  test.b.assign(size_t(k * n), 0);
  test.c.assign(size_t(m * n), 0);
  if (form.block_scale) {
    const uint32_t one = *encode(*form.stype, 1.0);
    test.scale_a.assign(size_t(m * scale_blocks(form)), one);
    test.scale_b.assign(size_t(scale_blocks(form) * n), one);
  }
  return test;
}

}  // namespace mmasp
