// `mmasp report RUN.json --out DIR`: the reports of any run.json rendered again, optionally against a baseline.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "reports/run_report.h"
#include "run/folder_lock.h"

namespace mmasp::cli {

Subcommand add_report_command(CLI::App& mmasp) {
  struct Options {
    std::string run, out, baseline, waivers;
  };
  auto o = std::make_shared<Options>();
  CLI::App* report = mmasp.add_subcommand("report", "render the reports of a run.json again (JUnit, Markdown, HTML), "
                                          "optionally against a baseline");
  report->add_option("run", o->run, "run.json")->required();
  report->add_option("--out", o->out, "directory for the reports")->required();
  report->add_option("--baseline", o->baseline, "run.json to compare with: regressions are listed in report.html and "
                     "junit.xml");
  report->add_option("--waivers", o->waivers, "with --baseline: waivers file (schema mmasp-waivers/1), as mmasp diff reads it");
  return {report, [o](int, char**) {
            const RunRecord record = load_run_record(o->run);
            std::optional<DiffReport> against;
            std::vector<Waiver> waivers;
            if (!o->waivers.empty()) {
              if (o->baseline.empty()) throw UsageError("--waivers needs --baseline");
              try {
                waivers = load_waivers(o->waivers);
              } catch (const std::runtime_error& error) {
                throw UsageError(error.what());
              }
            }
            if (!o->baseline.empty()) against = diff_runs(load_run_record(o->baseline), record, waivers);
            const run::FolderLock lock(o->out, "--out");
            // A folder that holds a run's journal belongs to that run: another run's reports there would make an
            // unfinished run look finished (and the next `mmasp run` would delete its journal). Rendering the folder's
            // own run.json again is fine.
            const std::filesystem::path out = o->out, journal = out / "journal.jsonl", own = out / "run.json";
            std::error_code error;
            const bool in_place = std::filesystem::exists(own, error) && std::filesystem::equivalent(o->run, own, error);
            if (std::filesystem::exists(std::filesystem::symlink_status(journal, error)) && !in_place)
              throw UsageError("--out " + o->out + " holds a run (its journal.jsonl): report writes another run's "
                               "reports elsewhere, never over a run folder");
            write_reports(record, o->out, against ? &*against : nullptr);
            std::cout << "wrote " << (std::filesystem::path(o->out) / "report.html").string()
                      << ", junit.xml, summary.md, run.json\n";
            return kExitPass;
          }};
}

}  // namespace mmasp::cli
