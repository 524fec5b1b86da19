// The knob_journal table: every knob write, its original value journaled
// before the write, until it is restored or discarded (runner/knobs/knobs.h
// acts on it).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/status.h"

namespace schedlab {

struct JournalEntry {
  std::int64_t id = 0;
  std::int64_t run_id = 0;
  std::string host;
  std::string kind;  // sysctl | ...
  std::string name;  // kernel.sched_autogroup_enabled
  std::string path;  // /proc/sys/kernel/sched_autogroup_enabled
  std::string original;
  std::string target;
  JournalState state = JournalState::kApplied;
  // Who wrote it: the host's /etc/machine-id, its boot (boot_id) and
  // hostname, read on that host (runner/hosts/host.h: Host::identity). A
  // journal acts only on rows of the host and boot it runs on; empty in rows
  // written before schedlab recorded it (migration 13).
  std::string machine_id, boot_id, hostname;
  // The writer's tag (journal_row_tag), as the row holds it: none in rows
  // written before migration 19 or closed since (a closed row set back to
  // 'applied' is then no longer this user's).
  std::optional<std::int64_t> tag;
};

// The tag schedlab journals a row with: local_tag (base/local_secret.h,
// a secret of this user on this machine, never in the database) over every
// field restore and a run's preflight act on or by: run, host, kind, name,
// path, value to write back, target and the writer's machine, boot and
// hostname. Another user, or a database crafted or edited since, cannot
// make it (hostile15 S3).
std::int64_t journal_row_tag(const JournalEntry& e);
// Whether the row's tag is the one this user would have journaled it with.
bool journaled_by_this_user(const JournalEntry& e);

class KnobJournalTable {
 public:
  KnobJournalTable(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  // The database's path as the Store was opened with it: what a run's lock
  // is named after (RunAlive, runner/hosts/locks.h).
  const std::string& path() const { return path_; }

  std::int64_t journal_applied(const JournalEntry& e);
  void journal_restored(std::int64_t entry_id);
  std::vector<JournalEntry> unrestored(const std::string& host) const;
  // Hosts with unrestored entries.
  std::vector<std::string> unrestored_hosts() const;
  // Marks a host's unrestored entries 'discarded' (a lab guest powered off:
  // its kernel state is gone, nothing can or need be restored) and returns
  // them as they were.
  std::vector<JournalEntry> journal_discard(const std::string& host);
  // One entry marked discarded: a row of an earlier boot of this machine
  // (the reboot put the knob back; nothing is written).
  void journal_discard_entry(std::int64_t entry_id);

 private:
  sqlite3* db_;
  std::string path_;
};

}  // namespace schedlab
