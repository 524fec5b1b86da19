#include "tests/support/fake_host.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "runner/hosts/interrupt.h"

namespace schedlab::test {

std::chrono::steady_clock::time_point FakeClock::now() const {
  std::lock_guard lock(mutex_);
  return std::chrono::steady_clock::time_point(elapsed_);
}

std::string FakeClock::utc_now() const {
  std::lock_guard lock(mutex_);
  const auto ms = elapsed_.count();
  return fmt::format("2026-01-01T{:02}:{:02}:{:02}.{:03}Z", ms / 3'600'000 % 24, ms / 60'000 % 60,
                     ms / 1000 % 60, ms % 1000);
}

void FakeClock::advance(std::chrono::milliseconds d) {
  std::lock_guard lock(mutex_);
  elapsed_ += d;
}

double FakeClock::seconds() const {
  std::lock_guard lock(mutex_);
  return std::chrono::duration<double>(elapsed_).count();
}

std::string Event::str() const {
  auto chomp = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  switch (kind) {
    case Kind::kRun:
      return fmt::format("{}: run {}", host, fmt::join(argv, " "));
    case Kind::kStart:
      return fmt::format("{}: start {}", host, fmt::join(argv, " "));
    case Kind::kPoll:
      return fmt::format("{}: poll {}", host, fmt::join(argv, " "));
    case Kind::kStop:
      return fmt::format("{}: stop {}", host, fmt::join(argv, " "));
    case Kind::kRead:
      return fmt::format("{}: read {}", host, path);
    case Kind::kWrite:
      return fmt::format("{}: write {}={}", host, path, chomp(content));
    case Kind::kList:
      return fmt::format("{}: list {}", host, path);
    case Kind::kFind:
      return fmt::format("{}: find {}", host, path);
    case Kind::kPort:
      return fmt::format("{}: port {}", host, path);
  }
  return "?";
}

void EventLog::add(Event e) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(e));
}

std::vector<Event> EventLog::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

std::vector<std::string> EventLog::lines(std::set<Event::Kind> kinds) const {
  std::vector<std::string> out;
  for (const auto& e : events())
    if (kinds.empty() || kinds.count(e.kind)) out.push_back(e.str());
  return out;
}

std::vector<std::string> EventLog::grep(const std::string& part,
                                        std::set<Event::Kind> kinds) const {
  std::vector<std::string> out;
  for (auto& line : lines(std::move(kinds)))
    if (line.find(part) != std::string::npos) out.push_back(std::move(line));
  return out;
}

void EventLog::clear() {
  std::lock_guard lock(mutex_);
  events_.clear();
}

FakeHost::FakeHost(std::string name, std::shared_ptr<EventLog> log, FakeClock* clock)
    : name_(std::move(name)), log_(std::move(log)), clock_(clock) {}

void FakeHost::on(std::vector<std::string> prefix, std::vector<Reply> replies) {
  on(
      [prefix = std::move(prefix)](const Command& c) {
        return c.argv.size() >= prefix.size() &&
               std::equal(prefix.begin(), prefix.end(), c.argv.begin());
      },
      std::move(replies));
}

void FakeHost::on(Matcher match, std::vector<Reply> replies) {
  if (replies.empty()) throw std::logic_error("FakeHost::on: no reply");
  scripts_.push_back({std::move(match), std::deque<Reply>(replies.begin(), replies.end())});
}

int FakeHost::count(const std::vector<std::string>& prefix) const {
  return static_cast<int>(std::count_if(ran_.begin(), ran_.end(), [&](const auto& argv) {
    return argv.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), argv.begin());
  }));
}

bool FakeHost::feature(const std::string& name) const {
  for (const auto& [n, on] : features)
    if (n == name) return on;
  throw std::logic_error("no feature " + name);
}

void FakeHost::record(Event e) {
  e.host = name_;
  log_->add(std::move(e));
}

Reply FakeHost::reply_for(const Command& cmd) {
  ran_.push_back(cmd.argv);
  for (auto it = scripts_.rbegin(); it != scripts_.rend(); ++it) {
    if (!it->match(cmd)) continue;
    Reply r = it->replies.front();
    if (it->replies.size() > 1) it->replies.pop_front();
    return r;
  }
  // mktemp -d TEMPLATE, as coreutils does it: the X's become a name.
  if (cmd.argv.size() >= 3 && cmd.argv[0] == "mktemp" && cmd.argv[1] == "-d") {
    std::string dir = cmd.argv.back();
    if (const auto x = dir.find("XXXXXXXX"); x != std::string::npos)
      dir.replace(x, 8, fmt::format("fake{:04}", ran_.size() % 10000));
    return {.out = dir + "\n"};
  }
  return {};
}

