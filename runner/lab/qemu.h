// One qemu process (the board's: qemu-system-x86_64, qemu-system-arm): the
// argv for a lab guest (user-mode
// network restricted to port forwards on 127.0.0.1, serial console to a
// file), started in a process group of its own (a terminal's Ctrl-C reaches
// schedlab, which restores knobs in the guest first) with the parent-death
// signal set, so no qemu outlives schedlab, even after kill -9. The object
// powers the guest off (SIGTERM, then SIGKILL) when it goes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace schedlab::lab {

struct QemuOptions {
  std::string board = "x86";  // board.h: qemu binary, machine, console, NIC
  std::string vmlinuz, initrd;
  std::string dtb;            // the fixed DTB, for a board that has one
  int cpus = 2;
  int sockets = 1;            // >1: -smp N,sockets=S,cores=N/S (more domain levels)
  std::string memory = "1G";  // qemu's -m syntax
  std::string accel = "tcg";  // kvm | tcg (auto is resolved before this)
  int ssh_port = 0;           // host 127.0.0.1:ssh_port -> guest 22
  std::vector<int> forwards;  // host 127.0.0.1:p -> guest p
  std::string cmdline_extra;
  std::filesystem::path serial_log, stderr_log;
};

std::vector<std::string> qemu_argv(const QemuOptions& o);

class QemuProcess {
 public:
  explicit QemuProcess(const QemuOptions& o);  // throws when qemu cannot be spawned
  ~QemuProcess();                              // powers off
  QemuProcess(const QemuProcess&) = delete;
  QemuProcess& operator=(const QemuProcess&) = delete;

  enum class Wait { kReady, kExited, kTimedOut, kNoOutput, kInterrupted, kAccelFailed };
  // Polls the serial log for `line` until the deadline. kNoOutput when the
  // console stayed silent for `first_output` (a KVM that cannot run the
  // guest), kAccelFailed when qemu's stderr reports an accelerator error.
  Wait wait_for(const std::string& line, std::chrono::milliseconds deadline,
                std::chrono::milliseconds first_output);
  bool running();
  // How qemu ended ("exit 0", "killed by signal 9"), empty while it runs.
  std::string exit_description();
  void power_off();
  pid_t pid() const { return pid_; }
  std::string serial_tail(int lines = 15) const;
  // The console's crash report (crash_report below); nullopt when none.
  std::optional<std::string> crash_report(int max_lines) const;
  // What explains a guest that went: its crash report, else the tail.
  std::string crash_console(int max_lines = 60) const;
  std::string stderr_text() const;
  const QemuOptions& options() const { return options_; }

 private:
  QemuOptions options_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;  // waitpid's, once reaped
  bool status_known_ = false;
};

// Whether qemu's stderr says the accelerator failed.
bool accel_failure_in(const std::string& qemu_stderr);

// A console text from the first line of its last crash report (BUG, Oops,
// panic, a sysrq crash), at most max_lines (its head and tail); nullopt
// when it holds none. Pure.
std::optional<std::string> crash_report(const std::string& console, int max_lines);

// A TCP port on 127.0.0.1 that nothing listens on now.
int free_local_port();

}  // namespace schedlab::lab
