#include "judge/dense_comparison.h"

#include <algorithm>

#include "generators/bulk.h"
#include "generators/reproduction.h"
#include "generators/special_cases.h"
#include "generators/stream_salts.h"
#include "harness/dense_counterpart.h"

namespace mmasp {

std::optional<DenseComparison> compare_with_dense(Backend& sparse, CudaDevice& device, const Form& form, int selector,
                                                  uint64_t seed, uint64_t random_cases, unsigned threads,
                                                  const std::filesystem::path& save_dir) {
  const auto dense = dense_counterpart(form);
  if (!dense) return std::nullopt;
  std::vector<MmaCase> cases;
  for (auto& named : gen::special_value_cases(form, selector)) cases.push_back(std::move(named.test));
  gen::Options generator_options;
  generator_options.selector = selector;
  const gen::CaseSeeds seeds(seed ^ gen::salt::kCharacterizeDense, form);
  for (uint64_t i = 0; i < random_cases; ++i) {
    MmaCase test;
    gen::BulkGenerator(seeds.of(i)).next(form, test, generator_options);
    cases.push_back(std::move(test));
  }
  const auto target = target_for_sm(device.sm());
  DenseComparison out;
  out.dense = dense->opcode;
  out.cases = cases.size();
  size_t saved = 0;
  for (size_t first = 0; first < cases.size(); first += 8192) {
    const std::vector<MmaCase> batch(cases.begin() + long(first), cases.begin() + long(std::min(cases.size(), first + 8192)));
    const auto sparse_d = execute(sparse, form, selector, batch, threads);
    const auto dense_d = run_dense(device, form, batch, *target);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (sparse_d[i] == dense_d[i]) {
        ++out.identical;
        continue;
      }
      if (differs_only_by_unstored_specials(batch[i], sparse_d[i], dense_d[i])) {
        ++out.unstored_specials;
        continue;
      }
      if (saved >= 8) continue;   // the first few unexplained ones, each with both results
      ++saved;
      std::vector<std::string> dense_line = {"dense mma.sync D (row-major codes):"};
      for (uint32_t code : dense_d[i]) dense_line.back() += " " + std::to_string(code);
      const std::string repro = gen::save_failure(batch[i], std::span<const uint32_t>(sparse_d[i]),
                                                  sparse.description() + "; " + form.opcode + " selector " +
                                                      std::to_string(selector) + "; observed D is mma.sp's; dense mma.sync differs",
                                                  dense_line, save_dir, sparse.architecture());
      if (out.first_difference.empty()) out.first_difference = repro;
    }
  }
  return out;
}

}  // namespace mmasp
