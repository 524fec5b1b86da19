// One perf process on the SUT for one iteration (the perf-stat and
// perf-profile monitors): started in the background before the measured
// steps with its events disabled, enabled through perf's control FIFO
// (`-D -1 --control fifo:CTL,ACK`), so counting has begun when start()
// returns, and stopped after them with SIGINT, on which perf writes its
// counts or its data file and exits (SIGTERM would kill perf stat with no
// output). Its files live in a directory on the SUT (make_perf_dir:
// mktemp -d, with the FIFOs) that the monitor makes once a run and every
// iteration's session reuses: perf opens its output anew (perf stat -o
// truncates; perf record moves the last perf.data aside), and the FIFOs
// hold nothing once the perf that had them open is gone.
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
  // `dir`: a directory make_perf_dir made, which outlives the session.
  // `perf_args`: perf's arguments (e.g. stat -a -x, -e ...), to which the
  // control options are added; "{dir}" in them is that directory.
  PerfSession(Host& host, std::string dir, std::vector<std::string> perf_args);
  ~PerfSession();  // stops perf; never throws
  PerfSession(const PerfSession&) = delete;
  PerfSession& operator=(const PerfSession&) = delete;

  // Starts perf and enables its events. Throws
  // HostError with perf's own message when it does not start.
  void start();
  // SIGINT to perf (its process group, by the PID it wrote), then waits for
  // it to exit. Its result (perf stat without -o prints to stderr).
  // Throws HostError when perf does not exit.
  ExecResult stop();
  // The session's directory on the SUT.
  const std::string& dir() const { return dir_; }

 private:
  void cleanup() noexcept;

  Host& host_;
  std::string dir_;
  std::vector<std::string> args_;
  std::optional<Host::BackgroundId> perf_;
};

// A directory of its own on the host (mktemp -d) with the control FIFOs,
// and its removal.
std::string make_perf_dir(Host& host);
void remove_perf_dir(Host& host, const std::string& dir);

// The first lines of perf's stderr, for a one-line report.
std::string perf_message(const ExecResult& r);

}  // namespace schedlab
