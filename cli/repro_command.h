// `mmasp repro CASE.json`: one case on this machine's backend (the GPU when it can run the form, else the emulator),
// expected against observed element by element.
#pragma once

#include <string>

namespace mmasp::cli {

int repro_main(const std::string& case_file, int device, bool force_emulator);

}  // namespace mmasp::cli
