#include "runner/local_host.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runner/interrupt.h"

namespace schedlab {
namespace bp = boost::process;
namespace {

// Runs in the child between fork and exec: own process group, then the
// variant's scheduling policy, so every task the workload forks inherits it.
// A failure is reported on the child's stderr and exit code 127; the
// policy is never silently dropped.
struct ChildSetup : bp::extend::handler {
  std::optional<SchedPolicy> policy;

  template <typename Executor>
  void on_exec_setup(Executor&) const {
    ::setpgid(0, 0);
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
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

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

ExecResult LocalHost::run(const Command& cmd) {
  ExecResult r;
  if (cmd.argv.empty()) throw HostError("empty argv");
  std::string exe = cmd.argv[0];
  if (exe.find('/') == std::string::npos) {
    auto found = find_program(exe);
    if (!found) {
      r.spawn_error = fmt::format("'{}' not found on PATH", exe);
      return r;
    }
    exe = *found;
  }
  TempFile out, err;
  std::vector<std::string> args(cmd.argv.begin() + 1, cmd.argv.end());
  bp::environment env = boost::this_process::environment();
  for (const auto& [k, v] : cmd.env) env[k] = v;
  ChildSetup setup;
  setup.policy = cmd.policy;

  const auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  bp::child child;
  if (cmd.cwd.empty())
    child = bp::child(bp::exe = exe, bp::args = args, bp::std_in < bp::null,
                      bp::std_out > out.path(), bp::std_err > err.path(), env, setup, ec);
  else
    child = bp::child(bp::exe = exe, bp::args = args, bp::std_in < bp::null,
                      bp::std_out > out.path(), bp::std_err > err.path(), env,
                      bp::start_dir = cmd.cwd, setup, ec);
  if (ec) {
    r.spawn_error = fmt::format("{}: {}", exe, ec.message());
    return r;
  }
  const pid_t pgid = child.id();
  const auto deadline = start + cmd.timeout;

  // Poll rather than sigtimedwait: the wait must also notice a timeout and
  // an interrupt. The backoff keeps the cost of the poll below 1% of a run.
  // WNOWAIT leaves the leader unreaped, so its pid (our group id) cannot be
  // reused before the group is killed below.
  auto nap = std::chrono::microseconds(200);
  r.outcome = ExecResult::Outcome::kExited;
  while (true) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pgid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pgid)
      break;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline || interrupted()) {
      r.outcome = interrupted() ? ExecResult::Outcome::kInterrupted : ExecResult::Outcome::kTimedOut;
      break;
    }
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::microseconds(20'000));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Whatever the leader did, nothing it started may outlive the iteration.
  ::killpg(pgid, SIGKILL);
  child.wait(ec);

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

std::optional<std::string> LocalHost::find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional(name) : std::nullopt;
  auto p = bp::search_path(name);
  if (p.empty()) return std::nullopt;
  return p.string();
}

std::optional<std::string> LocalHost::read_file(const std::string& path) {
  // /proc and /sys files report size 0: read until EOF.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw HostError(fmt::format("{}: {}", path, std::strerror(errno)));
  }
  std::string data;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      throw HostError(fmt::format("{}: {}", path, std::strerror(e)));
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
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
