// A compact test set (issue #71): a few cases of a form that detect every fault of its datapath's fault model that the
// run's streams detect, and those they miss where a targeted search finds a case (the discriminating search of
// judge/discriminating_search.h, with the fault as the alternative). Built by greedy compaction with fault dropping:
// the candidates (each fault's first detecting case, the searched cases) are tried, those that detected the most
// faults first, against the faults still left; a case is kept when it detects one of them.
//
// Each form's set is versioned on its own (schema mmasp-compact-set/1): a stream case by where the run's streams draw it (regenerated
// from seed and index, valid while the generators draw the same cases: the file keeps their identity), a searched
// case by its codes. `mmasp coverage --make-compact-set` writes them and `--compact-sets` reads them; `mmasp run
// --compact-sets` runs them at the head of the special suite.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "judge/discriminating_search.h"
#include "judge/fault_coverage.h"

namespace mmasp {

struct CompactCase {
  MmaCase test;
  std::string origin;  // "special #12", "random #40", "search for sum.bit31.sa0"
  // Where a stream case is drawn from (regenerated on load); empty stream: the codes are kept.
  std::string stream;  // "special", "random" or ""
  uint64_t seed = 0, index = 0;
};

struct CompactSet {
  const Form* form = nullptr;
  std::string arithmetic;  // whose datapath: "sm_90 verified model", or an --emulate description
  std::string generators;  // gen::case_streams_identity() when it was built
  std::vector<CompactCase> cases;
  uint64_t detectable = 0, detected = 0;
  std::vector<std::string> not_detected;  // fault ids no case was found for
};

struct CompactSetOptions {
  CoverageStream stream;        // the candidates' stream
  DiscriminatingSearch search;  // for each fault the stream misses
  unsigned threads = 1;
};

CompactSet build_compact_set(const Form& form, const ModelParameters* p, const CompactSetOptions& options);

// The set's cases for one selector (the datapath is the same for every selector; the registers differ).
std::vector<MmaCase> compact_cases(const CompactSet& set, int selector);

// A directory of compact sets: every *.json in it holds one set (schema mmasp-compact-set/1) or several
// (mmasp-compact-sets/1, {"sets": [...]}, what save_compact_sets writes: <directory>/compact-sets.json, every set a
// block, every case a line). load throws std::runtime_error naming what is wrong: a set made by other generators (its
// stream cases would be other cases), a form with two sets, a file that is not a set.
inline constexpr const char* kCompactSetsFile = "compact-sets.json";
void save_compact_sets(const std::map<const Form*, CompactSet>& sets, const std::filesystem::path& directory);
std::map<const Form*, CompactSet> load_compact_sets(const std::filesystem::path& directory);

}  // namespace mmasp
