#include "runner/nightly/hook.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <thread>

#include "runner/config/config.h"
#include "runner/hosts/hosts.h"
#include "runner/run/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/hosts/ssh_host.h"

namespace schedlab {
namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

// Walks one argument: calls on_text for literal pieces and on_name for each
// placeholder. The one grammar shared by substitute() and the checks.
template <typename Text, typename Name>
void scan(const std::string& arg, Text on_text, Name on_name) {
  std::size_t i = 0;
  while (i < arg.size()) {
    const char c = arg[i];
    if ((c == '{' || c == '}') && i + 1 < arg.size() && arg[i + 1] == c) {
      on_text(std::string(1, c));
      i += 2;
      continue;
    }
    if (c == '{' && i + 1 < arg.size() && ident_start(arg[i + 1])) {
      std::size_t j = i + 1;
      while (j < arg.size() && ident_char(arg[j])) ++j;
      if (j < arg.size() && arg[j] == '}') {
        on_name(arg.substr(i + 1, j - i - 1));
        i = j + 1;
        continue;
      }
    }
    on_text(std::string(1, c));
    ++i;
  }
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

// The last few lines of a hook's output: enough to say why it failed.
std::string tail_lines(const std::string& text, int lines) {
  std::string t = trim(text);
  std::size_t pos = t.size();
  for (int n = 0; n < lines && pos != std::string::npos && pos > 0; ++n)
    pos = t.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == t.size() ? t : t.substr(pos + 1);
}

std::string lower_hex(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Two abbreviations of one sha agree when the shorter is a prefix of the
// longer; 7 hex digits is git's own shortest default.
bool same_sha(const std::string& a, const std::string& b) {
  const std::string x = lower_hex(a), y = lower_hex(b);
  const std::size_t n = std::min(x.size(), y.size());
  return n >= 7 && x.compare(0, n, y, 0, n) == 0;
}

}  // namespace

std::string substitute(const std::string& arg, const HookValues& values) {
  std::string out;
  scan(
      arg, [&](const std::string& text) { out += text; },
      [&](const std::string& name) {
        const auto it = values.find(name);
        if (it == values.end()) {
          std::vector<std::string> names;
          for (const auto& [k, v] : values) names.push_back("{" + k + "}");
          throw HookError(
              fmt::format("'{}': unknown placeholder {{{}}} (known: {})", arg, name,
                          names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
        }
        out += it->second;
      });
  return out;
}

std::vector<std::string> unknown_placeholders(const std::vector<std::string>& argv,
                                              const std::vector<std::string>& known) {
  std::vector<std::string> unknown;
  for (const auto& arg : argv)
    scan(
        arg, [](const std::string&) {},
        [&](const std::string& name) {
          if (std::find(known.begin(), known.end(), name) == known.end() &&
              std::find(unknown.begin(), unknown.end(), name) == unknown.end())
            unknown.push_back(name);
        });
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
  std::string why = tail_lines(exec.err, 5);
  if (why.empty()) why = tail_lines(exec.out, 5);
  if (!why.empty()) text += ":\n" + why;
  return text;
}

std::string HookResult::output() const {
  if (exec.err.empty()) return exec.out;
  if (exec.out.empty()) return exec.err;
  return exec.out + (exec.out.back() == '\n' ? "" : "\n") + exec.err;
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
  return trim(*text);
}

std::unique_ptr<Host> wait_for_ssh(const std::string& spec, const SshConfig& ssh,
                                   const SshWait& wait) {
  using clock = std::chrono::steady_clock;
  std::string last = "no attempt made before the deadline";
  // Not an ssh URL is a mistake in the input, not a host still booting.
  if (!parse_ssh_url(spec))
    throw HookError(
        fmt::format("'{}' is not a host to wait for: use ssh://[user@]host[:port]", spec));
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
  static const std::regex hex("[0-9a-fA-F]{7,40}");
  for (auto it = std::sregex_iterator(version->begin(), version->end(), hex);
       it != std::sregex_iterator(); ++it) {
    if (same_sha(it->str(), expected.sha)) {
      found.sha = it->str();
      return found;
    }
  }
  throw HookError(fmt::format("{}: expected kernel sha {} not in /proc/version: {}", host.name(),
                              expected.sha, trim(*version)));
}

}  // namespace schedlab
