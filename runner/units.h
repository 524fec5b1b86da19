// Typed values with units, parsed in one place: durations ("30s", "500ms",
// "2m", "1h", a bare number is seconds).
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace schedlab {

std::optional<std::chrono::milliseconds> parse_duration(const std::string& text);
std::string format_duration(std::chrono::milliseconds d);

}  // namespace schedlab
