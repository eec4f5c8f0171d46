// `mmasp coverage`: the fault coverage of the cases a run gives each pair (judge/fault_coverage.h), simulated on the
// host against every stuck-at fault and transient pattern of the datapath's fault model (oracle/fault_model.h).
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "cli/common.h"
#include "judge/compact_set.h"
#include "judge/model_source.h"
#include "oracle/case_file.h"
#include "oracle/numeric_model_table.h"
#include "oracle/output_file.h"
#include "oracle/text.h"
#include "reports/coverage_report.h"
#include "run/emulated_arithmetic.h"

namespace mmasp::cli {
namespace {

struct Options {
  std::string filter = "*";
  uint64_t cases = 100;
  uint64_t seed = 1;
  uint32_t special_generated = 512;
  std::string json;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string architecture = "sm_90";
  std::string emulate;
  std::vector<std::string> case_files;
  std::string list_sites;  // an opcode: print its site table and stop
  double min_coverage = -1;
  std::string compact_sets;       // run each form's compact set first (a directory of sets)
  std::string make_compact_sets;  // build each form's compact set from the stream, into this directory
  uint64_t search_mutations = 20000;
  bool no_special_set = false;
};

volatile sig_atomic_t g_coverage_stop = 0;
extern "C" void stop_coverage(int signal) {
  g_coverage_stop = signal;
  static const char message[] = "\nmmasp coverage: stopping after the chunk in flight (again: at once)\n";
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
}

ModelLookup arithmetic_of(const Options& o, std::string& described) {
  if (!o.emulate.empty()) {
    try {
      return run::emulated_arithmetic(o.emulate, &described);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("--emulate: ") + error.what());
    }
  }
  if (!architecture_number(o.architecture)) throw UsageError("--architecture: sm_ and 2 or 3 digits, e.g. sm_90");
  described = o.architecture + " verified model";
  const std::string architecture = o.architecture;
  return [architecture](const Form& form) { return verified_model(form, architecture); };
}

int print_sites(const Options& o, const ModelLookup& arithmetic) {
  const Form* form = nullptr;
  for (const Form& f : instruction_space())
    if (f.opcode == o.list_sites) form = &f;
  if (!form) throw UsageError("--list-sites: no form is spelled '" + printable(o.list_sites) + "'");
  const std::optional<ModelParameters> p = form->is_integer() ? std::nullopt : arithmetic(*form);
  if (!form->is_integer() && !p)
    throw UsageError("--list-sites: no model of " + form->opcode + " to derive its sites from");
  if (!fault_model_applies(*form)) throw UsageError("--list-sites: the fault model does not cover block-scale forms");
  std::cout << "site\tstage\twidth\n";
  size_t bits = 0;
  for (const FaultSite& site : fault_sites(*form, p ? &*p : nullptr)) {
    std::cout << site.name() << "\t" << name(site.stage()) << "\t" << site.width << "\n";
    bits += size_t(site.width);
  }
  std::cout << bits << " bits, " << 2 * bits << " stuck-at faults, "
            << transient_faults(*form, p ? &*p : nullptr).size() << " transient patterns\n";
  return kExitPass;
}

// One compact set per form (of its first selector: the datapath is every selector's), built from the stream.
int make_compact_sets(const Options& o, const std::vector<std::pair<const Form*, int>>& pairs,
                      const ModelLookup& arithmetic, const std::string& described, const CoverageStream& stream) {
  CompactSetOptions options;
  options.stream = stream;
  options.threads = o.threads;
  options.search.seed = o.seed;
  options.search.mutations = o.search_mutations;
  // The sets already in the directory's file stay, but for the forms built again; the file is written after each
  // form, so that an interrupted build keeps what it made.
  std::map<const Form*, CompactSet> sets;
  if (std::filesystem::exists(std::filesystem::path(o.make_compact_sets) / kCompactSetsFile))
    sets = read_for_option("--make-compact-set", [&] { return load_compact_sets(o.make_compact_sets); });
  int incomplete = 0;
  for (const auto& [form, selector] : pairs) {
    if (selector != form->selectors.front()) continue;
    const std::optional<ModelParameters> p = form->is_integer() ? std::nullopt : arithmetic(*form);
    CompactSet built = build_compact_set(*form, p ? &*p : nullptr, options);
    built.arithmetic = described;
    const CompactSet& set = sets[form] = std::move(built);
    save_compact_sets(sets, o.make_compact_sets);
    std::cout << form->opcode << ": " << set.cases.size() << " cases detect " << set.detected << " of "
              << set.detectable << " detectable faults";
    if (!set.not_detected.empty()) {
      ++incomplete;
      std::cout << "; no case found for " << set.not_detected.size() << ":";
      for (size_t i = 0; i < set.not_detected.size() && i < 8; ++i) std::cout << " " << set.not_detected[i];
    }
    std::cout << "\n" << std::flush;
  }
  std::cout << "wrote the compact sets to " << o.make_compact_sets << "\n";
  return incomplete ? kExitFail : kExitPass;
}

int coverage_main(const Options& o) {
  if (const std::string problem = glob_problem(o.filter); !problem.empty()) throw UsageError("--filter: " + problem);
  std::string described;
  const ModelLookup arithmetic = arithmetic_of(o, described);
  if (!o.list_sites.empty()) return print_sites(o, arithmetic);
  CoverageStream stream;
  stream.seed = o.seed;
  stream.random_cases = o.cases;
  stream.special_generated = o.special_generated;
  stream.special = !o.no_special_set;
  for (const std::string& path : o.case_files) {
    try {
      CaseFile file = load_case_file(path);
      stream.files.push_back(std::move(file.test));
      stream.file_names.push_back(path);
    } catch (const CaseFileError& error) {
      throw UsageError("--case-file " + printable(path) + ": " + error.what());
    }
  }
  // Each pair with a datapath to simulate: integer forms always, float forms where the arithmetic has a model.
  const auto modelled = [&](const Form& form) {
    return fault_model_applies(form) && (form.is_integer() || arithmetic(form).has_value());
  };
  const auto pairs = selected_pairs(o.filter, "", modelled);
  if (pairs.empty())
    throw UsageError("coverage: no form with a fault model matches --filter '" + printable(o.filter) + "'");

  CoverageRecord record;
  record.architecture = described;
  record.seed = o.seed;
  record.threads = o.threads;
  record.stream = std::string(o.compact_sets.empty() ? "" : "the compact set + ") +
                  std::string(o.case_files.empty() ? "" : std::to_string(o.case_files.size()) + " case files + ") +
                  (o.no_special_set ? std::string("no special set")
                                    : "the special set (" + std::to_string(o.special_generated) + " generated)") +
                  (o.cases ? " + " + std::to_string(o.cases) + " random cases" : std::string()) + ", seed " +
                  std::to_string(o.seed);
  struct sigaction action = {};
  action.sa_handler = stop_coverage;
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
  const auto stop = [] { return g_coverage_stop != 0; };
  if (!o.make_compact_sets.empty()) return make_compact_sets(o, pairs, arithmetic, described, stream);
  std::map<const Form*, CompactSet> compact_sets;
  if (!o.compact_sets.empty())
    compact_sets = read_for_option("--compact-sets", [&] { return load_compact_sets(o.compact_sets); });
  for (size_t i = 0; i < pairs.size() && !stop(); ++i) {
    const auto& [form, selector] = pairs[i];
    const std::optional<ModelParameters> p = form->is_integer() ? std::nullopt : arithmetic(*form);
    CoverageStream pair_stream = stream;
    if (!o.compact_sets.empty()) {
      const auto found = compact_sets.find(form);
      if (found != compact_sets.end()) {
        const CompactSet* set = &found->second;
        std::vector<MmaCase> first = compact_cases(*set, selector);
        for (size_t c = 0; c < first.size(); ++c)
          pair_stream.file_names.insert(pair_stream.file_names.begin() + long(c), "compact #" + std::to_string(c));
        pair_stream.files.insert(pair_stream.files.begin(), first.begin(), first.end());
      }
    }
    PairCoverage pair = fault_coverage(*form, selector, p ? &*p : nullptr, pair_stream, o.threads, stop);
    std::cerr << "[" << i + 1 << "/" << pairs.size() << "] " << form->opcode << " sel " << selector << ": "
              << pair.summary() << "\n";
    record.pairs.push_back(std::move(pair));
  }
  record.interrupted = stop();
  std::cout << coverage_table(record);
  if (!o.json.empty()) {
    write_file_atomically(o.json, coverage_json(record).dump(2) + "\n");
    std::cout << "wrote " << o.json << "\n";
  }
  if (record.interrupted) return 128 + int(g_coverage_stop);
  if (o.min_coverage >= 0)
    for (const PairCoverage& pair : record.pairs)
      if (pair.percent() < o.min_coverage) {
        std::cout << "below --min-coverage " << o.min_coverage << ": " << pair.form->opcode << " sel " << pair.selector
                  << "\n";
        return kExitFail;
      }
  return kExitPass;
}

}  // namespace

