#include "results/database.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "results/store.h"
#include "tests/support/raw_sql.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("a database newer than this binary is refused") {
  test::TempDir dir;
  const std::string path = dir.file("new.db");
  REQUIRE(test::exec_raw(path, "PRAGMA user_version = 99"));
  CHECK_THROWS_WITH(Store(path), Catch::Contains("database schema version 99 is newer than this schedlab"));
}

TEST_CASE("a database of a negative schema version is refused before any migration (hostile10)") {
  // -1 read the pointer before the first migration as SQL ("near Mann:
  // syntax error"), -2 crashed: every command that migrates, and merge.
  test::TempDir dir;
  const std::string path = dir.file("negative.db");
  REQUIRE(test::exec_raw(path, "CREATE TABLE t (x); PRAGMA user_version = -2"));
  const std::string why = path +
                          ": database schema version -2 is no version of schedlab's (they count "
                          "up from 1: a damaged or crafted database); nothing written";
  CHECK_THROWS_WITH(Store(path), why);
  CHECK_THROWS_WITH(Store(path, Store::Access::kReadOnly), why);
  CHECK_THROWS_WITH(Store(dir.file("out.db")).merge_from(path),
                    path +
                        ": database schema version -2 is no version of schedlab's (a damaged "
                        "or crafted database); nothing merged");
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
