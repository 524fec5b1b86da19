// schedlab slurm submit|status|cancel (and task, what each array task runs):
// one config's pair run as a Slurm job array, a pair per task on nodes the
// scheduler allocates (runner/slurm/submission.h for the files).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/file.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/run/executor.h"
#include "runner/run/interrupt.h"
#include "runner/run/plan.h"
#include "runner/run/run_shape.h"
#include "runner/run/session.h"
#include "runner/slurm/slurm_tools.h"
#include "runner/slurm/submission.h"

namespace schedlab::cli {
namespace {

namespace fs = std::filesystem;
using slurm::SlurmError;
using slurm::Submission;

struct SubmitOptions {
  std::string config;
  std::string partition;
  int pairs = 1;
  std::string time;
  std::string results;
  std::string name;
  std::string resume;  // a results dir or job id: resubmit its unfinished tasks
  bool dry_run = false;
};

// The binary the tasks exec: this one, by its absolute path.
std::string own_binary() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw SlurmError("cannot find the schedlab binary (/proc/self/exe)");
  return self.string();
}

std::string nodes_file(const Submission& s, int task) {
  return fmt::format("{}/slurm/task-{}.nodes", s.dir, task);
}

// What one task's database says: its run's state, its measured iterations.
struct TaskRun {
  bool exists = false;
  RunStatus status = RunStatus::kRunning;
  std::int64_t ok = 0;
  std::string error;  // the database could not be read
};

TaskRun task_run(const Submission& s, int task) {
  TaskRun t;
  if (!fs::exists(s.task_db(task))) return t;
  try {
    Store store(s.task_db(task), Store::Access::kReadOnly);
    const auto run = store.find_run_by_name(s.name);
    if (!run) return t;
    t.exists = true;
    t.status = run->status;
    const auto ov = store.run_overviews();
    if (const auto it = ov.find(run->id); it != ov.end()) t.ok = it->second.iterations_ok;
  } catch (const std::exception& e) {
    t.error = e.what();
  }
  return t;
}

// Array tasks of the submission's jobs still queued or running.
std::map<int, slurm::QueuedTask> queued(const Submission& s) {
  std::map<int, slurm::QueuedTask> out;
  for (const auto& job : s.jobs)
    for (const auto& q : slurm::squeue(job)) {
      if (q.task >= 0) {
        out[q.task] = q;
        continue;
      }
      // A pending rest shown as one line: "0-3", "1,3", "0-3%2".
      std::string range = q.range.substr(0, q.range.find('%'));
      std::erase(range, '[');
      std::erase(range, ']');
      std::istringstream parts(range);
      for (std::string part; std::getline(parts, part, ',');) {
        const auto dash = part.find('-');
        try {
          const int a = std::stoi(part.substr(0, dash));
          const int b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
          for (int i = a; i <= b && i < s.pairs; ++i) out[i] = q;
        } catch (const std::exception&) {
        }
      }
    }
  return out;
}

// How a task that left the queue ended: sacct's state where the cluster
// keeps accounting, else the last line slurmstepd wrote to the task's
// output ("*** JOB 12 ON n1 CANCELLED AT ..."); "ended" when neither says
// (finished, or failed: the run's status tells).
std::string ended_how(const Submission& s, int task) {
  for (auto job = s.jobs.rbegin(); job != s.jobs.rend(); ++job) {
    if (const auto states = slurm::sacct_states(*job); states.count(task)) return states.at(task);
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

int submit_new(const SubmitOptions& o) {
  Config config = load_config_file(o.config);
  if (const auto why = slurm::unsupported(config); !why.empty())
    throw std::invalid_argument(fmt::format("{}: {}", o.config, why));
  if (is_multi_kernel(config))
    throw std::invalid_argument(fmt::format(
        "{}: lists several kernels; submit one config per kernel", o.config));
  expand_plan(config, {});  // every error a run would find, before anything is written
  if (o.pairs < 1 || o.pairs > 10000)
    throw std::invalid_argument(fmt::format("--pairs {}: give 1 to 10000", o.pairs));

  Submission s;
  s.name = o.name.empty() ? default_run_name(o.config) : o.name;
  s.config_path = fs::absolute(o.config).lexically_normal().string();
  s.pairs = o.pairs;
  s.nodes_per_task = slurm::nodes_per_task(config);
  s.partition = o.partition;
  s.time_limit = o.time;
  s.schedlab = own_binary();
  s.dir = fs::absolute(o.results.empty() ? s.name : o.results).lexically_normal().string();
  const std::string tasks = fmt::format("0-{}", s.pairs - 1);

  if (o.dry_run) {
    fmt::print("# {}\n{}", s.script_file(), slurm::task_script(s));
    std::vector<std::string> words = {"sbatch", "--parsable"};
    for (const auto& a : slurm::sbatch_args(s, tasks)) words.push_back(a);
    std::vector<std::string> quoted;
    for (const auto& w : words) quoted.push_back(shell_word(w));
    fmt::print("# submitted as:\n{}\n", fmt::join(quoted, " "));
    fmt::print("# {} task(s), each one pair on {} node(s), run '{}' into {}/task-N.db\n", s.pairs,
               s.nodes_per_task, s.name, s.dir);
    return kOk;
  }

  slurm::tool("sbatch");
  slurm::Partition partition;
  try {
    partition = slurm::find_partition(o.partition);
  } catch (const SlurmError& e) {
    if (std::string(e.what()).find("failed (") != std::string::npos) throw;  // scontrol itself
    throw std::invalid_argument(e.what());
  }
  const int need = s.pairs * s.nodes_per_task;
  if (need > partition.nodes)
    throw std::invalid_argument(fmt::format(
        "{} pair(s) of {} node(s) need {} nodes; partition '{}' has {}", s.pairs,
        s.nodes_per_task, need, partition.name, partition.nodes));
  s.partition = partition.name;
  if (fs::exists(s.record_file()))
    throw std::invalid_argument(fmt::format(
        "{} already holds a submission: resume it (schedlab slurm submit --resume {}) or give "
        "another --results",
        s.dir, s.dir));
  fs::create_directories(s.dir + "/slurm");
  write_whole_file(s.config_file(), config.text);
  write_whole_file(s.script_file(), slurm::task_script(s));
  ::chmod(s.script_file().c_str(), 0755);
  s.save();  // before sbatch: a task may start before sbatch returns
  const std::string job = slurm::sbatch(slurm::sbatch_args(s, tasks));
  s.jobs.push_back(job);
  s.save();
  slurm::remember_job(job, s.dir);
  fmt::print("{}\n", job);
  fmt::print(stderr,
             "submitted job {}: {} task(s) of run '{}' on partition {}, into {}\n"
             "  schedlab slurm status {}\n"
             "  then: schedlab merge merged.db {}/task-*.db\n",
             job, s.pairs, s.name, s.partition, s.dir, job, s.dir);
  return kOk;
}

// Resubmits the tasks that are neither queued nor finished, each on the
// nodes it ran on (its knobs' journal names those hosts).
int submit_resume(const SubmitOptions& o) {
  Submission s = Submission::load(slurm::submission_dir(o.resume));
  if (!o.time.empty()) s.time_limit = o.time;
  const auto in_queue = queued(s);
  std::map<std::string, std::vector<int>> by_nodes;  // "" : never started
  for (int t = 0; t < s.pairs; ++t) {
    if (in_queue.count(t)) continue;
    const TaskRun r = task_run(s, t);
    if (r.exists && r.status == RunStatus::kFinished) continue;
    std::string nodes;
    try {
      nodes = std::string(trim(read_file(nodes_file(s, t), 4096)));
    } catch (const FileError&) {
    }
    by_nodes[nodes].push_back(t);
  }
  if (by_nodes.empty()) {
    fmt::print(stderr, "{}: every task is finished or still queued; nothing to resume\n", s.dir);
    return kOk;
  }
  for (const auto& [nodes, tasks] : by_nodes) {
    const std::string job =
        slurm::sbatch(slurm::sbatch_args(s, fmt::format("{}", fmt::join(tasks, ",")), nodes));
    s.jobs.push_back(job);
    s.save();
    slurm::remember_job(job, s.dir);
    fmt::print("{}\n", job);
    fmt::print(stderr, "resubmitted task(s) {} as job {}{}\n", fmt::join(tasks, ","), job,
               nodes.empty() ? "" : " on " + nodes);
  }
  return kOk;
}

int submit_command(const SubmitOptions& o) {
  return guarded<ConfigError, std::invalid_argument>({"schedlab slurm submit"}, [&]() -> int {
    if (o.resume.empty() == o.config.empty())
      throw std::invalid_argument("give either CONFIG or --resume DIR|JOB");
    return o.resume.empty() ? submit_new(o) : submit_resume(o);
  });
}

// The array task: this allocation's nodes become the config's one pair.
int task_command(const std::string& dir) {
  return guarded<ConfigError>({"schedlab slurm task"}, [&]() -> int {
    const Submission s = Submission::load(fs::absolute(dir).lexically_normal().string());
    const char* index = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* nodelist = std::getenv("SLURM_JOB_NODELIST");
    if (!index || !nodelist)
      throw SlurmError("not inside a Slurm array task (no SLURM_ARRAY_TASK_ID)");
    const int task = std::stoi(index);
    std::vector<slurm::Node> nodes;
    for (const auto& n : slurm::expand_hostlist(nodelist))
      nodes.push_back({n, slurm::node_address(n)});
    Config config = parse_config(read_file(s.config_file()), s.config_path);
    const PairConfig pair = slurm::task_pair(config, nodes);
    config.pairs = {pair};
    std::vector<std::string> names;
    for (const auto& n : nodes) names.push_back(n.name);
    write_whole_file(nodes_file(s, task), fmt::format("{}\n", fmt::join(names, ",")));
    fmt::print(stderr, "schedlab slurm task {} of {}: pair {} (sut {}, loadgen {})\n", task,
               s.name, pair.name, pair.sut, pair.loadgen);

    Store store(s.task_db(task));
    ExecOptions exec;
    exec.name = s.name;
    if (const auto run = store.find_run_by_name(s.name)) {
      if (run->status == RunStatus::kFinished) {
        fmt::print(stderr, "run '{}' is already finished in {}\n", s.name, store.path());
        return kOk;
      }
      exec.resume_run = run->id;
    }
    const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
    const RunShape shape = RunShape::one_run(config, {});
    install_interrupt_handlers();
    const RunSummary r = run_kernel(store, shape, shape.kernels.front(), exec);
    store.set_manifest_member(
        r.run_id, {"pairs", pair.name, "slurm"},
        nlohmann::json{{"job", job ? job : ""}, {"task", task}, {"nodes", names}}.dump());
    return report_run(r, store.path(), fmt::format("schedlab slurm submit --resume {}", s.dir));
  });
}

int status_command(const std::string& arg) {
  return guarded<std::invalid_argument>({"schedlab slurm status"}, [&]() -> int {
    const Submission s = Submission::load(slurm::submission_dir(arg));
    const auto in_queue = queued(s);
    fmt::print("run '{}': {} task(s), {} node(s) each, partition {}, job(s) {}\n", s.name, s.pairs,
               s.nodes_per_task, s.partition, fmt::join(s.jobs, " "));
    fmt::print("{:>4}  {:<12} {:<12} {:<12} {:>5}  {}\n", "task", "slurm", "nodes", "run", "ok",
               "database");
    int unfinished = 0;
    for (int t = 0; t < s.pairs; ++t) {
      const TaskRun r = task_run(s, t);
      const auto q = in_queue.find(t);
      std::string state = q != in_queue.end() ? q->second.state : ended_how(s, t);
      std::string nodes = q != in_queue.end() ? q->second.nodes : "";
      if (nodes.empty()) {
        try {
          nodes = std::string(trim(read_file(nodes_file(s, t), 4096)));
        } catch (const FileError&) {
        }
      }
      // Running in the database but out of the queue: nobody runs it now.
      RunStatus shown = r.status;
      if (r.exists && shown == RunStatus::kRunning && q == in_queue.end())
        shown = RunStatus::kInterrupted;
      const std::string run =
          !r.error.empty() ? "unreadable" : r.exists ? std::string(to_string(shown)) : "-";
      if (q == in_queue.end() && !(r.exists && shown == RunStatus::kFinished)) ++unfinished;
      fmt::print("{:>4}  {:<12} {:<12} {:<12} {:>5}  {}\n", t, state, nodes.empty() ? "-" : nodes,
                 run, r.ok, s.task_db(t));
      if (!r.error.empty()) fmt::print("      {}\n", r.error);
    }
    if (unfinished)
      fmt::print("{} task(s) neither queued nor finished: schedlab slurm submit --resume {}\n",
                 unfinished, s.dir);
    else if (in_queue.empty())
      fmt::print("every task finished: schedlab merge merged.db {}/task-*.db\n", s.dir);
    return kOk;
  });
}

int cancel_command(const std::string& arg) {
  return guarded<std::invalid_argument>({"schedlab slurm cancel"}, [&]() -> int {
    const Submission s = Submission::load(slurm::submission_dir(arg));
    std::set<std::string> jobs;
    for (const auto& job : s.jobs)
      if (!slurm::squeue(job).empty()) jobs.insert(job);
    for (const auto& job : jobs) slurm::scancel(job);
    fmt::print(stderr,
               "{} job(s) cancelled{}: running tasks restore their knobs and keep their "
               "iterations; resume with: schedlab slurm submit --resume {}\n",
               jobs.size(), jobs.empty() ? "" : fmt::format(" ({})", fmt::join(jobs, " ")), s.dir);
    return kOk;
  });
}

}  // namespace

void register_slurm(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("slurm", "run a config's pairs as a Slurm job array");
  cmd->require_subcommand(1);

  auto o = std::make_shared<SubmitOptions>();
  auto* submit = cmd->add_subcommand(
      "submit", "submit one array task per pair (--exclusive nodes: SUT, then loadgen)");
  submit->add_option("config", o->config, "experiment file (YAML) with hosts: (one pair)");
  submit->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)");
  submit->add_option("--pairs", o->pairs, "array tasks, one pair each (default 1)");
  submit->add_option("--time", o->time, "sbatch --time limit per task");
  submit->add_option("--results", o->results, "results directory (default: ./NAME)");
  submit->add_option("--name", o->name, "run name (default: config name and UTC time)");
  submit->add_option("--resume", o->resume,
                     "resubmit the unfinished tasks of a submission (its directory or job id)");
  submit->add_flag("--dry-run", o->dry_run, "print the batch script and sbatch line; submit nothing");
  submit->callback([o, &exit_code] { exit_code = submit_command(*o); });

  auto dir = std::make_shared<std::string>();
  auto* task = cmd->add_subcommand("task", "run this array task's pair (what the batch script runs)");
  task->add_option("dir", *dir, "results directory")->required();
  task->callback([dir, &exit_code] { exit_code = task_command(*dir); });

  auto job = std::make_shared<std::string>();
  auto* status = cmd->add_subcommand("status", "each task's Slurm state and run");
  status->add_option("job", *job, "job id or results directory")->required();
  status->callback([job, &exit_code] { exit_code = status_command(*job); });

  auto cjob = std::make_shared<std::string>();
  auto* cancel = cmd->add_subcommand("cancel", "scancel the submission's queued and running tasks");
  cancel->add_option("job", *cjob, "job id or results directory")->required();
  cancel->callback([cjob, &exit_code] { exit_code = cancel_command(*cjob); });
}

}  // namespace schedlab::cli
