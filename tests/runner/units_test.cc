#include "runner/units.h"

#include <catch2/catch.hpp>

using namespace schedlab;
using std::chrono::milliseconds;

TEST_CASE("durations take s, ms, m, h and bare seconds") {
  CHECK(parse_duration("30s") == milliseconds(30'000));
  CHECK(parse_duration("30") == milliseconds(30'000));
  CHECK(parse_duration("500ms") == milliseconds(500));
  CHECK(parse_duration("1.5s") == milliseconds(1500));
  CHECK(parse_duration("2m") == milliseconds(120'000));
  CHECK(parse_duration("1h") == milliseconds(3'600'000));
  CHECK_FALSE(parse_duration("").has_value());
  CHECK_FALSE(parse_duration("s").has_value());
  CHECK_FALSE(parse_duration("10 s").has_value());
  CHECK_FALSE(parse_duration("-1s").has_value());
  CHECK_FALSE(parse_duration("3days").has_value());
  CHECK(format_duration(milliseconds(300'000)) == "5m");
  CHECK(format_duration(milliseconds(1500)) == "1500ms");
}
