// The machine schedlab runs on. Processes are started with Boost.Process in
// a process group of their own, so a timeout or Ctrl-C kills the whole tree
// (hackbench forks hundreds of tasks).
#pragma once

#include "runner/host.h"

namespace schedlab {

class LocalHost final : public Host {
 public:
  std::string name() const override { return "local"; }
  ExecResult run(const Command& cmd) override;
  std::optional<std::string> find_program(const std::string& name) override;
  std::optional<std::string> read_file(const std::string& path) override;
  void write_file(const std::string& path, const std::string& content) override;
  std::vector<std::string> list_dir(const std::string& path) override;
};

}  // namespace schedlab
