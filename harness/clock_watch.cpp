#include "harness/clock_watch.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace mmasp {

ClockReport summarise_clocks(const std::vector<ClockSample>& samples, unsigned max_mhz) {
  ClockReport r;
  r.samples = samples.size();
  r.max_mhz = max_mhz;
  double sum = 0;
  for (const ClockSample& s : samples) {
    r.hottest_c = std::max(r.hottest_c, s.temperature_c);
    if (s.reasons & kClockIdle) continue;
    r.min_mhz = r.busy == 0 ? s.sm_mhz : std::min(r.min_mhz, s.sm_mhz);
    ++r.busy;
    sum += s.sm_mhz;
    if (s.reasons & (kClockSoftwareThermal | kClockHardwareThermal)) ++r.thermal;
    else if (s.reasons & (kClockSoftwarePowerCap | kClockHardwareSlowdown | kClockPowerBrake)) ++r.power;
  }
  if (r.busy) r.mean_mhz = sum / double(r.busy);
  return r;
}

std::string describe_clocks(const ClockReport& r) {
  if (r.samples == 0) return "";
  if (r.busy == 0) return "SM clock: the GPU was idle at each of " + std::to_string(r.samples) + " samples";
  char text[400];
  std::snprintf(text, sizeof text, "SM clock while the pairs ran: mean %.0f MHz (lowest %u) of this GPU's %u MHz in %zu busy samples, hottest %u C",
                r.mean_mhz, r.min_mhz, r.max_mhz, r.busy, r.hottest_c);
  std::string out = text;
  if (r.thermal || r.power) {
    out += "; the GPU slowed itself";
    if (r.thermal) out += " for heat in " + std::to_string(r.thermal);
    if (r.thermal && r.power) out += " and";
    if (r.power) out += " for power in " + std::to_string(r.power);
    out += " of them";
    if (r.slowed()) out += ", so every pair ran slower than this GPU runs it cool (fewer cases in the same time)";
  }
  return out;
}

// NVML by dlopen, as gpu_serial does: a runner without it still runs. Types as nvml.h declares them.
struct ClockWatch::Nvml {
  void* library = nullptr;
  void* device = nullptr;
  int (*shutdown)() = nullptr;
  int (*clock)(void*, int, unsigned*) = nullptr;              // nvmlDeviceGetClockInfo
  int (*reasons)(void*, unsigned long long*) = nullptr;       // nvmlDeviceGetCurrentClocksEventReasons
  int (*temperature)(void*, int, unsigned*) = nullptr;        // nvmlDeviceGetTemperature
};

namespace {
constexpr int kNvmlClockSm = 1, kNvmlTemperatureGpu = 0;
}

ClockWatch::ClockWatch(const std::string& uuid, unsigned interval_ms) {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return;
  const auto init = reinterpret_cast<int (*)()>(dlsym(library, "nvmlInit_v2"));
  const auto by_uuid = reinterpret_cast<int (*)(const char*, void**)>(dlsym(library, "nvmlDeviceGetHandleByUUID"));
  const auto max_clock = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(library, "nvmlDeviceGetMaxClockInfo"));
  auto nvml = new Nvml;
  nvml->library = library;
  nvml->shutdown = reinterpret_cast<int (*)()>(dlsym(library, "nvmlShutdown"));
  nvml->clock = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(library, "nvmlDeviceGetClockInfo"));
  nvml->reasons = reinterpret_cast<int (*)(void*, unsigned long long*)>(dlsym(library, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (!nvml->reasons)   // the older name of the same call
    nvml->reasons = reinterpret_cast<int (*)(void*, unsigned long long*)>(dlsym(library, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  nvml->temperature = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(library, "nvmlDeviceGetTemperature"));
  if (!init || !by_uuid || !max_clock || !nvml->shutdown || !nvml->clock || !nvml->reasons || !nvml->temperature ||
      init() != 0) {
    dlclose(library);
    delete nvml;
    return;
  }
  if (by_uuid(uuid.c_str(), &nvml->device) != 0 || max_clock(nvml->device, kNvmlClockSm, &max_mhz_) != 0) {
    nvml->shutdown();
    dlclose(library);
    delete nvml;
    return;
  }
  nvml_ = nvml;
  thread_ = std::thread([this, interval_ms] { sample_until_stopped(interval_ms); });
}

void ClockWatch::sample_until_stopped(unsigned interval_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    ClockSample s;
    if (nvml_->clock(nvml_->device, kNvmlClockSm, &s.sm_mhz) == 0 && nvml_->reasons(nvml_->device, &s.reasons) == 0) {
      nvml_->temperature(nvml_->device, kNvmlTemperatureGpu, &s.temperature_c);
      samples_.push_back(s);
    }
    wake_.wait_for(lock, std::chrono::milliseconds(interval_ms), [this] { return stopping_; });
  }
}

ClockReport ClockWatch::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (nvml_) {
    nvml_->shutdown();
    dlclose(nvml_->library);
    delete nvml_;
    nvml_ = nullptr;
  }
  return summarise_clocks(samples_, max_mhz_);
}

ClockWatch::~ClockWatch() { stop(); }

}  // namespace mmasp
