// parse_samples(): the plain sample files of `schedlab stats`.
#include "analysis/stats/sample_file.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace schedlab;

TEST_CASE("sample files: one number per line, comments and blank lines ignored", "[sample_file]") {
  const auto x = parse_samples("# hackbench g1\n0.430\n\n  0.425  \n0.441 # slow one\n1e-3\r\n-2\n",
                               "base.txt");
  CHECK(x == std::vector<double>{0.430, 0.425, 0.441, 1e-3, -2});
  CHECK(parse_samples("5", "f") == std::vector<double>{5});
}

TEST_CASE("sample files: anything else is an error naming file and line", "[sample_file]") {
  CHECK_THROWS_WITH(parse_samples("1\n2\nfast\n", "a.txt"), "a.txt:3: not a number: 'fast'");
  CHECK_THROWS_WITH(parse_samples("1 2\n", "a.txt"), "a.txt:1: not a number: '1 2'");
  CHECK_THROWS_WITH(parse_samples("nan\n", "a.txt"), "a.txt:1: not a number: 'nan'");
  CHECK_THROWS_WITH(parse_samples("inf\n", "a.txt"), "a.txt:1: not a number: 'inf'");
  // hostile7 36: a byte order mark made "not a number: '1'" of a good file.
  CHECK_THROWS_WITH(parse_samples("\xef\xbb\xbf"
                                  "1\n2\n",
                                  "a.txt"),
                    "a.txt:1: the file starts with a UTF-8 byte order mark (EF BB BF): save it "
                    "without one");
  CHECK_THROWS_WITH(parse_samples("1\n\x1b]0;x\x07\n", "a.txt"),
                    "a.txt:2: not a number: '\\x1b]0;x\\x07'");
  CHECK_THROWS_WITH(parse_samples("# nothing\n\n", "empty.txt"), "empty.txt: no samples");
  CHECK_THROWS_AS(parse_samples("", "e"), std::invalid_argument);
}

TEST_CASE(
    "sample files: numbers past the sample range are refused, naming file and line (issue 44)",
    "[sample_file]") {
  CHECK_THROWS_WITH(parse_samples("1\n1e308\n", "a.txt"),
                    "a.txt:2: not a sample: 1e+308 is outside +-1e+150");
  CHECK_THROWS_WITH(parse_samples("-1e200\n", "a.txt"),
                    "a.txt:1: not a sample: -1e+200 is outside +-1e+150");
  CHECK_THROWS_WITH(parse_samples("1e-300\n", "a.txt"),
                    "a.txt:1: not a sample: 1e-300 is nearer 0 than 1e-150 (and not 0)");
  CHECK_THROWS_WITH(parse_samples("9e999\n", "a.txt"), "a.txt:1: not a number: '9e999'");
  CHECK(parse_samples("1e150\n0\n", "a.txt") == std::vector<double>{1e150, 0});
}
