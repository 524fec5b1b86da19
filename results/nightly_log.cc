#include "results/nightly_log.h"

#include <fmt/format.h>

#include "base/time.h"
#include "results/sqlite_stmt.h"

namespace schedlab {

namespace {

NightlyMeasurement read_nightly(const sql::Stmt& s) {
  NightlyMeasurement m;
  m.id = s.i64(0);
  m.nightly = s.text(1);
  m.target = s.text(2);
  m.config_path = s.text(3);
  m.config_sha256 = s.text(4);
  if (!s.is_null(5)) m.run_id = s.i64(5);
  m.status = sql::known(nightly_status_from_string(s.text(6)), s.text(6), "nightly status");
  m.error = s.text(7);
  m.hook_output = s.text(8);
  m.kernel_release = s.text(9);
  m.started_at = s.text(10);
  m.ended_at = s.text(11);
  m.kernel_commit = s.text(12);
  return m;
}

constexpr const char* kNightlyColumns =
    "id, nightly, target, config_path, config_sha256, run_id, status, error, hook_output, "
    "kernel_release, started_at, ended_at, kernel_commit";

}  // namespace

std::int64_t NightlyLog::add_nightly_measurement(const NightlyMeasurement& m) {
  sql::Stmt s(
      db_,
      "INSERT INTO nightly_measurements (nightly, target, config_path, config_sha256, run_id, "
      "status, error, hook_output, kernel_release, started_at, ended_at, kernel_commit) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, m.nightly).bind(2, m.target).bind(3, m.config_path).bind(4, m.config_sha256);
  s.bind(5, m.run_id).bind(6, sql::word(m.status)).bind(7, m.error).bind(8, m.hook_output);
  s.bind(9, m.kernel_release).bind(10, m.started_at.empty() ? utc_now_iso8601() : m.started_at);
  s.bind(11, m.ended_at.empty() ? std::optional<std::string>()
                                : std::optional<std::string>(m.ended_at));
  s.bind(12, m.kernel_commit);
  s.run();
  return sqlite3_last_insert_rowid(db_);
}

void NightlyLog::update_nightly_measurement(const NightlyMeasurement& m) {
  sql::Stmt s(db_,
              "UPDATE nightly_measurements SET run_id = ?, status = ?, error = ?, hook_output = ?, "
              "kernel_release = ?, ended_at = ? WHERE id = ?");
  s.bind(1, m.run_id)
      .bind(2, sql::word(m.status))
      .bind(3, m.error)
      .bind(4, m.hook_output)
      .bind(5, m.kernel_release);
  s.bind(6, m.ended_at.empty() ? std::optional<std::string>()
                               : std::optional<std::string>(m.ended_at));
  s.bind(7, m.id).run();
}

std::optional<NightlyMeasurement> NightlyLog::latest_nightly_measurement(
    const std::string& target, const std::string& config_sha256,
    const std::string& kernel_commit) const {
  sql::Stmt s(
      db_, fmt::format("SELECT {} FROM nightly_measurements WHERE target = ? AND config_sha256 = ? "
                       "AND kernel_commit = ? ORDER BY id DESC LIMIT 1",
                       kNightlyColumns)
               .c_str());
  s.bind(1, target).bind(2, config_sha256).bind(3, kernel_commit);
  if (!s.step()) return std::nullopt;
  return read_nightly(s);
}

std::vector<NightlyMeasurement> NightlyLog::nightly_measurements() const {
  return sql::rows(db_,
                   fmt::format("SELECT {} FROM nightly_measurements ORDER BY id", kNightlyColumns),
                   read_nightly);
}

}  // namespace schedlab
