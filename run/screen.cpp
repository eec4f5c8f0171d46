#include "run/screen.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "generators/bulk.h"
#include "generators/reproduction.h"
#include "harness/backend.h"
#include "harness/clock_watch.h"
#include "harness/fault_injection.h"
#include "harness/gpu_probe.h"
#include "harness/parallel.h"
#include "resident/resident.h"
#include "resident/resident_source.h"
#include "judge/case_judgement.h"
#include "judge/compact_set.h"
#include "judge/model_source.h"
#include "judge/resident_suite.h"
#include "judge/suites.h"
#include "mmasp_commit.h"
#include "oracle/input_file.h"
#include "oracle/numeric_model_table.h"
#include "oracle/output_file.h"
#include "oracle/text.h"
#include "reports/findings.h"
#include "reports/run_record.h"
#include "run/backends.h"
#include "run/devices.h"
#include "run/folder_lock.h"
#include "run/pair_coverage.h"
#include "run/usage_error.h"

namespace mmasp::run {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint32_t kIndicesKept = 16;   // deviating case indices kept per pair in a verdict

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

ScreenDevice screen_device_of(int ordinal, const DeviceFingerprint& f) {
  return {ordinal, f.name, f.uuid, gpu_serial(f.uuid), f.sm, f.driver_version, f.driver_api_version, f.ecc};
}

}  // namespace


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
                                                        ScreenRecord& verdict) {
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
  verdict.pairs_without_model = without_model;
  verdict.pairs_not_in_image = not_in_image;
  return pairs;
}

// A pair as the GPU screened it: its model (float forms) and how many cases of its stream the GPU judged.
struct ScreenedPair {
  const Form* form;
  int selector;
  std::optional<ModelParameters> model;
  uint64_t cases;                // resident cases judged
  std::vector<MmaCase> compact;  // its compact set's cases, when there is one
};

// A verdict before anything is screened: what screens and with which options; its verdict error until screening says
// more.
ScreenRecord unscreened_verdict(const ScreenOptions& o) {
  ScreenRecord verdict;
  verdict.commit = MMASP_GIT_COMMIT;
  verdict.case_streams = gen::case_streams_identity();
  verdict.path = o.emulator ? "emulator" : "gpu-resident";
  verdict.seed = o.seed;
  verdict.budget_seconds = o.budget;
  return verdict;
}

std::string device_label(const ScreenOptions& o) { return o.emulator ? "emulator" : "GPU " + std::to_string(o.device); }

// Where a deviating case's file goes: beside the verdict.
fs::path cases_directory(const ScreenOptions& o) {
  return fs::path(o.verdict.empty() ? o.out : fs::path(o.verdict).parent_path().string()) /
         (o.emulator ? std::string("cases-emulator") : "cases-gpu" + std::to_string(o.device));
}

// The fault coverage of what each pair ran (run/pair_coverage.h: simulated on the host, kept in the coverage cache):
// its compact set, then the first cases (at most 10,000) of the resident stream the GPU drew. Each pair's goes into its
// entry of `pair_list`; the GPU's over all pairs, and the compact sets' own, are returned.
ScreenCoverage screen_coverage(const std::vector<ScreenedPair>& screened, uint64_t seed, std::vector<ScreenPair>& pair_list) {
  const auto start = Clock::now();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  uint64_t detectable = 0, detected = 0, compact_detected = 0;
  bool any_compact = false;
  for (size_t p = 0; p < screened.size(); ++p) {
    const ScreenedPair& pair = screened[p];
    if (!fault_model_applies(*pair.form) || (!pair.form->is_integer() && !pair.model)) continue;
    const ModelParameters* model = pair.model ? &*pair.model : nullptr;
    CoverageStream stream;
    stream.seed = seed;
    stream.special = false;
    stream.files = pair.compact;
    stream.random_cases = std::min<uint64_t>(pair.cases, kCoverageRandomCases);
    const CoverageSummary c = pair_coverage(*pair.form, pair.selector, model, stream, threads, default_coverage_cache_dir());
    detectable += c.detectable;
    detected += c.detected;
    ScreenPairCoverage& coverage = pair_list[p].coverage.emplace();
    coverage = {c.summary(), c.percent(), c.stream, c.not_detected, std::nullopt};
    if (!pair.compact.empty()) {
      any_compact = true;
      stream.random_cases = 0;
      const CoverageSummary alone = pair_coverage(*pair.form, pair.selector, model, stream, threads, default_coverage_cache_dir());
      compact_detected += alone.detected;
      coverage.compact_set = alone.summary();
    }
  }
  ScreenCoverage coverage{coverage_summary_text(detected, detectable), detectable, detected, seconds_since(start),
                          "docs/coverage.md", std::nullopt};
  if (any_compact) coverage.compact_sets = coverage_summary_text(compact_detected, detectable);
  return coverage;
}

