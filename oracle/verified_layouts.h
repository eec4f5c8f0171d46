// Which forms' layouts (A, B, C/D and the metadata map of every selector) mmasp's layout discovery has confirmed on
// hardware, and on what. The data lives in verified_layouts.cpp, generated from a committed run.
#pragma once

#include <string>
#include <vector>

namespace mmasp {

struct LayoutVerificationRecord {
  std::string device;                  // what the probes ran on
  std::string evidence;                // the committed run whose "layouts" section is the evidence
  std::vector<std::string> forms;      // opcodes, every selector verified
};

const LayoutVerificationRecord& layout_verification_record();

}  // namespace mmasp
