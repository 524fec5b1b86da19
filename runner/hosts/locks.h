// One run per SUT, and whether a run is still alive.
//
// SutLock: taken on the SUT before the first knob is read and held for the
// run's life, by any schedlab process (any database): locally an flock on
// LOCK_DIR/sut.lock (the descriptor dies with the process, kill -9 too);
// over SSH and in lab guests an flock held by a remote process the SSH
// wrapper kills when the connection goes (ssh_host.cc). The holder writes
// who it is to LOCK_DIR/sut.holder (JSON) so a refused run can name it.
// One schedlab process never refuses itself: a second pair of a `pairs:`
// run on the same machine (same file under another host name) shares the
// lock of the first.
//
// RunAlive: a shared flock on LOCK_DIR/run-DBHASH-ID.alive on this
// machine, held by every thread executing the run; `list` shows a
// `running` run whose file nobody holds as interrupted.
//
// A lock or alive file another user owns (not root) is refused with a
// HostError naming it and its owner: made first in a folder its group may
// write, it would be theirs to swap.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runner/hosts/host.h"

namespace schedlab {

// $SCHEDLAB_LOCK_DIR, else /run/schedlab (created), else for a user who
// cannot create it $XDG_RUNTIME_DIR/schedlab or /tmp/schedlab-UID.
std::string local_lock_dir();
// On SSH SUTs and lab guests: always this (the SUT is driven as root).
inline constexpr const char* kRemoteLockDir = "/run/schedlab";

struct LockHolder {
  std::string what;  // "run 3 'flip-c1'", "restore", "a run starting"
  std::string db;    // database path, absolute
  long pid = 0;
  std::string host;   // where that schedlab process runs
  std::string since;  // UTC, ISO 8601
  std::string owner;  // process token:lock number (recognises our own)
  std::string json() const;
  static std::optional<LockHolder> parse(const std::string& json);
  std::string describe() const;  // "run 3 'c1' (database /x.db, PID 12 on host h, since ...)"
};

// A run (or restore) refused: someone else holds the SUT.
class SutBusy : public HostError {
 public:
  using HostError::HostError;
};

class SutLock {
 public:
  // Throws SutBusy naming the holder, HostError when the lock cannot be
  // taken at all. WHAT and DB describe this process to later contenders.
  static std::shared_ptr<SutLock> acquire(Host& host, const std::string& what,
                                          const std::string& db);
  ~SutLock();  // releases it (the remote process is stopped)
  SutLock(const SutLock&) = delete;
  SutLock& operator=(const SutLock&) = delete;

  // Says what holds it once that is known (the run's id and name).
  void describe_as(const std::string& what);
  const LockHolder& holder() const { return holder_; }

 private:
  SutLock() = default;
  Host* host_ = nullptr;  // the remote host, or nothing for a local lock
  std::string dir_;
  int fd_ = -1;                                  // local: the flock'ed file
  std::optional<Host::BackgroundId> remote_;     // remote: the flock process
  LockHolder holder_;
};

class RunAlive {
 public:
  RunAlive(const std::string& db_path, std::int64_t run_id);
  ~RunAlive();
  RunAlive(const RunAlive&) = delete;
  RunAlive& operator=(const RunAlive&) = delete;
  // Whether a live process holds the run (never creates anything).
  static bool held(const std::string& db_path, std::int64_t run_id);

 private:
  int fd_ = -1;
};

}  // namespace schedlab