// The compact-set step: each screened pair's set (judge/compact_set.h) through `backend`, every case judged bit for
// bit as `mmasp run` judges it. On the toolkit path the modules are compiled first, on every host thread, and that
// time is given apart: a screen of a warm module store runs the sets in well under a second.
struct CompactStep {
  const fs::path directory;
  Backend& backend;
  GpuBackend* gpu;                // null on the emulator
  const ModuleStore* store;       // the toolkit path's (null: the driver's JIT, or the emulator)
  std::string origin;             // where a failing case's file says it came from
  fs::path cases_dir;
  std::string architecture;

  ScreenCompactSets run(std::vector<ScreenedPair>& pairs, std::vector<ScreenPair>& pair_list,
                        std::vector<ScreenDeviation>& deviations) {
    const auto start = Clock::now();
    const std::map<const Form*, CompactSet> sets =
        read_for_option("--compact-sets", [&] { return load_compact_sets(directory); });
    for (ScreenedPair& pair : pairs)
      if (const auto it = sets.find(pair.form); it != sets.end()) pair.compact = compact_cases(it->second, pair.selector);
    double compile_seconds = 0;
    if (gpu && store) {
      const auto compile_start = Clock::now();
      std::vector<std::string> errors(pairs.size());
      parallel_for(pairs.size(), std::max(1u, std::thread::hardware_concurrency()), [&](size_t p) {
        if (pairs[p].compact.empty()) return;
        std::string why;
        if (!store->cubin(gpu->ptx(*pairs[p].form, pairs[p].selector), gpu->target().name, &why)) errors[p] = why;
      }, 1);
      for (const std::string& error : errors)
        if (!error.empty()) throw std::runtime_error("compact sets: " + error);
      compile_seconds = seconds_since(compile_start);
    }
    const auto run_start = Clock::now();
    uint64_t cases = 0, with_set = 0, failing = 0;
    for (size_t p = 0; p < pairs.size(); ++p) {
      const ScreenedPair& pair = pairs[p];
      if (pair.compact.empty()) continue;
      ++with_set;
      const auto d = execute(backend, *pair.form, pair.selector, pair.compact);
      uint64_t pair_failing = 0;
      for (size_t c = 0; c < pair.compact.size(); ++c) {
        const CaseJudgement j = judge_case(pair.compact[c], d[c], pair.model ? &*pair.model : nullptr, ModelMode::strict, false);
        if (!is_failure(j.verdict.status)) continue;
        if (!pair_failing++) deviations.push_back(failing_case(pair, c, d[c], j));
      }
      cases += pair.compact.size();
      failing += pair_failing;
      pair_list[p].compact_cases = pair.compact.size();
      pair_list[p].compact_failing = pair_failing;
    }
    return {directory.string(), gpu ? std::string(name(gpu->path())) : "emulator", with_set, pairs.size() - with_set,
            cases, failing, compile_seconds, seconds_since(run_start), seconds_since(start)};
  }

 private:
  ScreenDeviation failing_case(const ScreenedPair& pair, size_t c, const std::vector<uint32_t>& d, const CaseJudgement& j) const {
    ScreenDeviation entry;
    entry.form = pair.form->opcode;
    entry.selector = pair.selector;
    entry.step = "compact set";
    entry.status = std::string(name(j.verdict.status));
    entry.case_index = c;
    try {
      entry.repro = gen::save_failure(pair.compact[c], std::span<const uint32_t>(d), origin + ", compact set case " +
                                      std::to_string(c), {}, cases_dir, architecture);
    } catch (const std::exception& error) {
      entry.repro_error = error.what();
    }
    return entry;
  }
};

// The screened pairs on the emulator: every form of the architecture with a judge (integer, or a model).
std::vector<std::pair<const Form*, int>> emulated_pairs(const ModelSource& source, const Target& target) {
  std::vector<std::pair<const Form*, int>> pairs;
  for (const Form& form : instruction_space())
    if (form.legal_on(target, form.version_for(target)) && (form.is_integer() || source.lookup(form)))
      for (int selector : form.selectors) pairs.push_back({&form, selector});
  return pairs;
}

