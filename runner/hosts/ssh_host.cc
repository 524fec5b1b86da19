#include "runner/hosts/ssh_host.h"

#include <fmt/format.h>
#include <unistd.h>

#include <boost/regex.hpp>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

#include "base/shell_quote.h"
#include "base/text.h"
#include "runner/input/units.h"

namespace schedlab {
namespace {

// Runs "$@" in a process group of its own (setsid) and watches ssh's stdin:
// EOF there means the connection is gone, and the group is killed. When the
// command ends, whatever it left in its group is killed too. Fixed text:
// the command arrives as positional parameters, never spliced in. The
// watcher is a subshell of builtins (read, kill), deaf to a hangup of the
// session, killed by its PID: no setsid, sh and cat to exec, which cost an
// emulated guest 0.06 s of every command (a measured iteration's too).
//   $1 stdin file or "", $2 working directory or "", $3 pidfile or "".
// (dash's kill takes no "--": a negative number alone names the group. An
// asynchronous list's stdin is /dev/null unless redirected: ssh's stdin is
// handed to the watcher explicitly through fd 3.)
// An asynchronous command's stdin is /dev/null unless redirected: ssh's
// stdin is kept on fd 3 for the watcher, else it sees EOF at once.
constexpr const char* kWrapper = R"sh(in=$1; dir=$2; pidfile=$3; shift 3
[ -z "$dir" ] || cd "$dir" || exit 125
[ -n "$in" ] || in=/dev/null
exec 3<&0
setsid "$@" < "$in" 3<&- &
pid=$!
[ -z "$pidfile" ] || echo "$pid" > "$pidfile"
( trap '' HUP; while read -r _; do :; done; kill -TERM -"$pid"; sleep 2; kill -KILL -"$pid" ) <&3 > /dev/null 2>&1 &
watcher=$!
exec 3<&-
wait "$pid"; status=$?
kill -KILL -"$pid" 2> /dev/null
kill -KILL "$watcher" 2> /dev/null
[ $status -ne 255 ] || echo schedlab-wrap: exit 255 >&2
exit $status)sh";

// The wrapper's last line on stderr when the command itself exited 255,
// which is also ssh's own failure: without it a program's exit(-1) read
// as "ssh failed" (hostile10), and with a silent stderr as "the remote
// shell died of a signal", checked. Removed from the command's stderr.
constexpr std::string_view kCommand255 = "schedlab-wrap: exit 255\n";

// Whether R is the command's own exit 255 (the wrapper's line, removed).
bool command_exited_255(ExecResult& r) {
  if (r.outcome != ExecResult::Outcome::kExited || r.exit_code != 255 ||
      !r.err.ends_with(kCommand255))
    return false;
  r.err.resize(r.err.size() - kCommand255.size());
  return true;
}

// Stops a background command by its pidfile: TERM to the group, KILL after
// a grace period; returns once the group is gone.
constexpr const char* kStop = R"sh(pid=$(cat "$1" 2> /dev/null) || exit 0
kill -TERM -"$pid" 2> /dev/null
i=0
while kill -0 -"$pid" 2> /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
kill -KILL -"$pid" 2> /dev/null
rm -f -- "$1"
exit 0)sh";

// Exit 3 distinguishes "no such file" from a read error.
constexpr const char* kRead = R"sh([ -e "$1" ] || exit 3
exec cat -- "$1")sh";

// Every file after $1 (a marker no file holds: random, made here) in one
// round trip: its text, a newline and "MARKER ok"; "MARKER missing"; or
// "MARKER error" and cat's complaint, each record ending in a newline.
constexpr const char* kReadMany = R"sh(m=$1; shift
for f; do
  if [ ! -e "$f" ]; then printf '\n%s missing\n' "$m"; continue; fi
  if cat -- "$f" 2> /dev/null; then printf '\n%s ok\n' "$m"; continue; fi
  printf '\n%s error %s\n' "$m" "$(cat -- "$f" 2>&1 > /dev/null | tr '\n' ' ')"
done)sh";

// bash's /dev/tcp: the check runs on the SUT's own loopback.
constexpr const char* kPortCheck = R"sh(exec 3<> "/dev/tcp/127.0.0.1/$1")sh";

