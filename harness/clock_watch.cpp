#include "harness/clock_watch.h"

#include "harness/nvml_device.h"

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

namespace {
constexpr int kNvmlClockSm = 1, kNvmlTemperatureGpu = 0;   // nvml.h: NVML_CLOCK_SM, NVML_TEMPERATURE_GPU
}

ClockWatch::ClockWatch(const std::string& uuid, unsigned interval_ms) {
  auto nvml = std::make_unique<NvmlDevice>(uuid);
  if (!nvml->open()) return;
  using Clock = int (*)(void*, int, unsigned*);
  using Reasons = int (*)(void*, unsigned long long*);
  const auto max_clock = nvml->function<Clock>("nvmlDeviceGetMaxClockInfo");
  clock_ = nvml->function<Clock>("nvmlDeviceGetClockInfo");
  reasons_ = nvml->function<Reasons>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons_) reasons_ = nvml->function<Reasons>("nvmlDeviceGetCurrentClocksThrottleReasons");   // its older name
  temperature_ = nvml->function<int (*)(void*, int, unsigned*)>("nvmlDeviceGetTemperature");
  if (!max_clock || !clock_ || !reasons_ || !temperature_ || max_clock(nvml->handle(), kNvmlClockSm, &max_mhz_) != 0)
    return;
  nvml_ = std::move(nvml);
  thread_ = std::thread([this, interval_ms] { sample_until_stopped(interval_ms); });
}

void ClockWatch::sample_until_stopped(unsigned interval_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    ClockSample s;
    void* const device = nvml_->handle();
    if (clock_(device, kNvmlClockSm, &s.sm_mhz) == 0 && reasons_(device, &s.reasons) == 0) {
      temperature_(device, kNvmlTemperatureGpu, &s.temperature_c);
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
  nvml_.reset();
  return summarise_clocks(samples_, max_mhz_);
}

ClockWatch::~ClockWatch() { stop(); }

}  // namespace mmasp
