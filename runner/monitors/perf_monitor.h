// The perf-stat and perf-profile monitors on the SUT: like `tasks`, they
// run a process during the iteration rather than read files around it.
// perf-stat counts events system-wide (`perf stat -a -x,`) over the
// measured steps; perf-profile samples call stacks (`perf record -a -g -F
// HZ`), reads them back with `perf script` on the SUT (so symbols resolve
// against the SUT's own binaries and kernel) and folds them. The parsers and
// the rows are in analysis/counters/perf_stat.h and perf_profile.h.
//
// probe() runs perf once on the SUT before the run: perf missing, or not
// allowed to (kernel.perf_event_paranoid above 0 for a non-root user, no
// perf events in the kernel), makes the monitor unavailable; an event the
// SUT cannot count (cycles without a PMU) is dropped, named once, and the
// others go on.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/counters/monitors.h"
#include "runner/config/config.h"
#include "runner/hosts/host.h"
#include "runner/monitors/perf_session.h"

namespace schedlab {

class PerfMonitor {
 public:
  enum class Kind { kStat, kProfile };
  PerfMonitor(Host& sut, Kind kind, const PerfConfig& config);
  ~PerfMonitor();  // stops perf and removes its directory; never throws
  PerfMonitor(const PerfMonitor&) = delete;
  PerfMonitor& operator=(const PerfMonitor&) = delete;
  std::string name() const;

  // Nothing when perf can run this monitor on the SUT, else why. Events the
  // SUT cannot count are dropped from this monitor: event -> why.
  std::optional<std::string> probe(std::map<std::string, std::string>& dropped);
  // The events perf-stat counts (after probe: those the SUT can).
  const std::vector<std::string>& events() const { return events_; }

  // Starts perf for one iteration (one left from an interrupted iteration is
  // stopped first), in the directory the first start made. Throws HostError.
  void start();
  bool running() const { return session_.has_value(); }
  // The sessions' directory on the SUT: empty before the first start().
  const std::string& dir() const { return dir_; }

  // What one iteration gives: the raw text to keep (perf stat's CSV; the
  // profile's folded stacks, compressed), and the rows, or why there are none.
  struct Output {
    std::string path, text;
    std::optional<MonitorDelta> delta;
    std::string error;
  };
  // Stops perf and reads its output. Throws HostError.
  Output finish();

 private:
  Output finish_stat();
  Output finish_profile();

  Host& sut_;
  Kind kind_;
  std::vector<std::string> events_;
  int hz_;
  // The sessions' directory on the SUT, made by the first start() and
  // removed with the monitor: one a run, not one an iteration (its mktemp,
  // mkfifo, rm and shell each iteration: README.md's overhead figures).
  std::string dir_;
  std::optional<PerfSession> session_;
};

// Preflight: each event the config's perf_stat: names, tried on the SUT
// with a dry `perf stat`. Nothing when all are known (or perf cannot run
// there at all: the monitor is then reported unavailable at run start),
// else "FILE:LINE: perf_stat.events: unknown event 'X' on SUT: perf's words".
std::optional<std::string> unknown_perf_event(Host& sut, const Config& config);

}  // namespace schedlab
