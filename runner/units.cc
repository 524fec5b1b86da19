#include "runner/units.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

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
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(number * ms_per_unit)));
}

std::string format_duration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  if (ms % 3'600'000 == 0 && ms > 0) return fmt::format("{}h", ms / 3'600'000);
  if (ms % 60'000 == 0 && ms > 0) return fmt::format("{}m", ms / 60'000);
  if (ms % 1000 == 0) return fmt::format("{}s", ms / 1000);
  return fmt::format("{}ms", ms);
}

}  // namespace schedlab
