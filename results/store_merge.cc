// Store::merge_from: another schedlab database's runs copied into this one
// (schedlab merge; the Slurm tasks each write their own file).
//
// A run's identity is its name and its config's sha256: a run of the same
// name and config is the same run, measured elsewhere (another pair), and
// gets the input's iterations; the same name with another config is a
// conflict. An iteration's identity is its place in the run (variant name,
// pair, workload, parameters, index): one already here and equal (same
// start, status, duration, output) is skipped, which makes a second merge
// of the same file a no-op; one that differs (its samples and monitor
// deltas included) is a conflict, so the order of the inputs never decides
// what is kept. Everything is one transaction: a conflict leaves this
// database as it was. The input is only ever read: it may be anything
// (an empty file, another program's database, a crafted one).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/json_data.h"
#include "base/sample_range.h"
#include "base/text.h"
#include "results/run_row.h"
#include "results/runs_table.h"
#include "results/sqlite_stmt.h"
#include "results/store.h"

namespace schedlab {

using sql::Stmt;
using sql::Transaction;

namespace {

// Worst first: a merged run is only as finished as its least finished part.
int badness(RunStatus s) {
  switch (s) {
    case RunStatus::kFailed: return 3;
    case RunStatus::kInterrupted: return 2;
    case RunStatus::kRunning: return 1;
    case RunStatus::kFinished: return 0;
  }
  return 3;
}

std::optional<RunStatus> status_of(const nlohmann::json& word) {
  return word.is_string() ? run_status_from_string(word.get<std::string>()) : std::nullopt;
}

// The part of a run an input brings, named by its pairs ("n1", "n1,n2";
// "-" without pairs).
std::string part_name(const nlohmann::json& manifest) {
  std::string name;
  if (manifest.contains("pair_order") && manifest["pair_order"].is_array())
    for (const auto& p : manifest["pair_order"])
      if (p.is_string()) name += (name.empty() ? "" : ",") + p.get<std::string>();
  return name.empty() ? "-" : name;
}

struct MergedRun {
  std::string manifest;
  RunStatus status;
};

// The input's pairs and pair order joined to ours (its pairs' entries are
// the input's: it measured them); every other member stays ours where we
// have it (the kernel, the host: one run, one description). Each part's
// status is kept under "merged_parts": the run is as finished as its least
// finished part, and a part merged again once it has finished counts as
// finished (a task's database merged while it ran, then after).
MergedRun merge_run(const RunInfo* ours_run, const RunInfo& theirs_run) {
  auto theirs = parse_json_data(theirs_run.manifest_json);
  if (!theirs.is_object()) theirs = nlohmann::json::object();
  auto ours = ours_run ? parse_json_data(ours_run->manifest_json) : theirs;
  if (!ours.is_object()) ours = nlohmann::json::object();
  auto parts = ours.value("merged_parts", nlohmann::json::object());
  if (!parts.is_object()) parts = nlohmann::json::object();
  if (ours_run && parts.empty()) parts["(here)"] = to_string(ours_run->status);
  parts[part_name(theirs)] = to_string(theirs_run.status);
  if (ours_run)
    for (const auto& [key, value] : theirs.items()) {
      if (!ours.contains(key)) {
        ours[key] = value;
      } else if (key == "pairs" && ours[key].is_object() && value.is_object()) {
        for (const auto& [pair, info] : value.items()) ours[key][pair] = info;
      } else if (key == "pair_order" && ours[key].is_array() && value.is_array()) {
        for (const auto& pair : value)
          if (std::find(ours[key].begin(), ours[key].end(), pair) == ours[key].end())
            ours[key].push_back(pair);
      }
    }
  RunStatus worst = RunStatus::kFinished;
  for (const auto& [part, word] : parts.items())
    if (const auto st = status_of(word); st && badness(*st) > badness(worst)) worst = *st;
  ours["merged_parts"] = parts;
  return {ours.dump(), worst};
}

// A database file and what SQLite keeps beside it.
void remove_database(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    std::filesystem::remove(path + suffix, ec);
}

// A temporary database and the private folder it is in (migrated_copy).
void remove_temp_database(const std::string& path) {
  remove_database(path);
  std::error_code ec;
  std::filesystem::remove(std::filesystem::path(path).parent_path(), ec);
}

// A temporary database, removed with this.
struct TempDatabase {
  std::string path;
  TempDatabase() = default;
  TempDatabase(const TempDatabase&) = delete;
  TempDatabase& operator=(const TempDatabase&) = delete;
  ~TempDatabase() {
    if (!path.empty()) remove_temp_database(path);
  }
};

// A connection that closes itself.
struct Handle {
  sqlite3* db = nullptr;
  explicit Handle(sqlite3* d) : db(d) {}
  Handle(const Handle&) = delete;
  Handle& operator=(Handle&& o) noexcept {
    std::swap(db, o.db);
    return *this;
  }
  ~Handle() { sqlite3_close(db); }
};

// The input copied page by page (SQLite's backup API, from the read-only
// connection) into a temporary file, and migrated there. The file is in a
// folder of this user's own (mkdtemp: 0700), as SQLite opens it by name: a
// file made in TMPDIR itself could be swapped between making and opening
// where TMPDIR is a folder others may write without a sticky bit (hostile14).
std::string migrated_copy(sqlite3* from, const std::string& input, int version) {
  std::string dir = (std::filesystem::temp_directory_path() / "schedlab-merge-XXXXXX").string();
  if (!::mkdtemp(dir.data()))
    throw StoreError(fmt::format("{}: cannot make a temporary copy to migrate: {}", input,
                                 std::strerror(errno)));
  const std::string path = dir + "/copy.db";
  try {
    sqlite3* to = nullptr;
    const int opened = sqlite3_open(path.c_str(), &to);
    const Handle dest(to);
    if (opened != SQLITE_OK) throw StoreError(sqlite3_errmsg(to));
    sqlite3_backup* b = sqlite3_backup_init(to, "main", from, "main");
    if (!b) throw StoreError(sqlite3_errmsg(to));
    sqlite3_backup_step(b, -1);
    if (sqlite3_backup_finish(b) != SQLITE_OK) throw StoreError(sqlite3_errmsg(to));
  } catch (const StoreError& e) {
    remove_temp_database(path);
    throw StoreError(fmt::format("{}: cannot copy it to migrate: {}", input, e.what()));
  }
  try {
    const Store migrate(path, Store::Access::kExisting);
  } catch (const StoreError& e) {
    remove_temp_database(path);
    throw StoreError(fmt::format("{}: schema version {} could not be brought to {} (in a copy): {}",
                                 input, version, Store::kSchemaVersion, e.what()));
  }
  return path;
}

// An input of merge, as ATTACH opens it: the file itself read-only, or,
// for an older schema, a migrated copy in a temporary file (removed with
// this, or when the constructor throws). The input is never written: an empty file or another program's
// database given by mistake stays as it was. MISMATCH tells what a
// database lacks of schedlab's schema (Database::schema_mismatch).
class MergeSource {
 public:
  MergeSource(const std::string& input, std::string (*mismatch)(sqlite3*)) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(input, ec);
    if (ec.value() == ELOOP)
      throw StoreError(fmt::format(
          "{}: cannot be resolved: a loop of symbolic links (or too many of them); nothing merged",
          input));
    if (!fs::exists(st))
      throw StoreError(fmt::format("no database at {} (run 'schedlab run CONFIG' first)", input));
    // A FIFO or a device would block or never end.
    if (!fs::is_regular_file(st))
      throw StoreError(fmt::format("{}: not a regular file; nothing merged", input));
    const auto ro = sql::open_read_only(input);
    Handle db(ro.db);
    const int v = version(db.db, input);
    if (v < 0)
      throw StoreError(fmt::format(
          "{}: database schema version {} is no version of schedlab's (a damaged or crafted "
          "database); nothing merged",
          input, v));
    if (v == 0)
      throw StoreError(fmt::format(
          "{}: not a schedlab database (no schedlab schema version: an empty file or another "
          "program's SQLite database); nothing merged",
          input));
    if (v > Store::kSchemaVersion)
      throw StoreError(fmt::format(
          "{}: database schema version {} is newer than this schedlab ({}); use a newer schedlab",
          input, v, Store::kSchemaVersion));
    // Before its copy is migrated (which would fire its triggers).
    if (const std::string why = Database::foreign_schema(db.db); !why.empty())
      throw StoreError(
          fmt::format("{}: {} (a damaged or crafted database); nothing merged", input, why));
    uri_ = ro.uri;
    if (v < Store::kSchemaVersion) {
      copy_.path = migrated_copy(db.db, input, v);
      db = Handle(sql::open_read_only(copy_.path).db);
      uri_ = sql::file_uri(copy_.path, "?mode=ro");
    }
    if (const std::string why = mismatch(db.db); !why.empty())
      throw StoreError(fmt::format(
          "{}: not a schedlab database of schema version {} ({}); nothing merged", input, v, why));
  }
  MergeSource(const MergeSource&) = delete;
  MergeSource& operator=(const MergeSource&) = delete;
  const std::string& uri() const { return uri_; }
  // A path a read-only Store opens: INPUT, or its migrated copy.
  const std::string& readable_path(const std::string& input) const {
    return copy_.path.empty() ? input : copy_.path;
  }

