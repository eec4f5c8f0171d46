// The few ways mmasp writes numbers as text, in one place so that every report and file spells them alike.
#pragma once

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

namespace mmasp {

// An element code as lowercase hex: 0x3c00.
inline std::string hex_code(uint32_t code) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", code);
  return text;
}

// A double to nine significant digits (%.9g): enough to tell any two floats apart.
inline std::string nine_digits(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// A double to `digits` significant digits, for summaries (ulps, fractions of a bound).
inline std::string significant(double value, int digits = 4) {
  std::ostringstream out;
  out.precision(digits);
  out << value;
  return out.str();
}

}  // namespace mmasp
