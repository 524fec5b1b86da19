// The result store: one SQLite file holding runs, their manifests, variants
// with their knobs, every iteration with its raw output, the samples, and the
// knob journal. The database is the product: schema changes are numbered
// migrations (PRAGMA user_version), never a drop and recreate.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/status.h"

namespace schedlab {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunInfo {
  std::int64_t id = 0;
  std::string name;
  std::string config_path;
  std::string config_text;
  std::string config_sha256;
  std::string manifest_json;  // kernel, cmdline, hostname, cpu, version...
  RunStatus status = RunStatus::kRunning;
  std::string started_at;     // ISO 8601 UTC
  std::string ended_at;       // empty while running
};

struct VariantInfo {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::string name;
  int position = 0;        // 0 is the baseline
  std::string knobs_json;  // the variant's knobs as configured
};

// A metric as its workload declared it, stored per run so a database
// stays self-describing for workloads a later binary no longer knows.
struct MetricInfo {
  std::string workload;
  std::string name;
  std::string unit;
  std::string direction;  // lower | higher
  std::string centre;     // amean | hmean | gmean | median
  std::string kind;       // run | interval
  int precision = 4;
};

struct SampleRow {
  std::string metric;
  double value = 0;
  std::optional<double> offset_s;
};

// A monitor's file as read on the SUT before or after an iteration (see
// analysis/monitors.h), kept raw so any delta can be recomputed.
struct MonitorSnapshotRow {
  std::int64_t iteration_id = 0;  // filled when read back
  std::string monitor;            // schedstat | stat | interrupts | softirqs | pressure
  std::string phase;              // before | after
  std::string path;               // /proc/schedstat
  std::string text;
};

// One flat counter of a monitor's delta over an iteration (MonitorDelta::rows).
struct MonitorDeltaRow {
  std::int64_t iteration_id = 0;  // filled when read back
  std::string monitor;
  std::string counter;  // "ctxt", "MC.lb_count_newidle", "LOC.cpu1", ...
  double value = 0;
};

// One measured iteration of one point of the plan.
struct IterationRow {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string pair;  // the SUT/loadgen pair of a pairs: run; empty otherwise
  std::string workload;
  std::string block;        // table label, e.g. hackbench-process-pipes
  std::string row;          // row label, e.g. "4"
  int row_order = 0;        // position of the row within its block
  std::string params_json;  // every parameter of the point
  int iteration = 0;        // 0-based index within the point
  IterationStatus status = IterationStatus::kOk;
  std::string started_at;
  double duration_s = 0;
  std::optional<int> exit_code;
  std::string stdout_text;
  std::string stderr_text;
  std::string error;  // why the iteration failed, empty when ok
  // What a successful iteration's output says about its own quality, one
  // line each (Workload::notes: netperf's confidence not reached); empty
  // when nothing.
  std::string notes;
  std::vector<SampleRow> samples;
  // Monitor data of the iteration, written in its transaction (not read
  // back by iterations(); see monitor_snapshots/monitor_deltas).
  std::vector<MonitorSnapshotRow> monitor_snapshots;
  std::vector<MonitorDeltaRow> monitor_deltas;
};

// One run's cell of one metric as `schedlab history` prints it: compare's
// cell for a variant, block and row (analysis/cell_summaries.h computes
// it). Derived data, kept per (run, workload, metric); see
// Store::cell_summaries.
struct CellSummary {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string variant;  // its name, read with the cell (not stored: variants has it)
  std::string block, row;
  std::int64_t n = 0;
  std::optional<double> centre, ci_low, ci_high;
  std::string ci_reason;
  // The workload parameters the cell was measured with, but the swept one
  // ({"loops":"500","modes":"process-pipes"}, analysis/cell_summaries.h): history's series are split by it.
  std::string params;
};

// What a run's summaries of a workload were computed from: that
// workload's iterations, their number and the highest id.
struct CellBasis {
  std::int64_t iterations = 0;
  std::int64_t last_id = 0;
};

struct JournalEntry {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::string host;
  std::string kind;  // sysctl | ...
  std::string name;  // kernel.sched_autogroup_enabled
  std::string path;  // /proc/sys/kernel/sched_autogroup_enabled
  std::string original;
  std::string target;
  JournalState state = JournalState::kApplied;
  // Who wrote it: the host's /etc/machine-id, its boot (boot_id) and
  // hostname, read on that host (runner/hosts/host.h: Host::identity). A
  // journal acts only on rows of the host and boot it runs on; empty in rows
  // written before schedlab recorded it (migration 13).
  std::string machine_id, boot_id, hostname;
};

// Why a sweep point stopped iterating for one variant.
struct PointStop {
  std::int64_t run_id = 0;
  std::int64_t variant_id = 0;
  std::string workload;
  std::string params_json;
  int iterations = 0;  // measured, any status
  std::string reason;  // fixed | ci_reached | max_reached | failed
  std::optional<double> ci_halfwidth_pct;  // at the stop, when adaptive
};

// schedlab nightly: one attempt to measure a target (a kernel) with a config.
struct NightlyMeasurement {
  std::int64_t id = 0;
  std::string nightly;        // the nightly file's name, for people
  std::string target;         // the target's name in that file
  std::string config_path;
  std::string config_sha256;  // of the config file's text: the same config
  std::optional<std::int64_t> run_id;  // once the run exists
  NightlyStatus status = NightlyStatus::kMeasuring;
  std::string error;          // why it failed (hook, ssh, kernel check, run)
  std::string hook_output;    // the hook's stdout and stderr
  std::string kernel_release; // what the SUT ran (from the run's manifest)
  // The commit a git:PATH@BRANCH lab target was resolved to when the nightly
  // started; empty for any other target.
  std::string kernel_commit;
  std::string started_at;
  std::string ended_at;
};

// A bisection (runner/bisect/bisect.h): what it searches (spec_json: candidates,
// config, metric, hook, test) and where it stands.
struct BisectSession {
  std::int64_t id = 0;
  BisectStatus status = BisectStatus::kRunning;
  std::string spec_json;
  std::string result_json;  // when done or refused: the answer and its numbers
  std::string created_at;
  std::string updated_at;
};

// One decision about one candidate: a reference measured, a verdict after a
// batch of iterations (UNKNOWN rows are followed by more batches), or a skip.
struct BisectDecision {
  std::int64_t id = 0;
  std::int64_t session_id = 0;
  int position = 0;        // index into the session's candidates
  std::string candidate;   // kernel or commit
  std::string verdict;     // GOOD | BAD | UNKNOWN | SKIP | REF-GOOD | REF-BAD
  std::string decided_by;  // test | nearest-centre | reference | hook | ""
  int n = 0;               // pooled samples behind the verdict
  std::optional<double> centre;
  std::optional<double> p_good;  // against the good reference
  std::optional<double> p_bad;   // against the bad reference
  std::string run_ids_json;      // the runs holding the samples, e.g. [4,5]
  std::string note;              // why: a hook's failure, a p-value's absence
  std::string decided_at;
};

class Store {
 public:
  // kCreate: opens (creating if needed) and migrates the database.
  // kExisting: the same, but a missing file is an error, not a new database.
  // kReadOnly: for commands that only read (list, compare, schedstat;
  // history where it cannot write): no migration, no journal switch, nothing written; works on
  // a 0444 file and on a read-only mount.
  // Every mode refuses a database whose schema is newer than this binary; a
  // missing file reads "no database at PATH (run 'schedlab run CONFIG' first)".
  enum class Access { kCreate, kExisting, kReadOnly };
  explicit Store(const std::string& path, Access access = Access::kCreate);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  static constexpr int kSchemaVersion = 14;
  // How long a write waits for another writer's lock (SQLite's busy
  // timeout) before it fails: a merge holds the lock for its whole input,
  // seconds for a million samples, and a run's journal writes must wait for
  // it rather than fail (a knob put back but still journaled `applied`).
  // Read-only connections wait 5 s (WAL readers are not blocked by writers).
  static constexpr std::chrono::milliseconds kWriteLockWait{10 * 60 * 1000};
  int schema_version() const;
  const std::string& path() const { return path_; }

