#include "results/store.h"

#include <sqlite3.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runner/hosts/local_host.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a run with variants, metrics, iterations and samples round-trips") {
  test::TempDir dir;
  const std::string path = dir.file("r.db");
  std::int64_t run = 0, v0 = 0, v1 = 0;
  {
    Store s(path);
    CHECK(s.schema_version() == Store::kSchemaVersion);
    run = s.create_run({.name = "demo",
                        .config_path = "configs/demo.yaml",
                        .config_text = "workloads: [hackbench]\n",
                        .config_sha256 = "abc",
                        .manifest_json = R"({"kernel_release":"6.1.0"})"});
    v0 = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    v1 = s.add_variant({.run_id = run, .name = "batch", .position = 1, .knobs_json = R"({"policy":"SCHED_BATCH"})"});
    s.add_metric(run, {"hackbench", "time", "s", "lower", "amean", "run", 4});
    s.add_metric(run, {"hackbench", "time", "s", "lower", "amean", "run", 4});  // idempotent
    IterationRow it{.run_id = run,
                    .variant_id = v1,
                    .workload = "hackbench",
                    .block = "hackbench-process-pipes",
                    .row = "4",
                    .row_order = 1,
                    .params_json = R"({"groups":4})",
                    .iteration = 2,
                    .status = IterationStatus::kOk,
                    .started_at = "2026-11-29T00:00:00Z",
                    .duration_s = 0.5,
                    .exit_code = 0,
                    .stdout_text = "Time: 0.432\n",
                    .stderr_text = "",
                    .samples = {{"time", 0.432, std::nullopt}, {"time", 0.5, 1.0}}};
    s.add_iteration(it);
    it.iteration = 3;
    it.status = IterationStatus::kParseError;
    it.error = "no Time line";
    it.stdout_text = "garbage\n";
    it.samples.clear();
    it.exit_code.reset();
    s.add_iteration(it);
    s.set_run_status(run, RunStatus::kFinished, true);
  }
  Store s(path);  // reopen: everything is on disk
  const auto r = s.find_run(run);
  REQUIRE(r);
  CHECK(r->name == "demo");
  CHECK(to_string(r->status) == "finished");
  CHECK_FALSE(r->ended_at.empty());
  CHECK(r->config_text == "workloads: [hackbench]\n");
  CHECK(s.find_run_by_name("demo")->id == run);
  CHECK_FALSE(s.find_run(run + 100));
  const auto vs = s.variants(run);
  REQUIRE(vs.size() == 2);
  CHECK(vs[0].name == "default");
  CHECK(vs[1].knobs_json == R"({"policy":"SCHED_BATCH"})");
  REQUIRE(s.metrics(run).size() == 1);
  CHECK(s.metrics(run)[0].direction == "lower");
  const auto its = s.iterations(run, true);
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
  CHECK(s.count_iterations(run, IterationStatus::kOk) == 1);
  CHECK(v0 != v1);
}

TEST_CASE("run names are unique") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  s.create_run({.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  CHECK_THROWS_WITH(s.create_run({.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""}),
                    Catch::Contains("a run named 'a' already exists"));
}

TEST_CASE("the same iteration cannot be stored twice") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  auto run = s.create_run({.name = "a", .config_path = "", .config_text = "", .config_sha256 = ""});
  auto v = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v);
  s.add_iteration(it);
  CHECK_THROWS_AS(s.add_iteration(it), StoreError);
  CHECK(s.iterations(run).size() == 1);  // the failed insert rolled back whole
}

TEST_CASE("a database newer than this binary is refused") {
  test::TempDir dir;
  const std::string path = dir.file("new.db");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  CHECK_THROWS_WITH(Store(path), Catch::Contains("database schema version 99 is newer than this schedlab"));
}

TEST_CASE("processes opening a new database at the same time migrate it once") {
  // A nightly runner and a reader (history, a test polling progress) may
  // open a fresh file together; each connection here is what a process has.
  test::TempDir dir;
  for (int round = 0; round < 20; ++round) {
    const std::string path = dir.file("race" + std::to_string(round) + ".db");
    std::atomic<int> failures{0};
    std::mutex m;
    std::string why;
    std::vector<std::thread> openers;
    for (int i = 0; i < 4; ++i)
      openers.emplace_back([&] {
        try {
          Store s(path);
          if (s.schema_version() != Store::kSchemaVersion) ++failures;
        } catch (const StoreError& e) {
          ++failures;
          const std::lock_guard lock(m);
          why = e.what();
        }
      });
    for (auto& t : openers) t.join();
    INFO(why);
    CHECK(failures == 0);
  }
}