// nice -n adds to the niceness the command inherits (an sshd started under
// nice 5 made `nice: 3` a 8); the variant's nice is absolute, as the local
// host's setpriority is: the increment is what it lacks. $1 the nice value.
constexpr const char* kNiceTo = R"sh(n=$1; shift; exec nice -n "$((n - $(nice)))" "$@")sh";

std::vector<std::string> policy_prefix(const std::optional<SchedPolicy>& p) {
  if (!p) return {};
  std::vector<std::string> argv = {"chrt", chrt_option(p->policy), "0"};
  if (p->nice) argv.insert(argv.end(), {"sh", "-c", kNiceTo, "sh", std::to_string(*p->nice)});
  return argv;
}

// The affinity knob on a remote host: taskset sets it before exec, like the
// local host does between fork and exec (preflight checks taskset exists).
std::vector<std::string> affinity_prefix(const std::vector<int>& cpus) {
  if (cpus.empty()) return {};
  return {"taskset", "-c", format_cpu_list(cpus)};
}

}  // namespace

std::string SshTarget::url() const {
  return fmt::format("ssh://{}{}{}", user.empty() ? "" : user + "@", host,
                     port == 22 ? "" : ":" + std::to_string(port));
}

namespace {

// The URL's parts, a user or host starting with '-' included (parse_ssh_url
// refuses those; ssh_url_option_note says why).
std::optional<SshTarget> ssh_url_parts(const std::string& url) {
  static const boost::regex re(R"(^ssh://(?:([A-Za-z0-9._-]+)@)?([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?$)");
  boost::smatch m;
  if (!boost::regex_match(url, m, re)) return std::nullopt;
  SshTarget t{m[1].str(), m[2].str(), 22};
  if (t.host.front() == '[') t.host = t.host.substr(1, t.host.size() - 2);
  if (m[3].matched) {
    t.port = std::stoi(m[3].str());
    if (t.port < 1 || t.port > 65535) return std::nullopt;
  }
  return t;
}

}  // namespace

std::optional<SshTarget> parse_ssh_url(const std::string& url) {
  auto t = ssh_url_parts(url);
  if (t && (t->host.starts_with('-') || t->user.starts_with('-'))) return std::nullopt;
  return t;
}

std::string ssh_url_option_note(const std::string& url) {
  const auto t = ssh_url_parts(url);
  if (!t) return "";
  if (t->user.starts_with('-'))
    return fmt::format(" (the user '{}' starts with '-': ssh would take it for an option)",
                       t->user);
  if (t->host.starts_with('-'))
    return fmt::format(" (the host '{}' starts with '-': ssh would take it for an option)",
                       t->host);
  return "";
}

std::vector<std::string> SshHost::client_options(bool master) const {
  std::vector<std::string> argv = {
      "-o",
      "BatchMode=yes",
      "-o",
      master ? "ControlMaster=yes" : "ControlMaster=no",
      "-o",
      "ControlPath=" + control_dir_ + "/master",
      "-o",
      fmt::format("ConnectTimeout={}", options_.connect_timeout.count()),
      "-o",
      options_.host_key_policy == "accept-new" ? "StrictHostKeyChecking=accept-new"
                                               : "StrictHostKeyChecking=yes",
      "-o",
      "LogLevel=ERROR",
      "-p",
      std::to_string(target_.port)};
  if (!options_.known_hosts.empty()) argv.insert(argv.end(), {"-o", "UserKnownHostsFile=" + options_.known_hosts});
  if (!options_.identity_file.empty()) argv.insert(argv.end(), {"-i", options_.identity_file, "-o", "IdentitiesOnly=yes"});
  return argv;
}

std::vector<std::string> SshHost::client_argv(std::vector<std::string> before,
                                              std::optional<std::string> remote_command,
                                              bool master) const {
  std::vector<std::string> argv = {"ssh"};
  argv.insert(argv.end(), before.begin(), before.end());
  for (auto& o : client_options(master)) argv.push_back(std::move(o));
  // "--" ends ssh's options: nothing after it, the destination included,
  // is read as one (a host named -V or -Fevil.conf never is).
  argv.push_back("--");
  argv.push_back(target_.user.empty() ? target_.host : target_.user + "@" + target_.host);
  if (remote_command) argv.push_back(std::move(*remote_command));
  return argv;
}