 private:
  static int version(sqlite3* db, const std::string& input) {
    try {
      Stmt s(db, "PRAGMA user_version");
      s.step();
      return static_cast<int>(s.i64(0));
    } catch (const StoreError& e) {
      throw StoreError(fmt::format("{}: cannot read the database: {}", input, e.what()));
    }
  }

  std::string uri_;
  TempDatabase copy_;  // members are destroyed when the constructor throws
};

// Whether an input's iteration (src) and ours (main) hold the same samples
// and monitor deltas. Both are walked in stored order first (an index
// range each, no sort): copies of one run agree there, and a million
// samples merged again cost a scan. Samples that differ in that order are
// compared as multisets, in case only their order differs.
class SameRows {
 public:
  explicit SameRows(sqlite3* db)
      : src_samples_(db, "SELECT metric, value, offset_s FROM src.samples WHERE iteration_id = ? "
                         "ORDER BY rowid"),
        main_samples_(db, "SELECT metric, value, offset_s FROM main.samples "
                          "WHERE iteration_id = ? ORDER BY rowid"),
        multiset_(db, R"sql(
SELECT EXISTS (SELECT metric, value, offset_s, count(*) FROM src.samples
                 WHERE iteration_id = ?1 GROUP BY 1, 2, 3
               EXCEPT SELECT metric, value, offset_s, count(*) FROM main.samples
                 WHERE iteration_id = ?2 GROUP BY 1, 2, 3)
    OR EXISTS (SELECT metric, value, offset_s, count(*) FROM main.samples
                 WHERE iteration_id = ?2 GROUP BY 1, 2, 3
               EXCEPT SELECT metric, value, offset_s, count(*) FROM src.samples
                 WHERE iteration_id = ?1 GROUP BY 1, 2, 3))sql"),
        src_deltas_(db, "SELECT monitor, counter, value FROM src.monitor_deltas "
                        "WHERE iteration_id = ? ORDER BY monitor, counter"),
        main_deltas_(db, "SELECT monitor, counter, value FROM main.monitor_deltas "
                         "WHERE iteration_id = ? ORDER BY monitor, counter") {}

