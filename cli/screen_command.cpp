// `mmasp screen`: fleet screening — every GPU through the GPU-resident path for a time budget, one JSON verdict per
// GPU (run/screen.h, docs/screening.md).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "run/screen.h"

namespace mmasp::cli {

Subcommand add_screen_command(CLI::App& mmasp) {
  auto o = std::make_shared<run::ScreenOptions>();
  CLI::App* screen = mmasp.add_subcommand("screen", "fleet screening: every GPU through the GPU-resident path for a time "
                                          "budget, one JSON verdict per GPU (docs/screening.md)");
  screen->add_option("--devices", o->devices, "GPUs: all, or ordinals 0,2,...")->capture_default_str();
  screen->add_option("--budget", o->budget, "seconds per GPU, spread over every form x selector")->check(kSeconds)
      ->capture_default_str();
  screen->add_option("--seed", o->seed, "seed of the case streams")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  screen->add_option("--model-record", o->model_record, "judge float forms by this model record (mmasp characterize "
                     "--save); default: the newest of this architecture in the search path, then the built-in table");
  add_enum_option<ResidentImageChoice>(screen, "--resident-image", o->image,
                                       {{"auto", ResidentImageChoice::automatic}, {"cubin", ResidentImageChoice::cubin},
                                        {"ptx", ResidentImageChoice::ptx}},
                                       "the resident kernel's image: cubin (sm_90), ptx (any sm_80+ GPU), auto");
  screen->add_option("--filter", o->filter, "only forms whose opcode matches this glob")->capture_default_str();
  screen->add_option("--compact-sets", o->compact_sets, "a directory of compact sets (e.g. evidence/compact-sets/sm_90): "
                     "each pair's set runs first on every GPU, through the compiled module (docs/coverage.md)");
  screen->add_option("--out", o->out, "where the verdicts go: gpuN.json, gpuN.log, screen.json")->capture_default_str();
  // Internal (one GPU's process) and test-only options.
  screen->add_option("--device", o->device, "internal: screen this GPU alone")->group("")->check(whole_number(0, INT32_MAX));
  screen->add_option("--verdict", o->verdict, "internal: write this GPU's verdict here")->group("");
  screen->add_option("--inject-fault-rate", o->inject_fault_rate, "test-only: flip a D bit in 1 of N cases")->group("")
      ->check(whole_number(1, UINT64_MAX));
  screen->add_option("--inject-fault-on", o->inject_fault_on, "test-only: K:N, the fault on device K only")->group("");
  screen->add_flag("--emulator", o->emulator, "test-only: the compact-set step alone, on the CPU emulator")->group("");
  screen->add_option("--inject-fault", o->inject_fault, "test-only: a catalogue fault in the compact-set step")->group("");
  return {screen, [o](int, char** argv) {
            const auto say = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
            if (o->device >= 0) return exit_code_for(run::screen_device(*o, say).verdict);
            if (o->emulator) return run::screen_emulated(*o, say);
            std::vector<std::string> self = {argv[0], "screen", "--budget", std::to_string(o->budget), "--seed",
                                             std::to_string(o->seed), "--out", o->out, "--filter", o->filter,
                                             "--resident-image", std::string(name(o->image))};
            for (const auto& [option, value] : {std::pair{"--model-record", o->model_record},
                                                {"--compact-sets", o->compact_sets}, {"--inject-fault", o->inject_fault}})
              if (!value.empty()) self.insert(self.end(), {option, value});
            return run::screen_devices(*o, self, say);
          }};
}

}  // namespace mmasp::cli
