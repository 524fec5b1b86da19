// What a schedlab run started, found by its own names: the work
// directories its knob journal recorded (mktemp names, unique to the run)
// and the processes whose command line names them. A test checks its own
// servers this way, never "no postgres runs on this machine".
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "runner/hosts/local_host.h"

namespace schedlab::test {

// The run's work directories as its knob journal recorded them (mktemp
// names: this test's own, whatever else runs on the machine).
inline std::vector<std::string> workdirs(const std::string& db, std::int64_t run_id) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, "SELECT path FROM knob_journal WHERE run_id = ? AND kind = 'workdir'", -1,
                             &st, nullptr) == SQLITE_OK);
  sqlite3_bind_int64(st, 1, run_id);
  std::vector<std::string> out;
  while (sqlite3_step(st) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

// Processes whose command line names one of these directories: the servers
// schedlab started for this run, and nothing else on the machine.
inline std::string processes_in(const std::vector<std::string>& dirs) {
  LocalHost local;
  std::string out;
  for (const auto& d : dirs) out += local.run({.argv = {"pgrep", "-a", "-f", "--", d}}).out;
  return out;
}


}  // namespace schedlab::test
