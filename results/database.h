// The store's connection and schema: one SQLite file opened in one of three
// access modes, and brought to this binary's schema by the numbered
// migrations (migrations.h) on open. The tables (runs_table.h, ...) are
// read and written over its handle; Store holds them together.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <string>

#include "results/store_error.h"

namespace schedlab {

class Database {
 public:
  // kCreate: opens (creating if needed) and migrates the database.
  // kExisting: the same, but a missing file is an error, not a new database.
  // kReadOnly: for commands that only read (list, compare, schedstat;
  // history where it cannot write): no migration, no journal switch, nothing written; works on
  // a 0444 file and on a read-only mount.
  // Every mode refuses a database whose schema is newer than this binary; a
  // missing file reads "no database at PATH (run 'schedlab run CONFIG' first)".
  enum class Access { kCreate, kExisting, kReadOnly };
  Database(const std::string& path, Access access);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  static constexpr int kSchemaVersion = 19;
  // How long a write waits for another writer's lock (SQLite's busy
  // timeout) before it fails: a merge holds the lock for its whole input,
  // seconds for a million samples, and a run's journal writes must wait for
  // it rather than fail (a knob put back but still journaled `applied`).
  // Read-only connections wait 5 s (WAL readers are not blocked by writers).
  static constexpr std::chrono::milliseconds kWriteLockWait{10 * 60 * 1000};
  int schema_version() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }
  // Runs SQL without parameters (schema, pragmas); a failure names the file.
  void exec(const char* sql);
  // "" when db has every table and column of this binary's schema, else
  // what it lacks ("table runs has no column status"); for merge's inputs.
  static std::string schema_mismatch(sqlite3* db);
  // "" when db holds no trigger schedlab's migrations do not make and
  // none of schedlab's tables is a view or a virtual table, else which
  // ("it has a trigger 'x' that schedlab did not make ..."). Every open
  // refuses such a database, before reading or migrating it.
  static std::string foreign_schema(sqlite3* db);

 private:
  void migrate();
  void refuse_foreign();
  void open_read_only();

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace schedlab
