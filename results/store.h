// The result store: one SQLite file holding runs, their manifests, variants
// with their knobs, every iteration with its raw output, the samples, and the
// knob journal. The database is the product: schema changes are numbered
// migrations (migrations.h), never a drop and recreate.
//
// Store owns the connection (database.h) and holds one object per table
// concept, each with its SQL and row readers in its own file (README.md
// names them); a caller takes the table it uses (store.journal(), ...).
// The forwarding methods below keep the other callers (and the tests) as
// they were.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "results/bisect_log.h"
#include "results/cell_cache.h"
#include "results/database.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/metrics_table.h"
#include "results/monitor_rows.h"
#include "results/nightly_log.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/store_error.h"
#include "results/variants_table.h"

namespace schedlab {

class Store {
 public:
  using Access = Database::Access;
  // Opens PATH in ACCESS (Database::Access says what each mode does).
  explicit Store(const std::string& path, Access access = Access::kCreate);
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  static constexpr int kSchemaVersion = Database::kSchemaVersion;
  static constexpr std::chrono::milliseconds kWriteLockWait = Database::kWriteLockWait;
  int schema_version() const { return database_.schema_version(); }
  const std::string& path() const { return database_.path(); }

  using RunLabel = schedlab::RunLabel;
  using RunOverview = schedlab::RunOverview;
  using RunCells = schedlab::RunCells;

  // The tables.
  RunsTable& runs_table() { return runs_; }
  const RunsTable& runs_table() const { return runs_; }
  VariantsTable& variants_table() { return variants_; }
  const VariantsTable& variants_table() const { return variants_; }
  MetricsTable& metrics_table() { return metrics_; }
  const MetricsTable& metrics_table() const { return metrics_; }
  MonitorRows& monitor_rows() { return monitor_rows_; }
  const MonitorRows& monitor_rows() const { return monitor_rows_; }
  IterationsTable& iterations_table() { return iterations_; }
  const IterationsTable& iterations_table() const { return iterations_; }
  CellCache& cell_cache() { return cell_cache_; }
  const CellCache& cell_cache() const { return cell_cache_; }
  PointStopsTable& point_stops_table() { return point_stops_; }
  const PointStopsTable& point_stops_table() const { return point_stops_; }
  KnobJournalTable& journal() { return journal_; }
  const KnobJournalTable& journal() const { return journal_; }
  NightlyLog& nightly_log() { return nightly_log_; }
  const NightlyLog& nightly_log() const { return nightly_log_; }
  BisectLog& bisect_log() { return bisect_log_; }
  const BisectLog& bisect_log() const { return bisect_log_; }

  // RunsTable (runs_table.h).
  std::int64_t create_run(const RunInfo& run) { return runs_.create_run(run); }
  void set_run_status(std::int64_t run_id, RunStatus status, bool ended) {
    return runs_.set_run_status(run_id, status, ended);
  }
  void set_run_manifest(std::int64_t run_id, const std::string& manifest_json) {
    return runs_.set_run_manifest(run_id, manifest_json);
  }
  void set_manifest_member(std::int64_t run_id, const std::vector<std::string>& keys,
                           const std::string& value_json) {
    return runs_.set_manifest_member(run_id, keys, value_json);
  }
  std::optional<RunInfo> find_run(std::int64_t id) const { return runs_.find_run(id); }
  std::optional<RunInfo> find_run_by_name(const std::string& name) const {
    return runs_.find_run_by_name(name);
  }
  std::vector<RunInfo> list_runs() const { return runs_.list_runs(); }
  std::vector<RunLabel> run_labels() const { return runs_.run_labels(); }
  std::map<std::int64_t, RunOverview> run_overviews() const { return runs_.run_overviews(); }
  std::optional<RunInfo> find_run_arg(const std::string& arg) const {
    return runs_.find_run_arg(arg);
  }

  // VariantsTable (variants_table.h).
  std::int64_t add_variant(const VariantInfo& v) { return variants_.add_variant(v); }
  std::vector<VariantInfo> variants(std::int64_t run_id) const {
    return variants_.variants(run_id);
  }
  std::map<std::int64_t, std::vector<VariantInfo>> variants_by_run() const {
    return variants_.variants_by_run();
  }

  // MetricsTable (metrics_table.h).
  void add_metric(std::int64_t run_id, const MetricInfo& m) {
    return metrics_.add_metric(run_id, m);
  }
  std::vector<MetricInfo> metrics(std::int64_t run_id) const { return metrics_.metrics(run_id); }
  std::optional<MetricInfo> latest_metric(const std::string& workload,
                                          const std::string& name) const {
    return metrics_.latest_metric(workload, name);
  }
  std::vector<std::int64_t> runs_declaring(const std::string& workload,
                                           const std::string& name) const {
    return metrics_.runs_declaring(workload, name);
  }
  std::map<std::int64_t, MetricInfo> metric_by_run(const std::string& workload,
                                                   const std::string& name) const {
    return metrics_.metric_by_run(workload, name);
  }

