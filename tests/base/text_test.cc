#include "base/text.h"

#include <catch2/catch.hpp>
#include <clocale>
#include <string>
#include <utility>
#include <vector>

using namespace schedlab;
using Views = std::vector<std::string_view>;

TEST_CASE("trim and trim_end drop ASCII whitespace") {
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim(" \n\t ").empty());
  CHECK(trim("").empty());
  CHECK(trim("x") == "x");
  CHECK(trim_end("  6.1.0-28-amd64\n") == "  6.1.0-28-amd64");
  CHECK(trim_end("\n\n").empty());
}

TEST_CASE("all_digits and ascii_lower: run ids, job ids, host names and shas") {
  CHECK(all_digits("0"));
  CHECK(all_digits("4711"));
  CHECK_FALSE(all_digits(""));
  CHECK_FALSE(all_digits("12a"));
  CHECK_FALSE(all_digits("--user=root"));
  CHECK_FALSE(all_digits("\xd9\xa3"));  // ARABIC-INDIC DIGIT THREE is no ASCII digit
  CHECK(ascii_lower("Sut-1.EXAMPLE.org") == "sut-1.example.org");
  CHECK(ascii_lower("ABCDEF0123") == "abcdef0123");
  CHECK(ascii_lower("\xc3\x89t\xc3\xa9") == "\xc3\x89t\xc3\xa9");  // not ASCII: as it is
}

TEST_CASE("split_lines: no empty last line, CRLF and blank lines") {
  CHECK(split_lines("").empty());
  CHECK(split_lines("a\nb\n") == Views{"a", "b"});
  CHECK(split_lines("a\nb") == Views{"a", "b"});
  CHECK(split_lines("a\r\n\r\nb\r") == Views{"a", "", "b"});
  CHECK(split_lines("\n") == Views{""});
  CHECK(split_lines("a\n\n") == Views{"a", ""});
  // A '\r' inside a line stays: only the one before '\n' (or at the end) goes.
  CHECK(split_lines("a\rb\n") == Views{"a\rb"});
}

TEST_CASE("last_lines: the end of a tool's output, without the blank around it") {
  const std::string out = "configure\nbuilding\n  cc: error: x.c\nmake: *** [all] Error 1\n\n";
  CHECK(last_lines(out, 1) == "make: *** [all] Error 1");
  CHECK(last_lines(out, 2) == "cc: error: x.c\nmake: *** [all] Error 1");
  CHECK(last_lines(out, 10) == "configure\nbuilding\n  cc: error: x.c\nmake: *** [all] Error 1");
  CHECK(last_lines("one line", 3) == "one line");
  CHECK(last_lines("\nafter a blank first line\n", 1) == "after a blank first line");
  CHECK(last_lines("a\r\nb\r\n", 1) == "b");
  CHECK(last_lines("", 3).empty());
  CHECK(last_lines(" \n\n", 3).empty());
  CHECK(last_lines("a\nb", 0).empty());
}

TEST_CASE("head_and_tail keeps a long output's start and end, and says what it left out") {
  CHECK(head_and_tail("short\n", 100) == "short\n");
  CHECK(head_and_tail(std::string(10, 'a') + std::string(10, 'b'), 20) ==
        std::string(10, 'a') + std::string(10, 'b'));
  CHECK(head_and_tail("aaaa\nmiddle\nbbbb\n", 10) ==
        "aaaa\n[schedlab: 7 bytes left out here]\nbbbb\n");
  CHECK(head_and_tail("0123456789", 4) == "01\n[schedlab: 6 bytes left out here]\n89");
}

TEST_CASE("join_output puts the second text on a line of its own") {
  CHECK(join_output("out\n", "err") == "out\nerr");
  CHECK(join_output("out", "err") == "out\nerr");
  CHECK(join_output("", "err") == "err");
  CHECK(join_output("out", "") == "out\n");
}

TEST_CASE("to_number: the whole text, finite, whatever the locale") {
  CHECK(to_number("12.5") == 12.5);
  CHECK(to_number("3e2") == 300);
  CHECK(to_number("-0.25") == -0.25);
  CHECK_FALSE(to_number(""));
  CHECK_FALSE(to_number("1.2.3"));
  CHECK_FALSE(to_number("12 "));
  CHECK_FALSE(to_number("inf"));
  CHECK_FALSE(to_number("nan"));
  // A locale with a decimal comma does not change how a point is read.
  if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
    CHECK(to_number("12.5") == 12.5);
    std::setlocale(LC_NUMERIC, "C");
  }
}

