// `mmasp repro CASE.json`: one case on this machine's backend (the GPU when it can run the form, else the emulator),
// expected against observed element by element. A case whose behaviour is undefined (an out-of-range selector or scale
// id, undefined metadata) is refused unless --ub is given, and then runs only in a process of its own (a trapping
// instruction takes that process, not this one) and is labelled "UB: not judged".
#pragma once

#include <string>

namespace mmasp::cli {

struct ReproOptions {
  std::string case_file;
  int device = 0;
  bool emulator = false;
  bool device_given = false;   // --device was given: a GPU is required
  bool ub = false;         // run an undefined-behaviour case (in isolation) instead of refusing it
  bool ub_child = false;   // internal: this process is that isolation
};

int repro_main(const ReproOptions& options);

}  // namespace mmasp::cli