  // MonitorRows (monitor_rows.h).
  std::vector<MonitorSnapshotRow> monitor_snapshots(std::int64_t run_id,
                                                    const std::string& monitor) const {
    return monitor_rows_.monitor_snapshots(run_id, monitor);
  }
  std::vector<MonitorDeltaRow> monitor_deltas(std::int64_t run_id, const std::string& monitor,
                                              bool aggregates_only = false) const {
    return monitor_rows_.monitor_deltas(run_id, monitor, aggregates_only);
  }

  // IterationsTable (iterations_table.h).
  std::int64_t add_iteration(const IterationRow& it) { return iterations_.add_iteration(it); }
  std::vector<IterationRow> iterations(std::int64_t run_id, bool with_output = false) const {
    return iterations_.iterations(run_id, with_output);
  }
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric,
      const std::function<void(std::span<const IterationRow>)>& visit) const {
    return iterations_.for_each_run_iterations(workload, metric, visit);
  }
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric, std::span<const std::int64_t> runs,
      const std::function<void(std::span<const IterationRow>)>& visit) const {
    return iterations_.for_each_run_iterations(workload, metric, runs, visit);
  }
  std::int64_t count_iterations(std::int64_t run_id, IterationStatus status) const {
    return iterations_.count_iterations(run_id, status);
  }

  // CellCache (cell_cache.h).
  void for_each_run_cell_summaries(
      const std::string& workload, const std::string& metric, int version,
      const std::function<void(const RunLabel& run, std::span<const CellSummary>)>& visit) const {
    return cell_cache_.for_each_run_cell_summaries(workload, metric, version, visit);
  }
  std::vector<std::int64_t> cell_summary_runs(const std::string& workload,
                                              const std::string& metric, int version) const {
    return cell_cache_.cell_summary_runs(workload, metric, version);
  }
  std::size_t put_cell_summaries(const std::string& workload, const std::string& metric,
                                 int version, std::span<const RunCells> runs) {
    return cell_cache_.put_cell_summaries(workload, metric, version, runs);
  }
  void invalidate_cell_summaries(std::int64_t run_id) {
    return cell_cache_.invalidate_cell_summaries(run_id);
  }

  // PointStopsTable (point_stops_table.h).
  void record_point_stop(const PointStop& p) { return point_stops_.record_point_stop(p); }
  std::vector<PointStop> point_stops(std::int64_t run_id) const {
    return point_stops_.point_stops(run_id);
  }

  // KnobJournalTable (knob_journal_table.h).
  std::int64_t journal_applied(const JournalEntry& e) { return journal_.journal_applied(e); }
  void journal_restored(std::int64_t entry_id) { return journal_.journal_restored(entry_id); }
  std::vector<JournalEntry> unrestored(const std::string& host) const {
    return journal_.unrestored(host);
  }
  std::vector<std::string> unrestored_hosts() const { return journal_.unrestored_hosts(); }

  // NightlyLog (nightly_log.h).
  std::int64_t add_nightly_measurement(const NightlyMeasurement& m) {
    return nightly_log_.add_nightly_measurement(m);
  }
  std::optional<NightlyMeasurement> latest_nightly_measurement(
      const std::string& target, const std::string& config_sha256,
      const std::string& kernel_commit = "") const {
    return nightly_log_.latest_nightly_measurement(target, config_sha256, kernel_commit);
  }
  std::vector<NightlyMeasurement> nightly_measurements() const {
    return nightly_log_.nightly_measurements();
  }

  // BisectLog (bisect_log.h).
  std::optional<BisectSession> latest_bisect() const { return bisect_log_.latest_bisect(); }
  std::vector<BisectDecision> bisect_decisions(std::int64_t session_id) const {
    return bisect_log_.bisect_decisions(session_id);
  }

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
  // What merge_from checks first, for checking every input before writing.
  static void check_mergeable(const std::string& input);

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
  RunsTable runs_;
  VariantsTable variants_;
  MetricsTable metrics_;
  MonitorRows monitor_rows_;
  IterationsTable iterations_;
  CellCache cell_cache_;
  PointStopsTable point_stops_;
  KnobJournalTable journal_;
  NightlyLog nightly_log_;
  BisectLog bisect_log_;
};

}  // namespace schedlab
