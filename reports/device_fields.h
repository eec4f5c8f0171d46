// The fields (reports/record_fields.h) of the harness's records of a device: its fingerprint and the clock report of
// its SM clock while it worked. run.json, the screen verdict and characterize's report hold them alike.
#pragma once

#include <tuple>

#include "harness/clock_watch.h"
#include "harness/cuda_driver.h"
#include "reports/record_fields.h"

namespace mmasp {

template <typename V>
void fields(V& v, DeviceFingerprint& f) {
  v("name", f.name);
  v("sm", f.sm);
  v("uuid", f.uuid);
  v("driver_version", f.driver_version);
  v("driver_api_version", f.driver_api_version);
  v("ecc", f.ecc);
  v("sm_clock_khz", f.sm_clock_khz);
  v("memory_clock_khz", f.memory_clock_khz);
  v("sm_count", f.sm_count);
  v("memory_bytes", f.memory_bytes);
}

template <typename V>
void fields(V& v, ClockReport& c) {
  v("samples", c.samples);
  v("busy", c.busy);
  v("max_mhz", c.max_mhz);
  v("mean_mhz", c.mean_mhz);
  v("min_mhz", c.min_mhz);
  v("thermal", c.thermal);
  v("power", c.power);
  v("hottest_c", c.hottest_c);
  v.check([&] {
    return std::tuple{c.busy <= c.samples && c.thermal + c.power <= c.busy, "busy",
                      "busy samples within samples, and slowed ones within busy ones, are expected"};
  });
}

}  // namespace mmasp
