// `mmasp run --devices all|0,2,...`: the same run on every listed GPU at once, one `mmasp run --device N` process per
// GPU (with its own worker and watchdog, so a fault or a hang on one GPU cannot take the others with it), each into
// <out>/<device>/ with all its reports; then the devices are compared bit for bit (reports/device_comparison.h) into
// <out>/devices.json, naming a deviating device. `emulator:N` stands N CPU emulators in for GPUs (the comparison's
// own tests); `--inject-fault-on K:FAULT` (test-only) puts a catalogue fault on device K alone.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmasp::run {

struct DeviceTarget {
  std::string label;                   // "gpu0", "emulator1": the subdirectory of --out
  std::optional<int> gpu;              // the GPU's ordinal; none: a CPU emulator standing in for one
  std::vector<std::string> arguments() const;   // what selects it: {"--device", "0"} or {"--emulator"}
};

// This program again, with `args` (args[0] is argv[0]), its stdout and stderr into `log`; and its exit code (128 +
// the signal when a signal ended it). One process per device, for `mmasp run --devices` and `mmasp screen`.
pid_t spawn_self(std::vector<std::string> args, const std::filesystem::path& log);
int wait_exit_code(pid_t pid);

// Throws UsageError for anything but "all", a list of GPU ordinals, or "emulator:N" (N >= 2).
std::vector<DeviceTarget> parse_devices(const std::string& text);

struct DevicesOptions {
  std::string out;
  std::string inject_fault_on;         // "K:FAULT" (test-only), K an index into the device list
  std::function<void(const std::string&)> say;
};

// `run_argv`: this program's `mmasp run ...` arguments without --devices, --inject-fault-on and --out. Returns 0 when
// every device's run passed and all agree bit for bit, 1 when a run failed or the devices disagree (the deviating
// device named), 2 when a device's run could not be compared.
int run_on_devices(const std::vector<std::string>& run_argv, const std::vector<DeviceTarget>& devices,
                   const DevicesOptions& options);

}  // namespace mmasp::run
