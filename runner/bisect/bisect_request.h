// What `schedlab bisect start` is asked, as given (strings, as typed), and
// the bisection it makes: the candidates, the config read and checked, the
// hook, the test.
#pragma once

#include <string>
#include <vector>

#include "runner/bisect/bisect_spec.h"

namespace schedlab {

struct BisectRequest {
  std::string good, bad, config, metric;
  std::vector<std::string> params;  // NAME=VALUE
  // Exactly one: a comma-separated list, a file of one a line, a git tree.
  std::string kernels, kernels_file, repo;
  std::vector<std::string> hook;  // argv
  std::string hook_file, hook_cwd, hook_timeout = "30m";
  bool hook_timeout_given = false;  // --hook-timeout on the line (it has a default)
  bool reboots = false;
  std::string reboot_timeout = "10m";
  std::string uname;
  std::string test = "mwu";
  double alpha = 0.05;
  double min_effect = 0;
  std::string direction = "worse";
  int max_iterations = 0;
};

// Throws BisectError naming the bad flag or value (bisect_spec.h's checks
// of the config and the candidates included).
BisectSpec make_bisect_spec(const BisectRequest& request);

}  // namespace schedlab
