// The few ways mmasp writes numbers (and escapes text) as text, in one place so that every report and file spells them alike.
#pragma once

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

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

// Digits only: no sign, blank or point (what whole-number options and shard numbers accept).
inline bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Text for XML and HTML attributes and content: the five special characters escaped, and the control characters XML
// 1.0 forbids even escaped replaced by blanks.
inline std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') out += ' ';
        else out += c;
    }
  }
  return out;
}

}  // namespace mmasp
