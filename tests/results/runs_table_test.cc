#include "results/runs_table.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "results/iterations_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("run names are unique") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  s.runs_table().create_run(
      {.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  CHECK_THROWS_WITH(s.runs_table().create_run(
                        {.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""}),
                    Catch::Contains("a run named 'a' already exists"));
}

TEST_CASE("run overviews: variants in position order and ok iterations, per run") {
  test::TempDir dir;
  Store s(dir.file("o.db"));
  const auto a = test::plain_run(s, "a");
  const auto b = test::plain_run(s, "b");
  const auto batch = s.variants_table().add_variant(
      {.run_id = a, .name = "batch", .position = 1, .knobs_json = "{}"});
  s.variants_table().add_variant(
      {.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(a, batch, "w");
  s.iterations_table().add_iteration(it);
  it.iteration = 1;
  s.iterations_table().add_iteration(it);
  it.iteration = 2;
  it.status = IterationStatus::kFailed;
  s.iterations_table().add_iteration(it);
  const auto o = s.runs_table().run_overviews();
  REQUIRE(o.count(a));
  CHECK(o.at(a).variants == std::vector<std::string>{"default", "batch"});
  CHECK(o.at(a).iterations_ok == s.iterations_table().count_iterations(a, IterationStatus::kOk));
  CHECK(o.at(a).iterations_ok == 2);
  CHECK(o.count(b) == 0);  // no variants, no iterations yet
}

TEST_CASE("a run as a command line names it: its id, else its name; digits past an id are no run") {
  test::TempDir dir;
  Store s(dir.file("a.db"));
  const RunsTable& runs = s.runs_table();
  const auto first = s.runs_table().create_run(
      {.name = "nightly-1", .config_path = "", .config_text = "", .config_sha256 = ""});
  const auto digits = s.runs_table().create_run(
      {.name = "12", .config_path = "", .config_text = "", .config_sha256 = ""});
  const auto huge = s.runs_table().create_run(
      {.name = "99999999999999999999", .config_path = "", .config_text = "", .config_sha256 = ""});
  CHECK(runs.find_run_arg(std::to_string(first))->id == first);
  CHECK(runs.find_run_arg("nightly-1")->id == first);
  CHECK(runs.find_run_arg("12")->id == digits);  // no run 12: the name
  // 20 digits, and one past the largest id: no id, so only a name can match.
  CHECK(runs.find_run_arg("99999999999999999999")->id == huge);
  CHECK_FALSE(runs.find_run_arg("99999999999999999998"));
  CHECK_FALSE(runs.find_run_arg("9223372036854775808"));
  CHECK_FALSE(runs.find_run_arg(std::string(4096, '9')));
  CHECK_FALSE(runs.find_run_arg(""));
  CHECK_FALSE(runs.find_run_arg("-1"));
  CHECK_FALSE(runs.find_run_arg("+1"));
}

// A database made elsewhere may hold a run named like another's id: the
// argument is an error naming both, never the id's run deleted or shown.
TEST_CASE("a RUN argument that is one run's id and another's name is an error naming both") {
  test::TempDir dir;
  Store s(dir.file("ids.db"));
  const RunsTable& runs = s.runs_table();
  const auto make = [&](const std::string& name) {
    return s.runs_table().create_run(
        {.name = name, .config_path = "", .config_text = "", .config_sha256 = ""});
  };
  make("first");
  const auto second = make("second");
  const auto zero_two = make("02");
  const auto one = make("1");
  CHECK_THROWS_WITH(runs.find_run_arg("02"),
                    "'02' names two runs in " + dir.file("ids.db") +
                        ": run 2 'second' by its id and run 3 by its name; give the id "
                        "of the one you mean");
  CHECK_THROWS_WITH(runs.find_run_arg("1"),
                    Catch::Contains("run 1 'first' by its id and run 4 by its name"));
  CHECK(runs.find_run_arg("2")->id == second);  // no run is named 2
  CHECK(runs.find_run_arg("3")->id == zero_two);
  CHECK(runs.find_run_arg("4")->id == one);
  CHECK(runs.find_run_arg("second")->id == second);
}

TEST_CASE("a new run's name is text and not all digits") {
  CHECK(run_name_problem("02") == "it is all digits, which a RUN argument takes for a run's id");
  CHECK(run_name_problem("1") == "it is all digits, which a RUN argument takes for a run's id");
  CHECK(run_name_problem("") == "it is empty");
  CHECK(run_name_problem("run\x1b") == "it holds a control character (U+001B at byte 3)");
  CHECK(run_name_problem("v1") == std::nullopt);
  CHECK(run_name_problem("1.5") == std::nullopt);
  CHECK(run_name_problem("2026-12-06") == std::nullopt);
}
