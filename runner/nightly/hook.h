// User-supplied hooks (install a kernel, build a commit, reboot the SUT) and
// what follows them: waiting for an ssh:// SUT to answer again, and checking
// that it really runs the kernel that was asked for. Shared by nightly and
// bisect.
//
// A hook is an argv run on this machine, never a shell string: `{name}` in
// an argument is replaced by a value (`{kernel}`, `{commit}`, ...), and the
// same values are in the environment as SCHEDLAB_NAME. A user who wants a
// shell writes [sh, -c, 'script "$SCHEDLAB_KERNEL"'] and quotes it there.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/host.h"
#include "runner/hosts/ssh_config.h"

namespace schedlab {

class HookError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Hook {
  std::vector<std::string> argv;  // with {placeholders}
  std::string cwd;                // empty: schedlab's working directory
  std::chrono::milliseconds timeout{std::chrono::minutes(30)};
};

// name -> value; names are lower case: kernel, commit, name, ...
using HookValues = std::map<std::string, std::string>;

// arg with its placeholders replaced (the grammar: base/placeholders.h).
// Throws HookError naming a placeholder that has no value, or an unmatched
// brace.
std::string substitute(const std::string& arg, const HookValues& values);
// The placeholders an argv uses that are not in `known` (for config checks
// before anything runs), in order of appearance. Throws PlaceholderError
// for an unmatched brace.
std::vector<std::string> unknown_placeholders(const std::vector<std::string>& argv,
                                              const std::vector<std::string>& known);
// SCHEDLAB_KERNEL=..., one variable per value.
std::map<std::string, std::string> hook_environment(const HookValues& values);

struct HookResult {
  std::vector<std::string> argv;  // as run, placeholders substituted
  ExecResult exec;
  bool ok() const { return exec.ok(); }
  // "hook ./install.sh 6.1: exit 1: <last lines of output>"
  std::string describe() const;
  // stdout then stderr, for the database.
  std::string output() const;
};

// Runs the hook on this machine in a process group of its own; at the
// timeout the whole group is killed (a hook that forks a build or an ssh
// is stopped with everything it started). Never throws for the hook's own
// failure: the result says what happened. Throws HookError when a
// placeholder has no value (nothing is run then).
HookResult run_hook(const Hook& hook, const HookValues& values);

// Polls an ssh:// host until it accepts a connection (after a reboot),
// retrying every `poll` until `deadline`. When `not_boot_id` is given, a
// connection to that same boot (the SUT has not gone down yet) does not
// count. Returns the connected host; throws HookError with the last reason
// at the deadline.
struct SshWait {
  std::chrono::steady_clock::time_point deadline;
  std::chrono::milliseconds poll{std::chrono::seconds(2)};
  std::optional<std::string> not_boot_id;
};
std::unique_ptr<Host> wait_for_ssh(const std::string& spec, const SshConfig& ssh,
                                   const SshWait& wait);

// /proc/sys/kernel/random/boot_id: a fresh value after every boot.
std::string boot_id(Host& host);

// What the SUT must be running after a hook. A mismatch is an error, never a
// measurement of the wrong kernel.
struct KernelExpectation {
  std::string release;  // `uname -r`; empty: not checked
  std::string sha;      // git sha (a prefix of at least 7 hex digits); empty: not checked
  // When given, run on the SUT; its trimmed stdout is the running kernel's
  // sha. Otherwise the sha is looked for in /proc/version (a kernel built
  // with CONFIG_LOCALVERSION_AUTO carries -g<sha> in its release).
  std::vector<std::string> sha_command;
};

struct KernelIdentity {
  std::string release;
  std::string sha;  // what matched; empty when not checked
};

// Throws HookError saying what was expected and what was found.
KernelIdentity verify_kernel(Host& host, const KernelExpectation& expected);

}  // namespace schedlab
