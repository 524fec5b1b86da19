#include "results/store.h"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <functional>
#include <set>
#include <thread>
#include <unordered_map>

#include "base/file.h"
#include "base/time.h"
#include "results/run_row.h"
#include "results/sqlite_stmt.h"

namespace schedlab {

using sql::Stmt;
using sql::Transaction;

namespace {

// Numbered migrations: index i brings the schema from version i to i + 1.
// Never edit a shipped migration; append a new one.
const char* const kMigrations[] = {
    R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  config_path TEXT NOT NULL,
  config_text TEXT NOT NULL,
  config_sha256 TEXT NOT NULL,
  manifest_json TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE TABLE variants (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  knobs_json TEXT NOT NULL,
  UNIQUE (run_id, name)
);
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  workload TEXT NOT NULL,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('lower', 'higher')),
  centre TEXT NOT NULL,
  kind TEXT NOT NULL,
  precision INTEGER NOT NULL,
  PRIMARY KEY (run_id, workload, name)
);
CREATE TABLE iterations (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  variant_id INTEGER NOT NULL REFERENCES variants(id),
  workload TEXT NOT NULL,
  block TEXT NOT NULL,
  row TEXT NOT NULL,
  row_order INTEGER NOT NULL,
  params_json TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  duration_s REAL NOT NULL,
  exit_code INTEGER,
  stdout TEXT NOT NULL,
  stderr TEXT NOT NULL,
  error TEXT NOT NULL,
  UNIQUE (run_id, variant_id, workload, params_json, iteration)
);
CREATE TABLE samples (
  iteration_id INTEGER NOT NULL REFERENCES iterations(id),
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  offset_s REAL
);
CREATE INDEX samples_by_iteration ON samples (iteration_id);
CREATE TABLE knob_journal (
  id INTEGER PRIMARY KEY,
  run_id INTEGER REFERENCES runs(id),
  host TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  original TEXT NOT NULL,
  target TEXT NOT NULL,
  state TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  restored_at TEXT
);
)sql",
    // 2: why each sweep point stopped iterating (fixed count, interval
    // reached, maximum reached), per variant.
    R"sql(
CREATE TABLE point_stops (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  variant_id INTEGER NOT NULL REFERENCES variants(id),
  workload TEXT NOT NULL,
  params_json TEXT NOT NULL,
  iterations INTEGER NOT NULL,
  reason TEXT NOT NULL,
  ci_halfwidth_pct REAL,
  PRIMARY KEY (run_id, variant_id, workload, params_json)
);
)sql",
    // 3: kernel counter monitors around each iteration: the raw files read
    // before and after, and the flat delta rows (analysis/monitors.h).
    R"sql(
CREATE TABLE monitor_snapshots (
  iteration_id INTEGER NOT NULL REFERENCES iterations(id),
  monitor TEXT NOT NULL,
  phase TEXT NOT NULL CHECK (phase IN ('before', 'after')),
  path TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX monitor_snapshots_by_iteration ON monitor_snapshots (iteration_id, monitor);
CREATE TABLE monitor_deltas (
  iteration_id INTEGER NOT NULL REFERENCES iterations(id),
  monitor TEXT NOT NULL,
  counter TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (iteration_id, monitor, counter)
);
)sql",
    // 4: iterations record their SUT/loadgen pair ('' for single-pair
    // runs); the iteration index is unique per pair. SQLite cannot change a
    // table constraint, so the table is rebuilt (foreign keys are enforced
    // only after migrating; the rows keep their ids).
    R"sql(
CREATE TABLE iterations_v4 (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  variant_id INTEGER NOT NULL REFERENCES variants(id),
  pair TEXT NOT NULL DEFAULT '',
  workload TEXT NOT NULL,
  block TEXT NOT NULL,
  row TEXT NOT NULL,
  row_order INTEGER NOT NULL,
  params_json TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  duration_s REAL NOT NULL,
  exit_code INTEGER,
  stdout TEXT NOT NULL,
  stderr TEXT NOT NULL,
  error TEXT NOT NULL,
  UNIQUE (run_id, variant_id, pair, workload, params_json, iteration)
);
INSERT INTO iterations_v4 (id, run_id, variant_id, workload, block, row, row_order, params_json,
  iteration, status, started_at, duration_s, exit_code, stdout, stderr, error)
  SELECT id, run_id, variant_id, workload, block, row, row_order, params_json, iteration, status,
  started_at, duration_s, exit_code, stdout, stderr, error FROM iterations;
DROP TABLE iterations;
ALTER TABLE iterations_v4 RENAME TO iterations;
)sql",
    // 5: nightly: which run measured which target with which config (by
    // the config text's sha256), or why the target was not measured. The
    // latest row per (target, config_sha256) is the current one.
    R"sql(
CREATE TABLE nightly_measurements (
  id INTEGER PRIMARY KEY,
  nightly TEXT NOT NULL,
  target TEXT NOT NULL,
  config_path TEXT NOT NULL,
  config_sha256 TEXT NOT NULL,
  run_id INTEGER REFERENCES runs(id),
  status TEXT NOT NULL CHECK (status IN ('measuring', 'measured', 'failed')),
  error TEXT NOT NULL,
  hook_output TEXT NOT NULL,
  kernel_release TEXT NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT
);
CREATE INDEX nightly_by_target ON nightly_measurements (target, config_sha256);
CREATE INDEX nightly_by_run ON nightly_measurements (run_id);
)sql",
    // 6: bisections (runner/bisect/bisect.h) and every decision they made, with
    // the runs behind it, so `schedlab bisect continue` picks up after a
    // restart or a reboot.
    R"sql(
CREATE TABLE bisect_sessions (
  id INTEGER PRIMARY KEY,
  status TEXT NOT NULL,
  spec_json TEXT NOT NULL,
  result_json TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE bisect_decisions (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  position INTEGER NOT NULL,
  candidate TEXT NOT NULL,
  verdict TEXT NOT NULL,
  decided_by TEXT NOT NULL,
  n INTEGER NOT NULL,
  centre REAL,
  p_good REAL,
  p_bad REAL,
  run_ids_json TEXT NOT NULL,
  note TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX bisect_decisions_by_session ON bisect_decisions (session_id, id);
)sql",
    // 7: nightly over a branch: the commit a git:PATH@BRANCH target resolved
    // to when the nightly started ('' for every other kind of target), so a
    // measurement is reused by (target, config_sha256, kernel_commit).
    R"sql(
ALTER TABLE nightly_measurements ADD COLUMN kernel_commit TEXT NOT NULL DEFAULT '';
CREATE INDEX nightly_by_commit ON nightly_measurements (target, config_sha256, kernel_commit);
)sql",
    // 8: a year of history: `schedlab list` counts every run's
    // finished iterations from this index, not from the table.
    R"sql(
CREATE INDEX iterations_by_status ON iterations (status, run_id);
)sql",
    // 9: `schedlab history` reads what it needs of every iteration of a
    // workload from this index alone (Store::for_each_run_iterations).
    R"sql(
CREATE INDEX iterations_by_workload ON iterations
  (workload, run_id, id, variant_id, block, row, row_order, status, iteration);
)sql",
    // 10: `schedlab history` reads each run's cells of a metric from here
    // (analysis/cell_summaries.h), not from its iterations and samples. The
    // rows are derived data: a run's count only while its mark exists, and
    // any write to the run's iterations or samples deletes the marks (the
    // triggers: whoever writes, through Store or not), so a stale cell is
    // never read; history recomputes a run without a mark. Existing
    // databases start with no mark and are summarised lazily.
    R"sql(
