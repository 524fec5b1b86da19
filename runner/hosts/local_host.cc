#include "runner/hosts/local_host.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include "base/file.h"
#include "base/own_executable.h"
#include "runner/hosts/interrupt.h"

namespace schedlab {
namespace bp = boost::process;
namespace {

// Runs in the child between fork and exec: own process group, then the
// variant's CPU affinity and scheduling policy, so every task the workload
// forks inherits them. A failure is reported on the child's stderr and exit
// code 127; a knob is never silently dropped. The CPU set is built before
// the fork: the child only makes system calls.
struct ChildSetup : bp::extend::handler {
  std::optional<SchedPolicy> policy;
  std::optional<cpu_set_t> cpus;
  pid_t parent = ::getpid();

  template <typename Executor>
  void on_exec_setup(Executor&) const {
    ::setpgid(0, 0);
    // None of schedlab's open files reaches the workload: a lock or a log
    // it holds would outlive it in a server left behind. Marked close-on-
    // exec, not closed: the executor's own error pipe must stay until exec.
    // Before Linux 5.11 the call fails and the fds are inherited, as before.
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    // Dies with schedlab, kill -9 too (a group's other members are
    // journaled and killed by restore or the next run: leftovers.h). The
    // parent may have died before prctl: then at once.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (cpus && ::sched_setaffinity(0, sizeof(cpu_set_t), &*cpus) != 0) fail("sched_setaffinity");
    if (!policy) return;
    sched_param sp{};
    if (::sched_setscheduler(0, policy->policy, &sp) != 0) fail("sched_setscheduler");
    if (policy->nice && ::setpriority(PRIO_PROCESS, 0, *policy->nice) != 0) fail("setpriority");
  }

  [[noreturn]] static void fail(const char* what) {
    char buf[256];
    const int n = std::snprintf(buf, sizeof buf, "schedlab: %s: %s\n", what, std::strerror(errno));
    if (n > 0) [[maybe_unused]] auto w = ::write(2, buf, static_cast<std::size_t>(n));
    ::_exit(127);
  }
};

// A temporary file for one stream of the child; removed on destruction.
class TempFile {
 public:
  TempFile() {
    char tmpl[] = "/tmp/schedlab-out-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) throw HostError(fmt::format("mkstemp: {}", std::strerror(errno)));
    ::close(fd);
    path_ = tmpl;
  }
  ~TempFile() { ::unlink(path_.c_str()); }
  const std::string& path() const { return path_; }
  void write(const std::string& data) const {
    std::ofstream o(path_, std::ios::binary);
    o << data;
  }
  // The tool's whole output, however long: the store keeps all of it.
  std::string read() const { return read_file(path_, std::numeric_limits<std::size_t>::max()); }

 private:
  std::string path_;
};

}  // namespace

std::string ExecResult::describe() const {
  switch (outcome) {
    case Outcome::kExited: return fmt::format("exit {}", exit_code);
    case Outcome::kSignalled: return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
    case Outcome::kTimedOut: return fmt::format("killed at its timeout after {:.1f}s", seconds);
    case Outcome::kInterrupted: return "killed: schedlab was interrupted";
    case Outcome::kSpawnFailed: return "could not start: " + spawn_error;
  }
  return "unknown";
}

namespace {

// The CPU (user+sys) of an exited child and of the children it waited for,
// read from the zombie without reaping it (it waits for the child to exit):
// the raw waitid(2), as glibc's has no rusage argument. 0 if it cannot.
double zombie_cpu_seconds(pid_t pid) {
  siginfo_t info{};
  rusage ru{};
  long r;
  do {
    r = ::syscall(SYS_waitid, P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT, &ru);
  } while (r != 0 && errno == EINTR);
  if (r != 0) return 0;
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

}  // namespace

// A started child with its output files. The child leads its own process
// group, so its pid is also the group id.
struct LocalHost::Process {
  bp::child child;
  TempFile out, err, in;
  std::optional<bp::pipe> stdin_pipe;  // when the command holds stdin open
  std::chrono::steady_clock::time_point start;
  double cpu_s = 0;  // the leader's user+sys and its waited-for children's, once finished
  pid_t pgid() const { return child.id(); }
  // Tracked from spawn to reaping, for the emergency stop (interrupt.h).
  ~Process() {
    if (child.valid()) untrack_process_group(pgid());
  }

