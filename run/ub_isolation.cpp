#include "run/ub_isolation.h"

#include <algorithm>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "judge/suites.h"
#include "harness/ptxas.h"
#include "oracle/input_file.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace {

using nlohmann::json;

// The jobs of a pair: its UB suite, and on a form's first selector every out-of-range selector value the operand
// itself can hold (0..3).
std::vector<UbJob> jobs_of(const Form& form, int selector) {
  std::vector<UbJob> jobs = {{&form, selector, -1}};
  if (selector == form.selectors.front())
    for (int value = int(form.selectors.size()); value < kSelectorOperandValues; ++value) jobs.push_back({&form, selector, value});
  return jobs;
}

}  // namespace

std::string ub_job_text(const UbJob& job) {
  return job.form->opcode + "@" + std::to_string(job.selector) + "@" + std::to_string(job.out_of_range);
}

UbJob parse_ub_job(const std::string& text) {
  const size_t first = text.find('@');
  const size_t second = first == std::string::npos ? first : text.find('@', first + 1);
  if (second == std::string::npos) throw UsageError("bad --job '" + text + "' (opcode@selector@value)");
  UbJob job;
  job.form = find_form(text.substr(0, first));
  if (!job.form) throw UsageError("no form in --job '" + text + "'");
  try {
    job.selector = std::stoi(text.substr(first + 1, second - first - 1));
    job.out_of_range = std::stoi(text.substr(second + 1));
  } catch (const std::logic_error&) {
    throw UsageError("bad --job '" + text + "' (opcode@selector@value)");
  }
  return job;
}

int run_ub_jobs(GpuBackend& backend, const CudaDevice& device, const std::vector<UbJob>& jobs, const UbChildOptions& o,
                std::ostream& out) {
  // A job that only fails to compile (ptxas rejects most out-of-range selectors, finding F-0002) leaves the context
  // as it was; one that faults makes this process stop after it.
  for (size_t i = 0; i < jobs.size(); ++i) {
    const UbJob& job = jobs[i];
    json line;
    bool faulted = false;
    if (job.out_of_range >= 0) {
      const std::string what = probe_out_of_range_selector(backend, *job.form, job.out_of_range, o.seed);
      line = {{"what", what}};
      faulted = what.rfind("failed", 0) == 0 && !device.usable();
    } else {
      SuiteContext context{backend, o.seed, o.threads, "", {}};
      SuiteLimits limits;
      limits.special_generated = o.cases;
      const SuiteResult result = run_suite(context, *job.form, job.selector, Suite::undefined, limits);
      line = to_json(record_of(result));
      faulted = (result.status == Status::crash || result.status == Status::timeout) && !device.usable();
    }
    out << json{{"job", i}, {"line", line}}.dump() << std::endl;
    if (faulted) return kExitUbBatchStopped;
  }
  return 0;
}

void IsolatedUb::run(const std::vector<std::pair<const Form*, int>>& pairs, const Backend& backend, const UbChildOptions& o) {
  std::vector<std::string> jobs;
  for (const auto& [form, selector] : pairs)
    if (backend.supports(*form, nullptr))
      for (const UbJob& job : jobs_of(*form, selector)) jobs.push_back(ub_job_text(job));
  for (size_t next = 0; next < jobs.size();) {
    std::vector<std::string> args = {"/proc/self/exe", "ub-probe", "--seed", std::to_string(o.seed), "--device",
                                     std::to_string(o.device), "--path", std::string(name(o.path)), "--modules", o.modules,
                                     "--cases", std::to_string(o.cases), "--threads", std::to_string(o.threads)};
    for (size_t j = next; j < jobs.size(); ++j) {
      args.push_back("--job");
      args.push_back(jobs[j]);
    }
    const CommandResult child = run_command(args);
    size_t finished = next;
    std::istringstream lines(child.output);
    for (std::string text; std::getline(lines, text);) {
      // The probe's own lines among whatever else it printed (the strict reader, like every JSON mmasp reads).
      json parsed;
      try {
        parsed = parse_json_input(text, "ub-probe output");
      } catch (const InputFileError&) {
        continue;
      }
      if (!parsed.is_object() || !parsed.contains("job") || !parsed["job"].is_number_unsigned() || !parsed.contains("line"))
        continue;
      const size_t index = next + parsed["job"].get<size_t>();
      if (index >= jobs.size()) continue;
      const json& line = parsed["line"];
      if (line.contains("what") && line["what"].is_string()) outcomes_[jobs[index]] = line["what"].get<std::string>();
      else results_[jobs[index]] = result_record_from_json(line);
      finished = std::max(finished, index + 1);
    }
    if (finished < jobs.size() && child.exit_code != kExitUbBatchStopped) {
      std::string tail = child.output;
      while (!tail.empty() && tail.back() == '\n') tail.pop_back();
      deaths_[jobs[finished]] = "the probe process ended with status " + std::to_string(child.exit_code) + ": " +
                                tail.substr(tail.size() > 300 ? tail.size() - 300 : 0);
      ++finished;
    }
    next = finished;
  }
}

ResultRecord IsolatedUb::result(const Form& form, int selector, const std::string& backend_description) const {
  auto why_missing = [&](const std::string& job) {
    auto death = deaths_.find(job);
    return death != deaths_.end() ? death->second : std::string("not run");
  };
  const std::vector<UbJob> jobs = jobs_of(form, selector);
  ResultRecord out;
  const std::string suite_job = ub_job_text(jobs.front());
  if (auto it = results_.find(suite_job); it != results_.end()) {
    out = it->second;
  } else {
    out = result_record(form.opcode, selector, Suite::undefined, Status::ub_not_judged, backend_description,
                        "UB: not judged; " + why_missing(suite_job));
  }
  for (size_t j = 1; j < jobs.size(); ++j) {
    const std::string job = ub_job_text(jobs[j]);
    auto outcome = outcomes_.find(job);
    const std::string what = outcome != outcomes_.end() ? outcome->second : why_missing(job);
    out.out_of_range_selectors[std::to_string(jobs[j].out_of_range)] = what;
    out.note += "; selector " + std::to_string(jobs[j].out_of_range) + ": " + what;
  }
  return out;
}

}  // namespace mmasp::run
