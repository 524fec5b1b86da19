// Base64 (RFC 4648, with padding, no line breaks): binary data kept in a
// text column (a perf profile's gzip-compressed folded stacks).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace schedlab {

std::string base64_encode(std::string_view data);
// Nothing for text that is not strict base64 (a character outside the
// alphabet, a length not a multiple of 4, padding in the middle).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace schedlab
