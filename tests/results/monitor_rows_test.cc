// Monitor snapshots and deltas: written in the iteration's transaction,
// read back per run and monitor, per-CPU rows filtered on request.
#include "results/monitor_rows.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("monitor rows round-trip with their iteration", "[store][monitors]") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  std::int64_t run = 0, id = 0;
  {
    Store s(path);
    // At least the monitors migration (3); later ones are appended.
    CHECK(Store::kSchemaVersion >= 3);
    CHECK(s.schema_version() == Store::kSchemaVersion);
    run = s.runs_table().create_run(
        {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
    const auto v = s.variants_table().add_variant(
        {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    IterationRow it = test::plain_iteration(run, v);
    it.monitor_snapshots = {{0, "stat", "before", "/proc/stat", "ctxt 10\n"},
                            {0, "stat", "after", "/proc/stat", "ctxt 25\n"},
                            {0, "interrupts", "before", "/proc/interrupts", "i0"},
                            {0, "interrupts", "after", "/proc/interrupts", "i1"}};
    it.monitor_deltas = {{0, "stat", "ctxt", 15},
                         {0, "stat", "cpu.user", 3},
                         {0, "stat", "cpu0.user", 2},
                         {0, "stat", "cpu1.user", 1},
                         {0, "interrupts", "LOC", 7},
                         {0, "interrupts", "LOC.cpu1", 7},
                         {0, "interrupts", "NMI", 0}};
    id = s.iterations_table().add_iteration(it);

    // A bad row rolls the whole iteration back: one transaction.
    it.iteration = 1;
    it.monitor_snapshots = {{0, "stat", "during", "/proc/stat", "x"}};
    CHECK_THROWS_AS(s.iterations_table().add_iteration(it), StoreError);
    CHECK(s.iterations_table().iterations(run).size() == 1);
  }
  Store s(path);  // reopened: persisted
  const auto snaps = s.monitor_rows().monitor_snapshots(run, "stat");
  REQUIRE(snaps.size() == 2);
  CHECK(snaps[0].iteration_id == id);
  CHECK(snaps[0].phase == "before");
  CHECK(snaps[0].path == "/proc/stat");
  CHECK(snaps[1].text == "ctxt 25\n");
  CHECK(s.monitor_rows().monitor_snapshots(run, "schedstat").empty());

  const auto all = s.monitor_rows().monitor_deltas(run, "");
  CHECK(all.size() == 7);
  const auto stat = s.monitor_rows().monitor_deltas(run, "stat");
  REQUIRE(stat.size() == 4);
  CHECK(stat[0].counter == "ctxt");
  CHECK(stat[0].value == 15);
  CHECK(stat[0].iteration_id == id);
  std::vector<std::string> agg;
  for (const auto& d : s.monitor_rows().monitor_deltas(run, "", true))
    agg.push_back(d.monitor + ":" + d.counter);
  CHECK(agg == std::vector<std::string>{"stat:ctxt", "stat:cpu.user", "interrupts:LOC",
                                        "interrupts:NMI"});
}

TEST_CASE("a monitor delta outside the sample range is refused on write and on read (issue 44)",
          "[store][monitors]") {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  std::int64_t run = 0;
  {
    Store s(path);
    run = s.runs_table().create_run(
        {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
    const auto v = s.variants_table().add_variant(
        {.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    IterationRow it = test::plain_iteration(run, v);
    it.monitor_deltas = {{0, "stat", "ctxt", 1e308}};
    CHECK_THROWS_WITH(s.iterations_table().add_iteration(it),
                      Catch::Contains("stat counter ctxt: 1e+308 is outside +-1e+150; not stored"));
    CHECK(s.iterations_table().iterations(run).empty());  // the iteration rolled back with it
    it.monitor_deltas = {{0, "stat", "ctxt", 15}};
    s.iterations_table().add_iteration(it);
  }
  // A crafted database: the value as text (reads as NaN), then as inf.
  for (const char* value : {"'many'", "9e999"}) {
    sqlite3* h = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
    REQUIRE(sqlite3_exec(h, (std::string("UPDATE monitor_deltas SET value = ") + value).c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(h);
    Store s(path);
    CHECK_THROWS_WITH(s.monitor_rows().monitor_deltas(run, ""),
                      Catch::Contains("stat counter ctxt:") &&
                          Catch::Contains("(a damaged or crafted database)"));
  }
}