  // Without reaping: WNOWAIT leaves the leader a zombie, so its pid (the
  // group id) cannot be reused before the group is killed.
  bool exited() {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pgid()), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pgid();
  }

  // Kills what is left of the group, reaps the leader, collects the output.
  ExecResult finish(ExecResult::Outcome outcome) {
    ExecResult r;
    r.outcome = outcome;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::killpg(pgid(), SIGKILL);
    untrack_process_group(pgid());  // before reaping frees the pid for reuse
    cpu_s = zombie_cpu_seconds(pgid());
    std::error_code ec;
    child.wait(ec);
    stdin_pipe.reset();
    if (r.outcome == ExecResult::Outcome::kExited) {
      const int native = child.native_exit_code();
      if (WIFSIGNALED(native)) {
        r.outcome = ExecResult::Outcome::kSignalled;
        r.signal = WTERMSIG(native);
      } else {
        r.exit_code = WEXITSTATUS(native);
      }
    }
    r.out = out.read();
    r.err = err.read();
    return r;
  }
};

std::unique_ptr<LocalHost::Process> LocalHost::spawn(const Command& cmd, ExecResult& failure) {
  if (cmd.argv.empty()) throw HostError("empty argv");
  std::string exe = cmd.argv[0];
  if (exe.find('/') == std::string::npos) {
    auto found = find_program(exe);
    if (!found) {
      failure.spawn_error = fmt::format("'{}' not found on PATH", exe);
      return nullptr;
    }
    exe = *found;
  }
  auto p = std::make_unique<Process>();
  std::vector<std::string> args(cmd.argv.begin() + 1, cmd.argv.end());
  bp::environment env = boost::this_process::environment();
  // The implementation's own set(), not operator[]: Boost 1.74's find()
  // compares the key with every entry without checking the entry's length,
  // reading past the end of a shorter one (AddressSanitizer's finding).
  for (const auto& [k, v] : cmd.env) env.set(k, v);
  ChildSetup setup;
  setup.policy = cmd.policy;
  if (!cmd.cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cmd.cpus) {
      if (c >= CPU_SETSIZE)
        throw HostError(
            fmt::format("CPU {} is beyond this build's limit ({})", c, CPU_SETSIZE - 1));
      CPU_SET(c, &set);
    }
    setup.cpus = set;
  }
  const std::string in_path = cmd.stdin_data.empty() ? std::string("/dev/null") : p->in.path();
  if (!cmd.stdin_data.empty()) p->in.write(cmd.stdin_data);
  std::error_code ec;
  p->start = std::chrono::steady_clock::now();
  const std::string cwd = cmd.cwd.empty() ? std::filesystem::current_path().string() : cmd.cwd;
  if (cmd.hold_stdin_open) {
    p->stdin_pipe.emplace();
    p->child = bp::child(bp::exe = exe, bp::args = args, bp::std_in < *p->stdin_pipe,
                         bp::std_out > p->out.path(), bp::std_err > p->err.path(), env,
                         bp::start_dir = cwd, setup, ec);
  } else {
    p->child = bp::child(bp::exe = exe, bp::args = args, bp::std_in < in_path,
                         bp::std_out > p->out.path(), bp::std_err > p->err.path(), env,
                         bp::start_dir = cwd, setup, ec);
  }
  if (ec) {
    failure.spawn_error = fmt::format("{}: {}", exe, ec.message());
    return nullptr;
  }
  track_process_group(p->pgid());
  return p;
}

LocalHost::LocalHost() = default;

ExecResult LocalHost::reap(Process& p, ExecResult::Outcome outcome) {
  ExecResult r = p.finish(outcome);
  reaped_cpu_s_ += p.cpu_s;
  return r;
}

LocalHost::~LocalHost() {
  for (auto& [id, p] : background_) p->finish(ExecResult::Outcome::kInterrupted);
}

