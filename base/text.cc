#include "base/text.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace schedlab {
namespace {

constexpr std::string_view kSpace = " \t\n\r\f\v";

}  // namespace

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

std::string_view trim_end(std::string_view s) {
  const auto last = s.find_last_not_of(kSpace);
  return last == std::string_view::npos ? std::string_view{} : s.substr(0, last + 1);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    const std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    if (nl == std::string_view::npos) nl = text.size();
    if (nl > start && text[nl - 1] == '\r') --nl;
    lines.push_back(text.substr(start, nl - start));
    start = next;
  }
  return lines;
}

std::string excerpt(std::string_view s, std::size_t max_chars) {
  if (s.size() <= max_chars) return std::string(s);
  return std::string(s.substr(0, max_chars)) + "... (" + std::to_string(s.size()) + " characters)";
}

std::string head_and_tail(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::size_t half = max_bytes / 2;
  std::string out(text.substr(0, half));
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "[schedlab: " + std::to_string(text.size() - 2 * half) + " bytes left out here]\n";
  out += text.substr(text.size() - half);
  return out;
}

std::string last_lines(std::string_view text, std::size_t n) {
  text = trim_end(text);
  std::size_t start = text.size();
  for (std::size_t i = 0; i < n && start > 0; ++i) {
    const auto nl = text.rfind('\n', start - 1);
    start = nl == std::string_view::npos ? 0 : nl;
  }
  if (start < text.size() && text[start] == '\n' && n > 0) ++start;
  return std::string(trim(text.substr(start)));
}

std::string join_output(std::string_view a, std::string_view b) {
  std::string out(a);
  if (!out.empty() && !out.ends_with('\n')) out += '\n';
  out += b;
  return out;
}

std::optional<double> to_number(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      const auto sa = na.find_first_not_of('0'), sb = nb.find_first_not_of('0');
      const std::string ta = sa == std::string::npos ? "" : na.substr(sa);
      const std::string tb = sb == std::string::npos ? "" : nb.substr(sb);
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace schedlab