  // Runs.
  std::int64_t create_run(const RunInfo& run);
  void set_run_status(std::int64_t run_id, RunStatus status, bool ended);
  void set_run_manifest(std::int64_t run_id, const std::string& manifest_json);
  // Sets one member of the manifest, by its keys from the top (objects are
  // created on the way), in one statement: the threads of a pairs: run
  // write their parts ({"pairs", NAME}) without overwriting each other's.
  // Keys are plain names ([A-Za-z0-9_-]); value_json must be JSON.
  void set_manifest_member(std::int64_t run_id, const std::vector<std::string>& keys,
                           const std::string& value_json);
  std::optional<RunInfo> find_run(std::int64_t id) const;
  std::optional<RunInfo> find_run_by_name(const std::string& name) const;
  std::vector<RunInfo> list_runs() const;
  // Every run's id, name, start, kernel release (its manifest's
  // "kernel_release" when that is a string, else empty) and status, by id:
  // what a line of `list` or `history` names.
  struct RunLabel {
    std::int64_t id = 0;
    std::string name, started_at, kernel_release;
    RunStatus status = RunStatus::kRunning;
  };
  std::vector<RunLabel> run_labels() const;

  // Variants (in configuration order) and metrics of a run.
  std::int64_t add_variant(const VariantInfo& v);
  std::vector<VariantInfo> variants(std::int64_t run_id) const;
  void add_metric(std::int64_t run_id, const MetricInfo& m);  // idempotent
  std::vector<MetricInfo> metrics(std::int64_t run_id) const;

