// Throughput of the bulk generator, one form per family: cases per second on one core, for `--seconds` each.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "generators/bulk.h"

using namespace mmasp;

int main(int argc, char** argv) {
  double seconds = 0.5;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
  std::printf("%-100s %14s %16s\n", "form (first of each family)", "cases/s", "elements/s");
  std::set<std::string> seen;
  double slowest = 1e300;
  for (const auto& form : instruction_space()) {
    if (!seen.insert(form.family).second) continue;
    gen::BulkGenerator generator(2026);
    MmaCase test;
    generator.next(form, test);  // builds the form's tables outside the timed loop
    uint64_t cases = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
      for (int i = 0; i < 256; ++i) generator.next(form, test);
      cases += 256;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const double elements = double(test.a_compressed.size() + test.b.size() + test.c.size() + test.scale_a.size() +
                                   test.scale_b.size() + test.metadata_noise.size());
    std::printf("%-100s %14.0f %16.3g\n", form.opcode.c_str(), cases / elapsed, cases * elements / elapsed);
    slowest = std::min(slowest, cases / elapsed);
  }
  std::printf("slowest family: %.0f cases/s (one core)\n", slowest);
  return 0;
}
