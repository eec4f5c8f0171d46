// The same run on several devices (mmasp run --devices): do they agree bit for bit, and if not, which one deviates?
// Each device's run.json is an ordinary run of the same cases; results are compared through their digests
// (results[].digest). Where devices disagree on a result, the deviating device is named: with three or more, the ones
// outside the majority digest; with two, the one whose own judgement (the exact oracle and, where verified, the
// bit-exact model) is worse. When neither judgement tells them apart, no device is named and the disagreement is
// reported as such.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/run_record.h"

namespace mmasp {

struct DeviceRun {
  std::string device;   // "GPU 0 NVIDIA H100 ... (uuid)", "emulator 1"
  RunRecord run;
  int exit_code = 0;
};

struct DeviceDisagreement {
  std::string result_id;
  std::vector<std::string> digests;     // per device, in DeviceRun order ("" where the device has none)
  std::vector<std::string> statuses;    // per device
  std::vector<size_t> deviating;        // indices of the devices named; empty when none can be named
  std::string why;                      // how they were named (majority, judgement) or why none was
};

struct DeviceComparison {
  size_t results_compared = 0;
  std::vector<DeviceDisagreement> disagreements;
  std::vector<std::string> problems;    // runs that are not of the same cases, or that failed to run
  bool clean() const { return disagreements.empty() && problems.empty(); }
};

DeviceComparison compare_devices(const std::vector<DeviceRun>& runs);
nlohmann::json to_json(const DeviceComparison& comparison, const std::vector<DeviceRun>& runs);
std::string format_device_comparison(const DeviceComparison& comparison, const std::vector<DeviceRun>& runs);

}  // namespace mmasp