// The resident step: each pair's fair share of what is left of the budget, every case drawn, run and judged on the GPU.
void screen_resident(ResidentPath& path, const ScreenOptions& o, const DeviceFingerprint& fingerprint,
                     std::vector<ScreenedPair>& screened, ScreenRecord& verdict, Clock::time_point start,
                     const std::function<void(const std::string&)>& say) {
  resident::Fault fault;
  if (o.inject_fault_rate) {
    fault.kind = resident::Fault::output;
    fault.element = 63;
    fault.xor_mask = 1;
    fault.one_in = o.inject_fault_rate;
    fault.salt = 0x5eed;
  }
  for (size_t p = 0; p < screened.size(); ++p) {
    ScreenedPair& pair = screened[p];
    const Form& form = *pair.form;
    const ModelParameters* model = pair.model ? &*pair.model : nullptr;
    const uint64_t stream = random_stream_seed(o.seed, pair.selector);
    // The pair's fair share of what is left; at least one launch (judge/resident_suite.h).
    LaunchPlan plan;
    plan.seconds = std::max(0.0, (o.budget - seconds_since(start)) / double(screened.size() - p));
    plan.kept = kIndicesKept;
    plan.fault = o.inject_fault_rate ? &fault : nullptr;
    const LaunchTotals launched = run_launches(path, form, pair.selector, model, stream, plan);
    pair.cases = launched.counts.checked;
    verdict.cases += pair.cases;
    verdict.deviating_cases += launched.counts.deviating;
    verdict.pairs[p].cases = pair.cases;
    verdict.pairs[p].deviating = launched.counts.deviating;
    if (launched.counts.deviating) {
      // The first deviating case as the GPU drew and computed it: a case file to send to a hardware team.
      const std::vector<uint64_t>& indices = launched.deviating_indices;
      ScreenDeviation entry;
      entry.form = form.opcode;
      entry.selector = pair.selector;
      entry.step = "resident";
      entry.stream_seed = stream;
      entry.deviating = launched.counts.deviating;
      entry.indices = indices;
      try {
        const auto dumped = path.dump(form, pair.selector, model, stream, indices.front(), 1);
        const std::string origin = "mmasp screen on GPU " + std::to_string(o.device) + " " + fingerprint.name + " " +
                                   fingerprint.uuid + ", seed " + std::to_string(o.seed) + ", random #" +
                                   std::to_string(indices.front()) + " (replayed: the D it gives now)";
        entry.repro = gen::save_failure(dumped.front().test, std::span<const uint32_t>(dumped.front().d), origin, {},
                                        cases_directory(o), "sm_" + std::to_string(fingerprint.sm));
      } catch (const std::exception& error) {
        entry.repro_error = error.what();
      }
      verdict.deviations.push_back(std::move(entry));
    }
    if (say && (p + 1) % 16 == 0)
      say(device_label(o) + ": " + std::to_string(p + 1) + " of " + std::to_string(screened.size()) + " pairs, " +
          std::to_string(verdict.cases) + " cases, " + std::to_string(verdict.deviating_cases) + " deviating");
  }
}

}  // namespace

