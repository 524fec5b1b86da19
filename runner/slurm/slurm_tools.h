// Slurm's client programs (sbatch, squeue, scontrol, scancel), run as argv
// on this machine and their output read. Nothing here builds a shell line.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace schedlab::slurm {

class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The full path of a Slurm client, or SlurmError naming the Debian package.
std::string tool(const std::string& name);

struct Partition {
  std::string name;
  int nodes = 0;
  bool is_default = false;
  std::string state;  // UP, DOWN, ...
};
// `scontrol show partition -o`, one Partition per line.
std::vector<Partition> partitions();
// From `scontrol show partition -o` text (for tests).
std::vector<Partition> parse_partitions(const std::string& text);
// The named one (or the default one when NAME is empty); SlurmError for a
// partition that does not exist or no default.
Partition find_partition(const std::string& name);

// Node names of a host list (n[1-2] -> n1 n2): `scontrol show hostnames`.
std::vector<std::string> expand_hostlist(const std::string& list);
// A node's NodeAddr (`scontrol show node -o NAME`); the name when unset.
std::string node_address(const std::string& node);
// NodeAddr= from one `scontrol show node -o` line; nothing when absent.
std::optional<std::string> parse_node_address(const std::string& line);

// sbatch ARGS --parsable; the job id. SlurmError with sbatch's message.
std::string sbatch(const std::vector<std::string>& args);

// One array task as squeue shows it (pending, running, ...).
struct QueuedTask {
  int task = -1;  // -1: the array's pending rest, shown as one line ("0-3")
  std::string range;  // squeue's %K: "0", "2-3"
  std::string state;  // PENDING, RUNNING, COMPLETING, ...
  std::string nodes;  // %N
  std::string reason; // %r
};
// The tasks of JOB still in the queue; empty once the job has left it.
std::vector<QueuedTask> squeue(const std::string& job);
std::vector<QueuedTask> parse_squeue(const std::string& text);

// Array tasks of JOB that accounting remembers, by index: their final
// state (COMPLETED, CANCELLED, FAILED, TIMEOUT, PREEMPTED, NODE_FAIL...).
// Empty when the cluster keeps no accounting (sacct then says so).
std::map<int, std::string> sacct_states(const std::string& job);
// From `sacct -n -X -P -o JobID,State` text: "12_0|COMPLETED",
// "12_1|CANCELLED by 0" (the array's pending rest, "12_[2-3]", is skipped).
std::map<int, std::string> parse_sacct(const std::string& job, const std::string& text);

// scancel JOB (or only JOB_TASK when task is given).
void scancel(const std::string& job, std::optional<int> task = std::nullopt);

}  // namespace schedlab::slurm
