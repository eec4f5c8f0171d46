// Catalog lookups and random sparse operands shared by the oracle's unit tests.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "oracle/instruction_space.h"
#include "oracle/mma_case.h"
#include "oracle/sparse.h"

namespace mmasp::test {

inline const Form& form_named(const std::string& opcode) {
  const Form* form = find_form(opcode);
  if (!form) throw std::logic_error("no form " + opcode);
  return *form;
}

inline std::vector<const Form*> forms_where(const std::function<bool(const Form&)>& keep) {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space())
    if (keep(form)) forms.push_back(&form);
  return forms;
}

// A random sparse A of the form (RapidCheck draws the kept positions): its dense values and chunk positions.
struct RandomSparse {
  std::vector<uint32_t> dense;
  std::vector<ChunkPositions> positions;
};

inline RandomSparse random_sparse_a(const Form& form, const std::function<uint32_t()>& element, uint32_t zero) {
  const int m = form.shape.m, k = form.shape.k;
  const int units = positions_per_chunk(form.sparsity), unit = elements_per_position(form.sparsity);
  RandomSparse out{std::vector<uint32_t>(size_t(m * k), zero), {}};
  for (int row = 0; row < m; ++row)
    for (int c = 0; c < k / form.chunk_width; ++c) {
      int first = *rc::gen::inRange(0, units), second = 0;
      if (stored_per_chunk(form.sparsity) == 2) {
        second = *rc::gen::suchThat(rc::gen::inRange(0, units), [first](int p) { return p != first; });
        if (form.variant == SpVariant::ordered_metadata && first > second) std::swap(first, second);
      }
      out.positions.push_back({first, second});
      for (int stored = 0; stored < stored_per_chunk(form.sparsity); ++stored)
        for (int e = 0; e < unit; ++e)
          out.dense[size_t(row * k + c * form.chunk_width + (stored ? second : first) * unit + e)] = element();
    }
  return out;
}

// A zero case of the form whose A is `a`, compressed.
inline MmaCase case_with_a(const Form& form, const RandomSparse& a) {
  MmaCase test = zero_case(form);
  SparseA sparse = compress(form, a.dense, a.positions);
  test.a_compressed = sparse.compressed;
  test.nibbles = sparse.nibbles;
  return test;
}

}  // namespace mmasp::test
