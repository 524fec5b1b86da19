#include "runner/monitors/perf_monitor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "base/base64.h"
#include "base/compression.h"

namespace schedlab {
namespace {

constexpr auto kDryTimeout = std::chrono::seconds(30);
// perf script over a long profile: tens of MB of text.
constexpr auto kScriptTimeout = std::chrono::minutes(10);
constexpr std::string_view kInstall = "install it (Debian: apt-get install linux-perf)";

// `perf stat -a -x, -e EVENTS -- true`: counts to stderr.
ExecResult dry_stat(Host& sut, const std::vector<std::string>& events) {
  std::vector<std::string> argv = {"perf"};
  for (auto& a : perf_stat::stat_args(events)) argv.push_back(a);
  argv.insert(argv.end(), {"--", "true"});
  return sut.run({.argv = argv, .timeout = kDryTimeout});
}

bool syntax_error(const ExecResult& r) {
  return r.err.find("event syntax error") != std::string::npos;
}

}  // namespace

PerfMonitor::PerfMonitor(Host& sut, Kind kind, const PerfConfig& config)
    : sut_(sut),
      kind_(kind),
      events_(config.events.empty() ? perf_stat::default_events() : config.events),
      hz_(config.frequency) {}

PerfMonitor::~PerfMonitor() {
  session_.reset();
  if (dir_.empty()) return;
  try {
    remove_perf_dir(sut_, dir_);
  } catch (...) {
    // The host is gone, and the directory's perf with it.
  }
}

std::string PerfMonitor::name() const {
  return std::string(kind_ == Kind::kStat ? perf_stat::kMonitorName : perf_profile::kMonitorName);
}

std::optional<std::string> PerfMonitor::probe(std::map<std::string, std::string>& dropped) {
  if (!sut_.find_program("perf")) return fmt::format("perf is not installed: {}", kInstall);
  if (kind_ == Kind::kProfile) {
    std::string dir;
    try {
      dir = make_perf_dir(sut_);
      auto args = perf_profile::record_args(dir + "/probe.data", hz_);
      args.insert(args.begin(), "perf");
      args.insert(args.end(), {"--", "true"});
      const ExecResult r = sut_.run({.argv = args, .timeout = kDryTimeout});
      remove_perf_dir(sut_, dir);
      if (!r.ok()) return fmt::format("perf record cannot run: {}", perf_message(r));
    } catch (const HostError& e) {
      if (!dir.empty()) remove_perf_dir(sut_, dir);
      return e.what();
    }
    return std::nullopt;
  }
  // perf itself first: a paranoid setting or a kernel without perf events
  // fails even for a software event.
  const ExecResult base = dry_stat(sut_, {"task-clock"});
  if (!base.ok()) return fmt::format("perf stat cannot run: {}", perf_message(base));
  // An event this kernel does not know (a missing tracepoint) fails the
  // whole command: each is tried alone.
  ExecResult all = dry_stat(sut_, events_);
  if (!all.ok()) {
    std::vector<std::string> kept;
    for (const auto& e : events_) {
      const ExecResult one = dry_stat(sut_, {e});
      if (one.ok())
        kept.push_back(e);
      else
        dropped[e] = fmt::format("perf cannot count it: {}", perf_message(one));
    }
    events_ = kept;
    if (events_.empty()) return "perf can count none of its events";
    all = dry_stat(sut_, events_);
    if (!all.ok()) return fmt::format("perf stat cannot run: {}", perf_message(all));
  }
  try {
    for (const auto& e : perf_stat::parse(all.err))
      if (!e.value && e.status == "not supported")
        dropped[e.name] = "not supported on this machine (no PMU?)";
  } catch (const CounterParseError& e) {
    return fmt::format("perf stat's output does not parse: {}", e.what());
  }
  std::erase_if(events_, [&](const std::string& e) { return dropped.count(e) > 0; });
  if (events_.empty()) return "perf can count none of its events";
  return std::nullopt;
}

void PerfMonitor::start() {
  session_.reset();
  std::vector<std::string> args;
  if (kind_ == Kind::kStat) {
    args = perf_stat::stat_args(events_);
    args.insert(args.end(), {"-o", "{dir}/stat.csv"});
  } else {
    args = perf_profile::record_args("{dir}/perf.data", hz_);
  }
  if (dir_.empty()) dir_ = make_perf_dir(sut_);
  session_.emplace(sut_, dir_, args);
  try {
    session_->start();
  } catch (...) {
    session_.reset();
    throw;
  }
}

PerfMonitor::Output PerfMonitor::finish() {
  if (!session_) throw HostError(fmt::format("{} was not started", name()));
  Output out;
  try {
    out = kind_ == Kind::kStat ? finish_stat() : finish_profile();
  } catch (...) {
    session_.reset();
    throw;
  }
  session_.reset();
  return out;
}

PerfMonitor::Output PerfMonitor::finish_stat() {
  const ExecResult r = session_->stop();
  Output out{.path = "perf stat -a -x,"};
  const auto text = sut_.read_file(session_->dir() + "/stat.csv");
  if (!text) {
    out.error = fmt::format("perf stat wrote no counts: {}", perf_message(r));
    return out;
  }
  out.text = *text;
  try {
    out.delta = perf_stat::delta(perf_stat::parse(out.text));
  } catch (const CounterParseError& e) {
    out.error = fmt::format("perf stat output: {}", e.what());
  }
  return out;
}

PerfMonitor::Output PerfMonitor::finish_profile() {
  const ExecResult rec = session_->stop();
  Output out{.path = std::string(perf_profile::kStoredPath)};
  std::vector<std::string> argv = {"perf"};
  for (auto& a : perf_profile::script_args(session_->dir() + "/perf.data")) argv.push_back(a);
  const ExecResult script = sut_.run({.argv = argv, .timeout = kScriptTimeout});
  if (!script.ok()) {
    out.error = fmt::format("perf script failed: {} (perf record: {})", perf_message(script),
                            perf_message(rec));
    return out;
  }
  try {
    const auto folded = perf_profile::fold(script.out);
    out.text = perf_profile::store(folded);
    out.delta = perf_profile::shares(folded);
  } catch (const CounterParseError& e) {
    // The raw perf script text is kept instead, compressed the same way.
    out.path = "perf script (raw, gzip+base64)";
    out.text = base64_encode(gzip(script.out));
    out.error = fmt::format("perf script output: {}", e.what());
  }
  return out;
}

std::optional<std::string> unknown_perf_event(Host& sut, const Config& config) {
  if (config.perf.events.empty() || !sut.find_program("perf")) return std::nullopt;
  if (!dry_stat(sut, {"task-clock"}).ok()) return std::nullopt;  // perf cannot run at all
  for (std::size_t i = 0; i < config.perf.events.size(); ++i) {
    const ExecResult r = dry_stat(sut, {config.perf.events[i]});
    if (r.ok()) continue;
    return fmt::format("{}:{}: perf_stat.events: {} '{}' on {}: {}", config.path,
                       config.perf.event_lines[i],
                       syntax_error(r) ? "unknown event" : "perf cannot count event",
                       config.perf.events[i], sut.name(), perf_message(r));
  }
  return std::nullopt;
}

}  // namespace schedlab
