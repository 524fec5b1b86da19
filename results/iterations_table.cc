#include "results/iterations_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "base/sample_range.h"
#include "base/text.h"
#include "results/sqlite_stmt.h"

namespace schedlab {
namespace {

// A sample as the store keeps it: in base/sample_range.h's range, on write
// (a parser's slip) and on read (a crafted or damaged database: a value
// stored as text reads as NaN, see sql::number_or_nan), so no statistic
// sees inf or 1e308. `where` names the iteration.
void check_sample(const SampleRow& s, const IterationRow& it, bool writing,
                  std::optional<std::string> stored = std::nullopt) {
  auto why = sql::value_problem(s.value, stored);
  if (!why && s.offset_s && !std::isfinite(*s.offset_s))
    why = fmt::format("its offset {} is not finite", *s.offset_s);
  if (!why) return;
  const std::string where =
      writing ? fmt::format("run {} iteration {} of {} {}", it.run_id, it.iteration,
                            terminal_safe(it.workload), terminal_safe(it.params_json))
              : fmt::format("run {} iteration {} (id {}) of {}", it.run_id, it.iteration, it.id,
                            terminal_safe(it.workload));
  throw StoreError(fmt::format("{}: sample of {}: {}{}", where, terminal_safe(s.metric), *why,
                               writing ? "; not stored" : " (a damaged or crafted database)"));
}

// What a sample of the iteration stored as no number holds (number_or_nan
// read it as NaN; SQLite stores no NaN as a number). Looked up again only
// when one is found: history's scan of every sample keeps no text per
// sample.
std::optional<std::string> non_number_sample(sqlite3* db, std::int64_t iteration_id,
                                             const std::string& metric) {
  sql::Stmt s(db,
              "SELECT value FROM samples WHERE iteration_id = ? AND metric = ? "
              "AND typeof(value) NOT IN ('integer', 'real') ORDER BY rowid LIMIT 1");
  s.bind(1, iteration_id).bind(2, metric);
  return s.step() ? sql::stored_non_number(s, 0) : std::nullopt;
}

std::optional<double> stored_offset(const sql::Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return sql::number_or_nan(s, col);
}

}  // namespace

void IterationsTable::add_samples(std::int64_t iteration_id,
                                  const std::vector<SampleRow>& samples) {
  // An iteration may hold a million interval samples: prepared statements
  // of kBatch rows each (a statement's steps cost more than its rows), then
  // one row at a time for the rest. Without the samples' triggers: all they
  // do is drop the run's cell summaries, which the iteration's own insert,
  // in the same transaction, has just done (cell_marks_iteration_insert).
  const sql::TriggersOff triggers_off(db_);
  constexpr std::size_t kBatch = 64;
  std::size_t i = 0;
  if (samples.size() >= kBatch) {
    std::string sql =
        "INSERT INTO samples (iteration_id, metric, value, offset_s) VALUES (?, ?, ?, ?)";
    for (std::size_t r = 1; r < kBatch; ++r) sql += ", (?, ?, ?, ?)";
    sql::Stmt batch(db_, sql.c_str());
    for (; i + kBatch <= samples.size(); i += kBatch) {
      for (std::size_t r = 0; r < kBatch; ++r) {
        const auto& sample = samples[i + r];
        const int at = static_cast<int>(4 * r);
        batch.bind(at + 1, iteration_id).bind(at + 2, sample.metric).bind(at + 3, sample.value);
        batch.bind(at + 4, sample.offset_s);
      }
      batch.run();
      batch.reset();
    }
  }
  if (i == samples.size()) return;
  sql::Stmt one(db_,
                "INSERT INTO samples (iteration_id, metric, value, offset_s) VALUES (?, ?, ?, ?)");
  for (; i < samples.size(); ++i) {
    one.bind(1, iteration_id)
        .bind(2, samples[i].metric)
        .bind(3, samples[i].value)
        .bind(4, samples[i].offset_s)
        .run();
    one.reset();
  }
}

std::int64_t IterationsTable::add_iteration(const IterationRow& it) {
  for (const auto& sample : it.samples) check_sample(sample, it, true);
  sql::Transaction tx(db_);
  sql::Stmt s(db_,
              "INSERT INTO iterations (run_id, variant_id, workload, block, row, row_order, "
              "params_json, iteration, status, started_at, duration_s, exit_code, stdout, stderr, "
              "error, pair, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, it.run_id).bind(2, it.variant_id).bind(3, it.workload).bind(4, it.block);
  s.bind(5, it.row).bind(6, it.row_order).bind(7, it.params_json).bind(8, it.iteration);
  s.bind(9, sql::word(it.status))
      .bind(10, it.started_at)
      .bind(11, it.duration_s)
      .bind(12, it.exit_code);
  s.bind(13, it.stdout_text).bind(14, it.stderr_text).bind(15, it.error).bind(16, it.pair);
  s.bind(17, it.notes).run();
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  add_samples(id, it.samples);
  MonitorRows(db_).add(id, it.monitor_snapshots, it.monitor_deltas);
  tx.commit();
  return id;
}

namespace {

// The columns read_iteration reads, in its order; stdout and stderr follow
// when asked for.
constexpr const char* kIterationColumns =
    "id, run_id, variant_id, workload, block, row, row_order, params_json, iteration, status, "
    "started_at, duration_s, exit_code, error, pair, notes";

IterationRow read_iteration(const sql::Stmt& s, bool with_output) {
  IterationRow r;
  r.id = s.i64(0);
  r.run_id = s.i64(1);
  r.variant_id = s.i64(2);
  r.workload = s.text(3);
  r.block = s.text(4);
  r.row = s.text(5);
  r.row_order = sql::int_column(s, 6, "iterations", r.id, "row_order");
  r.params_json = s.text(7);
  r.iteration = sql::int_column(s, 8, "iterations", r.id, "iteration");
  r.status = sql::known(iteration_status_from_string(s.view(9)), s.view(9), "iteration status");
  r.started_at = s.text(10);
  r.duration_s = s.dbl(11);
  if (!s.is_null(12)) r.exit_code = sql::int_column(s, 12, "iterations", r.id, "exit_code");
  r.error = s.text(13);
  r.pair = s.text(14);
  r.notes = s.text(15);
  if (with_output) {
    r.stdout_text = s.text(16);
    r.stderr_text = s.text(17);
  }
  return r;
}

// Joins rows of (iteration_id, metric, value, offset_s), each iteration's in
// their stored order, to their iterations by id.
void attach_samples(sql::Stmt& ss, std::vector<IterationRow>& out) {
  std::unordered_map<std::int64_t, std::size_t> index;
  index.reserve(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) index.emplace(out[i].id, i);
  IterationRow* last = nullptr;
  std::int64_t last_id = -1;
  while (ss.step()) {
    const std::int64_t iid = ss.i64(0);
    if (iid != last_id) {
      const auto it = index.find(iid);
      last = it == index.end() ? nullptr : &out[it->second];
      last_id = iid;
    }
    if (!last) continue;
    SampleRow sr{ss.text(1), sql::number_or_nan(ss, 2), stored_offset(ss, 3)};
    check_sample(sr, *last, false, sql::stored_non_number(ss, 2));
    last->samples.push_back(std::move(sr));
  }
}

}  // namespace

std::vector<IterationRow> IterationsTable::iterations(std::int64_t run_id, bool with_output) const {
  sql::Stmt s(db_, fmt::format("SELECT {}{} FROM iterations WHERE run_id = ? ORDER BY id",
                               kIterationColumns, with_output ? ", stdout, stderr" : "")
                       .c_str());
  s.bind(1, run_id);
  std::vector<IterationRow> out;
  while (s.step()) out.push_back(read_iteration(s, with_output));
  // An iteration of a variant that is not its run's (a crafted or damaged
  // database; merge refuses one) was left out of every column unsaid.
  sql::Stmt foreign(db_,
                    "SELECT i.id, i.iteration, i.variant_id FROM iterations i WHERE i.run_id = ? "
                    "AND NOT EXISTS (SELECT 1 FROM variants v WHERE v.id = i.variant_id AND "
                    "v.run_id = i.run_id) LIMIT 1");
  foreign.bind(1, run_id);
  if (foreign.step())
    throw StoreError(
        fmt::format("run {} iteration {} (id {}) names variant id {}, no variant of "
                    "its run (a damaged or crafted database)",
                    run_id, foreign.i64(1), foreign.i64(0), foreign.i64(2)));
  // Samples in one pass, joined to their iterations by id.
  sql::Stmt ss(db_,
               "SELECT s.iteration_id, s.metric, s.value, s.offset_s FROM samples s "
               "JOIN iterations i ON i.id = s.iteration_id WHERE i.run_id = ? ORDER BY s.rowid");
  ss.bind(1, run_id);
  attach_samples(ss, out);
  return out;
}

namespace {

// What for_each_run_iterations reads of an iteration: id, run_id,
// variant_id, block, row, row_order, status, iteration, params_json (in that
// order), into a reused row's buffers.
constexpr const char* kHistoryColumns =
    "id, run_id, variant_id, block, row, row_order, status, iteration, params_json";

void read_history_row(const sql::Stmt& s, const std::string& workload, IterationRow& r) {
  r.id = s.i64(0);
  r.run_id = s.i64(1);
  r.variant_id = s.i64(2);
  r.workload = workload;
  r.block.assign(s.view(3));
  r.row.assign(s.view(4));
  r.row_order = sql::int_column(s, 5, "iterations", r.id, "row_order");
  r.status = sql::known(iteration_status_from_string(s.view(6)), s.view(6), "iteration status");
  r.iteration = sql::int_column(s, 7, "iterations", r.id, "iteration");
  r.params_json.assign(s.view(8));
  r.samples.clear();
}

}  // namespace

void IterationsTable::for_each_run_iterations(
    const std::string& workload, const std::string& metric,
    const std::function<void(std::span<const IterationRow>)>& visit) const {
  // The metric's samples first, in one scan of the table (every workload's:
  // a table scan of a few numbers per row is cheaper than an index lookup
  // per iteration), sorted by iteration and kept in stored order within it.
  struct Sample {
    std::int64_t iteration_id;
    double value;
    std::optional<double> offset_s;
  };
  std::vector<Sample> samples;
  {
    sql::Stmt ss(
        db_, "SELECT iteration_id, value, offset_s FROM samples WHERE metric = ? ORDER BY rowid");
    ss.bind(1, metric);
    while (ss.step())
      samples.push_back({ss.i64(0), sql::number_or_nan(ss, 1), stored_offset(ss, 2)});
  }
  std::stable_sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
    return a.iteration_id < b.iteration_id;
  });
  // Then the iterations from the covering index iterations_by_workload
  // (migration 9), one run at a time; the rows of a run are reused.
  sql::Stmt s(db_, fmt::format("SELECT {} FROM iterations WHERE workload = ? ORDER BY run_id, id",
                               kHistoryColumns)
                       .c_str());
  s.bind(1, workload);
  std::vector<IterationRow> rows;
  std::size_t used = 0;
  std::int64_t run = 0;
  const auto flush = [&] {
    if (used) visit(std::span<const IterationRow>(rows.data(), used));
    used = 0;
  };
  while (s.step()) {
    if (s.i64(1) != run) {
      flush();
      run = s.i64(1);
    }
    if (used == rows.size()) rows.emplace_back();
    IterationRow& r = rows[used++];
    read_history_row(s, workload, r);
    auto at =
        std::lower_bound(samples.begin(), samples.end(), r.id,
                         [](const Sample& x, std::int64_t id) { return x.iteration_id < id; });
    for (; at != samples.end() && at->iteration_id == r.id; ++at) {
      r.samples.push_back({metric, at->value, at->offset_s});
      check_sample(r.samples.back(), r, false,
                   std::isnan(at->value) ? non_number_sample(db_, r.id, metric) : std::nullopt);
    }
  }
  flush();
}

