// One perf process on the SUT for one iteration (the perf-stat and
// perf-profile monitors): started in the background before the measured
// steps with its events disabled, enabled through perf's control FIFO
// (`-D -1 --control fifo:CTL,ACK`), so counting has begun when start()
// returns, and stopped after them with SIGINT, on which perf writes its
// counts or its data file and exits (SIGTERM would kill perf stat with no
// output). Its files live in a directory of its own on the SUT
// (mktemp -d), removed when the session ends.
//
// Everything reaches the SUT as argv through Host: the directory and perf's
// arguments are arguments of fixed sh scripts, never shell text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/host.h"

namespace schedlab {

class PerfSession {
 public:
  // `perf_args`: perf's arguments (e.g. stat -a -x, -e ...), to which the
  // control options are added; "{dir}" in them is the session's directory.
  PerfSession(Host& host, std::vector<std::string> perf_args);
  ~PerfSession();  // stops perf and removes the directory; never throws
  PerfSession(const PerfSession&) = delete;
  PerfSession& operator=(const PerfSession&) = delete;

  // Makes the directory, starts perf and enables its events. Throws
  // HostError with perf's own message when it does not start.
  void start();
  // SIGINT to perf (its process group, by the PID it wrote), then waits for
  // it to exit. Its result (perf stat without -o prints to stderr).
  // Throws HostError when perf does not exit.
  ExecResult stop();
  // The session's directory on the SUT (valid after start()).
  const std::string& dir() const { return dir_; }

 private:
  void cleanup() noexcept;

  Host& host_;
  std::vector<std::string> args_;
  std::string dir_;
  std::optional<Host::BackgroundId> perf_;
};

// A directory of its own on the host (mktemp -d), and its removal.
std::string make_perf_dir(Host& host);
void remove_perf_dir(Host& host, const std::string& dir);

// The first lines of perf's stderr, for a one-line report.
std::string perf_message(const ExecResult& r);

}  // namespace schedlab
