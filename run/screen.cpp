#include "run/screen.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "generators/bulk.h"
#include "generators/reproduction.h"
#include "judge/suites.h"
#include "harness/backend.h"
#include "harness/clock_watch.h"
#include "harness/gpu_probe.h"
#include "harness/resident.h"
#include "judge/model_source.h"
#include "judge/resident_suite.h"
#include "harness/resident_source.h"
#include "mmasp_commit.h"
#include "oracle/numeric_model_table.h"
#include "oracle/text.h"
#include "reports/run_record.h"
#include "run/devices.h"
#include "run/pair_coverage.h"
#include "oracle/input_file.h"
#include "oracle/output_file.h"
#include "run/folder_lock.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t kIndicesKept = 16;   // deviating case indices kept per pair in a verdict

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

json device_json(int ordinal, const DeviceFingerprint& f) {
  const auto serial = gpu_serial(f.uuid);
  return {{"ordinal", ordinal}, {"name", f.name}, {"uuid", f.uuid}, {"serial", serial ? json(*serial) : json(nullptr)},
          {"sm", f.sm}, {"driver", f.driver_version}, {"driver_api", f.driver_api_version}, {"ecc", f.ecc}};
}

}  // namespace

std::string_view name(ScreenVerdict verdict) {
  switch (verdict) {
    case ScreenVerdict::pass: return "pass";
    case ScreenVerdict::fail: return "fail";
    case ScreenVerdict::error: return "error";
  }
  return "error";
}

std::optional<ScreenVerdict> screen_verdict_named(std::string_view text) {
  for (ScreenVerdict verdict : {ScreenVerdict::pass, ScreenVerdict::fail, ScreenVerdict::error})
    if (name(verdict) == text) return verdict;
  return std::nullopt;
}

int exit_code_for(ScreenVerdict verdict) { return verdict == ScreenVerdict::pass ? 0 : verdict == ScreenVerdict::fail ? 1 : 2; }

namespace {

// The model that judges this GPU's float forms (judge/model_source.h): --model-record, the search path, the table.
ModelSource screen_model_source(const ScreenOptions& o, const DeviceFingerprint& fingerprint) {
  ModelSourceRequest request;
  request.architecture = "sm_" + std::to_string(fingerprint.sm);
  request.driver_version = fingerprint.driver_version;
  request.device_uuid = fingerprint.uuid;
  request.record = o.model_record;
  return resolve_model_source(request);
}

// The pairs screened: every pair the image holds that has a judge (an integer form, or a float form with a model);
// the verdict counts the pairs left out, and why.
std::vector<std::pair<const Form*, int>> screened_pairs(const ResidentPath& path, const ModelSource& source, int sm,
                                                        json& verdict) {
  std::vector<std::pair<const Form*, int>> pairs;
  size_t without_model = 0, not_in_image = 0;
  const std::optional<Target> target = target_for_sm(sm);
  for (const Form& form : instruction_space()) {
    if (!path.covers(form)) {
      if (target && form.legal_on(*target, form.version_for(*target))) not_in_image += form.selectors.size();
      continue;
    }
    if (!form.is_integer() && !source.lookup(form)) {
      without_model += form.selectors.size();
      continue;
    }
    for (int selector : form.selectors) pairs.push_back({&form, selector});
  }
  verdict["pairs_without_model"] = without_model;
  verdict["pairs_not_in_image"] = not_in_image;
  return pairs;
}

// A pair as the GPU screened it: its model (float forms) and how many cases of its stream the GPU judged.
struct ScreenedPair {
  const Form* form;
  int selector;
  std::optional<ModelParameters> model;
  uint64_t cases;
};

// The fault coverage of what each pair's stream ran (run/pair_coverage.h: simulated on the host from the first cases of
// the stream the GPU drew, kept in the coverage cache), after the budget the GPU had; each pair's goes into its entry
// of `pair_list`, the GPU's over all pairs is returned.
json screen_coverage(const std::vector<ScreenedPair>& screened, uint64_t seed, json& pair_list) {
  const auto start = Clock::now();
  uint64_t detectable = 0, detected = 0;
  for (size_t p = 0; p < screened.size(); ++p) {
    const ScreenedPair& pair = screened[p];
    if (!fault_model_applies(*pair.form) || (!pair.form->is_integer() && !pair.model)) continue;
    CoverageStream stream;
    stream.seed = seed;
    stream.special = false;
    stream.random_cases = std::min<uint64_t>(pair.cases, kCoverageRandomCases);
    const CoverageSummary c = pair_coverage(*pair.form, pair.selector, pair.model ? &*pair.model : nullptr, stream,
                                            std::max(1u, std::thread::hardware_concurrency()),
                                            default_coverage_cache_dir());
    detectable += c.detectable;
    detected += c.detected;
    pair_list[p]["coverage"] = {{"summary", c.summary()}, {"percent", c.percent()}, {"stream", c.stream},
                                {"not_detected", c.not_detected}};
  }
  return {{"summary", coverage_summary_text(detected, detectable)}, {"detectable", detectable}, {"detected", detected},
          {"seconds", seconds_since(start)}, {"model", "docs/coverage.md"}};
}

}  // namespace

