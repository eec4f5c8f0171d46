// `mmasp merge RUN.json...`: the shards of one run (mmasp run --shard i/n on several machines, a CI matrix or a Slurm
// array) as one RunRecord, ordered as the unsharded run orders its results, so that one report and one JUnit file
// cover them all. Shards must be of the same work: the same seed, case streams, options that decide results and mmasp
// commit; their result ids must not overlap.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "reports/run_record.h"

namespace mmasp {

struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `names` name the shards in errors (their files). When the shards are i/n for every i of one n, the merged run's
// shard is "1/1": it is the whole run; otherwise it is "merged K of N" and `missing` (when given) names the shards that
// are not there, so that `mmasp merge` can refuse to call an incomplete set a run (exit 1 unless --partial).
RunRecord merge_runs(const std::vector<RunRecord>& shards, const std::vector<std::string>& names,
                     std::vector<int>* missing = nullptr);

}  // namespace mmasp
