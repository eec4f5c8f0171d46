// `mmasp merge`: the shards of one run (mmasp run --shard i/n) as one run — run.json and every report. A set that
// lacks some shards is not the whole run: exit 1, unless --partial.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "reports/merge.h"
#include "reports/run_report.h"
#include "run/folder_lock.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::vector<std::string> runs;
  std::string out;
  bool partial = false;
};

int merge_main(const Options& o) {
  std::vector<RunRecord> shards;
  for (const auto& path : o.runs) shards.push_back(load_run_record(path));
  RunRecord merged;
  std::vector<int> missing;
  try {
    merged = merge_runs(shards, o.runs, &missing);
  } catch (const MergeError& error) {
    throw UsageError(error.what());
  }
  const run::FolderLock lock(o.out, "--out");
  write_reports(merged, o.out);
  std::cout << console_summary(merged) << "\nreports: " << (std::filesystem::path(o.out) / "run.json").string()
            << ", junit.xml, summary.md, report.html\n";
  if (!missing.empty()) {
    std::string list;
    for (int i : missing) list += (list.empty() ? "" : ", ") + std::to_string(i);
    std::cout << (o.partial ? "note" : "INCOMPLETE") << ": shard" << (missing.size() > 1 ? "s " : " ") << list << " of "
              << merged.run.shard.substr(merged.run.shard.rfind(' ') + 1) << " missing"
              << (o.partial ? " (--partial)" : ": this is not the whole run (give --partial to accept a part)") << "\n";
    if (!o.partial) return kExitFail;
  }
  return exit_code_for(merged);
}

}  // namespace

Subcommand add_merge_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* merge = mmasp.add_subcommand("merge", "the shards of one run (mmasp run --shard i/n) as one run: run.json and every report");
  merge->add_option("runs", o->runs, "run.json of each shard")->required();
  merge->add_option("--out", o->out, "directory for the merged reports")->required();
  merge->add_flag("--partial", o->partial, "accept a set that lacks some shards (without it, a missing shard exits 1)");
  return {merge, [o](int, char**) { return merge_main(*o); }};
}

}  // namespace mmasp::cli