ScreenOutcome screen_device(const ScreenOptions& o, const std::function<void(const std::string&)>& say) {
  const auto start = Clock::now();
  json verdict = {{"schema", "mmasp-screen/1"},
                  {"mmasp", {{"commit", MMASP_GIT_COMMIT}, {"case_streams", gen::case_streams_identity()}}},
                  {"path", "gpu-resident"}, {"seed", o.seed}, {"budget_seconds", o.budget}};
  const auto finish = [&](ScreenVerdict outcome) {
    verdict["verdict"] = name(outcome);
    verdict["seconds"] = seconds_since(start);
    if (!o.verdict.empty()) write_file_atomically(o.verdict, verdict.dump(2) + "\n");
    return ScreenOutcome{outcome, verdict};
  };
  try {
    CudaDevice device(o.device);
    const DeviceFingerprint fingerprint = device.fingerprint();
    verdict["device"] = device_json(o.device, fingerprint);
    ResidentPath path(device, o.image);
    const std::string architecture = "sm_" + std::to_string(fingerprint.sm);
    const ModelSource source = screen_model_source(o, fingerprint);
    verdict.update({{"image", name(path.image())}, {"warnings", source.warnings},
                    {"model_source", source.description.empty() ? "none: integer forms only" : source.description}});
    const std::vector<std::pair<const Form*, int>> pairs = screened_pairs(path, source, fingerprint.sm, verdict);
    resident::Fault fault;
    if (o.inject_fault_rate) {
      fault.kind = resident::Fault::output;
      fault.element = 63;
      fault.xor_mask = 1;
      fault.one_in = o.inject_fault_rate;
      fault.salt = 0x5eed;
      verdict["injected_fault"] = "test-only: D[7][7] bit 0 flipped in 1 of " + std::to_string(o.inject_fault_rate) + " cases";
    }
    uint64_t cases = 0, deviating = 0;
    json pair_list = json::array(), deviations = json::array();
    std::vector<ScreenedPair> screened;
    // The GPU's clock while it is screened (harness/clock_watch.h): a GPU that slows itself for heat or power screens
    // fewer cases in the same budget, and the verdict says so.
    ClockWatch clock_watch(fingerprint.uuid);
    for (size_t p = 0; p < pairs.size(); ++p) {
      const Form& form = *pairs[p].first;
      const int selector = pairs[p].second;
      const auto model = form.is_integer() ? std::nullopt : source.lookup(form);
      const uint64_t stream = random_stream_seed(o.seed, selector);
      // The pair's fair share of what is left; at least one launch (judge/resident_suite.h).
      LaunchPlan plan;
      plan.seconds = std::max(0.0, (o.budget - seconds_since(start)) / double(pairs.size() - p));
      plan.kept = kIndicesKept;
      plan.fault = o.inject_fault_rate ? &fault : nullptr;
      const LaunchTotals launched = run_launches(path, form, selector, model ? &*model : nullptr, stream, plan);
      const uint64_t pair_cases = launched.counts.checked, pair_deviating = launched.counts.deviating;
      const std::vector<uint64_t>& indices = launched.deviating_indices;
      cases += pair_cases;
      deviating += pair_deviating;
      pair_list.push_back({{"form", form.opcode}, {"selector", selector}, {"cases", pair_cases}, {"deviating", pair_deviating}});
      screened.push_back({&form, selector, model, pair_cases});
      if (pair_deviating) {
        // The first deviating case as the GPU drew and computed it: a case file to send to a hardware team.
        json entry = {{"form", form.opcode}, {"selector", selector}, {"stream_seed", stream}, {"deviating", pair_deviating},
                      {"indices", indices}};
        try {
          const auto dumped = path.dump(form, selector, model ? &*model : nullptr, stream, indices.front(), 1);
          const std::string origin = "mmasp screen on GPU " + std::to_string(o.device) + " " + fingerprint.name + " " +
                                     fingerprint.uuid + ", seed " + std::to_string(o.seed) + ", random #" +
                                     std::to_string(indices.front()) + " (replayed: the D it gives now)";
          entry["repro"] = gen::save_failure(dumped.front().test, std::span<const uint32_t>(dumped.front().d), origin, {},
                                             fs::path(o.verdict.empty() ? o.out : fs::path(o.verdict).parent_path().string()) /
                                                 ("cases-gpu" + std::to_string(o.device)), architecture);
        } catch (const std::exception& error) {
          entry["repro_error"] = error.what();
        }
        deviations.push_back(entry);
      }
      if (say && (p + 1) % 16 == 0)
        say("GPU " + std::to_string(o.device) + ": " + std::to_string(p + 1) + " of " + std::to_string(pairs.size()) +
            " pairs, " + std::to_string(cases) + " cases, " + std::to_string(deviating) + " deviating");
    }
    if (const ClockReport c = clock_watch.stop(); c.samples) {
      verdict["clocks"] = clock_json(c);
      verdict["clocks"].update({{"slowed", c.slowed()}, {"summary", describe_clocks(c)}});
    }
    verdict["coverage"] = screen_coverage(screened, o.seed, pair_list);
    verdict["pairs_screened"] = pairs.size();
    verdict["cases"] = cases;
    verdict["deviating_cases"] = deviating;
    verdict["deviations"] = deviations;
    verdict["pairs"] = pair_list;
    return finish(deviating ? ScreenVerdict::fail : ScreenVerdict::pass);
  } catch (const std::exception& error) {
    verdict["error"] = error.what();
    return finish(ScreenVerdict::error);
  }
}

