#include "runner/hosts/interrupt.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "base/message.h"

namespace schedlab {
namespace {
volatile std::sig_atomic_t g_signal = 0;
// When the first signal came (CLOCK_MONOTONIC ns), 0 before it. Lock-free,
// so the handler may use it.
std::atomic<std::int64_t> g_first_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
int g_wake_fd = -1;  // write end of the self-pipe

// One request can arrive twice: timeout(1) and `kill -- -PGID` signal the
// process and then its whole group, microseconds apart. A signal this close
// to the first is the same request, not a second Ctrl-C.
constexpr std::int64_t kSameRequestNs = 100'000'000;

std::mutex g_mutex;  // guards the two registries below
std::set<pid_t> g_groups;
std::map<int, std::function<void()>> g_actions;
int g_next_action = 0;

extern "C" void on_signal(int sig) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const std::int64_t ns = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  std::int64_t first = 0;
  if (g_first_ns.compare_exchange_strong(first, ns)) {
    g_signal = sig;
    return;
  }
  if (ns - first >= kSameRequestNs && g_wake_fd >= 0) {
    const char b = 1;
    [[maybe_unused]] auto n = ::write(g_wake_fd, &b, 1);
  }
}

// The emergency thread: sleeps on the pipe until a second signal.
void emergency_loop(int read_fd) {
  char b;
  while (::read(read_fd, &b, 1) != 1) {
  }
  const int sig = g_signal ? g_signal : SIGINT;
  // Not the signal handler (it only sets a flag and wakes this thread), so
  // these messages may allocate: wrapped like every other.
  print_message("\nschedlab: second signal: stopping workloads, restoring knobs, exiting now\n");
  std::vector<std::function<void()>> actions;
  {
    std::lock_guard lock(g_mutex);
    for (pid_t pgid : g_groups) ::killpg(pgid, SIGKILL);
    for (auto& [id, a] : g_actions) actions.push_back(a);
  }
  for (auto& a : actions) {
    try {
      a();
    } catch (const std::exception& e) {
      print_message(fmt::format("schedlab: emergency restore: {}\n", e.what()));
    } catch (...) {
      print_message("schedlab: emergency restore failed\n");
    }
  }
  std::fflush(stderr);
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  if (g_wake_fd < 0) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == 0) {
      // The thread blocks the signals, so they always land on a thread that
      // polls interrupted(); it inherits the mask set here.
      sigset_t block, old;
      sigemptyset(&block);
      for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, s);
      pthread_sigmask(SIG_BLOCK, &block, &old);
      std::thread(emergency_loop, fds[0]).detach();
      pthread_sigmask(SIG_SETMASK, &old, nullptr);
      g_wake_fd = fds[1];
    }
  }
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
}

bool interrupted() { return g_signal != 0; }
int interrupt_signal() { return g_signal; }
void reset_interrupted() {
  g_signal = 0;
  g_first_ns = 0;
}

void track_process_group(pid_t pgid) {
  std::lock_guard lock(g_mutex);
  g_groups.insert(pgid);
}

void untrack_process_group(pid_t pgid) {
  std::lock_guard lock(g_mutex);
  g_groups.erase(pgid);
}

EmergencyAction::EmergencyAction(std::function<void()> action) {
  std::lock_guard lock(g_mutex);
  id_ = g_next_action++;
  g_actions.emplace(id_, std::move(action));
}

EmergencyAction::~EmergencyAction() {
  std::lock_guard lock(g_mutex);
  g_actions.erase(id_);
}

}  // namespace schedlab
