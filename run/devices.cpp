#include "run/devices.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "harness/gpu_probe.h"
#include "oracle/text.h"
#include "reports/device_comparison.h"
#include "oracle/output_file.h"
#include "run/folder_lock.h"
#include "run/usage_error.h"

extern char** environ;

namespace mmasp::run {
namespace fs = std::filesystem;

std::vector<std::string> DeviceTarget::arguments() const {
  if (gpu) return {"--device", std::to_string(*gpu)};
  return {"--emulator"};
}

std::vector<DeviceTarget> parse_devices(const std::string& text) {
  std::vector<DeviceTarget> out;
  if (text.rfind("emulator:", 0) == 0) {
    const std::string count = text.substr(9);
    if (!all_digits(count) || count.size() > 2 || std::stoi(count) < 2)
      throw UsageError("--devices emulator:N takes N from 2 to 99, not '" + count + "'");
    for (int i = 0; i < std::stoi(count); ++i) out.push_back({"emulator" + std::to_string(i), std::nullopt});
    return out;
  }
  if (text == "all") {
    const GpuProbe probe = probe_gpus();
    if (!probe.available) throw UsageError("--devices all: no GPU (" + probe.reason + ")");
    for (const auto& device : probe.devices)
      out.push_back({"gpu" + std::to_string(device.ordinal), device.ordinal});
    return out;
  }
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string ordinal = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!all_digits(ordinal) || ordinal.size() > 3)
      throw UsageError("--devices takes all, a list of GPU ordinals (0,2,...) or emulator:N; not '" + text + "'");
    for (const auto& existing : out)
      if (existing.label == "gpu" + ordinal) throw UsageError("--devices names GPU " + ordinal + " twice");
    out.push_back({"gpu" + ordinal, std::stoi(ordinal)});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

pid_t spawn_self(std::vector<std::string> args, const std::filesystem::path& log) {
  std::vector<char*> pointers;
  for (auto& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error(std::string("cannot start a device's process: ") + std::strerror(error));
  return pid;
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run_on_devices(const std::vector<std::string>& run_argv, const std::vector<DeviceTarget>& devices,
                   const DevicesOptions& o) {
  int faulty = -1;
  std::string fault;
  if (!o.inject_fault_on.empty()) {
    const size_t colon = o.inject_fault_on.find(':');
    const std::string index = o.inject_fault_on.substr(0, colon);
    if (colon == std::string::npos || !all_digits(index) || index.size() > 3 || std::stoul(index) >= devices.size())
      throw UsageError("--inject-fault-on takes K:FAULT with K < " + std::to_string(devices.size()) + ", not '" + o.inject_fault_on + "'");
    faulty = std::stoi(index);
    fault = o.inject_fault_on.substr(colon + 1);
  }
  const FolderLock lock(o.out, "--out");   // each device's run locks its own folder inside
  // Nothing is opened through a link: a device's folder or console log planted as one would send that device's run
  // (or its log) wherever the link points.
  for (const auto& device : devices)
    for (const fs::path& path : {fs::path(o.out) / device.label, fs::path(o.out) / (device.label + ".log"),
                                 fs::path(o.out) / "devices.json"}) {
      std::error_code error;
      if (fs::is_symlink(fs::symlink_status(path, error)))
        throw UsageError("--out " + o.out + ": " + path.filename().string() +
                         " is a symbolic link; mmasp never writes through one (remove it)");
    }
  std::vector<pid_t> pids;
  for (size_t d = 0; d < devices.size(); ++d) {
    std::vector<std::string> args = run_argv;
    args.insert(args.end(), {"--out", (fs::path(o.out) / devices[d].label).string()});
    const std::vector<std::string> selects = devices[d].arguments();
    args.insert(args.end(), selects.begin(), selects.end());
    if (int(d) == faulty) args.insert(args.end(), {"--inject-fault", fault});
    pids.push_back(spawn_self(args, fs::path(o.out) / (devices[d].label + ".log")));
    if (o.say) o.say("mmasp run: " + devices[d].label + " started (its console: " + (fs::path(o.out) / (devices[d].label + ".log")).string() + ")");
  }
  std::vector<DeviceRun> runs;
  int worst = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const int code = wait_exit_code(pids[d]);
    worst = std::max(worst, code == 0 ? 0 : code == 1 ? 1 : 2);
    DeviceRun run{devices[d].label, {}, code};
    try {
      run.run = load_run_record(fs::path(o.out) / devices[d].label / "run.json");
      if (run.run.environment.device)
        run.device += " (" + run.run.environment.device->name + ", " + run.run.environment.device->uuid + ")";
    } catch (const std::exception& error) {
      if (o.say) o.say("mmasp run: " + devices[d].label + ": no run to compare: " + error.what());
      worst = 2;
      continue;
    }
    if (o.say) o.say("mmasp run: " + run.device + " finished, exit " + std::to_string(code));
    runs.push_back(std::move(run));
  }
  const DeviceComparison comparison = compare_devices(runs);
  write_file_atomically(fs::path(o.out) / "devices.json", to_json(comparison, runs).dump(2) + "\n");
  if (o.say) o.say(format_device_comparison(comparison, runs) + "comparison: " + (fs::path(o.out) / "devices.json").string());
  if (!comparison.clean()) worst = std::max(worst, 1);
  return worst;
}

}  // namespace mmasp::run
