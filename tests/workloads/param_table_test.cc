#include "workloads/param_table.h"

#include <catch2/catch.hpp>

using namespace schedlab;
using std::chrono::milliseconds;

namespace {

struct TableTestParams {
  std::int64_t groups;
  std::string mode;
  milliseconds timeout;
  bool keep;
  double width;
};

ParamTable<TableTestParams> table_test_table() {
  using P = TableTestParams;
  return ParamTable<P>({
      {&P::groups, {.name = "groups", .axis = Axis::kRow, .default_value = std::int64_t{1}}},
      {&P::mode, {.name = "mode", .default_value = std::string("pipes")}},
      {&P::timeout, {.name = "timeout", .default_value = milliseconds(5000)}},
      {&P::keep, {.name = "keep", .default_value = false}},
      {&P::width, {.name = "width", .default_value = 2.5}},
  });
}

// Every parameter off its default.
Point table_test_point() {
  Point point;
  point.values = {{"groups", std::int64_t{8}},
                  {"mode", std::string("sockets")},
                  {"timeout", milliseconds(1500)},
                  {"keep", true},
                  {"width", 0.5}};
  return point;
}

}  // namespace

TEST_CASE("param table: each row's type is its field's, in the rows' order") {
  const auto specs = table_test_table().specs();
  REQUIRE(specs.size() == 5);
  CHECK(specs[0].name == "groups");
  CHECK(specs[0].type == ParamType::kInt);
  CHECK(specs[0].axis == Axis::kRow);
  CHECK(specs[1].type == ParamType::kString);
  CHECK(specs[2].type == ParamType::kDuration);
  CHECK(specs[3].type == ParamType::kBool);
  CHECK(specs[4].type == ParamType::kDouble);
}

TEST_CASE("param table: a point reads into the struct's fields") {
  const auto p = table_test_table().read(table_test_point());
  CHECK(p.groups == 8);
  CHECK(p.mode == "sockets");
  CHECK(p.timeout == milliseconds(1500));
  CHECK(p.keep);
  CHECK(p.width == 0.5);
  CHECK(p.known(&TableTestParams::groups));
  CHECK(p.text(&TableTestParams::groups) == "8");
  CHECK(p.text(&TableTestParams::timeout) == "1500ms");
  CHECK(p.text(&TableTestParams::keep) == "true");
}

TEST_CASE("param table: an unknown parameter keeps its value, reads as '?'") {
  Point point = table_test_point();
  point.unknown = {"mode"};
  const auto p = table_test_table().read(point);
  CHECK_FALSE(p.known(&TableTestParams::mode));
  CHECK(p.text(&TableTestParams::mode) == "?");
  CHECK(p.mode == "sockets");  // for labels and steps, as Point keeps it
  CHECK(p.known(&TableTestParams::groups));
}

TEST_CASE("param table: a parameter the point lacks reads as its default, unknown") {
  // check_fixed's point holds the fixed parameters only.
  Point point;
  point.values = {{"mode", std::string("sockets")}};
  const auto p = table_test_table().read(point);
  CHECK(p.groups == 1);
  CHECK(p.timeout == milliseconds(5000));
  CHECK(p.width == 2.5);
  CHECK_FALSE(p.known(&TableTestParams::groups));
  CHECK(p.known(&TableTestParams::mode));
}

TEST_CASE("param table: a default or stated type other than the field's is a declaration error") {
  using P = TableTestParams;
  CHECK_THROWS_AS(
      ParamTable<P>({{&P::groups, {.name = "groups", .default_value = std::string("1")}}}),
      std::logic_error);
  CHECK_THROWS_AS(
      ParamTable<P>(
          {{&P::mode,
            {.name = "mode", .type = ParamType::kBool, .default_value = std::string("x")}}}),
      std::logic_error);
  // A point whose value has another type than the row's (no config makes
  // one: config validation types every value by its row).
  Point point;
  point.values = {{"groups", std::string("4")}};
  CHECK_THROWS_AS(table_test_table().read(point), std::logic_error);
}
