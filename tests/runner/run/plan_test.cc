#include "runner/run/plan.h"

#include <catch2/catch.hpp>

using namespace schedlab;

TEST_CASE("the plan is modes x groups points, each with its iteration policy") {
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
    CHECK(plan.points[0].block == "hackbench-process-pipes");
  CHECK(plan.points[0].row == "1");
  CHECK(plan.points[2].row == "8");
  CHECK(plan.points[2].row_order == 2);
  CHECK(plan.points[3].block == "hackbench-thread-sockets");
  CHECK(plan.points[3].row_order == 0);
  CHECK(plan.points[4].describe() == "hackbench-thread-sockets groups=4");
  CHECK(plan.points[0].params_json ==
        R"({"backend":"hackbench","datasize":100,"fds":20,"groups":1,"loops":1000,"modes":"process-pipes","timeout":"300s"})");
  REQUIRE(plan.variants.size() == 2);
  CHECK(plan.variants[1] == &c.variants[1]);
  CHECK(plan.order == Order::kInterleaved);
  CHECK(plan.max_iterations() == 2 * 6 * 2);
  CHECK(plan.points[5].workload_index == 0);
}

TEST_CASE("per-workload iterations override the top level") {
  const Config c = parse_config(
      "iterations: 5\nworkloads:\n  - hackbench: {groups: [1], iterations: 2}\n  - hackbench: {groups: [2]}\n",
      "p.yaml");
  const Plan plan = expand_plan(c);
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].iterations.max == 2);
  CHECK(plan.points[1].iterations.max == 5);
  CHECK(plan.points[1].workload_index == 1);
  CHECK(plan.max_iterations() == 7);
}

TEST_CASE("sequential order and adaptive iterations come from the config") {
  const Config c = parse_config(
      "order: sequential\niterations: {min: 3, max: 12, ci_width_pct: 2.5}\nworkloads: [hackbench]\n",
      "p.yaml");
  const Plan plan = expand_plan(c);
  CHECK(plan.order == Order::kSequential);
  REQUIRE(plan.points.size() == 1);
  CHECK(plan.points[0].iterations.min == 3);
  CHECK(plan.points[0].iterations.max == 12);
  CHECK(plan.points[0].iterations.ci_width_pct == 2.5);
  CHECK(plan.max_iterations() == 12);
}
