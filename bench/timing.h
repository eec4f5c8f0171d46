// Timing for the benchmarks: this thread's CPU time, best of several passes, because shared machines steal time in
// bursts.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstddef>

namespace mmasp::bench {

inline double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

// Calls step(0), step(1), ... until `seconds` of CPU time have passed (at least `count` calls a pass, when `count`
// is given instead), `repeats` times; returns the best calls per second.
template <class Step>
double best_rate(int repeats, double seconds, size_t count, Step&& step) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    size_t calls = 0;
    const double start = thread_seconds();
    double elapsed = 0;
    do {
      for (size_t i = 0; i < (count ? count : 256); ++i) step(calls + i);
      calls += count ? count : 256;
      elapsed = thread_seconds() - start;
    } while (!count && elapsed < seconds);
    best = std::max(best, double(calls) / elapsed);
  }
  return best;
}

}  // namespace mmasp::bench
