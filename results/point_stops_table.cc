#include "results/point_stops_table.h"

#include <fmt/format.h>

#include "results/sqlite_stmt.h"

namespace schedlab {

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
      "seq_ci_low, seq_ci_high, seq_level, seq_design_json, seq_looks_json, seq_note "
      "FROM point_stops WHERE run_id = ? ORDER BY rowid");
  s.bind(1, run_id);
  std::vector<PointStop> out;
  while (s.step()) {
    PointStop p{s.i64(0),  s.i64(1),           s.text(2),   s.text(3), static_cast<int>(s.i64(4)),
                s.text(5), sql::opt_dbl(s, 6), std::nullopt};
    if (!s.is_null(7)) {
      SequentialRecord q;
      q.metric = s.text(7);
      q.decision = s.text(8);
      q.looks = static_cast<int>(s.i64(9));
      q.n_baseline = static_cast<int>(s.i64(10));
      q.n = static_cast<int>(s.i64(11));
      q.p_value = sql::opt_dbl(s, 12);
      q.estimate_pct = sql::opt_dbl(s, 13);
      q.ci_low = sql::opt_dbl(s, 14);
      q.ci_high = sql::opt_dbl(s, 15);
      q.level = s.is_null(16) ? 0.95 : s.dbl(16);
      q.design_json = s.text(17);
      q.looks_json = s.text(18);
      q.note = s.text(19);
      p.sequential = std::move(q);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace schedlab
