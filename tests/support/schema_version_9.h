// A current database taken back to an older schema version, as one written
// before the later migrations: for the tests of migrating old databases.
#pragma once

namespace schedlab::test {

// Migration 19's column dropped, then 18's triggers: schema version 17.
// Every test that takes a database further back starts here (a migration
// run again over objects still there would fail).
#define SCHEDLAB_BACK_TO_17                                                         \
  "ALTER TABLE knob_journal DROP COLUMN local_tag;"                                 \
  "DROP TRIGGER cell_marks_summary_insert; DROP TRIGGER cell_marks_summary_update;" \
  "DROP TRIGGER cell_marks_summary_delete; DROP TRIGGER cell_marks_variant_insert;" \
  "DROP TRIGGER cell_marks_variant_update; DROP TRIGGER cell_marks_variant_delete;" \
  "DROP TRIGGER cell_marks_metric_insert; DROP TRIGGER cell_marks_metric_update;"   \
  "DROP TRIGGER cell_marks_metric_delete;"

inline constexpr const char* kBackToSchemaVersion17 =
    SCHEDLAB_BACK_TO_17 "PRAGMA user_version = 17";

// Version 9, as written before migrations 10 to 19 (they only add these; 12
// widens an index of 9's, put back as 9 made it; 16 rebuilds metrics, whose
// CHECK on kind it keeps and 16 makes again, and drops 17's domain column).
inline constexpr const char* kBackToSchemaVersion9 = SCHEDLAB_BACK_TO_17
    "DROP TRIGGER cell_marks_iteration_insert; DROP TRIGGER cell_marks_iteration_update;"
    "DROP TRIGGER cell_marks_iteration_delete; DROP TRIGGER cell_marks_sample_insert;"
    "DROP TRIGGER cell_marks_sample_update; DROP TRIGGER cell_marks_sample_delete;"
    "DROP TABLE cell_summaries; DROP TABLE cell_summary_marks; DROP INDEX runs_by_start;"
    "DROP TRIGGER run_kernel_release_insert; DROP TRIGGER run_kernel_release_update;"
    "DROP TRIGGER run_kernel_release_delete; DROP TABLE run_kernel_releases;"
    "DROP INDEX iterations_by_workload;"
    "CREATE INDEX iterations_by_workload ON iterations (workload, run_id, id, variant_id, block, "
    "row, "
    "row_order, status, iteration);"
    "ALTER TABLE knob_journal DROP COLUMN machine_id; ALTER TABLE knob_journal DROP COLUMN boot_id;"
    "ALTER TABLE knob_journal DROP COLUMN hostname; ALTER TABLE knob_journal DROP COLUMN merged;"
    "ALTER TABLE iterations DROP COLUMN notes;"
    "ALTER TABLE point_stops DROP COLUMN seq_metric; ALTER TABLE point_stops DROP COLUMN "
    "seq_decision;"
    "ALTER TABLE point_stops DROP COLUMN seq_looks; ALTER TABLE point_stops DROP COLUMN "
    "seq_n_baseline;"
    "ALTER TABLE point_stops DROP COLUMN seq_n; ALTER TABLE point_stops DROP COLUMN seq_p_value;"
    "ALTER TABLE point_stops DROP COLUMN seq_estimate_pct; ALTER TABLE point_stops DROP COLUMN "
    "seq_ci_low;"
    "ALTER TABLE point_stops DROP COLUMN seq_ci_high; ALTER TABLE point_stops DROP COLUMN "
    "seq_level;"
    "ALTER TABLE point_stops DROP COLUMN seq_design_json; ALTER TABLE point_stops DROP COLUMN "
    "seq_looks_json;"
    "ALTER TABLE point_stops DROP COLUMN seq_note; ALTER TABLE bisect_decisions DROP COLUMN "
    "level_good;"
    "ALTER TABLE bisect_decisions DROP COLUMN level_bad; ALTER TABLE bisect_decisions DROP COLUMN "
    "error_rates;"
    "PRAGMA user_version = 9";

#undef SCHEDLAB_BACK_TO_17

}  // namespace schedlab::test
