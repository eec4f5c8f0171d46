// The options of `mmasp run`, once. Each is declared by visit_run_options() with its flag, its help, the member it sets
// and whether it decides the results; the CLI registers the options from that one list (cli/run_command.cpp), and the
// identity a --resume must repeat is made from it (run_identity()). The modes are parsed once, at the command line,
// and carried as types; they are written as names only in the identity and the reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "resident/resident.h"
#include "reports/run_record.h"
#include "run/backends.h"
#include "run/compile_step.h"

namespace mmasp::run {

// --resident and --extras.
enum class AutoOnOff { automatic, on, off };
// --model: the model tier's mode, or auto (strict on a GPU whose architecture has verified models, off elsewhere).
enum class ModelChoice { automatic, strict, warn, off };
std::string_view name(AutoOnOff choice);     // "auto", "on", "off"
std::string_view name(ModelChoice choice);   // "auto", "strict", "warn", "off"
using ::mmasp::name;                         // ResidentImageChoice's, with the others above
// Every value of an enum option with its name, for the command line.
template <typename E> const std::vector<std::pair<std::string, E>>& choices();
template <> const std::vector<std::pair<std::string, AutoOnOff>>& choices<AutoOnOff>();
template <> const std::vector<std::pair<std::string, ModelChoice>>& choices<ModelChoice>();
template <> const std::vector<std::pair<std::string, BackendChoice>>& choices<BackendChoice>();
template <> const std::vector<std::pair<std::string, ResidentImageChoice>>& choices<ResidentImageChoice>();

struct NightlyOptions {
  CompileOptions compile;
  int device = 0;
  BackendChoice backend = BackendChoice::automatic;   // the CLI resolves --emulator and the options only a GPU honours
  std::string gpu_required_by = "--backend gpu";      // what made a GPU necessary, for the refusal
  std::string filter, exclude;
  double budget = 0;            // seconds for the whole run (its wall time)
  uint64_t cases = 0;           // random cases per form x selector (instead of a budget)
  uint64_t seed = 1;
  std::string shard = "1/1";
  bool ub = false;
  std::string out = "mmasp-out";
  bool resume = false;          // continue the interrupted run in `out` from its journal (run/journal.h)
  bool force = false;           // replace an unfinished run in `out`, or write beside files mmasp did not write
  // Isolation (run/worker.h): a worker sends its heartbeat to this descriptor (-1: not a worker); the test-only fault.
  int heartbeat_fd = -1;
  // The caller holds `out` (run/folder_lock.h) for the whole run and its reports: a supervisor for its workers, or the
  // command itself for a run in its own process. Not an option.
  bool out_held = false;
  std::string inject_worker_fault;
  // Test-only: a fault of the catalogue (harness/fault_injection.h) applied to every batch, e.g. to show that
  // `mmasp diff` finds a change of a few bits (the results name the fault in their backend).
  std::string inject_fault;
  bool no_compile = false;
  std::optional<bool> layouts;  // layout discovery: unset = on a GPU (with the extras), off on the emulator
  // Per-pair extras on a GPU — layout discovery, SASS, the second compile path. auto: on with --cases, off with
  // --budget (they cost about a second per pair, which a short budget cannot spare).
  AutoOnOff extras = AutoOnOff::automatic;
  CompilePaths paths;
  std::string modules;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  uint32_t special_generated = 512;
  // A directory of compact sets (judge/compact_set.h): each form's set runs first in its special suite.
  std::string compact_sets;
  // The fault coverage of each pair's stream in the reports (run/pair_coverage.h): auto = on a GPU without --budget
  // (the emulator's short test runs leave it out: its simulation costs more than their cases; a --budget run would
  // pay a new build's first simulation out of its random cases).
  AutoOnOff coverage = AutoOnOff::automatic;
  ModelChoice model = ModelChoice::automatic;
  bool model_candidates = false;   // also judge by unverified table records (to verify them on hardware)
  // A model record (oracle/model_record_file.h, made by `mmasp characterize --save`) for the model tier; empty: the
  // default search path, then the built-in table (judge/model_source.h). On the emulator only an explicit record.
  std::string model_record;
  // The emulator's arithmetic (run/emulated_arithmetic.h); empty: the exact reference.
  std::string emulate;
  // The GPU-resident path (resident/resident.h) for the random suites: auto uses it on any sm_80+ GPU for every pair it
  // can judge (a model of the device's arithmetic, or an integer form) when the build has its kernel; on refuses to run
  // without it; off keeps every case on the host path.
  AutoOnOff resident = AutoOnOff::automatic;
  ResidentImageChoice resident_image = ResidentImageChoice::automatic;   // auto: the cubin on sm_90, else the PTX
  uint64_t resident_sample = 10000;   // cases of each pair the host path judges first (exact reference, model tier)
};

// How one option is declared.
struct OptionSpec {
  const char* flags;              // CLI11's spelling: "--seed", "-j,--jobs", "--layouts,!--no-layouts"
  const char* help;
  bool decides = false;           // it decides the results: part of the run's identity
  uint64_t low = 0, high = UINT64_MAX;   // whole numbers: the range the command line accepts
  bool seconds = false;           // a number of seconds greater than 0
  bool gpu_only = false;          // given explicitly (and not auto/off), it makes --backend auto mean gpu
  bool internal = false;          // between mmasp's own processes, or test-only: not in --help
};

// The compile step's options (also `mmasp compile`'s). `with_filter`: false for `mmasp run`, whose --filter selects
// forms.
template <typename Visitor>
void visit_compile_options(CompileOptions& o, Visitor& v, bool with_filter) {
  if (with_filter) v(OptionSpec{"--filter", "only cases whose id matches this glob, e.g. '*bf16*'", true}, o.filter);
  v(OptionSpec{"--targets", "comma-separated targets", true}, o.targets);
  v(OptionSpec{"--cache", "ptxas result cache (default: ~/.cache/mmasp/ptxas; not a security boundary)"}, o.cache_dir);
  v(OptionSpec{"--no-cache", "assemble everything afresh"}, o.no_cache);
  v(OptionSpec{"--no-negative", "skip the negative set", true}, o.no_negative);
  v(OptionSpec{"--ptxas", "ptxas to test (default: $MMASP_PTXAS, $CUDA_HOME, the build's)"}, o.ptxas);
  v(OptionSpec{"--findings", "findings file (default: share/mmasp/findings/findings.json beside the binary, else the source tree's)"},
    o.findings);
  v(OptionSpec{"-j,--jobs", "parallel ptxas processes", false, 1, 4096}, o.jobs);
}

// Every option of `mmasp run` that reaches the run (the CLI adds its own: --backend, --emulator, --isolation,
// --watchdog, --devices, --baseline, which decide where and how the run happens, not its results).
template <typename Visitor>
void visit_run_options(NightlyOptions& o, Visitor& v) {
  visit_compile_options(o.compile, v, false);
  v(OptionSpec{"--device", "GPU ordinal (implies --backend gpu)", false, 0, INT32_MAX, false, true}, o.device);
  v(OptionSpec{"--filter", "only forms whose opcode matches this glob", true}, o.filter);
  v(OptionSpec{"--exclude", "leave out forms whose opcode matches this glob", true}, o.exclude);
  v(OptionSpec{"--budget", "seconds for the whole run (its wall time, compile conformance included), spread fairly over forms",
               true, 0, 0, true},
    o.budget);
  v(OptionSpec{"--cases", "random cases per form and selector (default 10000 on a GPU, 64 emulated)", true, 1}, o.cases);
  v(OptionSpec{"--seed", "seed of every generated case", true}, o.seed);
  v(OptionSpec{"--shard", "run shard i of n (a deterministic split of forms), e.g. 2/4", true}, o.shard);
  v(OptionSpec{"--ub", "also run undefined-behaviour cases (in isolation, never judged)", true}, o.ub);
  v(OptionSpec{"--out", "directory for reports; a finished run's there are replaced, an unfinished run or other files are "
               "refused (see --resume, --force)"},
    o.out);
  v(OptionSpec{"--resume", "continue the interrupted run in --out from its journal.jsonl (same options)"}, o.resume);
  v(OptionSpec{"--force", "replace an unfinished run in --out, or write beside files mmasp did not write"}, o.force);
  v(OptionSpec{"--no-compile", "skip compile conformance", true}, o.no_compile);
  v(OptionSpec{"--heartbeat-fd", "", false, 0, INT32_MAX, false, false, true}, o.heartbeat_fd);
  v(OptionSpec{"--inject-worker-fault", "", false, 0, 0, false, false, true}, o.inject_worker_fault);
  v(OptionSpec{"--inject-fault", "", true, 0, 0, false, false, true}, o.inject_fault);
  v(OptionSpec{"--layouts,!--no-layouts", "layout discovery (default on a GPU)", true}, o.layouts);
  v(OptionSpec{"--extras", "layout discovery, SASS and the compile-path comparison on a GPU: auto, on, off", true, 0, 0,
               false, true},
    o.extras);
  v(OptionSpec{"--paths", "compile paths on a GPU: toolkit, driver-jit or both", true, 0, 0, false, true}, o.paths);
  v(OptionSpec{"--modules", "toolkit module store (default: <cache>/modules; see mmasp prepare)", false, 0, 0, false, true},
    o.modules);
  v(OptionSpec{"--threads", "host threads for generation and judging", false, 1, 4096}, o.threads);
  v(OptionSpec{"--special-generated", "generated special-value cases per pair", true, 0, UINT32_MAX}, o.special_generated);
  v(OptionSpec{"--compact-sets", "a directory of compact sets (mmasp coverage --make-compact-set): each form's runs first, "
               "in its special suite",
               true},
    o.compact_sets);
  v(OptionSpec{"--coverage", "each pair's fault coverage in the reports (docs/coverage.md): auto (on a GPU without --budget), "
               "on, off",
               true},
    o.coverage);
  v(OptionSpec{"--model", "bit-exact model tier: strict (a deviation fails the run), warn (reported like a QualityWarning), "
               "off; auto = strict on a GPU with verified models",
               true, 0, 0, false, true},
    o.model);
  v(OptionSpec{"--model-record", "a model record made by `mmasp characterize --save` judges the model tier (default: the "
               "newest record of this architecture in $MMASP_MODEL_RECORDS or ~/.local/share/mmasp/model-records, then "
               "the built-in table); on the emulator only this option gives a model",
               true},
    o.model_record);
  v(OptionSpec{"--emulate", "the emulator's arithmetic instead of the exact reference (implies --emulator): 'table' (the "
               "built-in sm_90 records), 'hypothesis' (the published dense parameters) or changes to it, e.g. "
               "'block_products=4,fraction_bits=24'",
               true},
    o.emulate);
  v(OptionSpec{"--model-candidates", "let the model tier use unverified model records too (how a record is verified on hardware)",
               true},
    o.model_candidates);
  v(OptionSpec{"--resident", "GPU-resident random cases (drawn, run and judged on the GPU; the host replays what it finds): "
               "auto = on any sm_80+ GPU, for every pair with a judge there (an integer form, or a float form with a strict "
               "model), on, off",
               true, 0, 0, false, true},
    o.resident);
  v(OptionSpec{"--resident-image", "the resident kernel's image: cubin (sm_90a, the fast path on sm_90), ptx (JIT-compiled "
               "by the driver for any sm_80+ GPU: compute_89 where the GPU is sm_89+, else compute_80), auto = the cubin "
               "on sm_90, else the PTX",
               false, 0, 0, false, true},
    o.resident_image);
  v(OptionSpec{"--resident-sample", "with --resident: random cases of each pair judged on the host path first (exact "
               "reference and model tier)",
               true},
    o.resident_sample);
}

// Empty when every text option is well-formed UTF-8; else "--filter: ..." naming the first that is not.
std::string text_options_problem(const NightlyOptions& options);

// The run's identity, for the journal: what decides its results — every option visit_run_options() marks, and the
// mmasp commit, the case streams, the backend, the toolkit, the device and its driver. A --resume under another
// identity is refused, naming the first difference.
// `model_source`: what the model tier judges by (a record's provenance and digest, or the table), since a record file
// can change under the same path.
nlohmann::json run_identity(const NightlyOptions& options, const EnvironmentRecord& environment,
                            const std::string& case_streams, const std::string& commit, const std::string& model_source);

}  // namespace mmasp::run