std::vector<std::string> SshHost::ssh_argv(const std::string& remote_command) const {
  return client_argv({}, remote_command);
}

std::string SshHost::wrapped(const Command& cmd, const std::string& stdin_path,
                             const std::string& pidfile) {
  std::vector<std::string> argv = {"sh", "-c", kWrapper, "schedlab-wrap", stdin_path, cmd.cwd, pidfile};
  if (!cmd.env.empty()) {
    argv.push_back("env");
    for (const auto& [k, v] : cmd.env) argv.push_back(k + "=" + v);
  }
  for (auto& a : affinity_prefix(cmd.cpus)) argv.push_back(a);
  for (auto& a : policy_prefix(cmd.policy)) argv.push_back(a);
  argv.insert(argv.end(), cmd.argv.begin(), cmd.argv.end());
  return shell_join(argv);
}

SshHost::SshHost(SshTarget target, SshOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
  char tmpl[] = "/tmp/schedlab-ssh-XXXXXX";
  if (!::mkdtemp(tmpl)) throw HostError("mkdtemp failed");
  control_dir_ = tmpl;
  // The master connection: -f backgrounds it in a session of its own after
  // authentication, so killing one command's ssh client never drops it.
  const std::vector<std::string> argv =
      client_argv({"-f", "-N", "-o", "ControlPersist=yes"}, std::nullopt, /*master=*/true);
  const ExecResult r = local_.run({.argv = argv, .timeout = options_.connect_timeout + std::chrono::seconds(5)});
  if (!r.ok()) {
    std::filesystem::remove_all(control_dir_);
    std::string why = last_lines(r.err, 1);
    if (why.empty()) why = r.describe();
    throw HostError(fmt::format("{}: cannot connect: {}", name(), why));
  }
}

SshHost::~SshHost() {
  while (!background_.empty()) {
    try {
      stop_background(background_.begin()->first);
    } catch (...) {
      background_.erase(background_.begin());
    }
  }
  try {
    if (!pid_dir_.empty()) plain({"rm", "-rf", "--", pid_dir_}, "", std::chrono::seconds(10));
  } catch (...) {
    // The host is unreachable: the folder (empty or nearly) stays in its /tmp.
  }
  const std::vector<std::string> argv = client_argv({"-O", "exit"}, std::nullopt);
  local_.run({.argv = argv, .timeout = std::chrono::seconds(10), .interruptible = false});
  std::error_code ec;
  std::filesystem::remove_all(control_dir_, ec);
}

ExecResult SshHost::plain(const std::vector<std::string>& argv, const std::string& stdin_data,
                          std::chrono::milliseconds timeout) {
  return local_.run({.argv = ssh_argv(shell_join(argv)), .timeout = timeout, .stdin_data = stdin_data,
                     .interruptible = false});
}

std::string SshHost::remote_temp(const std::string& content) {
  const ExecResult r = plain({"mktemp", "/tmp/schedlab-in-XXXXXX"});
  if (!r.ok()) throw HostError(fmt::format("{}: mktemp: {}", name(), last_lines(r.err, 1)));
  std::string path = r.out;
  while (!path.empty() && path.back() == '\n') path.pop_back();
  write_file(path, content);
  return path;
}

// When the master connection is gone (seen under load in the SSH lab), ssh
// says so and connects on its own: its note is not the command's stderr.
void SshHost::drop_connection_notes(std::string& err) const {
  const std::string note = "Control socket connect(" + control_dir_ + "/master): ";
  for (auto at = err.find(note); at != std::string::npos; at = err.find(note, at)) {
    const auto end = err.find('\n', at);
    err.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
  }
}