TEST_CASE("natural order: digit runs as numbers (kernel names, sweep values)") {
  // Each pair in natural order: the first before the second, not after it;
  // neither before itself.
  const std::vector<std::pair<std::string, std::string>> ordered = {
      {"linux-image-6.1.0-9-amd64-unsigned", "linux-image-6.1.0-57-amd64-unsigned"},
      {"linux-image-6.12.95+deb12-amd64-unsigned", "linux-image-6.12.117+deb12-amd64-unsigned"},
      {"6.12.95", "6.12.117"},
      {"2", "16"},
      {"hackbench-02", "hackbench-16"}};
  for (const auto& [first, second] : ordered) {
    INFO(first << " < " << second);
    CHECK(natural_less(first, second));
    CHECK_FALSE(natural_less(second, first));
    CHECK_FALSE(natural_less(first, first));
    CHECK_FALSE(natural_less(second, second));
  }
}

TEST_CASE("terminal_safe: controls, DEL, C1 and stray bytes escaped; UTF-8 text kept") {
  // What a hostile run name tries: clear the screen, retitle the window, ring the bell.
  CHECK(terminal_safe("a\x1b[2J\x1b]0;owned\x07z") == "a\\x1b[2J\\x1b]0;owned\\x07z");
  CHECK(terminal_safe(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(terminal_safe("del\x7f") == "del\\x7f");
  CHECK(terminal_safe("tab\tcr\rnl\n") == "tab\\x09cr\\x0dnl\\x0a");
  CHECK(terminal_safe("line 1\nline 2\x1b\n", true) == "line 1\nline 2\\x1b\n");
  // C1 controls written as UTF-8 (U+009B is CSI), and a lone 0x9b (CSI on
  // an 8-bit terminal), an overlong '/' and a truncated sequence.
  CHECK(terminal_safe("\xc2\x9b"
                      "2J") == "\\u009b2J");
  CHECK(terminal_safe("\xc2\x85") == "\\u0085");
  CHECK(terminal_safe("x\x9b"
                      "2J") == "x\\x9b2J");
  CHECK(terminal_safe("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(terminal_safe("\xe2\x82") == "\\xe2\\x82");
  CHECK(terminal_safe("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  // Printable text, ASCII or not, is unchanged: no-break space (U+00A0),
  // accents, CJK, an emoji, a backslash.
  for (const std::string s : {"demo-local-20261204T220811Z/default", "\xc2\xa0", "r\xc3\xa9sultat",
                              "\xe8\xb0\x83\xe5\xba\xa6", "\xf0\x9f\x90\xa7", "a\\x1b", ""})
    CHECK(terminal_safe(s) == s);
}

TEST_CASE("count_of: one noun, or its plural; display_width counts code points") {
  CHECK(count_of(1, "iteration") == "1 iteration");
  CHECK(count_of(0, "file") == "0 files");
  CHECK(count_of(3, "output") == "3 outputs");
  CHECK(display_width("abc") == 3);
  CHECK(display_width("µs") == 2);  // two bytes, one column
  CHECK(display_width("") == 0);
}

TEST_CASE("terminal_safe escapes bidirectional formatting characters too (issue 44)") {
  // U+202E (right-to-left override), U+2066 (LRI), U+200F (RLM), U+061C (ALM).
  CHECK(terminal_safe("run\xe2\x80\xaetxt.exe") == "run\\u202etxt.exe");
  CHECK(terminal_safe("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");
  CHECK(terminal_safe("a\xe2\x80\x8f\xd8\x9c") == "a\\u200f\\u061c");
  CHECK(terminal_safe("\xe2\x80\xaa\xe2\x80\x8e") == "\\u202a\\u200e");
  // Neighbours of those ranges, and other text, pass as they are.
  CHECK(terminal_safe("\xe2\x80\xaf\xe2\x80\x8d\xe2\x81\xa5 caf\xc3\xa9 \xe4\xb8\xad") ==
        "\xe2\x80\xaf\xe2\x80\x8d\xe2\x81\xa5 caf\xc3\xa9 \xe4\xb8\xad");
}

TEST_CASE(
    "escaped_reversibly: controls, newlines and bidi escaped, backslashes doubled (issue 44)") {
  using namespace std::string_literals;
  CHECK(escaped_reversibly("\x1b[2J\x07\r\n"s + '\0' + "x") == "\\x1b[2J\\x07\\x0d\\x0a\\x00x");
  CHECK(escaped_reversibly("a\\x1bb") == "a\\\\x1bb");
  CHECK(escaped_reversibly("\xe2\x80\xae") == "\\u202e");
  CHECK(escaped_reversibly("plain caf\xc3\xa9") == "plain caf\xc3\xa9");
}

TEST_CASE("wrap_words is linear on bytes that take no column (issue 44, hostile6 21)") {
  // hostile6 21's decided_by: 200 KB of byte 0x80, " x ", 150 'a' took 6.8 s
  // (320 KB: 17.7 s), each column position recounted from the piece's start.
  // Ten times the 200 KB here: quadratic, it would outlast the test's timeout.
  const std::string zero_width(2'000'000, '\x80');
  const std::string line = zero_width + " x " + std::string(150, 'a');
  CHECK(wrap_words(line, 100, "    ") == zero_width + " x\n    " + std::string(150, 'a') + "\n");
  // Pieces of ordinary words are still cut as before, widths kept as they go.
  std::string words;
  for (int i = 0; i < 50'000; ++i) words += "word ";
  const std::string wrapped = wrap_words(words, 100, "  ");
  std::size_t count = 0, too_wide = 0;
  for (const auto l : split_lines(wrapped)) {
    too_wide += display_width(l) > 100;
    for (std::size_t at = l.find("word"); at != std::string_view::npos; at = l.find("word", at + 4))
      ++count;
  }
  CHECK(too_wide == 0);
  CHECK(count == 50'000);
  CHECK(wrap_words("  abc; def ghi", 8, "") == "  abc;\n  def\n  ghi\n");
}

TEST_CASE("with_command: the sentence wraps, the command to paste stays whole (issue 48)") {
  // Fits: on the sentence's line, as before 100 columns were asked.
  CHECK(with_command("continue it with:", "schedlab run --resume 3 --db /a.db") ==
        "continue it with: schedlab run --resume 3 --db /a.db\n");
  // Too wide for that line: under it, indented, whole even past the width.
  const std::string name(71, 'n');
  const std::string resume = "schedlab run --resume " + name + " --db /tmp/schedlab/runs.db";
  CHECK(with_command("continue it with:", resume) == "continue it with:\n  " + resume + "\n");
  // A sentence of two lines: the command after the last when it fits there.
  const std::string sentence = "group '" + name + "' in /tmp/schedlab/runs.db:";
  CHECK(with_command(sentence, "schedlab compare --group g", 60) ==
        "group\n  '" + name + "'\n  in /tmp/schedlab/runs.db: schedlab compare --group g\n");
  CHECK(with_command("", "schedlab slurm status 12") == "schedlab slurm status 12\n");
}

TEST_CASE("head_columns and tail_columns never split a UTF-8 character (issue 44, hostile6 19)") {
  // hostile6 19's commit label: the é straddled byte 24 of "%h %s".
  const std::string label = "1234567 abcdefghijklmno\xc3\xa9 utf8 cut";
  CHECK(head_columns(label, 24) == "1234567 abcdefghijklmno\xc3\xa9");
  CHECK(head_columns(label, 23) == "1234567 abcdefghijklmno");
  CHECK(tail_columns(label, 10) == "\xc3\xa9 utf8 cut");
  CHECK(tail_columns(label, 9) == " utf8 cut");
  CHECK(head_columns("ab", 5) == "ab");
  CHECK(tail_columns("ab", 5) == "ab");
  CHECK(tail_columns("ab", 0).empty());
  CHECK(head_columns("ab", 0).empty());
}

TEST_CASE("excerpt cuts between UTF-8 characters and counts bytes when they are not ASCII") {
  // hostile8: 40000 CJK characters cut at byte 40 showed "\xe6\xbc..." and
  // "(120000 characters)".
  std::string cjk;
  for (int i = 0; i < 40000; ++i) cjk += "\xe6\xbc\xa2";
  CHECK(excerpt(cjk) == cjk.substr(0, 39) + "... (120000 bytes)");
  CHECK(terminal_safe(excerpt(cjk)).find("\\x") == std::string::npos);
  CHECK(excerpt(std::string(50, 'a')) == std::string(40, 'a') + "... (50 characters)");
  CHECK(excerpt("short") == "short");
}

TEST_CASE("p_value_text: a p below 1e-300 (or 0, underflowed) is a bound, not p=0 (issue 44)") {
  CHECK(p_value_text(0.03125, 4) == "p=0.03125");
  CHECK(p_value_text(0.5, 3, " ") == "p 0.5");
  CHECK(p_value_text(2e-300, 4) == "p=2e-300");
  CHECK(p_value_text(1e-300, 4) == "p=1e-300");
  CHECK(p_value_text(9e-301, 4) == "p<1e-300");
  CHECK(p_value_text(0, 4) == "p<1e-300");
  CHECK(p_value_text(0, 3, " ") == "p < 1e-300");
  CHECK(p_value_text(4.9e-324, 4) == "p<1e-300");
  // A table's p column: the number alone, or the bound.
  CHECK(p_number_text(0.0123456, 3) == "0.0123");
  CHECK(p_number_text(1e-300, 3) == "1e-300");
  CHECK(p_number_text(0, 3) == "<1e-300");
}
