// Throughput of the GPU-resident path (resident/resident.h) beside the hardware's own rate and the host path, per
// sm_90 form (selector 0), all measured in one run on one GPU:
//   verified cases/s  cases drawn, run and judged on the GPU (every element against the model, or exactly)
//   drawn/s, drawn+run/s, judged/s   where the time goes: the cases only drawn; drawn and run; one case per warp
//                     judged again and again (the judge's own rate, with only its code running). For the pairs
//                     whose dense integer bytes go over their codes (PairTables::dense_over_codes, m16n8k128) the
//                     cancellation profile's C is found after packing, so drawn/s leaves it out, and the bytes are
//                     spread once per case before the instruction, so judged/s leaves that out; for the narrow pairs
//                     whose words go over their codes (PairTables::narrow_over_codes: fp8, m16n8k32 f16 and bf16) the
//                     words are made once per case, from codes judging spends, so judged/s leaves that out too
//   bare mma.sp/s     the instruction alone on fixed registers, four independent results per round, every SM full
//   fraction          verified / bare: how much of the tensor cores' own rate the check keeps
//   host cases/s      the host path of mmasp run (draw, pack, copy, run, judge by the model tier) on every host thread
// Options: --form GLOB (substring of the opcode), --seconds S (per resident measurement, default 0.5),
// --host-cases N (0: skip the host path; default 32768), --rare-fault N --fault-seconds S: a D bit flipped in 1 of N
// cases on m16n8k16 f16->f32 ordered, checked for S seconds: how many struck cases the resident check finds.
// --image cubin|ptx|auto: the resident kernel's image (the PTX one is what every GPU but sm_90 runs; on sm_90 it shows
// what the driver's JIT of the portable kernel costs beside the cubin). --image-file FILE: kernels built by hand from a
// variant of build/generated/resident_kernels_sm_90a.cu (nvcc as CMakeLists.txt runs it), loaded in place of the
// embedded image --image names: a kernel change measured without rebuilding this binary. --phase-barrier
// float|on|off: where the lean kernels' warps wait for their scheduler's others after every case (float: float pairs
// only, what mmasp run does). --max-warps N: at most N warps (in steps of 4) in a lean kernel's block, to measure what
// occupancy is worth to a form (the same cases and judgement, fewer warps to hide latency). --lean-kernel wide: the
// 1,024-thread lean kernel (64 registers) also for pairs that fit fewer than 32 warps (auto: the 768-thread one, 80
// registers, for those). Before a form is timed, 64 of its cases are dumped from the GPU and compared with the
// host's cases and D (dump_disagreement); a form whose image disagrees is reported NOT MEASURED, and the exit status
// is 1. Last, the GPU's SM clock while it measured (NVML; harness/clock_watch.h): a table from a GPU that slowed itself
// for heat or power says so.
// --stages off: the verified rate alone (no drawn/run/judged/bare columns). --expect FILE: the check the GPU-labelled
// CTest runs: each form's verified rate against this device's figures in FILE (schema mmasp-resident-expected/1,
// evidence/performance/resident-expected.json); exit 1 naming every form below its figure by more than the file's
// tolerance, 77 (not judged) without a GPU, without figures for this device, or on a GPU that slowed itself.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "harness/backend.h"
#include "judge/suites.h"
#include "harness/clock_watch.h"
#include "harness/gpu_probe.h"
#include "resident/resident.h"
#include "resident/resident_source.h"
#include "oracle/numeric_model_table.h"

#include <nlohmann/json.hpp>

using namespace mmasp;

