// schedlab slurm submit|status|cancel (and task, what each array task runs):
// one config's pair run as a Slurm job array, a pair per task on nodes the
// scheduler allocates (runner/slurm/submission.h for the files).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "base/shell_quote.h"
#include "runner/cli/command_doc.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "runner/cli/common.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/executor.h"
#include "runner/slurm/array_job.h"

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

int submit_new(const SubmitOptions& o) {
  const Config config = load_config_file(o.config);
  const std::string name = o.name.empty() ? default_run_name(o.config) : o.name;
  if (const auto problem = run_name_problem(name))
    throw std::invalid_argument(fmt::format("run name '{}': {}; give another --name",
                                            terminal_safe(excerpt(name)), *problem));
  Submission s = slurm::plan_submission(config, {.config_path = o.config,
                                                 .name = name,
                                                 .results = o.results,
                                                 .pairs = o.pairs,
                                                 .partition = o.partition,
                                                 .time_limit = o.time});
  if (o.dry_run) {
    fmt::print("# {}\n{}", s.script_file(), slurm::task_script(s));
    std::vector<std::string> words = {"sbatch", "--parsable"};
    for (const auto& a : slurm::sbatch_args(s, fmt::format("0-{}", s.pairs - 1))) words.push_back(a);
    std::vector<std::string> quoted;
    for (const auto& w : words) quoted.push_back(shell_word(w));
    fmt::print("# submitted as:\n{}\n", fmt::join(quoted, " "));
    fmt::print("# {} task(s), each one pair on {} node(s), run '{}' into {}/task-N.db\n", s.pairs,
               s.nodes_per_task, s.name, s.dir);
    return kOk;
  }
  const std::string job = slurm::submit(s, config.text);
  fmt::print("{}\n", job);
  print_message(fmt::format("submitted job {}: {} task(s) of run '{}' on partition {}, into {}\n",
                            job, s.pairs, s.name, s.partition, s.dir));
  // The next commands, to paste: whole, each on a line of its own.
  fmt::print(stderr, "  schedlab slurm status {}\n  then: schedlab merge merged.db {}/task-*.db\n",
             job, s.dir);
  return kOk;
}

// Resubmits the tasks that are neither queued nor finished, each on the
// nodes it ran on (its knobs' journal names those hosts).
int submit_resume(const SubmitOptions& o) {
  Submission s = Submission::load(slurm::submission_dir(o.resume));
  if (!o.time.empty()) s.time_limit = o.time;
  const auto again = slurm::resume(s);
  if (again.empty())
    print_message(
        fmt::format("{}: every task is finished or still queued; nothing to resume\n", s.dir));
  for (const auto& r : again) {
    fmt::print("{}\n", r.job);
    print_message(fmt::format("resubmitted task(s) {} as job {}{}\n", fmt::join(r.tasks, ","),
                              r.job, r.nodes.empty() ? "" : " on " + r.nodes));
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
    install_interrupt_handlers();
    const slurm::TaskResult r = slurm::run_task(dir);
    if (r.already_finished) {
      print_message(fmt::format("run '{}' is already finished in {}\n", r.summary.name, r.db));
      return kOk;
    }
    return report_run(r.summary, r.db, fmt::format("schedlab slurm submit --resume {}", dir));
  });
}

int status_command(const std::string& arg) {
  return guarded<std::invalid_argument>({"schedlab slurm status"}, [&]() -> int {
    const Submission s = Submission::load(slurm::submission_dir(arg));
    fmt::print("{}", slurm::status_text(s, slurm::queued(s)));
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
    print_with_command(
        fmt::format("{} job(s) cancelled{}: running tasks restore their knobs and keep their "
                    "iterations; resume with:",
                    jobs.size(), jobs.empty() ? "" : fmt::format(" ({})", fmt::join(jobs, " "))),
        "schedlab slurm submit --resume " + shell_word(s.dir));
    return kOk;
  });
}

}  // namespace

void register_slurm(CLI::App& app, int& exit_code) {
  auto* cmd = add_command(
      app, "slurm", "run a config's pairs as a Slurm job array",
      {"Runs a config's SUT/loadgen pairs as a Slurm job array: each task runs its pair into "
       "its own database, merged afterwards; status and cancel follow the submission.",
       {{"schedlab slurm submit c.yaml --pairs 4 --partition bench", "four pairs at once"},
        {"schedlab slurm status 12345", "each task's state and run"}}});
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
