#include "run/pair_coverage.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "generators/bulk.h"
#include "harness/ptxas.h"
#include "harness/sha256.h"
#include "mmasp_commit.h"
#include "oracle/output_file.h"

namespace mmasp {
// The cache entry's JSON (found by argument-dependent lookup, so in CoverageSummary's namespace).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CoverageSummary, faults, detectable, detected, cases, stream, not_detected,
                                   undetectable, transients, transients_changed)
}  // namespace mmasp

namespace mmasp::run {
namespace {

using nlohmann::json;

// Everything the coverage depends on, as text: the build (its commit: the fault model's code), the pair, the stream,
// the generators and the arithmetic.
constexpr const char* kFaultModelVersion = "fault-model/1";

std::string cache_key(const Form& form, int selector, const ModelParameters* p, const CoverageStream& stream) {
  std::ostringstream key;
  key << kFaultModelVersion << "|" << MMASP_GIT_COMMIT << "|" << form.opcode << "|" << selector << "|" << stream.seed
      << "|" << stream.special << "|" << stream.special_generated << "|" << stream.random_first << "|"
      << stream.random_cases << "|" << gen::case_streams_identity() << "|" << (p ? p->str() : "integer");
  for (const MmaCase& test : stream.files) {
    for (const auto* codes : {&test.a_compressed, &test.nibbles, &test.b, &test.c})
      for (uint32_t code : *codes) key << "," << code;
    key << ";";
  }
  return sha256_hex(key.str());
}

// A cached entry, checked as it is read: a damaged one is computed again.
std::optional<CoverageSummary> cached_summary(const json& j) {
  try {
    const CoverageSummary c = j.get<CoverageSummary>();
    if (c.detected > c.detectable || c.detectable > c.faults) return std::nullopt;
    return c;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::filesystem::path default_coverage_cache_dir() {
  return default_ptxas_cache_dir().parent_path() / "coverage";
}

CoverageSummary pair_coverage(const Form& form, int selector, const ModelParameters* p, const CoverageStream& stream,
                              unsigned threads, const std::filesystem::path& cache_dir) {
  std::string text = stream.files.empty() ? "" : "the compact set (" + std::to_string(stream.files.size()) + ")";
  const auto then = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
  if (stream.special) then("the special suite (" + std::to_string(stream.special_generated) + " generated)");
  if (stream.random_cases)
    then("random cases #" + std::to_string(stream.random_first) + " to #" +
         std::to_string(stream.random_first + stream.random_cases - 1));
  std::filesystem::path entry;
  if (!cache_dir.empty()) {
    entry = cache_dir / (cache_key(form, selector, p, stream) + ".json");
    std::ifstream in(entry);
    if (in) {
      const json j = json::parse(in, nullptr, false);
      if (!j.is_discarded())
        if (auto cached = cached_summary(j)) return *cached;
    }
  }
  CoverageSummary summary = summarize(fault_coverage(form, selector, p, stream, threads), text);
  if (!entry.empty()) {
    std::error_code error;
    std::filesystem::create_directories(cache_dir, error);
    try {
      write_file_atomically(entry, json(summary).dump() + "\n");
    } catch (const std::exception&) {
      // A cache that cannot be written costs the next run the simulation, nothing else.
    }
  }
  return summary;
}

}  // namespace mmasp::run
