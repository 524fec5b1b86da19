// The kernel `schedlab lab boot|shell` boots, as its options ask: an
// experiment file's lab SUT (its workloads' programs and kernel config
// additions) with the kernel and command line given; a tree a run built
// with additions (a workload's CONFIG_SYSVIPC) as that run built it, not
// rebuilt without them; a board's own CPUs and memory where the options
// left them as they were.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

#include "runner/lab/lab_config.h"
#include "runner/lab/paths.h"

namespace schedlab {

// A file whose SUT is no lab, or a board that cannot take what is asked.
class LabBootError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `config_file`: an experiment file, or empty. Throws ConfigError (the file)
// or LabBootError.
LabConfig lab_boot_config(const LabConfig& asked, std::chrono::seconds boot_timeout,
                          const std::string& config_file, const lab::Log& log);

}  // namespace schedlab