namespace {

constexpr int kNotJudged = 77;   // CTest's SKIP_RETURN_CODE

// This device's expected verified cases/s per form from an mmasp-resident-expected/1 file, and the tolerance; empty
// figures when the file has none for `device_name`.
struct Expected {
  double tolerance = 0;
  std::string measured;
  std::map<std::string, double> figures;
};
Expected expected_figures(const std::string& file, const std::string& device_name) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + " cannot be read");
  const nlohmann::json document = nlohmann::json::parse(in);
  if (document.value("schema", "") != "mmasp-resident-expected/1") throw std::runtime_error(file + ": not mmasp-resident-expected/1");
  Expected out;
  out.tolerance = document.at("tolerance").get<double>();
  for (const auto& device : document.at("devices"))
    if (device.at("name").get<std::string>() == device_name) {
      out.measured = device.value("measured", "");
      for (const auto& [form, rate] : device.at("verified_per_second").items()) out.figures[form] = rate.get<double>();
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string filter;
  double seconds = 0.5, fault_seconds = 60;
  uint64_t host_cases = 32768, rare_fault = 0;
  ResidentImageChoice image = ResidentImageChoice::automatic;
  std::string image_file;
  ResidentPath::PhaseBarrier phase_barrier = ResidentPath::PhaseBarrier::float_pairs;
  unsigned max_warps = 0;
  bool wide_lean = false, stages = true;
  std::string expect;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--form") filter = argv[i + 1];
    else if (option == "--seconds") seconds = std::atof(argv[i + 1]);
    else if (option == "--host-cases") host_cases = std::strtoull(argv[i + 1], nullptr, 10);
    else if (option == "--rare-fault") rare_fault = std::strtoull(argv[i + 1], nullptr, 10);
    else if (option == "--fault-seconds") fault_seconds = std::atof(argv[i + 1]);
    else if (option == "--image" && std::string(argv[i + 1]) == "cubin") image = ResidentImageChoice::cubin;
    else if (option == "--image" && std::string(argv[i + 1]) == "ptx") image = ResidentImageChoice::ptx;
    else if (option == "--image" && std::string(argv[i + 1]) == "auto") image = ResidentImageChoice::automatic;
    else if (option == "--image-file") image_file = argv[i + 1];
    else if (option == "--phase-barrier" && std::string(argv[i + 1]) == "on") phase_barrier = ResidentPath::PhaseBarrier::on;
    else if (option == "--phase-barrier" && std::string(argv[i + 1]) == "off") phase_barrier = ResidentPath::PhaseBarrier::off;
    else if (option == "--phase-barrier" && std::string(argv[i + 1]) == "float")
      phase_barrier = ResidentPath::PhaseBarrier::float_pairs;
    else if (option == "--max-warps") max_warps = unsigned(std::strtoul(argv[i + 1], nullptr, 10));
    else if (option == "--lean-kernel" && std::string(argv[i + 1]) == "wide") wide_lean = true;
    else if (option == "--lean-kernel" && std::string(argv[i + 1]) == "auto") wide_lean = false;
    else if (option == "--stages" && std::string(argv[i + 1]) == "off") stages = false;
    else if (option == "--stages" && std::string(argv[i + 1]) == "on") stages = true;
    else if (option == "--expect") expect = argv[i + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", option.c_str());
      return 2;
    }
  }
  const GpuProbe probe = probe_gpus();
  if (!probe.available) {
    std::fprintf(stderr, "no GPU: %s\n", probe.reason.c_str());
    return expect.empty() ? 1 : kNotJudged;
  }
  auto device = std::make_shared<CudaDevice>(0);
  // A PTX image's JIT kept where mmasp run keeps it (the module store's default), so that only the first pays it.
  const ModuleStore store(default_ptxas_cache_dir() / "modules", nullptr);
  ResidentPath path(*device, image, image_file, &store);
  path.set_phase_barrier(phase_barrier);
  path.set_max_lean_warps(max_warps);
  path.set_wide_lean_kernel_always(wide_lean);
  const DeviceFingerprint f = device->fingerprint();
  const std::string loaded = path.image_load() == ResidentPath::ImageLoad::jit_compiled ? ", JIT-compiled now"
                             : path.image_load() == ResidentPath::ImageLoad::from_store ? ", its JIT from the module store"
                                                                                          : "";
  std::printf("device: %s (sm_%d, %d SMs), driver %s; selector 0 of each form; image %s%s%s (loaded in %.2f s%s); "
              "phase barrier %s; %s%s\n",
              f.name.c_str(), f.sm, f.sm_count, f.driver_version.c_str(), std::string(name(path.image())).c_str(),
              image_file.empty() ? "" : " from ", image_file.c_str(),
              path.load_seconds(), loaded.c_str(),
              phase_barrier == ResidentPath::PhaseBarrier::on    ? "on"
              : phase_barrier == ResidentPath::PhaseBarrier::off ? "off"
                                                                 : "float pairs",
              max_warps >= 4 ? ("at most " + std::to_string(max_warps / 4 * 4) + " warps a block").c_str()
                             : "warps as many as fit",
              wide_lean ? "; the 1,024-thread lean kernel for every lean pair" : "");
  Expected expected;
  if (!expect.empty()) {
    try {
      expected = expected_figures(expect, f.name);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "--expect: %s\n", error.what());
      return 2;
    }
    if (expected.figures.empty()) {
      std::printf("not judged: %s has no figures for %s\n", expect.c_str(), f.name.c_str());
      return kNotJudged;
    }
    std::printf("expected: %s (%s), each form at least %.0f %% of its figure\n", expect.c_str(), expected.measured.c_str(),
                100 * (1 - expected.tolerance));
  }
  std::vector<std::string> below;
  GpuBackend backend(device, CompilePath::driver_jit, nullptr);
  // The GPU's clock while it measures: a GPU that slows itself for heat ran a lent H100's kernels at 0.7 of their rate
  // (harness/clock_watch.h), so a table measured on one says so, and before/after comparisons alternate the binaries.
  ClockWatch clock_watch(f.uuid, 500);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::printf("%-72s %12s %12s %12s %12s %12s %9s %11s %8s\n", "form", "verified/s", "drawn/s", "drawn+run/s",
              "judged/s", "bare mma/s", "fraction", "host/s", "speedup");
  bool unmeasured = false;
  for (const Form& form : instruction_space()) {
    if (!path.covers(form) || form.opcode.find(filter) == std::string::npos) continue;
    const auto model = verified_model(form, "sm_90");
    const ModelParameters* parameters = model ? &*model : nullptr;
    // A rate counts only for a kernel that draws the host's cases and computes the model's D: an image loaded by
    // --image-file from other sources (tables of another meaning, say) can run fast and check something else.
    const std::string disagreement = dump_disagreement(form, parameters, 1, 1000, path.dump(form, 0, parameters, 1, 1000, 64));
    if (!disagreement.empty()) {
      std::printf("%-72s NOT MEASURED: %s\n", form.opcode.c_str(), disagreement.c_str());
      std::fflush(stdout);
      unmeasured = true;
      continue;
    }
    // Verified cases: a first launch for the rate, then one of about `seconds`.
    ResidentResult probe_run = path.check(form, 0, parameters, 1, 0, 1 << 20);
    const uint64_t count = std::max<uint64_t>(1 << 20, uint64_t(double(1 << 20) * seconds / std::max(probe_run.seconds, 1e-6)));
    const ResidentResult run = path.check(form, 0, parameters, 1, 1 << 20, count);
    const double verified = double(run.counts.checked) / run.seconds;
    double bare = 0, draw_rate = 0, run_rate = 0, judge_rate = 0;
    if (stages) {
      // Bare issue rate: scale the instructions per warp until a launch takes about `seconds`.
      uint64_t per_warp = 1 << 14, total = 0;
      double issue_seconds = path.issue(form, 0, parameters, per_warp, &total);
      per_warp = std::max<uint64_t>(per_warp, uint64_t(double(per_warp) * seconds / std::max(issue_seconds, 1e-6)));
      issue_seconds = path.issue(form, 0, parameters, per_warp, &total);
      bare = double(total) / issue_seconds;
      // Where the time goes: the same cases drawn only, and drawn and run without a judge.
      const ResidentResult drawn = path.stage(form, 0, parameters, resident::Mode::draw, count);
      const ResidentResult ran = path.stage(form, 0, parameters, resident::Mode::run, count);
      draw_rate = double(drawn.counts.generated) / drawn.seconds;
      run_rate = double(ran.counts.generated) / ran.seconds;
      const ResidentResult judged = path.stage(form, 0, parameters, resident::Mode::judge, count);
      judge_rate = double(judged.counts.checked) / judged.seconds;
    }
    if (const auto figure = expected.figures.find(form.opcode);
        figure != expected.figures.end() && verified < figure->second * (1 - expected.tolerance)) {
      char line[256];
      std::snprintf(line, sizeof line, "%.4g verified/s, expected %.4g", verified, figure->second);
      below.push_back(form.opcode + ": " + line);
    }
    double host = 0;
    if (host_cases) {
      SuiteContext context{backend, 1, threads, "", {}};
      context.model.mode = ModelMode::strict;
      context.model.parameters = [](const Form& form) { return verified_model(form, "sm_90"); };
      SuiteLimits limits;
      limits.min_cases = limits.max_cases = host_cases;
      limits.batch = 4096;
      const auto start = std::chrono::steady_clock::now();
      const SuiteResult result = run_suite(context, form, 0, Suite::random, limits);
      host = double(result.cases) / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::printf("%-72s %12.4g %12.4g %12.4g %12.4g %12.4g %9.2e %11.4g %8.0f%s\n", form.opcode.c_str(), verified, draw_rate,
                run_rate, judge_rate, bare, bare ? verified / bare : 0.0, host, host ? verified / host : 0.0,
                run.counts.deviating ? "  DEVIATIONS" : "");
    std::fflush(stdout);
  }
  if (rare_fault) {
    const Form& form = *find_form("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    const ModelParameters model = *verified_model(form, "sm_90");
    resident::Fault fault;
    fault.kind = resident::Fault::output;
    fault.element = 63;
    fault.xor_mask = 1;
    fault.one_in = rare_fault;
    fault.salt = 0x5eed;
    uint64_t cases = 0, found = 0, first = 0;
    double kernel_seconds = 0;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < fault_seconds) {
      const ResidentResult run = path.check(form, 0, &model, 99, first, uint64_t(1) << 30, &fault);
      cases += run.counts.checked;
      found += run.counts.deviating;
      kernel_seconds += run.seconds;
      first += uint64_t(1) << 30;
    }
    // How many cases the rate struck: the kernel's own test (splitmix(index ^ salt) % N == 0), counted on the host.
    std::vector<uint64_t> struck_by(threads);
    std::vector<std::thread> counting;
    for (unsigned t = 0; t < threads; ++t)
      counting.emplace_back([&, t] {
        for (uint64_t index = t; index < cases; index += threads)
          struck_by[t] += gen::portable::splitmix(index ^ fault.salt) % rare_fault == 0;
      });
    for (auto& thread : counting) thread.join();
    uint64_t struck = 0;
    for (uint64_t s : struck_by) struck += s;
    std::printf("rare fault (D[7][7] bit 0 in 1 of %llu cases): %llu cases in %.1f s (%.4g cases/s), %llu struck, %llu found\n",
                (unsigned long long)rare_fault, (unsigned long long)cases, kernel_seconds, double(cases) / kernel_seconds,
                (unsigned long long)struck, (unsigned long long)found);
  }
  const ClockReport clocks = clock_watch.stop();
  if (const std::string text = describe_clocks(clocks); !text.empty()) std::printf("%s\n", text.c_str());
  if (unmeasured) std::fprintf(stderr, "some forms were not measured: their image's cases or D are not the host's\n");
  if (unmeasured) return 1;
  if (expect.empty()) return 0;
  if (clocks.samples && clocks.slowed()) {
    std::printf("not judged: the GPU slowed itself for heat or power while it was measured\n");
    return kNotJudged;
  }
  for (const std::string& line : below) std::printf("BELOW THE EXPECTED FIGURE: %s\n", line.c_str());
  std::printf("%zu of %zu forms with a figure below it by more than %.0f %%\n", below.size(), expected.figures.size(),
              100 * expected.tolerance);
  return below.empty() ? 0 : 1;
}
