#include "base/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace schedlab {
namespace {

constexpr std::string_view kSpace = " \t\n\r\f\v";

// RFC 3629's well-formed UTF-8 sequences by their first byte: the length,
// and the range of the second byte (no overlong forms, no surrogates,
// nothing past U+10FFFF); later bytes are 0x80..0xBF.
struct Utf8Lead {
  unsigned char first, last;
  std::size_t length;
  unsigned char lo, hi;
};
constexpr Utf8Lead kUtf8Leads[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF},
    {0xED, 0xED, 3, 0x80, 0x9F}, {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},
    {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
};

// The length of the well-formed UTF-8 sequence at s[i]; 0 when there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  for (const Utf8Lead& l : kUtf8Leads) {
    if (byte(i) < l.first || byte(i) > l.last) continue;
    if (i + l.length > s.size() || byte(i + 1) < l.lo || byte(i + 1) > l.hi) return 0;
    for (std::size_t k = 2; k < l.length; ++k)
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return l.length;
  }
  return 0;
}

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

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
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
  // Never inside a UTF-8 character (its bytes would show escaped, "\xe6\xbc"),
  // and the length in bytes where they are not all characters of one byte.
  std::size_t cut = max_chars;
  for (int back = 0; back < 3 && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80;
       ++back)
    --cut;
  const bool ascii =
      std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return std::string(s.substr(0, cut)) + "... (" + std::to_string(s.size()) +
         (ascii ? " characters)" : " bytes)");
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

namespace {

// The code point of the UTF-8 sequence of length n at s[i].
char32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (n == 2) return (byte(0) & 0x1Fu) << 6 | (byte(1) & 0x3Fu);
  if (n == 3) return (byte(0) & 0x0Fu) << 12 | (byte(1) & 0x3Fu) << 6 | (byte(2) & 0x3Fu);
  return (byte(0) & 0x07u) << 18 | (byte(1) & 0x3Fu) << 12 | (byte(2) & 0x3Fu) << 6 |
         (byte(3) & 0x3Fu);
}

// Characters that control a terminal or reorder what it shows: C1 controls
// and the bidirectional formatting characters (marks, embeddings, overrides,
// isolates: U+202E makes "exe.txt" of "txt.exe").
bool control_or_bidi(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

// How escaped() writes what it escapes: for a terminal (C0, DEL and stray
// bytes as \x1b), reversibly (the same, each backslash doubled), or only
// the C1 and bidi characters (as \u escapes: JSON text, whose C0 controls
// are escaped already and whose stray bytes are none).
enum class Escape { kTerminal, kReversible, kUnicodeOnly };

std::string escaped(std::string_view s, bool keep_newlines, Escape mode) {
  const bool bytes = mode != Escape::kUnicodeOnly;
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (bytes && ((b < 0x20 && !(keep_newlines && b == '\n')) || b == 0x7F))
        out += fmt::format("\\x{:02x}", b);
      else if (mode == Escape::kReversible && b == '\\')
        out += "\\\\";
      else
        out += static_cast<char>(b);
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      // A stray byte: CSI (0x9b) on an 8-bit terminal.
      out += bytes ? fmt::format("\\x{:02x}", b) : std::string(1, s[i]);
      ++i;
    } else if (const char32_t c = code_point(s, i, n); control_or_bidi(c)) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(c));
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view s, bool keep_newlines) {
  return escaped(s, keep_newlines, Escape::kTerminal);
}

std::string escaped_reversibly(std::string_view s) {
  return escaped(s, false, Escape::kReversible);
}

std::string unicode_escaped_controls(std::string_view s) {
  return escaped(s, true, Escape::kUnicodeOnly);
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

std::optional<std::string> name_problem(std::string_view s) {
  if (s.empty()) return "it is empty";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    // The length of the sequence a lead byte starts, and the smallest code
    // point it may encode (no overlong forms).
    std::size_t len = 0;
    char32_t cp = 0, min = 0;
    if (c < 0x80) len = 1, cp = c;
    else if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
    else return fmt::format("it is not UTF-8 text (byte 0x{:02x} at {})", c, i);
    if (i + len > s.size()) return fmt::format("it is not UTF-8 text (a sequence cut at byte {})", i);
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return fmt::format("it is not UTF-8 text (byte 0x{:02x} at {})", b, i + k);
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return fmt::format("it is not UTF-8 text (an invalid sequence at byte {})", i);
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
      return fmt::format("it holds a control character (U+{:04X} at byte {})", static_cast<unsigned>(cp), i);
    i += len;
  }
  return std::nullopt;
}

