#include "results/metrics_table.h"

#include <fmt/format.h>

#include "results/sqlite_stmt.h"

namespace schedlab {

using sql::known;
using sql::opt_dbl;
using sql::Stmt;
using sql::word;

void MetricsTable::add_metric(std::int64_t run_id, const MetricInfo& m) {
  Stmt s(db_,
         "INSERT OR IGNORE INTO metrics (run_id, workload, name, unit, direction, centre, kind, "
         "precision) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run_id).bind(2, m.workload).bind(3, m.name).bind(4, m.unit).bind(5, m.direction);
  s.bind(6, m.centre).bind(7, m.kind).bind(8, m.precision).run();
}

std::vector<MetricInfo> MetricsTable::metrics(std::int64_t run_id) const {
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

std::optional<MetricInfo> MetricsTable::latest_metric(const std::string& workload,
                                                      const std::string& name) const {
  Stmt s(db_,
         "SELECT m.workload, m.name, m.unit, m.direction, m.centre, m.kind, m.precision "
         "FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.workload = ? AND m.name = ? "
         "ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
  s.bind(1, workload).bind(2, name);
  if (!s.step()) return std::nullopt;
  return MetricInfo{
      s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), static_cast<int>(s.i64(6))};
}

std::vector<std::int64_t> MetricsTable::runs_declaring(const std::string& workload,
                                                       const std::string& name) const {
  Stmt s(db_, "SELECT run_id FROM metrics WHERE workload = ? AND name = ? ORDER BY run_id");
  s.bind(1, workload).bind(2, name);
  std::vector<std::int64_t> out;
  while (s.step()) out.push_back(s.i64(0));
  return out;
}

std::map<std::int64_t, MetricInfo> MetricsTable::metric_by_run(const std::string& workload,
                                                               const std::string& name) const {
  Stmt s(db_,
         "SELECT run_id, workload, name, unit, direction, centre, kind, precision FROM metrics "
         "WHERE workload = ? AND name = ?");
  s.bind(1, workload).bind(2, name);
  std::map<std::int64_t, MetricInfo> out;
  while (s.step())
    out[s.i64(0)] = {s.text(1),
                     s.text(2),
                     s.text(3),
                     s.text(4),
                     s.text(5),
                     s.text(6),
                     static_cast<int>(s.i64(7))};
  return out;
}

}  // namespace schedlab
