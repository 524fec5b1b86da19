// Text that schedlab wraps at 100 columns, read with its line breaks and
// indents as single spaces, so a test finds a sentence wherever it wraps.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

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

}  // namespace schedlab::test
