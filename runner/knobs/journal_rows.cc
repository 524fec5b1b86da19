#include "runner/knobs/journal_rows.h"

#include <fmt/format.h>

#include "base/text.h"

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
    if (!e.machine_id.empty() && e.machine_id != me.machine_id) {
      out.other_machine.push_back(std::move(e));
    } else if (e.boot_id.empty() || me.boot_id.empty() || e.machine_id != me.machine_id) {
      // No identity to match, or only half of one: not provably ours. (A
      // host without /etc/machine-id matches rows without one by boot.)
      out.unidentified.push_back(std::move(e));
    } else if (e.boot_id != me.boot_id) {
      out.earlier_boot.push_back(std::move(e));
    } else if (!journaled_by_this_user(e)) {
      // This machine's and boot's ids, which every user may read: not
      // enough to act on (hostile15 S3). Only this user's tag is.
      out.unidentified.push_back(std::move(e));
    } else {
      out.live.push_back(std::move(e));
    }
  }
  return out;
}

std::string row_action(const JournalEntry& e) {
  if (e.kind == "pgroup")
    return fmt::format("kill process group {} ({})", terminal_safe(excerpt(e.path, 40)),
                       terminal_safe(excerpt(e.name, 80)));
  if (e.kind == "workdir")
    return fmt::format("remove the work directory {}", terminal_safe(excerpt(e.path, 200)));
  return fmt::format("write '{}' to {}", terminal_safe(excerpt(e.original, 80)),
                     terminal_safe(excerpt(e.path, 200)));
}

namespace {

// Why a row of the unidentified is not taken as this user's.
std::string why_unidentified(const JournalEntry& e) {
  if (!e.tag)
    return "not journaled by this user on this machine: it has no tag (a row of a schedlab older "
           "than this one, which did not tag its rows, or one written by other means)";
  if (!journaled_by_this_user(e))
    return "not journaled by this user on this machine: its tag is not this user's (another "
           "user's row, a database from elsewhere, or a row edited since)";
  return "carries no identity of this machine and boot (a database from elsewhere, or from "
         "before schedlab recorded it)";
}

// What the user can do about such rows.
constexpr const char* kCheckByHand =
    "rows left alone are never acted on: if one is of a run of yours that died here (a run of an "
    "older schedlab too, whose rows have no tag), check it by hand: 'schedlab restore "
    "--adopt-unidentified' puts its knob back after a 'yes' at a terminal; a process group or "
    "work directory it names is yours to stop or remove";

}  // namespace

std::vector<std::string> settle_foreign_rows(KnobJournalTable& journal, const JournalRows& rows) {
  std::vector<std::string> lines;
  const auto what = [](const JournalEntry& e) {
    return fmt::format("{} {} (run {})", terminal_safe(excerpt(e.kind, 40)),
                       terminal_safe(excerpt(e.name, 80)), e.run_id);
  };
  for (const auto& e : rows.earlier_boot) {
    journal.journal_discard_entry(e.id);
    lines.push_back(
        fmt::format("{}: journaled in an earlier boot ({}) of this machine; that boot is "
                    "over, so nothing was written back",
                    what(e), terminal_safe(excerpt(e.boot_id, 40))));
  }
  for (const auto& e : rows.other_machine)
    lines.push_back(
        fmt::format("{}: journaled by another machine ({}, machine-id {}); left alone", what(e),
                    e.hostname.empty() ? "no hostname" : terminal_safe(excerpt(e.hostname, 80)),
                    terminal_safe(excerpt(e.machine_id, 40))));
  for (const auto& e : rows.unidentified)
    lines.push_back(
        fmt::format("{}: {}; would {}; left alone", what(e), why_unidentified(e), row_action(e)));
  if (!rows.unidentified.empty()) lines.emplace_back(kCheckByHand);
  return lines;
}

}  // namespace schedlab