  // Iterations: each one is written with its samples in one transaction,
  // so a finished iteration survives anything that happens after it.
  std::int64_t add_iteration(const IterationRow& it);
  // Iterations of a run with their samples, in insertion order.
  std::vector<IterationRow> iterations(std::int64_t run_id, bool with_output = false) const;
  // Every run's iterations of one workload, one run at a time in run id
  // order, each with its samples of one metric only; only what a cell of
  // compare needs is filled in (id, run, variant, block, row and its order,
  // status, iteration): a year of history in two scans, one run in memory.
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric,
      const std::function<void(std::span<const IterationRow>)>& visit) const;
  // The same for the given runs only (ascending ids), from the indexes: what
  // history reads of the few runs without cell summaries.
  void for_each_run_iterations(
      const std::string& workload, const std::string& metric, std::span<const std::int64_t> runs,
      const std::function<void(std::span<const IterationRow>)>& visit) const;

  // Cell summaries (migration 10): every run's stored cells of one metric,
  // one run at a time, oldest first (by start, then id), with the run's
  // label, each run's in the order they were put; only
  // runs whose summaries are current: none was put, or the version differs
  // (the computation changed), or an iteration or sample of the run was
  // written since (the database's triggers drop the run's marks) are left
  // out, and the caller computes those.
  void for_each_run_cell_summaries(
      const std::string& workload, const std::string& metric, int version,
      const std::function<void(const RunLabel& run, std::span<const CellSummary>)>& visit) const;
  // The runs whose summaries of one metric are current (the runs
  // for_each_run_cell_summaries visits, and those with no cell), ascending.
  std::vector<std::int64_t> cell_summary_runs(const std::string& workload, const std::string& metric,
                                              int version) const;
  // Replaces runs' summaries of one metric, in one transaction; a run whose
  // iterations of the workload are no longer those of its basis (it went
  // on since they were read) is left without. Returns the runs stored.
  struct RunCells {
    std::int64_t run_id = 0;
    CellBasis basis;
    std::vector<CellSummary> cells;
  };
  std::size_t put_cell_summaries(const std::string& workload, const std::string& metric,
                                 int version, std::span<const RunCells> runs);
  // Drops every summary mark of a run, so its cells are computed afresh.
  // The triggers already do on any write to its iterations or samples; this
  // is for a writer (schedlab merge) changing what else a cell depends on:
  // the run's metric declarations or variants.
  void invalidate_cell_summaries(std::int64_t run_id);

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

