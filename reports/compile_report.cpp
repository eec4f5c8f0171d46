#include "reports/compile_report.h"

#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace mmasp {

namespace {
std::string observed_of(const CompileOutcome& outcome) { return std::string(name(outcome.accepted ? Observed::accept : Observed::reject)); }

std::string first_error(const std::string& diagnostics) {
  std::istringstream lines(diagnostics);
  std::string line, fallback;
  while (std::getline(lines, line)) {
    if (line.find("error") != std::string::npos) return line;
    if (fallback.empty() && !line.empty()) fallback = line;
  }
  return fallback;
}
}  // namespace

CompileJudgement judge(const CompileRun& run, const FindingsFile& findings) {
  CompileJudgement judgement;
  std::set<const Finding*> used;
  for (const auto& outcome : run.outcomes) {
    switch (outcome.verdict) {
      case Verdict::agree: ++judgement.agree; break;
      case Verdict::not_run: ++judgement.not_run; break;
      case Verdict::disagree: {
        const Finding* finding =
            match_finding(findings, FindingKind::compile, outcome.test.id, outcome.observed(), run.ptxas.version);
        if (finding) {
          used.insert(finding);
          judgement.documented.push_back({&outcome, finding});
        } else {
          judgement.undocumented.push_back({&outcome, nullptr});
        }
        break;
      }
    }
  }
  for (const auto& finding : findings.findings)
    if (finding.kind == FindingKind::compile && glob_match(finding.toolkit, run.ptxas.version) && !used.count(&finding))
      judgement.stale.push_back(&finding);
  return judgement;
}

nlohmann::json compile_json(const CompileRun& run, const CompileJudgement& judgement,
                            const std::vector<Target>& targets) {
  using nlohmann::json;
  // Targets and catalog rows (one per form and selector, one cell per target) as run.json keeps them.
  const json catalog = compile_matrix_json(compile_record(run, judgement, targets));
  const json& target_names = catalog["targets"];
  const json& matrix = catalog["matrix"];
  json negative = json::array();
  for (const auto& outcome : run.outcomes) {
    const auto& test = outcome.test;
    const std::string observed(name(outcome.observed()));
    if (test.set == CompileSet::negative) {
      json row = {{"id", test.id}, {"rule", test.rule}, {"form", test.form}, {"target", test.target.name},
                  {"ptx_version", test.version.str()}, {"expected", name(test.expected)}, {"observed", observed},
                  {"why", test.why}};
      if (outcome.verdict != Verdict::not_run && !outcome.accepted) row["diagnostic"] = first_error(outcome.diagnostics);
      if (outcome.verdict == Verdict::not_run) row["not_run_reason"] = outcome.not_run_reason;
      negative.push_back(row);
    }
  }

  auto disagreement = [&](const JudgedOutcome& judged) {
    const auto& outcome = *judged.outcome;
    return json{{"id", outcome.test.id},
                {"rule", outcome.test.rule},
                {"target", outcome.test.target.name},
                {"expected", name(outcome.test.expected)},
                {"observed", observed_of(outcome)},
                {"why", outcome.test.why},
                {"diagnostics", outcome.diagnostics},
                {"ptx", outcome.ptx},
                {"finding", judged.finding ? json(judged.finding->id) : json(nullptr)}};
  };
  json documented = json::array(), undocumented = json::array(), stale = json::array();
  for (const auto& judged : judgement.documented) documented.push_back(disagreement(judged));
  for (const auto& judged : judgement.undocumented) undocumented.push_back(disagreement(judged));
  for (const Finding* finding : judgement.stale) stale.push_back(finding->id);

  json not_run = json::array();
  for (const auto& outcome : run.outcomes)
    if (outcome.verdict == Verdict::not_run)
      not_run.push_back({{"id", outcome.test.id}, {"reason", outcome.not_run_reason}});

  return {
      {"schema", "mmasp-compile/1"},
      {"ptxas",
       {{"path", run.ptxas.path.string()},
        {"version", run.ptxas.version},
        {"max_ptx", run.ptxas.max_ptx ? json(run.ptxas.max_ptx->str()) : json(nullptr)}}},
      {"targets", target_names},
      {"summary",
       {{"cases", run.outcomes.size()},
        {"agree", judgement.agree},
        {"documented_disagreements", judgement.documented.size()},
        {"new_disagreements", judgement.undocumented.size()},
        {"not_run", judgement.not_run},
        {"cache_hits", run.cache_hits},
        {"seconds", run.seconds}}},
      {"matrix", matrix},
      {"negative", negative},
      {"new_disagreements", undocumented},
      {"documented_disagreements", documented},
      {"stale_findings", stale},
      {"not_run", not_run},
  };
}

