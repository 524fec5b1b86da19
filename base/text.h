// Text helpers every layer shares: whitespace, lines, the end of a tool's
// output for an error message, and numbers read in the C locale whatever the
// process locale says.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab {

// s without leading and trailing whitespace (space, \t, \n, \r, \f, \v); a
// view into s.
std::string_view trim(std::string_view s);
// s without trailing whitespace: a value read from /proc or sysfs.
std::string_view trim_end(std::string_view s);
// Whether s is one or more ASCII digits and nothing else.
bool all_digits(std::string_view s);
// s with ASCII letters in lower case (host names, hex digits); other bytes
// as they are.
std::string ascii_lower(std::string s);

// The lines of text without their '\n' (and a '\r' before it); a final
// newline does not make an empty last line. The views point into text, so
// text must outlive them.
std::vector<std::string_view> split_lines(std::string_view text);

// The last n lines of text, without the whitespace around them: a tool's last
// words, for an error message. All of text when it has fewer lines.
std::string last_lines(std::string_view text, std::size_t n);

// s for an error message: whole when short, else its first characters and
// how long ("12345... (40000 characters)", or bytes if not ASCII; never cut
// inside a UTF-8 character): a hostile 1 MiB value is no 1 MiB message.
std::string excerpt(std::string_view s, std::size_t max_chars = 40);

// A tool's output kept within max_bytes: whole when it fits, else its
// first and last max_bytes / 2 with a line between them saying how many
// bytes were left out (its start and its result both stay readable).
std::string head_and_tail(std::string_view text, std::size_t max_bytes);

// a, then b from the start of a line: a newline between them unless a is
// empty or already ends with one (a tool's stdout then its stderr).
std::string join_output(std::string_view a, std::string_view b);

// Why s cannot be a name (of a run, a variant): empty, not UTF-8, or
// holding a control character (C0, DEL, C1: a terminal escape); nothing
// when it can. Names are checked before anything is stored.
std::optional<std::string> name_problem(std::string_view s);

// The whole of s as a finite number ("12.5", "3e2"); nullopt otherwise.
std::optional<double> to_number(std::string_view s);

// s as a terminal may show it: C0 controls (newline too, unless
// keep_newlines), DEL and bytes that are not UTF-8 as \x1b, C1 controls
// (U+0080..U+009F, CSI among them) and the bidirectional formatting
// characters (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) as
// \u009b, \u202e; everything else, other UTF-8 characters included, as it
// is. For names and text from a database or a tree from elsewhere: an ESC
// in a run name must not clear the screen or retitle the terminal of
// whoever lists it, nor a right-to-left override reorder what it shows.
// Backslashes are not doubled: this is for people to read, not to be read
// back.
std::string terminal_safe(std::string_view s, bool keep_newlines = false);

// s with each C1 control and bidirectional formatting character (the ones
// terminal_safe escapes past ASCII) written as a \uXXXX escape, every other
// byte as it is. For JSON text: it stays valid and means the same (outside
// its strings JSON is ASCII), C0 controls are already escaped in it, and
// other non-ASCII characters (a CJK name) keep their bytes.
std::string unicode_escaped_controls(std::string_view s);

// terminal_safe with newlines escaped too and each backslash doubled, so the
// text can be read back: Python's
// s.encode("latin-1", "backslashreplace").decode("unicode_escape") undoes it
// for UTF-8 text (a stray byte comes back as the code point of its value).
// For a file format a program reads (CSV).
std::string escaped_reversibly(std::string_view s);

// "1 iteration", "3 iterations": a count and its noun, plural with an s.
std::string count_of(std::size_t n, std::string_view noun);

// v with `precision` digits after the point ("{:.4f}") while |v| is below
// `limit`; past it in scientific notation with 3 ("1.000e+149"), so an
// in-range extreme sample (1e149 is a finite double) never prints as a
// 150-digit number in a table. A value that rounds to zero has no sign
// (0.00, never -0.00). Non-finite values as fmt writes them. For text for
// people; JSON keeps the exact number.
inline constexpr double kFixedLimit = 1e15;
// Where a percentage turns scientific: past a million per cent.
inline constexpr double kPctLimit = 1e6;
std::string fixed_text(double v, int precision, double limit = kFixedLimit);
// The same with its sign always ("+12.34", "-1.000e+06"): a change.
std::string signed_fixed_text(double v, int precision, double limit = kPctLimit);

// A p-value for people: "p<SEP>0.0312" with `digits` significant digits, or
// "p < 1e-300" (SEP "=": "p<1e-300") below kPLimit: a p that underflowed
// to 0 (two large samples far apart) is no certainty, and one near the
// smallest double has no digit worth printing. JSON keeps the number.
inline constexpr double kPLimit = 1e-300;
std::string p_value_text(double p, int digits, std::string_view sep = "=");
// The same without its "p": "0.0312" or "<1e-300" (a table's p column).
std::string p_number_text(double p, int digits);

// The columns a terminal gives s: one per UTF-8 code point (a wide
// character counted as one).
std::size_t display_width(std::string_view s);
// The first (last) `columns` columns of s as display_width counts them: a
// cut that never splits a UTF-8 character (a label cut to fit a table
// stays UTF-8, so a JSON or HTML writer takes it). All of s when it is
// narrower.
std::string_view head_columns(std::string_view s, std::size_t columns);
std::string_view tail_columns(std::string_view s, std::size_t columns);

// Each line of `text` longer than `width` columns broken at spaces (not
// those of its indentation), its continuation lines starting with the
// line's own indentation and `indent`; a word wider than the line stays
// whole. Every line of the result ends in a newline.
std::string wrap_words(std::string_view text, std::size_t width = 100,
                       std::string_view indent = "  ");

// `sentence` (one line, no newline) through wrap_words, then `command`
// whole: a command meant to be pasted is never broken, so a shell takes it
// as one line. After the sentence's last line and a space when that line
// then fits `width`, else on a line of its own under it, indented two
// spaces. Ends in a newline.
std::string with_command(std::string_view sentence, std::string_view command,
                         std::size_t width = 100);

// The columns of a table whose lines start with `lead` columns of labels,
// column i `widths[i]` wide, in pieces that each fit `width` (a mail's 100
// columns): with `baseline_first`, every piece starts with column 0 (the
// baseline the others are read against); each takes as many of the next
// columns as fit, at least one. One piece of every column when they fit;
// one empty piece for no column.
std::vector<std::vector<std::size_t>> table_pieces(std::size_t lead,
                                                   const std::vector<std::size_t>& widths,
                                                   std::size_t width = 100,
                                                   bool baseline_first = true);

// a before b with digit runs compared as numbers ("6.1.0-9" < "6.1.0-57",
// "hackbench-2" < "hackbench-16").
bool natural_less(const std::string& a, const std::string& b);

}  // namespace schedlab