std::string count_of(std::size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string fixed_text(double v, int precision, double limit) {
  if (std::isfinite(v) && std::abs(v) >= limit) return fmt::format("{:.3e}", v);
  std::string s = fmt::format("{:.{}f}", v, precision);
  // A value that rounds to zero is 0, not -0.00 (hostile16: "change
  // [-0.00%, 0.00%]").
  if (s.starts_with('-') && s.find_first_not_of("0.", 1) == std::string::npos) s.erase(0, 1);
  return s;
}

std::string signed_fixed_text(double v, int precision, double limit) {
  if (std::isfinite(v) && std::abs(v) >= limit) return fmt::format("{:+.3e}", v);
  return fmt::format("{:+.{}f}", v, precision);
}

std::string p_value_text(double p, int digits, std::string_view sep) {
  if (p >= 0 && p < kPLimit) return fmt::format("p{}{:g}", sep == "=" ? "<" : " < ", kPLimit);
  return fmt::format("p{}{:.{}g}", sep, p, digits);
}

std::string p_number_text(double p, int digits) {
  if (p >= 0 && p < kPLimit) return fmt::format("<{:g}", kPLimit);
  return fmt::format("{:.{}g}", p, digits);
}

std::string wrap_words(std::string_view text, std::size_t width, std::string_view indent) {
  std::string out;
  for (const std::string_view line : split_lines(text)) {
    const std::size_t own = std::min(line.find_first_not_of(' '), line.size());  // its indentation
    const std::string more = std::string(line.substr(0, own)) + std::string(indent);
    std::string_view rest = line;
    std::string_view lead;  // "" on a line's first piece, then `more`
    // Widths kept as the pieces go, not recounted: a line of bytes that take
    // no column (a million continuation bytes) stays linear.
    std::size_t lead_width = 0, rest_width = display_width(rest);
    while (lead_width + rest_width > width) {
      // After the last "; " that leaves the piece within the width and past
      // its middle (a clause stays whole); else the last space that does,
      // past the indentation; else after the last comma that does (a list
      // without spaces); else the first space (a word wider than the line).
      const std::size_t from = lead.empty() ? own + 1 : 1;
      std::size_t cut = std::string_view::npos, clause = cut, comma = cut;
      std::size_t at = lead_width + display_width(rest.substr(0, std::min(from, rest.size())));
      for (std::size_t i = from; i < rest.size(); ++i) {
        if (at > width) break;
        if (rest[i] == ' ') cut = i;
        if (rest[i] == ' ' && rest[i - 1] == ';' && 2 * at > width) clause = i;
        if (rest[i] == ',' && at < width && i + 1 < rest.size()) comma = i + 1;
        if ((static_cast<unsigned char>(rest[i]) & 0xC0) != 0x80) ++at;
      }
      if (clause != std::string_view::npos) cut = clause;
      if (cut == std::string_view::npos) cut = comma;
      if (cut == std::string_view::npos) cut = rest.find(' ', from);
      if (cut == std::string_view::npos) break;
      out.append(lead).append(trim_end(rest.substr(0, cut))).push_back('\n');
      rest_width -= display_width(rest.substr(0, cut));
      rest = rest.substr(cut);
      while (rest.starts_with(' ')) {
        rest.remove_prefix(1);
        --rest_width;
      }
      lead = more;
      lead_width = display_width(lead);
    }
    out.append(lead).append(rest).push_back('\n');
  }
  return out;
}

std::string with_command(std::string_view sentence, std::string_view command, std::size_t width) {
  std::string out = wrap_words(sentence, width);
  if (out.empty()) return std::string(command) + "\n";
  out.pop_back();                                // its newline
  const std::size_t last = out.rfind('\n') + 1;  // 0 when there is one line
  const bool fits =
      display_width(std::string_view(out).substr(last)) + 1 + display_width(command) <= width;
  return out.append(fits ? " " : "\n  ").append(command).append("\n");
}

std::vector<std::vector<std::size_t>> table_pieces(std::size_t lead,
                                                   const std::vector<std::size_t>& widths,
                                                   std::size_t width, bool baseline_first) {
  if (widths.empty()) return {{}};
  const std::vector<std::size_t> start =
      baseline_first ? std::vector<std::size_t>{0} : std::vector<std::size_t>{};
  const std::size_t start_width = lead + (baseline_first ? widths[0] : 0);
  std::vector<std::vector<std::size_t>> pieces{start};
  std::size_t used = start_width;
  for (std::size_t i = baseline_first ? 1 : 0; i < widths.size(); ++i) {
    if (pieces.back().size() > start.size() && used + widths[i] > width) {
      pieces.push_back(start);
      used = start_width;
    }
    pieces.back().push_back(i);
    used += widths[i];
  }
  return pieces;
}

std::string_view head_columns(std::string_view s, std::size_t columns) {
  std::size_t starts = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && starts++ == columns)
      return s.substr(0, i);
  return s;
}

std::string_view tail_columns(std::string_view s, std::size_t columns) {
  if (columns == 0) return {};
  std::size_t starts = 0;
  for (std::size_t i = s.size(); i > 0; --i)
    if ((static_cast<unsigned char>(s[i - 1]) & 0xC0) != 0x80 && ++starts == columns)
      return s.substr(i - 1);
  return s;
}

std::size_t display_width(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace schedlab
