#include "runner/slurm/slurm_tools.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <sstream>

#include "base/text.h"
#include "runner/hosts/local_host.h"

namespace schedlab::slurm {
namespace {

// Runs a Slurm client; its stdout, or SlurmError with what it said.
std::string run_tool(const std::string& name, const std::vector<std::string>& args) {
  Command cmd;
  cmd.argv = {tool(name)};
  cmd.argv.insert(cmd.argv.end(), args.begin(), args.end());
  cmd.timeout = std::chrono::seconds(60);
  LocalHost local;
  const ExecResult r = local.run(cmd);
  if (!r.ok()) {
    std::string said(trim(r.err.empty() ? r.out : r.err));
    if (said.size() > 400) said = said.substr(0, 400) + "...";
    throw SlurmError(fmt::format("{} failed ({}): {}", name, r.describe(), said));
  }
  return r.out;
}

// KEY=VALUE words of a one-line scontrol record.
std::optional<std::string> field(const std::string& line, const std::string& key) {
  std::istringstream words(line);
  std::string w;
  while (words >> w)
    if (w.size() > key.size() && w.compare(0, key.size(), key) == 0 && w[key.size()] == '=')
      return w.substr(key.size() + 1);
  return std::nullopt;
}

}  // namespace

std::string tool(const std::string& name) {
  LocalHost local;
  if (const auto path = local.find_program(name)) return *path;
  throw SlurmError(fmt::format(
      "{} not found on PATH: schedlab slurm needs Slurm's clients (Debian package slurm-client) "
      "and a cluster to submit to",
      name));
}

std::vector<Partition> parse_partitions(const std::string& text) {
  std::vector<Partition> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto name = field(line, "PartitionName");
    if (!name) continue;
    Partition p;
    p.name = *name;
    if (const auto n = field(line, "TotalNodes"))
      std::from_chars(n->data(), n->data() + n->size(), p.nodes);
    p.is_default = field(line, "Default").value_or("NO") == "YES";
    p.state = field(line, "State").value_or("");
    out.push_back(p);
  }
  return out;
}

std::vector<Partition> partitions() {
  return parse_partitions(run_tool("scontrol", {"show", "partition", "-o"}));
}

Partition find_partition(const std::string& name) {
  const auto all = partitions();
  std::vector<std::string> names;
  for (const auto& p : all) {
    if (name.empty() ? p.is_default : p.name == name) return p;
    names.push_back(p.name);
  }
  const std::string known = names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
  if (name.empty())
    throw SlurmError(fmt::format("the cluster has no default partition: give --partition ({})", known));
  throw SlurmError(fmt::format("no partition '{}' in the cluster (partitions: {})", name, known));
}

std::vector<std::string> expand_hostlist(const std::string& list) {
  std::vector<std::string> out;
  std::istringstream lines(run_tool("scontrol", {"show", "hostnames", list}));
  std::string line;
  while (std::getline(lines, line))
    if (const auto n = trim(line); !n.empty()) out.push_back(std::string(n));
  return out;
}

std::optional<std::string> parse_node_address(const std::string& line) {
  auto addr = field(line, "NodeAddr");
  if (!addr || addr->empty() || *addr == "(null)") return std::nullopt;
  return addr;
}

std::string node_address(const std::string& node) {
  return parse_node_address(run_tool("scontrol", {"show", "node", "-o", node})).value_or(node);
}

std::string sbatch(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string out(trim(run_tool("sbatch", argv)));
  // --parsable: "JOBID" or "JOBID;CLUSTER".
  const std::string id = out.substr(0, out.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw SlurmError(fmt::format("sbatch printed no job id: '{}'", out));
  return id;
}

std::vector<QueuedTask> parse_squeue(const std::string& text) {
  std::vector<QueuedTask> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, '|');) f.emplace_back(trim(x));
    if (f.size() < 2 || f[0].empty()) continue;
    QueuedTask t;
    t.range = f[0];
    t.state = f[1];
    if (f.size() > 2) t.nodes = f[2];
    if (f.size() > 3) t.reason = f[3];
    int n = -1;
    const auto [end, ec] = std::from_chars(t.range.data(), t.range.data() + t.range.size(), n);
    if (ec == std::errc() && end == t.range.data() + t.range.size()) t.task = n;
    out.push_back(t);
  }
  return out;
}

std::vector<QueuedTask> squeue(const std::string& job) {
  // -r: one line per array task; %K its index; %N empty while pending.
  try {
    return parse_squeue(run_tool("squeue", {"-h", "-r", "-j", job, "-o", "%K|%T|%N|%r"}));
  } catch (const SlurmError& e) {
    // A job that has left the queue (finished, cancelled) is unknown to it.
    if (std::string(e.what()).find("Invalid job id") != std::string::npos) return {};
    throw;
  }
}

std::map<int, std::string> parse_sacct(const std::string& job, const std::string& text) {
  std::map<int, std::string> out;
  std::istringstream lines(text);
  const std::string prefix = job + "_";
  for (std::string line; std::getline(lines, line);) {
    const auto bar = line.find('|');
    if (bar == std::string::npos || line.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string index = line.substr(prefix.size(), bar - prefix.size());
    int n = -1;
    const auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), n);
    if (ec != std::errc() || end != index.data() + index.size()) continue;
    std::string state = line.substr(bar + 1);
    state = state.substr(0, state.find_first_of(" |"));  // "CANCELLED by 0"
    if (!state.empty()) out[n] = state;
  }
  return out;
}

std::map<int, std::string> sacct_states(const std::string& job) {
  try {
    return parse_sacct(job, run_tool("sacct", {"-n", "-X", "-P", "-j", job, "-o", "JobID,State"}));
  } catch (const SlurmError&) {
    return {};  // no sacct, or "Slurm accounting storage is disabled"
  }
}

void scancel(const std::string& job, std::optional<int> task) {
  run_tool("scancel", {task ? fmt::format("{}_{}", job, *task) : job});
}

}  // namespace schedlab::slurm