  // How the latest run (by start) declaring a metric of a workload declares it.
  std::optional<MetricInfo> latest_metric(const std::string& workload, const std::string& name) const;
  // The runs that declare one metric of a workload, ascending.
  std::vector<std::int64_t> runs_declaring(const std::string& workload, const std::string& name) const;
  // The runs that declare one metric of a workload, and how.
  std::map<std::int64_t, MetricInfo> metric_by_run(const std::string& workload,
                                                   const std::string& name) const;
  // Every run's variants, in configuration order.
  std::map<std::int64_t, std::vector<VariantInfo>> variants_by_run() const;
  // Number of stored iterations per status, for summaries.
  std::int64_t count_iterations(std::int64_t run_id, IterationStatus status) const;
  // Every run's variant names (in position order) and iterations that
  // finished ok, by run id, in two queries whatever the number of runs
  // (`schedlab list` of a year of nightlies).
  struct RunOverview {
    std::vector<std::string> variants;
    std::int64_t iterations_ok = 0;
    // Stored with any other status but unsupported (failed, timeout,
    // parse_error, ...): what `list` must not hide.
    std::int64_t iterations_failed = 0;
    // The manifest's planned_iterations (runs made since schedlab records
    // it; absent for imports and older runs).
    std::optional<std::int64_t> planned_min, planned_max;
  };
  std::map<std::int64_t, RunOverview> run_overviews() const;

  // Monitor data of a run's iterations (one monitor), in insertion order.
  std::vector<MonitorSnapshotRow> monitor_snapshots(std::int64_t run_id,
                                                    const std::string& monitor) const;
  // Deltas of a run's iterations (one monitor, or every monitor when empty).
  // With aggregates_only, per-CPU rows ("cpu3.ttwu_local",
  // "cpu0.domain1.lb_count_idle", "LOC.cpu1") are left out.
  std::vector<MonitorDeltaRow> monitor_deltas(std::int64_t run_id, const std::string& monitor,
                                              bool aggregates_only = false) const;

  // Adaptive iterations: the stop reason per point and variant (upsert).
  void record_point_stop(const PointStop& p);
  std::vector<PointStop> point_stops(std::int64_t run_id) const;

  // Nightly measurements (append; the latest per target, config and kernel
  // commit wins; the commit is '' for targets that are not a git branch).
  std::int64_t add_nightly_measurement(const NightlyMeasurement& m);
  void update_nightly_measurement(const NightlyMeasurement& m);  // by id
  std::optional<NightlyMeasurement> latest_nightly_measurement(
      const std::string& target, const std::string& config_sha256,
      const std::string& kernel_commit = "") const;
  std::vector<NightlyMeasurement> nightly_measurements() const;  // oldest first
  // Bisections and their decisions, in the order they were made.
  std::int64_t create_bisect(const BisectSession& b);
  void set_bisect_status(std::int64_t id, BisectStatus status,
                         const std::string& result_json);
  std::optional<BisectSession> find_bisect(std::int64_t id) const;
  std::optional<BisectSession> latest_bisect() const;
  std::int64_t add_bisect_decision(const BisectDecision& d);
  std::vector<BisectDecision> bisect_decisions(std::int64_t session_id) const;

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

  // A run as a command line names it: its id (digits) or its name; nothing
  // when neither names one (a 20-digit id is no run, not an error).
  std::optional<RunInfo> find_run_arg(const std::string& arg) const;

  // Deletes a run and everything stored of it (variants, metrics,
  // iterations, samples, monitor data, stop reasons, summaries); its journal
  // rows and nightly measurements stay as history with no run. Throws
  // StoreError when the run does not exist or has knobs still to restore.
  void delete_run(std::int64_t run_id);

  // Knob journal.
  std::int64_t journal_applied(const JournalEntry& e);
  void journal_restored(std::int64_t entry_id);
  std::vector<JournalEntry> unrestored(const std::string& host) const;
  // Hosts with unrestored entries.
  std::vector<std::string> unrestored_hosts() const;
  // Marks a host's unrestored entries 'discarded' (a lab guest powered off:
  // its kernel state is gone, nothing can or need be restored) and returns
  // them as they were.
  std::vector<JournalEntry> journal_discard(const std::string& host);
  // One entry marked discarded: a row of an earlier boot of this machine
  // (the reboot put the knob back; nothing is written).
  void journal_discard_entry(std::int64_t entry_id);

 private:
  void migrate();
  void refuse_foreign();
  // Inside add_iteration's transaction.
  void add_samples(std::int64_t iteration_id, const std::vector<SampleRow>& samples);
  void exec(const char* sql);
  void open_read_only();
  // "" when db has every table and column of this binary's schema, else
  // what it lacks ("table runs has no column status"); for merge's inputs.
  static std::string schema_mismatch(sqlite3* db);

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace schedlab
