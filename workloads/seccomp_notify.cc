#include "workloads/seccomp_notify.h"

#include <fmt/format.h>

#include "base/text.h"

namespace schedlab {
namespace {

constexpr std::string_view kPrefix = "seccomp-notify: ";

}  // namespace

SeccompNotify::SeccompNotify() {
  using P = SeccompNotifyParams;
  params_ = ParamTable<P>({
      {&P::modes,
       {.name = "modes",
        .axis = Axis::kRow,
        .default_value = std::string("basic"),
        .help = "basic, or sync (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: the wake-up on the current "
                "CPU, Linux 6.6+); one table row per mode",
        .choices = {"basic", "sync"}}},
      {&P::loops,
       {.name = "loops",
        .default_value = std::int64_t{20000},
        .help = "notified syscalls (round trips) per iteration",
        .unit = "syscalls",
        .min = 1,
        .max = 100000000}},
      {&P::timeout,
       {.name = "timeout",
        .default_value = std::chrono::milliseconds(std::chrono::minutes(5)),
        .help = "an iteration still running after this is killed and recorded as failed",
        .unit = "duration"}},
  });
  metrics_ = {cost_metric("time", "nsec/syscall", 0,
                          "wall time per notified syscall: the child's syscall, the supervisor's "
                          "receive and answer, both wake-ups")};
}

std::string SeccompNotify::description() const {
  return "seccomp user-notification ping-pong (nsec per syscall, lower is better)";
}

std::vector<Step> SeccompNotify::iteration_steps(const Point& point, const StepContext&) const {
  const auto p = params_.read(point);
  return {Step{
      .role = Role::kSut,
      .argv = {"schedlab-seccomp-notify", "--mode", p.modes, "--loops", std::to_string(p.loops)},
      .timeout = p.timeout}};
}

std::optional<std::string> SeccompNotify::unsupported(const Point& point, const std::string& out,
                                                      const std::string&) const {
  const auto p = params_.read(point);
  const std::string lead = fmt::format("{}mode {}: unsupported: ", kPrefix, p.modes);
  for (const std::string_view line : split_lines(out))
    if (line.starts_with(lead)) return std::string(line.substr(lead.size()));
  return std::nullopt;
}

// "seccomp-notify: mode basic: 20000 syscalls in 0.170 s: 8489 nsec/syscall"
std::vector<Sample> SeccompNotify::parse(const Point& point, const std::string& out,
                                         const std::string& err) const {
  const auto p = params_.read(point);
  for (const std::string_view line : split_lines(err))
    if (line.starts_with(kPrefix)) throw ParseError(name(), 0, "tool error: " + std::string(line));
  const std::string mode = p.modes;
  const std::string lead = fmt::format("{}mode {}: ", kPrefix, mode);
  std::optional<double> value;
  const auto lines = split_lines(out);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const int lineno = static_cast<int>(i) + 1;
    if (!line.starts_with(kPrefix)) continue;
    if (!line.starts_with(lead))
      throw ParseError(name(), lineno,
                       fmt::format("line {}: not mode {}: {}", lineno, mode, excerpt(line, 200)));
    // "<N> syscalls in <S> s: <X> nsec/syscall"
    const std::string_view rest = line.substr(lead.size());
    const auto colon = rest.rfind(": ");
    const std::string_view tail = colon == std::string_view::npos ? "" : rest.substr(colon + 2);
    const auto v = tail.ends_with(" nsec/syscall")
                       ? to_number(tail.substr(0, tail.size() - 13))
                       : std::nullopt;
    if (!v || !(*v > 0))
      throw ParseError(name(), lineno,
                       fmt::format("line {}: no positive 'N nsec/syscall': {}", lineno,
                                   excerpt(line, 200)));
    if (value)
      throw ParseError(name(), lineno, fmt::format("line {}: a second result line", lineno));
    const auto loops = to_number(rest.substr(0, rest.find(" ")));
    if (!loops || (p.known(&SeccompNotifyParams::loops) && *loops != static_cast<double>(p.loops)))
      throw ParseError(name(), lineno,
                       fmt::format("line {}: ran {} syscalls, expected {}", lineno,
                                   excerpt(rest.substr(0, rest.find(' '))), p.loops));
    value = *v;
  }
  if (!value) throw ParseError(name(), 0, "no 'seccomp-notify: mode M: ... nsec/syscall' line");
  return {Sample{.metric = "time", .value = *value}};
}

std::vector<std::string> SeccompNotify::stated_params(const Point&, const std::string& out,
                                                      const std::string&) const {
  // "seccomp-notify: mode basic: 20000 syscalls in 0.170 s: 8489 nsec/syscall"
  return stated_by_lines(
      out, {{R"(^seccomp-notify: mode (\S+): (?:\d+ syscalls in |unsupported: ).*$)", "modes"},
            {R"(^seccomp-notify: mode \S+: (\d{1,9}) syscalls in .*$)", "loops"}});
}

}  // namespace schedlab
