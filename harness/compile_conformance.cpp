#include "harness/compile_conformance.h"

#include <chrono>

namespace mmasp {

std::string_view name(Expected expected) { return expected == Expected::accept ? "accept" : "reject"; }

std::optional<Expected> expected_named(std::string_view text) {
  if (text == "accept") return Expected::accept;
  if (text == "reject") return Expected::reject;
  return std::nullopt;
}

std::string_view name(Observed observed) {
  switch (observed) {
    case Observed::accept: return "accept";
    case Observed::reject: return "reject";
    case Observed::not_run: return "not_run";
  }
  return "";
}

std::optional<Observed> observed_named(std::string_view text) {
  for (Observed observed : {Observed::accept, Observed::reject, Observed::not_run})
    if (name(observed) == text) return observed;
  return std::nullopt;
}

std::string_view name(Verdict verdict) {
  switch (verdict) {
    case Verdict::agree: return "agree";
    case Verdict::disagree: return "disagree";
    case Verdict::not_run: return "not_run";
  }
  return "";
}

std::vector<CompileCase> catalog_cases(const std::vector<Form>& forms, const std::vector<Target>& targets) {
  std::vector<CompileCase> cases;
  for (const auto& form : forms)
    for (int selector : form.selectors)
      for (const auto& target : targets) {
        CompileCase test;
        test.rule = "catalog";
        test.form = form.opcode;
        test.instruction = instruction_for(form, selector);
        test.version = form.version_for(target);
        test.target = target;
        test.id = form.opcode + "/sel=" + std::to_string(selector) + "@" + target.name;
        bool legal = form.legal_on(target, test.version);
        test.expected = legal ? Expected::accept : Expected::reject;
        test.why = legal ? "legal: " + form.spec_section
                         : "target " + target.name + " is outside " + form.target.describe() +
                               " (9.7.14.6.3 Target ISA Notes)";
        cases.push_back(std::move(test));
      }
  return cases;
}

CompileRun run_compile_conformance(const Ptxas& ptxas, const std::vector<CompileCase>& cases,
                                   const std::function<void(size_t, size_t)>& progress) {
  auto start = std::chrono::steady_clock::now();
  CompileRun run;
  run.ptxas = ptxas.info();
  run.outcomes.resize(cases.size());

  std::vector<AssembleJob> jobs;
  std::vector<size_t> job_case;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& test = cases[i];
    auto& outcome = run.outcomes[i];
    outcome.test = test;
    const auto& max = run.ptxas.max_ptx;
    if (max && test.version > *max) {
      outcome.verdict = Verdict::not_run;
      outcome.not_run_reason = "needs PTX " + test.version.str() + "; this ptxas assembles PTX up to " + max->str();
      continue;
    }
    jobs.push_back({emit_module(test.instruction, test.version, test.target), test.target.name});
    job_case.push_back(i);
  }

  auto results = ptxas.assemble_all(jobs, progress);
  for (size_t j = 0; j < jobs.size(); ++j) {
    auto& outcome = run.outcomes[job_case[j]];
    const auto& result = results[j];
    outcome.accepted = result.accepted;
    outcome.diagnostics = result.diagnostics;
    outcome.from_cache = result.from_cache;
    run.cache_hits += result.from_cache;
    // A ptxas killed by its time limit or by a stop, or one that could not start, reached no verdict on the PTX.
    if (!result.completed && !result.from_cache) {
      outcome.verdict = Verdict::not_run;
      std::string why = result.diagnostics;
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      outcome.not_run_reason = why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
      continue;
    }
    bool expected_accept = outcome.test.expected == Expected::accept;
    outcome.verdict = result.accepted == expected_accept ? Verdict::agree : Verdict::disagree;
    if (outcome.verdict == Verdict::disagree) outcome.ptx = jobs[j].ptx;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace mmasp