namespace {

// The compact-set step: through the toolkit's module where this machine has one (kept in the module store), else the
// driver's JIT, or on the emulator; with a test-only fault of the catalogue when one is injected.
void screen_compact_sets(const ScreenOptions& o, Backends& backends, const ModelSource& source,
                         const DeviceFingerprint& fingerprint, std::vector<ScreenedPair>& screened, ScreenRecord& verdict,
                         const std::function<void(const std::string&)>& say) {
  Backend* backend = &backends.primary();
  GpuBackend* gpu = nullptr;
  if (!o.emulator) {
    gpu = backends.gpu[backends.ptxas_info ? 0 : 1];
    backend = gpu;
  }
  std::unique_ptr<FaultyBackend> faulty;
  if (!o.inject_fault.empty()) {
    const Fault* fault = find_fault(o.inject_fault);
    if (!fault) throw UsageError("--inject-fault: no fault '" + o.inject_fault + "' in the catalogue");
    faulty = std::make_unique<FaultyBackend>(*backend, *fault, source.lookup);
    backend = faulty.get();
    verdict.injected_fault = "test-only: " + fault->id + " in every batch of the compact sets";
  }
  const std::string origin =
      "mmasp screen on " + (o.emulator ? std::string("the emulator") : device_label(o) + " " + fingerprint.name + " " + fingerprint.uuid) +
      ", seed " + std::to_string(o.seed);
  CompactStep step{o.compact_sets, *backend, gpu, gpu && gpu->path() == CompilePath::toolkit ? backends.store.get() : nullptr,
                   origin, cases_directory(o), "sm_" + std::to_string(fingerprint.sm)};
  const ScreenCompactSets& sets = verdict.compact_sets.emplace(step.run(screened, verdict.pairs, verdict.deviations));
  if (say)
    say(device_label(o) + ": compact sets: " + std::to_string(sets.cases) + " cases of " + std::to_string(sets.pairs) +
        " pairs, " + std::to_string(sets.failing) + " failing");
}

// The resident step under the GPU's clock watch (harness/clock_watch.h): a GPU that slows itself for heat or power
// screens fewer cases in the same budget, and the verdict says so.
void screen_resident_watched(ResidentPath& path, const ScreenOptions& o, const DeviceFingerprint& fingerprint,
                             std::vector<ScreenedPair>& screened, ScreenRecord& verdict, Clock::time_point start,
                             const std::function<void(const std::string&)>& say) {
  if (o.inject_fault_rate)
    verdict.injected_fault = "test-only: D[7][7] bit 0 flipped in 1 of " + std::to_string(o.inject_fault_rate) + " cases";
  ClockWatch clock_watch(fingerprint.uuid);
  screen_resident(path, o, fingerprint, screened, verdict, start, say);
  if (const ClockReport c = clock_watch.stop(); c.samples) verdict.clocks = ScreenClocks{c, c.slowed(), describe_clocks(c)};
}

}  // namespace

ScreenRecord screen_device(const ScreenOptions& o, const std::function<void(const std::string&)>& say) {
  const auto start = Clock::now();
  ScreenRecord verdict = unscreened_verdict(o);
  const auto finish = [&](ScreenVerdict outcome) {
    verdict.verdict = outcome;
    verdict.seconds = seconds_since(start);
    if (!o.verdict.empty()) write_file_atomically(o.verdict, screen_json(verdict).dump(2) + "\n");
    return verdict;
  };
  try {
    BackendRequest request;
    request.choice = o.emulator ? BackendChoice::emulator : BackendChoice::gpu;
    request.gpu_required_by = "mmasp screen";
    request.device = std::max(0, o.device);
    request.jobs = request.threads = std::max(1u, std::thread::hardware_concurrency());
    DeviceFingerprint fingerprint;
    fingerprint.sm = 90;   // the emulator computes sm_90's arithmetic
    std::optional<Backends> backends;
    if (!o.emulator) {
      backends.emplace(make_backends(request));
      fingerprint = backends->device->fingerprint();
      verdict.device = screen_device_of(o.device, fingerprint);
    } else {
      verdict.emulated = "the CPU emulator computing with the model: says nothing about any GPU";
    }
    const ModelSource source = screen_model_source(o, fingerprint);
    if (o.emulator) {
      request.emulator_arithmetic = source.lookup;
      request.emulator_arithmetic_name = source.description;
      backends.emplace(make_backends(request));
    }
    std::optional<ResidentPath> path;
    if (!o.emulator) path.emplace(*backends->device, o.image, "", backends->store.get());
    verdict.warnings = source.warnings;
    verdict.model_source = source.description.empty() ? "none: integer forms only" : source.description;
    if (path) verdict.image = std::string(name(path->image()));
    if (path && path->image_load() == ResidentPath::ImageLoad::jit_compiled) verdict.image_jit_seconds = path->jit_seconds();
    std::vector<std::pair<const Form*, int>> pairs =
        path ? screened_pairs(*path, source, fingerprint.sm, verdict) : emulated_pairs(source, *target_for_sm(90));
    std::erase_if(pairs, [&](const auto& pair) { return !glob_match(o.filter, pair.first->opcode); });
    if (pairs.empty()) throw UsageError("no form to screen matches --filter " + o.filter);

    std::vector<ScreenedPair> screened;
    for (const auto& [form, selector] : pairs) {
      screened.push_back({form, selector, form->is_integer() ? std::nullopt : source.lookup(*form), 0, {}});
      verdict.pairs.push_back({form->opcode, selector, {}, {}, {}, {}, {}});
    }
    if (!o.compact_sets.empty()) screen_compact_sets(o, *backends, source, fingerprint, screened, verdict, say);
    if (path) screen_resident_watched(*path, o, fingerprint, screened, verdict, start, say);
    verdict.coverage = screen_coverage(screened, o.seed, verdict.pairs);
    verdict.pairs_screened = pairs.size();
    const bool compact_failing = verdict.compact_sets && verdict.compact_sets->failing;
    return finish(verdict.deviating_cases || compact_failing ? ScreenVerdict::fail : ScreenVerdict::pass);
  } catch (const std::exception& error) {
    verdict.error = error.what();
    return finish(ScreenVerdict::error);
  }
}

