#include "runner/run/policy_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "base/text.h"

namespace schedlab {
namespace {

// Clients that exit before the phase ends are seen only by a poll while
// they run: often enough for a tbench or pgbench client, rarely enough not
// to load the CPUs it measures (every variant of the run bears the same).
constexpr std::chrono::seconds kPollInterval{1};

// The kernel keeps 15 bytes of a task's name.
std::string comm_of(const std::string& program) {
  const auto slash = program.rfind('/');
  return program.substr(slash == std::string::npos ? 0 : slash + 1).substr(0, 15);
}

std::string claimed_text(const SchedPolicy& p) {
  return p.describe();
}

// Whether a task has what `p` claims: its policy, and its nice value when
// one is claimed.
bool has(const TaskState& t, const SchedPolicy& p) {
  return t.policy == p.policy && (!p.nice || t.nice == *p.nice);
}

std::string observed(const TaskState& t, const SchedPolicy& p) {
  std::string s = sched_policy_name(t.policy);
  if (p.nice) s += fmt::format(" nice {}", t.nice);
  return s;
}

}  // namespace

std::string PolicyCheckResult::error() const {
  if (wrong.empty()) return "";
  // The first few name the problem; a server with 200 threads would drown it.
  constexpr std::size_t kShown = 5;
  std::vector<std::string> shown(wrong.begin(), wrong.begin() + std::min(wrong.size(), kShown));
  std::string more =
      wrong.size() > kShown ? fmt::format(" and {} more", wrong.size() - kShown) : "";
  return fmt::format(
      "policy check: {} of the workload's tasks did not have the claimed policy: {}{}",
      wrong.size(), fmt::join(shown, "; "), more);
}

PolicyCheckResult judge_policies(const ProcessKnobs& claims,
                                 const std::map<std::string, std::vector<TaskState>>& by_role) {
  PolicyCheckResult r;
  for (const auto& [role, tasks] : by_role) {
    std::optional<SchedPolicy> claim;
    if (role == "server") claim = claims.server_policy;
    if (role == "client") claim = claims.policy;
    if (role == "tasks" && claims.tasks) claim = claims.tasks->policy;
    // Each task once (a poll after poll shows it again), each miss once.
    std::set<std::pair<int, std::string>> seen, missed;
    for (const auto& t : tasks) {
      const auto key = std::make_pair(t.tid, t.start);
      if (seen.insert(key).second) ++r.checked[role];
      if (!claim || has(t, *claim) || !missed.insert(key).second) continue;
      r.wrong.push_back(fmt::format("{}: {}, claimed {} ({})", t.describe(), observed(t, *claim),
                                    claimed_text(*claim), role));
    }
    if (!r.checked.contains(role)) r.checked[role] = 0;
  }
  return r;
}

PolicyWatch::PolicyWatch(const Pair& pair, ProcessKnobs claims, std::vector<std::string> comms,
                         std::vector<StepRunner::Group> servers, std::string workdir)
    : pair_(pair),
      claims_(std::move(claims)),
      servers_(std::move(servers)),
      groups_file_(workdir + "/policy-check-groups") {
  for (const auto& c : comms) {
    const std::string name = comm_of(c);
    if (!name.empty() && std::find(comms_.begin(), comms_.end(), name) == comms_.end())
      comms_.push_back(name);
  }
  if (claims_.tasks && std::find(comms_.begin(), comms_.end(), claims_.tasks->comm) == comms_.end())
    comms_.push_back(claims_.tasks->comm);
}

PolicyWatch::~PolicyWatch() {
  for (const auto& [host, id] : pollers_) {
    try {
      host->stop_background(id);
    } catch (...) {
      // Gone with its host; nothing left to stop.
    }
  }
}

std::vector<Host*> PolicyWatch::hosts() const {
  std::vector<Host*> out = {&pair_.sut};
  if (&pair_.loadgen != &pair_.sut) out.push_back(&pair_.loadgen);
  return out;
}

std::set<int> PolicyWatch::server_pgids(const Host* h) const {
  std::set<int> out;
  for (const auto& g : servers_)
    if (g.host == h && g.pgid) out.insert(*g.pgid);
  return out;
}

void PolicyWatch::start() {
  for (Host* h : hosts()) {
    std::string file = groups_file_;
    try {
      h->write_file(file, "");
    } catch (const HostError&) {
      file.clear();  // the groups started meanwhile are read by the last poll only
    }
    files_[h] = file;
    pollers_[h] = h->start_background(
        {.argv = task_stats_argv(comms_, server_pgids(h), kPollInterval, file)});
  }
}

void PolicyWatch::add_group(const StepRunner::Group& g) noexcept {
  if (!g.pgid || !pollers_.contains(g.host) || files_[g.host].empty()) return;
  try {
    added_[g.host].insert(*g.pgid);
    g.host->write_file(files_[g.host], group_list(added_[g.host]));
  } catch (...) {
    // The last poll reads the group all the same.
  }
}

PolicyCheckResult PolicyWatch::finish(const std::vector<StepRunner::Group>& started) {
  // Servers the measured phase started itself count as servers.
  std::vector<StepRunner::Group> clients;
  for (const auto& g : started) (g.server ? servers_ : clients).push_back(g);
  std::map<std::string, std::vector<TaskState>> by_role;
  for (Host* h : hosts()) {
    std::string out;
    if (const auto p = pollers_.find(h); p != pollers_.end()) {
      const Host::BackgroundId id = p->second;
      pollers_.erase(p);
      out = h->stop_background(id).out;
      if (!out.empty() && out.back() != '\n') out += '\n';
    }
    // The last poll also takes the clients' groups, now known.
    std::set<int> groups = server_pgids(h);
    std::set<int> client_groups;
    std::set<std::string> client_programs;  // of steps whose group the host cannot name
    for (const auto& g : clients) {
      if (g.host != h) continue;
      if (g.pgid)
        client_groups.insert(*g.pgid);
      else
        client_programs.insert(comm_of(g.program));
    }
    groups.insert(client_groups.begin(), client_groups.end());
    const ExecResult last = h->run({.argv = task_stats_argv(comms_, groups, std::nullopt),
                                    .timeout = std::chrono::seconds(30),
                                    .interruptible = false});
    if (!last.ok())
      throw HostError(fmt::format("{}: reading the tasks' policies failed ({}): {}", h->name(),
                                  last.describe(), last_lines(last.err, 2)));
    const std::vector<TaskState> all = parse_task_stats(out + last.out);
    auto& servers = by_role["server"];
    const auto server_tasks = tasks_of_groups(all, server_pgids(h));
    servers.insert(servers.end(), server_tasks.begin(), server_tasks.end());
    std::set<std::pair<int, std::string>> of_server;
    for (const auto& t : server_tasks) of_server.insert({t.tid, t.start});
    auto& clients_seen = by_role["client"];
    for (const auto& t : tasks_of_groups(all, client_groups))
      if (!of_server.contains({t.tid, t.start})) clients_seen.push_back(t);
    for (const auto& t : all)
      if (client_programs.contains(t.comm) && !of_server.contains({t.tid, t.start}))
        clients_seen.push_back(t);
    // Threads named by `policy: {tasks: ...}` live on the SUT.
    if (claims_.tasks && h == &pair_.sut) {
      auto& named = by_role["tasks"];
      for (const auto& t : all)
        if (t.comm == claims_.tasks->comm) named.push_back(t);
    }
  }
  return judge_policies(claims_, by_role);
}

void add_to_record(nlohmann::json& record, const ProcessKnobs& claims, const PolicyCheckResult& r) {
  if (!record.is_object()) {
    record = nlohmann::json::object();
    nlohmann::json claimed = nlohmann::json::object();
    if (claims.server_policy) claimed["server"] = claims.server_policy->describe();
    if (claims.policy) claimed["client"] = claims.policy->describe();
    if (claims.tasks)
      claimed["tasks"] = fmt::format("{}={}", claims.tasks->comm, claims.tasks->policy.describe());
    record["claimed"] = claimed;
    record["iterations"] = 0;
    record["failed_iterations"] = 0;
    record["tasks_checked"] = nlohmann::json::object();
  }
  record["iterations"] = record["iterations"].get<int>() + 1;
  if (!r.wrong.empty()) record["failed_iterations"] = record["failed_iterations"].get<int>() + 1;
  for (const auto& [role, n] : r.checked)
    record["tasks_checked"][role] = record["tasks_checked"].value(role, 0) + n;
}

}  // namespace schedlab