ExecResult FakeHost::outcome(const Command& cmd, const Reply& r) {
  if (r.action) r.action();
  ExecResult x;
  x.out = r.out;
  x.err = r.err;
  auto took = r.duration;
  // A real host kills an interruptible command at its first poll after
  // Ctrl-C, whatever the command would have done.
  if (cmd.interruptible && interrupted()) {
    x.outcome = ExecResult::Outcome::kInterrupted;
  } else {
    switch (r.ends) {
      case Reply::Ends::kExit:
      case Reply::Ends::kEarlyExit:
        x.outcome = ExecResult::Outcome::kExited;
        x.exit_code = r.exit_code;
        break;
      case Reply::Ends::kTimeout:
      case Reply::Ends::kHang:
        x.outcome = ExecResult::Outcome::kTimedOut;
        took = cmd.timeout;
        break;
      case Reply::Ends::kSignal:
        x.outcome = ExecResult::Outcome::kSignalled;
        x.signal = r.signal;
        break;
      case Reply::Ends::kSpawnFail:
        x.outcome = ExecResult::Outcome::kSpawnFailed;
        x.spawn_error = "No such file or directory";
        x.out.clear();
        x.err.clear();
        took = {};
        break;
    }
  }
  x.seconds = std::chrono::duration<double>(took).count();
  if (clock_) clock_->advance(took);
  return x;
}

ExecResult FakeHost::run(const Command& cmd) {
  record({.kind = Event::Kind::kRun, .argv = cmd.argv, .command = cmd});
  return outcome(cmd, reply_for(cmd));
}

std::optional<std::string> FakeHost::find_program(const std::string& program) {
  record({.kind = Event::Kind::kFind, .path = program});
  if (missing_programs.count(program)) return std::nullopt;
  return "/usr/bin/" + program;
}

std::optional<std::string> FakeHost::read_file(const std::string& path) {
  record({.kind = Event::Kind::kRead, .path = path});
  if (path == kFeatures && !features.empty()) {
    std::string s;
    for (const auto& [n, on] : features) s += (s.empty() ? "" : " ") + (on ? n : "NO_" + n);
    return s + " \n";  // the kernel prints a trailing blank
  }
  auto it = files.find(path);
  if (it != files.end()) return it->second;
  if (path == "/etc/machine-id" && !machine_id.empty()) return machine_id + "\n";
  if (path == "/proc/sys/kernel/random/boot_id" && !boot_id.empty()) return boot_id + "\n";
  return std::nullopt;
}

void FakeHost::write_file(const std::string& path, const std::string& content) {
  record({.kind = Event::Kind::kWrite, .path = path, .content = content});
  if (on_write) on_write(path, content);
  writes.push_back(path + "=" + content);
  if (path == kFeatures && !features.empty()) {
    std::string token = content;
    while (!token.empty() && (token.back() == '\n' || token.back() == ' ')) token.pop_back();
    const bool on = !token.starts_with("NO_");
    const std::string base = on ? token : token.substr(3);
    for (auto& [n, state] : features)
      if (n == base) {
        state = on;
        return;
      }
    throw HostError(path + ": Invalid argument");
  }
  if (!files.count(path)) throw HostError(path + ": No such file or directory");
  for (const auto& bad : rejected_values)
    if (content.find(bad) != std::string::npos) throw HostError(path + ": Invalid argument");
  if (ignored_writes.count(path)) return;
  files[path] = content;
}

std::vector<std::string> FakeHost::list_dir(const std::string& dir) {
  record({.kind = Event::Kind::kList, .path = dir});
  std::set<std::string> names;
  auto add = [&](const std::string& path) {
    if (!path.starts_with(dir + "/")) return;
    const std::string rest = path.substr(dir.size() + 1);
    names.insert(rest.substr(0, rest.find('/')));
  };
  for (const auto& [path, content] : files) add(path);
  if (!features.empty()) add(kFeatures);
  return {names.begin(), names.end()};
}

Host::BackgroundId FakeHost::start_background(const Command& cmd) {
  record({.kind = Event::Kind::kStart, .argv = cmd.argv, .command = cmd});
  const Reply r = reply_for(cmd);
  if (r.ends == Reply::Ends::kSpawnFail)
    throw HostError(cmd.argv.front() + ": No such file or directory");
  if (r.action) r.action();
  const BackgroundId id = next_id_++;
  background_[id] = {cmd, r};
  return id;
}

std::optional<ExecResult> FakeHost::poll_background(BackgroundId id) {
  Background& b = background_.at(id);
  record({.kind = Event::Kind::kPoll, .argv = b.command.argv});
  if (b.stopped || b.reply.ends != Reply::Ends::kEarlyExit) return std::nullopt;
  b.stopped = true;
  ExecResult x{.outcome = ExecResult::Outcome::kExited,
               .exit_code = b.reply.exit_code,
               .out = b.reply.out,
               .err = b.reply.err};
  return x;
}

ExecResult FakeHost::stop_background(BackgroundId id) {
  Background& b = background_.at(id);
  record({.kind = Event::Kind::kStop, .argv = b.command.argv});
  b.stopped = true;
  return {.outcome = ExecResult::Outcome::kSignalled,
          .signal = 15,
          .out = b.reply.out,
          .err = b.reply.err};
}

bool FakeHost::port_accepts(int port) {
  record({.kind = Event::Kind::kPort, .path = std::to_string(port)});
  // Like a real port: open while a server runs (or a foreign listener).
  if (foreign_ports.count(port)) return true;
  const bool serving = std::any_of(background_.begin(), background_.end(),
                                   [](const auto& b) { return !b.second.stopped; });
  return serving && !closed_ports.count(port);
}

}  // namespace schedlab::test
