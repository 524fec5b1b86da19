// Which rows of the knob journal a host may act on. The journal is a record
// of this host's changes: a row is acted on (restored, removed, killed, or
// blocking a run) only when it carries this machine's id and this boot's id
// and this user's tag (results/knob_journal_table.h: journal_row_tag). The
// ids alone are world-readable: a row another user crafted with them named
// a process group root's restore killed (hostile15 S3).
// A row of an earlier boot is reported and closed without writing (the
// reboot reset what it changed); a row of another machine under the same
// host name (a database shared or merged) is never touched; a row with no
// identity or without this user's tag (a crafted or edited database,
// another user's row, one written before schedlab recorded identities or
// tags) is listed with what it would do and left alone, unless the
// user adopts it at a terminal (`schedlab restore --adopt-unidentified`).
// Rows merge copied are history and never appear here at all
// (KnobJournalTable::unrestored).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"

namespace schedlab {

// The entry's host and identity fields from `host` (who writes it now).
JournalEntry stamped(JournalEntry e, Host& host);

struct JournalRows {
  std::vector<JournalEntry> live;           // this machine, this boot, this user's tag
  std::vector<JournalEntry> earlier_boot;   // this machine, another boot
  std::vector<JournalEntry> other_machine;  // another machine-id under this host name
  // No machine and boot id to match (or a host that cannot read its boot),
  // or this machine's and boot's without this user's tag: never this
  // host's by default.
  std::vector<JournalEntry> unidentified;
};
JournalRows journal_rows(const KnobJournalTable& journal, Host& host);

// Closes the rows of earlier boots (nothing written) and describes them,
// the other machine's rows and the unidentified ones (why, and what they
// would do), one line each, then what the user can do about the
// unidentified, for restore and preflight.
std::vector<std::string> settle_foreign_rows(KnobJournalTable& journal, const JournalRows& rows);

// What acting on a row would do: "write '1' to /proc/sys/...", "kill
// process group 812 (server)", "remove the work directory /tmp/...".
std::string row_action(const JournalEntry& e);

}  // namespace schedlab