int screen_devices(const ScreenOptions& o, const std::vector<std::string>& self_argv,
                   const std::function<void(const std::string&)>& say) {
  if (o.budget <= 0) throw UsageError("--budget must be positive seconds per GPU");
  const std::vector<DeviceTarget> devices = parse_devices(o.devices);
  for (const auto& d : devices)
    if (d.arguments.front() != "--device") throw UsageError("mmasp screen needs GPUs: --devices all or 0,2,...");
  int faulty = -1;
  std::string rate;
  if (!o.inject_fault_on.empty()) {
    const size_t colon = o.inject_fault_on.find(':');
    const std::string index = o.inject_fault_on.substr(0, colon);
    rate = colon == std::string::npos ? "" : o.inject_fault_on.substr(colon + 1);
    if (!all_digits(index) || index.empty() || index.size() > 3 || std::stoul(index) >= devices.size() || !all_digits(rate) ||
        rate.empty() || rate.size() > 18)
      throw UsageError("--inject-fault-on takes K:N (device K of the list, 1 in N cases), not '" + o.inject_fault_on + "'");
    faulty = std::stoi(index);
  }
  const FolderLock lock(o.out, "--out");
  std::vector<pid_t> pids;
  for (size_t d = 0; d < devices.size(); ++d) {
    std::vector<std::string> args = self_argv;
    args.insert(args.end(), {"--device", devices[d].arguments[1], "--verdict", (fs::path(o.out) / (devices[d].label + ".json")).string()});
    if (int(d) == faulty) args.insert(args.end(), {"--inject-fault-rate", rate});
    pids.push_back(spawn_self(args, fs::path(o.out) / (devices[d].label + ".log")));
    if (say) say("mmasp screen: " + devices[d].label + " started");
  }
  json all = {{"schema", "mmasp-screen-fleet/1"}, {"budget_seconds", o.budget}, {"seed", o.seed}, {"gpus", json::array()}};
  int worst = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const int code = wait_exit_code(pids[d]);
    json verdict;
    try {
      verdict = read_json_file(fs::path(o.out) / (devices[d].label + ".json"), kMaxSmallJsonBytes, "a screen verdict");
    } catch (const std::exception& error) {
      verdict = {{"schema", "mmasp-screen/1"}, {"verdict", name(ScreenVerdict::error)},
                 {"error", "no verdict from its process (exit " + std::to_string(code) + "): " + error.what()}};
    }
    // A verdict file that does not say, or says something else, is an error of that GPU's screen.
    const std::optional<ScreenVerdict> said =
        verdict.contains("verdict") && verdict["verdict"].is_string() ? screen_verdict_named(verdict["verdict"].get<std::string>()) : std::nullopt;
    const ScreenVerdict outcome = said.value_or(ScreenVerdict::error);
    worst = std::max(worst, exit_code_for(outcome));
    if (say) {
      std::string line = "mmasp screen: " + devices[d].label;
      if (verdict.contains("device")) line += " " + verdict["device"].value("name", "") + " " + verdict["device"].value("uuid", "");
      line += ": " + std::string(name(outcome));
      if (verdict.contains("cases"))
        line += ", " + std::to_string(verdict["cases"].get<uint64_t>()) + " cases, " +
                std::to_string(verdict["deviating_cases"].get<uint64_t>()) + " deviating";
      if (verdict.contains("clocks") && verdict["clocks"].value("slowed", false))
        line += "; slowed itself for heat or power (mean SM clock " +
                std::to_string(int(verdict["clocks"].value("mean_mhz", 0.0) + 0.5)) + " of " +
                std::to_string(verdict["clocks"].value("max_mhz", 0u)) + " MHz)";
      if (verdict.contains("error")) line += " (" + verdict["error"].get<std::string>() + ")";
      say(line);
    }
    all["gpus"].push_back(verdict);
  }
  write_file_atomically(fs::path(o.out) / "screen.json", all.dump(2) + "\n");
  if (say) say("verdicts: " + (fs::path(o.out) / "screen.json").string());
  return worst;
}

}  // namespace mmasp::run
