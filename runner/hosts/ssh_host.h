// A machine reached through the OpenSSH client: BatchMode, one shared
// connection (ControlMaster) per host, strict host keys by default. Every
// remote command is an argv quoted for the remote shell and run under a
// small fixed wrapper that puts it in its own process group and kills that
// group when the connection drops, so a timeout or a lost link leaves no
// orphan on the SUT.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "runner/hosts/host.h"
#include "runner/hosts/local_host.h"

namespace schedlab {

struct SshTarget {
  std::string user;  // empty: ssh's default
  std::string host;
  int port = 22;
  std::string url() const;  // ssh://user@host:port
};

// ssh://[user@]host[:port]; nothing when the text is not such a URL, or
// when its user or host starts with '-' (ssh://-V, ssh://-Fevil.conf: ssh
// would take it for an option).
std::optional<SshTarget> parse_ssh_url(const std::string& url);
// Why parse_ssh_url refused an ssh:// URL of that shape, as " (the host
// '-V' starts with '-': ...)" for the end of an error; empty otherwise.
std::string ssh_url_option_note(const std::string& url);

struct SshOptions {
  std::string identity_file;  // -i
  std::string known_hosts;    // UserKnownHostsFile; empty: ssh's default
  // "strict" (default): the host key must already be known.
  // "accept-new": unknown keys are added, changed keys still refused.
  std::string host_key_policy = "strict";
  std::chrono::seconds connect_timeout{10};
};

class SshHost final : public Host {
 public:
  // Opens the shared connection; throws HostError saying why it failed
  // (unreachable, refused key, unknown host key), before anything runs.
  SshHost(SshTarget target, SshOptions options);
  ~SshHost() override;  // stops background processes, closes the connection
  SshHost(const SshHost&) = delete;
  SshHost& operator=(const SshHost&) = delete;

  std::string name() const override { return target_.url(); }
  const SshTarget& target() const { return target_; }
  ExecResult run(const Command& cmd) override;
  std::optional<std::string> find_program(const std::string& name) override;
  std::optional<std::string> read_file(const std::string& path) override;
  std::vector<FileRead> read_files(const std::vector<std::string>& paths) override;
  void write_file(const std::string& path, const std::string& content) override;
  std::vector<std::string> list_dir(const std::string& path) override;
  BackgroundId start_background(const Command& cmd) override;
  std::optional<ExecResult> poll_background(BackgroundId id) override;
  ExecResult stop_background(BackgroundId id) override;
  std::optional<int> background_pgid(BackgroundId id) override;
  std::optional<std::string> background_output(BackgroundId id) override;
  bool port_accepts(int port) override;
  int free_port() override;

  // The ssh client argv that runs one remote command string (for tests):
  // ssh OPTIONS -- [user@]host COMMAND.
  std::vector<std::string> ssh_argv(const std::string& remote_command) const;
  // The remote command string that runs cmd under the wrapper.
  static std::string wrapped(const Command& cmd, const std::string& stdin_path,
                             const std::string& pidfile);

 private:
  // A plain remote command (no wrapper) with a short timeout.
  ExecResult plain(const std::vector<std::string>& argv, const std::string& stdin_data = "",
                   std::chrono::milliseconds timeout = std::chrono::seconds(60));
  std::string remote_temp(const std::string& content);
  // A fresh path for the wrapper's pidfile (not made) in pid_dir_, this
  // host's own remote folder, made on first use.
  std::string remote_pidfile();
  // The group the wrapper wrote to `pidfile`, waiting for it briefly.
  std::optional<int> read_pidfile(const std::string& pidfile);
  // Removes ssh's notes that it connected on its own (the master gone).
  void drop_connection_notes(std::string& err) const;
  // What ssh's exit 255 with nothing on stderr meant (LogLevel=ERROR keeps
  // both quiet): the shared connection closed under the command, or it is
  // still up and the remote shell died of a signal.
  std::string silent_failure();
  // The options every client of this host takes (-o ..., -p, -i); the
  // master connection's ControlMaster=yes, the others' no.
  std::vector<std::string> client_options(bool master) const;
  // ssh BEFORE OPTIONS -- [user@]host [COMMAND]: BEFORE are the options of
  // one kind of client (the master's -f -N, -O exit).
  std::vector<std::string> client_argv(std::vector<std::string> before,
                                       std::optional<std::string> remote_command,
                                       bool master = false) const;

  SshTarget target_;
  SshOptions options_;
  std::string control_dir_;
  std::string pid_dir_;  // remote, 0700; removed by the destructor
  int pidfiles_ = 0;
  LocalHost local_;  // runs the ssh clients
  struct Background {
    BackgroundId local_id;
    std::string pidfile;
    std::string stdin_path;
  };
  std::map<BackgroundId, Background> background_;
  BackgroundId next_id_ = 1;
};

}  // namespace schedlab
