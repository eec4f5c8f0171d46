// `mmasp screen`'s verdicts as typed records (run/screen.h makes them): a GPU's verdict, gpuN.json (schema
// mmasp-screen/1), and the fleet's screen.json (mmasp-screen-fleet/1) that holds every GPU's. docs/screening.md
// gives each key's meaning. Written and read by one declaration per type (reports/record_fields.h): reading checks
// the types and names the JSON pointer of what is wrong (ScreenRecordError).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/clock_watch.h"

namespace mmasp {

inline constexpr const char* kScreenSchema = "mmasp-screen/1";
inline constexpr const char* kScreenFleetSchema = "mmasp-screen-fleet/1";

struct ScreenRecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A GPU's verdict: every case judged as the model (or the exact integer result) says; a deviating case; or the GPU
// could not be screened. Written as "pass", "fail", "error"; exit 0, 1, 2.
enum class ScreenVerdict { pass, fail, error };
std::string_view name(ScreenVerdict verdict);
std::optional<ScreenVerdict> screen_verdict_named(std::string_view text);
int exit_code_for(ScreenVerdict verdict);

struct ScreenDevice {
  int ordinal = 0;
  std::string name, uuid;
  std::optional<std::string> serial;  // NVML's board serial, where it reads one (written as null otherwise)
  int sm = 0;
  std::string driver;  // e.g. "580.159.04"
  int driver_api = 0;  // cuDriverGetVersion
  bool ecc = false;
};

// A pair's fault coverage (run/pair_coverage.h) over what it ran: its compact set and the resident stream's first
// cases.
struct ScreenPairCoverage {
  std::string summary;
  double percent = 0;
  std::string stream;
  std::vector<std::string> not_detected;
  std::optional<std::string> compact_set;  // the compact set's alone
};

struct ScreenPair {
  std::string form;
  int selector = 0;
  std::optional<uint64_t> compact_cases, compact_failing;  // the compact-set step, where the pair has a set
  std::optional<uint64_t> cases, deviating;                // the resident step's cases judged, and deviating
  std::optional<ScreenPairCoverage> coverage;
};

// The first failing case of a pair in a step ("compact set": its case index and status; "resident": the stream, the
// deviating count and the first indices), with its case file (repro) or why none was written (repro_error).
struct ScreenDeviation {
  std::string form;
  int selector = 0;
  std::string step;
  std::optional<std::string> status;
  std::optional<uint64_t> case_index;
  std::optional<uint64_t> stream_seed, deviating;
  std::vector<uint64_t> indices;
  std::optional<std::string> repro, repro_error;
};

struct ScreenCompactSets {
  std::string directory;
  std::string path;  // the compile path that ran them ("toolkit", "driver-jit") or "emulator"
  uint64_t pairs = 0, pairs_without_set = 0, cases = 0, failing = 0;
  double compile_seconds = 0, seconds = 0, total_seconds = 0;
};

struct ScreenCoverage {
  std::string summary;
  uint64_t detectable = 0, detected = 0;
  double seconds = 0;
  std::string model;                        // where the fault model is described
  std::optional<std::string> compact_sets;  // the compact sets' alone
};

struct ScreenClocks {
  ClockReport report;
  bool slowed = false;
  std::string summary;
};

struct ScreenRecord {
  std::string commit, case_streams;  // "mmasp": {commit, case_streams}
  std::string path;                  // "gpu-resident" or "emulator"
  uint64_t seed = 0;
  double budget_seconds = 0;
  ScreenVerdict verdict = ScreenVerdict::error;
  double seconds = 0;
  std::optional<ScreenDevice> device;
  std::optional<std::string> emulated;  // what an emulated verdict says of itself
  std::vector<std::string> warnings;
  std::optional<std::string> model_source;
  std::optional<std::string> image;         // the resident image (resident/resident_source.h name())
  std::optional<double> image_jit_seconds;  // the driver's JIT of a PTX image, within the budget (none when stored)
  std::optional<uint64_t> pairs_without_model, pairs_not_in_image;
  std::optional<std::string> injected_fault;
  std::optional<ScreenCompactSets> compact_sets;
  std::optional<ScreenClocks> clocks;
  std::optional<ScreenCoverage> coverage;
  uint64_t pairs_screened = 0, cases = 0, deviating_cases = 0;
  std::vector<ScreenDeviation> deviations;
  std::vector<ScreenPair> pairs;
  std::optional<std::string> error;  // why the GPU could not be screened (verdict error)
};

nlohmann::json screen_json(const ScreenRecord& record);
// Throws ScreenRecordError naming the JSON pointer of what is missing or malformed, or another schema.
ScreenRecord screen_record_from_json(const nlohmann::json& document);

// screen.json: every GPU's verdict, or, for a GPU whose verdict file could not be read, a verdict of error saying why.
struct ScreenFleetRecord {
  double budget_seconds = 0;
  uint64_t seed = 0;
  std::vector<ScreenRecord> gpus;
};
nlohmann::json screen_fleet_json(const ScreenFleetRecord& record);
ScreenFleetRecord screen_fleet_record_from_json(const nlohmann::json& document);

}  // namespace mmasp
