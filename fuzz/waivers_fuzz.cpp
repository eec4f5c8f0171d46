// libFuzzer target: arbitrary bytes as a waivers file. Reading one must either succeed, with every glob well formed,
// every waiver naming a form glob that some form of the catalog escapes and giving a reason with visible text, or fail
// with a std::runtime_error naming the JSON pointer.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "reports/diff.h"
#include "reports/findings.h"
#include "oracle/instruction_space.h"
#include "oracle/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  std::vector<Waiver> waivers;
  try {
    waivers = parse_waivers(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
  } catch (const std::runtime_error& error) {
    if (std::string(error.what()).rfind("fuzz.json: ", 0) != 0) {
      std::cerr << "waivers_fuzz: an error that does not name the file: " << error.what() << "\n";
      std::abort();
    }
    return 0;
  }
  for (const Waiver& w : waivers) {
    if (!has_visible_text(w.reason) || w.form.empty() || !glob_problem(w.device).empty() ||
        !glob_problem(w.driver).empty() || !glob_problem(w.form).empty()) {
      std::cerr << "waivers_fuzz: a waiver was accepted without a reason, a form, or with a malformed glob\n";
      std::abort();
    }
    bool escapes = false;
    for (const Form& form : instruction_space()) escapes |= !glob_match(w.form, form.opcode + " sel=0 random");
    if (!escapes) {
      std::cerr << "waivers_fuzz: a waiver whose form glob matches every form was accepted: " << w.form << "\n";
      std::abort();
    }
    (void)glob_match(w.form, "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 sel=0 random");
  }
  return 0;
}
