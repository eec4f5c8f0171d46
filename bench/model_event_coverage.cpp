// Which of the model's events (oracle/numeric_model.h) random generation reaches in a given time, against what the
// model-guided fuzzer (fuzz/gpu_model_fuzz --events-out=FILE) reached: issue #17's comparison. Random generation here
// does what the fuzzer does per case — the model with its event sink, and the device (the emulator computing the
// sm_90 model) — over the same forms, from the seeded bulk generator of `mmasp run` (profiles mixed as it mixes them).
//
//   model_event_coverage --seconds 600 [--family f16] [--seed S] [--events-out FILE]
//                        [--random-events FILE]... [--fuzzer-events FILE]...
//
// Prints cases/s, the events reached, and with fuzzer files the events only one side reached (family stage event
// value). A campaign run in parts compares like with like: each part of random generation takes its own --seed and
// writes --events-out; the last part reads the earlier parts' files (--random-events) and every part of the fuzzer's
// (--fuzzer-events), and compares the unions.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "generators/bulk.h"
#include "harness/backend.h"
#include "judge/suites.h"
#include "oracle/numeric_model.h"
#include "oracle/numeric_model_table.h"

using namespace mmasp;
using Event = std::tuple<std::string, int, int, int>;   // family, stage, event, value

namespace {

struct Sink {
  std::string family;
  std::set<Event>* reached;
  static void add(void* context, ModelEvent event, ModelStage stage, int value) {
    auto* sink = static_cast<Sink*>(context);
    sink->reached->insert({sink->family, int(stage), int(event), value});
  }
};

const char* kEventNames[] = {"block_terms", "alignment_from_c", "shifted_out", "shifted_out_lost", "carry",
                             "cancellation", "rounding", "result", "special", "rounding_bits", "second_term_gap"};
const char* kStageNames[] = {"first_block", "later_block", "c_addition"};

// Events in the file format gpu_model_fuzz --events-out writes: "family stage event value" per line.
void read_events(const std::string& path, std::set<Event>& out) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "model_event_coverage: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Event e;
    words >> std::get<0>(e) >> std::get<1>(e) >> std::get<2>(e) >> std::get<3>(e);
    if (words) out.insert(e);
  }
}

void print(const char* title, const std::set<Event>& events) {
  std::printf("%s: %zu\n", title, events.size());
  for (const auto& [family, stage, event, value] : events)
    std::printf("  %s %s %s %d\n", family.c_str(), kStageNames[stage], kEventNames[event], value);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  uint64_t seed = 2026;
  std::string family, events_out;
  std::vector<std::string> fuzzer_files, random_files;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) {
      std::fprintf(stderr, "model_event_coverage: %s needs a value\n", argv[i]);
      return 2;
    }
    const std::string option = argv[i], value = argv[i + 1];
    if (option == "--seconds") seconds = std::atof(value.c_str());
    else if (option == "--family") family = value;
    else if (option == "--seed") seed = std::strtoull(value.c_str(), nullptr, 0);
    else if (option == "--events-out") events_out = value;
    else if (option == "--fuzzer-events") fuzzer_files.push_back(value);
    else if (option == "--random-events") random_files.push_back(value);
    else {
      std::fprintf(stderr, "model_event_coverage: unknown option %s\n", option.c_str());
      return 2;
    }
  }
  std::vector<const Form*> forms;
  for (const auto& form : instruction_space())
    if (verified_model(form, "sm_90") && (family.empty() || form.family == family)) forms.push_back(&form);
  if (forms.empty()) {
    std::fprintf(stderr, "no modelled form of family '%s'\n", family.c_str());
    return 2;
  }
  EmulatorBackend device(1, [](const Form& form) { return verified_model(form, "sm_90"); }, "sm_90");
  std::set<Event> reached;
  uint64_t cases = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (elapsed() < seconds) {
    const Form& form = *forms[cases % forms.size()];
    MmaCase test;
    gen::BulkGenerator(gen::case_seed(seed, form, cases / forms.size())).next(form, test);
    ++cases;
    if (!undefined_behaviour(test).empty()) continue;
    Sink sink{form.family, &reached};
    {
      ModelEventScope scope(&Sink::add, &sink);
      (void)model_result(test, *verified_model(form, "sm_90"));
    }
    (void)execute(device, form, test.selector, {test});
  }
  std::printf("random generation (seed %llu): %llu cases in %.1f s (%.0f cases/s), %zu model events over %zu forms\n",
              (unsigned long long)seed, (unsigned long long)cases, elapsed(), double(cases) / elapsed(), reached.size(),
              forms.size());
  if (!events_out.empty()) {
    std::ofstream out(events_out);
    for (const auto& [family_name, stage, event, value] : reached)
      out << family_name << ' ' << stage << ' ' << event << ' ' << value << '\n';
  }
  for (const auto& path : random_files) read_events(path, reached);
  if (!random_files.empty()) std::printf("with earlier parts (%zu files): %zu model events\n", random_files.size(), reached.size());
  if (fuzzer_files.empty()) {
    print("reached by random generation", reached);
    return 0;
  }
  std::set<Event> fuzzed;
  for (const auto& path : fuzzer_files) read_events(path, fuzzed);
  std::set<Event> only_fuzzer, only_random;
  for (const auto& e : fuzzed)
    if (!reached.count(e)) only_fuzzer.insert(e);
  for (const auto& e : reached)
    if (!fuzzed.count(e)) only_random.insert(e);
  std::printf("guided fuzzer (%zu files): %zu model events\n", fuzzer_files.size(), fuzzed.size());
  print("reached only by the guided fuzzer", only_fuzzer);
  print("reached only by random generation", only_random);
  return 0;
}
