// Rows of a database that name other rows, read back by the commands that
// trust them (hostile7, issue 44): a nightly measurement whose run is gone,
// an iteration of another run's variant. Each is either refused, naming the
// row, or acted on as what it is; never a silent gap in a report.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>

#include "base/text.h"
#include "tests/support/one_line.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"
#include "tests/support/value_config.h"

using namespace schedlab;
using namespace schedlab::test;

TEST_CASE("nightly measures again a target whose reused measurement names no run (hostile7)") {
  TempDir dir;
  const std::string db = dir.file("n.db"), config = two_value_runs(dir, db);
  const std::string night = reused_nightly(dir, db, config);
  SECTION("the run was removed") {
    REQUIRE(schedlab_cmd({"rm", "--db", db, "2"}).exit_code == 0);
  }
  SECTION("the row names a run that is not there") {
    REQUIRE(exec_raw(db, "UPDATE nightly_measurements SET run_id = 99 WHERE target = 't2'"));
  }
  // Before: both reused, t2 in no comparison, "No regression", exit 0.
  // Now t2 is measured again: its hook fails, and the night says so
  // (exit 2, t2 failed in the targets' table).
  const auto r = schedlab_cmd({"nightly", night, "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("t2 / " + config + ": the measurement of an earlier night names"));
  CHECK_THAT(one_line(r.err), Catch::Contains("measuring again"));
  CHECK_THAT(r.out, Catch::Contains("| failed: hook false: exit 1 |"));
}

TEST_CASE("compare and export refuse an iteration of another run's variant, naming it (hostile7)") {
  // compare left it out of every column unsaid (n 4 of 5), list counted it,
  // merge refused it.
  TempDir dir;
  const std::string db = dir.file("v.db");
  two_value_runs(dir, db);
  REQUIRE(exec_raw(db,
                   "UPDATE iterations SET variant_id = (SELECT id FROM variants WHERE run_id = 2) "
                   "WHERE id = (SELECT min(id) FROM iterations WHERE run_id = 1)"));
  const std::string id = raw(db, "SELECT min(id) FROM iterations WHERE run_id = 1");
  const std::string variant = raw(db, "SELECT id FROM variants WHERE run_id = 2");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", "r1"}, {"export", "--format", "kcidb", "r1"}}) {
    auto with_db = args;
    with_db.insert(with_db.end(), {"--db", db});
    const auto r = schedlab_cmd(with_db);
    INFO(args[0]);
    CHECK(r.exit_code != 0);
    CHECK_THAT(one_line(r.err),
               Catch::Contains(fmt::format("(id {}) names variant id {}, no "
                                           "variant of its run (a damaged or crafted database)",
                                           id, variant)));
  }
}
