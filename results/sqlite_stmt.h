// The SQLite wrappers the store's files share: a prepared statement that
// finalizes itself, a write transaction rolled back unless committed, and
// triggers switched off for a bulk insert, and the readers of the columns
// every table has (a status word, a nullable REAL). Internal to results/
// (the tables, database.cc, store_merge.cc).
#pragma once

#include <fmt/format.h>
#include <sqlite3.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/sample_range.h"
#include "base/text.h"
#include "results/status.h"
#include "results/store_error.h"

namespace schedlab::sql {

// A URI for sqlite3_open_v2 (SQLITE_OPEN_URI) and ATTACH: every byte of the
// path but the unreserved ones escaped; QUERY is "" or "?key=value...".
std::string file_uri(const std::string& path, const char* query);

// A database opened so that nothing is ever written to it (no journal
// rollback, no checkpoint): mode=ro, or immutable where SQLite cannot
// share the WAL index (a read-only mount). uri is what opened it, for an
// ATTACH of the same file. Throws StoreError "PATH: cannot open database:
// WHY" (not SQLite's file, say). The caller closes db.
struct ReadOnly {
  sqlite3* db;
  std::string uri;
};
ReadOnly open_read_only(const std::string& path);

// What an error names: the database's file (SQLite's absolute path), so
// "file is not a database" says which file; "sqlite" for one in memory.
inline std::string database_name(sqlite3* db) {
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  return file && *file ? file : "sqlite";
}

// A prepared statement that finalizes itself; binds by 1-based index.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
      throw StoreError(fmt::format("{}: {} ({})", database_name(db), sqlite3_errmsg(db), sql));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(s_, i, v)); }
  Stmt& bind(int i, int v) { return check(sqlite3_bind_int64(s_, i, v)); }
  Stmt& bind(int i, double v) { return check(sqlite3_bind_double(s_, i, v)); }
  Stmt& bind(int i, const std::string& v) {
    return check(sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Stmt& bind_null(int i) { return check(sqlite3_bind_null(s_, i)); }
  template <typename T>
  Stmt& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bind_null(i);
  }

  // True while there is a row.
  bool step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw StoreError(fmt::format("{}: {}", database_name(db_), sqlite3_errmsg(db_)));
  }
  void run() {
    while (step()) {
    }
  }
  // Ready to bind and run again (bindings are replaced one by one).
  void reset() { sqlite3_reset(s_); }

  std::int64_t i64(int col) const { return sqlite3_column_int64(s_, col); }
  double dbl(int col) const { return sqlite3_column_double(s_, col); }
  bool is_null(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL:
  // ask before any other accessor of the column, which may convert it.
  int type(int col) const { return sqlite3_column_type(s_, col); }
  std::string text(int col) const { return std::string(view(col)); }
  // Valid until the next step, reset or column call on this column.
  std::string_view view(int col) const {
    auto p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string_view(p, sqlite3_column_bytes(s_, col)) : std::string_view();
  }

 private:
  Stmt& check(int rc) {
    if (rc != SQLITE_OK) throw StoreError(fmt::format("{}: bind: {}", database_name(db_), sqlite3_errmsg(db_)));
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

// Every row of SQL, its parameters bound to ARGS in order, each read by
// READ (a table's row reader: const Stmt& -> the row's value).
template <typename Read, typename... Args>
auto rows(sqlite3* db, const std::string& sql, Read read, const Args&... args) {
  Stmt s(db, sql.c_str());
  [[maybe_unused]] int at = 0;
  (s.bind(++at, args), ...);
  std::vector<std::decay_t<std::invoke_result_t<Read&, const Stmt&>>> out;
  while (s.step()) out.push_back(read(s));
  return out;
}

// BEGIN IMMEDIATE ... COMMIT, rolled back if not committed. Inside another
// transaction (a caller's Store::WriteBatch) it is a savepoint of it: its
// writes become final only with the outer commit.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db), nested_(sqlite3_get_autocommit(db) == 0) {
    exec(nested_ ? "SAVEPOINT schedlab_tx" : "BEGIN IMMEDIATE");
  }
  ~Transaction() {
    if (done_) return;
    if (nested_) {
      sqlite3_exec(db_, "ROLLBACK TO schedlab_tx", nullptr, nullptr, nullptr);
      sqlite3_exec(db_, "RELEASE schedlab_tx", nullptr, nullptr, nullptr);
    } else {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    exec(nested_ ? "RELEASE schedlab_tx" : "COMMIT");
    done_ = true;
  }

 private:
  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown error";
      sqlite3_free(err);
      throw StoreError(fmt::format("{}: {}: {}", database_name(db_), sql, msg));
    }
  }
  sqlite3* db_;
  bool nested_ = false;
  bool done_ = false;
};

