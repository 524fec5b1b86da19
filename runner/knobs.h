// Knobs: kernel state a variant changes, as a journaled transaction. The
// original value goes into the database before the new one is written; the
// write is read back and verified; everything is put back when the variant
// ends, when the run ends, on SIGINT/SIGTERM (the executor unwinds), and by
// `schedlab restore` after a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results/store.h"
#include "runner/config.h"
#include "runner/host.h"

namespace schedlab {

class KnobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Compares sysctl values the way the kernel prints them: runs of blanks
// (tabs between vector elements) are one separator, trailing newline ignored.
std::string normalize_sysctl_value(const std::string& v);

// Reads a sysctl's current value; KnobError when it does not exist (with a
// suggestion from its directory) or cannot be read.
std::string read_sysctl(Host& host, const std::string& name);

class KnobJournal {
 public:
  KnobJournal(Store& store, Host& host, std::int64_t run_id)
      : store_(store), host_(host), run_id_(run_id) {}
  ~KnobJournal();  // restores anything still applied; never throws
  KnobJournal(const KnobJournal&) = delete;
  KnobJournal& operator=(const KnobJournal&) = delete;

  // Journal, write, read back, verify. On a failed write or verification the
  // knob is restored at once and KnobError says what the kernel said.
  void apply_sysctl(const SysctlSetting& s);
  // Restores every knob this journal applied, newest first. Throws KnobError
  // listing the knobs it could not restore (they stay journaled).
  void restore_all();

 private:
  struct Applied {
    std::int64_t entry_id;
    std::string name, path, original;
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