  bool samples(std::int64_t src, std::int64_t ours) {
    if (same_in_order(src_samples_, main_samples_, src, ours)) return true;
    multiset_.bind(1, src).bind(2, ours);
    multiset_.step();
    const bool differ = multiset_.i64(0) != 0;
    multiset_.reset();
    return !differ;
  }
  // Deltas have a key (monitor, counter): their order is the key's.
  bool deltas(std::int64_t src, std::int64_t ours) {
    return same_in_order(src_deltas_, main_deltas_, src, ours);
  }

 private:
  // One column of two rows: the same type and value (a crafted input may
  // store text where a number belongs).
  static bool same_value(const Stmt& a, const Stmt& b, int col) {
    const int type = a.type(col);
    if (type != b.type(col)) return false;
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) return a.dbl(col) == b.dbl(col);
    return a.view(col) == b.view(col);
  }

  // Rows of three columns equal one by one.
  static bool same_in_order(Stmt& a, Stmt& b, std::int64_t a_id, std::int64_t b_id) {
    a.bind(1, a_id);
    b.bind(1, b_id);
    bool same = true;
    while (same) {
      const bool more_a = a.step(), more_b = b.step();
      if (!more_a || !more_b) {
        same = more_a == more_b;
        break;
      }
      same = same_value(a, b, 0) && same_value(a, b, 1) && same_value(a, b, 2);
    }
    a.reset();
    b.reset();
    return same;
  }

