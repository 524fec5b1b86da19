#include "tests/support/netns_lab.h"

#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "runner/hosts/local_host.h"

namespace schedlab::test {
namespace {
const std::string kScript = std::string(SCHEDLAB_SOURCE_DIR) + "/tests/support/netns/lab.sh";
}

NetnsLab::NetnsLab() {
  dir_ = "/tmp/schedlab-netns-lab-" + std::to_string(::getpid());
  LocalHost host;
  const ExecResult r = host.run({.argv = {kScript, "up", dir_}, .timeout = std::chrono::seconds(90)});
  if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 77) {
    skip_ = "the SSH lab cannot run here: " + r.err;
    return;
  }
  if (!r.ok()) throw std::runtime_error("lab.sh up failed (" + r.describe() + "): " + r.err);
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) env_[line.substr(0, eq)] = line.substr(eq + 1);
  }
}

NetnsLab::~NetnsLab() {
  LocalHost host;
  host.run({.argv = {kScript, "down", dir_}, .timeout = std::chrono::seconds(90), .interruptible = false});
}

}  // namespace schedlab::test
