// A compact test set (issue #71): a few cases of a form that detect every fault of its datapath's fault model that the
// run's streams detect, and those they miss where a targeted search finds a case (the discriminating search of
// judge/discriminating_search.h, with the fault as the alternative). Built by greedy compaction with fault dropping:
// the candidates (each fault's first detecting case, the searched cases) are tried, those that detected the most
// faults first, against the faults still left; a case is kept when it detects one of them.
//
// A set is saved per form (schema mmasp-compact-set/1): a stream case by where the run's streams draw it (regenerated
// from seed and index, valid while the generators draw the same cases: the file keeps their identity), a searched
// case by its codes. `mmasp coverage --make-compact-set` writes them and `--compact-sets` reads them; `mmasp run
// --compact-sets` runs them at the head of the special suite.
#pragma once

#include <cstdint>
#include <filesystem>
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

// <directory>/<file name of the form>; load throws std::runtime_error naming what is wrong (another generator
// identity: the stream cases would be other cases).
std::string compact_set_file_name(const Form& form);
void save_compact_set(const CompactSet& set, const std::filesystem::path& directory);
CompactSet load_compact_set(const std::filesystem::path& file);
// The set of `form` in `directory`, if there is one.
std::optional<CompactSet> find_compact_set(const std::filesystem::path& directory, const Form& form);

}  // namespace mmasp
