#include "results/variants_table.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/raw_sql.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a run's variants come back in position order, whatever order they were added in") {
  test::TempDir dir;
  Store s(dir.file("v.db"));
  VariantsTable& variants = s.variants_table();
  const auto a = s.runs_table().create_run(
      {.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  const auto b = s.runs_table().create_run(
      {.name = "b", .config_path = "", .config_text = "", .config_sha256 = ""});
  variants.add_variant({.run_id = a, .name = "batch", .position = 1, .knobs_json = R"({"policy":"SCHED_BATCH"})"});
  const auto base = variants.add_variant({.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto vs = variants.variants(a);
  REQUIRE(vs.size() == 2);
  CHECK(vs[0].id == base);
  CHECK(vs[0].name == "default");
  CHECK(vs[1].knobs_json == R"({"policy":"SCHED_BATCH"})");
  CHECK(variants.variants(b).empty());
  const auto by_run = variants.variants_by_run();
  CHECK(by_run.size() == 1);
  CHECK(by_run.at(a).front().name == "default");
  // One name per run.
  CHECK_THROWS_AS(variants.add_variant({.run_id = a, .name = "batch", .position = 2, .knobs_json = "{}"}),
                  StoreError);
}

TEST_CASE("a variant's position past an int is refused, naming the row") {
  test::TempDir dir;
  const auto path = dir.file("v.db");
  Store s(path);
  const auto a = s.runs_table().create_run(
      {.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  s.variants_table().add_variant(
      {.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  REQUIRE(test::exec_raw(path, "UPDATE variants SET position = 4294967296"));
  CHECK_THROWS_WITH(s.variants_table().variants(a),
                    "variants row 1: position 4294967296 is out of range (a damaged or crafted "
                    "database)");
}
