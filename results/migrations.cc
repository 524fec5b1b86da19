#include "results/migrations.h"

#include <iterator>

#include "results/database.h"

namespace schedlab {
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
    // before and after, and the flat delta rows (analysis/counters/monitors.h).
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
    // workload from this index alone (IterationsTable::for_each_run_iterations).
    R"sql(
CREATE INDEX iterations_by_workload ON iterations
  (workload, run_id, id, variant_id, block, row, row_order, status, iteration);
)sql",
    // 10: `schedlab history` reads each run's cells of a metric from here
    // (analysis/history/cell_summaries.h), not from its iterations and samples. The
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
    // Bisect's verdicts after repeated looks (analysis/sequential/bisect_looks.h): the
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
    // 16: a metric's kind is one of base/metric_vocabulary.h's words, as its
    // direction has been since 1. SQLite cannot add a CHECK to a column, so
    // the table is rebuilt (as 4 rebuilt iterations); the rows keep their
    // rowids, which are a run's declaration order. A row with another kind
    // fails the copy, and the migration with it: nothing is dropped.
    R"sql(
CREATE TABLE metrics_v16 (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  workload TEXT NOT NULL,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('lower', 'higher')),
  centre TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('run', 'interval')),
  precision INTEGER NOT NULL,
  PRIMARY KEY (run_id, workload, name)
);
INSERT INTO metrics_v16 (rowid, run_id, workload, name, unit, direction, centre, kind, precision)
  SELECT rowid, run_id, workload, name, unit, direction, centre, kind, precision FROM metrics;
DROP TABLE metrics;
ALTER TABLE metrics_v16 RENAME TO metrics;
)sql",
    // 17: the values a metric can take (base/metric_vocabulary.h's ValueDomain
    // words), which its intervals are cut to. NULL for the runs stored
    // before: the reader takes the domain its workload declares now, by
    // workload and metric name, or none.
    R"sql(
ALTER TABLE metrics ADD COLUMN domain TEXT CHECK (domain IN ('unbounded', 'nonnegative'));
)sql",
    // 18: a cell summary is current only as its writer left it: any other
    // write to cell_summaries (a hand edit, a crafted row) drops the mark of
    // that run's workload and metric, and a write to a run's variants or
    // metric declarations (whose names, centre and direction a cell is read
    // and computed with) drops the run's marks, as 10's triggers do for its
    // iterations and samples. Store::put_cell_summaries writes its rows
    // before their mark, so the cells it keeps stay current.
    R"sql(
CREATE TRIGGER cell_marks_summary_insert AFTER INSERT ON cell_summaries BEGIN
  DELETE FROM cell_summary_marks
    WHERE run_id = NEW.run_id AND workload = NEW.workload AND metric = NEW.metric;
END;
CREATE TRIGGER cell_marks_summary_update AFTER UPDATE ON cell_summaries BEGIN
  DELETE FROM cell_summary_marks
    WHERE (run_id = OLD.run_id AND workload = OLD.workload AND metric = OLD.metric)
       OR (run_id = NEW.run_id AND workload = NEW.workload AND metric = NEW.metric);
END;
CREATE TRIGGER cell_marks_summary_delete AFTER DELETE ON cell_summaries BEGIN
  DELETE FROM cell_summary_marks
    WHERE run_id = OLD.run_id AND workload = OLD.workload AND metric = OLD.metric;
END;
CREATE TRIGGER cell_marks_variant_insert AFTER INSERT ON variants BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = NEW.run_id;
END;
CREATE TRIGGER cell_marks_variant_update AFTER UPDATE ON variants BEGIN
  DELETE FROM cell_summary_marks WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER cell_marks_variant_delete AFTER DELETE ON variants BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = OLD.run_id;
END;
CREATE TRIGGER cell_marks_metric_insert AFTER INSERT ON metrics BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = NEW.run_id;
END;
CREATE TRIGGER cell_marks_metric_update AFTER UPDATE ON metrics BEGIN
  DELETE FROM cell_summary_marks WHERE run_id IN (OLD.run_id, NEW.run_id);
END;
CREATE TRIGGER cell_marks_metric_delete AFTER DELETE ON metrics BEGIN
  DELETE FROM cell_summary_marks WHERE run_id = OLD.run_id;
END;
)sql",
    // 19: a journal row's tag (results/knob_journal_table.h: journal_row_tag),
    // made with a secret of the user who journaled it on that machine: restore
    // and a run's preflight act only on rows whose tag is this user's (machine
    // and boot ids are world-readable: another user's crafted row named them
    // and root's restore killed that user's choice of process group,
    // hostile15 S3). NULL in the rows written before, which are then left
    // alone, and in closed rows.
    R"sql(
ALTER TABLE knob_journal ADD COLUMN local_tag INTEGER;
)sql",
};
static_assert(std::size(kMigrations) == Database::kSchemaVersion);

}  // namespace

std::span<const char* const> migrations() {
  return kMigrations;
}

}  // namespace schedlab
