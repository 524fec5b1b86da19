#include "results/cell_cache.h"

#include <fmt/format.h>

#include <charconv>

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
  // Each text with its length first, each number in full (to_chars: the
  // shortest text that reads back as the same double). No fmt here: a
  // year of nightly runs is hashed on each history.
  std::string text = "cell summaries, version ";
  char buf[64];
  const auto integer = [&](std::int64_t x) {
    text.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
    text += '\n';
  };
  const auto field = [&](std::string_view f) {
    integer(static_cast<std::int64_t>(f.size()));
    text += f;
    text += '\n';
  };
  const auto number = [&](const std::optional<double>& x) {
    if (x) text.append(buf, std::to_chars(buf, buf + sizeof buf, *x).ptr);
    text += x ? "\n" : "-\n";
  };
  integer(version);
  integer(run.id);
  for (const std::string* f : {&run.name, &run.started_at, &workload, &metric}) field(*f);
  for (const CellSummary& c : cells) {
    integer(c.variant_id);
    integer(c.n);
    for (const std::string* f : {&c.block, &c.row, &c.ci_reason, &c.params}) field(*f);
    for (const auto* x : {&c.centre, &c.ci_low, &c.ci_high}) number(*x);
  }
  return local_tag(text);
}

// Reads a cell from the columns from FIRST on: variant_id, block, row, n,
// centre, ci_low, ci_high, ci_reason, params (into the reused cell's
// buffers).
void read_cell(const sql::Stmt& s, int first, CellSummary& c) {
  c.variant_id = s.i64(first);
  c.block.assign(s.view(first + 1));
  c.row.assign(s.view(first + 2));
  c.n = s.i64(first + 3);
  c.centre = sql::opt_dbl(s, first + 4);
  c.ci_low = sql::opt_dbl(s, first + 5);
  c.ci_high = sql::opt_dbl(s, first + 6);
  c.ci_reason.assign(s.view(first + 7));
  c.params.assign(s.view(first + 8));
}

constexpr const char* kCellColumns =
    "c.variant_id, c.block, c.row, c.n, c.centre, c.ci_low, c.ci_high, c.ci_reason, c.params";

}  // namespace

void CellCache::for_each_run_cell_summaries(
    const std::string& workload, const std::string& metric, int version,
    const std::function<void(const RunLabel&, std::span<const CellSummary>)>& visit) const {
  // The runs by their start (migration 11's index), each one's mark, its
  // range of cell_summaries' key, and each variant by its key; a run is
  // visited when its mark is the tag of its cells.
  sql::Stmt s(db_, fmt::format("SELECT m.run_id, m.version, r.name, r.started_at, "
                               "coalesce(k.kernel_release, ''), r.status, v.name, {} "
                               "FROM runs r "
                               "CROSS JOIN cell_summary_marks m ON m.run_id = r.id "
                               "CROSS JOIN cell_summaries c ON c.workload = m.workload AND "
                               "c.metric = m.metric AND c.run_id = m.run_id "
                               "JOIN variants v ON v.id = c.variant_id "
                               "LEFT JOIN run_kernel_releases k ON k.run_id = r.id "
                               "WHERE m.workload = ?1 AND m.metric = ?2 "
                               "ORDER BY r.started_at, r.id, c.position",
                               kCellColumns)
                       .c_str());
  s.bind(1, workload).bind(2, metric);
  RunLabel run;
  std::int64_t mark = 0;
  std::vector<CellSummary> cells;
  std::size_t used = 0;
  const auto flush = [&] {
    const std::span<const CellSummary> mine(cells.data(), used);
    if (used && mark == run_mark(version, run, workload, metric, mine)) visit(run, mine);
    used = 0;
  };
  while (s.step()) {
    if (used && s.i64(0) != run.id) flush();
    if (!used) {
      run.id = s.i64(0);
      mark = s.i64(1);
      run.name.assign(s.view(2));
      run.started_at.assign(s.view(3));
      run.kernel_release.assign(s.view(4));
      run.status = sql::known(run_status_from_string(s.view(5)), s.view(5), "run status");
    }
    if (used == cells.size()) cells.emplace_back();
    CellSummary& c = cells[used++];
    c.run_id = run.id;
    c.variant.assign(s.view(6));
    read_cell(s, 7, c);
  }
  flush();
}

std::vector<std::int64_t> CellCache::cell_summary_runs(const std::string& workload,
                                                       const std::string& metric,
                                                       int version) const {
  // Each marked run's cells (none for a run that has none), those of a
  // variant that exists, as for_each_run_cell_summaries reads them; kept
  // when its mark is their tag.
  sql::Stmt s(db_, fmt::format("SELECT m.run_id, m.version, r.name, r.started_at, "
                               "v.id IS NULL, {} "
                               "FROM cell_summary_marks m JOIN runs r ON r.id = m.run_id "
                               "LEFT JOIN cell_summaries c ON c.workload = m.workload AND "
                               "c.metric = m.metric AND c.run_id = m.run_id "
                               "LEFT JOIN variants v ON v.id = c.variant_id "
                               "WHERE m.workload = ?1 AND m.metric = ?2 "
                               "ORDER BY m.run_id, c.position",
                               kCellColumns)
                       .c_str());
  s.bind(1, workload).bind(2, metric);
  std::vector<std::int64_t> out;
  RunLabel run;
  std::int64_t mark = 0;
  std::vector<CellSummary> cells;
  std::size_t used = 0;
  bool any = false;
  const auto flush = [&] {
    if (any && mark == run_mark(version, run, workload, metric, {cells.data(), used}))
      out.push_back(run.id);
    used = 0;
  };
  while (s.step()) {
    if (!any || s.i64(0) != run.id) {
      flush();
      any = true;
      run.id = s.i64(0);
      mark = s.i64(1);
      run.name.assign(s.view(2));
      run.started_at.assign(s.view(3));
    }
    if (s.i64(4)) continue;  // a mark without cells, or a cell of no variant (not read)
    if (used == cells.size()) cells.emplace_back();
    read_cell(s, 5, cells[used++]);
  }
  flush();
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
  const std::int64_t version_now = data_version();
  for (const RunCells& run : runs) {
    if (run.basis.data_version && *run.basis.data_version != version_now) continue;
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

std::int64_t CellCache::data_version() const {
  sql::Stmt s(db_, "PRAGMA data_version");
  s.step();
  return s.i64(0);
}

void CellCache::invalidate_cell_summaries(std::int64_t run_id) {
  sql::Stmt(db_, "DELETE FROM cell_summary_marks WHERE run_id = ?").bind(1, run_id).run();
}

}  // namespace schedlab
