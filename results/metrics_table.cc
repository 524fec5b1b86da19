#include "results/metrics_table.h"

#include <fmt/format.h>

#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

// A metric's declaration from column AT on: workload, name, unit,
// direction, centre, kind, precision.
MetricInfo read_metric(const sql::Stmt& s, int at = 0) {
  return {s.text(at),
          s.text(at + 1),
          s.text(at + 2),
          s.text(at + 3),
          s.text(at + 4),
          s.text(at + 5),
          static_cast<int>(s.i64(at + 6))};
}

}  // namespace

void MetricsTable::add_metric(std::int64_t run_id, const MetricInfo& m) {
  sql::Stmt s(
      db_,
      "INSERT OR IGNORE INTO metrics (run_id, workload, name, unit, direction, centre, kind, "
      "precision) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run_id).bind(2, m.workload).bind(3, m.name).bind(4, m.unit).bind(5, m.direction);
  s.bind(6, m.centre).bind(7, m.kind).bind(8, m.precision).run();
}

std::vector<MetricInfo> MetricsTable::metrics(std::int64_t run_id) const {
  return sql::rows(
      db_,
      "SELECT workload, name, unit, direction, centre, kind, precision FROM metrics "
      "WHERE run_id = ? ORDER BY rowid",
      [](const sql::Stmt& s) { return read_metric(s); }, run_id);
}

std::optional<MetricInfo> MetricsTable::latest_metric(const std::string& workload,
                                                      const std::string& name) const {
  sql::Stmt s(db_,
              "SELECT m.workload, m.name, m.unit, m.direction, m.centre, m.kind, m.precision "
              "FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.workload = ? AND m.name = ? "
              "ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
  s.bind(1, workload).bind(2, name);
  if (!s.step()) return std::nullopt;
  return read_metric(s);
}

std::vector<std::int64_t> MetricsTable::runs_declaring(const std::string& workload,
                                                       const std::string& name) const {
  return sql::rows(
      db_, "SELECT run_id FROM metrics WHERE workload = ? AND name = ? ORDER BY run_id",
      [](const sql::Stmt& s) { return s.i64(0); }, workload, name);
}

std::map<std::int64_t, MetricInfo> MetricsTable::metric_by_run(const std::string& workload,
                                                               const std::string& name) const {
  sql::Stmt s(
      db_,
      "SELECT run_id, workload, name, unit, direction, centre, kind, precision FROM metrics "
      "WHERE workload = ? AND name = ?");
  s.bind(1, workload).bind(2, name);
  std::map<std::int64_t, MetricInfo> out;
  while (s.step()) out[s.i64(0)] = read_metric(s, 1);
  return out;
}

}  // namespace schedlab
