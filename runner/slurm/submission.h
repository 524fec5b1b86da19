// A Slurm submission of one config (schedlab slurm submit): what was
// submitted, kept as DIR/submission.json next to the tasks' databases, and
// how an array task turns its allocation into the config's one pair.
//
//   DIR/config.yaml        the config as submitted (every task reads it)
//   DIR/submission.json    this record: name, pairs, nodes a task, job ids
//   DIR/slurm/task.sh      the batch script: exec schedlab slurm task DIR
//   DIR/slurm/task-I-J.out each task's output (array index I, job J)
//   DIR/task-I.db          each task's run (schedlab merge joins them)
#pragma once

#include <string>
#include <vector>

#include "runner/config/config.h"

namespace schedlab::slurm {

struct Submission {
  std::string dir;          // absolute
  std::string name;         // the run name every task uses
  std::string config_path;  // where the config came from
  int pairs = 1;            // array tasks
  int nodes_per_task = 1;   // 2 when the loadgen is a host of its own
  std::string partition;
  std::string time_limit;   // sbatch --time; empty: the partition's
  std::string schedlab;     // the binary the tasks run
  // A nightly target's SUT (schedlab nightly --slurm): a lab kernel booted
  // on the node, or an ssh:// SUT driven from it. Neither: the config's
  // hosts are put on the task's nodes.
  std::string lab_kernel;
  std::string target_sut;
  std::vector<std::string> jobs;  // the first job id, then each resubmission's

  std::string config_file() const { return dir + "/config.yaml"; }
  std::string record_file() const { return dir + "/submission.json"; }
  std::string script_file() const { return dir + "/slurm/task.sh"; }
  std::string task_db(int task) const;

  std::string to_json() const;
  // SlurmError naming the file for a record that is not one.
  static Submission load(const std::string& dir);
  void save() const;
};

// Why CONFIG cannot run as array tasks (pairs: of its own, a host neither
// local, ssh:// nor a lab), or nothing. Nodes a task: 1 with a local
// loadgen or a lab SUT, else 2.
std::string unsupported(const Config& config);
int nodes_per_task(const Config& config);

// The batch script: one exec of the schedlab binary, every word quoted.
std::string task_script(const Submission& s);

// sbatch's arguments for array tasks TASKS ("0-3" or "1,3") of S; NODELIST
// pins a resubmitted task to nodes (empty: any).
std::vector<std::string> sbatch_args(const Submission& s, const std::string& tasks,
                                     const std::string& nodelist = "");

// Submissions by job id: $XDG_STATE_HOME/schedlab/slurm-jobs/JOB (else
// ~/.local/state/...) holds the results directory, so status and cancel
// take the job id Slurm printed.
void remember_job(const std::string& job, const std::string& dir);
// ARG as a results directory (it holds submission.json) or a job id.
std::string submission_dir(const std::string& arg);

struct Node {
  std::string name;     // Slurm's node name: n1
  std::string address;  // its NodeAddr: 10.231.0.1
};
// The config a task runs: the submitted text with the target's SUT.
Config task_config(const Submission& s, const std::string& text);
// Whether the task's nodes become the config's hosts (no lab SUT, no
// target SUT of its own).
bool places_on_nodes(const Submission& s, const Config& config);

// The config's one pair on this task's nodes: the SUT on the first node,
// the loadgen on the second (or local), the user and port of the config's
// ssh:// URLs kept, named after the nodes (n1, or n1_n2).
PairConfig task_pair(const Config& config, const std::vector<Node>& nodes);

// The lines a task starts its output with: which task of which run, on
// which pair (CONFIG as the task runs it: its one pair on NODES when
// places_on_nodes) or nodes; within 100 columns, a long run name wrapped.
std::string task_header(const Submission& s, int task, const Config& config,
                        const std::vector<std::string>& nodes);

}  // namespace schedlab::slurm
