// The machine schedlab runs on. Processes are started with Boost.Process in
// a process group of their own, so a timeout or Ctrl-C kills the whole tree
// (hackbench forks hundreds of tasks).
#pragma once

#include <map>
#include <memory>

#include "runner/hosts/host.h"

namespace schedlab {

class LocalHost final : public Host {
 public:
  LocalHost();
  ~LocalHost() override;  // kills every background process still running
  std::string name() const override { return "local"; }
  ExecResult run(const Command& cmd) override;
  std::optional<std::string> find_program(const std::string& name) override;
  std::optional<std::string> read_file(const std::string& path) override;
  void write_file(const std::string& path, const std::string& content) override;
  std::vector<std::string> list_dir(const std::string& path) override;
  BackgroundId start_background(const Command& cmd) override;
  std::optional<ExecResult> poll_background(BackgroundId id) override;
  ExecResult stop_background(BackgroundId id) override;
  std::optional<int> background_pgid(BackgroundId id) override;
  std::optional<std::string> background_output(BackgroundId id) override;
  std::optional<double> reaped_cpu_seconds() override { return reaped_cpu_s_; }
  bool port_accepts(int port) override;
  int free_port() override;

 private:
  struct Process;
  std::unique_ptr<Process> spawn(const Command& cmd, ExecResult& failure);
  // Process::finish, its CPU added to reaped_cpu_s_.
  ExecResult reap(Process& p, ExecResult::Outcome outcome);
  std::map<BackgroundId, std::unique_ptr<Process>> background_;
  BackgroundId next_id_ = 1;
  double reaped_cpu_s_ = 0;
};

}  // namespace schedlab
