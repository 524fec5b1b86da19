// A crafted input database for a fuzz target: each line of the input is an
// SQL statement run on a copy of a real task database (merge_fuzz.cc,
// export_fuzz.cc). The statements run under an authorizer that only lets
// them change this one file (no ATTACH, no VACUUM INTO, no extension),
// within SQLite's length limits and a step budget.
#pragma once

#include <sqlite3.h>

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace schedlab::fuzz {

// Statements may change the file's own tables and schema, nothing else.
inline int authorize(void*, int action, const char* a, const char*, const char*, const char*) {
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
    case SQLITE_CREATE_VTABLE:
    case SQLITE_DROP_VTABLE:
      return SQLITE_DENY;
    case SQLITE_PRAGMA: {
      const std::string_view p = a ? a : "";
      return p == "user_version" || p == "writable_schema" || p == "ignore_check_constraints"
                 ? SQLITE_OK
                 : SQLITE_DENY;
    }
    case SQLITE_FUNCTION: {
      const std::string_view f = a ? a : "";
      return f == "load_extension" ? SQLITE_DENY : SQLITE_OK;
    }
    default:
      return SQLITE_OK;
  }
}

// Runs each line of SQL on the input database; errors are the input's own.
inline void craft(const std::filesystem::path& db, std::string_view sql) {
  sqlite3* h = nullptr;
  if (sqlite3_open(db.c_str(), &h) != SQLITE_OK) std::abort();
  sqlite3_limit(h, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_limit(h, SQLITE_LIMIT_SQL_LENGTH, 1 << 16);
  sqlite3_set_authorizer(h, authorize, nullptr);
  // A recursive query with no end is the input's, not merge's, hang.
  int steps = 0;
  sqlite3_progress_handler(
      h, 1000, [](void* n) { return ++*static_cast<int*>(n) > 1000 ? 1 : 0; }, &steps);
  for (std::size_t at = 0; at < sql.size();) {
    std::size_t nl = sql.find('\n', at);
    if (nl == std::string_view::npos) nl = sql.size();
    std::string line(sql.substr(at, nl - at));
    at = nl + 1;
    // VACUUM INTO writes another file; plain VACUUM is harmless but slow.
    std::string lower = line;
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower.find("vacuum") != std::string::npos) continue;
    sqlite3_exec(h, line.c_str(), nullptr, nullptr, nullptr);
  }
  sqlite3_close(h);
}

}  // namespace schedlab::fuzz