int screen_emulated(const ScreenOptions& o, const std::function<void(const std::string&)>& say) {
  if (o.compact_sets.empty()) throw UsageError("mmasp screen --emulator runs the compact sets alone: --compact-sets is needed");
  const FolderLock lock(o.out, "--out");
  ScreenOptions one = o;
  one.verdict = (fs::path(o.out) / "emulator.json").string();
  const ScreenRecord outcome = screen_device(one, say);
  if (say) {
    std::string line = "mmasp screen: emulator: " + std::string(name(outcome.verdict));
    if (outcome.compact_sets)
      line += ", " + std::to_string(outcome.compact_sets->cases) + " compact-set cases, " +
              std::to_string(outcome.compact_sets->failing) + " failing";
    if (outcome.coverage) line += "; " + outcome.coverage->summary;
    if (outcome.error) line += " (" + *outcome.error + ")";
    say(line);
    say("verdict: " + one.verdict);
  }
  return exit_code_for(outcome.verdict);
}

int screen_devices(const ScreenOptions& o, const std::vector<std::string>& self_argv,
                   const std::function<void(const std::string&)>& say) {
  if (o.budget <= 0) throw UsageError("--budget must be positive seconds per GPU");
  const std::vector<DeviceTarget> devices = parse_devices(o.devices);
  for (const auto& d : devices)
    if (!d.gpu) throw UsageError("mmasp screen needs GPUs: --devices all or 0,2,...");
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
    args.insert(args.end(), {"--device", std::to_string(*devices[d].gpu), "--verdict", (fs::path(o.out) / (devices[d].label + ".json")).string()});
    if (int(d) == faulty) args.insert(args.end(), {"--inject-fault-rate", rate});
    pids.push_back(spawn_self(args, fs::path(o.out) / (devices[d].label + ".log")));
    if (say) say("mmasp screen: " + devices[d].label + " started");
  }
  ScreenFleetRecord fleet{o.budget, o.seed, {}};
  int worst = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const int code = wait_exit_code(pids[d]);
    ScreenRecord verdict;
    try {
      verdict = screen_record_from_json(
          read_json_file(fs::path(o.out) / (devices[d].label + ".json"), kMaxSmallJsonBytes, "a screen verdict"));
    } catch (const std::exception& error) {
      // A verdict file that is missing, or does not say what a verdict says, is an error of that GPU's screen.
      verdict = unscreened_verdict(o);
      verdict.error = "no verdict from its process (exit " + std::to_string(code) + "): " + error.what();
    }
    worst = std::max(worst, exit_code_for(verdict.verdict));
    if (say) {
      std::string line = "mmasp screen: " + devices[d].label;
      if (verdict.device) line += " " + verdict.device->name + " " + verdict.device->uuid;
      line += ": " + std::string(name(verdict.verdict));
      if (!verdict.error)
        line += ", " + std::to_string(verdict.cases) + " cases, " + std::to_string(verdict.deviating_cases) + " deviating";
      if (verdict.clocks && verdict.clocks->slowed)
        line += "; slowed itself for heat or power (mean SM clock " + std::to_string(int(verdict.clocks->report.mean_mhz + 0.5)) +
                " of " + std::to_string(verdict.clocks->report.max_mhz) + " MHz)";
      if (verdict.error) line += " (" + *verdict.error + ")";
      say(line);
    }
    fleet.gpus.push_back(std::move(verdict));
  }
  write_file_atomically(fs::path(o.out) / "screen.json", screen_fleet_json(fleet).dump(2) + "\n");
  if (say) say("verdicts: " + (fs::path(o.out) / "screen.json").string());
  return worst;
}

}  // namespace mmasp::run
