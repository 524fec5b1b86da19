// The `tasks` monitor on the SUT: a small POSIX sh + awk program (busybox
// is enough: the lab guests have nothing else) that polls the tasks whose
// comm is one of a workload's process names and prints, per task, its CPU,
// nr_migrations and switches (format in analysis/counters/task_samples.h).
//
// One iteration: start() polls once synchronously, so the first poll is
// known to precede the measured steps, then leaves a poller running in the
// background (Host::start_background: local, SSH and lab alike); stop()
// stops it and polls once more, synchronously, so long-lived servers get a
// last value after the measured steps. The comm names reach the program as
// an argv element, never as shell text.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "runner/hosts/host.h"

namespace schedlab {

// The kernel keeps 15 bytes of a task's name (TASK_COMM_LEN 16): a longer
// program name is matched by its first 15. Empty names are dropped.
std::vector<std::string> comm_names(const std::vector<std::string>& names);

// The sampler's argv: one poll when `interval` is empty, else a poll every
// interval until stopped.
std::vector<std::string> task_sampler_argv(const std::vector<std::string>& comms,
                                           std::optional<std::chrono::milliseconds> interval);

// One poll, run to completion on `host`. Throws HostError naming the
// host when it does not exit 0 (no sh or awk there).
std::string poll_tasks_once(Host& host, const std::vector<std::string>& comms);

class TaskSampler {
 public:
  TaskSampler(Host& host, std::vector<std::string> comms, std::chrono::milliseconds interval);
  ~TaskSampler();  // stops a poller still running (an interrupted iteration); never throws
  TaskSampler(const TaskSampler&) = delete;
  TaskSampler& operator=(const TaskSampler&) = delete;

  // First poll, then the background poller. Throws HostError.
  void start();
  // Stops the poller, polls a last time; the whole output, first poll first.
  // Throws HostError.
  std::string stop();

 private:
  Host& host_;
  std::vector<std::string> comms_;
  std::chrono::milliseconds interval_;
  std::string first_;
  std::optional<Host::BackgroundId> poller_;
};

}  // namespace schedlab
