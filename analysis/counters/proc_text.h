// Small helpers shared by the kernel counter parsers (schedstat, /proc/stat,
// /proc/interrupts, ...): whitespace tokens, strict number parsing, and the
// one error type they throw; lines come from split_lines (base/text.h).
// Errors carry the line number so a message points into the input
// ("schedstat.after:7: ...").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.h"

namespace schedlab {

class CounterParseError : public std::runtime_error {
 public:
  // line is 1-based; 0 when the problem is not one line (e.g. a missing header).
  CounterParseError(std::size_t line, const std::string& what);
  // The same error located in a file: "file:N: what" ("file: what" for line 0).
  CounterParseError(const CounterParseError& e, std::string_view file);
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
  std::string detail_;  // the message without the "line N: " prefix, for "file:N: detail"
};

// A counter file's snapshots do not fit together (CPU count, domain layout,
// another process, a reboot in between): a delta would be meaningless.
class CounterMismatchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Tokens separated by spaces, tabs or other control characters. Fills out (cleared first) so a
// caller parsing thousands of lines can reuse one vector.
void split_ws(std::string_view line, std::vector<std::string_view>& out);
std::vector<std::string_view> split_ws(std::string_view line);

// Strict unsigned decimal: digits only, no sign, no overflow; false if not.
bool parse_u64(std::string_view token, std::uint64_t& out);
// The same, throwing CounterParseError(line, "<what>: '<token>' is not a counter").
std::uint64_t parse_u64_or_throw(std::string_view token, std::size_t line, std::string_view what);
// A line (or a field) of a counter file or a tool's output as an error
// quotes it: its first 80 bytes, terminal-safe (a crafted 1 MiB stack line
// or an ESC in a symbol is not printed back whole or raw).
std::string line_excerpt(std::string_view line);

// A decimal number as the kernel prints it ("44.40", "-1", "417325.895197");
// finite: from_chars's "nan" and "inf" are no number a counter file holds.
bool parse_double(std::string_view token, double& out);

// after - before for a counter the kernel keeps in `bits` bits: a 32-bit
// counter that wrapped is taken modulo 2^32. A 64-bit counter going backwards
// (or a 32-bit one holding a value that does not fit) is an error: the
// snapshots are not from one boot, or not in order.
std::uint64_t counter_delta(std::uint64_t before, std::uint64_t after, int bits,
                            std::string_view what);

}  // namespace schedlab
