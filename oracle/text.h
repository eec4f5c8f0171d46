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

// The code points of UTF-8 text, with U+FFFD for each byte that does not start a well-formed sequence (overlong forms,
// surrogates and values above U+10FFFF included).
template <typename F>
void for_each_code_point(std::string_view text, F&& f) {
  size_t i = 0;
  while (i < text.size()) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    int length = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    uint32_t cp = length == 1 ? b0 : length == 2 ? (b0 & 0x1Fu) : length == 3 ? (b0 & 0x0Fu) : (b0 & 0x07u);
    bool ok = length > 0 && i + size_t(length) <= text.size();
    for (int k = 1; ok && k < length; ++k) {
      const auto b = static_cast<unsigned char>(text[i + size_t(k)]);
      ok = (b & 0xC0) == 0x80;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    static constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kSmallest[length] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) {
      f(uint32_t(0xFFFD), i, size_t(1), false);
      ++i;
      continue;
    }
    f(cp, i, size_t(length), true);
    i += size_t(length);
  }
}

// Empty when `text` is well-formed UTF-8; else where it is not ("the byte 0xff at 3 is not UTF-8").
inline std::string utf8_problem(std::string_view text) {
  std::string problem;
  for_each_code_point(text, [&](uint32_t, size_t at, size_t, bool well_formed) {
    if (well_formed || !problem.empty()) return;
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(text[at]));
    problem = "the byte " + std::string(byte) + " at " + std::to_string(at) + " is not UTF-8 (text options are UTF-8)";
  });
  return problem;
}

// Whether a code point shows nothing: controls, every Unicode space, and the format characters that take no room
// (zero-width space and joiners, directional marks, word joiner, soft hyphen, byte-order mark, ...).
inline bool invisible_code_point(uint32_t cp) {
  if (cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0)) return true;
  if (cp == 0xAD || cp == 0x034F || cp == 0x061C || cp == 0x115F || cp == 0x1160 || cp == 0x1680 || cp == 0x180E) return true;
  if (cp >= 0x2000 && cp <= 0x200F) return true;   // spaces, zero-width space, joiners, marks
  if (cp >= 0x2028 && cp <= 0x202F) return true;   // separators, embeddings, narrow no-break space
  if (cp >= 0x205F && cp <= 0x206F) return true;   // medium space, word joiner, invisible operators
  if (cp == 0x3000 || cp == 0x3164 || cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF0 && cp <= 0xFFFF)) return true;
  if (cp >= 0xFE00 && cp <= 0xFE0F) return true;   // variation selectors
  if (cp >= 0xE0000 && cp <= 0xE0FFF) return true; // tags and supplementary variation selectors
  if (cp == 0x1D159 || (cp >= 0x1D173 && cp <= 0x1D17A)) return true;
  return false;
}

// Whether text shows at least one visible character: a reason or an id made only of blanks, controls or zero-width
// characters (U+200B) says nothing.
inline bool has_visible_text(std::string_view text) {
  bool visible = false;
  for_each_code_point(text, [&](uint32_t cp, size_t, size_t, bool well_formed) {
    visible |= well_formed && !invisible_code_point(cp);
  });
  return visible;
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

// Text for XML and HTML attributes and content: the five special characters escaped, the control characters XML 1.0
// forbids even escaped replaced by blanks, and what is not a character XML allows (U+FFFE, U+FFFF, bytes that are not
// well-formed UTF-8) replaced by U+FFFD.
inline std::string xml_escape(const std::string& text) {
  std::string out;
  for_each_code_point(text, [&](uint32_t cp, size_t at, size_t length, bool well_formed) {
    if (!well_formed || cp == 0xFFFE || cp == 0xFFFF) {
      out += "\xEF\xBF\xBD";
      return;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r') out += ' ';
        else out.append(text, at, length);
    }
  });
  return out;
}

}  // namespace mmasp