Subcommand add_coverage_command(CLI::App& mmasp) {
  auto o = std::make_shared<Options>();
  CLI::App* coverage = mmasp.add_subcommand(
      "coverage",
      "the fault coverage of the cases a run gives each pair: every stuck-at fault and transient pattern of "
      "the datapath's fault model simulated on the host (docs/coverage.md)");
  coverage->add_option("--filter", o->filter, "only forms whose opcode matches this glob")->capture_default_str();
  coverage->add_option("--cases", o->cases, "random cases after the special set (0: the special set alone)")
      ->check(whole_number(0, uint64_t(1) << 40))
      ->capture_default_str();
  coverage->add_option("--seed", o->seed, "the run's seed (the same cases as mmasp run --seed)")
      ->check(whole_number(0, UINT64_MAX))
      ->capture_default_str();
  coverage
      ->add_option("--special-generated", o->special_generated, "generated special-profile cases of the special set")
      ->check(whole_number(0, 1u << 24))
      ->capture_default_str();
  coverage->add_flag("--no-special-set", o->no_special_set, "leave the special suite out of the stream");
  coverage->add_option("--case-file", o->case_files, "case files run first (a compact set); repeatable");
  coverage->add_option("--json", o->json, "write the coverage record (schema mmasp-coverage/1)");
  coverage->add_option("--threads", o->threads, "host threads")
      ->check(whole_number(1, kMaxThreads))
      ->capture_default_str();
  coverage->add_option("--architecture", o->architecture, "whose verified model the float datapath computes")
      ->capture_default_str();
  coverage->add_option("--emulate", o->emulate, "the arithmetic instead: table, hypothesis or name=value,... changes");
  coverage->add_option("--list-sites", o->list_sites, "print the site table of this opcode and stop");
  coverage->add_option("--compact-sets", o->compact_sets, "run each form's compact set (a directory of sets) first");
  coverage->add_option("--make-compact-set", o->make_compact_sets,
                       "build each form's compact set from the stream (and a search for what it misses) into this "
                       "directory; exit 1 when a detectable fault is left");
  coverage->add_option("--search-mutations", o->search_mutations, "mutations tried per fault the stream misses")
      ->check(whole_number(0, uint64_t(1) << 32))
      ->capture_default_str();
  coverage
      ->add_option("--min-coverage", o->min_coverage, "exit 1 when a pair's stuck-at coverage is below this percent")
      ->check(CLI::Range(0.0, 100.0));
  return {coverage, [o](int, char**) { return coverage_main(*o); }};
}

}  // namespace mmasp::cli
