#include "reports/device_comparison.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace mmasp {
namespace {

const ResultRecord* find_result(const RunRecord& run, const std::string& id) {
  for (const auto& r : run.results)
    if (r.id == id) return &r;
  return nullptr;
}

// How badly a device's own judgement went for a result: its status, and model mismatches on top.
std::pair<int, uint64_t> judgement(const ResultRecord& r) {
  return {severity(r.status), r.model ? r.model->model_mismatches : 0};
}

}  // namespace

DeviceComparison compare_devices(const std::vector<DeviceRun>& runs) {
  DeviceComparison out;
  if (runs.empty()) return out;
  const RunRecord& first = runs.front().run;
  for (const auto& r : runs) {
    if (r.exit_code != 0 && r.exit_code != 1)
      out.problems.push_back(r.device + ": the run ended with exit status " + std::to_string(r.exit_code));
    if (r.run.run.seed != first.run.seed || r.run.run.case_streams != first.run.case_streams)
      out.problems.push_back(r.device + ": not the same cases as " + runs.front().device + " (seed or case streams)");
  }
  for (const auto& result : first.results) {
    if (!result.digest) continue;
    DeviceDisagreement d;
    d.result_id = result.id;
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t i = 0; i < runs.size(); ++i) {
      const ResultRecord* r = find_result(runs[i].run, result.id);
      d.digests.push_back(r && r->digest ? r->digest->all : "");
      d.statuses.push_back(r ? std::string(name(r->status)) : "missing");
      groups[d.digests.back()].push_back(i);
    }
    ++out.results_compared;
    if (groups.size() == 1) continue;
    std::vector<std::pair<size_t, std::string>> sizes;
    for (const auto& [digest, members] : groups) sizes.push_back({members.size(), digest});
    std::sort(sizes.rbegin(), sizes.rend());
    if (runs.size() >= 3 && sizes[0].first > sizes[1].first) {
      for (size_t i = 0; i < runs.size(); ++i)
        if (d.digests[i] != sizes[0].second) d.deviating.push_back(i);
      d.why = "outside the majority (" + std::to_string(sizes[0].first) + " of " + std::to_string(runs.size()) +
              " devices agree bit for bit)";
    } else {
      // No majority: the devices' own judgements by the oracle and the model.
      std::vector<std::pair<int, uint64_t>> judged;
      for (size_t i = 0; i < runs.size(); ++i) {
        const ResultRecord* r = find_result(runs[i].run, result.id);
        judged.push_back(r ? judgement(*r) : std::pair<int, uint64_t>{999, 0});
      }
      const auto best = *std::min_element(judged.begin(), judged.end());
      for (size_t i = 0; i < runs.size(); ++i)
        if (judged[i] != best) d.deviating.push_back(i);
      d.why = d.deviating.empty()
                  ? "no majority, and the oracle and model judge every device alike: none can be named"
                  : "no majority; judged worse by the oracle or the bit-exact model than the others";
    }
    out.disagreements.push_back(std::move(d));
  }
  return out;
}

nlohmann::json to_json(const DeviceComparison& c, const std::vector<DeviceRun>& runs) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& r : runs) devices.push_back({{"device", r.device}, {"exit", r.exit_code}, {"results", r.run.results.size()}});
  nlohmann::json disagreements = nlohmann::json::array();
  for (const auto& d : c.disagreements) {
    nlohmann::json named = nlohmann::json::array();
    for (size_t i : d.deviating) named.push_back(runs[i].device);
    disagreements.push_back({{"result", d.result_id}, {"digests", d.digests}, {"statuses", d.statuses},
                             {"deviating", named}, {"why", d.why}});
  }
  return {{"schema", "mmasp-devices/1"}, {"devices", devices}, {"results_compared", c.results_compared},
          {"disagreements", disagreements}, {"problems", c.problems}, {"clean", c.clean()}};
}

std::string format_device_comparison(const DeviceComparison& c, const std::vector<DeviceRun>& runs) {
  std::ostringstream out;
  out << runs.size() << " devices, " << c.results_compared << " results compared bit for bit: ";
  if (c.clean()) {
    out << "all agree.\n";
    return out.str();
  }
  out << c.disagreements.size() << " disagree.\n";
  for (const auto& p : c.problems) out << "  problem: " << p << "\n";
  for (const auto& d : c.disagreements) {
    out << "  " << d.result_id << ": ";
    if (d.deviating.empty()) out << "no device named";
    for (size_t k = 0; k < d.deviating.size(); ++k)
      out << (k ? ", " : "deviating: ") << runs[d.deviating[k]].device << " (" << d.statuses[d.deviating[k]] << ")";
    out << " — " << d.why << "\n";
  }
  return out.str();
}

}  // namespace mmasp
