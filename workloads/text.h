// Small text helpers the parsers share: lines with their numbers, and
// numbers read in the C locale whatever the process locale says.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab {

std::vector<std::string> split_lines(const std::string& text);
// The whole of s as a finite number ("12.5", "3e2"); nullopt otherwise.
std::optional<double> to_number(std::string_view s);

}  // namespace schedlab