// Triggers off on this connection while it lives, for statements prepared
// meanwhile (SQLite codes triggers in at prepare time; switching them back
// on expires those statements). For a bulk insert whose triggers' work the
// caller has already done: a row trigger costs a million-row insert a third
// of its time. Other connections, and this one afterwards, keep them.
class TriggersOff {
 public:
  explicit TriggersOff(sqlite3* db) : db_(db) { set(0); }
  ~TriggersOff() { sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 1, nullptr); }
  TriggersOff(const TriggersOff&) = delete;
  TriggersOff& operator=(const TriggersOff&) = delete;

 private:
  void set(int on) {
    if (sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, nullptr) != SQLITE_OK)
      throw StoreError(fmt::format("{}: cannot switch triggers: {}", database_name(db_), sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
};

// A status word read back, as its enum (results/status.h): a word that is
// none of ours is a StoreError naming the vocabulary.
template <typename E>
E known(std::optional<E> value, std::string_view word, const char* vocabulary) {
  if (!value) throw StoreError(fmt::format("unknown {} '{}' in the database", vocabulary, word));
  return *value;
}

// A status enum as the word the database keeps.
template <typename E>
std::string word(E s) {
  return std::string(to_string(s));
}

// A number column as a double, NaN when it holds no number (text, a blob,
// NULL: a crafted database), for a caller that then refuses non-finite
// values and would otherwise read 0 (what SQLite makes of them).
inline double number_or_nan(const Stmt& s, int col) {
  const int t = s.type(col);
  return t == SQLITE_INTEGER || t == SQLITE_FLOAT ? s.dbl(col)
                                                  : std::numeric_limits<double>::quiet_NaN();
}

// What column col holds when it is no number ("text 'abc'", "a blob of 3
// bytes", "NULL"), for the message that refuses it: number_or_nan's NaN
// alone would say "nan is not finite", not what the row holds. Nothing for
// a number.
inline std::optional<std::string> stored_non_number(const Stmt& s, int col) {
  switch (s.type(col)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      return std::nullopt;
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_BLOB:
      return fmt::format("a blob of {} bytes", s.view(col).size());
    default:
      return fmt::format("text '{}'", terminal_safe(excerpt(s.view(col))));
  }
}

// Why a sample or a counter's value is refused: the column held no number
// (NON_NUMBER, stored_non_number's words: "its value is text 'abc', not a
// number"), else base/sample_range.h's reason for VALUE; nothing for one
// the range takes.
inline std::optional<std::string> value_problem(double value,
                                                const std::optional<std::string>& non_number) {
  if (non_number) return fmt::format("its value is {}, not a number", *non_number);
  return sample_out_of_range(value);
}

// Why column col holds no int ("is not a whole number", "4294967296 is out
// of range"), or nothing when it holds one.
inline std::optional<std::string> int_problem(const Stmt& s, int col) {
  if (s.type(col) != SQLITE_INTEGER) return "is not a whole number";
  const std::int64_t v = s.i64(col);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    return fmt::format("{} is out of range", v);
  return std::nullopt;
}

// An int column (an iteration's number, its exit code, a position) read
// whole: a value past an int, or one that is no integer (text, 2.5), is a
// StoreError naming the row ("iterations row 7: exit_code ...", a crafted or
// damaged database), never cut to its low 32 bits or read as 0.
inline int int_column(const Stmt& s, int col, std::string_view table, std::int64_t row_id,
                      std::string_view column) {
  if (const auto why = int_problem(s, col))
    throw StoreError(fmt::format("{} row {}: {} {} (a damaged or crafted database)", table, row_id,
                                 column, *why));
  return static_cast<int>(s.i64(col));
}

// A REAL column that may be NULL.
inline std::optional<double> opt_dbl(const Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.dbl(col);
}

}  // namespace schedlab::sql
