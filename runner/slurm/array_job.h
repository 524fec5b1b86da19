// A submission's life: checked and submitted, its tasks looked up in the
// queue and in their databases, unfinished ones resubmitted, and what an
// array task runs. Used by `schedlab slurm` and `schedlab nightly --slurm`.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "results/status.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/slurm/slurm_tools.h"
#include "runner/slurm/submission.h"

namespace schedlab::slurm {

struct SubmitSettings {
  std::string config_path;  // as given
  std::string name;         // the run name
  std::string results;      // the results directory (relative: to the working directory)
  int pairs = 1;
  std::string partition;    // empty: the cluster's default
  std::string time_limit;
  std::string lab_kernel;   // a nightly target's kernel (the SUT becomes a lab VM on the node)
  std::string target_sut;   // a nightly target's ssh:// SUT, driven from the node
};

// The submission CONFIG makes, checked (std::invalid_argument: why it
// cannot run as array tasks); nothing written, nothing asked of Slurm.
Submission plan_submission(const Config& config, const SubmitSettings& settings);

// Asks Slurm whether it fits (the partition exists and has the nodes:
// std::invalid_argument), writes the results directory (refusing one that
// holds a submission) and submits; the job id.
std::string submit(Submission& s, const std::string& config_text);

// Resubmits the tasks neither queued nor finished, each group on the nodes
// it ran on; the (job, tasks, nodes) submitted, empty when nothing was due.
struct Resubmitted {
  std::string job;
  std::vector<int> tasks;
  std::string nodes;
};
std::vector<Resubmitted> resume(Submission& s);

// What one task's database says.
struct TaskRun {
  bool exists = false;
  RunStatus status = RunStatus::kRunning;
  std::int64_t ok = 0;
  std::string error;  // the database could not be read
};
TaskRun task_run(const Submission& s, int task);

// Array tasks of the submission's jobs still queued or running, by index.
std::map<int, QueuedTask> queued(const Submission& s);

// How a task that left the queue ended: sacct's state, else slurmstepd's
// banner in its output, else "ended" (or "not started").
std::string ended_how(const Submission& s, int task);

// The nodes a task ran on ("n1,n2"), empty before it started.
std::string task_nodes(const Submission& s, int task);

// `slurm status`: the submission, then a row per task (Slurm's state as
// IN_QUEUE has it, else as it ended; the nodes; its run in its database),
// then the command that goes on: within 100 columns but for a row's
// database path, which stays whole.
std::string status_text(const Submission& s, const std::map<int, QueuedTask>& in_queue);

// Until no task of S is queued; NOTE is told every poll, which may stop
// waiting by returning false (an interrupt).
bool wait_for(const Submission& s, const std::function<bool()>& keep_waiting);

// The array task's own work, inside its allocation ($SLURM_ARRAY_TASK_ID,
// $SLURM_JOB_NODELIST): the config on its nodes, into its database. The
// caller installs the interrupt handlers.
struct TaskResult {
  RunSummary summary;
  std::string db;
  bool already_finished = false;
};
TaskResult run_task(const std::string& dir);

}  // namespace schedlab::slurm
