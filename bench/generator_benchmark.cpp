// Throughput of the bulk generator on one core, one form per family: cases per second and elements per second.
// Measured on this thread's CPU time, best of --repeats runs of --seconds each, because shared machines steal time
// in bursts. Two ways of drawing are timed: one stream (BulkGenerator::next, case after case) and one generator per
// case from its CaseSeeds (how `mmasp run` draws, so that any case can be regenerated alone). With --all, every
// form is timed too (seeded, shorter passes), and the slowest are listed.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/timing.h"
#include "generators/bulk.h"

using namespace mmasp;


// Cases per second drawing one generator per case from its CaseSeeds, as `mmasp run` does; `test` has been drawn
// once already, so the form's tables exist outside the timed loop.
double seeded_rate(const Form& form, MmaCase& test, int repeats, double seconds) {
  const gen::CaseSeeds seeds(2026, form);
  return bench::best_rate(repeats, seconds, 0, [&](size_t index) {
    gen::BulkGenerator one(seeds.of(index));
    one.next(form, test);
  });
}

int main(int argc, char** argv) {
  double seconds = 0.2;
  int repeats = 5;
  bool all_forms = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--all") == 0) all_forms = true;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  std::printf("best of %d x %.2f s of thread CPU time per form\n", repeats, seconds);
  std::printf("%-6s %-26s %9s %14s %14s %16s\n", "k", "types (a.b -> d)", "elements", "stream cases/s",
              "seeded cases/s", "elements/s");
  std::set<std::string> seen;
  double slowest = 1e300;
  std::string slowest_form;
  for (const auto& form : instruction_space()) {
    if (!seen.insert(form.family).second) continue;
    MmaCase test;
    gen::BulkGenerator warm(1);
    warm.next(form, test);  // builds the form's tables outside the timed loops
    const double elements = double(test.a_compressed.size() + test.b.size() + test.c.size() + test.scale_a.size() +
                                   test.scale_b.size() + test.metadata_noise.size() + test.nibbles.size());
    gen::BulkGenerator stream(2026);
    const double stream_rate = bench::best_rate(repeats, seconds, 0, [&](size_t) { stream.next(form, test); });
    const double seeded = seeded_rate(form, test, repeats, seconds);
    const std::string types = std::string(ptx_name(form.a)) + "." + std::string(ptx_name(form.b)) + " -> " +
                              std::string(ptx_name(form.d)) + (form.block_scale ? " (scaled)" : "");
    std::printf("k%-5d %-26s %9.0f %14.0f %14.0f %16.3g\n", form.shape.k, types.c_str(), elements, stream_rate,
                seeded, stream_rate * elements);
    if (seeded < slowest) {
      slowest = seeded;
      slowest_form = form.opcode;
    }
  }
  std::printf("slowest (seeded): %.0f cases/s, %s\n", slowest, slowest_form.c_str());
  if (!all_forms) return 0;

  std::vector<std::pair<double, std::string>> rates;
  for (const auto& form : instruction_space()) {
    MmaCase test;
    gen::BulkGenerator(1).next(form, test);
    rates.push_back({seeded_rate(form, test, repeats, seconds / 4), form.opcode});
  }
  std::sort(rates.begin(), rates.end());
  const size_t below_a_million =
      size_t(std::count_if(rates.begin(), rates.end(), [](const auto& rate) { return rate.first < 1e6; }));
  std::printf("every form (seeded, best of %d x %.2f s): %zu forms, %zu below 1,000,000 cases/s; slowest:\n", repeats,
              seconds / 4, rates.size(), below_a_million);
  for (size_t i = 0; i < std::min<size_t>(5, rates.size()); ++i)
    std::printf("  %9.0f  %s\n", rates[i].first, rates[i].second.c_str());
  return 0;
}
