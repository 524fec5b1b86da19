#include "results/bisect_log.h"

#include <fmt/format.h>

#include "base/time.h"
#include "results/sqlite_stmt.h"

namespace schedlab {

namespace {

constexpr const char* kBisectColumns = "id, status, spec_json, result_json, created_at, updated_at";

BisectSession read_bisect(const sql::Stmt& s) {
  return {.id = s.i64(0),
          .status = sql::known(bisect_status_from_string(s.text(1)), s.text(1), "bisect status"),
          .spec_json = s.text(2),
          .result_json = s.text(3),
          .created_at = s.text(4),
          .updated_at = s.text(5)};
}

}  // namespace

std::int64_t BisectLog::create_bisect(const BisectSession& b) {
  const std::string now = utc_now_iso8601();
  sql::Stmt s(
      db_,
      "INSERT INTO bisect_sessions (status, spec_json, result_json, created_at, updated_at) "
      "VALUES (?, ?, ?, ?, ?)");
  s.bind(1, sql::word(b.status))
      .bind(2, b.spec_json)
      .bind(3, b.result_json.empty() ? "{}" : b.result_json);
  s.bind(4, now).bind(5, now).run();
  return sqlite3_last_insert_rowid(db_);
}

void BisectLog::set_bisect_status(std::int64_t id, BisectStatus status,
                                  const std::string& result_json) {
  sql::Stmt s(
      db_, "UPDATE bisect_sessions SET status = ?, result_json = ?, updated_at = ? WHERE id = ?");
  s.bind(1, sql::word(status)).bind(2, result_json.empty() ? "{}" : result_json);
  s.bind(3, utc_now_iso8601()).bind(4, id).run();
}

std::optional<BisectSession> BisectLog::find_bisect(std::int64_t id) const {
  sql::Stmt s(db_,
              fmt::format("SELECT {} FROM bisect_sessions WHERE id = ?", kBisectColumns).c_str());
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_bisect(s);
}

std::optional<BisectSession> BisectLog::latest_bisect() const {
  sql::Stmt s(db_,
              fmt::format("SELECT {} FROM bisect_sessions ORDER BY id DESC LIMIT 1", kBisectColumns)
                  .c_str());
  if (!s.step()) return std::nullopt;
  return read_bisect(s);
}

std::int64_t BisectLog::add_bisect_decision(const BisectDecision& d) {
  sql::Stmt s(
      db_,
      "INSERT INTO bisect_decisions (session_id, position, candidate, verdict, decided_by, n, "
      "centre, p_good, p_bad, run_ids_json, note, decided_at, level_good, level_bad, error_rates) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, d.session_id).bind(2, d.position).bind(3, d.candidate).bind(4, d.verdict);
  s.bind(5, d.decided_by).bind(6, d.n).bind(7, d.centre).bind(8, d.p_good).bind(9, d.p_bad);
  s.bind(10, d.run_ids_json.empty() ? "[]" : d.run_ids_json).bind(11, d.note);
  s.bind(12, utc_now_iso8601())
      .bind(13, d.level_good)
      .bind(14, d.level_bad)
      .bind(15, d.error_rates)
      .run();
  return sqlite3_last_insert_rowid(db_);
}

std::vector<BisectDecision> BisectLog::bisect_decisions(std::int64_t session_id) const {
  return sql::rows(
      db_,
      "SELECT id, session_id, position, candidate, verdict, decided_by, n, centre, p_good, "
      "p_bad, run_ids_json, note, decided_at, level_good, level_bad, error_rates FROM "
      "bisect_decisions "
      "WHERE session_id = ? ORDER BY id",
      [](const sql::Stmt& s) {
        return BisectDecision{
            .id = s.i64(0),
            .session_id = s.i64(1),
            .position = sql::int_column(s, 2, "bisect_decisions", s.i64(0), "position"),
            .candidate = s.text(3),
            .verdict = s.text(4),
            .decided_by = s.text(5),
            .n = sql::int_column(s, 6, "bisect_decisions", s.i64(0), "n"),
            .centre = sql::opt_dbl(s, 7),
            .p_good = sql::opt_dbl(s, 8),
            .p_bad = sql::opt_dbl(s, 9),
            .run_ids_json = s.text(10),
            .note = s.text(11),
            .decided_at = s.text(12),
            .level_good = sql::opt_dbl(s, 13),
            .level_bad = sql::opt_dbl(s, 14),
            .error_rates = s.text(15)};
      },
      session_id);
}

}  // namespace schedlab
