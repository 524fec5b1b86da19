// /sys/kernel/debug/sched/debug (/proc/sched_debug before Linux 5.13: the
// same layout, tested on Linux 5.4.22's as pasted to LKML): the
// scheduler's per-CPU state as text. Per CPU the "cpu#N" block (.nr_switches,
// .nr_running, ...) and the root group's run queues ("cfs_rq[N]:/",
// "rt_rq[N]:/", or without group scheduling "cfs_rq[N]:", "rt_rq[N]:"; and
// "dl_rq[N]:"); task groups' cfs_rq blocks come and go with
// cgroups and the task list is not counters, so both are skipped.
//
// Names change between kernels (.nr_running became .nr_queued in the cfs_rq
// block in 6.13; .exec_clock left in 6.6): a table of known names says
// which lines are kept, each under its own name, and which are counters
// (stored as deltas) rather than levels (stored as the value after).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/counters/monitor_delta.h"
#include "analysis/counters/proc_text.h"

namespace schedlab::sched_debug {

struct Cpu {
  int cpu = -1;
  // "nr_switches", "cfs.nr_queued", "rt.rt_nr_running", "dl.dl_nr_running", ...
  std::map<std::string, double> values;
};

struct Snapshot {
  std::vector<Cpu> cpus;  // in file order
};

// Throws CounterParseError (with the line) for a file without the version
// line or CPU blocks, a malformed value line, or a CPU given twice.
Snapshot parse(std::string_view text);

// Whether a key (as in Cpu::values) counts events rather than holding a level.
bool is_counter(std::string_view key);

// Rows: cpuN.KEY (deltas for counters, values after for levels; per-CPU rows
// written only when not zero) and all.KEY (the sum over CPUs, always).
// Throws CounterMismatchError when the CPUs differ, a counter went back, a
// counter appeared or a line of the snapshot before is not in the one after.
MonitorDelta delta(const Snapshot& before, const Snapshot& after);

}  // namespace schedlab::sched_debug
