#include "runner/lab/qemu.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "base/file.h"
#include "base/text.h"
#include "runner/hosts/interrupt.h"
#include "runner/lab/board.h"
#include "runner/lab/paths.h"

namespace schedlab::lab {

std::vector<std::string> qemu_argv(const QemuOptions& o) {
  const Board& board = board_named(o.board);
  std::string smp = std::to_string(o.cpus);
  if (o.sockets > 1) smp += fmt::format(",sockets={},cores={},threads=1", o.sockets, o.cpus / o.sockets);
  std::string user = fmt::format("user,restrict=on,hostfwd=tcp:127.0.0.1:{}-:22", o.ssh_port);
  // TCP and UDP alike: a UDP benchmark's datagrams (e.g. netperf's UDP_STREAM/UDP_RR).
  for (int p : o.forwards)
    user += fmt::format(",hostfwd=tcp:127.0.0.1:{0}-:{0},hostfwd=udp:127.0.0.1:{0}-:{0}", p);
  // Not quiet: the last console lines are what a failed boot shows the user.
  std::string append = "console=" + board.console + " panic=-1";
  if (!o.cmdline_extra.empty()) append += " " + o.cmdline_extra;
  std::vector<std::string> argv = {board.qemu};
  if (!board.machine.empty()) argv.insert(argv.end(), {"-M", board.machine});
  const auto& accel = o.accel == "kvm" ? board.kvm_args : board.tcg_args;
  argv.insert(argv.end(), accel.begin(), accel.end());
  argv.insert(argv.end(), {"-smp", smp, "-m", o.memory, "-kernel", o.vmlinuz, "-initrd", o.initrd});
  if (!o.dtb.empty()) argv.insert(argv.end(), {"-dtb", o.dtb});
  argv.insert(argv.end(), {"-append", append, "-nodefaults", "-no-user-config", "-display", "none", "-monitor",
                           "none"});
  // The console is the board's serial port console_serial; those before it go nowhere.
  for (int i = 0; i < board.console_serial; ++i) argv.insert(argv.end(), {"-serial", "null"});
  argv.insert(argv.end(), {"-serial", "file:" + o.serial_log.string(), "-no-reboot"});
  for (std::string a : board.nic_args) {
    if (const auto at = a.find("{user}"); at != std::string::npos) a.replace(at, 6, user);
    argv.push_back(a);
  }
  return argv;
}

bool accel_failure_in(const std::string& err) {
  for (const char* s : {"KVM internal error", "emulation failure", "failed to initialize kvm", "Could not access KVM",
                        "kvm run failed", "KVM_RUN", "failed to initialize KVM"})
    if (err.find(s) != std::string::npos) return true;
  return false;
}

int free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw std::runtime_error(fmt::format("cannot pick a free port: {}", std::strerror(errno)));
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

QemuProcess::QemuProcess(const QemuOptions& o) : options_(o) {
  const auto argv = qemu_argv(o);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string err_path = o.stderr_log.string();
  const std::string cannot = "schedlab: cannot execute " + argv.front() + "\n";
  // A previous attempt's logs must not be read as this one's.
  std::error_code ec;
  std::filesystem::remove(o.stderr_log, ec);
  std::filesystem::remove(o.serial_log, ec);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid_ == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int in = ::open("/dev/null", O_RDONLY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(err, 1);
    ::dup2(err, 2);
    ::execvp(args[0], args.data());
    (void)!::write(2, cannot.data(), cannot.size());
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);
}

QemuProcess::~QemuProcess() { power_off(); }

bool QemuProcess::running() {
  if (reaped_) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    status_ = status;
    status_known_ = true;
  }
  if (r == pid_ || (r < 0 && errno == ECHILD)) reaped_ = true;
  return !reaped_;
}

std::string QemuProcess::exit_description() {
  if (running()) return "";
  if (!status_known_) return "ended (status not known)";
  if (WIFSIGNALED(status_)) return fmt::format("killed by signal {}", WTERMSIG(status_));
  return fmt::format("exit {}", WEXITSTATUS(status_));
}

void QemuProcess::power_off() {
  if (pid_ <= 0 || !running()) return;
  // No disk: there is nothing to flush, the guest simply goes. qemu exits on
  // SIGTERM; SIGKILL if it has not after 5 s.
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100 && running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (running()) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    reaped_ = true;
  }
}

std::string QemuProcess::serial_tail(int lines) const {
  std::string text;
  try {
    text = schedlab::read_file(options_.serial_log);
  } catch (const std::exception&) {
    return "(no serial output)";
  }
  std::erase(text, '\r');
  return last_lines(text, static_cast<std::size_t>(lines));
}

std::optional<std::string> crash_report(const std::string& console, int max_lines) {
  // A call trace's length varies (its "?" frames): the tail alone may hold
  // neither the reason nor the faulting function. The first line of the
  // last crash report is where a reader starts.
  std::size_t from = std::string::npos;
  for (const char* marker : {"sysrq: Trigger a crash", "BUG: ", "Oops: ", "general protection fault",
                             "Kernel panic - not syncing"}) {
    const auto at = console.rfind(marker);
    if (at != std::string::npos && (from == std::string::npos || at < from)) from = at;
  }
  if (from == std::string::npos) return std::nullopt;
  from = console.rfind('\n', from);
  std::string crash = console.substr(from == std::string::npos ? 0 : from + 1);
  const auto lines = static_cast<std::size_t>(std::count(crash.begin(), crash.end(), '\n'));
  if (lines <= static_cast<std::size_t>(max_lines)) return crash;
  std::istringstream in(crash);
  std::string head;
  std::string line;
  for (int i = 0; i < max_lines / 2 && std::getline(in, line); ++i) head += line + "\n";
  return head + "...\n" + last_lines(console, static_cast<std::size_t>(max_lines / 2));
}

std::optional<std::string> QemuProcess::crash_report(int max_lines) const {
  std::string text;
  try {
    text = schedlab::read_file(options_.serial_log);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::erase(text, '\r');
  return lab::crash_report(text, max_lines);
}

std::string QemuProcess::crash_console(int max_lines) const {
  if (auto crash = crash_report(max_lines)) return *crash;
  return serial_tail(max_lines);
}

std::string QemuProcess::stderr_text() const {
  try {
    return schedlab::read_file(options_.stderr_log);
  } catch (const std::exception&) {
    return "";
  }
}

QemuProcess::Wait QemuProcess::wait_for(const std::string& line, std::chrono::milliseconds deadline,
                                        std::chrono::milliseconds first_output) {
  const auto start = std::chrono::steady_clock::now();
  std::ifstream serial;
  std::string seen;
  while (true) {
    if (!serial.is_open()) serial.open(options_.serial_log, std::ios::binary);
    if (serial.is_open()) {
      char buf[4096];
      while (serial.read(buf, sizeof buf) || serial.gcount() > 0) seen.append(buf, static_cast<std::size_t>(serial.gcount()));
      serial.clear();  // at EOF: more may come
      if (seen.find(line) != std::string::npos) return Wait::kReady;
    }
    if (!running()) return Wait::kExited;
    if (accel_failure_in(stderr_text())) return Wait::kAccelFailed;
    if (interrupted()) return Wait::kInterrupted;
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (seen.empty() && elapsed > first_output) return Wait::kNoOutput;
    if (elapsed > deadline) return Wait::kTimedOut;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
}

}  // namespace schedlab::lab
