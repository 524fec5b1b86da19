// JSON that schedlab reads as data (a database's columns, a tool's output,
// a file of state): parsed with its nesting bounded. nlohmann's parser keeps
// its own stack, but dump(), comparison and our walks of a value recurse: a
// value nested 300,000 deep (a crafted manifest or params_json) would
// overflow the stack in them. No JSON schedlab writes or reads nests more
// than a few levels.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace schedlab {

// The deepest nesting of arrays and objects parse_json_data accepts.
inline constexpr int kMaxJsonDepth = 64;

// text parsed as nlohmann::json::parse(text, nullptr, false) does: a
// discarded value (is_discarded()) for text that is not JSON, and for JSON
// nested deeper than kMaxJsonDepth.
nlohmann::json parse_json_data(std::string_view text);

// The same, throwing std::invalid_argument "WHAT is not JSON (or nests
// deeper than 64 levels)" instead of returning a discarded value.
nlohmann::json require_json_data(std::string_view text, std::string_view what);

// JSON that schedlab writes (a --format json output, an export): j.dump(),
// with each C1 control and bidirectional formatting character written as a
// \u escape (base/text.h's unicode_escaped_controls): a raw U+202E from a
// name would reorder what a terminal or a page shows of the file. ESC and
// the other C0 controls are escaped by dump() itself; other non-ASCII
// characters keep their bytes.
std::string json_output(
    const nlohmann::json& j, int indent = 2,
    nlohmann::json::error_handler_t errors = nlohmann::json::error_handler_t::strict);

}  // namespace schedlab