  Stmt src_samples_, main_samples_, multiset_, src_deltas_, main_deltas_;
};

// The input's iterations and samples that merge could not keep as they
// are, refused naming the row: a status word none of ours (it would be
// copied, then refused by every read), an iteration of no variant or run
// of its own (dropped by the joins below, yet counted "already there"), a
// sample outside base/sample_range.h's range (inf, 1e308, text: every
// statistic of its cell would overflow). Inputs are anything; a merge is
// all or nothing.
void refuse_rows_we_cannot_keep(sqlite3* db, const std::string& input) {
  const auto refuse = [&](const std::string& row, const std::string& why) {
    throw StoreError(fmt::format("{}: {} {}; nothing merged", input, row, why));
  };
  const auto iteration = [](const Stmt& s) {
    return fmt::format("iteration {} (id {}) of run '{}'", s.i64(1), s.i64(0),
                       terminal_safe(s.view(2)));
  };
  Stmt statuses(db, R"sql(
SELECT s.id, s.iteration, coalesce(r.name, '#' || s.run_id), s.status, r.id IS NULL,
  v.id IS NULL, s.variant_id, s.iteration, s.row_order, s.exit_code
FROM src.iterations s LEFT JOIN src.runs r ON r.id = s.run_id
LEFT JOIN src.variants v ON v.id = s.variant_id AND v.run_id = s.run_id ORDER BY s.id)sql");
  while (statuses.step()) {
    if (statuses.i64(4)) refuse(iteration(statuses), "names no run of the input");
    if (statuses.i64(5))
      refuse(iteration(statuses),
             fmt::format("names variant id {}, no variant of its run", statuses.i64(6)));
    if (!iteration_status_from_string(statuses.view(3)))
      refuse(iteration(statuses),
             fmt::format("has status '{}': not a word of ours", terminal_safe(statuses.view(3))));
    // Read back as ints: one past an int would be refused by every read.
    for (const auto& [col, name] : {std::pair{7, "iteration"}, {8, "row_order"}, {9, "exit_code"}})
      if (!(col == 9 && statuses.is_null(col)))
        if (const auto why = sql::int_problem(statuses, col))
          refuse(iteration(statuses), fmt::format("cannot be read back: {} {}", name, *why));
  }
  // The range in SQL first (a million good samples cost one scan), then the
  // reason from the one helper.
  Stmt samples(db, R"sql(
SELECT i.id, i.iteration, coalesce(r.name, '#' || i.run_id), s.metric, s.value, s.offset_s
FROM src.samples s JOIN src.iterations i ON i.id = s.iteration_id
LEFT JOIN src.runs r ON r.id = i.run_id
WHERE typeof(s.value) NOT IN ('integer', 'real') OR abs(s.value) > ?1
  OR (s.value <> 0 AND abs(s.value) < ?2)
  OR (s.offset_s IS NOT NULL AND (typeof(s.offset_s) NOT IN ('integer', 'real')
    OR abs(s.offset_s) > 9e307))
ORDER BY s.rowid LIMIT 1)sql");
  samples.bind(1, kSampleMax).bind(2, kSampleMinNonZero);
  if (samples.step()) {
    const double value = sql::number_or_nan(samples, 4);
    const auto why = sample_out_of_range(value);
    refuse(iteration(samples),
           fmt::format(
               "has a sample of {} that is no sample: {}", terminal_safe(samples.view(3)),
               why ? *why
                   : fmt::format("its offset {} is not finite", sql::number_or_nan(samples, 5))));
  }
  // Monitor deltas feed the same statistics (compare --monitors): same range.
  Stmt deltas(db, R"sql(
SELECT i.id, i.iteration, coalesce(r.name, '#' || i.run_id), d.monitor, d.counter, d.value
FROM src.monitor_deltas d JOIN src.iterations i ON i.id = d.iteration_id
LEFT JOIN src.runs r ON r.id = i.run_id
WHERE typeof(d.value) NOT IN ('integer', 'real') OR abs(d.value) > ?1
  OR (d.value <> 0 AND abs(d.value) < ?2)
ORDER BY d.rowid LIMIT 1)sql");
  deltas.bind(1, kSampleMax).bind(2, kSampleMinNonZero);
  if (deltas.step()) {
    const auto why = sample_out_of_range(sql::number_or_nan(deltas, 5));
    refuse(iteration(deltas),
           fmt::format("has a {} delta of {} that is no count: {}", terminal_safe(deltas.view(3)),
                       terminal_safe(deltas.view(4)), why.value_or("out of range")));
  }
}

}  // namespace

