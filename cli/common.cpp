#include "cli/common.h"

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include <cmath>
#include <cstdint>

#include "oracle/output_file.h"
#include "oracle/text.h"

#include "harness/compile_conformance.h"
#include "harness/ptxas.h"
#include "reports/compile_report.h"
#include "reports/findings.h"

namespace fs = std::filesystem;

namespace mmasp::cli {
std::vector<const Form*> filter_forms(const std::string& glob, const std::optional<Target>& target) {
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space()) {
    if (!glob.empty() && !glob_match(glob, form.opcode)) continue;
    if (target && !form.legal_on(*target, form.version_for(*target))) continue;
    forms.push_back(&form);
  }
  return forms;
}


CLI::Validator whole_number(uint64_t low, uint64_t high) {
  const std::string range = high == UINT64_MAX ? "from " + std::to_string(low) + " to 2^64-1"
                                               : "from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string& text) -> std::string {
        const std::string expected = "a whole number " + range + " is expected, not '" + text + "'";
        if (!all_digits(text)) return expected;
        const size_t first = std::min(text.find_first_not_of('0'), text.size() - 1);
        const std::string digits = text.substr(first);
        // Compared as text first: std::stoull would wrap or saturate beyond 2^64 - 1.
        const std::string most = std::to_string(UINT64_MAX);
        if (digits.size() > most.size() || (digits.size() == most.size() && digits > most)) return expected;
        const uint64_t value = std::stoull(digits);
        return value < low || value > high ? expected : "";
      },
      "INTEGER " + range);
}

const CLI::Validator kSeconds(
    [](std::string& text) -> std::string {
      // Digits with at most one decimal point, as the whole-number options read them: no sign, blank, hex or exponent.
      const bool spelled = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos &&
                           std::count(text.begin(), text.end(), '.') <= 1 && text != "." &&
                           text.find_first_of("0123456789") != std::string::npos;
      char* end = nullptr;
      const double value = spelled ? std::strtod(text.c_str(), &end) : 0;
      const bool ok = spelled && *end == '\0' && std::isfinite(value) && value > 0;
      return ok ? "" : "a number of seconds greater than 0 (digits, with a decimal point if need be) is expected, not '" +
                           printable(text) + "'";
    },
    "SECONDS");

void OptionRegistrar::finish(CLI::Option* option, const run::OptionSpec& spec, bool by_value) {
  if (spec.internal) option->group("");
  if (spec.gpu_only && by_value)
    option->each([gpu_option = gpu_option_, spec](const std::string& value) { needs_gpu(gpu_option, spec, value); });
}

void OptionRegistrar::needs_gpu(std::string* gpu_option, const run::OptionSpec& spec, const std::string& value) {
  if (!gpu_option || !gpu_option->empty() || value == "auto" || value == "off") return;
  const std::string flags = spec.flags;
  *gpu_option = flags.substr(0, flags.find(',')) + (value.empty() ? "" : " " + value);
}

void add_compile_options(CLI::App* command, CompileOptions& options, bool with_filter) {
  OptionRegistrar registrar(command);
  run::visit_compile_options(options, registrar, with_filter);
}

std::string command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i ? " " : "") + shell_word(argv[i]);
  return line;
}

Progress::Progress(std::string label) : label_(std::move(label)), tty_(isatty(STDERR_FILENO)) {}

void Progress::operator()(size_t done, size_t total) {
  if (tty_) {
    std::cerr << "\r" << label_ << " " << done << "/" << total << std::flush;
    if (done == total) std::cerr << "\n";
  } else if (done == total || done * 10 / total != (done - 1) * 10 / total) {
    std::cerr << label_ << " " << done << "/" << total << "\n";
  }
}


namespace {
volatile sig_atomic_t g_compile_stop_signal = 0;
extern "C" void stop_compile_conformance(int signal) {
  g_compile_stop_signal = signal;
  request_command_stop();
}
}  // namespace

int compile_conformance(const CompileOptions& options, const fs::path& out_json) {
  // The first SIGINT, SIGTERM or SIGHUP kills the ptxas runs in flight (they run in process groups of their own) and
  // starts no more; a second ends the process at once.
  struct sigaction action = {};
  action.sa_handler = stop_compile_conformance;
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
  Progress progress("compile conformance:");
  const auto step = run::run_compile_step(options, std::ref(progress));
  std::cout << compile_summary(step->run, step->judgement, step->targets);
  if (!out_json.empty()) {
    if (out_json.has_parent_path()) fs::create_directories(out_json.parent_path());
    // Whole or not at all: a full disk leaves the previous file (or none), never a truncated one.
    write_file_atomically(out_json, compile_json(step->run, step->judgement, step->targets).dump(2) + "\n");
    std::cout << "wrote " << out_json.string() << "\n";
  }
  if (g_compile_stop_signal) {
    std::cerr << "mmasp compile: stopped by a signal; the cases left are not run\n";
    return 128 + g_compile_stop_signal;
  }
  return step->passed() ? kExitPass : kExitFail;
}


std::vector<std::pair<const Form*, int>> selected_pairs(const std::string& filter, const std::string& exclude,
                                                        const std::function<bool(const Form&)>& runs,
                                                        const std::function<bool(const Form&)>& keep) {
  std::vector<std::pair<const Form*, int>> pairs;
  for (const auto& form : instruction_space()) {
    if (!glob_match(filter, form.opcode) || (!exclude.empty() && glob_match(exclude, form.opcode))) continue;
    if ((keep && !keep(form)) || !runs(form)) continue;
    for (int selector : form.selectors) pairs.push_back({&form, selector});
  }
  return pairs;
}

}  // namespace mmasp::cli
