// One rule for typed parameter values: experiment files, --param overrides
// and bisect's --param all go through parse_param_value.
#include "runner/input/param_values.h"

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/config_error.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {

const ParamSpec& param(const std::string& workload, const std::string& name) {
  const Workload* w = find_workload(workload);
  REQUIRE(w);
  const ParamSpec* p = w->find_param(name);
  REQUIRE(p);
  return *p;
}

std::string error_of(const ParamSpec& spec, const std::string& text) {
  try {
    parse_param_value(spec, text);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("parameter values by type") {
  const ParamSpec& groups = param("hackbench", "groups");  // int, min 1
  CHECK(std::get<std::int64_t>(parse_param_value(groups, "4")) == 4);
  CHECK(std::get<std::int64_t>(parse_param_value(groups, "+4")) == 4);
  CHECK(error_of(groups, "0") == "0 is out of range: expected a whole number from 1 to 2147483647");
  CHECK(error_of(groups, "4.0") == "expected a whole number from 1 to 2147483647, got '4.0'");
  CHECK(error_of(groups, " 4") == "expected a whole number from 1 to 2147483647, got ' 4'");
  CHECK(error_of(groups, "+-4") == "expected a whole number from 1 to 2147483647, got '+-4'");
  CHECK(error_of(groups, "99999999999999999999") ==
        "99999999999999999999 is out of range: expected a whole number from 1 to 2147483647");
  // A C int: the tool would wrap 2^31.
  CHECK(error_of(groups, "2147483648") ==
        "2147483648 is out of range: expected a whole number from 1 to 2147483647");

  const ParamSpec& timeout = param("hackbench", "timeout");  // duration
  CHECK(std::get<std::chrono::milliseconds>(parse_param_value(timeout, "90s")).count() == 90000);
  CHECK(error_of(timeout, "soon") ==
        "expected a duration from 0s to 168h such as 30s or 500ms, got 'soon'");
  CHECK(error_of(timeout, "9300000000s") ==
        "expected a duration from 0s to 168h such as 30s or 500ms, got '9300000000s'");

  const ParamSpec& modes = param("hackbench", "modes");  // string with choices
  CHECK(std::get<std::string>(parse_param_value(modes, "thread-pipes")) == "thread-pipes");
  CHECK(error_of(modes, "thread-pipe") ==
        "'thread-pipe' is not one of: process-pipes, process-sockets, thread-pipes, "
        "thread-sockets (did you mean 'thread-pipes'?)");

  const ParamSpec flag{.name = "f", .type = ParamType::kBool, .default_value = false};
  for (const char* yes : {"true", "yes", "on"}) CHECK(std::get<bool>(parse_param_value(flag, yes)));
  for (const char* no : {"false", "no", "off"})
    CHECK_FALSE(std::get<bool>(parse_param_value(flag, no)));
  CHECK(error_of(flag, "1") == "expected true or false, got '1'");

  const ParamSpec ratio{.name = "r", .type = ParamType::kDouble, .default_value = 1.0};
  CHECK(std::get<double>(parse_param_value(ratio, "2.5")) == 2.5);
  CHECK(std::get<double>(parse_param_value(ratio, "1e-3")) == 1e-3);
  CHECK(error_of(ratio, "inf") == "expected a number, got 'inf'");
  CHECK(error_of(ratio, "2.5x") == "expected a number, got '2.5x'");
}

TEST_CASE("overrides (--param) report what an experiment file reports for the same value") {
  const Workload& hackbench = *find_workload("hackbench");
  const Point p = point_from_overrides(hackbench, {"groups=4", "timeout=2m"});
  CHECK(std::get<std::int64_t>(p.at("groups")) == 4);
  CHECK(std::get<std::chrono::milliseconds>(p.at("timeout")).count() == 120000);
  CHECK(std::get<std::string>(p.at("modes")) == "process-pipes");  // the default
  // min is enforced on the command line too, with the config's words.
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {"groups=0"}),
                    "--param groups=0: 0 is out of range: expected a whole number from 1 to 2147483647");
  CHECK(test::config_error_of("workloads:\n  - hackbench: {groups: 0}\n") ==
        "exp.yaml:2: workloads[0].hackbench.groups: 0 is out of range: expected a whole number "
        "from 1 to 2147483647");
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {"groups=two"}),
                    "--param groups=two: expected a whole number from 1 to 2147483647, got 'two'");
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {"groups"}),
                    "--param groups: expected name=value");
}

TEST_CASE("a --param given twice is refused naming both, never the last taken unsaid (hostile16)") {
  const Workload& hackbench = *find_workload("hackbench");
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {"groups=2", "loops=100", "groups=3"}),
                    "--param groups=2 and --param groups=3: 'groups' is given twice; give it once");
  // The same value twice too: one parameter, one --param.
  CHECK_THROWS_WITH(
      point_from_given(hackbench, {"groups=2", "groups=2"}),
      Catch::StartsWith("--param groups=2 and --param groups=2: 'groups' is given twice"));
  CHECK(std::get<std::int64_t>(
            point_from_overrides(hackbench, {"groups=2", "loops=100"}).at("groups")) == 2);
}

TEST_CASE("a long invalid value is cut in the error, whatever its type") {
  // Hostile pass 3: a 5 KB choice value was printed back whole.
  const std::string long_value(5000, 'q');
  const std::string cut = std::string(40, 'q') + "... (5000 characters)";
  CHECK(error_of(param("hackbench", "modes"), long_value) ==
        "'" + cut +
            "' is not one of: process-pipes, process-sockets, thread-pipes, thread-sockets");
  CHECK(error_of(param("hackbench", "groups"), long_value) ==
        "expected a whole number from 1 to 2147483647, got '" + cut + "'");
  CHECK(error_of(param("hackbench", "timeout"), long_value) ==
        "expected a duration from 0s to 168h such as 30s or 500ms, got '" + cut + "'");
  const ParamSpec flag{.name = "f", .type = ParamType::kBool, .default_value = false};
  CHECK(error_of(flag, long_value) == "expected true or false, got '" + cut + "'");
  const ParamSpec ratio{.name = "r", .type = ParamType::kDouble, .default_value = 1.0};
  CHECK(error_of(ratio, long_value) == "expected a number, got '" + cut + "'");

  const Workload& hackbench = *find_workload("hackbench");
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {"modes=" + long_value}),
                    "--param modes=" + cut + ": '" + cut +
                        "' is not one of: process-pipes, process-sockets, thread-pipes, "
                        "thread-sockets");
  CHECK_THROWS_WITH(point_from_overrides(hackbench, {long_value}),
                    "--param " + cut + ": expected name=value");
  CHECK(test::config_error_of("workloads:\n  - hackbench: {modes: " + long_value + "}\n") ==
        "exp.yaml:2: workloads[0].hackbench.modes: '" + cut +
            "' is not one of: process-pipes, process-sockets, thread-pipes, thread-sockets");
}
