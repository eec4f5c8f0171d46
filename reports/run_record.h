// The record of one `mmasp run`, typed: what run.json holds (schema "mmasp-run/1", docs/run-report.md). `mmasp run`
// builds one, every report (JSON, JUnit, Markdown, HTML) and `mmasp diff` are functions of it, and run.json is its
// one JSON mapping (run_record.cpp), read back with errors that name the JSON pointer of the bad value.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/clock_watch.h"
#include "harness/compile_conformance.h"
#include "harness/cuda_driver.h"
#include "judge/suite_result.h"
#include "oracle/classification.h"

namespace mmasp {

struct CaseFailure;
struct SuiteResult;
struct LayoutDiscovery;
struct SassSummary;
struct Form;

inline constexpr const char* kRunSchema = "mmasp-run/1";

// run.json could not be read: the message names the file (when known) and the JSON pointer of the value.
struct RunRecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A run that stopped on a signal before its last form x selector pair: what it has is true but incomplete, and
// `mmasp run --resume` continues it from <out>/journal.jsonl.
struct Interruption {
  int signal = 0;                 // the exit status is 128 + signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP)
  std::string signal_name;        // "SIGINT"
  uint64_t pairs_done = 0, pairs = 0;
};

// A run's part of a split (`mmasp run --shard i/n`): forms are dealt to the n shards in catalogue order.
struct Shard {
  int index = 1, count = 1;
};
// "i/n" with 1 <= i <= n (at most six digits each); nullopt for anything else. The one reading of RunInfo::shard.
std::optional<Shard> shard_named(std::string_view text);

struct RunInfo {
  std::string started, finished, host, command;
  uint64_t seed = 1;
  std::string mmasp_version, mmasp_commit;
  std::string case_streams;                 // gen::case_streams_identity(); empty in runs older than it
  std::string shard = "1/1";
  double budget_seconds = 0;
  bool ub = false;
  std::vector<std::string> notes;
  std::optional<std::string> model_tier;    // "off", "warn", "strict"; absent in runs older than the model tier
  std::string model_source;                 // what the model tier judges by (judge/model_source.h); empty: no model
  double seconds = 0;
  std::map<std::string, double> phase_seconds;
  // GPU runs: the SM clock while the pairs ran (harness/clock_watch.h), absent without NVML. Volatile, as the times are.
  std::optional<ClockReport> clocks;
  std::optional<Interruption> interrupted;
  uint64_t resumed = 0;                     // how many times the run was resumed (mmasp run --resume)
  // What decides the results, as the journal holds it for --resume (run/run_options.h run_identity): a JSON object,
  // written as its text. `mmasp merge` refuses shards whose identities differ; empty in runs older than it.
  std::string identity;
};

struct EnvironmentRecord {
  std::string backend = "emulator";         // "gpu" or "emulator"
  bool emulated = true;
  std::optional<DeviceFingerprint> device;
  std::string toolkit;
  std::optional<std::string> compile_paths;  // GPU runs: "toolkit,driver-jit"
};

struct CompileCell {
  Expected expected = Expected::accept;
  Observed observed = Observed::accept;
  std::string ptx_version;
  bool agrees() const { return mmasp::agrees(expected, observed); }
};
struct CompileMatrixRow {
  std::string form;
  int selector = 0;
  std::map<std::string, CompileCell> cells;      // by target name
};
// One case where ptxas and the catalog disagree, as the reports show it (JUnit: one failure each when new).
struct CompileDisagreement {
  std::string id;                  // "<expected>/<rule>/<form>/sel=<n>@<target>"; `mmasp emit --case ID` prints its module
  std::string target;
  Expected expected = Expected::accept;
  Observed observed = Observed::accept;
  std::string why;
  std::string diagnostic;          // ptxas's first error line ("" when it accepted)
  std::string finding;             // the finding that documents it; empty: a new disagreement
  bool operator==(const CompileDisagreement&) const = default;
};
// Per target: what compile conformance judged there.
struct CompileTargetCounts {
  uint64_t cases = 0, agree = 0, documented = 0, new_disagreements = 0, not_run = 0;
  bool operator==(const CompileTargetCounts&) const = default;
};
struct CompileRecord {
  uint64_t cases = 0, agree = 0, documented_disagreements = 0, new_disagreements = 0, not_run = 0, cache_hits = 0;
  std::map<std::string, CompileTargetCounts> by_target;   // absent in runs older than it
  std::vector<CompileDisagreement> disagreements;         // documented and new
  double seconds = 0;
  std::string ptxas_path, ptxas_version;
  std::optional<std::string> ptxas_max_ptx;
  int exit = 0;
  std::vector<std::string> targets;
  std::vector<CompileMatrixRow> matrix;
};

struct ElementAt {
  int row = 0, col = 0;
  std::string str() const { return "[" + std::to_string(row) + "," + std::to_string(col) + "]"; }   // "[2,3]"
};

struct FailureRecord {          // the first failing case of a result, shrunk
  std::string case_name, repro, reason;
  ElementAt element;
  uint32_t expected = 0, observed = 0;
  int shrink_attempts = 0;
};
struct ClosestToBound {         // the passing case closest to its spec bound
  std::string repro, reason;
  ElementAt element;
  double error_ulps = 0;
};
struct DeviationRecord {        // the first case whose D differs from the verified model's, shrunk
  std::string case_name, repro;
  ElementAt element;
  uint32_t observed = 0, model = 0, differing_bits = 0;
  int deviating_elements = 0, shrink_attempts = 0;
  Status spec_status = Status::pass;
};
struct ModelTierRecord {
  std::string tier;
  uint64_t model_judged = 0, reference_judged = 0, deviations = 0, model_mismatches = 0;
  std::optional<DeviationRecord> deviation;
};
struct IntermittentRecord {     // the first failing/deviating case whose replay gave another D
  std::string case_name, repro;
  ElementAt element;              // the first element that differs between the two runs
  uint32_t first = 0, replay = 0;
  int differing_elements = 0;
  uint64_t cases = 0, replayed = 0;   // intermittent cases in the result, and cases replayed to find them
};
struct DigestRecord {           // every bit of D the result observed (harness/execution.h, ResultDigest)
  uint64_t cases = 0;             // cases hashed
  uint64_t chunk_cases = 0;       // cases per chunk
  std::string all;                // 16 hex digits
  std::vector<std::string> chunks;   // one per complete chunk, in case order (the first 64)
};
struct ResidentRecord {         // the GPU-resident path's share of a random suite (harness/execution.h, ResidentSummary)
  uint64_t host_sample = 0, first_index = 0, generated = 0, checked = 0, deviating = 0, recorded = 0, overflowed = 0,
           replayed = 0;
  double seconds = 0;             // kernel time
  double host_seconds = 0;        // the host sample's time (absent in run.json before issue #28)
  std::string kernel;             // the resident kernel that judged the cases ("lean-k16-f16", ...); empty in older runs
};
struct PairCoverageRecord {     // the fault coverage of the pair's stream (judge/fault_coverage.h, docs/coverage.md)
  uint64_t faults = 0, detectable = 0, detected = 0;
  double percent = 0;
  uint64_t cases = 0;             // the stream's cases simulated
  std::string stream;             // what they were
  std::string summary;            // "stuck-at coverage 100.00 % of 2201 detectable faults; 0 undetected"
  std::vector<std::string> not_detected;   // fault ids with their stages
  std::vector<std::string> undetectable;   // fault ids with their reasons
  uint64_t transients = 0, transients_changed = 0;
};
struct PlannedShare {           // a --budget run's plan for a random suite (run/budget_plan.h)
  double weight = 0;              // the form's declared weight
  double share = 0;               // weight / the sum of the run's weights
  double seconds = 0;             // the seconds the plan gave the suite when its pair started
};
struct UbObservation {          // UB suite: unordered-metadata cases, and how many computed what .sp computes
  uint64_t cases = 0, like_sp = 0;
};

// One result: a form x selector x suite. Its id is result_id(form, selector, suite).
struct ResultRecord {
  std::string id, form, family;
  int selector = 0;
  Suite suite = Suite::random;               // written as "random", "special", "ub"
  Status status = Status::pass;
  std::string backend;
  bool emulated = false;
  uint64_t cases = 0, passed = 0, quality_warnings = 0, failed = 0, not_judged = 0;
  double max_error_ulps = 0, max_error_vs_bound = 0;
  std::vector<uint64_t> error_histogram_ulps;
  double seconds = 0;
  uint64_t seed = 0;
  std::string note;
  std::vector<std::string> failing_special_cases;
  std::map<std::string, Status> special_cases;
  std::optional<UbObservation> ub_unordered_like_sp;
  std::map<std::string, std::string> out_of_range_selectors;   // selector value -> what it did
  std::optional<ClosestToBound> closest_to_bound;
  std::optional<ModelTierRecord> model;
  std::optional<FailureRecord> failure;
  std::optional<IntermittentRecord> intermittent;
  std::optional<DigestRecord> digest;
  std::optional<ResidentRecord> resident;
  std::optional<PlannedShare> planned;
  // The fault coverage of the pair's stream through the emitted module (compact set, special suite, host sample), and
  // of the resident kernel's own share of the random stream (the cases after the host sample).
  std::optional<PairCoverageRecord> coverage, resident_coverage;
};

struct LayoutOperandRecord {
  std::string operand;
  uint64_t probes = 0, matched = 0;
  std::vector<std::string> mismatches;
};
struct LayoutRecord {
  std::string form;
  int selector = 0;
  bool verified = false;
  std::vector<LayoutOperandRecord> operands;
  std::string error;
};

struct SassRecord {
  std::string form, path;
  int selector = 0;
  std::optional<std::string> error;          // set when the SASS could not be read; nothing below then
  std::vector<std::string> mma;
  bool sparse_mma = false;
  uint64_t instructions = 0;
  bool native = true;
  std::string note;
};

struct CompilePathComparison {   // toolkit cubin vs driver JIT on the same cases
  std::string form;
  int selector = 0;
  std::optional<uint64_t> cases, differing_cases;
  bool identical = false;
  std::string note;
};

struct FindingRef {
  std::string id, kind, title;
};

struct RunRecord {
  RunInfo run;
  EnvironmentRecord environment;
  std::optional<CompileRecord> compile;
  std::vector<FindingRef> findings;
  std::vector<ResultRecord> results;
  std::vector<LayoutRecord> layouts;
  std::vector<SassRecord> sass;
  std::vector<CompilePathComparison> compile_paths;
};

std::string result_id(const std::string& opcode, int selector, std::string_view suite);
// The one way a result record starts: its id, form, family, selector, suite, status, backend and note. record_of()
// fills in what a suite judged; a result that judged nothing (NotSupported, a pair its worker lost, a UB suite whose
// process gave no answer) is this alone.
ResultRecord result_record(const std::string& opcode, int selector, Suite suite, Status status, std::string backend,
                           std::string note = "");

// Counts per status over the results, every status present (zero or not), in kAllStatuses order.
std::vector<std::pair<Status, uint64_t>> status_counts(const RunRecord& run);
uint64_t count_of(const RunRecord& run, Status status);
// 128 + the signal for an interrupted run; else 1 when a result failed (is_failure), compile conformance found a new
// disagreement, or a layout probe disagreed; else 0.
int exit_code_for(const RunRecord& run);

// The one JSON mapping. to_json writes schema mmasp-run/1 (and "summary", the status counts, for other tools);
// from_json reads it, throwing RunRecordError with the JSON pointer of what is missing or malformed.
nlohmann::json to_json(const RunRecord& run);
RunRecord run_record_from_json(const nlohmann::json& document);
nlohmann::json to_json(const ResultRecord& result);
ResultRecord result_record_from_json(const nlohmann::json& document);
// One part of a run at a time (the journal of a resumable run writes them as they finish).
nlohmann::json to_json(const LayoutRecord& layout);
LayoutRecord layout_record_from_json(const nlohmann::json& document);
nlohmann::json to_json(const CompilePathComparison& comparison);
CompilePathComparison compile_path_from_json(const nlohmann::json& document);
nlohmann::json to_json(const CompileRecord& compile);   // {"compile": ..., "compile_matrix": ...} as in run.json
CompileRecord compile_record_from_json(const nlohmann::json& document);
// run.json without what differs between two runs of the same work: when and where it ran (the --out directory in
// repro lines too), how long it took, the command line, how often it was resumed, the compile cache's hits. Two runs of the same options, seed and device
// (one interrupted and resumed, one not) give equal documents.
nlohmann::json without_volatile_fields(nlohmann::json run_json);
// Reads run.json: errors name the file; a truncated file says so instead of "not an mmasp run".
RunRecord load_run_record(const std::filesystem::path& path);

// From what the harness produced.
ResultRecord record_of(const SuiteResult& result);
LayoutRecord record_of(const LayoutDiscovery& discovery);
SassRecord sass_record(const Form& form, int selector, std::string_view path, const std::optional<SassSummary>& sass,
                       const std::string& why_not);
nlohmann::json fingerprint_json(const DeviceFingerprint& fingerprint);
// run.json's run.clocks (the screen's verdicts hold the same object).
nlohmann::json clock_json(const ClockReport& clocks);
// {"targets": [...], "matrix": [{form, selector, cells: {target: {expected, observed, ptx_version}}}]}: run.json's
// compile_matrix, and the matrix of compile.json.
nlohmann::json compile_matrix_json(const CompileRecord& compile);

}  // namespace mmasp
