#include "results/store.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/raw_sql.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a run with variants, metrics, iterations and samples round-trips") {
  test::TempDir dir;
  const std::string path = dir.file("r.db");
  std::int64_t run = 0, v0 = 0, v1 = 0;
  {
    Store s(path);
    CHECK(s.schema_version() == Store::kSchemaVersion);
    run = s.runs_table().create_run({.name = "demo",
                        .config_path = "configs/demo.yaml",
                        .config_text = "workloads: [hackbench]\n",
                        .config_sha256 = "abc",
                        .manifest_json = R"({"kernel_release":"6.1.0"})"});
    v0 = s.variants_table().add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    v1 = s.variants_table().add_variant({.run_id = run, .name = "batch", .position = 1, .knobs_json = R"({"policy":"SCHED_BATCH"})"});
    s.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    s.metrics_table().add_metric(run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean",
                       SampleKind::kRun, 4});  // idempotent
    IterationRow it = test::hackbench_iteration(run, v1, 4, 1, 2);
    it.started_at = "2026-11-29T00:00:00Z";
    it.duration_s = 0.5;
    it.exit_code = 0;
    it.stdout_text = "Time: 0.432\n";
    it.samples = {{"time", 0.432, std::nullopt}, {"time", 0.5, 1.0}};
    s.iterations_table().add_iteration(it);
    it.iteration = 3;
    it.status = IterationStatus::kParseError;
    it.error = "no Time line";
    it.stdout_text = "garbage\n";
    it.samples.clear();
    it.exit_code.reset();
    s.iterations_table().add_iteration(it);
    s.runs_table().set_run_status(run, RunStatus::kFinished, true);
  }
  Store s(path);  // reopen: everything is on disk
  const auto r = s.runs_table().find_run(run);
  REQUIRE(r);
  CHECK(r->name == "demo");
  CHECK(to_string(r->status) == "finished");
  CHECK_FALSE(r->ended_at.empty());
  CHECK(r->config_text == "workloads: [hackbench]\n");
  CHECK(s.runs_table().find_run_by_name("demo")->id == run);
  CHECK_FALSE(s.runs_table().find_run(run + 100));
  const auto vs = s.variants_table().variants(run);
  REQUIRE(vs.size() == 2);
  CHECK(vs[0].name == "default");
  CHECK(vs[1].knobs_json == R"({"policy":"SCHED_BATCH"})");
  REQUIRE(s.metrics_table().metrics(run).size() == 1);
  CHECK(s.metrics_table().metrics(run)[0].direction == Direction::kLowerIsBetter);
  const auto its = s.iterations_table().iterations(run, true);
  REQUIRE(its.size() == 2);
  CHECK(its[0].variant_id == v1);
  CHECK(its[0].row_order == 1);
  CHECK(its[0].exit_code == 0);
  REQUIRE(its[0].samples.size() == 2);
  CHECK(its[0].samples[0].value == 0.432);
  CHECK_FALSE(its[0].samples[0].offset_s);
  CHECK(its[0].samples[1].offset_s == 1.0);
  CHECK(to_string(its[1].status) == "parse_error");
  CHECK(its[1].stdout_text == "garbage\n");  // raw output kept when parsing fails
  CHECK_FALSE(its[1].exit_code);
  CHECK(s.iterations_table().count_iterations(run, IterationStatus::kOk) == 1);
  CHECK(v0 != v1);
}

// [host]: its time limits hold in the sanitizer run's host lane (tests/CMakeLists.txt).
TEST_CASE("a journal write waits out another process's write lock held over 5 s (a merge)",
          "[host]") {
  // A merge into a live run's database holds the write lock for its whole
  // input; the run's knob put back must still be journaled as restored.
  using namespace std::chrono_literals;
  test::TempDir dir;
  const std::string path = dir.file("live.db");
  Store s(path);
  const auto run = s.runs_table().create_run(
      {.name = "live", .config_path = "", .config_text = "", .config_sha256 = ""});
  const auto entry = s.journal().journal_applied({.run_id = run,
                                                  .host = "local",
                                                  .kind = "sysctl",
                                                  .name = "k",
                                                  .path = "/p",
                                                  .original = "1",
                                                  .target = "0"});
  ExecResult held;
  std::thread holder([&] {
    LocalHost host;
    held = host.run({.argv = {"sqlite3", path, "BEGIN IMMEDIATE;", ".shell sleep 7", "COMMIT;"},
                     .timeout = 60s});
  });
  // Until the sqlite3 process holds the lock.
  bool locked = false;
  for (auto until = std::chrono::steady_clock::now() + 5s;
       !locked && std::chrono::steady_clock::now() < until;) {
    sqlite3* probe = nullptr;
    sqlite3_open(path.c_str(), &probe);
    locked = sqlite3_exec(probe, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_BUSY;
    sqlite3_exec(probe, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(probe);
    if (!locked) std::this_thread::sleep_for(20ms);
  }
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  try {
    s.journal().journal_restored(entry);
  } catch (const StoreError& e) {
    error = e.what();
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  holder.join();
  INFO(held.describe() << " " << held.err);
  REQUIRE(held.ok());
  REQUIRE(locked);
  CHECK(error.empty());
  CHECK(waited > 5s);
  CHECK(s.journal().unrestored("local").empty());
}

using test::raw;

TEST_CASE("status enums are stored as the words the database always held") {
  for (const auto& [status, word] : status_words::kRun)
    CHECK(run_status_from_string(word) == status);
  for (const auto& [status, word] : status_words::kIteration)
    CHECK(iteration_status_from_string(word) == status);
  CHECK_FALSE(run_status_from_string("done"));
  CHECK(to_string(IterationStatus::kParseError) == "parse_error");
  CHECK(to_string(JournalState::kDiscarded) == "discarded");

  test::TempDir dir;
  const std::string path = dir.file("w.db");
  Store s(path);
  const auto run = s.runs_table().create_run(
      {.name = "w", .config_path = "", .config_text = "", .config_sha256 = ""});
  CHECK(raw(path, "SELECT status FROM runs") == "running");
  s.runs_table().set_run_status(run, RunStatus::kInterrupted, true);
  CHECK(raw(path, "SELECT status FROM runs") == "interrupted");
  const auto v = s.variants_table().add_variant(
      {.run_id = run, .name = "d", .position = 0, .knobs_json = "{}"});
  s.iterations_table().add_iteration({.run_id = run,
                                      .variant_id = v,
                                      .workload = "w",
                                      .params_json = "{}",
                                      .status = IterationStatus::kNotReady,
                                      .started_at = "t"});
  CHECK(raw(path, "SELECT status FROM iterations") == "not_ready");
  CHECK(s.iterations_table().count_iterations(run, IterationStatus::kNotReady) == 1);
  const auto entry = s.journal().journal_applied({.run_id = run,
                                                  .host = "h",
                                                  .kind = "sysctl",
                                                  .name = "kernel.x",
                                                  .path = "/proc/sys/kernel/x",
                                                  .original = "1",
                                                  .target = "0"});
  CHECK(raw(path, "SELECT state FROM knob_journal") == "applied");
  CHECK(s.journal().unrestored("h").at(0).state == JournalState::kApplied);
  s.journal().journal_restored(entry);
  CHECK(raw(path, "SELECT state FROM knob_journal") == "restored");
  CHECK(s.journal().unrestored("h").empty());
  // A word this binary does not know is an error, not a silent default.
  {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "UPDATE runs SET status = 'paused'", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  CHECK_THROWS_WITH(s.runs_table().find_run(run), "unknown run status 'paused' in the database");
}
