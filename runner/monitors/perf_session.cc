#include "runner/monitors/perf_session.h"

#include <fmt/format.h>

#include <thread>

#include "base/text.h"

namespace schedlab {
namespace {

// $1: the session directory; the rest: perf and its arguments. The PID is
// written before exec, so it is perf's.
constexpr const char* kRun = R"sh(d=$1; shift
echo $$ > "$d/pid" && exec "$@")sh";
// Enable the events and wait for perf's acknowledgement.
constexpr const char* kEnable =
    R"sh(echo enable > "$1/ctl" && read -r a < "$1/ack" && [ "$a" = ack ])sh";
// SIGINT to perf's process group, or to perf alone where it leads none.
// The PID read by the shell itself (no $(cat): a fork and an exec less an
// iteration).
constexpr const char* kInterrupt = R"sh(read -r p < "$1/pid" || exit 1
kill -INT -"$p" 2> /dev/null || kill -INT "$p")sh";
constexpr const char* kMakeDir =
    R"sh(d=$(mktemp -d /tmp/schedlab-perf.XXXXXX) && mkfifo "$d/ctl" "$d/ack" && echo "$d")sh";

constexpr auto kEnableTimeout = std::chrono::seconds(20);
// perf record writes its data and build IDs after SIGINT: a long profile
// takes a while.
constexpr auto kExitTimeout = std::chrono::seconds(120);

std::string first_lines(const std::string& text, std::size_t n) {
  std::string out;
  std::size_t taken = 0;
  for (const auto line : split_lines(text)) {
    if (line.empty()) continue;
    if (taken++ == n) break;
    if (!out.empty()) out += " ";
    out += std::string(trim(line));
  }
  return out;
}

// "{dir}" in a perf argument is the session's directory.
std::string with_dir(std::string arg, const std::string& dir) {
  for (auto at = arg.find("{dir}"); at != std::string::npos;
       at = arg.find("{dir}", at + dir.size()))
    arg.replace(at, 5, dir);
  return arg;
}

}  // namespace

std::string perf_message(const ExecResult& r) {
  std::string m = first_lines(r.err.empty() ? r.out : r.err, 2);
  // perf's long paranoid explanation ends with the setting that matters.
  constexpr std::string_view kParanoid = "perf_event_paranoid setting is ";
  if (const auto at = r.err.find(kParanoid); at != std::string::npos) {
    const auto end = r.err.find_first_of(":\n", at + kParanoid.size());
    m += fmt::format(" (kernel.perf_event_paranoid is {})",
                     r.err.substr(at + kParanoid.size(), end - at - kParanoid.size()));
  }
  return m.empty() ? r.describe() : fmt::format("{} ({})", m, r.describe());
}

std::string make_perf_dir(Host& host) {
  const ExecResult r =
      host.run({.argv = {"sh", "-c", kMakeDir}, .timeout = std::chrono::seconds(20)});
  if (!r.ok())
    throw HostError(
        fmt::format("{}: cannot make a directory for perf: {}", host.name(), perf_message(r)));
  return std::string(trim(r.out));
}

void remove_perf_dir(Host& host, const std::string& dir) {
  host.run({.argv = {"rm", "-rf", "--", dir},
            .timeout = std::chrono::seconds(60),
            .interruptible = false});
}

PerfSession::PerfSession(Host& host, std::string dir, std::vector<std::string> perf_args)
    : host_(host), dir_(std::move(dir)), args_(std::move(perf_args)) {}

PerfSession::~PerfSession() {
  cleanup();
}

void PerfSession::cleanup() noexcept {
  try {
    if (perf_) {
      const Host::BackgroundId id = *perf_;
      perf_.reset();
      host_.stop_background(id);
    }
  } catch (...) {
    // The host is gone, and perf with it.
  }
}

void PerfSession::start() {
  std::vector<std::string> argv = {"sh", "-c", kRun, "schedlab-perf", dir_, "perf"};
  for (const auto& a : args_) argv.push_back(with_dir(a, dir_));
  argv.insert(argv.end(), {"-D", "-1", "--control", fmt::format("fifo:{0}/ctl,{0}/ack", dir_)});
  perf_ = host_.start_background({.argv = argv});
  const ExecResult r =
      host_.run({.argv = {"sh", "-c", kEnable, "schedlab-perf", dir_}, .timeout = kEnableTimeout});
  if (!r.ok()) {
    // perf exited (or hangs) before its control FIFO answered: say why,
    // and what the enabling command met (perf alive, no "ack").
    ExecResult perf = host_.stop_background(*perf_);
    perf_.reset();
    cleanup();
    throw HostError(fmt::format("{}: perf did not start: {}; enabling its events: {}", host_.name(),
                                perf_message(perf), perf_message(r)));
  }
}

ExecResult PerfSession::stop() {
  if (!perf_) throw HostError("perf is not running");
  const Host::BackgroundId id = *perf_;
  host_.run({.argv = {"sh", "-c", kInterrupt, "schedlab-perf", dir_},
             .timeout = std::chrono::seconds(20),
             .interruptible = false});
  const auto deadline = std::chrono::steady_clock::now() + kExitTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto r = host_.poll_background(id)) {
      perf_.reset();
      return *r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  perf_.reset();
  host_.stop_background(id);
  throw HostError(fmt::format("{}: perf did not exit within {} s of SIGINT", host_.name(),
                              kExitTimeout.count()));
}

}  // namespace schedlab