CompileRecord compile_record(const CompileRun& run, const CompileJudgement& judgement, const std::vector<Target>& targets) {
  CompileRecord record;
  record.cases = run.outcomes.size();
  record.agree = judgement.agree;
  record.documented_disagreements = judgement.documented.size();
  record.new_disagreements = judgement.undocumented.size();
  record.not_run = judgement.not_run;
  record.cache_hits = run.cache_hits;
  record.seconds = run.seconds;
  record.ptxas_path = run.ptxas.path.string();
  record.ptxas_version = run.ptxas.version;
  if (run.ptxas.max_ptx) record.ptxas_max_ptx = run.ptxas.max_ptx->str();
  record.exit = judgement.undocumented.empty() ? 0 : 1;
  for (const auto& target : targets) record.targets.push_back(target.name);
  for (const auto& outcome : run.outcomes) {
    CompileTargetCounts& counts = record.by_target[outcome.test.target.name];
    ++counts.cases;
    counts.agree += outcome.verdict == Verdict::agree;
    counts.not_run += outcome.verdict == Verdict::not_run;
  }
  const auto add = [&](const JudgedOutcome& judged) {
    const CompileOutcome& outcome = *judged.outcome;
    CompileTargetCounts& counts = record.by_target[outcome.test.target.name];
    (judged.finding ? counts.documented : counts.new_disagreements) += 1;
    record.disagreements.push_back({outcome.test.id, outcome.test.target.name, outcome.test.expected,
                                    outcome.observed(), outcome.test.why,
                                    outcome.accepted ? "" : first_error(outcome.diagnostics),
                                    judged.finding ? judged.finding->id : ""});
  };
  for (const auto& judged : judgement.undocumented) add(judged);
  for (const auto& judged : judgement.documented) add(judged);
  std::map<std::string, size_t> row_of;
  for (const auto& outcome : run.outcomes) {
    const auto& test = outcome.test;
    if (test.set != CompileSet::catalog) continue;
    auto [it, inserted] = row_of.try_emplace(test.form + "/" + std::to_string(test.instruction.selector), record.matrix.size());
    if (inserted) record.matrix.push_back({test.form, test.instruction.selector, {}});
    record.matrix[it->second].cells[test.target.name] = {test.expected, outcome.observed(), test.version.str()};
  }
  return record;
}

std::string compile_summary(const CompileRun& run, const CompileJudgement& judgement,
                            const std::vector<Target>& targets) {
  struct Tally { int accepted = 0, rejected = 0, expected_accept = 0, negative = 0, disagree = 0, not_run = 0; };
  std::map<std::string, Tally> per_target;
  for (const auto& outcome : run.outcomes) {
    auto& tally = per_target[outcome.test.target.name];
    if (outcome.test.set == CompileSet::negative) tally.negative++;
    if (outcome.test.set == CompileSet::catalog && outcome.test.expected == Expected::accept) tally.expected_accept++;
    if (outcome.verdict == Verdict::not_run) { tally.not_run++; continue; }
    (outcome.accepted ? tally.accepted : tally.rejected)++;
    if (outcome.verdict == Verdict::disagree) tally.disagree++;
  }
  std::ostringstream out;
  out << "ptxas: " << run.ptxas.version << " (" << run.ptxas.path.string() << "), PTX up to "
      << (run.ptxas.max_ptx ? run.ptxas.max_ptx->str() : "unknown") << "\n";
  out << std::left << std::setw(10) << "target" << std::setw(10) << "legal" << std::setw(10) << "accepted"
      << std::setw(10) << "rejected" << std::setw(10) << "negative" << std::setw(10) << "disagree" << "not run\n";
  for (const auto& target : targets) {
    const auto& tally = per_target[target.name];
    out << std::setw(10) << target.name << std::setw(10) << tally.expected_accept << std::setw(10) << tally.accepted
        << std::setw(10) << tally.rejected << std::setw(10) << tally.negative << std::setw(10) << tally.disagree
        << tally.not_run << "\n";
  }
  out << run.outcomes.size() << " cases in " << std::fixed << std::setprecision(1) << run.seconds << " s ("
      << run.cache_hits << " from cache): " << judgement.agree << " agree, " << judgement.documented.size()
      << " documented findings, " << judgement.undocumented.size() << " NEW disagreements, " << judgement.not_run
      << " not run\n";
  std::map<std::string, int> documented_by_finding;
  for (const auto& judged : judgement.documented) documented_by_finding[judged.finding->id]++;
  for (const auto& [id, count] : documented_by_finding) {
    for (const auto& judged : judgement.documented)
      if (judged.finding->id == id) {
        out << "  finding " << id << " (" << count << " cases): " << judged.finding->summary << "\n";
        break;
      }
  }
  std::map<std::string, int> not_run_reasons;
  for (const auto& outcome : run.outcomes)
    if (outcome.verdict == Verdict::not_run) not_run_reasons[outcome.not_run_reason]++;
  for (const auto& [reason, count] : not_run_reasons) out << "  not run (" << count << " cases): " << reason << "\n";
  for (const auto& judged : judgement.undocumented) {
    const auto& outcome = *judged.outcome;
    out << "NEW DISAGREEMENT " << outcome.test.id << ": expected " << name(outcome.test.expected) << ", ptxas "
        << observed_of(outcome) << "s (" << outcome.test.why << ")\n";
    if (!outcome.accepted) out << "  " << first_error(outcome.diagnostics) << "\n";
  }
  for (const Finding* finding : judgement.stale)
    out << "note: finding " << finding->id << " matched nothing in this run (fixed, or not covered by the filter)\n";
  return out.str();
}

}  // namespace mmasp
