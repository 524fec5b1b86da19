// TEST DOUBLE. The executor and the knobs are tested here without root and
// without a single real process (ninja's FakeCommandRunner and
// VirtualFileSystem): a FakeHost is a Host that
//  - records everything asked of it - every argv run, background start,
//    poll and stop, file read, write and listing - in one EventLog, which
//    the hosts of a pair share, so the order across roles is visible;
//  - replays scripted outcomes for commands, chosen by argv prefix or by a
//    matcher: stdout, stderr, exit status, a timeout, a hang (the process
//    runs until schedlab is interrupted, else until its timeout), a spawn
//    failure, a server that exits before it is ready; anything unscripted
//    exits 0 with no output;
//  - keeps a small in-memory file system with the kernel's semantics for
//    the files knobs touch (/proc/sys, debugfs): /sys/kernel/debug/sched/features
//    reads as "PLACE_LAG NO_RUN_TO_PARITY ... \n", and writing "NO_X" turns
//    X off, "X" on, an unknown name fails with EINVAL (kernel/sched/debug.c);
//    other files read back what was written, a write to a file that does
//    not exist fails with ENOENT, a rejected value with EINVAL.
// Time is a FakeClock the hosts advance by each command's scripted
// duration, so iteration durations and timestamps are exact.
// Real processes and kernels are exercised by the e2e, netns and lab tests.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/run/run_context.h"

namespace schedlab::test {

// Fake time: starts at 2026-01-01T00:00:00Z and moves only when told.
class FakeClock final : public RunClock {
 public:
  std::chrono::steady_clock::time_point now() const override;
  std::string utc_now() const override;  // 2026-01-01T00:MM:SS.mmmZ
  void advance(std::chrono::milliseconds d);
  double seconds() const;

 private:
  mutable std::mutex mutex_;
  std::chrono::milliseconds elapsed_{0};
};

struct Event {
  enum class Kind { kRun, kStart, kPoll, kStop, kRead, kWrite, kList, kFind, kPort };
  Kind kind;
  std::string host;               // the host's name
  std::vector<std::string> argv;  // run, start
  std::string path;               // read, write, list; the program for find
  std::string content;            // write
  Command command;                // run, start: as given
  // "sut: run lc-client 1", "sut: write /proc/sys/kernel/x=1", ...
  std::string str() const;
};

// Every host of a test writes here, in the order things happen.
class EventLog {
 public:
  void add(Event e);
  std::vector<Event> events() const;
  // The events of these kinds as strings, in order.
  std::vector<std::string> lines(std::set<Event::Kind> kinds) const;
  // Those whose string contains `part`.
  std::vector<std::string> grep(const std::string& part, std::set<Event::Kind> kinds = {}) const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

// What a scripted command does.
struct Reply {
  enum class Ends {
    kExit,       // exits with exit_code
    kTimeout,    // still running at its timeout: killed
    kHang,       // never ends on its own: killed when interrupted, else at its timeout
    kSignal,     // killed by `signal`
    kSpawnFail,  // cannot start
    kEarlyExit,  // a background process that exits before it is ready
  };
  Ends ends = Ends::kExit;
  int exit_code = 0;
  std::string out, err;
  int signal = 9;
  std::chrono::milliseconds duration{10};  // fake time it takes
  // Runs when the command starts, before it "ends" (e.g. raise(SIGINT):
  // Ctrl-C while the workload runs).
  std::function<void()> action;
};

class FakeHost final : public Host {
 public:
  using Matcher = std::function<bool(const Command&)>;

  FakeHost(std::string name, std::shared_ptr<EventLog> log = std::make_shared<EventLog>(),
           FakeClock* clock = nullptr);

  // Scripts the commands whose argv starts with `prefix` (or that `match`
  // accepts): the replies in order, the last one for every later call. A
  // later script wins over an earlier one that also matches.
  void on(std::vector<std::string> prefix, std::vector<Reply> replies);
  void on(Matcher match, std::vector<Reply> replies);
  // How often commands with this argv prefix ran (foreground and background).
  int count(const std::vector<std::string>& prefix) const;

  // The file system. Directories are implied by the files under them.
  std::map<std::string, std::string> files;
  // Scheduler features, in the kernel's order: name -> enabled. Empty: no
  // features file (a kernel without CONFIG_SCHED_DEBUG).
  std::vector<std::pair<std::string, bool>> features;
  bool feature(const std::string& name) const;
  // Writes of a value containing one of these fail with EINVAL.
  std::set<std::string> rejected_values = {"banana"};
  // Writes to these paths succeed and change nothing (a clamped tunable).
  std::set<std::string> ignored_writes;
  // Called before each write is applied (e.g. to look at the journal then).
  std::function<void(const std::string& path, const std::string& content)> on_write;
  // Its identity (Host::identity): what /etc/machine-id and boot_id read
  // as when `files` holds neither. The knob journal acts only on rows of
  // this machine and boot; empty: the host has none.
  std::string machine_id = "fake-machine-id", boot_id = "fake-boot-id";
  std::vector<std::string> writes;         // "path=content", in order
  std::set<std::string> missing_programs;  // find_program says no
  std::set<int> closed_ports;              // port_accepts says no
  std::set<int> foreign_ports;             // a listener the run did not start

  const std::shared_ptr<EventLog>& log() const { return log_; }

  std::string name() const override { return name_; }
  ExecResult run(const Command& cmd) override;
  std::optional<std::string> find_program(const std::string& program) override;
  std::optional<std::string> read_file(const std::string& path) override;
  void write_file(const std::string& path, const std::string& content) override;
  std::vector<std::string> list_dir(const std::string& path) override;
  BackgroundId start_background(const Command& cmd) override;
  std::optional<ExecResult> poll_background(BackgroundId id) override;
  ExecResult stop_background(BackgroundId id) override;
  bool port_accepts(int port) override;
  int free_port() override { return 40000; }
  std::vector<int> free_ports(int n) override {
    std::vector<int> out;
    for (int i = 0; i < n; ++i) out.push_back(40000 + i);
    return out;
  }

  static constexpr const char* kFeatures = "/sys/kernel/debug/sched/features";

 private:
  struct Script {
    Matcher match;
    std::deque<Reply> replies;
  };
  Reply reply_for(const Command& cmd);
  ExecResult outcome(const Command& cmd, const Reply& r);
  void record(Event e);

  std::string name_;
  std::shared_ptr<EventLog> log_;
  FakeClock* clock_;
  std::vector<Script> scripts_;
  std::vector<std::vector<std::string>> ran_;  // every argv run or started
  struct Background {
    Command command;
    Reply reply;
    bool stopped = false;
  };
  std::map<BackgroundId, Background> background_;
  BackgroundId next_id_ = 1;
};

}  // namespace schedlab::test