ExecResult LocalHost::run(const Command& cmd) {
  ExecResult failure;
  auto p = spawn(cmd, failure);
  if (!p) return failure;
  if (cmd.on_start) cmd.on_start(p->pgid());
  const auto deadline = p->start + cmd.timeout;
  // Poll rather than sigtimedwait: the wait must also notice a timeout and
  // an interrupt. The backoff keeps the cost of the poll below 1% of a run.
  auto nap = std::chrono::microseconds(200);
  while (!p->exited()) {
    if (cmd.interruptible && interrupted()) return reap(*p, ExecResult::Outcome::kInterrupted);
    if (std::chrono::steady_clock::now() >= deadline)
      return reap(*p, ExecResult::Outcome::kTimedOut);
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(20'000));
  }
  // Whatever the leader did, nothing it started may outlive it.
  return reap(*p, ExecResult::Outcome::kExited);
}

Host::BackgroundId LocalHost::start_background(const Command& cmd) {
  ExecResult failure;
  auto p = spawn(cmd, failure);
  if (!p) throw HostError(failure.spawn_error);
  const BackgroundId id = next_id_++;
  background_[id] = std::move(p);
  return id;
}

std::optional<ExecResult> LocalHost::poll_background(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) throw HostError(fmt::format("no background process {}", id));
  if (!it->second->exited()) return std::nullopt;
  ExecResult r = reap(*it->second, ExecResult::Outcome::kExited);
  background_.erase(it);
  return r;
}

ExecResult LocalHost::stop_background(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) throw HostError(fmt::format("no background process {}", id));
  auto& p = *it->second;
  ExecResult r;
  if (p.exited()) {
    r = reap(p, ExecResult::Outcome::kExited);
  } else {
    // A server gets a chance to shut down cleanly, then the group is killed.
    ::killpg(p.pgid(), SIGTERM);
    const auto grace = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!p.exited() && std::chrono::steady_clock::now() < grace)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    r = reap(p, p.exited() ? ExecResult::Outcome::kExited : ExecResult::Outcome::kSignalled);
  }
  background_.erase(it);
  return r;
}

std::optional<int> LocalHost::background_pgid(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) return std::nullopt;
  return it->second->pgid();
}

std::optional<std::string> LocalHost::background_output(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) return std::nullopt;
  return it->second->out.read();
}

bool LocalHost::port_accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

int LocalHost::free_port() {
  // Bind port 0 and let the kernel choose; the race with another program
  // taking it before the server starts is acceptable for a benchmark host.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw HostError(fmt::format("socket: {}", std::strerror(errno)));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int e = errno;
    ::close(fd);
    throw HostError(fmt::format("bind: {}", std::strerror(e)));
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

// schedlab's own programs (schedlab-*, tools/) come from next to the running
// binary before PATH: an older installed copy in /usr/local/bin must not
// stand in for the one built with this schedlab.
static std::optional<std::string> own_program(const std::string& name) {
  if (!name.starts_with("schedlab-")) return std::nullopt;
  const auto self = own_executable();
  if (!self) return std::nullopt;
  const auto sibling = (self->parent_path() / name).string();
  return ::access(sibling.c_str(), X_OK) == 0 ? std::optional(sibling) : std::nullopt;
}

std::optional<std::string> LocalHost::find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional(name) : std::nullopt;
  if (auto own = own_program(name)) return own;
  auto p = bp::search_path(name);
  if (p.empty()) return std::nullopt;
  return p.string();
}

std::optional<std::string> LocalHost::read_file(const std::string& path) {
  try {
    return schedlab::read_file(path);
  } catch (const FileError& e) {
    if (e.errnum() == ENOENT) return std::nullopt;
    throw HostError(fmt::format("{}: {}", path, e.reason()));
  }
}

void LocalHost::write_file(const std::string& path, const std::string& content) {
  // One write(2): sysctl and debugfs files take the value in a single call
  // and report a rejected value (EINVAL) from it, or from close.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_TRUNC, 0644);
  if (fd < 0) throw HostError(fmt::format("{}: {}", path, std::strerror(errno)));
  const ssize_t n = ::write(fd, content.data(), content.size());
  const int write_errno = errno;
  const int rc = ::close(fd);
  if (n < 0) throw HostError(fmt::format("{}: {}", path, std::strerror(write_errno)));
  if (static_cast<std::size_t>(n) != content.size())
    throw HostError(fmt::format("{}: short write ({} of {} bytes)", path, n, content.size()));
  if (rc != 0) throw HostError(fmt::format("{}: {}", path, std::strerror(errno)));
}

std::vector<std::string> LocalHost::list_dir(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path, ec))
    names.push_back(e.path().filename().string());
  if (ec) throw HostError(fmt::format("{}: {}", path, ec.message()));
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace schedlab
