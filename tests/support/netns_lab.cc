#include "tests/support/netns_lab.h"

#include <unistd.h>

#include <sstream>
#include <stdexcept>

#include "runner/hosts/local_host.h"

namespace schedlab::test {
namespace {
const std::string kSupport = std::string(SCHEDLAB_SOURCE_DIR) + "/tests/support/";
}

NetnsLab::NetnsLab(Kind kind) {
  const bool slurm = kind == Kind::kSlurm;
  script_ = kSupport + (slurm ? "slurm/lab.sh" : "netns/lab.sh");
  dir_ = (slurm ? "/tmp/schedlab-slurm-lab-" : "/tmp/schedlab-netns-lab-") + std::to_string(::getpid());
  LocalHost host;
  const ExecResult r = host.run({.argv = {script_, "up", dir_}, .timeout = std::chrono::seconds(90)});
  if (r.outcome == ExecResult::Outcome::kExited && r.exit_code == 77) {
    skip_ = std::string(slurm ? "the Slurm lab" : "the SSH lab") + " cannot run here: " + r.err;
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
  host.run({.argv = {script_, "down", dir_}, .timeout = std::chrono::seconds(90), .interruptible = false});
}

}  // namespace schedlab::test
