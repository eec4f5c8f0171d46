// The fault coverage of a pair's stream for the run's reports (judge/fault_coverage.h): the compact set, the special
// suite and the first random cases of the stream the run drew. It depends only on what the stream and the datapath
// are, so it is kept in a cache (<cache>/coverage, beside the ptxas cache) keyed by all of it: the first run after a
// change of mmasp, seed or model pays the simulation, later runs read it.
#pragma once

#include <filesystem>
#include <optional>

#include "judge/fault_coverage.h"

namespace mmasp::run {

// The random cases whose coverage a run reports at most: every fault the streams detect is detected in far fewer.
inline constexpr uint64_t kCoverageRandomCases = 10000;

// `cache_dir` empty: no cache.
CoverageSummary pair_coverage(const Form& form, int selector, const ModelParameters* p, const CoverageStream& stream,
                              unsigned threads, const std::filesystem::path& cache_dir);
std::filesystem::path default_coverage_cache_dir();

}  // namespace mmasp::run
