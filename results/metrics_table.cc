#include "results/metrics_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/text.h"
#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

constexpr int kMaxMetricPrecision = 12;

// A declaration's word read back as its enum; a word the vocabulary does not
// have names where it was found, for whoever has to mend the database.
template <typename E>
E declared(std::optional<E> value, std::string_view word, const char* what, std::int64_t run,
           const MetricInfo& m) {
  if (!value)
    throw StoreError(fmt::format("unknown metric {} '{}' in the database (run {}, metric {} {})",
                                 what, terminal_safe(word), run, terminal_safe(m.workload),
                                 terminal_safe(m.name)));
  return *value;
}

// A metric's declaration: run_id, workload, name, unit, direction, centre,
// kind, precision, domain (NULL before schema 17).
MetricInfo read_metric(const sql::Stmt& s) {
  const std::int64_t run = s.i64(0);
  MetricInfo m{.workload = s.text(1),
               .name = s.text(2),
               .unit = s.text(3),
               .centre = s.text(5),
               .precision = static_cast<int>(
                   std::clamp<std::int64_t>(s.i64(7), -1, kMaxMetricPrecision + 1))};
  const std::string direction = s.text(4), kind = s.text(6);
  m.direction = declared(direction_from_string(direction), direction, "direction", run, m);
  m.kind = declared(sample_kind_from_string(kind), kind, "kind", run, m);
  if (!s.is_null(8)) {
    const std::string domain = s.text(8);
    m.domain = declared(domain_from_string(domain), domain, "domain", run, m);
  }
  // Digits after the point in a table: a crafted 1000000000 would print a
  // billion digits a cell (no workload declares more than a few).
  if (m.precision < 0 || m.precision > kMaxMetricPrecision)
    throw StoreError(fmt::format(
        "metric {} {} of run {} has precision {}: not from 0 to {} (a "
        "damaged or crafted database)",
        terminal_safe(m.workload), terminal_safe(m.name), run, s.i64(7), kMaxMetricPrecision));
  return m;
}

}  // namespace

bool same_scale(const MetricInfo& a, const MetricInfo& b) {
  return a.unit == b.unit && a.direction == b.direction && a.kind == b.kind;
}

std::string scale_text(const MetricInfo& m) {
  return fmt::format("{}, {} is better, a sample per {}",
                     m.unit.empty() ? "with no unit" : "in " + m.unit, to_string(m.direction),
                     to_string(m.kind));
}

void MetricsTable::add_metric(std::int64_t run_id, const MetricInfo& m) {
  sql::Stmt s(
      db_,
      "INSERT OR IGNORE INTO metrics (run_id, workload, name, unit, direction, centre, kind, "
      "precision, domain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run_id).bind(2, m.workload).bind(3, m.name).bind(4, m.unit);
  s.bind(5, sql::word(m.direction)).bind(6, m.centre).bind(7, sql::word(m.kind));
  s.bind(8, m.precision);
  if (m.domain) s.bind(9, sql::word(*m.domain));
  s.run();
}

std::vector<MetricInfo> MetricsTable::metrics(std::int64_t run_id) const {
  return sql::rows(
      db_,
      "SELECT run_id, workload, name, unit, direction, centre, kind, precision, domain "
      "FROM metrics WHERE run_id = ? ORDER BY rowid",
      [](const sql::Stmt& s) { return read_metric(s); }, run_id);
}

std::optional<MetricInfo> MetricsTable::latest_metric(const std::string& workload,
                                                      const std::string& name) const {
  sql::Stmt s(
      db_,
      "SELECT m.run_id, m.workload, m.name, m.unit, m.direction, m.centre, m.kind, m.precision, "
      "m.domain "
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

std::map<std::string, std::vector<std::string>> MetricsTable::metric_names() const {
  sql::Stmt s(db_,
              "SELECT workload, name FROM metrics GROUP BY workload, name ORDER BY MIN(rowid)");
  std::map<std::string, std::vector<std::string>> out;
  while (s.step()) out[s.text(0)].push_back(s.text(1));
  return out;
}

std::map<std::int64_t, MetricInfo> MetricsTable::metric_by_run(const std::string& workload,
                                                               const std::string& name) const {
  sql::Stmt s(db_,
              "SELECT run_id, workload, name, unit, direction, centre, kind, precision, domain "
              "FROM metrics WHERE workload = ? AND name = ?");
  s.bind(1, workload).bind(2, name);
  std::map<std::int64_t, MetricInfo> out;
  while (s.step()) out[s.i64(0)] = read_metric(s);
  return out;
}

}  // namespace schedlab
