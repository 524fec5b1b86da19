#include "runner/plan.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("the plan is variants x modes x groups x iterations, variant-major") {
  const Config c = parse_config(R"(
iterations: 2
workloads:
  - hackbench:
      modes: [process-pipes, thread-sockets]
      groups: [1, 4, 8]
variants:
  default: {}
  batch: {policy: batch}
)",
                                "p.yaml");
  const Plan plan = expand_plan(c);
  REQUIRE(plan.points.size() == 6);
  CHECK(plan.items.size() == 2 * 6 * 2);
  CHECK(plan.points[0].block == "hackbench-process-pipes");
  CHECK(plan.points[0].row == "1");
  CHECK(plan.points[2].row == "8");
  CHECK(plan.points[2].row_order == 2);
  CHECK(plan.points[3].block == "hackbench-thread-sockets");
  CHECK(plan.points[3].row_order == 0);
  CHECK(plan.points[4].describe() == "hackbench-thread-sockets groups=4");
  CHECK(plan.points[0].params_json ==
        R"({"datasize":100,"fds":20,"groups":1,"loops":1000,"modes":"process-pipes","timeout":"300s"})");
  // Variant-major: all of default, then all of batch; iterations innermost.
  CHECK(plan.items[0].variant == 0);
  CHECK(plan.items[1].iteration == 1);
  CHECK(plan.items[2].point == 1);
  CHECK(plan.items[11].variant == 0);
  CHECK(plan.items[12].variant == 1);
  CHECK(plan.items[12].point == 0);
}

TEST_CASE("per-workload iterations override the top level") {
  const Config c = parse_config(
      "iterations: 5\nworkloads:\n  - hackbench: {groups: [1], iterations: 2}\n  - hackbench: {groups: [2]}\n",
      "p.yaml");
  const Plan plan = expand_plan(c);
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].iterations == 2);
  CHECK(plan.points[1].iterations == 5);
  CHECK(plan.items.size() == 7);
}