CREATE TABLE cell_summary_marks (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  workload TEXT NOT NULL,
  metric TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (run_id, workload, metric)
);
CREATE TABLE cell_summaries (
  workload TEXT NOT NULL,
  metric TEXT NOT NULL,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  position INTEGER NOT NULL,
  variant_id INTEGER NOT NULL REFERENCES variants(id),
  block TEXT NOT NULL,
  row TEXT NOT NULL,
  n INTEGER NOT NULL,
  centre REAL,
  ci_low REAL,
  ci_high REAL,
  ci_reason TEXT NOT NULL,
  PRIMARY KEY (workload, metric, run_id, position)
) WITHOUT ROWID;
CREATE TRIGGER cell_marks_iteration_insert AFTER INSERT ON iterations BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = NEW.run_id;
END;
CREATE TRIGGER cell_marks_iteration_update AFTER UPDATE ON iterations BEGIN
  DELETE FROM cell_summary_marks WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER cell_marks_iteration_delete AFTER DELETE ON iterations BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = OLD.run_id;
END;
CREATE TRIGGER cell_marks_sample_insert AFTER INSERT ON samples BEGIN
  DELETE FROM cell_summary_marks
    WHERE run_id = (SELECT run_id FROM iterations WHERE id = NEW.iteration_id);
END;
CREATE TRIGGER cell_marks_sample_update AFTER UPDATE ON samples BEGIN
  DELETE FROM cell_summary_marks
    WHERE run_id IN (SELECT run_id FROM iterations WHERE id IN (OLD.iteration_id, NEW.iteration_id));
END;
CREATE TRIGGER cell_marks_sample_delete AFTER DELETE ON samples BEGIN
  DELETE FROM cell_summary_marks
    WHERE run_id = (SELECT run_id FROM iterations WHERE id = OLD.iteration_id);
END;
)sql",
    // 11: `schedlab history` reads the cell summaries oldest run first, in
    // the order it prints them, through this index (runs imported or
    // merged late have later ids than runs they predate), each with its
    // run's kernel release from run_kernel_releases: derived from the
    // manifest by the triggers (whoever writes it), so a year of manifests
    // is not parsed for a line each. A later migration that rebuilds runs
    // must create the triggers again.
    R"sql(
CREATE INDEX runs_by_start ON runs (started_at, id);
CREATE TABLE run_kernel_releases (
  run_id INTEGER PRIMARY KEY,
  kernel_release TEXT NOT NULL
);
INSERT INTO run_kernel_releases
  SELECT id, json_extract(manifest_json, '$.kernel_release') FROM runs
  WHERE json_valid(manifest_json) AND json_type(manifest_json, '$.kernel_release') = 'text';
CREATE TRIGGER run_kernel_release_insert AFTER INSERT ON runs BEGIN
  INSERT INTO run_kernel_releases
    SELECT NEW.id, json_extract(NEW.manifest_json, '$.kernel_release')
    WHERE json_valid(NEW.manifest_json)
      AND json_type(NEW.manifest_json, '$.kernel_release') = 'text';
END;
CREATE TRIGGER run_kernel_release_update AFTER UPDATE OF manifest_json ON runs BEGIN
  DELETE FROM run_kernel_releases WHERE run_id = OLD.id;
  INSERT INTO run_kernel_releases
    SELECT NEW.id, json_extract(NEW.manifest_json, '$.kernel_release')
    WHERE json_valid(NEW.manifest_json)
      AND json_type(NEW.manifest_json, '$.kernel_release') = 'text';
END;
CREATE TRIGGER run_kernel_release_delete AFTER DELETE ON runs BEGIN
  DELETE FROM run_kernel_releases WHERE run_id = OLD.id;
END;
)sql",
    // 12: a cell summary names the workload parameters it was measured
    // with (but the swept one), so history draws one series per parameter
    // set: loops 200 and loops 500 are never one line. Summaries of an
    // older version are recomputed (kCellSummaryVersion 2).
    // The index history reads iterations from covers their parameters too
    // (a cell computed for history knows its parameter set).
    R"sql(
ALTER TABLE cell_summaries ADD COLUMN params TEXT NOT NULL DEFAULT '';
DROP INDEX iterations_by_workload;
CREATE INDEX iterations_by_workload ON iterations
  (workload, run_id, id, variant_id, block, row, row_order, status, iteration, params_json);
)sql",
    // 13: a journal row names the machine, boot and hostname that wrote it,
    // and rows copied by merge are history (merged = 1): the journal acts
    // only on rows this host and boot wrote, never on another machine's.
    R"sql(
ALTER TABLE knob_journal ADD COLUMN machine_id TEXT NOT NULL DEFAULT '';
ALTER TABLE knob_journal ADD COLUMN boot_id TEXT NOT NULL DEFAULT '';
ALTER TABLE knob_journal ADD COLUMN hostname TEXT NOT NULL DEFAULT '';
ALTER TABLE knob_journal ADD COLUMN merged INTEGER NOT NULL DEFAULT 0 CHECK (merged IN (0, 1));
)sql",
    // 14: what an iteration's output says about its own quality beyond its
    // numbers (netperf: "Desired confidence was not achieved"), one line
    // each; compare shows them under the table.
    R"sql(
ALTER TABLE iterations ADD COLUMN notes TEXT NOT NULL DEFAULT '';
)sql",
    // 15: `stop: sequential`: a variant's group sequential test
    // at a point, as its latest look left it: the metric it judged, the
    // decision, the looks and units a side, the stage-wise p-value and
    // adjusted interval, the design, and the looks themselves (a resumed
    // run rebuilds the test from them). NULL seq_metric: no test.
    // Bisect's verdicts after repeated looks (analysis/bisect_looks.h): the
    // nominal level each test of a verdict was held to, and the error rates
    // the verdict holds ('' for decisions made before).
    R"sql(
ALTER TABLE point_stops ADD COLUMN seq_metric TEXT;
ALTER TABLE point_stops ADD COLUMN seq_decision TEXT
  CHECK (seq_decision IS NULL OR seq_decision IN ('different', 'same', 'undecided'));
ALTER TABLE point_stops ADD COLUMN seq_looks INTEGER;
ALTER TABLE point_stops ADD COLUMN seq_n_baseline INTEGER;
ALTER TABLE point_stops ADD COLUMN seq_n INTEGER;
ALTER TABLE point_stops ADD COLUMN seq_p_value REAL;
ALTER TABLE point_stops ADD COLUMN seq_estimate_pct REAL;
ALTER TABLE point_stops ADD COLUMN seq_ci_low REAL;
ALTER TABLE point_stops ADD COLUMN seq_ci_high REAL;
ALTER TABLE point_stops ADD COLUMN seq_level REAL;
ALTER TABLE point_stops ADD COLUMN seq_design_json TEXT;
ALTER TABLE point_stops ADD COLUMN seq_looks_json TEXT;
ALTER TABLE point_stops ADD COLUMN seq_note TEXT;
ALTER TABLE bisect_decisions ADD COLUMN level_good REAL;
ALTER TABLE bisect_decisions ADD COLUMN level_bad REAL;
ALTER TABLE bisect_decisions ADD COLUMN error_rates TEXT NOT NULL DEFAULT '';
)sql",
};
static_assert(std::size(kMigrations) == Store::kSchemaVersion);

