#include "runner/lab/guest_journal.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "base/text.h"

namespace schedlab::lab {

bool is_lab_host_name(const std::string& host) {
  return host.starts_with("lab:");
}

std::string discard_guest_journal(KnobJournalTable& journal, const std::string& host) {
  const auto entries = journal.journal_discard(host);
  if (entries.empty()) return "";
  std::vector<std::string> names;
  for (const auto& e : entries)
    names.push_back(fmt::format("{} {} (run {})", terminal_safe(excerpt(e.kind, 40)),
                                terminal_safe(excerpt(e.name, 80)), e.run_id));
  return fmt::format(
      "note: {} is a lab guest, powered off: its kernel state went with it, so {} "
      "journaled knob{} need{} no restore: {}",
      terminal_safe(excerpt(host, 80)), entries.size(), entries.size() == 1 ? "" : "s",
      entries.size() == 1 ? "s" : "", fmt::join(names, ", "));
}

}  // namespace schedlab::lab