ExecResult SshHost::run(const Command& cmd) {
  if (cmd.argv.empty()) throw HostError("empty argv");
  const std::string in = cmd.stdin_data.empty() ? "" : remote_temp(cmd.stdin_data);
  // A caller that asks for the remote group (the step runner: the policy
  // check judges a measured step's tasks by it, not by their name, which
  // a stranger's process may share) gets it from the wrapper's pidfile.
  const std::string pidfile = cmd.on_start && cmd.remote_group ? remote_pidfile() : "";
  Command local{.argv = ssh_argv(wrapped(cmd, in, pidfile)),
                .timeout = cmd.timeout,
                .interruptible = cmd.interruptible,
                .hold_stdin_open = true};
  if (!pidfile.empty())
    local.on_start = [&](int) {
      if (const auto pgid = read_pidfile(pidfile)) cmd.on_start(*pgid);
    };
  ExecResult r = local_.run(local);
  if (!pidfile.empty()) plain({"rm", "-f", "--", pidfile});
  drop_connection_notes(r.err);
  if (!in.empty()) plain({"rm", "-f", "--", in});
  // 255 is ssh's own failure, unless the wrapper said it is the command's.
  if (command_exited_255(r)) return r;
  if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 255) {
    r.outcome = ExecResult::Outcome::kSpawnFailed;
    const std::string said = last_lines(r.err, 1);
    r.spawn_error =
        fmt::format("{}: ssh failed: {}", name(), said.empty() ? silent_failure() : said);
  } else if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 127 &&
             r.err.find("setsid: failed to execute") != std::string::npos) {
    r.outcome = ExecResult::Outcome::kSpawnFailed;
    r.spawn_error = fmt::format("'{}' not found on {}", cmd.argv[0], name());
  }
  return r;
}

std::optional<std::string> SshHost::find_program(const std::string& program) {
  const ExecResult r = plain({"sh", "-c", "command -v -- \"$1\"", "sh", program});
  if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 255)
    throw HostError(fmt::format("{}: ssh failed: {}", name(), last_lines(r.err, 1)));
  if (!r.ok()) return std::nullopt;
  return last_lines(r.out, 1);
}

std::optional<std::string> SshHost::read_file(const std::string& path) {
  const ExecResult r = plain({"sh", "-c", kRead, "sh", path});
  if (r.ok()) return r.out;
  if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 3) return std::nullopt;
  throw HostError(
      fmt::format("{}: {}: {}", name(), path, last_lines(r.err.empty() ? r.describe() : r.err, 1)));
}

std::vector<FileRead> SshHost::read_files(const std::vector<std::string>& paths) {
  if (paths.size() < 2) return Host::read_files(paths);
  std::random_device rd;
  const std::string marker = fmt::format("schedlab-{:08x}{:08x}", rd(), rd());
  std::vector<std::string> argv = {"sh", "-c", kReadMany, "sh", marker};
  argv.insert(argv.end(), paths.begin(), paths.end());
  const ExecResult r = plain(argv);
  if (!r.ok())
    throw HostError(fmt::format("{}: reading {} files: {}", name(), paths.size(),
                                last_lines(r.err.empty() ? r.describe() : r.err, 1)));
  std::vector<FileRead> out;
  const std::string tag = "\n" + marker + " ";
  std::size_t at = 0;
  for (const auto& path : paths) {
    const auto end = r.out.find(tag, at);
    const auto eol = end == std::string::npos ? end : r.out.find('\n', end + tag.size());
    if (eol == std::string::npos)
      throw HostError(fmt::format("{}: reading {} files: {} is missing from the answer", name(),
                                  paths.size(), path));
    const std::string status = r.out.substr(end + tag.size(), eol - end - tag.size());
    FileRead& f = out.emplace_back();
    if (status == "ok")
      f.text = r.out.substr(at, end - at);
    else if (status != "missing")
      f.error = fmt::format("{}: {}: {}", name(), path, trim(status.substr(status.find(' ') + 1)));
    at = eol + 1;
  }
  return out;
}

void SshHost::write_file(const std::string& path, const std::string& content) {
  // One write(2) by cat for short values, as sysctl and debugfs files want.
  const ExecResult r = plain({"sh", "-c", "cat > \"$1\"", "sh", path}, content);
  if (!r.ok())
    throw HostError(fmt::format("{}: {}: {}", name(), path,
                                last_lines(r.err.empty() ? r.describe() : r.err, 1)));
}

