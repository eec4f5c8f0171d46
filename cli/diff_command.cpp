// `mmasp diff BASELINE RUN`: what changed between two runs (reports/diff.h), or with --identical whether they are the
// same run (a resumed run against an uninterrupted one).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "reports/diff.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::string baseline, run, waivers, bits = "strict";
  std::vector<std::string> allow;
  bool identical = false;
  bool same_cases = false;
};

int diff_main(const Options& o) {
  const RunRecord baseline = load_run_record(o.baseline), current = load_run_record(o.run);
  if (o.identical) return identical_runs(baseline, current, std::cout) ? kExitPass : kExitFail;
  std::vector<Waiver> waivers;
  if (!o.waivers.empty()) {
    try {
      waivers = load_waivers(o.waivers);
    } catch (const std::runtime_error& error) {
      throw UsageError(error.what());
    }
  }
  std::vector<Difference> allowed;
  for (const auto& text : o.allow) allowed.push_back(*difference_named(text));
  if (const std::string problem = baseline_problem(baseline); !problem.empty()) {
    std::cout << "NOT COMPARED: the baseline " << o.baseline << " cannot show a regression: " << problem << "\n";
    return kExitUsage;
  }
  const DiffReport report = diff_runs(baseline, current, waivers, *bits_mode_named(o.bits), allowed);
  std::cout << format_diff(report, baseline, current);
  if (report.refused()) return kExitUsage;
  if (o.same_cases && report.same_cases != SameCases::yes) {
    std::cout << "NOT COMPARED CASE FOR CASE (--same-cases): " << report.cases_detail << "\n";
    return kExitUsage;
  }
  return report.regressions ? kExitFail : kExitPass;
}

}  // namespace

Subcommand add_diff_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* diff = mmasp.add_subcommand("diff", "what changed between a baseline run and this one (exit 1 on a regression)");
  diff->footer("Exit status: 0 no unwaived regression; 1 a regression (a missing judged result included); 2 a usage error,\n"
               "a baseline that cannot show a regression (no results, interrupted), or runs that cannot be compared\n"
               "(another backend, architecture or generator: see --allow-different; other cases with --same-cases).");
  diff->add_option("baseline", o->baseline, "baseline run.json")->required();
  diff->add_option("run", o->run, "new run.json")->required();
  diff->add_option("--waivers", o->waivers, "waivers file (schema mmasp-waivers/1)");
  diff->add_option("--bits", o->bits, "results whose D changed bit for bit on the same cases (results[].digest): strict "
                   "(a regression), warn (listed), off")->check(CLI::IsMember({"strict", "warn", "off"}))->capture_default_str();
  diff->add_option("--allow-different", o->allow, "compare anyway across these differences, which otherwise refuse the "
                   "comparison (exit 2): backend (an emulated run against a hardware one), architecture, cases (runs "
                   "of different generators)")
      ->delimiter(',')->check(CLI::IsMember({"backend", "architecture", "cases"}));
  diff->add_flag("--same-cases", o->same_cases,
                 "require the same cases (seed and case streams): otherwise exit 2, since sampling changes are not counted "
                 "as regressions (the nightly gate passes it)");
  diff->add_flag("--identical", o->identical,
                 "instead: exit 0 only when the two runs are the same in everything but when, where and how long they "
                 "ran (a resumed run against an uninterrupted one), else list the first differences and exit 1");
  return {diff, [o](int, char**) { return diff_main(*o); }};
}

}  // namespace mmasp::cli
