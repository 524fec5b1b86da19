#include "results/database.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "base/file.h"
#include "base/text.h"
#include "results/migrations.h"
#include "results/sqlite_stmt.h"

namespace schedlab {

using sql::Stmt;
using sql::Transaction;

namespace {

// Why this user cannot write the database at PATH, or "": the file itself,
// or the folder where SQLite must make its WAL files (FILE-wal, FILE-shm)
// when they are not there to write already. SQLite follows a link at PATH
// (or on the way) and makes them beside the file it names: that file and
// its folder are the ones checked (a link in a folder this user may not
// write, to a file in one it may, was refused, naming the link's folder:
// hostile15). Checked for the effective user, who opens the file.
std::string read_only_reason(const std::string& path) {
  const auto writable = [](const std::string& p, int mode) {
    return ::faccessat(AT_FDCWD, p.c_str(), mode, AT_EACCESS) == 0;
  };
  if (!writable(path, W_OK))
    return fmt::format("the file cannot be written: {}", std::strerror(errno));
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(path, ec);
  const std::string file = ec ? path : real.string();
  if (writable(file + "-wal", W_OK) && writable(file + "-shm", W_OK)) return "";
  std::string dir = std::filesystem::path(file).parent_path().string();
  if (dir.empty()) dir = ".";
  if (!writable(dir, W_OK | X_OK)) {
    const int err = errno;
    return fmt::format(
        "its folder {} cannot be written, where SQLite makes its -wal and -shm "
        "files: {}",
        terminal_safe(dir), std::strerror(err));
  }
  return "";
}

// SQLITE_CANTOPEN at a write open's first statements: SQLite could not open
// the -wal or -shm file beside the database (it opens neither through a
// link), said in plain words rather than as the statement it prepared.
std::string cannot_open(const std::string& path) {
  for (const char* suffix : {"-wal", "-shm"}) {
    struct stat st {};
    const std::string side = path + suffix;
    if (::lstat(side.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
      return fmt::format(
          "{}: cannot open database: {} is a symbolic link, and SQLite opens its -wal and -shm "
          "files through none; nothing written (remove the link: SQLite makes the file anew)",
          path, side);
  }
  return fmt::format(
      "{}: cannot open database: SQLite cannot open or make its -wal or -shm file beside it; "
      "nothing written",
      path);
}

}  // namespace

Database::Database(const std::string& path, Access access) : path_(path) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  // A loop of links is no missing database (hostile16: "no database at").
  if (!exists && errno == ELOOP)
    throw StoreError(fmt::format(
        "{}: cannot be resolved: a loop of symbolic links (or too many of them); no database "
        "read or written",
        path));
  if (access != Access::kCreate && !exists)
    throw StoreError(fmt::format("no database at {} (run 'schedlab run CONFIG' first)", path));
  // SQLite would wait forever on a FIFO, and read a device as a database.
  if (exists && !S_ISREG(st.st_mode))
    throw StoreError(fmt::format("{}: not a regular file ({}); a database is one", path,
                                 file_type_name(st.st_mode)));
  if (access == Access::kReadOnly) {
    open_read_only();
    return;
  }
  if (exists)
    if (const std::string why = read_only_reason(path); !why.empty())
      throw ReadOnlyDatabase(path, why);
  // As a URI (every byte escaped: any path is a file name), so that merge
  // may ATTACH its inputs read-only (store_merge.cc).
  if (sqlite3_open_v2(sql::file_uri(path, "").c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                      nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StoreError(fmt::format("{}: cannot open database: {}", path, msg));
  }
  sqlite3_busy_timeout(db_, static_cast<int>(kWriteLockWait.count()));
  try {
    // Two processes opening a new file at once can deadlock on its first
    // locks (switching to WAL needs an exclusive one), and SQLite then
    // reports SQLITE_BUSY at once rather than waiting: try again, briefly.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (true) {
      try {
        refuse_foreign();
        // WAL: readers (compare) never block the writer (run), and each
        // committed iteration is durable on its own.
        exec("PRAGMA journal_mode = WAL");
        exec("PRAGMA synchronous = NORMAL");
        // Migrations may rebuild a table others reference (SQLite's
        // documented procedure): foreign keys are enforced from here on.
        migrate();
        exec("PRAGMA foreign_keys = ON");
        break;
      } catch (const StoreError&) {
        if ((sqlite3_errcode(db_) & 0xff) == SQLITE_CANTOPEN) throw StoreError(cannot_open(path_));
        if ((sqlite3_errcode(db_) & 0xff) != SQLITE_BUSY ||
            std::chrono::steady_clock::now() > deadline)
          throw;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

namespace sql {

std::string file_uri(const std::string& path, const char* query) {
  // "file://" and an empty authority before an absolute path: "//x" is then
  // a path, not a host.
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::strchr("/-._~", c))
      uri += static_cast<char>(c);
    else
      uri += fmt::format("%{:02X}", c);
  }
  return uri + query;
}

ReadOnly open_read_only(const std::string& path) {
  // mode=ro first: it sees a live run's WAL. Where SQLite cannot even read
  // the WAL index (a read-only mount, a -shm it may not create), the file
  // is opened as immutable: nothing can be writing it there.
  std::string why = "out of memory";
  for (const char* query : {"?mode=ro", "?mode=ro&immutable=1"}) {
    sqlite3* db = nullptr;
    const std::string uri = file_uri(path, query);
    if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) ==
        SQLITE_OK) {
      sqlite3_busy_timeout(db, 5000);
      sqlite3_stmt* probe = nullptr;
      const bool ok = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &probe,
                                         nullptr) == SQLITE_OK &&
                      sqlite3_step(probe) == SQLITE_ROW;
      sqlite3_finalize(probe);
      if (ok) return {db, uri};
    }
    if (db) why = sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  throw StoreError(fmt::format("{}: cannot open database: {}", path, why));
}

}  // namespace sql

namespace {

// A file of tables whose user_version is 0: another program's database, or
// a copy of a schedlab database without its version (sqlite3's .dump writes
// no PRAGMA user_version). Said alike whether it was to be read or written.
std::string unversioned(const std::string& path, const char* nothing) {
  return fmt::format(
      "{}: not a schedlab database (a SQLite database of another program, or a copy of one of "
      "schedlab's that lost its schema version, as sqlite3's .dump does: it has tables but no "
      "schedlab schema version); nothing {}",
      path, nothing);
}

}  // namespace

void Database::open_read_only() {
  db_ = sql::open_read_only(path_).db;
  try {
    if (const std::string why = foreign_schema(db_); !why.empty())
      throw StoreError(
          fmt::format("{}: {} (a damaged or crafted database); nothing read", path_, why));
    const int v = schema_version();
    if (v > kSchemaVersion)
      throw StoreError(fmt::format(
          "{}: database schema version {} is newer than this schedlab ({}); use a newer schedlab",
          path_, v, kSchemaVersion));
    if (v == 0) {
      // Tables but no version: no write migrates it (refuse_foreign), so
      // the advice below would be false.
      Stmt tables(db_, "SELECT count(*) FROM sqlite_master");
      tables.step();
      if (tables.i64(0) > 0) throw StoreError(unversioned(path_, "read"));
    }
    if (v < kSchemaVersion)
      throw StoreError(fmt::format(
          "{}: database schema version {} is older than this schedlab ({}); a command that "
          "writes (schedlab restore) migrates it",
          path_, v, kSchemaVersion));
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Database::~Database() {
  sqlite3_close(db_);
}

void Database::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw StoreError(fmt::format("{}: {}", path_, msg));
  }
}

namespace {

using Columns = std::set<std::pair<std::string, std::string>>;

// Every (table, column) of a database's own tables.
Columns columns_of(sqlite3* db) {
  Stmt s(db,
         "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
         "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'");
  Columns out;
  while (s.step()) out.emplace(s.text(0), s.text(1));
  return out;
}

// Runs each of schedlab's migrations in turn in an empty in-memory
// database, calling after(db) after each one.
void migrate_in_memory(const std::function<void(sqlite3*)>& after) {
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) throw StoreError("sqlite: out of memory");
  struct Close {
    sqlite3* db;
    ~Close() { sqlite3_close(db); }
  } close{db};
  for (const char* migration : migrations()) {
    if (sqlite3_exec(db, migration, nullptr, nullptr, nullptr) != SQLITE_OK)
      throw StoreError(fmt::format("sqlite: the schema: {}", sqlite3_errmsg(db)));
    after(db);
  }
}

// This binary's schema, as the migrations make it in an empty database.
const Columns& current_columns() {
  static const Columns columns = [] {
    Columns last;
    migrate_in_memory([&](sqlite3* db) { last = columns_of(db); });
    return last;
  }();
  return columns;
}

// What schedlab's migrations ever make, at any version: the triggers (name
// and SQL text as SQLite keeps it) and the names of the tables.
struct OwnSchema {
  std::set<std::pair<std::string, std::string>> triggers;
  std::set<std::string> tables;
  std::set<std::pair<std::string, std::string>> indexes;
  // The most of each check_words word a table's text ever held, and each
  // column's default.
  std::map<std::string, std::array<std::size_t, 5>> checks;
  std::map<std::string, std::set<std::string>> check_texts;
  std::set<std::tuple<std::string, std::string, std::string>> defaults;
  // Each column's shape and each table's unique keys, at any version.
  std::set<std::tuple<std::string, std::string, std::string>> shapes;
  std::set<std::pair<std::string, std::string>> unique_keys;
};

// CHECK, ON CONFLICT and foreign key actions in a table's text (a quoted name
// holding the words counts too: never fewer than the clauses). An ON CONFLICT
// REPLACE deletes rows as schedlab writes others (the knob journal's, by a
// crafted UNIQUE); ON DELETE CASCADE the journal's rows of a removed run.
std::array<std::size_t, 5> check_words(const std::string& sql) {
  const std::string text = ascii_lower(sql);
  std::array<std::size_t, 5> n{};
  std::size_t i = 0;
  for (const char* word : {"check", "conflict", "cascade", "set null", "set default"}) {
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n[i];
    ++i;
  }
  return n;
}

// Each "check" in a table's text with the parenthesised expression after it
// (a "check" followed by anything else, a comment say, gives "?"): held
// against the CHECKs schedlab wrote, so none is swapped for another.
std::vector<std::string> check_clauses(const std::string& sql) {
  const std::string text = ascii_lower(sql);
  std::vector<std::string> out;
  for (auto at = text.find("check"); at != std::string::npos; at = text.find("check", at + 1)) {
    std::size_t i = at + 5;
    while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
    if (i >= sql.size() || sql[i] != '(') {
      out.push_back("?");
      continue;
    }
    const std::size_t start = i;
    int depth = 0;
    char quote = 0;
    for (; i < sql.size(); ++i) {
      const char c = sql[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        break;
      }
    }
    out.push_back(sql.substr(start, i + 1 - start));
  }
  return out;
}

bool more_words(const std::array<std::size_t, 5>& have, const std::array<std::size_t, 5>& most) {
  for (std::size_t i = 0; i < have.size(); ++i)
    if (have[i] > most[i]) return true;
  return false;
}

// Whether a default (as pragma table_xinfo gives it, without its parentheses)
// calls a function: a '(' outside its quoted strings. A literal never does,
// and without a call an expression costs nothing.
bool calls_a_function(const std::string& value) {
  bool quoted = false;
  for (const char c : value) {
    if (c == '\'') quoted = !quoted;
    if (c == '(' && !quoted) return true;
  }
  return false;
}

// (table, column, default) of a database's tables; a generated column's
// default is "generated". TABLES: only those, when not empty.
std::set<std::tuple<std::string, std::string, std::string>> defaults_of(
    sqlite3* db, const std::set<std::string>& tables = {}) {
  Stmt q(db,
         "SELECT m.name, lower(m.name), p.name, CASE WHEN p.hidden IN (2, 3) THEN 'generated' "
         "ELSE coalesce(p.dflt_value, '') END FROM sqlite_master m, pragma_table_xinfo(m.name) p "
         "WHERE m.type = 'table'");
  std::set<std::tuple<std::string, std::string, std::string>> out;
  while (q.step())
    if (tables.empty() || tables.count(q.text(0))) out.emplace(q.text(1), q.text(2), q.text(3));
  return out;
}

// (table, column, shape) of the database's TABLES, names in lower case: the
// declared type, NOT NULL, the place in the primary key and the collation.
// A statement a table named: a pragma over every table's costs each process
// a pragma statement a table at each migration of own_schema.
std::set<std::tuple<std::string, std::string, std::string>> shapes_of(
    sqlite3* db, const std::set<std::string>& tables) {
  std::set<std::tuple<std::string, std::string, std::string>> out;
  Stmt q(db, "SELECT name, upper(type), \"notnull\", pk FROM pragma_table_info(?)");
  for (const std::string& table : tables) {
    q.reset();
    q.bind(1, table);
    while (q.step()) {
      const char* collation = nullptr;
      if (sqlite3_table_column_metadata(db, "main", table.c_str(), q.text(0).c_str(), nullptr,
                                        &collation, nullptr, nullptr, nullptr) != SQLITE_OK)
        collation = "?";
      out.emplace(ascii_lower(table), ascii_lower(q.text(0)),
                  fmt::format("{} {} {} {}", q.text(1), q.i64(2), q.i64(3),
                              ascii_lower(collation ? collation : "binary")));
    }
  }
  return out;
}

// (table, key) of each unique index of the database's TABLES, whatever made
// it (a UNIQUE or PRIMARY KEY clause, CREATE UNIQUE INDEX): its columns with
// their collations; "without rowid" for such a table.
std::set<std::pair<std::string, std::string>> unique_keys_of(sqlite3* db,
                                                             const std::set<std::string>& tables) {
  std::set<std::pair<std::string, std::string>> out;
  Stmt q(db,
         "SELECT l.name, x.name, x.coll FROM pragma_index_list(?) l, pragma_index_xinfo(l.name) x "
         "WHERE l.\"unique\" AND x.key ORDER BY l.name, x.seqno");
  for (const std::string& table : tables) {
    q.reset();
    q.bind(1, table);
    std::map<std::string, std::string> keys;
    while (q.step()) keys[q.text(0)] += ascii_lower(q.text(1)) + " " + ascii_lower(q.text(2)) + ",";
    for (const auto& [index, key] : keys) out.emplace(ascii_lower(table), key);
  }
  Stmt w(db, "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND wr");
  while (w.step())
    if (tables.count(w.text(0))) out.emplace(ascii_lower(w.text(0)), "without rowid");
  return out;
}

const OwnSchema& own_schema() {
  static const OwnSchema own = [] {
    OwnSchema s;
    // Every process that opens a database makes this once: a table's text
    // is read again only when a migration changed it (ALTER TABLE rewrites
    // it), which also says when its defaults and columns may have changed;
    // its unique keys, also when an index was made.
    std::set<std::pair<std::string, std::string>> tables_seen;
    migrate_in_memory([&](sqlite3* db) {
      std::set<std::string> changed, keyed;
      Stmt q(db, "SELECT type, name, coalesce(sql, ''), tbl_name FROM sqlite_master");
      while (q.step())
        if (q.text(0) == "trigger") {
          s.triggers.emplace(q.text(1), q.text(2));
        } else if (q.text(0) == "index") {
          if (s.indexes.emplace(q.text(1), q.text(2)).second) keyed.insert(q.text(3));
        } else if (q.text(0) == "table") {
          s.tables.insert(q.text(1));
          if (!tables_seen.emplace(q.text(1), q.text(2)).second) continue;
          changed.insert(q.text(1));
          auto& most = s.checks[q.text(1)];
          const auto words = check_words(q.text(2));
          for (std::size_t i = 0; i < most.size(); ++i) most[i] = std::max(most[i], words[i]);
          for (auto& clause : check_clauses(q.text(2)))
            s.check_texts[q.text(1)].insert(std::move(clause));
        }
      if (changed.empty() && keyed.empty()) return;
      keyed.insert(changed.begin(), changed.end());
      s.unique_keys.merge(unique_keys_of(db, keyed));
      if (changed.empty()) return;
      s.defaults.merge(defaults_of(db, changed));
      s.shapes.merge(shapes_of(db, changed));
    });
    return s;
  }();
  return own;
}

}  // namespace

std::string Database::foreign_schema(sqlite3* db) {
  // A trigger runs on schedlab's own writes (an endless recursive one hung
  // rm; one could rewrite the knob journal as a run writes it), and a view
  // or virtual table in a table's place is read as it (an endless view hung
  // compare and list: hostile12). Other views and indexes are never read
  // or run by schedlab, and are left alone.
  // So do an index's expressions and WHERE, and a CHECK, a default or a
  // generated column in one of schedlab's tables: an index on an endless
  // instr() hung import (hostile13). An index of plain columns is left alone.
  const OwnSchema& own = own_schema();
  // The indexes on an expression or with a WHERE, in one statement: one
  // statement an index (pragma index_list lists all of its table's) took
  // time squared in their number, 24 s for 4000 plain indexes (hostile14).
  std::set<std::string> computed;
  for (Stmt x(db,
              "SELECT m.name FROM sqlite_master m, pragma_index_xinfo(m.name) x "
              "WHERE m.type = 'index' AND x.cid = -2 UNION SELECT l.name FROM sqlite_master m, "
              "pragma_index_list(m.name) l WHERE m.type = 'table' AND l.partial");
       x.step();)
    computed.insert(x.text(0));
  Stmt s(db, "SELECT type, name, coalesce(sql, ''), tbl_name FROM sqlite_master");
  std::set<std::string> own_named;  // schedlab's tables, as this database names them
  while (s.step()) {
    const std::string type = s.text(0), name = s.text(1), text = s.text(2);
    if (type == "table" && own.tables.count(ascii_lower(name))) own_named.insert(name);
    if (type == "trigger" && !own.triggers.count({name, text}))
      return fmt::format(
          "it has a trigger '{}' that schedlab did not make (it would run on "
          "schedlab's writes)",
          terminal_safe(excerpt(name, 60)));
    if (type == "index" && !text.empty() && !own.indexes.count({name, text}) &&
        computed.count(name))
      return fmt::format(
          "it has an index '{}' on an expression or with a WHERE that schedlab did not make "
          "(it would run on schedlab's writes)",
          terminal_safe(excerpt(name, 60)));
    if (type == "table" && own.tables.count(ascii_lower(name)) &&
        (more_words(check_words(text), own.checks.at(ascii_lower(name))) ||
         std::ranges::any_of(check_clauses(text), [&](const std::string& clause) {
           return !own.check_texts.count(ascii_lower(name)) ||
                  !own.check_texts.at(ascii_lower(name)).count(clause);
         })))
      return fmt::format(
          "its table '{}' has a CHECK, ON CONFLICT or foreign key action that schedlab did not "
          "make (it would run on schedlab's writes)",
          terminal_safe(name));
    // SQLite's names are case-blind: a view "Samples" is read as samples.
    if (own.tables.count(ascii_lower(name)) &&
        (type != "table" || text.starts_with("CREATE VIRTUAL")))
      return fmt::format("its '{}' is a {}, not schedlab's table", terminal_safe(name),
                         type == "table" ? "virtual table" : type);
  }
  // A column's type, NOT NULL, key or collation, and a table's unique keys,
  // as schedlab made them at some version: a name matched under NOCASE made
  // `rm SECOND` remove run 'second', an id that is no rowid (INT PRIMARY
  // KEY) left every knob journal row open, and a UNIQUE index made INSERT OR
  // REPLACE delete other runs' rows (hostile14).
  std::set<std::pair<std::string, std::string>> own_columns;
  for (const auto& [table, column, shape] : own.shapes) own_columns.emplace(table, column);
  for (const auto& [table, column, shape] : shapes_of(db, own_named)) {
    if (own_columns.count({table, column}) && !own.shapes.count({table, column, shape}))
      return fmt::format(
          "its table '{}' has a column '{}' of a type, key or collation schedlab did not make "
          "({}: it would change what schedlab's statements do)",
          terminal_safe(table), terminal_safe(column), terminal_safe(excerpt(shape, 60)));
    // A column of one of SQLite's names for the rowid hides it: `ORDER BY
    // rowid` then reads that column (hostile14 #7).
    if (!own_columns.count({table, column}) &&
        (column == "rowid" || column == "oid" || column == "_rowid_"))
      return fmt::format(
          "its table '{}' has a column '{}', a name SQLite gives the row id (schedlab reads rows "
          "in row id order: it would change that order)",
          terminal_safe(table), terminal_safe(column));
  }
  for (const auto& [table, key] : unique_keys_of(db, own_named))
    if (!own.unique_keys.count({table, key}))
      return fmt::format(
          "its table '{}' has a unique key or layout schedlab did not make ({}: it would change "
          "what schedlab's writes keep)",
          terminal_safe(table), terminal_safe(excerpt(key, 60)));
  for (const auto& [table, column, value] : defaults_of(db))
    if (own.tables.count(table) && (value == "generated" || calls_a_function(value)) &&
        !own.defaults.count({table, column, value}))
      return fmt::format(
          "its table '{}' has a column '{}' {} that schedlab did not make (it would run on "
          "schedlab's writes)",
          table, terminal_safe(column),
          value == "generated" ? "generated from an expression" : "with a computed default");
  return "";
}

std::string Database::schema_mismatch(sqlite3* db) {
  const Columns have = columns_of(db);
  std::set<std::string> tables;
  for (const auto& [table, column] : have) tables.insert(table);
  for (const auto& [table, column] : current_columns()) {
    if (!tables.count(table)) return fmt::format("no table {}", table);
    if (!have.count({table, column}))
      return fmt::format("table {} has no column {}", table, column);
  }
  return "";
}

int Database::schema_version() const {
  Stmt s(db_, "PRAGMA user_version");
  s.step();
  const int v = static_cast<int>(s.i64(0));
  // Versions count up from 0 and index the migrations: a negative one (a
  // crafted file) read memory before them as SQL, or crashed (hostile10).
  if (v < 0)
    throw StoreError(fmt::format(
        "{}: database schema version {} is no version of schedlab's (they count up from 1: a "
        "damaged or crafted database); nothing written",
        path_, v));
  return v;
}

void Database::refuse_foreign() {
  // A new or empty file gets the schema; another program's database (tables
  // but no schema version of ours) is left as it is, before anything (the
  // journal mode) is written. One statement, one snapshot: a schedlab
  // process creating the file meanwhile commits its tables and version
  // together.
  Stmt s(db_,
         "SELECT (SELECT user_version FROM pragma_user_version), "
         "(SELECT count(*) FROM sqlite_master)");
  s.step();
  if (s.i64(0) == 0 && s.i64(1) > 0) throw StoreError(unversioned(path_, "written"));
  // Before any migration writes (and fires what it holds).
  if (const std::string why = foreign_schema(db_); !why.empty())
    throw StoreError(
        fmt::format("{}: {} (a damaged or crafted database); nothing written", path_, why));
}

void Database::migrate() {
  // The version is read inside the write transaction: two processes opening
  // a new database at once (a runner and a reader) must not both run
  // migration 1 ("table runs already exists").
  while (true) {
    Transaction tx(db_);
    const int v = schema_version();
    if (v > kSchemaVersion)
      throw StoreError(fmt::format(
          "{}: database schema version {} is newer than this schedlab ({}); use a newer schedlab",
          path_, v, kSchemaVersion));
    if (v == kSchemaVersion) return;  // nothing written: the rollback is a no-op
    exec(migrations()[v]);
    exec(fmt::format("PRAGMA user_version = {}", v + 1).c_str());
    tx.commit();
  }
}

}  // namespace schedlab
