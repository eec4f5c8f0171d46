// RapidCheck generators for complete cases of any form. Header-only so that only test programs depend on RapidCheck.
// Each choice is a separate shrinkable draw that shrinks toward 0, the simplest option (draw.h).
#pragma once

#include <rapidcheck.h>

#include <ostream>

#include "generators/distributions.h"
#include "oracle/case_file.h"

namespace mmasp {
// How RapidCheck prints a counterexample: the whole case in the case-file format, so it can be pasted into a file
// and run with `mmasp eval`.
inline void showValue(const MmaCase& test, std::ostream& out) {
  CaseFile file;
  file.test = test;
  out << to_json(file).dump();
}
}  // namespace mmasp

namespace mmasp::gen {

class RapidCheckDraw {
 public:
  // Full-size draws: RapidCheck scales ranges down with its size parameter, which would make early cases all zero;
  // resizing to the maximum keeps the distribution the one distributions.h defines.
  uint64_t bits() { return *rc::gen::resize(kMaxSize, rc::gen::inRange<uint64_t>(0, UINT64_MAX)); }
  uint32_t field(int width) {
    return uint32_t(*rc::gen::resize(kMaxSize, rc::gen::inRange<uint64_t>(0, uint64_t(1) << width)));
  }
  uint32_t below(uint32_t n) { return *rc::gen::resize(kMaxSize, rc::gen::inRange<uint32_t>(0, n)); }

 private:
  static constexpr int kMaxSize = 100;
};

inline rc::Gen<MmaCase> arbitrary_case(const Form& form, Options options = {}) {
  return rc::gen::exec([&form, options] {
    RapidCheckDraw draw;
    MmaCase test;
    draw_case(draw, form, options, test);
    return test;
  });
}

// A case and the choices that made it, for RC_CLASSIFY / RC_TAG coverage statistics.
struct CoveredCase {
  MmaCase test;
  Coverage coverage;
};
inline rc::Gen<CoveredCase> arbitrary_covered_case(const std::vector<const Form*>& forms, Options options = {}) {
  return rc::gen::exec([forms, options] {
    const Form& form = *forms[*rc::gen::inRange<size_t>(0, forms.size())];
    RapidCheckDraw draw;
    CoveredCase out;
    draw_case(draw, form, options, out.test, &out.coverage);
    return out;
  });
}

// A form drawn from `forms` (shrinking toward the first), then a case of it.
inline rc::Gen<MmaCase> arbitrary_case(const std::vector<const Form*>& forms, Options options = {}) {
  return rc::gen::exec([forms, options] {
    const Form& form = *forms[*rc::gen::inRange<size_t>(0, forms.size())];
    return *arbitrary_case(form, options);
  });
}

}  // namespace mmasp::gen
