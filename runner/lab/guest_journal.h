// Knob journal entries of lab guests. A guest's knobs live in its kernel,
// which is gone once the guest powers off: such entries can never be
// restored, and need not be. They are marked 'discarded' (not 'restored':
// nothing was written back) so they block no later run and `schedlab
// restore` skips them with a note.
#pragma once

#include <string>

#include "results/knob_journal_table.h"

namespace schedlab::lab {

// Host names of lab guests: "lab:<release>/<accel>@127.0.0.1:<port>".
bool is_lab_host_name(const std::string& host);

// Marks the host's unrestored entries discarded; returns a note naming
// them ("" when there were none). For lab hosts only: the caller checks.
std::string discard_guest_journal(KnobJournalTable& journal, const std::string& host);

}  // namespace schedlab::lab
