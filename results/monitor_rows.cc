#include "results/monitor_rows.h"

#include <fmt/format.h>

#include "base/sample_range.h"
#include "base/text.h"
#include "results/sqlite_stmt.h"
#include "results/store_error.h"

namespace schedlab {
namespace {

// A delta row as the store keeps it: in base/sample_range.h's range, as a
// sample is, on write (a monitor parser's slip) and on read (a crafted or
// damaged database: a value stored as text reads as NaN), so no mean,
// stddev or test of `compare --monitors` sees inf or 1e308.
void check_delta(const MonitorDeltaRow& d, std::int64_t iteration_id, bool writing,
                 std::optional<std::string> stored = std::nullopt) {
  const auto why = sql::value_problem(d.value, stored);
  if (!why) return;
  throw StoreError(fmt::format("iteration id {}: {} counter {}: {}{}", iteration_id,
                               terminal_safe(d.monitor), terminal_safe(d.counter), *why,
                               writing ? "; not stored" : " (a damaged or crafted database)"));
}

}  // namespace

void MonitorRows::add(std::int64_t id, const std::vector<MonitorSnapshotRow>& snapshots,
                      const std::vector<MonitorDeltaRow>& deltas) {
  if (!snapshots.empty()) {
    sql::Stmt one(db_,
                  "INSERT INTO monitor_snapshots (iteration_id, monitor, phase, path, text) "
                  "VALUES (?, ?, ?, ?, ?)");
    for (const auto& m : snapshots) {
      one.bind(1, id).bind(2, m.monitor).bind(3, m.phase).bind(4, m.path).bind(5, m.text).run();
      one.reset();
    }
  }
  if (!deltas.empty()) {
    sql::Stmt one(db_,
                  "INSERT INTO monitor_deltas (iteration_id, monitor, counter, value) "
                  "VALUES (?, ?, ?, ?)");
    for (const auto& d : deltas) {
      check_delta(d, id, true);
      one.bind(1, id).bind(2, d.monitor).bind(3, d.counter).bind(4, d.value).run();
      one.reset();
    }
  }
}

std::vector<MonitorSnapshotRow> MonitorRows::monitor_snapshots(std::int64_t run_id,
                                                               const std::string& monitor) const {
  return sql::rows(
      db_,
      "SELECT m.iteration_id, m.monitor, m.phase, m.path, m.text FROM monitor_snapshots m "
      "JOIN iterations i ON i.id = m.iteration_id WHERE i.run_id = ? AND m.monitor = ? "
      "ORDER BY m.rowid",
      [](const sql::Stmt& s) {
        return MonitorSnapshotRow{s.i64(0), s.text(1), s.text(2), s.text(3), s.text(4)};
      },
      run_id, monitor);
}

std::vector<MonitorDeltaRow> MonitorRows::monitor_deltas(std::int64_t run_id,
                                                         const std::string& monitor,
                                                         bool aggregates_only) const {
  // Per-CPU rows are named cpuN.* (schedstat, stat) or *.cpuN (irq tables).
  return sql::rows(
      db_,
      "SELECT d.iteration_id, d.monitor, d.counter, d.value FROM monitor_deltas d "
      "JOIN iterations i ON i.id = d.iteration_id WHERE i.run_id = ?1 "
      "AND (?2 = '' OR d.monitor = ?2) "
      "AND (?3 = 0 OR (d.counter NOT GLOB 'cpu[0-9]*' AND d.counter NOT GLOB '*.cpu[0-9]*')) "
      "ORDER BY d.rowid",
      [](const sql::Stmt& s) {
        MonitorDeltaRow d{s.i64(0), s.text(1), s.text(2), sql::number_or_nan(s, 3)};
        check_delta(d, d.iteration_id, false, sql::stored_non_number(s, 3));
        return d;
      },
      run_id, monitor, aggregates_only ? 1 : 0);
}

}  // namespace schedlab
