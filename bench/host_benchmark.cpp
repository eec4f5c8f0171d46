// Where a case's host time goes on a GPU run, per family, on one core: drawing it, packing its registers into lane
// records, the exact reference, judging (which computes the reference again inside), and the bit-exact model (what
// the model tier runs on every case where the device has a verified model). `mmasp run` does all but
// the drawing on every host thread, so divide by the threads for the runner's ceiling.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "generators/bulk.h"
#include "harness/fragment_packing.h"
#include "oracle/classification.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"
#include "oracle/reference.h"

using namespace mmasp;


int main(int argc, char** argv) {
  size_t cases = 1024;
  int repeats = 3;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--cases") == 0) cases = std::max<size_t>(1, size_t(std::atol(argv[i + 1])));
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  std::printf("one core, best of %d passes over %zu cases per form; microseconds per case\n", repeats, cases);
  std::printf("%-6s %-26s %9s %9s %10s %9s %9s %14s %14s\n", "k", "types (a.b -> d)", "draw", "pack", "reference", "judge",
              "model", "judged cases/s", "model cases/s");
  std::set<std::string> seen;
  for (const auto& form : instruction_space()) {
    if (!seen.insert(form.family).second) continue;
    std::vector<MmaCase> batch(cases);
    const gen::CaseSeeds seeds(2026, form);
    const double draw = 1e6 / bench::best_rate(repeats, 0, cases, [&](size_t i) { gen::BulkGenerator(seeds.of(i)).next(form, batch[i]); });
    std::vector<uint32_t> records(case_record_words(form, batch[0].selector));
    const double pack = 1e6 / bench::best_rate(repeats, 0, cases, [&](size_t i) { pack_case_into(batch[i], records); });
    std::vector<std::vector<uint32_t>> d(cases);
    const double exact = 1e6 / bench::best_rate(repeats, 0, cases, [&](size_t i) {
      const ReferenceResult result = reference(batch[i]);
      d[i].resize(result.d.size());
      for (size_t e = 0; e < result.d.size(); ++e) d[i][e] = result.d[e].rounded_code;
    });
    size_t failures = 0;
    const double judging = 1e6 / bench::best_rate(repeats, 0, cases, [&](size_t i) { failures += is_failure(judge(batch[i], d[i]).status); });
    if (failures) std::printf("(%zu correctly rounded results judged failures: a bug)\n", failures);
    const auto parameters = verified_model(form, "sm_90");
    double model = 0;
    if (parameters)
      model = 1e6 / bench::best_rate(repeats, 0, cases, [&](size_t i) { d[i] = model_result(batch[i], *parameters); });
    const std::string types = std::string(ptx_name(form.a)) + "." + std::string(ptx_name(form.b)) + " -> " +
                              std::string(ptx_name(form.d)) + (form.block_scale ? " (scaled)" : "");
    std::printf("k%-5d %-26s %9.2f %9.2f %10.2f %9.2f %9s %14.0f %14s\n", form.shape.k, types.c_str(), draw, pack, exact,
                judging, parameters ? std::to_string(model).substr(0, 6).c_str() : "-", 1e6 / (pack + judging),
                parameters ? std::to_string(int(1e6 / (pack + model))).c_str() : "-");
  }
  return 0;
}
