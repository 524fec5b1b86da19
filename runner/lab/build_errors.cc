#include "runner/lab/build_errors.h"

#include "base/text.h"

namespace schedlab::lab {

std::string first_error_lines(const std::string& log, std::size_t n) {
  std::string out;
  std::size_t count = 0;
  for (const auto line : split_lines(log)) {
    if (line.find("error:") == std::string_view::npos &&
        line.find("Error ") == std::string_view::npos &&
        line.find("*** ") == std::string_view::npos &&
        line.find("No space left") == std::string_view::npos)
      continue;
    out += std::string(line) + "\n";
    if (++count == n) break;
  }
  return out;
}

}  // namespace schedlab::lab
