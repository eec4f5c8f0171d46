// Which of the model's events (oracle/numeric_model.h) random generation reaches in a given time, against what the
// model-guided fuzzer (fuzz/gpu_model_fuzz --events-out=FILE) reached: issue #17's comparison. Random generation here
// does what the fuzzer does per case — the model with its event sink, and the device (the emulator computing the
// sm_90 model) — over the same forms, from the seeded bulk generator of `mmasp run` (profiles mixed as it mixes them).
//
//   model_event_coverage --seconds 600 [--family f16] [--fuzzer-events FILE]
//
// Prints cases/s, the events reached, and with FILE the events only one side reached (family stage event value).
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
#include "harness/execution.h"
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

void print(const char* title, const std::set<Event>& events) {
  std::printf("%s: %zu\n", title, events.size());
  for (const auto& [family, stage, event, value] : events)
    std::printf("  %s %s %s %d\n", family.c_str(), kStageNames[stage], kEventNames[event], value);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  std::string family, fuzzer_events;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--family")) family = argv[i + 1];
    if (!std::strcmp(argv[i], "--fuzzer-events")) fuzzer_events = argv[i + 1];
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
    gen::BulkGenerator(gen::case_seed(2026, form, cases / forms.size())).next(form, test);
    ++cases;
    if (!undefined_behaviour(test).empty()) continue;
    Sink sink{form.family, &reached};
    {
      ModelEventScope scope(&Sink::add, &sink);
      (void)model_result(test, *verified_model(form, "sm_90"));
    }
    (void)execute(device, form, test.selector, {test});
  }
  std::printf("random generation: %llu cases in %.1f s (%.0f cases/s), %zu model events over %zu forms\n",
              (unsigned long long)cases, elapsed(), double(cases) / elapsed(), reached.size(), forms.size());
  if (fuzzer_events.empty()) {
    print("reached by random generation", reached);
    return 0;
  }
  std::set<Event> fuzzed;
  std::ifstream in(fuzzer_events);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Event e;
    words >> std::get<0>(e) >> std::get<1>(e) >> std::get<2>(e) >> std::get<3>(e);
    if (words) fuzzed.insert(e);
  }
  std::set<Event> only_fuzzer, only_random;
  for (const auto& e : fuzzed)
    if (!reached.count(e)) only_fuzzer.insert(e);
  for (const auto& e : reached)
    if (!fuzzed.count(e)) only_random.insert(e);
  std::printf("guided fuzzer (%s): %zu model events\n", fuzzer_events.c_str(), fuzzed.size());
  print("reached only by the guided fuzzer", only_fuzzer);
  print("reached only by random generation", only_random);
  return 0;
}
