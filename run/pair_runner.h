// One form x selector pair of `mmasp run`: its suites — the special set, undefined behaviour (in its own processes on
// a GPU), the random cases on the host or the GPU-resident path — its extras (layout discovery, the comparison of the
// two compile paths, the cubins whose SASS is read after the loop) and, under --budget, the share of the run's time
// its random suite may take. It returns the pair's work; the run commits it (journal, results.jsonl, the record).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "judge/suites.h"
#include "run/budget_plan.h"
#include "run/journal.h"
#include "run/run_options.h"
#include "run/run_setup.h"
#include "run/ub_isolation.h"

namespace mmasp::run {

// Adds the time `body` takes to phases[phase] (run.json's phase_seconds), and returns what it returns.
class PhaseClock {
 public:
  explicit PhaseClock(std::map<std::string, double>& phases) : phases_(phases) {}
  template <typename Body>
  auto operator()(const std::string& phase, Body&& body) {
    struct AddOnExit {
      double& total;
      std::chrono::steady_clock::time_point start;
      ~AddOnExit() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
    } add{phases_[phase], std::chrono::steady_clock::now()};
    return body();
  }

 private:
  std::map<std::string, double>& phases_;
};

// A cubin to disassemble after the loop (cuobjdump needs no GPU, so it runs on every host thread at the end).
struct SassJob {
  const Form* form;
  int selector;
  std::string path, cubin, why_not;
};
std::vector<SassRecord> disassemble_all(const std::vector<SassJob>& jobs, unsigned threads);

// What one pair produced: committed (streamed, journaled, recorded) only once all of it finished.
struct PairWork {
  JournalPair journal;
  std::vector<SassJob> sass;
  uint64_t cases = 0, failures = 0;
  bool interrupted = false;   // a signal stopped it: nothing of it is kept (a --resume runs it again)
};

class PairRunner {
 public:
  // --budget: how many pairs ran fewer generated special cases than --special-generated, so that the run's fixed work
  // fitted the time left (0: none), and the fewest any pair ran.
  size_t special_cut_pairs() const { return special_cut_pairs_; }
  uint32_t fewest_special_generated() const { return fewest_special_generated_; }
  // `plan`: the --budget plan over the run's pairs, in order (unused without --budget).
  PairRunner(const NightlyOptions& options, RunSetup& setup, SuiteContext& context, const IsolatedUb& isolated_ub,
             PhaseClock& clock, std::function<double()> elapsed, std::function<bool()> stop, BudgetPlan plan);
  // Pair `index` in the run's order.
  PairWork run(size_t index, const Form& form, int selector);
  // The cubins of a pair the interrupted run finished: cheap and deterministic, so collected again.
  std::vector<SassJob> sass_of(const Form& form, int selector) const;
  // A pair's result as the run records it (an emulated result's note says it was emulated).
  static void add(PairWork& work, ResultRecord result);

 private:
  uint64_t random_cases() const;   // without --budget: --cases, else 10,000 on a GPU and 64 on the emulator
  // The fault coverage of the pair's stream (run/pair_coverage.h): through the emitted module, and of the resident
  // kernel's share.
  bool coverage_on() const;
  bool datapath_of(const Form& form, std::optional<ModelParameters>& p) const;
  std::optional<CoverageSummary> fault_coverage_of(const Form& form, int selector, const SuiteLimits& special);
  std::optional<CoverageSummary> resident_coverage_of(const Form& form, int selector, const ResidentSummary& resident);
  SuiteLimits random_limits(size_t index, std::chrono::steady_clock::time_point pair_start);
  bool resident_judges(const Form& form) const;
  uint64_t host_sample(const Form& form) const;
  SuiteResult random_suite(const Form& form, int selector, const SuiteLimits& limits);
  void undefined(const Form& form, int selector, const SuiteLimits& limits, PairWork& work);
  void extras(const Form& form, int selector, PairWork& work);
  CompilePathComparison compare_compile_paths(const Form& form, int selector) const;

  const NightlyOptions& o_;
  RunSetup& setup_;
  SuiteContext& context_;
  const IsolatedUb& isolated_ub_;
  PhaseClock& clock_;
  std::function<double()> elapsed_;
  std::function<bool()> stop_;
  BudgetPlan plan_;
  double fixed_seconds_ = 0;   // --budget: the pairs' work besides the random suites, so far
  size_t fixed_pairs_ = 0;
  // --budget: how far the random suites so far ran past their planned seconds (a host sample and a first launch that
  // a short share cannot hold, the last launch's overshoot), and over how many pairs.
  double overrun_seconds_ = 0;
  size_t overrun_pairs_ = 0;
  // --budget: pairs whose generated special cases were cut to keep the run's wall time, and the fewest any ran.
  size_t special_cut_pairs_ = 0;
  uint32_t fewest_special_generated_ = UINT32_MAX;
  uint32_t special_generated_for(size_t index);
};

}  // namespace mmasp::run
