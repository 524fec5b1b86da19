#include "analysis/sample_file.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace schedlab {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

}  // namespace

std::vector<double> parse_samples(std::string_view text, const std::string& name) {
  std::vector<double> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    double v = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || end != line.data() + line.size() || !std::isfinite(v))
      throw std::invalid_argument(fmt::format("{}:{}: not a number: '{}'", name, line_no, line));
    out.push_back(v);
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("{}: no samples", name));
  return out;
}

}  // namespace schedlab
