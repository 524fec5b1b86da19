#include "runner/run/leftovers.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <set>
#include <sstream>

#include "base/random_word.h"
#include "base/text.h"
#include "runner/hosts/locks.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/task_policies.h"

namespace schedlab {
namespace {

// Only what schedlab itself names is ever removed.
constexpr std::string_view kWorkdirPrefix = "/tmp/schedlab-run";
// PerfSession's directories (runner/monitors/perf_session.cc, kMakeDir).
constexpr std::string_view kPerfDirPrefix = "schedlab-perf.";

// Field 22 of /proc/PID/stat (after the parenthesised command name, which
// may hold blanks): the start time in clock ticks since boot.
std::string start_time(Host& host, int pid) {
  std::optional<std::string> stat;
  try {
    stat = host.read_file(fmt::format("/proc/{}/stat", pid));
  } catch (const HostError&) {
    return "";
  }
  if (!stat) return "";
  const auto close = stat->rfind(')');
  if (close == std::string::npos) return "";
  std::istringstream in(stat->substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && in >> field; ++i)
    if (i == 22) return field;
  return "";
}

// Whether `path` is a directory schedlab made: under its prefix, named as
// mkdtemp names it, a real directory (no symlink anywhere on the way: it
// resolves to itself).
bool schedlab_workdir(Host& host, const std::string& path) {
  // /tmp/schedlab-run<RUN>-w<N>-XXXXXXXX (executor.cc), nothing below it.
  if (!path.starts_with(kWorkdirPrefix) || path.size() == kWorkdirPrefix.size() ||
      !std::isdigit(static_cast<unsigned char>(path[kWorkdirPrefix.size()])) ||
      path.find('/', kWorkdirPrefix.size()) != std::string::npos)
    return false;
  const auto resolved = host.run({.argv = {"readlink", "-e", "--", path},
                                  .timeout = std::chrono::seconds(30),
                                  .interruptible = false});
  if (!resolved.ok() || std::string(trim(resolved.out)) != path) return false;
  return host.run({.argv = {"test", "-d", path}, .timeout = std::chrono::seconds(30), .interruptible = false})
      .ok();
}

// Whether a process of group PGID on HOST holds kGroupMarkVariable=MARK in
// its environment: then the group is the one journaled with MARK (a group
// that took its number later started without it). A row of a schedlab
// that did not mark its groups has none: never.
bool group_carries_mark(Host& host, int pgid, const std::string& mark) {
  if (mark.empty()) return false;
  std::set<int> pids;
  for (const auto& t : read_tasks(host, {}, {pgid}))
    if (t.pgrp == pgid) pids.insert(t.pid);
  std::vector<std::string> paths;
  for (const int pid : pids) paths.push_back(fmt::format("/proc/{}/environ", pid));
  const std::string want = fmt::format("{}={}", kGroupMarkVariable, mark);
  for (const auto& f : host.read_files(paths)) {
    if (!f.text) continue;  // gone since, or not readable by this user
    std::string_view env(*f.text);
    while (!env.empty()) {
      const auto end = std::min(env.find('\0'), env.size());
      if (env.substr(0, end) == want) return true;
      env.remove_prefix(std::min(end + 1, env.size()));
    }
  }
  return false;
}

}  // namespace

std::string new_group_mark() {
  return random_word(16);
}

bool is_leftover_kind(const std::string& kind) {
  return kind == kWorkdirKind || kind == kProcessGroupKind;
}

// The name made here (as mkdtemp would: 8 random letters and digits) and
// the directory by mkdir -m 0755, which fails on anything already there: one
// round trip to the SUT, not mktemp's and chmod's two (an emulated guest's
// each costs a tenth of a second). Servers may run as another user
// (postgres): readable like /tmp/x.
Workdir make_workdir(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                     const std::string& prefix) {
  if (!prefix.starts_with(kWorkdirPrefix))
    throw HostError(fmt::format("a work directory {}-XXXXXXXX is not schedlab's", prefix));
  return make_workdir_at(journal, host, run_id, prefix + "-" + random_word(8));
}

Workdir make_workdir_at(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                        const std::string& path) {
  const auto r = host.run({.argv = {"mkdir", "-m", "0755", "--", path}, .timeout = std::chrono::seconds(30)});
  if (!r.ok())
    throw HostError(fmt::format("cannot create the work directory {} on {}: {}", path, host.name(),
                                last_lines(r.err, 1)));
  return {path, journal.journal_applied(stamped(
                    {.run_id = run_id, .kind = kWorkdirKind, .name = path, .path = path}, host))};
}

void remove_workdir(KnobJournalTable& journal, Host& host, const Workdir& w) noexcept {
  try {
    const auto r = host.run({.argv = {"rm", "-rf", "--", w.path},
                             .timeout = std::chrono::minutes(2),
                             .interruptible = false});
    if (r.ok() && w.entry) journal.journal_restored(w.entry);
  } catch (...) {
    // Still journaled: restore or the next run removes it.
  }
}

std::int64_t journal_process_group(KnobJournalTable& journal, Host& host, std::int64_t run_id,
                                   int pgid, const std::string& what, const std::string& mark) {
  // The leader's start time, with the boot the row names: a group is
  // signalled later only while its leader is still this process (a reused
  // PID never is). Not its program: the group is journaled as it is
  // spawned, when its leader may not have exec'ed it yet.
  return journal.journal_applied(stamped({.run_id = run_id,
                                          .kind = kProcessGroupKind,
                                          .name = what,
                                          .path = std::to_string(pgid),
                                          .original = start_time(host, pgid),
                                          .target = mark},
                                         host));
}

std::vector<std::string> clean_leftovers(KnobJournalTable& journal, Host& host) {
  std::vector<std::string> done;
  // Only what this user journaled on this machine in this boot: a process
  // group or directory journaled elsewhere, or by a row with no identity or
  // tag of this user's (a merged, crafted or another user's row), is not
  // ours to touch.
  for (const auto& e : journal_rows(journal, host).live) {
    if (!is_leftover_kind(e.kind)) continue;
    if (e.run_id && RunAlive::held(journal.path(), e.run_id)) continue;  // a live run's own
    if (e.kind == kWorkdirKind) {
      if (!schedlab_workdir(host, e.path)) {
        journal.journal_restored(e.id);  // gone, or never schedlab's: left alone
        continue;
      }
      const auto r = host.run({.argv = {"rm", "-rf", "--", e.path},
                               .timeout = std::chrono::minutes(2),
                               .interruptible = false});
      if (!r.ok()) throw HostError(fmt::format("rm -rf {} on {}: {}", e.path, host.name(), r.describe()));
      journal.journal_restored(e.id);
      done.push_back(fmt::format("work directory {} removed (run {})", e.path, e.run_id));
      continue;
    }
    // A process group: killed when its leader is the process journaled, or
    // when the leader is gone (PDEATHSIG killed it with schedlab) and a
    // process of the group still carries the mark the run started it with.
    // Not on the group's number alone: once all of the journaled group is
    // gone, the number is free, and a daemon whose group leader exited (a
    // double fork, `(cmd &)` in a shell), another user's too, may hold it
    // now (hostile17).
    int pgid = 0;
    if (const auto [end, ec] = std::from_chars(e.path.data(), e.path.data() + e.path.size(), pgid);
        ec != std::errc() || end != e.path.data() + e.path.size() || pgid <= 1) {
      journal.journal_restored(e.id);  // not a process group schedlab journaled
      continue;
    }
    const std::string started = start_time(host, pgid);
    const auto kill_group = [&] {
      host.run({.argv = {"kill", "-KILL", "--", fmt::format("-{}", pgid)},
                .timeout = std::chrono::seconds(30),
                .interruptible = false});
      done.push_back(fmt::format("process group {} ({}) killed (run {})", pgid,
                                 terminal_safe(excerpt(e.name, 80)), e.run_id));
    };
    if (!started.empty()) {
      if (started == e.original) kill_group();  // else the number is another process's now
    } else if (group_carries_mark(host, pgid, e.target)) {
      kill_group();
    } else if (!read_tasks(host, {}, {pgid}).empty()) {
      done.push_back(fmt::format(
          "process group {} ({}): its leader is gone and none of its processes carries the mark "
          "the run started them with{}, so it may be another group that took the number since; "
          "left alone (run {})",
          pgid, terminal_safe(excerpt(e.name, 80)),
          e.target.empty() ? " (a row of a schedlab that did not mark its groups)" : "", e.run_id));
    }
    journal.journal_restored(e.id);
  }
  return done;
}

std::vector<std::string> stop_perf_leftovers(Host& host) {
  std::vector<std::string> done;
  const auto quick = [&](std::vector<std::string> argv) {
    return host.run(
        {.argv = std::move(argv), .timeout = std::chrono::seconds(30), .interruptible = false});
  };
  for (const auto& name : host.list_dir("/tmp")) {
    if (!name.starts_with(kPerfDirPrefix) || name.find('/') != std::string::npos) continue;
    const std::string dir = "/tmp/" + name;
    // A directory of its own, not a link to one.
    const auto resolved = quick({"readlink", "-e", "--", dir});
    if (!resolved.ok() || std::string(trim(resolved.out)) != dir ||
        !quick({"test", "-d", dir}).ok())
      continue;
    // Another user's session is not of a run under this SUT lock (each user
    // has a lock folder of their own): root's run killed another user's
    // live perf and removed its profile (hostile12). Left alone.
    if (!quick({"test", "-O", dir}).ok()) continue;
    std::string what = "directory removed";
    const std::string pid(trim(host.read_file(dir + "/pid").value_or("")));
    if (!pid.empty() && pid.size() < 10 &&
        pid.find_first_not_of("0123456789") == std::string::npos) {
      // perf's argv holds --control fifo:DIR/ctl,DIR/ack.
      const auto cmdline = host.read_file("/proc/" + pid + "/cmdline");
      if (cmdline && cmdline->find("fifo:" + dir + "/ctl") != std::string::npos) {
        quick({"kill", "-KILL", "--", pid});
        what = fmt::format("perf (pid {}) stopped, directory removed", pid);
      }
    }
    const auto r = host.run({.argv = {"rm", "-rf", "--", dir},
                             .timeout = std::chrono::minutes(2),
                             .interruptible = false});
    if (!r.ok())
      throw HostError(fmt::format("rm -rf {} on {}: {}", dir, host.name(), r.describe()));
    done.push_back(fmt::format("perf session {}: {}", dir, what));
  }
  return done;
}

}  // namespace schedlab
