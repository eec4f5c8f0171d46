// The few ways mmasp writes numbers (and escapes text) as text, in one place so that every report and file spells them alike.
#pragma once

#include <algorithm>
#include <cctype>
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

// Text from a file or a run, safe to print on a terminal or in a one-line message: control characters (escape
// sequences, carriage returns, bells) are shown as \xNN instead of being sent to the terminal.
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

// Text from a run inside Markdown (summary.md, which CI systems render), placed after a list marker or in a table cell:
// the characters that mark up inline text there (emphasis, code, links and images, strikethrough, cell boundaries,
// raw HTML and entities) are escaped, and control characters, line breaks included, are shown as \xNN, so a string
// cannot start a block, a link or raw HTML.
inline std::string markdown_text(std::string_view text) {
  std::string out;
  const std::string shown = printable(text);
  const auto word = [&](size_t i) { return i < shown.size() && std::isalnum(static_cast<unsigned char>(shown[i])); };
  for (size_t i = 0; i < shown.size(); ++i) {
    const char c = shown[i];
    // An underscore inside a word ("sm_120a") never marks emphasis in GitHub's Markdown: left as it is, for the
    // people who read summary.md as text.
    if (c == '_' && i > 0 && word(i - 1) && word(i + 1)) out += c;
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (std::string_view("\\`*_[]|~").find(c) != std::string_view::npos) out += std::string("\\") + c;
    else out += c;
  }
  return out;
}

// Text from a run as a Markdown code span: fenced with more backticks than it holds in a row, and pipes escaped (a
// GitHub table reads "|" as a cell boundary even inside a code span).
inline std::string markdown_code(std::string_view text) {
  std::string body;
  size_t run = 0, longest = 0;
  for (char c : printable(text)) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

// One word of a command line as a POSIX shell reads it back: left as it is when it holds only characters no shell
// treats specially, else single-quoted. Reports show the command a person can paste to run again.
inline std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789_@%+=:,./-") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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
