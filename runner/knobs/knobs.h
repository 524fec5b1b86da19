// Knobs: kernel state a variant changes, as a journaled transaction. The
// original value goes into the database before the new one is written; the
// write is read back and verified; everything is put back when the variant
// ends, when the run ends, on SIGINT/SIGTERM (the executor unwinds), and by
// `schedlab restore` after a crash.
//
// Kinds: the kernel rows of knob_kind.h - sysctl (/proc/sys), debugfs
// scheduler tunables (/sys/kernel/debug/sched/...), and scheduler features
// (one token of /sys/kernel/debug/sched/features: PLACE_LAG or NO_PLACE_LAG).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/hosts/host.h"
#include "runner/knobs/knob_kind.h"

namespace schedlab {

class KnobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes go only under these (design.md: knobs).
bool path_allowed(const std::string& path);

// Compares values the way the kernel prints them: runs of blanks (tabs
// between vector elements) are one separator, trailing newline ignored.
std::string normalize_sysctl_value(const std::string& v);

// The current value: a file's normalized content, or a feature's token
// (PLACE_LAG / NO_PLACE_LAG). KnobError when it does not exist, with a
// suggestion (the valid names, for features).
std::string read_knob(Host& host, const KnobRef& knob);
std::string read_sysctl(Host& host, const std::string& name);
// The SUT's scheduler features, as tokens; mounts debugfs when needed.
std::vector<std::string> read_sched_features(Host& host);

// Knob writes with their journal updates hold this lock (process-wide, every
// pair's thread), so the emergency restore of a second signal (interrupt.h)
// takes it and never races a write in flight.
std::recursive_timed_mutex& knob_write_lock();

class KnobJournal {
 public:
  KnobJournal(Store& store, Host& host, std::int64_t run_id)
      : store_(store), host_(host), run_id_(run_id) {}
  ~KnobJournal();  // restores anything still applied; never throws
  KnobJournal(const KnobJournal&) = delete;
  KnobJournal& operator=(const KnobJournal&) = delete;

  // Journal, write, read back, verify. On a failed write or verification the
  // knob is restored at once and KnobError says what the kernel said.
  void apply(const KnobRef& knob, const std::string& value);
  void apply_sysctl(const KnobSetting& s) { apply(sysctl_knob(s.name), s.value); }
  // Every kernel knob of a variant, kind by kind (knob_kind.h's order:
  // sysctls, debugfs tunables, sched features).
  void apply_variant(const KnobSettings& knobs);
  // Restores every knob this journal applied, newest first. Throws KnobError
  // listing the knobs it could not restore (they stay journaled).
  void restore_all();

 private:
  struct Applied {
    std::int64_t entry_id;
    KnobRef knob;
    std::string original;
  };
  void restore_one(const Applied& a);

  Store& store_;
  Host& host_;
  std::int64_t run_id_;
  std::vector<Applied> applied_;
};

// Restores every journaled knob of a host left behind by a run that died
// (kill -9, power loss). Returns one line per knob restored.
std::vector<std::string> restore_journal(Store& store, Host& host);

}  // namespace schedlab
