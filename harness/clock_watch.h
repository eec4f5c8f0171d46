// The GPU's SM clock while a run's pairs run, sampled through NVML. A GPU that slows itself (too hot, at its
// power cap) runs every pair's resident kernel slower, so a --budget run gets fewer cases than the same GPU gives
// cool (a hot H100 was seen at about two thirds of its SM clock, every kernel slower in proportion). The run says so,
// so that a short count is read as the GPU's and not the build's.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mmasp {

// NVML's clock event reasons (nvml.h, nvmlClocksEventReason*): the bits that mean the GPU lowered its own clock.
inline constexpr unsigned long long kClockIdle = 0x1ull, kClockSoftwarePowerCap = 0x4ull, kClockHardwareSlowdown = 0x8ull,
                                    kClockSoftwareThermal = 0x20ull, kClockHardwareThermal = 0x40ull,
                                    kClockPowerBrake = 0x80ull;

struct ClockSample {
  unsigned sm_mhz = 0;
  unsigned long long reasons = 0;   // NVML's clock event reasons at the sample
  unsigned temperature_c = 0;
};

struct ClockReport {
  size_t samples = 0;        // every sample taken
  size_t busy = 0;           // of them, those where the GPU was not idle
  unsigned max_mhz = 0;      // the GPU's own maximum SM clock
  double mean_mhz = 0;       // over the busy samples
  unsigned min_mhz = 0;      // over the busy samples
  size_t thermal = 0;        // busy samples slowed for heat (software or hardware)
  size_t power = 0;          // busy samples slowed for power (cap, brake, hardware slowdown)
  unsigned hottest_c = 0;
  // Whether the GPU slowed itself for a tenth of the busy samples or more.
  bool slowed() const { return busy > 0 && 10 * (thermal + power) >= busy; }
};

ClockReport summarise_clocks(const std::vector<ClockSample>& samples, unsigned max_mhz);
// One sentence for the reports (summary.md, report.html, the terminal; "" without samples).
std::string describe_clocks(const ClockReport& report);

// Samples the GPU with this UUID ("GPU-..." as the driver gives it) every `interval_ms` from construction until
// stop(). Without NVML (a runner with no NVIDIA driver, the emulator) it takes no samples and stop() says so with
// samples == 0.
class NvmlDevice;

class ClockWatch {
 public:
  explicit ClockWatch(const std::string& uuid, unsigned interval_ms = 1000);
  ~ClockWatch();
  ClockWatch(const ClockWatch&) = delete;
  ClockWatch& operator=(const ClockWatch&) = delete;
  ClockReport stop();

 private:
  void sample_until_stopped(unsigned interval_ms);

  // The GPU in NVML and the three calls a sample makes (nvml.h's types); null without NVML.
  std::unique_ptr<NvmlDevice> nvml_;
  int (*clock_)(void*, int, unsigned*) = nullptr;              // nvmlDeviceGetClockInfo
  int (*reasons_)(void*, unsigned long long*) = nullptr;       // nvmlDeviceGetCurrentClocksEventReasons
  int (*temperature_)(void*, int, unsigned*) = nullptr;        // nvmlDeviceGetTemperature
  unsigned max_mhz_ = 0;
  std::vector<ClockSample> samples_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace mmasp
