// libFuzzer target: arbitrary bytes as a findings file (findings/findings.json, or --findings). Reading one must
// either succeed, with every glob well formed (a malformed glob would silently document nothing; a control character
// would cut it short) and every id used once, or fail with a
// std::runtime_error that names the file; a file that was read must match case ids without a crash.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "reports/findings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  FindingsFile file;
  try {
    file = parse_findings(std::string(reinterpret_cast<const char*>(data), size), "findings.json");
  } catch (const std::runtime_error& error) {
    if (std::string(error.what()).rfind("findings.json: ", 0) != 0) {
      std::cerr << "findings_fuzz: an error that does not name the file: " << error.what() << "\n";
      std::abort();
    }
    return 0;
  }
  for (size_t i = 0; i < file.findings.size(); ++i) {
    const Finding& finding = file.findings[i];
    for (size_t j = 0; j < i; ++j)
      if (file.findings[j].id == finding.id) {
        std::cerr << "findings_fuzz: an id was accepted twice: " << finding.id << "\n";
        std::abort();
      }
    for (const std::string& glob : finding.cases)
      if (!glob_problem(glob).empty()) {
        std::cerr << "findings_fuzz: a malformed glob was accepted: " << glob << "\n";
        std::abort();
      }
    (void)match_finding(file, finding.kind, "accept/mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32@sel0@sm_90a",
                        finding.compile_observed.value_or(Observed::accept), "Cuda compilation tools, release 13.0, V13.0.88");
  }
  return 0;
}
