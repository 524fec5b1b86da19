#include "results/store.h"

#include <fmt/format.h>
#include <unistd.h>

#include "results/bisect_log.h"
#include "results/cell_cache.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/metrics_table.h"
#include "results/monitor_rows.h"
#include "results/nightly_log.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/sqlite_stmt.h"
#include "results/variants_table.h"

namespace schedlab {

using sql::Stmt;
using sql::Transaction;
using sql::word;

Store::Store(const std::string& path, Access access)
    : database_(path, access),
      db_(database_.handle()),
      runs_(std::make_unique<RunsTable>(db_, path)),
      variants_(std::make_unique<VariantsTable>(db_)),
      metrics_(std::make_unique<MetricsTable>(db_)),
      monitor_rows_(std::make_unique<MonitorRows>(db_)),
      iterations_(std::make_unique<IterationsTable>(db_)),
      cell_cache_(std::make_unique<CellCache>(db_)),
      point_stops_(std::make_unique<PointStopsTable>(db_)),
      journal_(std::make_unique<KnobJournalTable>(db_, path)),
      nightly_log_(std::make_unique<NightlyLog>(db_)),
      bisect_log_(std::make_unique<BisectLog>(db_)) {}

Store::~Store() = default;

std::unique_ptr<Store> Store::open_keeping(const std::string& path, bool& writable) {
  writable = ::access(path.c_str(), W_OK) == 0;
  if (writable) {
    try {
      return std::make_unique<Store>(path, Access::kExisting);
    } catch (const StoreError&) {
      writable = false;  // e.g. a directory where SQLite cannot create the WAL's files
    }
  }
  return std::make_unique<Store>(path, Access::kReadOnly);
}

Store::ReadSnapshot::ReadSnapshot(const Store& store) : db_(store.db_) {
  // BEGIN alone takes no lock; the first read below it fixes the state read.
  Stmt(db_, "BEGIN").run();
}

Store::ReadSnapshot::~ReadSnapshot() {
  sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
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

void Store::delete_run(std::int64_t run_id) {
  if (!runs_->find_run(run_id))
    throw StoreError(fmt::format("{}: no run with id {}", path(), run_id));
  Transaction tx(db_);
  {
    Stmt live(db_,
              "SELECT count(*) FROM knob_journal WHERE run_id = ? AND state = ? AND merged = 0");
    live.bind(1, run_id).bind(2, word(JournalState::kApplied)).step();
    if (live.i64(0) > 0)
      throw StoreError(
          fmt::format("run {} still has {} knob(s) or leftovers to restore: run 'schedlab restore' "
                      "first",
                      run_id, live.i64(0)));
  }
  // Children before parents (foreign keys are on).
  for (const char* sql : {
           "DELETE FROM samples WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = "
           "?1)",
           "DELETE FROM monitor_snapshots WHERE iteration_id IN (SELECT id FROM iterations WHERE "
           "run_id = ?1)",
           "DELETE FROM monitor_deltas WHERE iteration_id IN (SELECT id FROM iterations WHERE "
           "run_id = ?1)",
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

}  // namespace schedlab
