// What a run leaves on a host besides knobs, journaled like them (the
// knob_journal table, kinds "workdir" and "pgroup") so that a run killed by
// -9 leaves nothing behind for good: its work directories (mkdtemp'ed, one
// per workload) and the process groups of its steps (servers for their
// life, foreground steps while they run: a killed leader's children would
// otherwise live on).
// `schedlab restore` and the next run's preflight remove the leftovers of
// runs no live process holds (RunAlive, hosts/locks.h); a live run's are
// its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"

namespace schedlab {

inline constexpr const char* kWorkdirKind = "workdir";
inline constexpr const char* kProcessGroupKind = "pgroup";
bool is_leftover_kind(const std::string& kind);

// A work directory on HOST: created (mktemp -d, mode 0755) and journaled.
// Removed (and its entry closed) by remove_workdir.
struct Workdir {
  std::string path;
  std::int64_t entry = 0;
};
Workdir make_workdir(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                     const std::string& prefix);
// The same directory on a second host (the loadgen); throws when it exists there.
Workdir make_workdir_at(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                        const std::string& path);
void remove_workdir(KnobJournalTable& journal, Host& host, const Workdir& w) noexcept;

// The variable every step's process gets in its environment (inherited by
// all it starts), holding the mark its process group is journaled with:
// after its leader died, a group is killed only while one of its processes
// still carries the mark. A group number is reused once the group is gone:
// another user's daemon whose group leader exited was killed by restore
// (hostile17).
inline constexpr const char* kGroupMarkVariable = "SCHEDLAB_GROUP_MARK";
// A fresh mark: 16 random letters and digits.
std::string new_group_mark();

// A process group on HOST, journaled with its leader's start time (a
// reused PID is never killed) and MARK (the row's target), the value of
// kGroupMarkVariable its processes were started with.
std::int64_t journal_process_group(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                                   int pgid, const std::string& what, const std::string& mark);

// Removes HOST's leftovers of dead runs; one line per thing done.
std::vector<std::string> clean_leftovers(KnobJournalTable& journal, Host& host);

// The perf monitors' sessions on HOST that no run holds
// (runner/monitors/perf_session.h: /tmp/schedlab-perf.XXXXXX with perf's
// PID in it, not journaled): their perf stopped (a process whose command
// line names the session's control FIFO: a reused PID never is) and their
// directory, with a profile's perf.data, removed. perf dies with schedlab
// on this host (PDEATHSIG) and with the connection over SSH; the directory
// did not. Only with HOST's SUT lock held: every run of the host by this
// user holds it, so no session found is a live run's; a session directory
// another user owns is left alone (their runs hold a lock of their own).
// One line per session.
std::vector<std::string> stop_perf_leftovers(Host& host);

}  // namespace schedlab
