#include "results/database.h"

#include <sqlite3.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

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