void IterationsTable::for_each_run_iterations(
    const std::string& workload, const std::string& metric, std::span<const std::int64_t> runs,
    const std::function<void(std::span<const IterationRow>)>& visit) const {
  // Two index range reads per run (iterations_by_workload, then
  // samples_by_iteration): for a few runs, far less than the scans above.
  sql::Stmt s(db_,
              fmt::format("SELECT {} FROM iterations WHERE workload = ? AND run_id = ? ORDER BY id",
                          kHistoryColumns)
                  .c_str());
  sql::Stmt ss(db_,
               "SELECT s.iteration_id, s.value, s.offset_s FROM iterations i "
               "JOIN samples s ON s.iteration_id = i.id "
               "WHERE i.workload = ? AND i.run_id = ? AND s.metric = ? ORDER BY i.id, s.rowid");
  std::vector<IterationRow> rows;
  for (const std::int64_t run : runs) {
    std::size_t used = 0;
    s.reset();
    s.bind(1, workload).bind(2, run);
    while (s.step()) {
      if (used == rows.size()) rows.emplace_back();
      read_history_row(s, workload, rows[used++]);
    }
    if (!used) continue;
    ss.reset();
    ss.bind(1, workload).bind(2, run).bind(3, metric);
    // Both in id order: one merge.
    std::size_t at = 0;
    while (ss.step()) {
      while (at < used && rows[at].id < ss.i64(0)) ++at;
      if (at == used) break;
      rows[at].samples.push_back({metric, sql::number_or_nan(ss, 1), stored_offset(ss, 2)});
      check_sample(rows[at].samples.back(), rows[at], false, sql::stored_non_number(ss, 1));
    }
    visit(std::span<const IterationRow>(rows.data(), used));
  }
}

std::int64_t IterationsTable::count_iterations(std::int64_t run_id, IterationStatus status) const {
  sql::Stmt s(db_, "SELECT count(*) FROM iterations WHERE run_id = ? AND status = ?");
  s.bind(1, run_id).bind(2, sql::word(status));
  s.step();
  return s.i64(0);
}

}  // namespace schedlab
