#include "runner/slurm/array_job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "base/file.h"
#include "base/own_executable.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/run/plan.h"
#include "runner/run/run_shape.h"
#include "runner/run/session.h"

namespace schedlab::slurm {
namespace {

namespace fs = std::filesystem;

std::string nodes_file(const Submission& s, int task) {
  return fmt::format("{}/slurm/task-{}.nodes", s.dir, task);
}

// The binary the tasks exec: this one, by its absolute path.
std::string own_binary() {
  const auto self = own_executable();
  if (!self) throw SlurmError("cannot find the schedlab binary (/proc/self/exe)");
  return self->string();
}

}  // namespace

Submission plan_submission(const Config& config, const SubmitSettings& o) {
  if (const auto why = unsupported(config); !why.empty())
    throw std::invalid_argument(fmt::format("{}: {}", o.config_path, why));
  if (is_multi_kernel(config))
    throw std::invalid_argument(
        fmt::format("{}: lists several kernels; submit one config per kernel", o.config_path));
  if (o.pairs < 1 || o.pairs > 10000)
    throw std::invalid_argument(fmt::format("--pairs {}: give 1 to 10000", o.pairs));
  if ((config.sut_lab || !o.lab_kernel.empty()) && o.pairs > 1)
    throw std::invalid_argument(fmt::format(
        "{}: a lab SUT is one VM on the task's node: submit it with --pairs 1", o.config_path));
  expand_plan(config, {});  // every error a run would find, before anything is written
  Submission s;
  s.name = o.name;
  s.config_path = fs::absolute(o.config_path).lexically_normal().string();
  s.pairs = o.pairs;
  s.partition = o.partition;
  s.time_limit = o.time_limit;
  s.lab_kernel = o.lab_kernel;
  s.target_sut = o.target_sut;
  s.nodes_per_task = places_on_nodes(s, config) ? nodes_per_task(config) : 1;
  s.schedlab = own_binary();
  s.dir = fs::absolute(o.results.empty() ? s.name : o.results).lexically_normal().string();
  return s;
}

std::string submit(Submission& s, const std::string& config_text) {
  tool("sbatch");
  Partition partition;
  try {
    partition = find_partition(s.partition);
  } catch (const SlurmError& e) {
    if (std::string(e.what()).find("failed (") != std::string::npos) throw;  // scontrol itself
    throw std::invalid_argument(e.what());
  }
  const int need = s.pairs * s.nodes_per_task;
  if (need > partition.nodes)
    throw std::invalid_argument(
        fmt::format("{} pair(s) of {} node(s) need {} nodes; partition '{}' has {}", s.pairs,
                    s.nodes_per_task, need, partition.name, partition.nodes));
  s.partition = partition.name;
  if (fs::exists(s.record_file()))
    throw std::invalid_argument(fmt::format(
        "{} already holds a submission: resume it (schedlab slurm submit --resume {}) or give "
        "another --results",
        s.dir, s.dir));
  fs::create_directories(s.dir + "/slurm");
  write_whole_file(s.config_file(), config_text);
  write_whole_file(s.script_file(), task_script(s));
  ::chmod(s.script_file().c_str(), 0755);
  s.save();  // before sbatch: a task may start before sbatch returns
  const std::string job = sbatch(sbatch_args(s, fmt::format("0-{}", s.pairs - 1)));
  s.jobs.push_back(job);
  s.save();
  remember_job(job, s.dir);
  return job;
}

std::vector<Resubmitted> resume(Submission& s) {
  const auto in_queue = queued(s);
  std::map<std::string, std::vector<int>> by_nodes;  // "": never started
  for (int t = 0; t < s.pairs; ++t) {
    if (in_queue.count(t)) continue;
    const TaskRun r = task_run(s, t);
    if (r.exists && r.status == RunStatus::kFinished) continue;
    by_nodes[task_nodes(s, t)].push_back(t);
  }
  std::vector<Resubmitted> out;
  for (const auto& [nodes, tasks] : by_nodes) {
    const std::string job = sbatch(sbatch_args(s, fmt::format("{}", fmt::join(tasks, ",")), nodes));
    s.jobs.push_back(job);
    s.save();
    remember_job(job, s.dir);
    out.push_back({job, tasks, nodes});
  }
  return out;
}

TaskRun task_run(const Submission& s, int task) {
  TaskRun t;
  if (!fs::exists(s.task_db(task))) return t;
  try {
    Store store(s.task_db(task), Store::Access::kReadOnly);
    const auto run = store.runs_table().find_run_by_name(s.name);
    if (!run) return t;
    t.exists = true;
    t.status = run->status;
    const auto ov = store.runs_table().run_overviews();
    if (const auto it = ov.find(run->id); it != ov.end()) t.ok = it->second.iterations_ok;
  } catch (const std::exception& e) {
    t.error = e.what();
  }
  return t;
}

std::map<int, QueuedTask> queued(const Submission& s) {
  std::map<int, QueuedTask> out;
  for (const auto& job : s.jobs)
    for (const auto& q : squeue(job)) {
      if (q.task >= 0) {
        out[q.task] = q;
        continue;
      }
      // A pending rest shown as one line: "0-3", "1,3", "[0-3%2]".
      std::string range = q.range.substr(0, q.range.find('%'));
      std::erase(range, '[');
      std::erase(range, ']');
      std::istringstream parts(range);
      for (std::string part; std::getline(parts, part, ',');) {
        const auto dash = part.find('-');
        try {
          const int a = std::stoi(part.substr(0, dash));
          const int b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
          for (int i = std::max(a, 0); i <= b && i < s.pairs; ++i) out[i] = q;
        } catch (const std::exception&) {
        }
      }
    }
  return out;
}

std::string ended_how(const Submission& s, int task) {
  for (auto job = s.jobs.rbegin(); job != s.jobs.rend(); ++job) {
    if (const auto states = sacct_states(*job); states.count(task)) return states.at(task);
    std::string text;
    try {
      text = read_file(fmt::format("{}/slurm/task-{}-{}.out", s.dir, task, *job));
    } catch (const FileError&) {
      continue;  // that job did not run this task
    }
    const auto banner = text.rfind("*** JOB ");  // slurmstepd's last word on the task
    if (banner == std::string::npos) return "ended";
    const std::string_view last = std::string_view(text).substr(banner);
    if (last.find("CANCELLED") != last.npos) return "CANCELLED";
    if (last.find("PREEMPTION") != last.npos) return "PREEMPTED";
    if (last.find("TIME LIMIT") != last.npos) return "TIMEOUT";
    if (last.find("NODE FAILURE") != last.npos) return "NODE_FAIL";
    return "ended";
  }
  return "not started";
}

std::string task_nodes(const Submission& s, int task) {
  try {
    return std::string(trim(read_file(nodes_file(s, task), 4096)));
  } catch (const FileError&) {
    return "";
  }
}

bool wait_for(const Submission& s, const std::function<bool()>& keep_waiting) {
  while (!queued(s).empty()) {
    if (!keep_waiting()) return false;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return true;
}

std::string status_text(const Submission& s, const std::map<int, QueuedTask>& in_queue) {
  std::string out = wrap_words(fmt::format(
      "run '{}': {} task(s), {} node(s) each, partition {}, job(s) {}", terminal_safe(s.name),
      s.pairs, s.nodes_per_task, s.partition, fmt::join(s.jobs, " ")));
  out += fmt::format("{:>4}  {:<12} {:<12} {:<12} {:>5}  {}\n", "task", "slurm", "nodes", "run",
                     "ok", "database");
  int unfinished = 0;
  for (int t = 0; t < s.pairs; ++t) {
    const TaskRun r = task_run(s, t);
    const auto q = in_queue.find(t);
    const std::string state = q != in_queue.end() ? q->second.state : ended_how(s, t);
    std::string nodes = q != in_queue.end() ? q->second.nodes : "";
    if (nodes.empty()) nodes = task_nodes(s, t);
    // Running in the database but out of the queue: nobody runs it now.
    RunStatus shown = r.status;
    if (r.exists && shown == RunStatus::kRunning && q == in_queue.end())
      shown = RunStatus::kInterrupted;
    const std::string run = !r.error.empty() ? "unreadable"
                            : r.exists       ? std::string(to_string(shown))
                                             : "-";
    if (q == in_queue.end() && !(r.exists && shown == RunStatus::kFinished)) ++unfinished;
    // The database's path last: a path stays whole, however wide.
    // Slurm's words and the task's nodes file (DIR may be shared: anyone
    // who can write it writes these) escaped, as the run's name is.
    out += fmt::format("{:>4}  {:<12} {:<12} {:<12} {:>5}  {}\n", t, terminal_safe(state),
                       nodes.empty() ? "-" : terminal_safe(excerpt(nodes, 60)), run, r.ok,
                       terminal_safe(s.task_db(t)));
    if (!r.error.empty()) out += wrap_words("      " + terminal_safe(r.error));
  }
  // The next command, to paste: whole (with_command).
  if (unfinished)
    out += with_command(fmt::format("{} task(s) neither queued nor finished:", unfinished),
                        "schedlab slurm submit --resume " + shell_word(s.dir));
  else if (in_queue.empty())
    out += with_command("every task finished:",
                        fmt::format("schedlab merge merged.db {}/task-*.db", shell_word(s.dir)));
  return out;
}

TaskResult run_task(const std::string& dir) {
  const Submission s = Submission::load(fs::absolute(dir).lexically_normal().string());
  const char* index = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* nodelist = std::getenv("SLURM_JOB_NODELIST");
  if (!index || !nodelist)
    throw SlurmError("not inside a Slurm array task (no SLURM_ARRAY_TASK_ID)");
  const int task = std::stoi(index);
  std::vector<Node> nodes;
  std::vector<std::string> names;
  for (const auto& n : expand_hostlist(nodelist)) {
    nodes.push_back({n, node_address(n)});
    names.push_back(n);
  }
  write_whole_file(nodes_file(s, task), fmt::format("{}\n", fmt::join(names, ",")));
  Config config = task_config(s, read_file(s.config_file()));
  std::vector<std::string> where = {"slurm"};  // the manifest member of this task
  if (places_on_nodes(s, config)) {
    const PairConfig pair = task_pair(config, nodes);
    config.pairs = {pair};
    where = {"pairs", pair.name, "slurm"};
  }
  fmt::print(stderr, "{}", task_header(s, task, config, names));

  TaskResult out;
  Store store(s.task_db(task));
  out.db = store.path();
  ExecOptions exec;
  exec.name = s.name;
  if (const auto run = store.runs_table().find_run_by_name(s.name)) {
    if (run->status == RunStatus::kFinished) {
      out.already_finished = true;
      out.summary.run_id = run->id;
      out.summary.name = run->name;
      return out;
    }
    exec.resume_run = run->id;
  }
  const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
  const RunShape shape = RunShape::one_run(config, {});
  out.summary = run_kernel(store, shape, shape.kernels.front(), exec);
  store.runs_table().set_manifest_member(
      out.summary.run_id, where,
      nlohmann::json{{"job", job ? job : ""}, {"task", task}, {"nodes", names}}.dump());
  return out;
}

}  // namespace schedlab::slurm
