#include "runner/input/units.h"

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

TEST_CASE("CPU lists take single CPUs and ranges, sorted and without duplicates") {
  CHECK(parse_cpu_list("0") == std::vector<int>{0});
  CHECK(parse_cpu_list("0-3,8") == std::vector<int>{0, 1, 2, 3, 8});
  CHECK(parse_cpu_list("8,1,1-2") == std::vector<int>{1, 2, 8});
  CHECK(parse_cpu_list("0-1\n") == std::vector<int>{0, 1});  // as sysfs writes it
  CHECK_FALSE(parse_cpu_list("").has_value());
  CHECK_FALSE(parse_cpu_list("3-1").has_value());
  CHECK_FALSE(parse_cpu_list("a").has_value());
  CHECK_FALSE(parse_cpu_list("1,").has_value());
  CHECK_FALSE(parse_cpu_list(",1").has_value());
  CHECK_FALSE(parse_cpu_list("-1").has_value());
  CHECK_FALSE(parse_cpu_list("1-").has_value());
  CHECK_FALSE(parse_cpu_list("99999").has_value());
  CHECK(format_cpu_list({0, 1, 2, 3, 8}) == "0-3,8");
  CHECK(format_cpu_list({1}) == "1");
  CHECK(format_cpu_list({1, 3}) == "1,3");
}
