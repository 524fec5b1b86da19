#include "runner/monitors/task_sampler.h"

#include <fmt/format.h>

#include <algorithm>

namespace schedlab {
namespace {

// $1: the interval in seconds, empty for one poll; $2: comm names, one per
// line. Per poll one awk reads every task's comm and, for the matching ones,
// stat and sched; everything happens in BEGIN, so awk opens none of its
// arguments as input and a task that exits mid-poll is just skipped. The
// last ") " of stat ends the comm: fields 22 (starttime) and 39 (processor)
// are the 20th and 37th after it.
constexpr const char* kSampler = R"sh(poll() {
  set -- /proc/[0-9]*/task/[0-9]*
  awk '
function slurp(f,   l) { l = ""; if ((getline l < f) <= 0) l = ""; close(f); return l }
BEGIN {
  n = split(ARGV[1], names, "\n")
  for (i = 1; i <= n; i++) if (names[i] != "") want[names[i]] = 1
  up = slurp("/proc/uptime"); sub(/ .*/, "", up)
  print "P " up
  for (i = 2; i < ARGC; i++) {
    d = ARGV[i]
    c = slurp(d "/comm")
    if (!(c in want)) continue
    s = slurp(d "/stat")
    if (!match(s, /\) [^)]*$/)) continue
    split(substr(s, RSTART + 2), f, " ")
    mig = "-"; sw = "-"; vol = "-"; inv = "-"; got = 0
    while ((getline l < (d "/sched")) > 0) {
      got = 1
      k = l; sub(/[ \t]*:.*/, "", k)
      v = l; sub(/^[^:]*:[ \t]*/, "", v)
      if (k == "se.nr_migrations") mig = v
      else if (k == "nr_switches") sw = v
      else if (k == "nr_voluntary_switches") vol = v
      else if (k == "nr_involuntary_switches") inv = v
    }
    close(d "/sched")
    if (!got) continue
    tid = d; sub(/.*\//, "", tid)
    print tid, f[20], f[37], mig, sw, vol, inv, c
  }
  print "E"
}' "$names" "$@"
}
names=$2
echo "# schedlab-tasks 1"
if [ -z "$1" ]; then poll; exit; fi
while :; do poll; sleep "$1"; done)sh";

std::string joined(const std::vector<std::string>& comms) {
  std::string s;
  for (const auto& c : comms) s += c + "\n";
  return s;
}

}  // namespace

std::vector<std::string> comm_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    std::string c = n.substr(0, 15);
    if (!c.empty() && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::vector<std::string> task_sampler_argv(const std::vector<std::string>& comms,
                                           std::optional<std::chrono::milliseconds> interval) {
  const std::string seconds =
      interval ? fmt::format("{}.{:03}", interval->count() / 1000, interval->count() % 1000) : "";
  return {"sh", "-c", kSampler, "schedlab-tasks", seconds, joined(comm_names(comms))};
}

std::string poll_tasks_once(Host& host, const std::vector<std::string>& comms) {
  const ExecResult r = host.run({.argv = task_sampler_argv(comms, std::nullopt),
                                 .timeout = std::chrono::seconds(30),
                                 .interruptible = false});
  if (!r.ok())
    throw HostError(fmt::format("{}: the task sampler failed ({}): {}", host.name(), r.describe(),
                                r.err.empty() ? r.spawn_error : r.err));
  return r.out;
}

TaskSampler::TaskSampler(Host& host, std::vector<std::string> comms,
                         std::chrono::milliseconds interval)
    : host_(host), comms_(std::move(comms)), interval_(interval) {}

TaskSampler::~TaskSampler() {
  if (!poller_) return;
  try {
    host_.stop_background(*poller_);
  } catch (...) {
    // The host is gone or the poller with it; nothing left to stop.
  }
}

void TaskSampler::start() {
  first_ = poll_tasks_once(host_, comms_);
  poller_ = host_.start_background({.argv = task_sampler_argv(comms_, interval_)});
}

std::string TaskSampler::stop() {
  std::string out = first_;
  if (poller_) {
    const Host::BackgroundId id = *poller_;
    poller_.reset();
    // Stopped mid-poll, its output may end in a cut line: the parser drops
    // a poll without its end marker.
    const ExecResult r = host_.stop_background(id);
    out += r.out;
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  out += poll_tasks_once(host_, comms_);
  return out;
}

}  // namespace schedlab
