#include "results/knob_journal_table.h"

#include <fmt/format.h>

#include "base/local_secret.h"
#include "base/time.h"
#include "results/sqlite_stmt.h"

namespace schedlab {

std::int64_t journal_row_tag(const JournalEntry& e) {
  // Each field with its length first: no two rows read as the same text.
  std::string fields = fmt::format("knob journal row, version 1\n{}\n", e.run_id);
  for (const std::string* f : {&e.host, &e.kind, &e.name, &e.path, &e.original, &e.target,
                               &e.machine_id, &e.boot_id, &e.hostname})
    fields += fmt::format("{}:{}\n", f->size(), *f);
  return local_tag(fields);
}

bool journaled_by_this_user(const JournalEntry& e) {
  return e.tag && *e.tag == journal_row_tag(e);
}

std::int64_t KnobJournalTable::journal_applied(const JournalEntry& e) {
  sql::Stmt s(db_,
              "INSERT INTO knob_journal (run_id, host, kind, name, path, original, target, state, "
              "applied_at, machine_id, boot_id, hostname, local_tag) VALUES (?, ?, ?, ?, ?, ?, ?, "
              "?, ?, ?, ?, ?, ?)");
  s.bind(1, e.run_id).bind(2, e.host).bind(3, e.kind).bind(4, e.name).bind(5, e.path);
  s.bind(6, e.original).bind(7, e.target).bind(8, sql::word(JournalState::kApplied));
  s.bind(9, utc_now_iso8601())
      .bind(10, e.machine_id)
      .bind(11, e.boot_id)
      .bind(12, e.hostname)
      .bind(13, journal_row_tag(e))
      .run();
  return sqlite3_last_insert_rowid(db_);
}

void KnobJournalTable::journal_restored(std::int64_t entry_id) {
  sql::Stmt s(db_,
              "UPDATE knob_journal SET state = ?, restored_at = ?, local_tag = NULL WHERE id = ?");
  s.bind(1, sql::word(JournalState::kRestored)).bind(2, utc_now_iso8601()).bind(3, entry_id).run();
}

std::vector<JournalEntry> KnobJournalTable::unrestored(const std::string& host) const {
  // Newest first: restoring in reverse order of application puts back the
  // value found before the first write even when a knob was written twice.
  // Rows merge copied are history: never live (migration 13).
  return sql::rows(
      db_,
      "SELECT id, run_id, host, kind, name, path, original, target, state, machine_id, boot_id, "
      "hostname, local_tag "
      "FROM knob_journal WHERE host = ? AND state = ? AND merged = 0 ORDER BY id DESC",
      [](const sql::Stmt& s) {
        return JournalEntry{
            s.i64(0),
            s.i64(1),
            s.text(2),
            s.text(3),
            s.text(4),
            s.text(5),
            s.text(6),
            s.text(7),
            sql::known(journal_state_from_string(s.text(8)), s.text(8), "journal state"),
            s.text(9),
            s.text(10),
            s.text(11),
            s.is_null(12) ? std::nullopt : std::optional<std::int64_t>(s.i64(12))};
      },
      host, sql::word(JournalState::kApplied));
}

std::vector<std::string> KnobJournalTable::unrestored_hosts() const {
  return sql::rows(
      db_, "SELECT DISTINCT host FROM knob_journal WHERE state = ? AND merged = 0 ORDER BY host",
      [](const sql::Stmt& s) { return s.text(0); }, sql::word(JournalState::kApplied));
}

std::vector<JournalEntry> KnobJournalTable::journal_discard(const std::string& host) {
  auto entries = unrestored(host);
  // The time goes in restored_at: when the entry stopped needing a restore.
  sql::Stmt s(
      db_,
      "UPDATE knob_journal SET state = ?, restored_at = ?, local_tag = NULL WHERE host = ? AND "
      "state = ? AND "
      "merged = 0");
  s.bind(1, sql::word(JournalState::kDiscarded)).bind(2, utc_now_iso8601()).bind(3, host);
  s.bind(4, sql::word(JournalState::kApplied)).run();
  return entries;
}

void KnobJournalTable::journal_discard_entry(std::int64_t entry_id) {
  sql::Stmt s(db_,
              "UPDATE knob_journal SET state = ?, restored_at = ?, local_tag = NULL WHERE id = ?");
  s.bind(1, sql::word(JournalState::kDiscarded)).bind(2, utc_now_iso8601()).bind(3, entry_id).run();
}

}  // namespace schedlab
