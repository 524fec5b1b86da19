// `{name}` placeholders in one argv element: the one grammar of hooks
// (nightly, bisect: `{kernel}`, `{commit}`) and of the command workload's
// argv template (`{threads}`, `{sut_address}`).
//
// A placeholder is `{` lower-case identifier `}` (a-z or _, then a-z, 0-9
// or _). `{{` and `}}` are literal braces. Any other pair of braces is kept
// as it is, so `${HOME}`, `{}` and awk's `{print $1}` pass through. A `{`
// that no `}` closes, or a `}` that no `{` opened, is an error: it is most
// likely a mistyped placeholder (`{threads`); write `{{` or `}}` for a lone
// brace.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab {

// "argv '{threads': '{' without '}'".
class PlaceholderError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Whether name can be written as a placeholder (`{name}`).
bool is_placeholder_name(std::string_view name);

// The names of arg's placeholders in order of appearance, repeats included.
// Throws PlaceholderError for an unmatched brace.
std::vector<std::string> placeholder_names(std::string_view arg);

// arg with each placeholder replaced by value(name) and `{{`, `}}` by one
// brace. Throws PlaceholderError for an unmatched brace (before value is
// called); value may throw for a name it does not know.
std::string expand_placeholders(std::string_view arg,
                                const std::function<std::string(const std::string&)>& value);

}  // namespace schedlab
