// A Host is the only way schedlab reaches a machine: run an argv (never a
// shell string), read and write files. `local` is this machine; SSH and lab
// VMs implement the same interface.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runner/hosts/sched_policy.h"

namespace schedlab {

class HostError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to the inherited environment
  std::string cwd;                         // empty: inherit
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::optional<SchedPolicy> policy;  // applied to the process before exec
  std::vector<int> cpus;              // CPU affinity set before exec; empty: inherited
  std::string stdin_data;             // fed to the process's stdin (empty: /dev/null)
  // Teardown commands must run to the end even after Ctrl-C; everything
  // else is killed as soon as schedlab is interrupted.
  bool interruptible = true;
  // Local processes only: stdin is a pipe held open until the process is
  // finished or killed. The SSH host relies on it: when the ssh client dies,
  // the remote side sees EOF on stdin and kills the remote process group.
  bool hold_stdin_open = false;
  // Called with the new process group once it exists (the step runner
  // journals it, so a kill -9 of schedlab leaves none of its members
  // behind: runner/run/leftovers.h; and the policy check judges the
  // group's tasks). On an SSH host only with remote_group: the remote
  // group, read from the wrapper's pidfile (round trips that cost an
  // emulated guest about a quarter of a second a command; not called when
  // it cannot be read within a second).
  std::function<void(int pgid)> on_start;
  bool remote_group = false;
};

struct ExecResult {
  enum class Outcome { kExited, kSignalled, kTimedOut, kInterrupted, kSpawnFailed };
  Outcome outcome = Outcome::kSpawnFailed;
  int exit_code = -1;  // when kExited
  int signal = 0;      // when kSignalled
  std::string out;
  std::string err;
  std::string spawn_error;  // when kSpawnFailed: why
  double seconds = 0;       // wall time from spawn to exit
  bool ok() const { return outcome == Outcome::kExited && exit_code == 0; }
  std::string describe() const;  // "exit 1", "killed after timeout 5s", ...
};

// Who a host is, read on it: its /etc/machine-id, the boot it is in
// (/proc/sys/kernel/random/boot_id) and its hostname; empty where the host
// has none. The knob journal records it with every row and acts only on
// rows of the same machine and boot that carry this user's tag
// (runner/knobs/journal_rows.h).
struct HostIdentity {
  std::string machine_id, boot_id, hostname;
};

// One file as Host::read_files read it: its text; nothing and no error when
// it does not exist; or what read_file would have thrown (error).
struct FileRead {
  std::optional<std::string> text;
  std::string error;
};

class Host {
 public:
  virtual ~Host() = default;
  // Read on first use and kept: a Host object lives within one boot of its
  // machine (a lab guest's every boot is a new object).
  const HostIdentity& identity();
  virtual std::string name() const = 0;
  // Runs the argv to completion or timeout. When it times out or schedlab is
  // interrupted, the whole process group is killed. Never throws for the
  // command's own failure; the outcome says what happened.
  virtual ExecResult run(const Command& cmd) = 0;
  // Full path of a program found on the host's PATH, or nothing.
  virtual std::optional<std::string> find_program(const std::string& name) = 0;
  // Nothing when the file does not exist; throws HostError on other errors.
  virtual std::optional<std::string> read_file(const std::string& path) = 0;
  // Throws HostError with the kernel's reason (EINVAL, EACCES, ...).
  virtual void write_file(const std::string& path, const std::string& content) = 0;
  virtual std::vector<std::string> list_dir(const std::string& path) = 0;
  // Several files, each as read_file would read it, in the order given: by
  // default one read_file each; a remote host reads them in one round trip
  // (an emulated guest's costs a tenth of a second). Throws HostError only
  // when the host cannot be asked at all.
  virtual std::vector<FileRead> read_files(const std::vector<std::string>& paths);

  // Background processes (servers): started in a process group of their
  // own, left running, stopped as a group. cmd.timeout is ignored.
  using BackgroundId = int;
  virtual BackgroundId start_background(const Command& cmd) = 0;
  // Nothing while it runs; its result once it has exited on its own.
  virtual std::optional<ExecResult> poll_background(BackgroundId id) = 0;
  // SIGTERM to the group, SIGKILL after a grace period; its output so far.
  virtual ExecResult stop_background(BackgroundId id) = 0;
  // The process group of a running background process on the host (the
  // journal keeps it, so a run killed by -9 leaves no server behind:
  // runner/run/leftovers.h); nothing when the host cannot tell.
  virtual std::optional<int> background_pgid(BackgroundId) { return std::nullopt; }
  // What a running background process has written to its stdout so far (a
  // remote one's as it reached this machine), read without a round trip;
  // nothing where the host cannot tell. The SUT lock waits for its line.
  virtual std::optional<std::string> background_output(BackgroundId) { return std::nullopt; }
  // CPU seconds (user+sys) of the processes this object ran and reaped so
  // far, each with the descendants it waited for; nothing where that cannot
  // be known here (a remote host's processes use its CPU, not this
  // machine's). What a monitor's processes cost (runner/monitors/monitor_cpu.h).
  virtual std::optional<double> reaped_cpu_seconds() { return std::nullopt; }

  // Whether something on this host accepts TCP connections on the port
  // (on its loopback address).
  virtual bool port_accepts(int port) = 0;
  // A TCP port nothing listens on right now.
  virtual int free_port() = 0;
  // n different such ports (Workload::ports: a server and its data
  // connection). By default free_port() until n differ; a host that can
  // offer only some ports (a lab guest's forwards) says which.
  virtual std::vector<int> free_ports(int n) {
    std::vector<int> out;
    for (int tries = 0; static_cast<int>(out.size()) < n; ++tries) {
      if (tries >= 20 * n) throw HostError(name() + ": no " + std::to_string(n) + " different free TCP ports found");
      const int p = free_port();
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    return out;
  }

 private:
  std::optional<HostIdentity> identity_;
};

}  // namespace schedlab
