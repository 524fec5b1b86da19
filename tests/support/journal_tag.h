// A journal row edited by SQL behind the Store's back, then given the tag
// schedlab would have journaled it with (results/knob_journal_table.h:
// journal_row_tag, under this user's secret): a row as this user's schedlab
// would have written it, for tests of what restore does with such a row's
// fields. A crafted row without it is another user's (hostile15 S3).
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "results/knob_journal_table.h"

namespace schedlab::test {

inline void tag_journal_row(const std::string& path, std::int64_t id) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(
      sqlite3_prepare_v2(db,
                         "SELECT coalesce(run_id, 0), host, kind, name, path, original, target, "
                         "machine_id, boot_id, hostname FROM knob_journal WHERE id = ?",
                         -1, &s, nullptr) == SQLITE_OK);
  sqlite3_bind_int64(s, 1, id);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  const auto text = [&](int col) {
    const auto* t = sqlite3_column_text(s, col);
    return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
  };
  const JournalEntry e{.run_id = sqlite3_column_int64(s, 0),
                       .host = text(1),
                       .kind = text(2),
                       .name = text(3),
                       .path = text(4),
                       .original = text(5),
                       .target = text(6),
                       .machine_id = text(7),
                       .boot_id = text(8),
                       .hostname = text(9)};
  sqlite3_finalize(s);
  REQUIRE(sqlite3_prepare_v2(db, "UPDATE knob_journal SET local_tag = ? WHERE id = ?", -1, &s,
                             nullptr) == SQLITE_OK);
  sqlite3_bind_int64(s, 1, journal_row_tag(e));
  sqlite3_bind_int64(s, 2, id);
  REQUIRE(sqlite3_step(s) == SQLITE_DONE);
  sqlite3_finalize(s);
  sqlite3_close(db);
}

}  // namespace schedlab::test
