// The salts that give each use of a run's seed its own case stream, said once. A stream is the seed XOR its salt (the
// suites also add the selector times the golden-ratio constant), so two uses of one seed never draw the same cases,
// and a case saved by any of them is regenerated from (seed, salt, form, index). Changing a value changes the cases
// of that stream: the pinned digests of the generator tests (and case_streams_identity) say so.
#pragma once

#include <cstdint>

namespace mmasp::gen::salt {

inline constexpr uint64_t kRandomSuite = 0;                  // mmasp run, random suite
inline constexpr uint64_t kSpecialSuite = 0x5bec1a1;         // mmasp run, generated special-value cases
inline constexpr uint64_t kUndefinedSuite = 0xdefec7;        // mmasp run, undefined-behaviour suite
inline constexpr uint64_t kOutOfRangeSelector = 0x5e1ec7;    // out-of-range selector probes (+ the selector value)
inline constexpr uint64_t kCompilePaths = 0xc0de;            // toolkit vs driver-JIT comparison
inline constexpr uint64_t kCharacterizeProbes = 0x6d6f64656cull;   // mmasp characterize's random check ("model")
inline constexpr uint64_t kCharacterizeDense = 0xde45e;      // mmasp characterize's dense mma.sync comparison
inline constexpr uint64_t kDiscriminating = 0xd15c;          // mmasp characterize's search for discriminating inputs

}  // namespace mmasp::gen::salt