TEST_CASE("a journal write waits out another process's write lock held over 5 s (a merge)") {
  // A merge into a live run's database holds the write lock for its whole
  // input; the run's knob put back must still be journaled as restored.
  using namespace std::chrono_literals;
  test::TempDir dir;
  const std::string path = dir.file("live.db");
  Store s(path);
  const auto run =
      s.create_run({.name = "live", .config_path = "", .config_text = "", .config_sha256 = ""});
  const auto entry = s.journal_applied({.run_id = run,
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
    s.journal_restored(entry);
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
  CHECK(s.unrestored("local").empty());
}

TEST_CASE("the journal lists unrestored knobs newest first") {
  test::TempDir dir;
  Store s(dir.file("r.db"));
  const auto run = s.create_run({.name = "j", .config_path = "", .config_text = "", .config_sha256 = ""});
  auto a = s.journal_applied({.run_id = run, .host = "local", .kind = "sysctl", .name = "k1", .path = "/p1", .original = "1", .target = "0"});
  auto b = s.journal_applied({.run_id = run, .host = "local", .kind = "sysctl", .name = "k2", .path = "/p2", .original = "5", .target = "6"});
  s.journal_applied({.run_id = run, .host = "other", .kind = "sysctl", .name = "k3", .path = "/p3", .original = "0", .target = "1"});
  auto pending = s.unrestored("local");
  REQUIRE(pending.size() == 2);
  CHECK(pending[0].id == b);
  CHECK(pending[1].id == a);
  s.journal_restored(b);
  CHECK(s.unrestored("local").size() == 1);
}

TEST_CASE(
    "iterations record their pair, numbered per pair, and pairs write their own manifest parts") {
  test::TempDir dir;
  Store s(dir.file("p.db"));
  const auto run = s.create_run({.name = "p",
                                 .config_path = "x",
                                 .config_text = "",
                                 .config_sha256 = "",
                                 .manifest_json = R"({"order":"interleaved"})"});
  const auto v =
      s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v);
  it.pair = "rack1";
  s.add_iteration(it);
  it.pair = "rack2";
  s.add_iteration(it);  // the same index on another pair
  CHECK_THROWS_AS(s.add_iteration(it), StoreError);
  const auto its = s.iterations(run);
  REQUIRE(its.size() == 2);
  CHECK(its[0].pair == "rack1");
  CHECK(its[1].pair == "rack2");

  s.set_manifest_member(run, {"pairs", "rack1"}, R"({"sut":"ssh://a"})");
  s.set_manifest_member(run, {"pairs", "rack-2"}, R"({"sut":"local"})");
  s.set_manifest_member(run, {"pairs", "rack1", "error"}, R"("cannot connect")");
  CHECK(
      s.find_run(run)->manifest_json ==
      R"({"order":"interleaved","pairs":{"rack1":{"sut":"ssh://a","error":"cannot connect"},"rack-2":{"sut":"local"}}})");
}

namespace {
// One column of one row, read past the Store: what the database holds.
std::string raw(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
  std::string out;
  if (sqlite3_step(s) == SQLITE_ROW) out = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
  sqlite3_finalize(s);
  sqlite3_close(db);
  return out;
}
}  // namespace

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
  const auto run =
      s.create_run({.name = "w", .config_path = "", .config_text = "", .config_sha256 = ""});
  CHECK(raw(path, "SELECT status FROM runs") == "running");
  s.set_run_status(run, RunStatus::kInterrupted, true);
  CHECK(raw(path, "SELECT status FROM runs") == "interrupted");
  const auto v = s.add_variant({.run_id = run, .name = "d", .position = 0, .knobs_json = "{}"});
  s.add_iteration({.run_id = run,
                   .variant_id = v,
                   .workload = "w",
                   .params_json = "{}",
                   .status = IterationStatus::kNotReady,
                   .started_at = "t"});
  CHECK(raw(path, "SELECT status FROM iterations") == "not_ready");
  CHECK(s.count_iterations(run, IterationStatus::kNotReady) == 1);
  const auto entry = s.journal_applied({.run_id = run,
                                        .host = "h",
                                        .kind = "sysctl",
                                        .name = "kernel.x",
                                        .path = "/proc/sys/kernel/x",
                                        .original = "1",
                                        .target = "0"});
  CHECK(raw(path, "SELECT state FROM knob_journal") == "applied");
  CHECK(s.unrestored("h").at(0).state == JournalState::kApplied);
  s.journal_restored(entry);
  CHECK(raw(path, "SELECT state FROM knob_journal") == "restored");
  CHECK(s.unrestored("h").empty());
  // A word this binary does not know is an error, not a silent default.
  {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "UPDATE runs SET status = 'paused'", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  CHECK_THROWS_WITH(s.find_run(run), "unknown run status 'paused' in the database");
}

// add_iteration writes samples 64 to a statement, then one at a time: 130
// come back in order, none lost at either boundary.
TEST_CASE("an iteration's samples round-trip in order across the insert batches") {
  test::TempDir dir;
  Store s(dir.file("b.db"));
  const auto run = s.create_run({.name = "b", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x",
                                 .manifest_json = "{}"});
  const auto v = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(run, v, "pgbench");
  for (int i = 0; i < 130; ++i)
    it.samples.push_back({i % 2 ? "interval_latency" : "interval_tps", 1000.0 + i,
                          i == 129 ? std::nullopt : std::optional<double>(i * 0.5)});
  s.add_iteration(it);
  const auto back = s.iterations(run);
  REQUIRE(back.size() == 1);
  REQUIRE(back[0].samples.size() == 130);
  for (int i = 0; i < 130; ++i) {
    INFO(i);
    CHECK(back[0].samples[i].metric == it.samples[i].metric);
    CHECK(back[0].samples[i].value == it.samples[i].value);
    CHECK(back[0].samples[i].offset_s == it.samples[i].offset_s);
  }
}

TEST_CASE("run overviews: variants in position order and ok iterations, per run") {
  test::TempDir dir;
  Store s(dir.file("o.db"));
  const auto a = s.create_run({.name = "a", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x",
                               .manifest_json = "{}"});
  const auto b = s.create_run({.name = "b", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x",
                               .manifest_json = "{}"});
  const auto batch = s.add_variant({.run_id = a, .name = "batch", .position = 1, .knobs_json = "{}"});
  s.add_variant({.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  IterationRow it = test::plain_iteration(a, batch, "w");
  s.add_iteration(it);
  it.iteration = 1;
  s.add_iteration(it);
  it.iteration = 2;
  it.status = IterationStatus::kFailed;
  s.add_iteration(it);
  const auto o = s.run_overviews();
  REQUIRE(o.count(a));
  CHECK(o.at(a).variants == std::vector<std::string>{"default", "batch"});
  CHECK(o.at(a).iterations_ok == s.count_iterations(a, IterationStatus::kOk));
  CHECK(o.at(a).iterations_ok == 2);
  CHECK(o.count(b) == 0);  // no variants, no iterations yet
}

// What history reads in bulk: every run's iterations of one workload, a run
// at a time in run id order whatever the insertion order, with the one
// metric's samples in stored order; other workloads and metrics left out.
TEST_CASE("bulk reads for history: a run at a time, one metric's samples, in order") {
  test::TempDir dir;
  Store s(dir.file("h.db"));
  const auto run = [&](const std::string& name, const std::string& manifest) {
    return s.create_run({.name = name, .config_path = "c.yaml", .config_text = "",
                         .config_sha256 = "x", .manifest_json = manifest});
  };
  const auto a = run("a", R"({"kernel_release":"6.1.0"})");
  const auto b = run("b", R"({"kernel_release":7})");  // not a string: left out
  const auto c = run("c", "not json");
  const auto va = s.add_variant({.run_id = a, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto vb = s.add_variant({.run_id = b, .name = "default", .position = 0, .knobs_json = "{}"});
  s.add_metric(a, {"hackbench", "time", "s", "lower", "amean", "run", 4});
  s.add_metric(b, {"hackbench", "time", "s", "lower", "amean", "run", 4});
  s.add_metric(b, {"tbench", "time", "s", "lower", "amean", "run", 4});
  const auto add = [&](std::int64_t r, std::int64_t v, const std::string& workload, int i,
                       std::vector<SampleRow> samples) {
    s.add_iteration({.run_id = r, .variant_id = v, .workload = workload, .block = workload + "-x",
                     .row = "1", .row_order = 3, .params_json = "{}", .iteration = i,
                     .status = IterationStatus::kOk, .started_at = "t", .samples = std::move(samples)});
  };
  add(b, vb, "hackbench", 0, {{"time", 2.0, std::nullopt}, {"other", 9.0, std::nullopt}});
  add(a, va, "hackbench", 0, {{"time", 1.0, 0.5}, {"time", 1.5, std::nullopt}});
  add(a, va, "tbench", 0, {{"time", 8.0, std::nullopt}});
  add(b, vb, "hackbench", 1, {});
  std::vector<std::vector<IterationRow>> seen;
  s.for_each_run_iterations("hackbench", "time", [&](std::span<const IterationRow> its) {
    seen.emplace_back(its.begin(), its.end());
  });
  REQUIRE(seen.size() == 2);
  REQUIRE(seen[0].size() == 1);
  CHECK(seen[0][0].run_id == a);
  CHECK(seen[0][0].block == "hackbench-x");
  CHECK(seen[0][0].row_order == 3);
  REQUIRE(seen[0][0].samples.size() == 2);
  CHECK(seen[0][0].samples[0].value == 1.0);
  CHECK(seen[0][0].samples[0].offset_s == 0.5);
  CHECK(seen[0][0].samples[1].value == 1.5);
  REQUIRE(seen[1].size() == 2);
  CHECK(seen[1][0].run_id == b);
  CHECK(seen[1][0].iteration == 0);
  REQUIRE(seen[1][0].samples.size() == 1);  // not "other"
  CHECK(seen[1][0].samples[0].value == 2.0);
  CHECK(seen[1][1].samples.empty());

  const auto declared = s.metric_by_run("hackbench", "time");
  CHECK(declared.size() == 2);
  CHECK(declared.at(b).workload == "hackbench");
  CHECK(s.metric_by_run("tbench", "time").count(a) == 0);
  const auto variants = s.variants_by_run();
  CHECK(variants.at(a).size() == 1);
  CHECK(variants.at(b).front().id == vb);
  CHECK(variants.count(c) == 0);
  // Each run's kernel release, as its manifest says it (c's manifest is not
  // JSON, b's release not a string: none), and as it changes.
  const auto releases = [&] {
    std::map<std::int64_t, std::string> out;
    for (const auto& l : s.run_labels()) out[l.id] = l.kernel_release;
    return out;
  };
  CHECK(releases() == std::map<std::int64_t, std::string>{{a, "6.1.0"}, {b, ""}, {c, ""}});
  s.set_manifest_member(b, {"kernel_release"}, R"("6.12.0")");
  s.set_manifest_member(a, {"kernel_release"}, "null");
  CHECK(releases() == std::map<std::int64_t, std::string>{{a, ""}, {b, "6.12.0"}, {c, ""}});
  CHECK(s.runs_declaring("hackbench", "time") == std::vector<std::int64_t>{a, b});
  CHECK(s.runs_declaring("tbench", "time") == std::vector<std::int64_t>{b});
  CHECK(s.runs_declaring("hackbench", "other").empty());
  CHECK_THROWS_WITH(s.set_manifest_member(a, {"pairs", "x\"y"}, "1"),
                    Catch::Contains("not a plain name"));
}

TEST_CASE("cell summaries are read only while the run's iterations and samples are unchanged") {
  test::TempDir dir;
  const std::string path = dir.file("c.db");
  Store s(path);
  const auto run = s.create_run({.name = "r", .config_path = "c.yaml", .config_text = "",
                                 .config_sha256 = "x"});
  const auto v = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
  const auto add = [&](int i) {
    return s.add_iteration({.run_id = run, .variant_id = v, .workload = "hackbench",
                            .block = "b", .row = "1", .params_json = "{}", .iteration = i,
                            .started_at = "2026-01-01T00:00:00Z",
                            .samples = {{"time", 1.0 + i, std::nullopt}}});
  };
  const auto first = add(0);
  const auto cells_read = [&] {
    std::vector<CellSummary> out;
    s.for_each_run_cell_summaries("hackbench", "time", 1, [&](const Store::RunLabel&, std::span<const CellSummary> c) {
      out.insert(out.end(), c.begin(), c.end());
    });
    return out;
  };
  const CellSummary cell{.run_id = run, .variant_id = v, .block = "b", .row = "1", .n = 1,
                         .centre = 1.0, .ci_reason = "n < 2"};
  const auto put = [&](CellBasis basis) {
    const std::vector<Store::RunCells> runs{{run, basis, {cell}}};
    return s.put_cell_summaries("hackbench", "time", 1, runs);
  };
  CHECK(put({1, first}) == 1);
  REQUIRE(cells_read().size() == 1);
  CHECK(cells_read()[0].centre == 1.0);
  CHECK_FALSE(cells_read()[0].ci_low.has_value());
  CHECK(cells_read()[0].ci_reason == "n < 2");

  SECTION("an iteration added drops them, and an old basis is not kept") {
    const auto second = add(1);
    CHECK(cells_read().empty());
    CHECK(put({1, first}) == 0);
    CHECK(cells_read().empty());
    CHECK(put({2, second}) == 1);
    CHECK(cells_read().size() == 1);
  }
  SECTION("a sample written by any writer drops them") {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    const std::string sql =
        "INSERT INTO samples (iteration_id, metric, value) VALUES (" + std::to_string(first) +
        ", 'time', 5)";
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(cells_read().empty());
  }
  SECTION("invalidate_cell_summaries drops them") {
    s.invalidate_cell_summaries(run);
    CHECK(cells_read().empty());
  }
  SECTION("a replaced set has no rows of the old one") {
    const std::vector<Store::RunCells> runs{{run, {1, first}, {}}};
    CHECK(s.put_cell_summaries("hackbench", "time", 1, runs) == 1);
    CHECK(cells_read().empty());
  }
}

TEST_CASE("the latest run declaring a metric is the latest by start, not by id") {
  test::TempDir dir;
  Store s(dir.file("m.db"));
  const auto run = [&](const std::string& name, const std::string& started, const std::string& unit) {
    const auto id = s.create_run({.name = name, .config_path = "c.yaml", .config_text = "",
                                  .config_sha256 = "x", .manifest_json = "{}",
                                  .started_at = started});
    s.add_metric(id, {"hackbench", "time", unit, "lower", "amean", "run", 4});
    return id;
  };
  run("new", "2026-03-02T00:00:00Z", "ms");
  run("imported-late", "2026-03-01T00:00:00Z", "s");
  const auto m = s.latest_metric("hackbench", "time");
  REQUIRE(m.has_value());
  CHECK(m->unit == "ms");
  CHECK_FALSE(s.latest_metric("hackbench", "other").has_value());
}

TEST_CASE("a point's stop row keeps its sequential test, and a database of version 14 gains the columns") {
  test::TempDir dir;
  const std::string path = dir.file("seq.db");
  {
    Store s(path);
    const auto run = s.create_run({.name = "r", .config_path = "c", .config_text = "", .config_sha256 = "x"});
    const auto v = s.add_variant({.run_id = run, .name = "b", .position = 1, .knobs_json = "{}"});
    s.record_point_stop({.run_id = run, .variant_id = v, .workload = "w", .params_json = "{}", .iterations = 7,
                         .reason = "decided",
                         .sequential = SequentialRecord{.metric = "time", .decision = "same", .looks = 2,
                                                        .n_baseline = 7, .n = 7, .p_value = 0.5,
                                                        .estimate_pct = -0.5, .ci_low = -2.1, .ci_high = 1.2,
                                                        .level = 0.95, .design_json = R"({"alpha":0.05})",
                                                        .looks_json = R"([{"n":3,"fraction":0.2,"needed_n":15}])",
                                                        .note = ""}});
    s.record_point_stop({.run_id = run, .variant_id = v, .workload = "w", .params_json = "{\"x\":1}",
                         .iterations = 3, .reason = "fixed"});
    const auto stops = s.point_stops(run);
    REQUIRE(stops.size() == 2);
    REQUIRE(stops[0].sequential);
    const auto& q = *stops[0].sequential;
    CHECK(q.metric == "time");
    CHECK(q.decision == "same");
    CHECK(q.looks == 2);
    CHECK(q.n == 7);
    CHECK(*q.p_value == 0.5);
    CHECK(*q.ci_low == -2.1);
    CHECK(*q.ci_high == 1.2);
    CHECK(*q.estimate_pct == -0.5);
    CHECK(q.looks_json == R"([{"n":3,"fraction":0.2,"needed_n":15}])");
    CHECK_FALSE(stops[1].sequential);
    CHECK_FALSE(stops[1].ci_halfwidth_pct);
    // A decision the schema does not know is refused by the database itself.
    auto bad = stops[0];
    bad.sequential->decision = "maybe";
    CHECK_THROWS_AS(s.record_point_stop(bad), StoreError);
  }
  // Version 14: before migration 15 (the columns dropped again).
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  for (const char* c : {"seq_metric", "seq_decision", "seq_looks", "seq_n_baseline", "seq_n", "seq_p_value",
                        "seq_estimate_pct", "seq_ci_low", "seq_ci_high", "seq_level", "seq_design_json",
                        "seq_looks_json", "seq_note"})
    REQUIRE(sqlite3_exec(db, (std::string("ALTER TABLE point_stops DROP COLUMN ") + c).c_str(), nullptr, nullptr,
                         nullptr) == SQLITE_OK);
  for (const char* c : {"level_good", "level_bad", "error_rates"})
    REQUIRE(sqlite3_exec(db, (std::string("ALTER TABLE bisect_decisions DROP COLUMN ") + c).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 14", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  Store s(path);
  CHECK(s.schema_version() == 15);
  const auto stops = s.point_stops(1);
  REQUIRE(stops.size() == 2);
  CHECK(stops[0].reason == "decided");
  CHECK_FALSE(stops[0].sequential);  // the rows of before keep what they had
  CHECK(stops[0].iterations == 7);
}

TEST_CASE("an iteration's notes round-trip; a database from before them reads every old one as none") {
  test::TempDir dir;
  const std::string path = dir.file("n.db");
  std::int64_t run = 0, v = 0;
  {
    Store s(path);
    run = s.create_run({.name = "n", .config_path = "c.yaml", .config_text = "", .config_sha256 = "x",
                        .manifest_json = "{}"});
    v = s.add_variant({.run_id = run, .name = "default", .position = 0, .knobs_json = "{}"});
    s.add_iteration({.run_id = run, .variant_id = v, .workload = "netperf", .block = "netperf-UDP_STREAM",
                     .row = "default", .params_json = "{}", .iteration = 0, .status = IterationStatus::kOk,
                     .started_at = "t", .samples = {{"throughput", 581.5, std::nullopt}}});
  }
  // Back to schema 13, the column gone (and migration 15's): as a database written before it.
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &h) == SQLITE_OK);
  for (const char* c : {"seq_metric", "seq_decision", "seq_looks", "seq_n_baseline", "seq_n", "seq_p_value",
                        "seq_estimate_pct", "seq_ci_low", "seq_ci_high", "seq_level", "seq_design_json",
                        "seq_looks_json", "seq_note"})
    REQUIRE(sqlite3_exec(h, (std::string("ALTER TABLE point_stops DROP COLUMN ") + c).c_str(), nullptr, nullptr,
                         nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h,
                       "ALTER TABLE bisect_decisions DROP COLUMN level_good; ALTER TABLE bisect_decisions DROP "
                       "COLUMN level_bad; ALTER TABLE bisect_decisions DROP COLUMN error_rates;",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "ALTER TABLE iterations DROP COLUMN notes; PRAGMA user_version = 13;", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  Store s(path);
  CHECK(s.schema_version() == Store::kSchemaVersion);
  s.add_iteration({.run_id = run, .variant_id = v, .workload = "netperf", .block = "netperf-UDP_STREAM",
                   .row = "default", .params_json = "{}", .iteration = 1, .status = IterationStatus::kOk,
                   .started_at = "t",
                   .notes = "netperf: desired confidence not achieved\nsecond line",
                   .samples = {{"throughput", 570.0, std::nullopt}}});
  const auto its = s.iterations(run, true);
  REQUIRE(its.size() == 2);
  CHECK(its[0].notes.empty());
  CHECK(its[1].notes == "netperf: desired confidence not achieved\nsecond line");
}
