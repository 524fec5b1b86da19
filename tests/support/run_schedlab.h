// Runs the real schedlab binary built with the tests, as a user would.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "runner/hosts/local_host.h"

namespace schedlab::test {

inline ExecResult schedlab_cmd(const std::vector<std::string>& args,
                               std::map<std::string, std::string> env = {}) {
  LocalHost host;
  Command cmd;
  cmd.argv = {SCHEDLAB_BINARY};
  cmd.argv.insert(cmd.argv.end(), args.begin(), args.end());
  cmd.env = std::move(env);
  cmd.timeout = std::chrono::seconds(240);
  return host.run(cmd);
}

}  // namespace schedlab::test
