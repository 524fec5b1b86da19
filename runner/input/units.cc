#include "runner/input/units.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

namespace schedlab {

std::optional<std::chrono::milliseconds> parse_duration(const std::string& text) {
  double number = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || ptr == begin || number < 0 || !std::isfinite(number)) return std::nullopt;
  const std::string unit(ptr, end);
  double ms_per_unit = 0;
  if (unit.empty() || unit == "s")
    ms_per_unit = 1000;
  else if (unit == "ms")
    ms_per_unit = 1;
  else if (unit == "m" || unit == "min")
    ms_per_unit = 60'000;
  else if (unit == "h")
    ms_per_unit = 3'600'000;
  else
    return std::nullopt;
  const double ms = number * ms_per_unit;
  if (ms > static_cast<double>(kMaxDuration.count())) return std::nullopt;
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(ms)));
}

std::string format_duration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  if (ms % 3'600'000 == 0 && ms > 0) return fmt::format("{}h", ms / 3'600'000);
  if (ms % 60'000 == 0 && ms > 0) return fmt::format("{}m", ms / 60'000);
  if (ms % 1000 == 0) return fmt::format("{}s", ms / 1000);
  return fmt::format("{}ms", ms);
}

namespace {
std::optional<int> cpu_number(const std::string& s) {
  int n = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || n < 0 || n > kMaxCpu)
    return std::nullopt;
  return n;
}
}  // namespace

std::optional<std::vector<int>> parse_cpu_list(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
    t.pop_back();  // sysfs files end in \n
  if (t.empty()) return std::nullopt;
  std::set<int> cpus;
  std::istringstream in(t);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto dash = item.find('-');
    const auto first = cpu_number(item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : cpu_number(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int c = *first; c <= *last; ++c) cpus.insert(c);
  }
  if (t.back() == ',') return std::nullopt;  // getline drops an empty last item
  return std::vector<int>(cpus.begin(), cpus.end());
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace schedlab
