// Which rows of the knob journal a host may act on. The journal is a record
// of this host's changes: a row is acted on (restored, removed, killed, or
// blocking a run) only when it was written on this machine in this boot. A
// row of an earlier boot is reported and closed without writing (the reboot
// reset what it changed); a row of another machine under the same host name
// (a database shared or merged) is never touched. Rows merge copied are
// history and never appear here at all (KnobJournalTable::unrestored).
#pragma once

#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"

namespace schedlab {

// The entry's host and identity fields from `host` (who writes it now).
JournalEntry stamped(JournalEntry e, Host& host);

struct JournalRows {
  // This machine, this boot; and rows written before schedlab recorded who
  // wrote them (empty identity), as before.
  std::vector<JournalEntry> live;
  std::vector<JournalEntry> earlier_boot;   // this machine, another boot
  std::vector<JournalEntry> other_machine;  // another machine-id under this host name
};
JournalRows journal_rows(const KnobJournalTable& journal, Host& host);

// Closes the rows of earlier boots (nothing written) and describes them and
// the other machine's rows, one line each, for restore and preflight.
std::vector<std::string> settle_foreign_rows(KnobJournalTable& journal, const JournalRows& rows);

}  // namespace schedlab
