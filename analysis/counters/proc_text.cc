#include "analysis/counters/proc_text.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "base/text.h"

namespace schedlab {

CounterParseError::CounterParseError(std::size_t line, const std::string& what)
    : std::runtime_error(line ? fmt::format("line {}: {}", line, what) : what),
      line_(line),
      detail_(what) {}

CounterParseError::CounterParseError(const CounterParseError& e, std::string_view file)
    : std::runtime_error(e.line_ ? fmt::format("{}:{}: {}", file, e.line_, e.detail_)
                                 : fmt::format("{}: {}", file, e.detail_)),
      line_(e.line_),
      detail_(e.detail_) {}

void split_ws(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  const std::size_t n = line.size();
  // Any control character or space separates: one compare per byte keeps
  // this cheap on a 256-CPU schedstat (60k tokens).
  auto space = [](char c) { return static_cast<unsigned char>(c) <= ' '; };
  while (i < n) {
    while (i < n && space(line[i])) ++i;
    const std::size_t start = i;
    while (i < n && !space(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
}

std::vector<std::string_view> split_ws(std::string_view line) {
  std::vector<std::string_view> out;
  split_ws(line, out);
  return out;
}

bool parse_u64(std::string_view token, std::uint64_t& out) {
  if (token.empty()) return false;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && ptr == token.data() + token.size();
}

std::uint64_t parse_u64_or_throw(std::string_view token, std::size_t line, std::string_view what) {
  std::uint64_t v = 0;
  if (!parse_u64(token, v))
    throw CounterParseError(line, fmt::format("{}: '{}' is not a counter", what, token));
  return v;
}

std::string line_excerpt(std::string_view line) {
  return terminal_safe(excerpt(line, 80));
}

bool parse_double(std::string_view token, double& out) {
  if (token.empty()) return false;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && ptr == token.data() + token.size() && std::isfinite(out);
}

std::uint64_t counter_delta(std::uint64_t before, std::uint64_t after, int bits,
                            std::string_view what) {
  if (after >= before) return after - before;
  if (bits == 32 && before <= 0xffffffffULL) return (after + (1ULL << 32) - before) & 0xffffffffULL;
  throw CounterMismatchError(fmt::format(
      "{} went backwards ({} -> {}): the snapshots are not from one boot, or not in order", what,
      before, after));
}

}  // namespace schedlab
