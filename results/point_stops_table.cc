#include "results/point_stops_table.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "base/text.h"
#include "results/sqlite_stmt.h"
#include "results/store_error.h"

namespace schedlab {
namespace {

// A stop's figures are printed as facts (the interval at the stop, the
// sequential p, estimate and interval): a crafted or damaged row holding
// text, inf or NaN there is refused naming the stop, never printed as
// "inf%" or read as 0.
// The one refusal of a stop's stored value: WHAT (its column) holds VALUE,
// which is not WHY.
// The most a stored look's JSON takes (three numbers and their names).
constexpr std::int64_t kLookBytes = 256;

[[noreturn]] void refuse(std::int64_t run_id, const std::string& workload, const char* what,
                         const std::string& value, const char* why) {
  throw StoreError(fmt::format("run {}: the stop of {} has {} {}: not {} (a damaged or crafted "
                               "database)",
                               run_id, terminal_safe(workload), what, value, why));
}

std::optional<double> stored_figure(const sql::Stmt& s, int col, std::int64_t run_id,
                                    const std::string& workload, const char* what) {
  if (s.is_null(col)) return std::nullopt;
  const double v = sql::number_or_nan(s, col);
  if (!std::isfinite(v)) refuse(run_id, workload, what, fmt::format("{}", v), "a finite number");
  return v;
}

// A stop's counts (its iterations, the test's looks and n a side) are
// printed as facts too: one below 0 or past an int is refused the same way,
// never printed as "after -7 looks" or cut to its low 32 bits.
int stored_count(const sql::Stmt& s, int col, std::int64_t run_id, const std::string& workload,
                 const char* what) {
  const std::int64_t v = s.i64(col);
  if (v < 0 || v > std::numeric_limits<int>::max())
    refuse(run_id, workload, what, std::to_string(v), "a count");
  return static_cast<int>(v);
}

}  // namespace

void PointStopsTable::record_point_stop(const PointStop& p) {
  sql::Stmt s(
      db_,
      "INSERT OR REPLACE INTO point_stops (run_id, variant_id, workload, params_json, "
      "iterations, reason, ci_halfwidth_pct, seq_metric, seq_decision, seq_looks, seq_n_baseline, "
      "seq_n, seq_p_value, seq_estimate_pct, seq_ci_low, seq_ci_high, seq_level, seq_design_json, "
      "seq_looks_json, seq_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?)");
  s.bind(1, p.run_id).bind(2, p.variant_id).bind(3, p.workload).bind(4, p.params_json);
  s.bind(5, p.iterations).bind(6, p.reason).bind(7, p.ci_halfwidth_pct);
  if (const auto& q = p.sequential) {
    s.bind(8, q->metric)
        .bind(9, q->decision)
        .bind(10, q->looks)
        .bind(11, q->n_baseline)
        .bind(12, q->n);
    s.bind(13, q->p_value).bind(14, q->estimate_pct).bind(15, q->ci_low).bind(16, q->ci_high);
    s.bind(17, q->level).bind(18, q->design_json).bind(19, q->looks_json).bind(20, q->note);
  } else {
    for (int i = 8; i <= 20; ++i) s.bind_null(i);
  }
  s.run();
}

std::vector<PointStop> PointStopsTable::point_stops(std::int64_t run_id) const {
  sql::Stmt s(
      db_,
      "SELECT run_id, variant_id, workload, params_json, iterations, reason, ci_halfwidth_pct, "
      "seq_metric, seq_decision, seq_looks, seq_n_baseline, seq_n, seq_p_value, seq_estimate_pct, "
      "seq_ci_low, seq_ci_high, seq_level, seq_design_json, seq_looks_json, seq_note, "
      "length(seq_looks_json) FROM point_stops WHERE run_id = ? ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<PointStop> out;
  while (s.step()) {
    const std::string workload = s.text(2);
    const auto figure = [&](int col, const char* what) {
      return stored_figure(s, col, run_id, workload, what);
    };
    const auto count = [&](int col, const char* what) {
      return stored_count(s, col, run_id, workload, what);
    };
    PointStop p{s.i64(0),
                s.i64(1),
                workload,
                s.text(3),
                count(4, "iterations"),
                s.text(5),
                figure(6, "ci_halfwidth_pct"),
                std::nullopt};
    if (!s.is_null(7)) {
      SequentialRecord q;
      q.metric = s.text(7);
      q.decision = s.text(8);
      q.looks = count(9, "seq_looks");
      q.n_baseline = count(10, "seq_n_baseline");
      q.n = count(11, "seq_n");
      q.p_value = figure(12, "seq_p_value");
      q.estimate_pct = figure(13, "seq_estimate_pct");
      q.ci_low = figure(14, "seq_ci_low");
      q.ci_high = figure(15, "seq_ci_high");
      q.level = figure(16, "seq_level").value_or(0.95);
      if (!(q.level > 0 && q.level < 1))
        refuse(run_id, workload, "seq_level", fmt::format("{}", q.level),
               "a level between 0 and 1");
      q.design_json = s.text(17);
      // A look is {"n":..,"fraction":..,"needed_n":..}, under 256 bytes: a
      // crafted row's two million looks under seq_looks 10 were read whole
      // (670 MB) by every compare (hostile11).
      const std::int64_t looks_bytes = s.i64(20);
      const std::int64_t bound = (static_cast<std::int64_t>(q.looks) + 1) * kLookBytes;
      if (looks_bytes > bound)
        refuse(run_id, workload, "seq_looks_json", fmt::format("of {} bytes", looks_bytes),
               fmt::format("the text of {} looks (seq_looks; at most {} bytes)", q.looks, bound)
                   .c_str());
      q.looks_json = s.text(18);
      q.note = s.text(19);
      p.sequential = std::move(q);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace schedlab
