#include "results/cell_cache.h"

#include <fmt/format.h>

#include "base/local_secret.h"
#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

// What a mark stores for VERSION: the version tagged with this user's local
// secret, so marks (and the summaries under them) written elsewhere or
// crafted are not current here, and their runs are computed afresh.
std::int64_t mark_version(int version) {
  return local_tag(fmt::format("cell summaries, version {}", version));
}

}  // namespace

void CellCache::for_each_run_cell_summaries(
    const std::string& workload, const std::string& metric, int version,
    const std::function<void(const RunLabel&, std::span<const CellSummary>)>& visit) const {
  // The runs by their start (migration 11's index), each one's mark, its
  // range of cell_summaries' key, and each variant by its key.
  sql::Stmt s(
      db_,
      "SELECT c.run_id, c.variant_id, c.block, c.row, c.n, c.centre, c.ci_low, c.ci_high, "
      "c.ci_reason, v.name, r.name, r.started_at, coalesce(k.kernel_release, ''), r.status, "
      "c.params "
      "FROM runs r "
      "CROSS JOIN cell_summary_marks m ON m.run_id = r.id CROSS JOIN cell_summaries c "
      "ON c.workload = m.workload AND c.metric = m.metric AND c.run_id = m.run_id "
      "JOIN variants v ON v.id = c.variant_id "
      "LEFT JOIN run_kernel_releases k ON k.run_id = r.id "
      "WHERE m.workload = ?1 AND m.metric = ?2 AND m.version = ?3 "
      "ORDER BY r.started_at, r.id, c.position");
  s.bind(1, workload).bind(2, metric).bind(3, mark_version(version));
  RunLabel run;
  std::vector<CellSummary> cells;
  std::size_t used = 0;
  const auto flush = [&] {
    if (used) visit(run, std::span<const CellSummary>(cells.data(), used));
    used = 0;
  };
  while (s.step()) {
    if (used && s.i64(0) != cells[0].run_id) flush();
    if (!used) {
      run.id = s.i64(0);
      run.name.assign(s.view(10));
      run.started_at.assign(s.view(11));
      run.kernel_release.assign(s.view(12));
      run.status = sql::known(run_status_from_string(s.view(13)), s.view(13), "run status");
    }
    if (used == cells.size()) cells.emplace_back();
    CellSummary& c = cells[used++];
    c.run_id = s.i64(0);
    c.variant_id = s.i64(1);
    c.block.assign(s.view(2));  // into the reused cell's buffers
    c.row.assign(s.view(3));
    c.n = s.i64(4);
    c.centre = sql::opt_dbl(s, 5);
    c.ci_low = sql::opt_dbl(s, 6);
    c.ci_high = sql::opt_dbl(s, 7);
    c.ci_reason.assign(s.view(8));
    c.variant.assign(s.view(9));
    c.params.assign(s.view(14));
  }
  flush();
}

std::vector<std::int64_t> CellCache::cell_summary_runs(const std::string& workload,
                                                       const std::string& metric,
                                                       int version) const {
  return sql::rows(
      db_,
      "SELECT run_id FROM cell_summary_marks WHERE workload = ? AND metric = ? AND version = ? "
      "ORDER BY run_id",
      [](const sql::Stmt& s) { return s.i64(0); }, workload, metric, mark_version(version));
}

std::size_t CellCache::put_cell_summaries(const std::string& workload, const std::string& metric,
                                          int version, std::span<const RunCells> runs) {
  sql::Transaction tx(db_);
  sql::Stmt now(
      db_,
      "SELECT count(*), coalesce(max(id), 0) FROM iterations WHERE workload = ? AND run_id = ?");
  sql::Stmt del(db_, "DELETE FROM cell_summaries WHERE workload = ? AND metric = ? AND run_id = ?");
  sql::Stmt one(
      db_,
      "INSERT INTO cell_summaries (workload, metric, run_id, position, variant_id, block, row, "
      "n, centre, ci_low, ci_high, ci_reason, params) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?)");
  sql::Stmt mark(db_,
                 "INSERT OR REPLACE INTO cell_summary_marks (run_id, workload, metric, version) "
                 "VALUES (?, ?, ?, ?)");
  const std::int64_t tagged = mark_version(version);
  std::size_t stored = 0;
  for (const RunCells& run : runs) {
    now.reset();
    now.bind(1, workload).bind(2, run.run_id).step();
    if (now.i64(0) != run.basis.iterations || now.i64(1) != run.basis.last_id) continue;
    del.reset();
    del.bind(1, workload).bind(2, metric).bind(3, run.run_id).run();
    int position = 0;
    for (const CellSummary& c : run.cells) {
      one.reset();
      one.bind(1, workload).bind(2, metric).bind(3, run.run_id).bind(4, position++);
      one.bind(5, c.variant_id).bind(6, c.block).bind(7, c.row).bind(8, c.n).bind(9, c.centre);
      one.bind(10, c.ci_low).bind(11, c.ci_high).bind(12, c.ci_reason).bind(13, c.params).run();
    }
    mark.reset();
    mark.bind(1, run.run_id).bind(2, workload).bind(3, metric).bind(4, tagged).run();
    ++stored;
  }
  tx.commit();
  return stored;
}

void CellCache::invalidate_cell_summaries(std::int64_t run_id) {
  sql::Stmt(db_, "DELETE FROM cell_summary_marks WHERE run_id = ?").bind(1, run_id).run();
}

}  // namespace schedlab
