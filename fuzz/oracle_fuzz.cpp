// libFuzzer target: the fuzzer's bytes are the random choices of the case distributions (generators/draw.h), so
// every input is a case of some form. Checks what must hold for every case:
//   - the correctly rounded reference itself is always judged Pass (the bounds never accuse a perfect result);
//   - registers rebuild the case exactly (oracle/fragments.h);
//   - a case file rebuilds the case exactly (oracle/case_file.h).
// Any violation aborts, and libFuzzer keeps the input.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "fuzz/bytes_draw.h"
#include "generators/distributions.h"
#include "oracle/case_file.h"
#include "oracle/classification.h"
#include "oracle/fragments.h"

namespace {

void require(bool condition, const char* what, const mmasp::MmaCase& test) {
  if (condition) return;
  std::cerr << "oracle_fuzz: " << what << "\n" << mmasp::to_json(mmasp::CaseFile{test, {}, {}, {}, {}, {}}).dump() << "\n";
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mmasp;
  if (size < 2) return 0;
  const auto& forms = instruction_space();
  const Form& form = forms[data[0] % forms.size()];
  fuzz::BytesDraw draw(data + 1, size - 1);
  gen::Options options;
  options.undefined_behaviour = data[1] & 1;
  MmaCase test;
  gen::draw_case(draw, form, options, test);

  // Out-of-range selectors and scale ids name no register places at all (undefined behaviour), so only cases whose
  // undefined behaviour, if any, is in the metadata values round-trip through registers.
  bool placeable = true;
  for (const auto& reason : undefined_behaviour(test)) placeable &= reason.find("metadata") != std::string::npos;
  const MmaCase back = placeable ? from_registers(form, to_registers(test)) : test;
  require(back.a_compressed == test.a_compressed && back.b == test.b && back.c == test.c && back.nibbles == test.nibbles &&
              back.scale_a == test.scale_a && back.scale_b == test.scale_b,
          "registers do not rebuild the case", test);

  const CaseFile file = parse_case_file(to_json(CaseFile{test, {}, {}, {}, {}, {}}));
  require(file.test.a_compressed == test.a_compressed && file.test.nibbles == test.nibbles && file.test.b == test.b &&
              file.test.c == test.c && file.test.selector == test.selector,
          "the case file does not rebuild the case", test);

  if (!undefined_behaviour(test).empty()) return 0;
  const ReferenceResult expected = reference(test);
  std::vector<uint32_t> rounded;
  for (const auto& e : expected.d) rounded.push_back(e.rounded_code);
  const CaseVerdict verdict = judge(test, rounded);
  require(verdict.status == Status::pass, "the correctly rounded reference is not judged Pass", test);
  return 0;
}
