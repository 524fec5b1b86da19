#include "analysis/stats/sample_file.h"

#include <fmt/format.h>

#include <stdexcept>

#include "base/sample_range.h"
#include "base/text.h"

namespace schedlab {

std::vector<double> parse_samples(std::string_view text, const std::string& name) {
  // Windows editors save "UTF-8" with a byte order mark; in a message it is
  // invisible ("not a number: '1'"), so it is named.
  if (text.starts_with("\xef\xbb\xbf"))
    throw std::invalid_argument(fmt::format(
        "{}:1: the file starts with a UTF-8 byte order mark (EF BB BF): save it without one",
        name));
  std::vector<double> out;
  std::size_t line_no = 0;
  for (std::string_view line : split_lines(text)) {
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto v = to_number(line);
    if (!v)
      throw std::invalid_argument(
          fmt::format("{}:{}: not a number: '{}'", name, line_no, terminal_safe(excerpt(line))));
    if (const auto why = sample_out_of_range(*v))
      throw std::invalid_argument(fmt::format("{}:{}: not a sample: {}", name, line_no, *why));
    out.push_back(*v);
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("{}: no samples", name));
  return out;
}

}  // namespace schedlab
