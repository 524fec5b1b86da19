// Text that schedlab wraps at 100 columns, read with its line breaks and
// indents as single spaces, so a test finds a sentence wherever it wraps.
#pragma once

#include <cctype>
#include <sstream>
#include <string>
#include <string_view>

#include "base/text.h"

namespace schedlab::test {

inline std::string one_line(std::string_view text) {
  std::string flat;
  for (const char ch : text) {
    const bool space = std::isspace(static_cast<unsigned char>(ch)) != 0;
    if (space && (flat.empty() || flat.back() == ' ')) continue;
    flat += space ? ' ' : ch;
  }
  return flat;
}

// The messages in stderr: lines that do not continue the one before (a
// message wrapped at 100 columns continues indented).
inline std::size_t message_count(std::string_view err) {
  std::size_t n = 0;
  bool line_start = true;
  for (const char ch : err) {
    if (line_start && ch != ' ') ++n;
    line_start = ch == '\n';
  }
  return n;
}

// The first line of `text` wider than `width` columns (display_width) that
// wrap_words could have broken, or "" when there is none:
// CHECK(wider_line(err).empty()) names the line. A line of one word after
// its indentation (a path, a kernel spec wider than the line) stays whole
// by design, and is not one.
inline std::string wider_line(const std::string& text, std::size_t width = 100) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto word = line.find_first_not_of(' ');
    const bool one_word = word == std::string::npos || line.find(' ', word) == std::string::npos;
    if (display_width(line) > width && !one_word) return line;
  }
  return "";
}

}  // namespace schedlab::test
