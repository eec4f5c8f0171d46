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
    std::string run, out, baseline;
  };
  auto o = std::make_shared<Options>();
  CLI::App* report = mmasp.add_subcommand("report", "render the reports of a run.json again (JUnit, Markdown, HTML), "
                                          "optionally against a baseline");
  report->add_option("run", o->run, "run.json")->required();
  report->add_option("--out", o->out, "directory for the reports")->required();
  report->add_option("--baseline", o->baseline, "run.json to compare with: regressions are listed in report.html");
  return {report, [o](int, char**) {
            const RunRecord record = load_run_record(o->run);
            std::optional<DiffReport> against;
            if (!o->baseline.empty()) against = diff_runs(load_run_record(o->baseline), record, {});
            const run::FolderLock lock(o->out, "--out");
            write_reports(record, o->out, against ? &*against : nullptr);
            std::cout << "wrote " << (std::filesystem::path(o->out) / "report.html").string()
                      << ", junit.xml, summary.md, run.json\n";
            return kExitPass;
          }};
}

}  // namespace mmasp::cli
