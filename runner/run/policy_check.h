// "Checked, not assumed": the policy a variant claims for the workload's
// tasks (its `policy`/`nice` knobs: clients, servers, threads by name),
// read from the tasks themselves during each measured phase and at its end
// (/proc/PID/task/TID/stat, field 41; nice, field 19, when claimed). An
// iteration in which any task had another policy fails, naming the tasks;
// the run's manifest records what was checked ("policy_checks").
//
// Which tasks: on each host, those of the process groups the step runners
// started (servers: background steps; clients: measured steps) and their
// descendants (an SSH host names a remote group from its wrapper's
// pidfile); where a host could not name a measured step's group (that file
// unread within a second), the tasks whose name is the step's program,
// which a stranger's process may share; and every thread named as
// `policy: {tasks: {comm: ...}}` says. Clients that exit are seen by a
// poller during the phase (once a second), servers by the last poll too.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runner/hosts/pair.h"
#include "runner/knobs/knob_kind.h"
#include "runner/knobs/task_policies.h"
#include "runner/run/step_runner.h"

namespace schedlab {

// What one phase's check found.
struct PolicyCheckResult {
  // Tasks checked (each once), by role: "server", "client", "tasks".
  std::map<std::string, int> checked;
  // "tbench_srv (pid 812, tid 815): SCHED_OTHER, claimed SCHED_BATCH (server)"
  std::vector<std::string> wrong;
  // The iteration's error when something was wrong, else empty.
  std::string error() const;
};

// The tasks observed (each poll's rows), by role, judged against the
// claims: a role the variant does not claim is counted, not judged. Pure.
PolicyCheckResult judge_policies(const ProcessKnobs& claims,
                                 const std::map<std::string, std::vector<TaskState>>& by_role);

// One measured phase's check, on the pair's hosts.
class PolicyWatch {
 public:
  // `comms`: the names the workload's tasks go by (its task names, its
  // steps' programs), for the poller to find clients before their group
  // is known; `servers`: the groups of the servers already running.
  // `workdir`: the work directory (on both hosts) for the file that tells
  // the pollers the groups started meanwhile.
  PolicyWatch(const Pair& pair, ProcessKnobs claims, std::vector<std::string> comms,
              std::vector<StepRunner::Group> servers, std::string workdir);
  ~PolicyWatch();  // stops pollers still running; never throws
  PolicyWatch(const PolicyWatch&) = delete;
  PolicyWatch& operator=(const PolicyWatch&) = delete;

  // Starts a poller on each host. Throws HostError.
  void start();
  // A group the measured phase started (StepRunner::on_group): its host's
  // poller watches it from its next poll on. Never throws (the last poll
  // still reads it).
  void add_group(const StepRunner::Group& g) noexcept;
  // Stops the pollers, polls a last time and judges; `started`: the groups
  // the measured phase started (its measured steps: the clients; its
  // background steps: servers). Throws HostError.
  PolicyCheckResult finish(const std::vector<StepRunner::Group>& started);

 private:
  std::vector<Host*> hosts() const;
  std::set<int> server_pgids(const Host* h) const;

  const Pair& pair_;
  ProcessKnobs claims_;
  std::vector<std::string> comms_;
  std::vector<StepRunner::Group> servers_;
  std::string groups_file_;
  std::map<Host*, std::string> files_;    // each host's groups file; empty: none
  std::map<Host*, std::set<int>> added_;  // groups started during the phase
  std::map<Host*, Host::BackgroundId> pollers_;
};

// The manifest's record of the checks of one variant: claimed policies,
// iterations checked and failed, tasks checked by role (summed).
void add_to_record(nlohmann::json& variant_record, const ProcessKnobs& claims,
                   const PolicyCheckResult& r);

}  // namespace schedlab
