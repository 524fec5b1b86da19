// The result store: one SQLite file holding runs, their manifests, variants
// with their knobs, every iteration with its raw output, the samples, and the
// knob journal. The database is the product: schema changes are numbered
// migrations (migrations.h), never a drop and recreate.
//
// Store owns the connection (database.h) and holds one object per table
// concept, each with its SQL and row readers in its own file (README.md
// names them). A function takes the tables it uses, not the Store
// (stored_point_stops(const PointStopsTable&, ...)); its caller hands them
// out (store.point_stops_table(), store.journal(), ...) and includes the
// header of each table it calls. This header names the tables only, so a
// change to one table rebuilds its users, not every user of the Store.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "results/database.h"
#include "results/store_error.h"

namespace schedlab {

class BisectLog;
class CellCache;
class IterationsTable;
class KnobJournalTable;
class MetricsTable;
class MonitorRows;
class NightlyLog;
class PointStopsTable;
class RunsTable;
class VariantsTable;

class Store {
 public:
  using Access = Database::Access;
  // Opens PATH in ACCESS (Database::Access says what each mode does).
  explicit Store(const std::string& path, Access access = Access::kCreate);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // An existing database opened to write where the file may be written
  // (an older one migrated), else to read only (a 0444 file, a read-only
  // mount, a directory where SQLite cannot create the WAL's files), as
  // `writable` then says: for readers that keep what they computed when
  // they may (history's cell summaries).
  static std::unique_ptr<Store> open_keeping(const std::string& path, bool& writable);

  static constexpr int kSchemaVersion = Database::kSchemaVersion;
  static constexpr std::chrono::milliseconds kWriteLockWait = Database::kWriteLockWait;
  int schema_version() const { return database_.schema_version(); }
  const std::string& path() const { return database_.path(); }

  // The tables.
  RunsTable& runs_table() { return *runs_; }
  const RunsTable& runs_table() const { return *runs_; }
  VariantsTable& variants_table() { return *variants_; }
  const VariantsTable& variants_table() const { return *variants_; }
  MetricsTable& metrics_table() { return *metrics_; }
  const MetricsTable& metrics_table() const { return *metrics_; }
  MonitorRows& monitor_rows() { return *monitor_rows_; }
  const MonitorRows& monitor_rows() const { return *monitor_rows_; }
  IterationsTable& iterations_table() { return *iterations_; }
  const IterationsTable& iterations_table() const { return *iterations_; }
  CellCache& cell_cache() { return *cell_cache_; }
  const CellCache& cell_cache() const { return *cell_cache_; }
  PointStopsTable& point_stops_table() { return *point_stops_; }
  const PointStopsTable& point_stops_table() const { return *point_stops_; }
  KnobJournalTable& journal() { return *journal_; }
  const KnobJournalTable& journal() const { return *journal_; }
  NightlyLog& nightly_log() { return *nightly_log_; }
  const NightlyLog& nightly_log() const { return *nightly_log_; }
  BisectLog& bisect_log() { return *bisect_log_; }
  const BisectLog& bisect_log() const { return *bisect_log_; }

  // Reads from one state of the database while it lives: what another
  // process commits meanwhile is not seen (SQLite's deferred read
  // transaction, on the connection). Nothing may be written through the
  // Store while one lives.
  class ReadSnapshot {
   public:
    explicit ReadSnapshot(const Store& store);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;

   private:
    sqlite3* db_;
  };

  // Another database's runs copied into this one (results/store_merge.cc):
  // a run of the same name and config gets the input's iterations (another
  // pair's), equal iterations are skipped (merging twice is a no-op), a
  // conflict (same run name with another config; a variant, metric or
  // iteration, its samples and monitor deltas included, that differs) is a
  // StoreError and nothing is written, so the result never depends on the
  // order of the inputs. Cell summaries are not copied (history
  // recomputes). The input is only read (opened read-only): it must be a
  // schedlab database (schema version and tables); one of a newer schema is
  // refused, one of an older schema is migrated in a temporary copy.
  struct MergeCounts {
    int runs_new = 0;     // created here
    int runs_joined = 0;  // already here, by name and config
    std::int64_t iterations_new = 0;
    std::int64_t iterations_present = 0;  // equal ones already here
    std::int64_t samples = 0;
  };
  MergeCounts merge_from(const std::string& input);
  // What merge_from checks first, for checking every input before writing;
  // then READ, when given, is called with a path a read-only Store opens:
  // the input itself, or, for an older schema, its migrated copy (removed
  // after), so a caller can check what the readers would refuse.
  static void check_mergeable(const std::string& input,
                              const std::function<void(const std::string&)>& read = {});

  // Every write of the store between its construction and commit() as one
  // transaction: all of it or (destroyed uncommitted, or the process
  // killed) none of it. `schedlab import` stores its runs in one: a killed
  // import leaves nothing behind. Not for runs, whose iterations are each
  // committed as they finish.
  class WriteBatch {
   public:
    explicit WriteBatch(Store& store);
    ~WriteBatch();
    WriteBatch(const WriteBatch&) = delete;
    WriteBatch& operator=(const WriteBatch&) = delete;
    void commit();

   private:
    sqlite3* db_;
    bool done_ = false;
  };

  // Deletes a run and everything stored of it (variants, metrics,
  // iterations, samples, monitor data, stop reasons, summaries); its journal
  // rows and nightly measurements stay as history with no run. Throws
  // StoreError when the run does not exist or has knobs still to restore.
  void delete_run(std::int64_t run_id);

 private:
  Database database_;
  sqlite3* db_;  // database_'s connection, which every table uses
  std::unique_ptr<RunsTable> runs_;
  std::unique_ptr<VariantsTable> variants_;
  std::unique_ptr<MetricsTable> metrics_;
  std::unique_ptr<MonitorRows> monitor_rows_;
  std::unique_ptr<IterationsTable> iterations_;
  std::unique_ptr<CellCache> cell_cache_;
  std::unique_ptr<PointStopsTable> point_stops_;
  std::unique_ptr<KnobJournalTable> journal_;
  std::unique_ptr<NightlyLog> nightly_log_;
  std::unique_ptr<BisectLog> bisect_log_;
};

}  // namespace schedlab
