#include "runner/nightly/hook.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <cctype>
#include <thread>

#include "base/placeholders.h"
#include "base/text.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/ssh_host.h"
#include "runner/lab/host_set.h"

namespace schedlab {
namespace {

// Two abbreviations of one sha agree when the shorter is a prefix of the
// longer; 7 hex digits is git's own shortest default.
bool same_sha(const std::string& a, const std::string& b) {
  const std::string x = ascii_lower(a), y = ascii_lower(b);
  const std::size_t n = std::min(x.size(), y.size());
  return n >= 7 && x.compare(0, n, y, 0, n) == 0;
}

}  // namespace

std::string substitute(const std::string& arg, const HookValues& values) {
  try {
    return expand_placeholders(arg, [&](const std::string& name) {
      const auto it = values.find(name);
      if (it == values.end()) {
        std::vector<std::string> names;
        for (const auto& [k, v] : values) names.push_back("{" + k + "}");
        throw HookError(
            fmt::format("'{}': unknown placeholder {{{}}} (known: {})", arg, name,
                        names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
      }
      return it->second;
    });
  } catch (const PlaceholderError& e) {
    throw HookError(e.what());
  }
}

std::vector<std::string> unknown_placeholders(const std::vector<std::string>& argv,
                                              const std::vector<std::string>& known) {
  std::vector<std::string> unknown;
  for (const auto& arg : argv)
    for (const auto& name : placeholder_names(arg))
      if (std::find(known.begin(), known.end(), name) == known.end() &&
          std::find(unknown.begin(), unknown.end(), name) == unknown.end())
        unknown.push_back(name);
  return unknown;
}

std::map<std::string, std::string> hook_environment(const HookValues& values) {
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : values) {
    std::string var = "SCHEDLAB_";
    for (char c : name) var += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    env[var] = value;
  }
  return env;
}

std::string HookResult::describe() const {
  std::string text = fmt::format("hook {}: {}", fmt::join(argv, " "), exec.describe());
  if (exec.outcome == ExecResult::Outcome::kSpawnFailed && !exec.spawn_error.empty())
    text += ": " + exec.spawn_error;
  std::string why = last_lines(exec.err, 5);
  if (why.empty()) why = last_lines(exec.out, 5);
  if (!why.empty()) text += ":\n" + why;
  return text;
}

std::string HookResult::output() const {
  if (exec.err.empty()) return exec.out;
  return join_output(exec.out, exec.err);
}

HookResult run_hook(const Hook& hook, const HookValues& values) {
  if (hook.argv.empty()) throw HookError("hook: empty argv");
  HookResult result;
  for (const auto& arg : hook.argv) result.argv.push_back(substitute(arg, values));
  LocalHost local;
  result.exec = local.run({.argv = result.argv,
                           .env = hook_environment(values),
                           .cwd = hook.cwd,
                           .timeout = hook.timeout});
  return result;
}

std::string boot_id(Host& host) {
  const auto text = host.read_file("/proc/sys/kernel/random/boot_id");
  if (!text) throw HookError(fmt::format("{}: no /proc/sys/kernel/random/boot_id", host.name()));
  return std::string(trim(*text));
}

std::unique_ptr<Host> wait_for_ssh(const std::string& spec, const SshConfig& ssh,
                                   const SshWait& wait) {
  using clock = std::chrono::steady_clock;
  std::string last = "no attempt made before the deadline";
  // Not an ssh URL is a mistake in the input, not a host still booting.
  if (!parse_ssh_url(spec))
    throw HookError(fmt::format("'{}' is not a host to wait for: use ssh://[user@]host[:port]{}",
                                spec, ssh_url_option_note(spec)));
  const auto start = clock::now();
  while (true) {
    if (interrupted()) throw HookError(fmt::format("{}: waiting for ssh: interrupted", spec));
    const auto left = wait.deadline - clock::now();
    if (left <= clock::duration::zero()) break;
    // One attempt never runs (much) past the deadline.
    SshConfig attempt = ssh;
    attempt.connect_timeout = std::clamp(std::chrono::ceil<std::chrono::seconds>(left),
                                         std::chrono::seconds(1), ssh.connect_timeout);
    try {
      auto host = HostSet::connect(spec, attempt);
      if (!wait.not_boot_id || boot_id(*host) != *wait.not_boot_id) return host;
      last = "still up in the boot before the hook (boot_id unchanged)";
    } catch (const HostError& e) {
      last = e.what();
    } catch (const HookError& e) {
      last = e.what();
    }
    const auto sleep_until = std::min(clock::now() + wait.poll, wait.deadline);
    while (clock::now() < sleep_until && !interrupted())
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double waited = std::chrono::duration<double>(clock::now() - start).count();
  throw HookError(fmt::format("{}: not answering on ssh after {:.0f}s: {}", spec, waited, last));
}

KernelIdentity verify_kernel(Host& host, const KernelExpectation& expected) {
  KernelIdentity found;
  const ExecResult uname = host.run({.argv = {"uname", "-r"}, .timeout = std::chrono::seconds(30)});
  if (!uname.ok()) throw HookError(fmt::format("{}: uname -r: {}", host.name(), uname.describe()));
  found.release = trim(uname.out);
  if (!expected.release.empty() && found.release != expected.release)
    throw HookError(
        fmt::format("{}: runs kernel {}, expected {} (the hook did not boot it; nothing measured)",
                    host.name(), found.release, expected.release));
  if (expected.sha.empty()) return found;
  if (!expected.sha_command.empty()) {
    const ExecResult r =
        host.run({.argv = expected.sha_command, .timeout = std::chrono::seconds(60)});
    if (!r.ok())
      throw HookError(fmt::format("{}: sha command {}: {}", host.name(),
                                  fmt::join(expected.sha_command, " "), r.describe()));
    found.sha = trim(r.out);
    if (!same_sha(found.sha, expected.sha))
      throw HookError(fmt::format("{}: runs kernel at {} (from {}), expected {}", host.name(),
                                  found.sha.empty() ? "an empty sha" : found.sha,
                                  fmt::join(expected.sha_command, " "), expected.sha));
    return found;
  }
  const auto version = host.read_file("/proc/version");
  if (!version) throw HookError(fmt::format("{}: no /proc/version", host.name()));
  // Any run of 7+ hex digits that agrees with the expected sha (the -gSHA
  // suffix of a git-built kernel's release, typically).
  static const boost::regex hex("[0-9a-fA-F]{7,40}");
  for (auto it = boost::sregex_iterator(version->begin(), version->end(), hex);
       it != boost::sregex_iterator(); ++it) {
    if (same_sha(it->str(), expected.sha)) {
      found.sha = it->str();
      return found;
    }
  }
  throw HookError(fmt::format("{}: expected kernel sha {} not in /proc/version: {}", host.name(),
                              expected.sha, trim(*version)));
}

}  // namespace schedlab
