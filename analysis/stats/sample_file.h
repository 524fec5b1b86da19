// Plain sample files for `schedlab stats`: one number per line; blank lines
// and `#` comments (whole-line or trailing) are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedlab {

// Parses the text of a sample file named `name` (used in errors). Throws
// std::invalid_argument "name:line: not a number: 'text'" for anything else,
// including NaN and infinities, "name:line: not a sample: why" for a number
// outside base/sample_range.h's range, and "name: no samples" for an empty
// file.
std::vector<double> parse_samples(std::string_view text, const std::string& name);

}  // namespace schedlab
