// libFuzzer target: `schedlab merge` of a crafted input database. The input
// is either a database file's bytes (it starts with SQLite's header) or SQL
// statements, one a line, run on a copy of a real task database (a run of
// two variants with samples, monitors, a journal row and a point stop)
// before it is merged into a copy of a database already holding that run,
// from this pair and another. A StoreError (a refused input, a
// conflict) is fine; any other exception, a crash or a hang is a bug, and
// so is a sample outside base/sample_range.h's range read back after the
// merge (inf, 1e308: every statistic of its cell would overflow).
//
// The statements run under an authorizer that only lets them change this
// one file (no ATTACH, no VACUUM INTO, no extension), within SQLite's
// length limits and a step budget.
#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "base/sample_range.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/task_db.h"

namespace fs = std::filesystem;
using namespace schedlab;

namespace {

struct Files {
  fs::path dir, input_template, output_template, input, output;
};

const Files& files() {
  static const Files f = [] {
    std::string dir = (fs::temp_directory_path() / "schedlab-merge-fuzz-XXXXXX").string();
    if (!::mkdtemp(dir.data())) std::abort();
    Files out{dir, fs::path(dir) / "in-template.db", fs::path(dir) / "out-template.db",
              fs::path(dir) / "in.db", fs::path(dir) / "out.db"};
    // The output already holds both pairs: the input's iterations meet
    // their equals (or what it made of them).
    test::write_task_db(out.input_template, "n2", 2);
    test::write_task_db(out.output_template, "n1", 2);
    Store(out.output_template.string()).merge_from(out.input_template.string());
    std::atexit([] { fs::remove_all(files().dir); });
    return out;
  }();
  return f;
}

void remove_database(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(p.string() + suffix);
}

// Statements may change the file's own tables and schema, nothing else.
int authorize(void*, int action, const char* a, const char*, const char*, const char*) {
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
void craft(const fs::path& db, std::string_view sql) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Files& f = files();
  remove_database(f.input);
  remove_database(f.output);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.starts_with(std::string_view("SQLite format 3\0", 16))) {
    std::ofstream(f.input, std::ios::binary).write(text.data(), static_cast<std::streamsize>(size));
  } else {
    fs::copy_file(f.input_template, f.input);
    craft(f.input, text);
  }
  fs::copy_file(f.output_template, f.output);
  try {
    Store::check_mergeable(f.input.string());
    Store out(f.output.string());
    out.merge_from(f.input.string());
    // What merge let in, read back as analysis reads it: every sample in
    // the one range (base/sample_range.h), or a StoreError naming the row
    // (issue 44: 9e999 merged, then "inf (0.00%)" in compare).
    for (const auto& run : out.runs_table().list_runs())
      for (const auto& it : out.iterations_table().iterations(run.id))
        for (const auto& sample : it.samples)
          if (!sample_in_range(sample.value)) std::abort();
  } catch (const StoreError&) {
  }
  return 0;
}