void Store::check_mergeable(const std::string& input,
                            const std::function<void(const std::string&)>& read) {
  MergeSource source(input, &Database::schema_mismatch);
  if (read) read(source.readable_path(input));
}

Store::MergeCounts Store::merge_from(const std::string& input) {
  const MergeSource source(input, &Database::schema_mismatch);
  {
    Stmt attach(db_, "ATTACH DATABASE ? AS src");
    attach.bind(1, source.uri()).run();
  }
  struct Detach {
    sqlite3* db;
    ~Detach() { sqlite3_exec(db, "DETACH DATABASE src", nullptr, nullptr, nullptr); }
  } detach{db_};
  refuse_rows_we_cannot_keep(db_, input);

  MergeCounts counts;
  Transaction tx(db_);
  database_.exec(R"sql(
CREATE TEMP TABLE IF NOT EXISTS merge_runs (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS merge_variants (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS merge_iterations (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
DELETE FROM merge_runs; DELETE FROM merge_variants; DELETE FROM merge_iterations;
)sql");

  // Runs.
  Stmt runs(db_, fmt::format("SELECT {} FROM src.runs ORDER BY id", kRunColumns).c_str());
  Stmt map_run(db_, "INSERT INTO merge_runs (old, new) VALUES (?, ?)");
  while (runs.step()) {
    RunInfo theirs = read_run(runs, RunStatus::kFailed);
    // A run still running in the input has no writer here.
    if (theirs.status == RunStatus::kRunning) theirs.status = RunStatus::kInterrupted;
    std::int64_t id = 0;
    if (const auto ours = runs_->find_run_by_name(theirs.name)) {
      if (ours->config_sha256 != theirs.config_sha256)
        throw StoreError(fmt::format(
            "{}: run '{}' is also in {} with another config (sha256 {} here, {} there); "
            "nothing merged",
            input, theirs.name, path(), ours->config_sha256.substr(0, 12),
            theirs.config_sha256.substr(0, 12)));
      id = ours->id;
      Stmt update(db_,
                  "UPDATE runs SET manifest_json = ?, status = ?, started_at = min(started_at, ?), "
                  "ended_at = CASE WHEN ended_at IS NULL OR ? IS NULL THEN coalesce(ended_at, ?) "
                  "ELSE max(ended_at, ?) END WHERE id = ?");
      const MergedRun merged = merge_run(&*ours, theirs);
      std::optional<std::string> ended;
      if (!runs.is_null(8)) ended = theirs.ended_at;
      update.bind(1, merged.manifest)
          .bind(2, std::string(to_string(merged.status)))
          .bind(3, theirs.started_at)
          .bind(4, ended)
          .bind(5, ended)
          .bind(6, ended)
          .bind(7, id)
          .run();
      ++counts.runs_joined;
    } else {
      Stmt insert(db_,
                  "INSERT INTO runs (name, config_path, config_text, config_sha256, manifest_json, "
                  "status, started_at, ended_at) SELECT name, config_path, config_text, "
                  "config_sha256, ?, ?, started_at, ended_at FROM src.runs WHERE id = ?");
      const MergedRun merged = merge_run(nullptr, theirs);
      insert.bind(1, merged.manifest)
          .bind(2, std::string(to_string(merged.status)))
          .bind(3, theirs.id)
          .run();
      id = sqlite3_last_insert_rowid(db_);
      ++counts.runs_new;
    }
    map_run.bind(1, theirs.id).bind(2, id).run();
    map_run.reset();
  }

  // Variants, by name within the run; the same name must mean the same knobs
  // and place. Metrics too: whichever input came first must not decide a
  // metric's unit or direction.
  {
    Stmt conflict(db_,
                  "SELECT r.name, s.name FROM src.variants s JOIN merge_runs m ON s.run_id = m.old "
                  "JOIN main.variants d ON d.run_id = m.new AND d.name = s.name "
                  "JOIN src.runs r ON r.id = s.run_id "
                  "WHERE d.knobs_json IS NOT s.knobs_json OR d.position IS NOT s.position LIMIT 1");
    if (conflict.step())
      throw StoreError(fmt::format(
          "{}: variant '{}' of run '{}' has other knobs or another place than in {}; nothing "
          "merged",
          input, conflict.text(1), conflict.text(0), path()));
    // A declaration in words none of ours (a CHECK bypassed) would be
    // dropped by the INSERT OR IGNORE below, its CHECKs failing: refused.
    Stmt words(
        db_,
        "SELECT r.name, s.workload, s.name, s.direction, s.kind, s.domain FROM src.metrics s "
        "JOIN merge_runs m ON s.run_id = m.old JOIN src.runs r ON r.id = s.run_id");
    while (words.step()) {
      if (!direction_from_string(words.view(3)) || !sample_kind_from_string(words.view(4)))
        throw StoreError(fmt::format(
            "{}: metric {} {} of run '{}' has direction '{}' and kind '{}': not both words of "
            "ours; nothing merged",
            input, terminal_safe(words.view(1)), terminal_safe(words.view(2)),
            terminal_safe(words.view(0)), terminal_safe(words.view(3)),
            terminal_safe(words.view(4))));
      if (!words.is_null(5) && !domain_from_string(words.view(5)))
        throw StoreError(fmt::format(
            "{}: metric {} {} of run '{}' has domain '{}': not a word of ours; nothing merged",
            input, terminal_safe(words.view(1)), terminal_safe(words.view(2)),
            terminal_safe(words.view(0)), terminal_safe(words.view(5))));
    }
    Stmt metric(db_, R"sql(
SELECT r.name, s.workload, s.name FROM src.metrics s JOIN merge_runs m ON s.run_id = m.old
JOIN main.metrics d ON d.run_id = m.new AND d.workload = s.workload AND d.name = s.name
JOIN src.runs r ON r.id = s.run_id
WHERE d.unit IS NOT s.unit OR d.direction IS NOT s.direction OR d.centre IS NOT s.centre
  OR d.kind IS NOT s.kind OR d.precision IS NOT s.precision OR d.domain IS NOT s.domain
LIMIT 1)sql");
    if (metric.step())
      throw StoreError(fmt::format(
          "{}: metric {} {} of run '{}' is declared otherwise (unit, direction, centre, kind, "
          "precision or domain) than in {}; nothing merged",
          input, metric.text(1), metric.text(2), metric.text(0), path()));
    database_.exec(R"sql(
INSERT INTO main.variants (run_id, name, position, knobs_json)
  SELECT m.new, s.name, s.position, s.knobs_json FROM src.variants s
  JOIN merge_runs m ON s.run_id = m.old
  WHERE NOT EXISTS (SELECT 1 FROM main.variants d WHERE d.run_id = m.new AND d.name = s.name)
  ORDER BY s.id;
INSERT INTO merge_variants (old, new)
  SELECT s.id, d.id FROM src.variants s JOIN merge_runs m ON s.run_id = m.old
  JOIN main.variants d ON d.run_id = m.new AND d.name = s.name;
INSERT OR IGNORE INTO main.metrics (run_id, workload, name, unit, direction, centre, kind, precision,
                                   domain)
  SELECT m.new, s.workload, s.name, s.unit, s.direction, s.centre, s.kind, s.precision, s.domain
  FROM src.metrics s JOIN merge_runs m ON s.run_id = m.old;
)sql");
  }

  // Iterations: equal ones already here are skipped, different ones
  // refused. Equal is everything stored of it: its row, its samples (as a
  // multiset: samples have no key) and its monitor deltas; otherwise the
  // first input merged would win, and the result would depend on the order.
  {
    Stmt pairs(db_, R"sql(
SELECT s.id, d.id, r.name, v.name, s.pair, s.workload, s.params_json, s.iteration, CASE
  WHEN d.status IS NOT s.status OR d.started_at IS NOT s.started_at
    OR d.duration_s IS NOT s.duration_s OR d.exit_code IS NOT s.exit_code
    OR d.error IS NOT s.error THEN 'its status, start, duration, exit code or error'
  WHEN d.stdout IS NOT s.stdout OR d.stderr IS NOT s.stderr THEN 'its output'
  WHEN d.block IS NOT s.block OR d.row IS NOT s.row OR d.row_order IS NOT s.row_order
    THEN 'its block or row'
  END
FROM src.iterations s
JOIN merge_runs mr ON s.run_id = mr.old JOIN merge_variants mv ON s.variant_id = mv.old
JOIN main.iterations d ON d.run_id = mr.new AND d.variant_id = mv.new AND d.pair = s.pair
  AND d.workload = s.workload AND d.params_json = s.params_json AND d.iteration = s.iteration
JOIN src.runs r ON r.id = s.run_id JOIN src.variants v ON v.id = s.variant_id)sql");
    SameRows same(db_);
    while (pairs.step()) {
      std::string what = pairs.text(8);
      if (what.empty() && !same.samples(pairs.i64(0), pairs.i64(1))) what = "its samples";
      if (what.empty() && !same.deltas(pairs.i64(0), pairs.i64(1))) what = "its monitor deltas";
      if (!what.empty())
        throw StoreError(fmt::format(
            "{}: iteration {} of run '{}' (variant {}, pair '{}', {} {}) differs from the one in "
            "{} ({}); nothing merged",
            input, pairs.i64(7), pairs.text(2), pairs.text(3), pairs.text(4), pairs.text(5),
            pairs.text(6), path(), what));
    }
    Stmt fresh(db_, R"sql(
SELECT s.id, mr.new, mv.new FROM src.iterations s
JOIN merge_runs mr ON s.run_id = mr.old JOIN merge_variants mv ON s.variant_id = mv.old
WHERE NOT EXISTS (SELECT 1 FROM main.iterations d WHERE d.run_id = mr.new
  AND d.variant_id = mv.new AND d.pair = s.pair AND d.workload = s.workload
  AND d.params_json = s.params_json AND d.iteration = s.iteration)
ORDER BY s.id)sql");
    Stmt insert(db_, R"sql(
INSERT INTO main.iterations (run_id, variant_id, pair, workload, block, row, row_order,
  params_json, iteration, status, started_at, duration_s, exit_code, stdout, stderr, error, notes)
SELECT ?, ?, pair, workload, block, row, row_order, params_json, iteration, status, started_at,
  duration_s, exit_code, stdout, stderr, error, notes FROM src.iterations WHERE id = ?)sql");
    Stmt map(db_, "INSERT INTO merge_iterations (old, new) VALUES (?, ?)");
    while (fresh.step()) {
      insert.bind(1, fresh.i64(1)).bind(2, fresh.i64(2)).bind(3, fresh.i64(0)).run();
      insert.reset();
      map.bind(1, fresh.i64(0)).bind(2, std::int64_t{sqlite3_last_insert_rowid(db_)}).run();
      map.reset();
      ++counts.iterations_new;
    }
    Stmt all(db_, "SELECT count(*) FROM src.iterations s JOIN merge_runs m ON s.run_id = m.old");
    all.step();
    counts.iterations_present = all.i64(0) - counts.iterations_new;
  }

  // What hangs off the new iterations, and the per-run tables, deduplicated.
  // The samples without their triggers: the new iterations' inserts above
  // have already dropped their runs' cell summaries.
  {
    const sql::TriggersOff triggers_off(db_);
    Stmt(db_, R"sql(
INSERT INTO main.samples (iteration_id, metric, value, offset_s)
  SELECT m.new, s.metric, s.value, s.offset_s FROM src.samples s
  JOIN merge_iterations m ON s.iteration_id = m.old ORDER BY s.rowid)sql").run();
  }
  database_.exec(R"sql(
INSERT INTO main.monitor_snapshots (iteration_id, monitor, phase, path, text)
  SELECT m.new, s.monitor, s.phase, s.path, s.text FROM src.monitor_snapshots s
  JOIN merge_iterations m ON s.iteration_id = m.old ORDER BY s.rowid;
INSERT INTO main.monitor_deltas (iteration_id, monitor, counter, value)
  SELECT m.new, s.monitor, s.counter, s.value FROM src.monitor_deltas s
  JOIN merge_iterations m ON s.iteration_id = m.old;
INSERT OR IGNORE INTO main.point_stops (run_id, variant_id, workload, params_json, iterations,
  reason, ci_halfwidth_pct, seq_metric, seq_decision, seq_looks, seq_n_baseline, seq_n, seq_p_value,
  seq_estimate_pct, seq_ci_low, seq_ci_high, seq_level, seq_design_json, seq_looks_json, seq_note)
  SELECT mr.new, mv.new, s.workload, s.params_json, s.iterations, s.reason, s.ci_halfwidth_pct,
  s.seq_metric, s.seq_decision, s.seq_looks, s.seq_n_baseline, s.seq_n, s.seq_p_value,
  s.seq_estimate_pct, s.seq_ci_low, s.seq_ci_high, s.seq_level, s.seq_design_json, s.seq_looks_json,
  s.seq_note
  FROM src.point_stops s JOIN merge_runs mr ON s.run_id = mr.old
  JOIN merge_variants mv ON s.variant_id = mv.old;
INSERT INTO main.knob_journal (run_id, host, kind, name, path, original, target, state,
  applied_at, restored_at, merged)
  SELECT m.new, s.host, s.kind, s.name, s.path, s.original, s.target, s.state, s.applied_at,
  s.restored_at, 1 FROM src.knob_journal s LEFT JOIN merge_runs m ON s.run_id = m.old
  WHERE NOT EXISTS (SELECT 1 FROM main.knob_journal d WHERE d.run_id IS m.new
    AND d.host = s.host AND d.kind = s.kind AND d.name = s.name AND d.applied_at = s.applied_at
    AND d.target = s.target)
  ORDER BY s.id;
INSERT INTO main.nightly_measurements (nightly, target, config_path, config_sha256, run_id,
  status, error, hook_output, kernel_release, started_at, ended_at, kernel_commit)
  SELECT s.nightly, s.target, s.config_path, s.config_sha256, m.new, s.status, s.error,
  s.hook_output, s.kernel_release, s.started_at, s.ended_at, s.kernel_commit
  FROM src.nightly_measurements s LEFT JOIN merge_runs m ON s.run_id = m.old
  WHERE NOT EXISTS (SELECT 1 FROM main.nightly_measurements d WHERE d.nightly = s.nightly
    AND d.target = s.target AND d.config_sha256 = s.config_sha256
    AND d.kernel_commit = s.kernel_commit AND d.started_at = s.started_at)
  ORDER BY s.id;
)sql");
  {
    Stmt n(db_, "SELECT count(*) FROM src.samples s JOIN merge_iterations m ON s.iteration_id = m.old");
    n.step();
    counts.samples = n.i64(0);
  }
  tx.commit();
  return counts;
}

}  // namespace schedlab