// A status word read back, as its enum (results/status.h).
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

// A REAL column that may be NULL.
std::optional<double> opt_dbl(const Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.dbl(col);
}

}  // namespace

Store::Store(const std::string& path, Access access) : path_(path) {
  struct stat st{};
  const bool exists = ::stat(path.c_str(), &st) == 0;
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
        if ((sqlite3_errcode(db_) & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline) throw;
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

void Store::open_read_only() {
  db_ = sql::open_read_only(path_).db;
  try {
    const int v = schema_version();
    if (v > kSchemaVersion)
      throw StoreError(fmt::format(
          "{}: database schema version {} is newer than this schedlab ({}); use a newer schedlab",
          path_, v, kSchemaVersion));
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

Store::~Store() { sqlite3_close(db_); }

void Store::exec(const char* sql) {
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

// This binary's schema, as the migrations make it in an empty database.
const Columns& current_columns() {
  static const Columns columns = [] {
    sqlite3* db = nullptr;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) throw StoreError("sqlite: out of memory");
    struct Close {
      sqlite3* db;
      ~Close() { sqlite3_close(db); }
    } close{db};
    for (const char* migration : kMigrations)
      if (sqlite3_exec(db, migration, nullptr, nullptr, nullptr) != SQLITE_OK)
        throw StoreError(fmt::format("sqlite: the schema: {}", sqlite3_errmsg(db)));
    return columns_of(db);
  }();
  return columns;
}

}  // namespace

std::string Store::schema_mismatch(sqlite3* db) {
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

int Store::schema_version() const {
  Stmt s(db_, "PRAGMA user_version");
  s.step();
  return static_cast<int>(s.i64(0));
}

void Store::refuse_foreign() {
  // A new or empty file gets the schema; another program's database (tables
  // but no schema version of ours) is left as it is, before anything (the
  // journal mode) is written. One statement, one snapshot: a schedlab
  // process creating the file meanwhile commits its tables and version
  // together.
  Stmt s(db_,
         "SELECT (SELECT user_version FROM pragma_user_version), "
         "(SELECT count(*) FROM sqlite_master)");
  s.step();
  if (s.i64(0) == 0 && s.i64(1) > 0)
    throw StoreError(fmt::format(
        "{}: not a schedlab database (a SQLite database of another program: it has tables but "
        "no schedlab schema version); nothing written",
        path_));
}

void Store::migrate() {
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
    exec(kMigrations[v]);
    exec(fmt::format("PRAGMA user_version = {}", v + 1).c_str());
    tx.commit();
  }
}

std::int64_t Store::create_run(const RunInfo& run) {
  Stmt s(db_,
         "INSERT INTO runs (name, config_path, config_text, config_sha256, manifest_json, status, "
         "started_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run.name).bind(2, run.config_path).bind(3, run.config_text).bind(4, run.config_sha256);
  s.bind(5, run.manifest_json.empty() ? std::string("{}") : run.manifest_json);
  s.bind(6, word(run.status));
  s.bind(7, run.started_at.empty() ? utc_now_iso8601() : run.started_at);
  try {
    s.run();
  } catch (const StoreError& e) {
    if (find_run_by_name(run.name))
      throw StoreError(fmt::format("a run named '{}' already exists in {}", run.name, path_));
    throw;
  }
  return sqlite3_last_insert_rowid(db_);
}

void Store::set_run_status(std::int64_t run_id, RunStatus status, bool ended) {
  Stmt s(db_, "UPDATE runs SET status = ?, ended_at = ? WHERE id = ?");
  s.bind(1, word(status));
  if (ended)
    s.bind(2, utc_now_iso8601());
  else
    s.bind_null(2);
  s.bind(3, run_id).run();
}

void Store::set_run_manifest(std::int64_t run_id, const std::string& manifest_json) {
  Stmt(db_, "UPDATE runs SET manifest_json = ? WHERE id = ?").bind(1, manifest_json).bind(2, run_id).run();
}

namespace {

// SQLite's JSON path of a manifest member, from plain key names.
std::string manifest_path(const std::vector<std::string>& keys) {
  std::string path = "$";
  for (const auto& k : keys) {
    const bool plain = !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_' || c == '-';
    });
    if (!plain) throw StoreError(fmt::format("manifest key '{}' is not a plain name", k));
    path += fmt::format(".\"{}\"", k);
  }
  return path;
}

}  // namespace

void Store::set_manifest_member(std::int64_t run_id, const std::vector<std::string>& keys,
                                const std::string& value_json) {
  const std::string path = manifest_path(keys);
  Stmt(db_, "UPDATE runs SET manifest_json = json_set(manifest_json, ?, json(?)) WHERE id = ?")
      .bind(1, path)
      .bind(2, value_json)
      .bind(3, run_id)
      .run();
}

std::optional<RunInfo> Store::find_run(std::int64_t id) const {
  Stmt s(db_, fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns).c_str());
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::optional<RunInfo> Store::find_run_by_name(const std::string& name) const {
  Stmt s(db_, fmt::format("SELECT {} FROM runs WHERE name = ?", kRunColumns).c_str());
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::vector<RunInfo> Store::list_runs() const {
  Stmt s(db_, fmt::format("SELECT {} FROM runs ORDER BY id", kRunColumns).c_str());
  std::vector<RunInfo> runs;
  while (s.step()) runs.push_back(read_run(s));
  return runs;
}

std::vector<Store::RunLabel> Store::run_labels() const {
  Stmt s(db_,
         "SELECT r.id, r.name, r.started_at, coalesce(k.kernel_release, ''), r.status FROM runs r "
         "LEFT JOIN run_kernel_releases k ON k.run_id = r.id ORDER BY r.id");
  std::vector<RunLabel> out;
  while (s.step())
    out.push_back({s.i64(0), s.text(1), s.text(2), s.text(3),
                   known(run_status_from_string(s.view(4)), s.view(4), "run status")});
  return out;
}

std::int64_t Store::add_variant(const VariantInfo& v) {
  Stmt s(db_, "INSERT INTO variants (run_id, name, position, knobs_json) VALUES (?, ?, ?, ?)");
  s.bind(1, v.run_id).bind(2, v.name).bind(3, v.position).bind(4, v.knobs_json).run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<VariantInfo> Store::variants(std::int64_t run_id) const {
  Stmt s(db_,
         "SELECT id, run_id, name, position, knobs_json FROM variants WHERE run_id = ? "
         "ORDER BY position");
  s.bind(1, run_id);
  std::vector<VariantInfo> out;
  while (s.step())
    out.push_back({s.i64(0), s.i64(1), s.text(2), static_cast<int>(s.i64(3)), s.text(4)});
  return out;
}

void Store::add_metric(std::int64_t run_id, const MetricInfo& m) {
  Stmt s(db_,
         "INSERT OR IGNORE INTO metrics (run_id, workload, name, unit, direction, centre, kind, "
         "precision) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run_id).bind(2, m.workload).bind(3, m.name).bind(4, m.unit).bind(5, m.direction);
  s.bind(6, m.centre).bind(7, m.kind).bind(8, m.precision).run();
}

std::vector<MetricInfo> Store::metrics(std::int64_t run_id) const {
  Stmt s(db_,
         "SELECT workload, name, unit, direction, centre, kind, precision FROM metrics "
         "WHERE run_id = ? ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<MetricInfo> out;
  while (s.step())
    out.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5),
                   static_cast<int>(s.i64(6))});
  return out;
}

void Store::add_samples(std::int64_t iteration_id, const std::vector<SampleRow>& samples) {
  // An iteration may hold a million interval samples: prepared statements
  // of kBatch rows each (a statement's steps cost more than its rows), then
  // one row at a time for the rest. Without the samples' triggers: all they
  // do is drop the run's cell summaries, which the iteration's own insert,
  // in the same transaction, has just done (cell_marks_iteration_insert).
  const sql::TriggersOff triggers_off(db_);
  constexpr std::size_t kBatch = 64;
  std::size_t i = 0;
  if (samples.size() >= kBatch) {
    std::string sql = "INSERT INTO samples (iteration_id, metric, value, offset_s) VALUES (?, ?, ?, ?)";
    for (std::size_t r = 1; r < kBatch; ++r) sql += ", (?, ?, ?, ?)";
    Stmt batch(db_, sql.c_str());
    for (; i + kBatch <= samples.size(); i += kBatch) {
      for (std::size_t r = 0; r < kBatch; ++r) {
        const auto& sample = samples[i + r];
        const int at = static_cast<int>(4 * r);
        batch.bind(at + 1, iteration_id).bind(at + 2, sample.metric).bind(at + 3, sample.value);
        batch.bind(at + 4, sample.offset_s);
      }
      batch.run();
      batch.reset();
    }
  }
  if (i == samples.size()) return;
  Stmt one(db_, "INSERT INTO samples (iteration_id, metric, value, offset_s) VALUES (?, ?, ?, ?)");
  for (; i < samples.size(); ++i) {
    one.bind(1, iteration_id).bind(2, samples[i].metric).bind(3, samples[i].value).bind(4, samples[i].offset_s).run();
    one.reset();
  }
}

std::int64_t Store::add_iteration(const IterationRow& it) {
  Transaction tx(db_);
  Stmt s(db_,
         "INSERT INTO iterations (run_id, variant_id, workload, block, row, row_order, "
         "params_json, iteration, status, started_at, duration_s, exit_code, stdout, stderr, "
         "error, pair, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, it.run_id).bind(2, it.variant_id).bind(3, it.workload).bind(4, it.block);
  s.bind(5, it.row).bind(6, it.row_order).bind(7, it.params_json).bind(8, it.iteration);
  s.bind(9, word(it.status)).bind(10, it.started_at).bind(11, it.duration_s).bind(12, it.exit_code);
  s.bind(13, it.stdout_text).bind(14, it.stderr_text).bind(15, it.error).bind(16, it.pair);
  s.bind(17, it.notes).run();
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  add_samples(id, it.samples);
  if (!it.monitor_snapshots.empty()) {
    Stmt one(db_,
             "INSERT INTO monitor_snapshots (iteration_id, monitor, phase, path, text) "
             "VALUES (?, ?, ?, ?, ?)");
    for (const auto& m : it.monitor_snapshots) {
      one.bind(1, id).bind(2, m.monitor).bind(3, m.phase).bind(4, m.path).bind(5, m.text).run();
      one.reset();
    }
  }
  if (!it.monitor_deltas.empty()) {
    Stmt one(db_,
             "INSERT INTO monitor_deltas (iteration_id, monitor, counter, value) "
             "VALUES (?, ?, ?, ?)");
    for (const auto& d : it.monitor_deltas) {
      one.bind(1, id).bind(2, d.monitor).bind(3, d.counter).bind(4, d.value).run();
      one.reset();
    }
  }
  tx.commit();
  return id;
}

namespace {

// The columns read_iteration reads, in its order; stdout and stderr follow
// when asked for.
constexpr const char* kIterationColumns =
    "id, run_id, variant_id, workload, block, row, row_order, params_json, iteration, status, "
    "started_at, duration_s, exit_code, error, pair, notes";

IterationRow read_iteration(const Stmt& s, bool with_output) {
  IterationRow r;
  r.id = s.i64(0);
  r.run_id = s.i64(1);
  r.variant_id = s.i64(2);
  r.workload = s.text(3);
  r.block = s.text(4);
  r.row = s.text(5);
  r.row_order = static_cast<int>(s.i64(6));
  r.params_json = s.text(7);
  r.iteration = static_cast<int>(s.i64(8));
  r.status = known(iteration_status_from_string(s.view(9)), s.view(9), "iteration status");
  r.started_at = s.text(10);
  r.duration_s = s.dbl(11);
  if (!s.is_null(12)) r.exit_code = static_cast<int>(s.i64(12));
  r.error = s.text(13);
  r.pair = s.text(14);
  r.notes = s.text(15);
  if (with_output) {
    r.stdout_text = s.text(16);
    r.stderr_text = s.text(17);
  }
  return r;
}

// Joins rows of (iteration_id, metric, value, offset_s), each iteration's in
// their stored order, to their iterations by id.
void attach_samples(Stmt& ss, std::vector<IterationRow>& out) {
  std::unordered_map<std::int64_t, std::size_t> index;
  index.reserve(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) index.emplace(out[i].id, i);
  IterationRow* last = nullptr;
  std::int64_t last_id = -1;
  while (ss.step()) {
    const std::int64_t iid = ss.i64(0);
    if (iid != last_id) {
      const auto it = index.find(iid);
      last = it == index.end() ? nullptr : &out[it->second];
      last_id = iid;
    }
    if (!last) continue;
    SampleRow sr{ss.text(1), ss.dbl(2), std::nullopt};
    if (!ss.is_null(3)) sr.offset_s = ss.dbl(3);
    last->samples.push_back(std::move(sr));
  }
}

}  // namespace

std::vector<IterationRow> Store::iterations(std::int64_t run_id, bool with_output) const {
  Stmt s(db_, fmt::format("SELECT {}{} FROM iterations WHERE run_id = ? ORDER BY id",
                          kIterationColumns, with_output ? ", stdout, stderr" : "")
                  .c_str());
  s.bind(1, run_id);
  std::vector<IterationRow> out;
  while (s.step()) out.push_back(read_iteration(s, with_output));
  // Samples in one pass, joined to their iterations by id.
  Stmt ss(db_,
          "SELECT s.iteration_id, s.metric, s.value, s.offset_s FROM samples s "
          "JOIN iterations i ON i.id = s.iteration_id WHERE i.run_id = ? ORDER BY s.rowid");
  ss.bind(1, run_id);
  attach_samples(ss, out);
  return out;
}

namespace {

// What for_each_run_iterations reads of an iteration: id, run_id,
// variant_id, block, row, row_order, status, iteration, params_json (in that
// order), into a reused row's buffers.
constexpr const char* kHistoryColumns =
    "id, run_id, variant_id, block, row, row_order, status, iteration, params_json";

void read_history_row(const Stmt& s, const std::string& workload, IterationRow& r) {
  r.id = s.i64(0);
  r.run_id = s.i64(1);
  r.variant_id = s.i64(2);
  r.workload = workload;
  r.block.assign(s.view(3));
  r.row.assign(s.view(4));
  r.row_order = static_cast<int>(s.i64(5));
  r.status = known(iteration_status_from_string(s.view(6)), s.view(6), "iteration status");
  r.iteration = static_cast<int>(s.i64(7));
  r.params_json.assign(s.view(8));
  r.samples.clear();
}

}  // namespace

void Store::for_each_run_iterations(
    const std::string& workload, const std::string& metric,
    const std::function<void(std::span<const IterationRow>)>& visit) const {
  // The metric's samples first, in one scan of the table (every workload's:
  // a table scan of a few numbers per row is cheaper than an index lookup
  // per iteration), sorted by iteration and kept in stored order within it.
  struct Sample {
    std::int64_t iteration_id;
    double value;
    std::optional<double> offset_s;
  };
  std::vector<Sample> samples;
  {
    Stmt ss(db_, "SELECT iteration_id, value, offset_s FROM samples WHERE metric = ? ORDER BY rowid");
    ss.bind(1, metric);
    while (ss.step())
      samples.push_back({ss.i64(0), ss.dbl(1), opt_dbl(ss, 2)});
  }
  std::stable_sort(samples.begin(), samples.end(),
                   [](const Sample& a, const Sample& b) { return a.iteration_id < b.iteration_id; });
  // Then the iterations from the covering index iterations_by_workload
  // (migration 9), one run at a time; the rows of a run are reused.
  Stmt s(db_, fmt::format("SELECT {} FROM iterations WHERE workload = ? ORDER BY run_id, id",
                          kHistoryColumns)
                  .c_str());
  s.bind(1, workload);
  std::vector<IterationRow> rows;
  std::size_t used = 0;
  std::int64_t run = 0;
  const auto flush = [&] {
    if (used) visit(std::span<const IterationRow>(rows.data(), used));
    used = 0;
  };
  while (s.step()) {
    if (s.i64(1) != run) {
      flush();
      run = s.i64(1);
    }
    if (used == rows.size()) rows.emplace_back();
    IterationRow& r = rows[used++];
    read_history_row(s, workload, r);
    auto at = std::lower_bound(samples.begin(), samples.end(), r.id,
                               [](const Sample& x, std::int64_t id) { return x.iteration_id < id; });
    for (; at != samples.end() && at->iteration_id == r.id; ++at)
      r.samples.push_back({metric, at->value, at->offset_s});
  }
  flush();
}

void Store::for_each_run_iterations(
    const std::string& workload, const std::string& metric, std::span<const std::int64_t> runs,
    const std::function<void(std::span<const IterationRow>)>& visit) const {
  // Two index range reads per run (iterations_by_workload, then
  // samples_by_iteration): for a few runs, far less than the scans above.
  Stmt s(db_, fmt::format("SELECT {} FROM iterations WHERE workload = ? AND run_id = ? ORDER BY id",
                          kHistoryColumns)
                  .c_str());
  Stmt ss(db_,
          "SELECT s.iteration_id, s.value, s.offset_s FROM iterations i "
          "JOIN samples s ON s.iteration_id = i.id "
          "WHERE i.workload = ? AND i.run_id = ? AND s.metric = ? ORDER BY i.id, s.rowid");
  std::vector<IterationRow> rows;
  for (const std::int64_t run : runs) {
    std::size_t used = 0;
    s.reset();
    s.bind(1, workload).bind(2, run);
    while (s.step()) {
      if (used == rows.size()) rows.emplace_back();
      read_history_row(s, workload, rows[used++]);
    }
    if (!used) continue;
    ss.reset();
    ss.bind(1, workload).bind(2, run).bind(3, metric);
    // Both in id order: one merge.
    std::size_t at = 0;
    while (ss.step()) {
      while (at < used && rows[at].id < ss.i64(0)) ++at;
      if (at == used) break;
      rows[at].samples.push_back({metric, ss.dbl(1), opt_dbl(ss, 2)});
    }
    visit(std::span<const IterationRow>(rows.data(), used));
  }
}

void Store::for_each_run_cell_summaries(
    const std::string& workload, const std::string& metric, int version,
    const std::function<void(const RunLabel&, std::span<const CellSummary>)>& visit) const {
  // The runs by their start (migration 11's index), each one's mark, its
  // range of cell_summaries' key, and each variant by its key.
  Stmt s(db_,
         "SELECT c.run_id, c.variant_id, c.block, c.row, c.n, c.centre, c.ci_low, c.ci_high, "
         "c.ci_reason, v.name, r.name, r.started_at, coalesce(k.kernel_release, ''), r.status, c.params "
         "FROM runs r "
         "CROSS JOIN cell_summary_marks m ON m.run_id = r.id CROSS JOIN cell_summaries c "
         "ON c.workload = m.workload AND c.metric = m.metric AND c.run_id = m.run_id "
         "JOIN variants v ON v.id = c.variant_id "
         "LEFT JOIN run_kernel_releases k ON k.run_id = r.id "
         "WHERE m.workload = ?1 AND m.metric = ?2 AND m.version = ?3 "
         "ORDER BY r.started_at, r.id, c.position");
  s.bind(1, workload).bind(2, metric).bind(3, version);
  RunLabel run;
  std::vector<CellSummary> cells;
  std::size_t used = 0;
  const auto flush = [&] {
    if (used) visit(run, std::span<const CellSummary>(cells.data(), used));
    used = 0;
  };
  while (s.step()) {
    if (used && s.i64(0) != cells[0].run_id) flush();
    if (!used) {
      run.id = s.i64(0);
      run.name.assign(s.view(10));
      run.started_at.assign(s.view(11));
      run.kernel_release.assign(s.view(12));
      run.status = known(run_status_from_string(s.view(13)), s.view(13), "run status");
    }
    if (used == cells.size()) cells.emplace_back();
    CellSummary& c = cells[used++];
    c.run_id = s.i64(0);
    c.variant_id = s.i64(1);
    c.block.assign(s.view(2));  // into the reused cell's buffers
    c.row.assign(s.view(3));
    c.n = s.i64(4);
    c.centre = opt_dbl(s, 5);
    c.ci_low = opt_dbl(s, 6);
    c.ci_high = opt_dbl(s, 7);
    c.ci_reason.assign(s.view(8));
    c.variant.assign(s.view(9));
    c.params.assign(s.view(14));
  }
  flush();
}

std::vector<std::int64_t> Store::cell_summary_runs(const std::string& workload,
                                                   const std::string& metric, int version) const {
  Stmt s(db_,
         "SELECT run_id FROM cell_summary_marks WHERE workload = ? AND metric = ? AND version = ? "
         "ORDER BY run_id");
  s.bind(1, workload).bind(2, metric).bind(3, version);
  std::vector<std::int64_t> out;
  while (s.step()) out.push_back(s.i64(0));
  return out;
}

std::size_t Store::put_cell_summaries(const std::string& workload, const std::string& metric,
                                      int version, std::span<const RunCells> runs) {
  Transaction tx(db_);
  Stmt now(db_,
           "SELECT count(*), coalesce(max(id), 0) FROM iterations WHERE workload = ? AND run_id = ?");
  Stmt del(db_, "DELETE FROM cell_summaries WHERE workload = ? AND metric = ? AND run_id = ?");
  Stmt one(db_,
           "INSERT INTO cell_summaries (workload, metric, run_id, position, variant_id, block, row, "
           "n, centre, ci_low, ci_high, ci_reason, params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  Stmt mark(db_,
            "INSERT OR REPLACE INTO cell_summary_marks (run_id, workload, metric, version) "
            "VALUES (?, ?, ?, ?)");
  std::size_t stored = 0;
  for (const RunCells& run : runs) {
    now.reset();
    now.bind(1, workload).bind(2, run.run_id).step();
    if (now.i64(0) != run.basis.iterations || now.i64(1) != run.basis.last_id) continue;
    del.reset();
    del.bind(1, workload).bind(2, metric).bind(3, run.run_id).run();
    int position = 0;
    for (const CellSummary& c : run.cells) {
      one.reset();
      one.bind(1, workload).bind(2, metric).bind(3, run.run_id).bind(4, position++);
      one.bind(5, c.variant_id).bind(6, c.block).bind(7, c.row).bind(8, c.n).bind(9, c.centre);
      one.bind(10, c.ci_low).bind(11, c.ci_high).bind(12, c.ci_reason).bind(13, c.params).run();
    }
    mark.reset();
    mark.bind(1, run.run_id).bind(2, workload).bind(3, metric).bind(4, version).run();
    ++stored;
  }
  tx.commit();
  return stored;
}

void Store::invalidate_cell_summaries(std::int64_t run_id) {
  Stmt(db_, "DELETE FROM cell_summary_marks WHERE run_id = ?").bind(1, run_id).run();
}

Store::ReadSnapshot::ReadSnapshot(const Store& store) : db_(store.db_) {
  // BEGIN alone takes no lock; the first read below it fixes the state read.
  Stmt(db_, "BEGIN").run();
}

Store::ReadSnapshot::~ReadSnapshot() { sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); }

std::optional<MetricInfo> Store::latest_metric(const std::string& workload,
                                               const std::string& name) const {
  Stmt s(db_,
         "SELECT m.workload, m.name, m.unit, m.direction, m.centre, m.kind, m.precision "
         "FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.workload = ? AND m.name = ? "
         "ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
  s.bind(1, workload).bind(2, name);
  if (!s.step()) return std::nullopt;
  return MetricInfo{s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5),
                    static_cast<int>(s.i64(6))};
}

std::vector<std::int64_t> Store::runs_declaring(const std::string& workload,
                                                const std::string& name) const {
  Stmt s(db_, "SELECT run_id FROM metrics WHERE workload = ? AND name = ? ORDER BY run_id");
  s.bind(1, workload).bind(2, name);
  std::vector<std::int64_t> out;
  while (s.step()) out.push_back(s.i64(0));
  return out;
}

std::map<std::int64_t, MetricInfo> Store::metric_by_run(const std::string& workload,
                                                        const std::string& name) const {
  Stmt s(db_,
         "SELECT run_id, workload, name, unit, direction, centre, kind, precision FROM metrics "
         "WHERE workload = ? AND name = ?");
  s.bind(1, workload).bind(2, name);
  std::map<std::int64_t, MetricInfo> out;
  while (s.step())
    out[s.i64(0)] = {s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6),
                     static_cast<int>(s.i64(7))};
  return out;
}

std::map<std::int64_t, std::vector<VariantInfo>> Store::variants_by_run() const {
  Stmt s(db_,
         "SELECT id, run_id, name, position, knobs_json FROM variants ORDER BY run_id, position");
  std::map<std::int64_t, std::vector<VariantInfo>> out;
  while (s.step())
    out[s.i64(1)].push_back({s.i64(0), s.i64(1), s.text(2), static_cast<int>(s.i64(3)), s.text(4)});
  return out;
}

std::map<std::int64_t, Store::RunOverview> Store::run_overviews() const {
  std::map<std::int64_t, RunOverview> out;
  Stmt v(db_, "SELECT run_id, name FROM variants ORDER BY run_id, position");
  while (v.step()) out[v.i64(0)].variants.push_back(v.text(1));
  // iterations_by_status (migration 8) answers this from the index alone.
  Stmt n(db_, "SELECT run_id, status, count(*) FROM iterations GROUP BY run_id, status");
  while (n.step()) {
    const auto status = known(iteration_status_from_string(n.view(1)), n.view(1), "iteration status");
    if (status == IterationStatus::kOk) out[n.i64(0)].iterations_ok = n.i64(2);
    else if (status != IterationStatus::kUnsupported) out[n.i64(0)].iterations_failed += n.i64(2);
  }
  Stmt p(db_,
         "SELECT id, json_extract(manifest_json, '$.planned_iterations.min'), "
         "json_extract(manifest_json, '$.planned_iterations.max') FROM runs "
         "WHERE json_valid(manifest_json) AND json_type(manifest_json, '$.planned_iterations.max') = 'integer'");
  while (p.step()) {
    if (!p.is_null(1)) out[p.i64(0)].planned_min = p.i64(1);
    out[p.i64(0)].planned_max = p.i64(2);
  }
  return out;
}

std::int64_t Store::count_iterations(std::int64_t run_id, IterationStatus status) const {
  Stmt s(db_, "SELECT count(*) FROM iterations WHERE run_id = ? AND status = ?");
  s.bind(1, run_id).bind(2, word(status));
  s.step();
  return s.i64(0);
}

std::vector<MonitorSnapshotRow> Store::monitor_snapshots(std::int64_t run_id,
                                                         const std::string& monitor) const {
  Stmt s(db_,
         "SELECT m.iteration_id, m.monitor, m.phase, m.path, m.text FROM monitor_snapshots m "
         "JOIN iterations i ON i.id = m.iteration_id WHERE i.run_id = ? AND m.monitor = ? "
         "ORDER BY m.rowid");
  s.bind(1, run_id).bind(2, monitor);
  std::vector<MonitorSnapshotRow> out;
  while (s.step()) out.push_back({s.i64(0), s.text(1), s.text(2), s.text(3), s.text(4)});
  return out;
}

std::vector<MonitorDeltaRow> Store::monitor_deltas(std::int64_t run_id, const std::string& monitor,
                                                   bool aggregates_only) const {
  // Per-CPU rows are named cpuN.* (schedstat, stat) or *.cpuN (irq tables).
  Stmt s(db_,
         "SELECT d.iteration_id, d.monitor, d.counter, d.value FROM monitor_deltas d "
         "JOIN iterations i ON i.id = d.iteration_id WHERE i.run_id = ?1 "
         "AND (?2 = '' OR d.monitor = ?2) "
         "AND (?3 = 0 OR (d.counter NOT GLOB 'cpu[0-9]*' AND d.counter NOT GLOB '*.cpu[0-9]*')) "
         "ORDER BY d.rowid");
  s.bind(1, run_id).bind(2, monitor).bind(3, aggregates_only ? 1 : 0);
  std::vector<MonitorDeltaRow> out;
  while (s.step()) out.push_back({s.i64(0), s.text(1), s.text(2), s.dbl(3)});
  return out;
}

void Store::record_point_stop(const PointStop& p) {
  Stmt s(db_,
         "INSERT OR REPLACE INTO point_stops (run_id, variant_id, workload, params_json, "
         "iterations, reason, ci_halfwidth_pct, seq_metric, seq_decision, seq_looks, seq_n_baseline, "
         "seq_n, seq_p_value, seq_estimate_pct, seq_ci_low, seq_ci_high, seq_level, seq_design_json, "
         "seq_looks_json, seq_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, p.run_id).bind(2, p.variant_id).bind(3, p.workload).bind(4, p.params_json);
  s.bind(5, p.iterations).bind(6, p.reason).bind(7, p.ci_halfwidth_pct);
  if (const auto& q = p.sequential) {
    s.bind(8, q->metric).bind(9, q->decision).bind(10, q->looks).bind(11, q->n_baseline).bind(12, q->n);
    s.bind(13, q->p_value).bind(14, q->estimate_pct).bind(15, q->ci_low).bind(16, q->ci_high);
    s.bind(17, q->level).bind(18, q->design_json).bind(19, q->looks_json).bind(20, q->note);
  } else {
    for (int i = 8; i <= 20; ++i) s.bind_null(i);
  }
  s.run();
}

std::vector<PointStop> Store::point_stops(std::int64_t run_id) const {
  Stmt s(db_,
         "SELECT run_id, variant_id, workload, params_json, iterations, reason, ci_halfwidth_pct, "
         "seq_metric, seq_decision, seq_looks, seq_n_baseline, seq_n, seq_p_value, seq_estimate_pct, "
         "seq_ci_low, seq_ci_high, seq_level, seq_design_json, seq_looks_json, seq_note "
         "FROM point_stops WHERE run_id = ? ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<PointStop> out;
  while (s.step()) {
    PointStop p{s.i64(0), s.i64(1), s.text(2), s.text(3), static_cast<int>(s.i64(4)), s.text(5),
                opt_dbl(s, 6), std::nullopt};
    if (!s.is_null(7)) {
      SequentialRecord q;
      q.metric = s.text(7);
      q.decision = s.text(8);
      q.looks = static_cast<int>(s.i64(9));
      q.n_baseline = static_cast<int>(s.i64(10));
      q.n = static_cast<int>(s.i64(11));
      q.p_value = opt_dbl(s, 12);
      q.estimate_pct = opt_dbl(s, 13);
      q.ci_low = opt_dbl(s, 14);
      q.ci_high = opt_dbl(s, 15);
      q.level = s.is_null(16) ? 0.95 : s.dbl(16);
      q.design_json = s.text(17);
      q.looks_json = s.text(18);
      q.note = s.text(19);
      p.sequential = std::move(q);
    }
    out.push_back(std::move(p));
  }
  return out;
}

Store::WriteBatch::WriteBatch(Store& store) : db_(store.db_) {
  char* err = nullptr;
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw StoreError(fmt::format("{}: cannot begin a transaction: {}", store.path(), msg));
  }
}

Store::WriteBatch::~WriteBatch() {
  if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Store::WriteBatch::commit() {
  char* err = nullptr;
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw StoreError(fmt::format("{}: COMMIT: {}", sql::database_name(db_), msg));
  }
  done_ = true;
}

std::optional<RunInfo> Store::find_run_arg(const std::string& arg) const {
  if (!arg.empty() && arg.size() <= 18 && arg.find_first_not_of("0123456789") == std::string::npos)
    if (auto r = find_run(std::stoll(arg))) return r;
  return find_run_by_name(arg);
}

void Store::delete_run(std::int64_t run_id) {
  if (!find_run(run_id)) throw StoreError(fmt::format("{}: no run with id {}", path_, run_id));
  Transaction tx(db_);
  {
    Stmt live(db_, "SELECT count(*) FROM knob_journal WHERE run_id = ? AND state = ? AND merged = 0");
    live.bind(1, run_id).bind(2, word(JournalState::kApplied)).step();
    if (live.i64(0) > 0)
      throw StoreError(fmt::format("run {} still has {} knob(s) or leftovers to restore: run 'schedlab restore' "
                                   "first",
                                   run_id, live.i64(0)));
  }
  // Children before parents (foreign keys are on).
  for (const char* sql : {
           "DELETE FROM samples WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = ?1)",
           "DELETE FROM monitor_snapshots WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = ?1)",
           "DELETE FROM monitor_deltas WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = ?1)",
           "DELETE FROM iterations WHERE run_id = ?1",
           "DELETE FROM point_stops WHERE run_id = ?1",
           "DELETE FROM cell_summaries WHERE run_id = ?1",
           "DELETE FROM cell_summary_marks WHERE run_id = ?1",
           "DELETE FROM metrics WHERE run_id = ?1",
           "DELETE FROM variants WHERE run_id = ?1",
           "UPDATE knob_journal SET run_id = NULL WHERE run_id = ?1",
           "UPDATE nightly_measurements SET run_id = NULL WHERE run_id = ?1",
           "DELETE FROM runs WHERE id = ?1",
       })
    Stmt(db_, sql).bind(1, run_id).run();
  tx.commit();
}

std::int64_t Store::journal_applied(const JournalEntry& e) {
  Stmt s(db_,
         "INSERT INTO knob_journal (run_id, host, kind, name, path, original, target, state, "
         "applied_at, machine_id, boot_id, hostname) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, e.run_id).bind(2, e.host).bind(3, e.kind).bind(4, e.name).bind(5, e.path);
  s.bind(6, e.original).bind(7, e.target).bind(8, word(JournalState::kApplied));
  s.bind(9, utc_now_iso8601()).bind(10, e.machine_id).bind(11, e.boot_id).bind(12, e.hostname).run();
  return sqlite3_last_insert_rowid(db_);
}

void Store::journal_restored(std::int64_t entry_id) {
  Stmt s(db_, "UPDATE knob_journal SET state = ?, restored_at = ? WHERE id = ?");
  s.bind(1, word(JournalState::kRestored)).bind(2, utc_now_iso8601()).bind(3, entry_id).run();
}

std::vector<JournalEntry> Store::unrestored(const std::string& host) const {
  // Newest first: restoring in reverse order of application puts back the
  // value found before the first write even when a knob was written twice.
  // Rows merge copied are history: never live (migration 13).
  Stmt s(db_,
         "SELECT id, run_id, host, kind, name, path, original, target, state, machine_id, boot_id, hostname "
         "FROM knob_journal WHERE host = ? AND state = ? AND merged = 0 ORDER BY id DESC");
  s.bind(1, host).bind(2, word(JournalState::kApplied));
  std::vector<JournalEntry> out;
  while (s.step())
    out.push_back({s.i64(0), s.i64(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6),
                   s.text(7),
                   known(journal_state_from_string(s.text(8)), s.text(8), "journal state"), s.text(9),
                   s.text(10), s.text(11)});
  return out;
}

}  // namespace schedlab

namespace schedlab {

std::vector<std::string> Store::unrestored_hosts() const {
  Stmt s(db_, "SELECT DISTINCT host FROM knob_journal WHERE state = ? AND merged = 0 ORDER BY host");
  s.bind(1, word(JournalState::kApplied));
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

std::vector<JournalEntry> Store::journal_discard(const std::string& host) {
  auto entries = unrestored(host);
  // The time goes in restored_at: when the entry stopped needing a restore.
  Stmt s(db_,
         "UPDATE knob_journal SET state = ?, restored_at = ? WHERE host = ? AND state = ? AND merged = 0");
  s.bind(1, word(JournalState::kDiscarded)).bind(2, utc_now_iso8601()).bind(3, host);
  s.bind(4, word(JournalState::kApplied)).run();
  return entries;
}

void Store::journal_discard_entry(std::int64_t entry_id) {
  Stmt s(db_, "UPDATE knob_journal SET state = ?, restored_at = ? WHERE id = ?");
  s.bind(1, word(JournalState::kDiscarded)).bind(2, utc_now_iso8601()).bind(3, entry_id).run();
}

namespace {

NightlyMeasurement read_nightly(const Stmt& s) {
  NightlyMeasurement m;
  m.id = s.i64(0);
  m.nightly = s.text(1);
  m.target = s.text(2);
  m.config_path = s.text(3);
  m.config_sha256 = s.text(4);
  if (!s.is_null(5)) m.run_id = s.i64(5);
  m.status = known(nightly_status_from_string(s.text(6)), s.text(6), "nightly status");
  m.error = s.text(7);
  m.hook_output = s.text(8);
  m.kernel_release = s.text(9);
  m.started_at = s.text(10);
  m.ended_at = s.text(11);
  m.kernel_commit = s.text(12);
  return m;
}

constexpr const char* kNightlyColumns =
    "id, nightly, target, config_path, config_sha256, run_id, status, error, hook_output, "
    "kernel_release, started_at, ended_at, kernel_commit";

}  // namespace

std::int64_t Store::add_nightly_measurement(const NightlyMeasurement& m) {
  Stmt s(db_,
         "INSERT INTO nightly_measurements (nightly, target, config_path, config_sha256, run_id, "
         "status, error, hook_output, kernel_release, started_at, ended_at, kernel_commit) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, m.nightly).bind(2, m.target).bind(3, m.config_path).bind(4, m.config_sha256);
  s.bind(5, m.run_id).bind(6, word(m.status)).bind(7, m.error).bind(8, m.hook_output);
  s.bind(9, m.kernel_release).bind(10, m.started_at.empty() ? utc_now_iso8601() : m.started_at);
  s.bind(11, m.ended_at.empty() ? std::optional<std::string>() : std::optional<std::string>(m.ended_at));
  s.bind(12, m.kernel_commit);
  s.run();
  return sqlite3_last_insert_rowid(db_);
}

void Store::update_nightly_measurement(const NightlyMeasurement& m) {
  Stmt s(db_,
         "UPDATE nightly_measurements SET run_id = ?, status = ?, error = ?, hook_output = ?, "
         "kernel_release = ?, ended_at = ? WHERE id = ?");
  s.bind(1, m.run_id).bind(2, word(m.status)).bind(3, m.error).bind(4, m.hook_output).bind(5, m.kernel_release);
  s.bind(6, m.ended_at.empty() ? std::optional<std::string>() : std::optional<std::string>(m.ended_at));
  s.bind(7, m.id).run();
}

std::optional<NightlyMeasurement> Store::latest_nightly_measurement(
    const std::string& target, const std::string& config_sha256,
    const std::string& kernel_commit) const {
  Stmt s(db_,
         fmt::format("SELECT {} FROM nightly_measurements WHERE target = ? AND config_sha256 = ? "
                     "AND kernel_commit = ? ORDER BY id DESC LIMIT 1",
                     kNightlyColumns)
             .c_str());
  s.bind(1, target).bind(2, config_sha256).bind(3, kernel_commit);
  if (!s.step()) return std::nullopt;
  return read_nightly(s);
}

std::vector<NightlyMeasurement> Store::nightly_measurements() const {
  Stmt s(db_, fmt::format("SELECT {} FROM nightly_measurements ORDER BY id", kNightlyColumns).c_str());
  std::vector<NightlyMeasurement> out;
  while (s.step()) out.push_back(read_nightly(s));
  return out;
}

namespace {

constexpr const char* kBisectColumns = "id, status, spec_json, result_json, created_at, updated_at";

BisectSession read_bisect(const Stmt& s) {
  return {.id = s.i64(0),
          .status = known(bisect_status_from_string(s.text(1)), s.text(1), "bisect status"),
          .spec_json = s.text(2), .result_json = s.text(3),
          .created_at = s.text(4), .updated_at = s.text(5)};
}

}  // namespace

std::int64_t Store::create_bisect(const BisectSession& b) {
  const std::string now = utc_now_iso8601();
  Stmt s(db_,
         "INSERT INTO bisect_sessions (status, spec_json, result_json, created_at, updated_at) "
         "VALUES (?, ?, ?, ?, ?)");
  s.bind(1, word(b.status)).bind(2, b.spec_json).bind(3, b.result_json.empty() ? "{}" : b.result_json);
  s.bind(4, now).bind(5, now).run();
  return sqlite3_last_insert_rowid(db_);
}

void Store::set_bisect_status(std::int64_t id, BisectStatus status,
                              const std::string& result_json) {
  Stmt s(db_, "UPDATE bisect_sessions SET status = ?, result_json = ?, updated_at = ? WHERE id = ?");
  s.bind(1, word(status)).bind(2, result_json.empty() ? "{}" : result_json);
  s.bind(3, utc_now_iso8601()).bind(4, id).run();
}

std::optional<BisectSession> Store::find_bisect(std::int64_t id) const {
  Stmt s(db_, fmt::format("SELECT {} FROM bisect_sessions WHERE id = ?", kBisectColumns).c_str());
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_bisect(s);
}

std::optional<BisectSession> Store::latest_bisect() const {
  Stmt s(db_, fmt::format("SELECT {} FROM bisect_sessions ORDER BY id DESC LIMIT 1", kBisectColumns)
                  .c_str());
  if (!s.step()) return std::nullopt;
  return read_bisect(s);
}

std::int64_t Store::add_bisect_decision(const BisectDecision& d) {
  Stmt s(db_,
         "INSERT INTO bisect_decisions (session_id, position, candidate, verdict, decided_by, n, "
         "centre, p_good, p_bad, run_ids_json, note, decided_at, level_good, level_bad, error_rates) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, d.session_id).bind(2, d.position).bind(3, d.candidate).bind(4, d.verdict);
  s.bind(5, d.decided_by).bind(6, d.n).bind(7, d.centre).bind(8, d.p_good).bind(9, d.p_bad);
  s.bind(10, d.run_ids_json.empty() ? "[]" : d.run_ids_json).bind(11, d.note);
  s.bind(12, utc_now_iso8601()).bind(13, d.level_good).bind(14, d.level_bad).bind(15, d.error_rates).run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<BisectDecision> Store::bisect_decisions(std::int64_t session_id) const {
  Stmt s(db_,
         "SELECT id, session_id, position, candidate, verdict, decided_by, n, centre, p_good, "
         "p_bad, run_ids_json, note, decided_at, level_good, level_bad, error_rates FROM bisect_decisions "
         "WHERE session_id = ? ORDER BY id");
  s.bind(1, session_id);
  std::vector<BisectDecision> out;
  while (s.step())
    out.push_back({.id = s.i64(0), .session_id = s.i64(1), .position = static_cast<int>(s.i64(2)),
                   .candidate = s.text(3), .verdict = s.text(4), .decided_by = s.text(5),
                   .n = static_cast<int>(s.i64(6)), .centre = opt_dbl(s, 7), .p_good = opt_dbl(s, 8),
                   .p_bad = opt_dbl(s, 9), .run_ids_json = s.text(10), .note = s.text(11),
                   .decided_at = s.text(12), .level_good = opt_dbl(s, 13), .level_bad = opt_dbl(s, 14),
                   .error_rates = s.text(15)});
  return out;
}

}  // namespace schedlab
