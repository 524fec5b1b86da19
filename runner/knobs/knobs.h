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
#include <optional>
#include <string>
#include <vector>

#include "results/knob_journal_table.h"
#include "runner/hosts/host.h"
#include "runner/knobs/knob_kind.h"
#include "runner/knobs/knob_write.h"

namespace schedlab {

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
// Mounts debugfs on /sys/kernel/debug when nothing is there (it stays
// mounted: harmless). Throws KnobError when the mount fails.
void ensure_debugfs(Host& host);

class KnobJournal {
 public:
  KnobJournal(KnobJournalTable& journal, Host& host, std::int64_t run_id)
      : journal_(journal), host_(host), run_id_(run_id) {}
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

  KnobJournalTable& journal_;
  Host& host_;
  std::int64_t run_id_;
  std::vector<Applied> applied_;
};

// Restores every journaled knob of a host left behind by a run that died
// (kill -9, power loss): only rows of this machine and boot with this
// user's tag (journal_rows.h). Returns one line per knob restored, and one
// per row it left alone or closed (another machine's, an earlier boot's, no
// identity or tag of this user's).
// A row it refuses (a crafted path, a value its knob never holds) or fails
// to write stops nothing: the host's other rows are restored, and then
// RestoreIncomplete says why each refused row was not.
std::vector<std::string> restore_journal(KnobJournalTable& journal, Host& host);

// restore_journal's end when some rows were not restored: what() names each
// such row and why (joined with "; "); `done` is what it did.
class RestoreIncomplete : public KnobError {
 public:
  RestoreIncomplete(const std::string& why, std::vector<std::string> done)
      : KnobError(why), done(std::move(done)) {}
  std::vector<std::string> done;
};

// Why a journal row may not be written back: a kind that is no kernel
// knob, a knob no config may set, a value its knob never holds (a feature
// row turning another feature), or a path that is not its knob's own.
std::optional<std::string> journal_row_problem(const JournalEntry& e);

// Rows without this host's identity or this user's tag, adopted as its own (`schedlab
// restore --adopt-unidentified`, after the user's confirmation at a
// terminal): the knobs are written back as restore_journal would; work
// directories and process groups are closed unacted on, with a line
// saying what the user may do. Throws KnobError, before writing anything,
// when any knob row has a journal_row_problem (adoption_problems).
std::vector<std::string> adopt_unidentified(KnobJournalTable& journal, Host& host,
                                            const std::vector<JournalEntry>& rows);
std::vector<std::string> adoption_problems(const std::vector<JournalEntry>& rows);

}  // namespace schedlab
