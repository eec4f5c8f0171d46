// mmasp: conformance and fuzz testing of the mma.sp / mma.sp::ordered_metadata instructions.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/common.h"
#include "cli/characterize_command.h"
#include "cli/run_command.h"
#include "cli/selftest_command.h"
#include "harness/compile_conformance.h"
#include "harness/gpu_probe.h"
#include "harness/ptx_emitter.h"
#include "harness/ptxas.h"
#include "oracle/case_file.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"
#include "oracle/numeric_model_table.h"
#include "reports/catalog_json.h"
#include "reports/compile_report.h"
#include "reports/diff.h"
#include "reports/merge.h"
#include "reports/run_report.h"
#include "reports/evaluation.h"
#include "harness/module_store.h"
#include "cli/repro_command.h"
#include "run/folder_lock.h"
#include "run/screen.h"
#include "reports/findings.h"

namespace fs = std::filesystem;
using namespace mmasp;
using namespace mmasp::cli;


int main(int argc, char** argv) {
  CLI::App app{"mmasp: conformance and fuzz tests for PTX mma.sp / mma.sp::ordered_metadata"};
  app.require_subcommand(1);

  // list
  auto* list = app.add_subcommand("list", "print the instruction space (every legal form)");
  bool list_json = false;
  std::string list_filter, list_target;
  list->add_flag("--json", list_json, "print JSON (schema mmasp-catalog/1)");
  list->add_option("--filter", list_filter, "only forms whose opcode matches this glob, e.g. '*ordered*bf16*'");
  list->add_option("--target", list_target, "only forms legal on this target, e.g. sm_90a");

  // emit
  auto* emit = app.add_subcommand("emit", "print the PTX module mmasp runs for one form, or the module of one compile case");
  std::string emit_form, emit_target = "sm_90a", emit_version, emit_case;
  int emit_selector = 0;
  emit->add_option("form", emit_form, "the form's opcode (see mmasp list)");
  emit->add_option("--case", emit_case, "the id of a compile case, legal or not (see compile.json), e.g. 'reject/ctype-ne-dtype/...@sm_90a'")
      ->excludes("form");
  emit->add_option("--selector", emit_selector, "sparsity selector (the operand is 0..3)")->capture_default_str()
      ->check(whole_number(0, 3));
  emit->add_option("--target", emit_target, "target")->capture_default_str();
  emit->add_option("--ptx-version", emit_version, "PTX version (default: the lowest that works)");
  bool emit_illegal = false;
  emit->add_flag("--illegal", emit_illegal, "write the module even where the catalog says ptxas must reject it (a form "
                 "not legal on the target, a PTX version below the form's minimum, a selector outside its range)");

  // compile
  auto* compile = app.add_subcommand("compile", "compile conformance: ptxas against the catalog, for every target");
  CompileOptions compile_options;
  std::string compile_json_path;
  add_compile_options(compile, compile_options);
  compile->add_option("--json", compile_json_path, "write the accept/reject matrix here (schema mmasp-compile/1)");

  // run
  auto* run = app.add_subcommand("run", "the main job: everything this machine can check");
  RunOptions run_options;
  add_run_options(run, run_options);
  run->footer(
      "Exit status:\n"
      "  0    every result Pass, QualityWarning, NotSupported, UB-not-judged or Waived, no new compile disagreement,\n"
      "       every probed layout as the oracle says\n"
      "  1    a Fail, Deviation, Intermittent, Crash or Timeout, a new compile disagreement or a layout mismatch\n"
      "  2    a usage or environment error (nothing was run; --out is as it was): e.g. --backend gpu without a GPU\n"
      "  128+N  stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP); the reports say INTERRUPTED and\n"
      "       `mmasp run --resume --out DIR` with the same options finishes the run\n"
      "Reports in --out: run.json, junit.xml, summary.md, report.html, results.jsonl, compile.json (docs/run-report.md).");

  // characterize
  auto* characterize = app.add_subcommand("characterize", "measure the float arithmetic: the bit-exact model parameters of each form, with the probes that show them");
  CharacterizeCommandOptions characterize_options;
  add_characterize_options(characterize, characterize_options);

  // selftest
  auto* selftest = app.add_subcommand("selftest", "prove the judging tiers: run the suites through injected faults (--faults)");
  SelftestCommandOptions selftest_options;
  add_selftest_options(selftest, selftest_options);
  selftest->footer(
      "Exit 0: every fault was caught in every pair where it changed a result and a tier could see it, and the run\n"
      "without a fault was clean. A fault that can stay inside the spec bound (one-ulp, sign, low-bit flips) in a\n"
      "float pair that no bit-exact model judges is listed as UNSEEABLE HERE, not missed. Exit 1: a MISSED line or a\n"
      "control run that was not clean.");

  // eval
  auto* eval = app.add_subcommand("eval", "print the expected D and its bounds for a case file, and judge its observed D (spec tier, and the verified bit-exact model of the device it came from)");
  std::vector<std::string> eval_files;
  eval->add_option("case", eval_files, "case files (schema mmasp-case/1, docs/case-files.md)")->required();
  std::string eval_model = "auto";
  eval->add_option("--model", eval_model,
                   "also compare the observed D with a verified bit-exact model: auto (the architecture the case file "
                   "says it was observed on), off, or an architecture such as sm_90")
      ->capture_default_str();

  // ub-probe (internal, used by run)
  auto* ub_probe = app.add_subcommand("ub-probe", "internal: undefined-behaviour probes in a process of their own");
  ub_probe->group("");
  UbProbeOptions ub_probe_options;
  add_ub_probe_options(ub_probe, ub_probe_options);

  // diff
  auto* diff = app.add_subcommand("diff", "what changed between a baseline run and this one (exit 1 on a regression)");
  diff->footer("Exit status: 0 no unwaived regression; 1 a regression (a missing judged result included); 2 a usage error,\n"
               "or runs that cannot be compared (another backend, architecture or generator: see --allow-different).");
  std::string diff_baseline, diff_run, diff_waivers;
  diff->add_option("baseline", diff_baseline, "baseline run.json")->required();
  diff->add_option("run", diff_run, "new run.json")->required();
  diff->add_option("--waivers", diff_waivers, "waivers file (schema mmasp-waivers/1)");
  std::string diff_bits = "strict";
  diff->add_option("--bits", diff_bits, "results whose D changed bit for bit on the same cases (results[].digest): strict "
                   "(a regression), warn (listed), off")->check(CLI::IsMember({"strict", "warn", "off"}))->capture_default_str();
  std::vector<std::string> diff_allow;
  diff->add_option("--allow-different", diff_allow, "compare anyway across these differences, which otherwise refuse the "
                   "comparison (exit 2): backend (an emulated run against a hardware one), architecture, cases (runs "
                   "of different generators)")
      ->delimiter(',')->check(CLI::IsMember({"backend", "architecture", "cases"}));
  bool diff_identical = false;
  diff->add_flag("--identical", diff_identical,
                 "instead: exit 0 only when the two runs are the same in everything but when, where and how long they "
                 "ran (a resumed run against an uninterrupted one), else list the first differences and exit 1");

  // repro
  auto* repro = app.add_subcommand("repro", "rerun one case file on this machine's backend; expected vs observed per element");
  ReproOptions repro_options;
  repro->add_option("case", repro_options.case_file, "case file")->required();
  repro->add_option("--device", repro_options.device, "GPU ordinal (requires that GPU: no fallback to the emulator)")
      ->capture_default_str()->check(whole_number(0, INT32_MAX))->each([&](const std::string&) { repro_options.device_given = true; });
  repro->add_flag("--emulator", repro_options.emulator, "use the CPU emulator even with a GPU present");
  repro->add_flag("--ub", repro_options.ub, "run a case whose behaviour is undefined (in a process of its own; never judged) "
                  "instead of refusing it");
  repro->add_flag("--ub-child", repro_options.ub_child)->group("");

  // report
  auto* merge = app.add_subcommand("merge", "the shards of one run (mmasp run --shard i/n) as one run: run.json and every report");
  std::vector<std::string> merge_runs_in;
  std::string merge_out;
  merge->add_option("runs", merge_runs_in, "run.json of each shard")->required();
  merge->add_option("--out", merge_out, "directory for the merged reports")->required();
  bool merge_partial = false;
  merge->add_flag("--partial", merge_partial, "accept a set that lacks some shards (without it, a missing shard exits 1)");
  auto* report = app.add_subcommand("report", "render the reports of a run.json again (JUnit, Markdown, HTML), optionally against a baseline");
  std::string report_run, report_out, report_baseline;
  report->add_option("run", report_run, "run.json")->required();
  report->add_option("--out", report_out, "directory for the reports")->required();
  report->add_option("--baseline", report_baseline, "run.json to compare with: regressions are listed in report.html");

  // prepare
  auto* prepare = app.add_subcommand("prepare", "compile every form's module for a target into a module store (for GPU runners without a toolkit)");
  std::string prepare_target = "sm_90a", prepare_out;
  prepare->add_option("--target", prepare_target, "target")->capture_default_str();
  prepare->add_option("--out", prepare_out, "module store directory")->required();
  std::string prepare_filter;
  prepare->add_option("--filter", prepare_filter, "only forms whose opcode matches this glob");

  // screen
  auto* screen = app.add_subcommand("screen", "fleet screening: every GPU through the GPU-resident path for a time "
                                    "budget, one JSON verdict per GPU (docs/screening.md)");
  run::ScreenOptions screen_options;
  screen->add_option("--devices", screen_options.devices, "GPUs: all, or ordinals 0,2,...")->capture_default_str();
  screen->add_option("--budget", screen_options.budget, "seconds per GPU, spread over every form x selector")->check(kSeconds)
      ->capture_default_str();
  screen->add_option("--seed", screen_options.seed, "seed of the case streams")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  screen->add_option("--out", screen_options.out, "where the verdicts go: gpuN.json, gpuN.log, screen.json")
      ->capture_default_str();
  // Internal (one GPU's process) and test-only options.
  screen->add_option("--device", screen_options.device, "internal: screen this GPU alone")->group("")->check(whole_number(0, INT32_MAX));
  screen->add_option("--verdict", screen_options.verdict, "internal: write this GPU's verdict here")->group("");
  screen->add_option("--inject-fault-rate", screen_options.inject_fault_rate, "test-only: flip a D bit in 1 of N cases")->group("")
      ->check(whole_number(1, UINT64_MAX));
  screen->add_option("--inject-fault-on", screen_options.inject_fault_on, "test-only: K:N, the fault on device K only")->group("");

  // An unknown command is named (CLI11 would only say that a subcommand is required).
  if (argc > 1 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
      found |= command->get_name() == argv[1];
      if (command->get_name() != "ub-probe") known += " " + command->get_name();
    }
    if (!found) {
      std::cerr << "mmasp: unknown command '" << argv[1] << "'; commands:" << known << "\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : kExitUsage;
  }

  try {
    if (*list) {
      std::optional<Target> target;
      if (!list_target.empty()) target = parse_targets(list_target).front();
      if (const std::string problem = glob_problem(list_filter); !problem.empty()) throw UsageError("--filter: " + problem);
      auto forms = filter_forms(list_filter, target);
      // As `mmasp run` does: a filter that matches nothing is a mistake to say, not an empty answer.
      if (forms.empty())
        throw UsageError("no form matches --filter '" + list_filter + "'" + (target ? " on " + target->name : std::string()) +
                         " (filters are globs over the whole opcode: '*bf16*', not 'bf16')");
      if (list_json)
        std::cout << catalog_json(forms).dump(2) << "\n";
      else
        std::cout << catalog_table(forms);
      return kExitPass;
    }
    if (*emit && !emit_case.empty()) {
      // The exact module compile conformance assembles for this case: a minimal reproduction for a compiler team.
      std::vector<Target> targets = known_targets();
      auto cases = catalog_cases(instruction_space(), targets);
      auto negatives = negative_cases(instruction_space(), targets);
      cases.insert(cases.end(), negatives.begin(), negatives.end());
      for (const auto& test : cases)
        if (test.id == emit_case) {
          std::cout << "// " << test.id << "\n// expected: " << name(test.expected) << " (" << test.why << ")\n"
                    << "// ptxas -arch=" << test.target.name << " this.ptx\n"
                    << emit_module(test.instruction, test.version, test.target);
          return kExitPass;
        }
      throw UsageError("no compile case '" + emit_case + "' (ids are in compile.json)");
    }
    if (*emit) {
      if (emit_form.empty()) throw UsageError("emit: give a form's opcode or --case ID");
      const Form* form = find_form(emit_form);
      if (!form) throw UsageError("no form '" + emit_form + "' in the catalog; see `mmasp list`");
      auto target = parse_targets(emit_target).front();
      PtxVersion version = form->version_for(target);
      if (!emit_version.empty()) {
        auto parsed = parse_ptx_version(emit_version);
        if (!parsed) throw UsageError("bad PTX version '" + emit_version + "'");
        version = *parsed;
      }
      // The legality predicate decides, as compile conformance does: a module the catalog says ptxas must reject is
      // written only when asked for (to reproduce a compile finding), never as if it were a runnable one.
      const Legality legal = legality(parts_of(*form), emit_selector, nullptr, target, version);
      if (!legal.legal()) {
        if (!emit_illegal)
          throw UsageError("emit: " + form->opcode + " sel=" + std::to_string(emit_selector) + " in PTX " + version.str() +
                           " for " + target.name + " is illegal (" + legal.rule + ": " + legal.why +
                           "); ptxas must reject it. Give --illegal to write it anyway, or see `mmasp list --target " +
                           target.name + "`");
        std::cerr << "note: illegal by the catalog (" << legal.rule << "): ptxas must reject this module\n";
      }
      std::cout << emit_module(instruction_for(*form, emit_selector), version, target);
      return kExitPass;
    }
    if (*compile) return compile_conformance(compile_options, compile_json_path);
    if (*screen) {
      const auto say = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
      if (screen_options.device >= 0) {
        const std::string outcome = run::screen_device(screen_options, say).value("verdict", "error");
        return outcome == "pass" ? kExitPass : outcome == "fail" ? kExitFail : kExitUsage;
      }
      const std::vector<std::string> self = {argv[0], "screen", "--budget", std::to_string(screen_options.budget),
                                             "--seed", std::to_string(screen_options.seed), "--out", screen_options.out};
      return run::screen_devices(screen_options, self, say);
    }
    if (*diff) {
      const RunRecord baseline = load_run_record(diff_baseline), current = load_run_record(diff_run);
      if (diff_identical) return identical_runs(baseline, current, std::cout) ? kExitPass : kExitFail;
      std::vector<Waiver> waivers;
      if (!diff_waivers.empty()) {
        try {
          waivers = load_waivers(diff_waivers);
        } catch (const std::runtime_error& error) {
          throw UsageError(error.what());
        }
      }
      std::vector<Difference> allowed;
      for (const auto& text : diff_allow) allowed.push_back(*difference_named(text));
      const DiffReport report = diff_runs(baseline, current, waivers, *bits_mode_named(diff_bits), allowed);
      std::cout << format_diff(report, baseline, current);
      if (report.refused()) return kExitUsage;
      return report.regressions ? kExitFail : kExitPass;
    }
    if (*merge) {
      std::vector<RunRecord> shards;
      for (const auto& path : merge_runs_in) shards.push_back(load_run_record(path));
      RunRecord merged;
      std::vector<int> missing;
      try {
        merged = merge_runs(shards, merge_runs_in, &missing);
      } catch (const MergeError& error) {
        throw UsageError(error.what());
      }
      const run::FolderLock lock(merge_out, "--out");
      write_reports(merged, merge_out);
      std::cout << console_summary(merged) << "\nreports: " << (std::filesystem::path(merge_out) / "run.json").string()
                << ", junit.xml, summary.md, report.html\n";
      if (!missing.empty()) {
        std::string list;
        for (int i : missing) list += (list.empty() ? "" : ", ") + std::to_string(i);
        std::cout << (merge_partial ? "note" : "INCOMPLETE") << ": shard" << (missing.size() > 1 ? "s " : " ") << list
                  << " of " << merged.run.shard.substr(merged.run.shard.rfind(' ') + 1) << " missing"
                  << (merge_partial ? " (--partial)" : ": this is not the whole run (give --partial to accept a part)") << "\n";
        if (!merge_partial) return kExitFail;
      }
      return exit_code_for(merged);
    }
    if (*repro) return repro_main(repro_options);
    if (*report) {
      const RunRecord record = load_run_record(report_run);
      std::optional<DiffReport> against;
      if (!report_baseline.empty()) against = diff_runs(load_run_record(report_baseline), record, {});
      const run::FolderLock lock(report_out, "--out");
      write_reports(record, report_out, against ? &*against : nullptr);
      std::cout << "wrote " << (fs::path(report_out) / "report.html").string() << ", junit.xml, summary.md, run.json\n";
      return kExitPass;
    }
    if (*prepare) {
      auto target = parse_targets(prepare_target).front();
      PtxasInfo info = locate_ptxas();
      Ptxas ptxas(info, {}, 1);
      ModuleStore store(prepare_out, &ptxas);
      int built = 0, failed = 0;
      if (const std::string problem = glob_problem(prepare_filter); !problem.empty()) throw UsageError("--filter: " + problem);
      for (const auto& form : instruction_space()) {
        if (!form.legal_on(target, form.version_for(target))) continue;
        if (!prepare_filter.empty() && !glob_match(prepare_filter, form.opcode)) continue;
        for (int selector : form.selectors) {
          std::string why;
          const std::string ptx = form_module(form, selector, target);
          if (store.prepare(ptx, target.name, &why)) ++built;
          else {
            ++failed;
            std::cerr << form.opcode << " sel=" << selector << ": " << why << "\n";
          }
        }
      }
      if (built + failed == 0) throw UsageError("prepare: no form legal on " + target.name + " matches --filter '" + prepare_filter + "'");
      std::cout << "prepared " << built << " modules for " << target.name << " in " << prepare_out << " (" << info.version << ")"
                << (failed ? ", " + std::to_string(failed) + " FAILED (the store is incomplete)" : "") << "\n";
      return failed ? kExitFail : kExitPass;
    }
    if (*eval) {
      int status = kExitPass;
      for (const auto& path : eval_files) {
        CaseFile file;
        try {
          file = load_case_file(path);
        } catch (const CaseFileError& error) {
          throw UsageError(error.what());
        }
        std::optional<std::span<const uint32_t>> observed;
        if (file.observed_d) observed = std::span<const uint32_t>(*file.observed_d);
        // Which architecture's model: the one named in the file's origin ("... (sm_90, sm_90a) ..."), or as given.
        std::string architecture = eval_model;
        if (eval_model == "auto") {
          const std::string origin = file.provenance.is_object() ? file.provenance.value("origin", "") : "";
          const size_t at = origin.find("(sm_");
          architecture = "off";
          if (at != std::string::npos) {
            architecture = "sm_";
            for (size_t i = at + 4; i < origin.size() && std::isdigit(static_cast<unsigned char>(origin[i])); ++i)
              architecture += origin[i];
          }
        }
        std::optional<ModelParameters> model;
        if (architecture != "off") {
          model = verified_model(*file.test.form, architecture);
          if (!model && eval_model != "auto")
            throw UsageError("no verified bit-exact model of " + file.test.form->opcode + " on " + architecture);
        }
        Evaluation evaluation = evaluate(file.test, observed, model, architecture + " bit-exact model");
        if (eval_files.size() > 1) std::cout << "== " << path << "\n";
        // A case file's comments are anyone's text: shown without the control characters a terminal would obey.
        for (const auto& line : file.comment) std::cout << "# " << printable(line) << "\n";
        std::cout << format_evaluation(file.test, evaluation, observed);
        if (evaluation.verdict && is_failure(evaluation.verdict->status)) status = kExitFail;
      }
      return status;
    }
    if (*run) return run_main(run_options, argc, argv);
    if (*characterize) return characterize_main(characterize_options, argc, argv);
    if (*selftest) return selftest_main(selftest_options, argc, argv);
    if (*ub_probe) return ub_probe_main(ub_probe_options);
  } catch (const UsageError& error) {
    std::cerr << "mmasp: " << error.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "mmasp: " << error.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
