#include "runner/knobs/journal_rows.h"

#include <fmt/format.h>

namespace schedlab {

JournalEntry stamped(JournalEntry e, Host& host) {
  const HostIdentity& me = host.identity();
  e.host = host.name();
  e.machine_id = me.machine_id;
  e.boot_id = me.boot_id;
  e.hostname = me.hostname;
  return e;
}

JournalRows journal_rows(const KnobJournalTable& journal, Host& host) {
  const HostIdentity& me = host.identity();
  JournalRows out;
  for (auto& e : journal.unrestored(host.name())) {
    // A row from before identities were recorded, or a host that has none
    // to read: as before, the host's own.
    if ((e.machine_id.empty() && e.boot_id.empty()) || (me.machine_id.empty() && me.boot_id.empty())) {
      out.live.push_back(std::move(e));
    } else if (!e.machine_id.empty() && !me.machine_id.empty() && e.machine_id != me.machine_id) {
      out.other_machine.push_back(std::move(e));
    } else if (e.boot_id != me.boot_id) {
      out.earlier_boot.push_back(std::move(e));
    } else {
      out.live.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<std::string> settle_foreign_rows(KnobJournalTable& journal, const JournalRows& rows) {
  std::vector<std::string> lines;
  for (const auto& e : rows.earlier_boot) {
    journal.journal_discard_entry(e.id);
    lines.push_back(fmt::format("{} {} (run {}): journaled in an earlier boot ({}) of this machine; that boot is "
                                "over, so nothing was written back",
                                e.kind, e.name, e.run_id, e.boot_id));
  }
  for (const auto& e : rows.other_machine)
    lines.push_back(fmt::format("{} {} (run {}): journaled by another machine ({}, machine-id {}); left alone",
                                e.kind, e.name, e.run_id, e.hostname.empty() ? "no hostname" : e.hostname,
                                e.machine_id));
  return lines;
}

}  // namespace schedlab
