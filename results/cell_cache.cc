#include "results/cell_cache.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/local_secret.h"
#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

// What a run's mark stores: this user's tag (base/local_secret.h) over the
// summaries' VERSION and everything history prints from them: the run (id,
// name, start), the workload and metric, and each cell in order (variant id,
// block, row, n, centre, interval, reason, parameters; a variant's name is
// the variants table's, as compare reads it). Marks and
// summaries written elsewhere, crafted or edited are not current here and
// their runs are computed afresh from the samples. A mark of the version
// alone was one number in every database of this user, which anyone who
// could read one of them copied into a crafted database to vouch for cells
// of their own: history printed them where the samples say otherwise
// (hostile17). Copied now, it vouches only for the cells it was made with,
// of a run of the same id, name and start.
std::int64_t run_mark(int version, const RunLabel& run, const std::string& workload,
                      const std::string& metric, std::span<const CellSummary> cells) {
  std::string text = fmt::format("cell summaries, version {}\nrun {}\n", version, run.id);
  const auto field = [&](std::string_view f) { text += fmt::format("{}:{}\n", f.size(), f); };
  const auto number = [&](const std::optional<double>& x) {
    text += x ? fmt::format("{}\n", *x) : std::string("-\n");
  };
  for (const std::string* f : {&run.name, &run.started_at, &workload, &metric}) field(*f);
  for (const CellSummary& c : cells) {
    text += fmt::format("cell {} {}\n", c.variant_id, c.n);
    for (const std::string* f : {&c.block, &c.row, &c.ci_reason, &c.params}) field(*f);
    for (const auto* x : {&c.centre, &c.ci_low, &c.ci_high}) number(*x);
  }
  return local_tag(text);
}

}  // namespace

void CellCache::for_each_marked_run(
    const std::string& workload, const std::string& metric, int version,
    const std::function<void(const RunLabel&, std::span<const CellSummary>)>& visit) const {
  // The runs by their start (migration 11's index), each one's mark, its
  // range of cell_summaries' key (none: a run without cells), and each
  // variant by its key.
  sql::Stmt s(
      db_,
      "SELECT m.run_id, c.variant_id, c.block, c.row, c.n, c.centre, c.ci_low, c.ci_high, "
      "c.ci_reason, v.name, r.name, r.started_at, coalesce(k.kernel_release, ''), r.status, "
      "c.params, m.version, c.run_id IS NULL "
      "FROM runs r "
      "CROSS JOIN cell_summary_marks m ON m.run_id = r.id LEFT JOIN cell_summaries c "
      "ON c.workload = m.workload AND c.metric = m.metric AND c.run_id = m.run_id "
      "LEFT JOIN variants v ON v.id = c.variant_id "
      "LEFT JOIN run_kernel_releases k ON k.run_id = r.id "
      "WHERE m.workload = ?1 AND m.metric = ?2 "
      "ORDER BY r.started_at, r.id, c.position");
  s.bind(1, workload).bind(2, metric);
  RunLabel run;
  std::int64_t mark = 0;
  std::vector<CellSummary> cells;
  std::size_t used = 0;
  bool started = false;
  const auto flush = [&] {
    const std::span<const CellSummary> mine(cells.data(), used);
    if (started && mark == run_mark(version, run, workload, metric, mine)) visit(run, mine);
    used = 0;
  };
  while (s.step()) {
    if (!started || s.i64(0) != run.id) {
      flush();
      started = true;
      run.id = s.i64(0);
      run.name.assign(s.view(10));
      run.started_at.assign(s.view(11));
      run.kernel_release.assign(s.view(12));
      run.status = sql::known(run_status_from_string(s.view(13)), s.view(13), "run status");
      mark = s.i64(15);
    }
    if (s.i64(16)) continue;  // a mark without cells
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

void CellCache::for_each_run_cell_summaries(
    const std::string& workload, const std::string& metric, int version,
    const std::function<void(const RunLabel&, std::span<const CellSummary>)>& visit) const {
  for_each_marked_run(workload, metric, version,
                      [&](const RunLabel& run, std::span<const CellSummary> cells) {
                        if (!cells.empty()) visit(run, cells);
                      });
}

std::vector<std::int64_t> CellCache::cell_summary_runs(const std::string& workload,
                                                       const std::string& metric,
                                                       int version) const {
  std::vector<std::int64_t> out;
  for_each_marked_run(
      workload, metric, version,
      [&](const RunLabel& run, std::span<const CellSummary>) { out.push_back(run.id); });
  std::sort(out.begin(), out.end());
  return out;
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
  sql::Stmt label(db_, "SELECT name, started_at FROM runs WHERE id = ?");
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
    label.reset();
    label.bind(1, run.run_id);
    if (!label.step()) continue;
    const RunLabel named{.id = run.run_id, .name = label.text(0), .started_at = label.text(1)};
    mark.reset();
    mark.bind(1, run.run_id).bind(2, workload).bind(3, metric);
    mark.bind(4, run_mark(version, named, workload, metric, run.cells)).run();
    ++stored;
  }
  tx.commit();
  return stored;
}

void CellCache::invalidate_cell_summaries(std::int64_t run_id) {
  sql::Stmt(db_, "DELETE FROM cell_summary_marks WHERE run_id = ?").bind(1, run_id).run();
}

}  // namespace schedlab