std::vector<std::string> SshHost::list_dir(const std::string& path) {
  const ExecResult r = plain({"ls", "-1A", "--", path});
  if (!r.ok()) throw HostError(fmt::format("{}: {}: {}", name(), path, last_lines(r.err, 1)));
  std::vector<std::string> names;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

Host::BackgroundId SshHost::start_background(const Command& cmd) {
  const std::string in = cmd.stdin_data.empty() ? "" : remote_temp(cmd.stdin_data);
  const std::string pidfile = remote_pidfile();
  Command local{.argv = ssh_argv(wrapped(cmd, in, pidfile)), .hold_stdin_open = true};
  const BackgroundId local_id = local_.start_background(local);
  const BackgroundId id = next_id_++;
  background_[id] = {local_id, pidfile, in};
  return id;
}

std::optional<ExecResult> SshHost::poll_background(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) throw HostError(fmt::format("no background process {}", id));
  auto r = local_.poll_background(it->second.local_id);
  if (!r) return std::nullopt;
  drop_connection_notes(r->err);
  if (!command_exited_255(*r) && r->outcome == ExecResult::Outcome::kExited &&
      r->exit_code == 255 && trim(r->err).empty())
    r->err = silent_failure();
  plain({"rm", "-f", "--", it->second.pidfile, it->second.stdin_path.empty() ? it->second.pidfile : it->second.stdin_path});
  background_.erase(it);
  return r;
}

ExecResult SshHost::stop_background(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) throw HostError(fmt::format("no background process {}", id));
  const Background b = it->second;
  background_.erase(it);
  // Stop it on the SUT first and wait until its group is gone; then the
  // wrapper exits and the local ssh client with it.
  plain({"sh", "-c", kStop, "sh", b.pidfile}, "", std::chrono::seconds(30));
  if (!b.stdin_path.empty()) plain({"rm", "-f", "--", b.stdin_path});
  return local_.stop_background(b.local_id);
}

std::optional<int> SshHost::background_pgid(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) return std::nullopt;
  return read_pidfile(it->second.pidfile);
}

std::string SshHost::silent_failure() {
  const ExecResult check = local_.run({.argv = client_argv({"-O", "check"}, std::nullopt),
                                       .timeout = std::chrono::seconds(10),
                                       .interruptible = false});
  return check.ok() ? "the connection is up: the remote shell died of a signal"
                    : "the shared connection to it closed (" +
                          std::string(trim(last_lines(check.err, 1))) + ")";
}

// The local ssh client's stdout: what the remote command wrote, as it came.
std::optional<std::string> SshHost::background_output(BackgroundId id) {
  auto it = background_.find(id);
  if (it == background_.end()) return std::nullopt;
  return local_.background_output(it->second.local_id);
}

// A pidfile in this host's own folder, made once by `mktemp -d` (0700):
// the pidfile's name is on the wrapper's command line, which any user of
// the SUT may read, and in the shared /tmp they could plant a link there
// for the wrapper to write through, or a pid of their choosing for the
// step runner to journal and kill (hostile18). One round trip per host,
// not per iteration: a round trip to an emulated guest costs tens of ms.
std::string SshHost::remote_pidfile() {
  if (pid_dir_.empty()) {
    const ExecResult r = plain({"mktemp", "-d", "/tmp/schedlab-bg-XXXXXX"});
    const std::string dir(trim(r.out));
    if (!r.ok() || !dir.starts_with("/tmp/schedlab-bg-"))
      throw HostError(fmt::format("{}: mktemp -d: {}", name(), last_lines(r.err, 1)));
    pid_dir_ = dir;
  }
  return fmt::format("{}/{}", pid_dir_, ++pidfiles_);
}

std::optional<int> SshHost::read_pidfile(const std::string& pidfile) {
  // The wrapper writes the pidfile right after it forks: wait for it briefly.
  for (int i = 0; i < 50; ++i) {
    const ExecResult r = plain({"cat", "--", pidfile});
    const std::string pid = last_lines(r.out, 1);
    if (r.ok() && !pid.empty() && pid.size() < 10 &&
        pid.find_first_not_of("0123456789") == std::string::npos)
      return std::stoi(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::nullopt;
}

bool SshHost::port_accepts(int port) {
  return plain({"bash", "-c", kPortCheck, "bash", std::to_string(port)}, "", std::chrono::seconds(15)).ok();
}

int SshHost::free_port() {
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> dist(20000, 59999);
  for (int i = 0; i < 20; ++i) {
    const int port = dist(rng);
    if (!port_accepts(port)) return port;
  }
  throw HostError(fmt::format("{}: no free TCP port found", name()));
}

}  // namespace schedlab
