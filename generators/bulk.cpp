#include "generators/bulk.h"

#include <cstdio>

#include "generators/special_cases.h"

namespace mmasp::gen {

CaseSeeds::CaseSeeds(uint64_t seed, const Form& form) {
  // FNV-1a of the opcode, mixed with the seed and index through one SplitMix step each.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : form.opcode) hash = (hash ^ uint8_t(c)) * 0x100000001b3ull;
  base_ = SplitMixDraw::mix(seed ^ hash);
}

uint64_t CaseSeeds::of(uint64_t index) const { return SplitMixDraw::mix(base_ + index * SplitMixDraw::kGamma); }

uint64_t case_seed(uint64_t seed, const Form& form, uint64_t index) { return CaseSeeds(seed, form).of(index); }

}  // namespace mmasp::gen

namespace mmasp::gen {
namespace {

struct Digest {
  uint64_t value = 0xcbf29ce484222325ull;
  void mix(uint64_t v) { value = (value ^ v) * 0x100000001b3ull; }
  void mix(const MmaCase& test) {
    mix(uint64_t(test.selector));
    for (const auto* codes : {&test.nibbles, &test.a_compressed, &test.b, &test.c, &test.scale_a, &test.scale_b,
                              &test.metadata_noise}) {
      mix(codes->size());
      for (uint32_t code : *codes) mix(code);
    }
    mix(uint64_t(test.scale_ids.byte_a) << 24 | uint64_t(test.scale_ids.thread_a) << 16 |
        uint64_t(test.scale_ids.byte_b) << 8 | uint64_t(test.scale_ids.thread_b));
  }
};

}  // namespace

uint64_t case_stream_digest(const Form& form, uint64_t seed, int cases) {
  Digest digest;
  const CaseSeeds seeds(seed, form);
  MmaCase test;
  for (int index = 0; index < cases; ++index) {
    BulkGenerator(seeds.of(uint64_t(index))).next(form, test);
    digest.mix(test);
  }
  return digest.value;
}

std::string case_streams_identity() {
  static const std::string identity = [] {
    Digest digest;
    for (const auto& form : instruction_space()) {
      digest.mix(case_stream_digest(form, 1, 4));
      for (const auto& named : special_value_cases(form, form.selectors.front())) {
        for (char c : named.name) digest.mix(uint8_t(c));
        digest.mix(named.test);
      }
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest.value));
    return std::string(text);
  }();
  return identity;
}

}  // namespace mmasp::gen
