#include "runner/slurm/submission.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "base/json_data.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "runner/hosts/ssh_host.h"
#include "runner/nightly/nightly.h"
#include "runner/slurm/slurm_tools.h"

namespace schedlab::slurm {
namespace {

// The URL of HOST with its machine replaced by ADDRESS: ssh:// keeps its
// user and port; local stays local (the task runs on that node).
std::string on_node(const std::string& host, const std::string& address) {
  if (host == "local") return host;
  auto target = parse_ssh_url(host);
  if (!target) throw SlurmError(fmt::format("cannot place '{}' on a node", host));
  target->host = address;
  return target->url();
}

// Pair names are [A-Za-z0-9_-]; Slurm node names may hold dots.
std::string pair_name(const std::vector<Node>& nodes) {
  std::string name;
  for (const auto& n : nodes) {
    if (!name.empty()) name += '_';
    for (char c : n.name) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '-';
  }
  return name;
}

}  // namespace

std::string Submission::task_db(int task) const { return fmt::format("{}/task-{}.db", dir, task); }

std::string Submission::to_json() const {
  return json_output(nlohmann::json{{"dir", dir},
                                    {"name", name},
                                    {"config_path", config_path},
                                    {"pairs", pairs},
                                    {"nodes_per_task", nodes_per_task},
                                    {"partition", partition},
                                    {"time_limit", time_limit},
                                    {"schedlab", schedlab},
                                    {"lab_kernel", lab_kernel},
                                    {"target_sut", target_sut},
                                    {"jobs", jobs}}) +
         "\n";
}

Submission Submission::load(const std::string& dir) {
  const std::string file = dir + "/submission.json";
  std::string text;
  try {
    text = read_file(file, 1 << 20);
  } catch (const FileError& e) {
    throw SlurmError(fmt::format("{}: no submission record ({}; schedlab slurm submit writes it)",
                                 file, e.reason()));
  }
  try {
    const auto j = nlohmann::json::parse(text);
    Submission s;
    s.dir = dir;
    s.name = j.at("name").get<std::string>();
    s.config_path = j.at("config_path").get<std::string>();
    s.pairs = j.at("pairs").get<int>();
    s.nodes_per_task = j.at("nodes_per_task").get<int>();
    s.partition = j.at("partition").get<std::string>();
    s.time_limit = j.at("time_limit").get<std::string>();
    s.schedlab = j.at("schedlab").get<std::string>();
    s.jobs = j.at("jobs").get<std::vector<std::string>>();
    s.lab_kernel = j.value("lab_kernel", "");
    s.target_sut = j.value("target_sut", "");
    // submit takes 1 to 10000 pairs: status walks every task's database.
    if (s.pairs < 1 || s.pairs > 10000 || s.nodes_per_task < 1 || s.nodes_per_task > 2)
      throw SlurmError("pairs or nodes_per_task out of range");
    // What submit wrote, or a record crafted in a shared results directory:
    // a name or a field that prints an escape sequence, or a job id that
    // squeue and scancel would take for an option ("--user=root"), is
    // refused here, before status prints it or cancel passes it on.
    if (const auto why = name_problem(s.name))
      throw SlurmError(
          fmt::format("its name '{}' cannot name a run: {}", terminal_safe(excerpt(s.name)), *why));
    const std::pair<const char*, const std::string*> fields[] = {{"partition", &s.partition},
                                                                 {"time_limit", &s.time_limit},
                                                                 {"lab_kernel", &s.lab_kernel},
                                                                 {"target_sut", &s.target_sut}};
    for (const auto& [key, field] : fields)
      if (!field->empty() && name_problem(*field))
        throw SlurmError(fmt::format("its {} '{}' holds a control character or is not UTF-8", key,
                                     terminal_safe(excerpt(*field))));
    for (const auto& job : s.jobs)
      if (job.size() > 20 || !all_digits(job))
        throw SlurmError(
            fmt::format("job '{}' is not a Slurm job id", terminal_safe(excerpt(job))));
    return s;
  } catch (const std::exception& e) {
    throw SlurmError(fmt::format("{}: not a submission record: {}", file, e.what()));
  }
}

void Submission::save() const { write_whole_file(record_file(), to_json()); }

std::string unsupported(const Config& config) {
  if (!config.pairs.empty())
    return "the config lists pairs:; under Slurm the allocation decides the pairs: give hosts: "
           "(the SUT and loadgen of one pair, any host names) and --pairs N";
  for (const auto& h : {config.sut, config.loadgen})
    if (h != "local" && !parse_ssh_url(h) && !(h == config.sut && config.sut_lab))
      return fmt::format("host '{}' is neither local, ssh:// nor a lab", h);
  return "";
}

int nodes_per_task(const Config& config) {
  return config.sut_lab || config.loadgen == "local" ? 1 : 2;
}

Config task_config(const Submission& s, const std::string& text) {
  Config config = parse_config(text, s.config_path);
  if (s.lab_kernel.empty() && s.target_sut.empty()) return config;
  NightlyTarget target;
  target.lab_kernel = s.lab_kernel;
  target.sut = s.target_sut;
  return config_for_target(config, target);
}

bool places_on_nodes(const Submission& s, const Config& config) {
  return s.target_sut.empty() && !config.sut_lab;
}

std::string task_script(const Submission& s) {
  // Slurm runs the script with the submitting user's environment; exec
  // makes schedlab the job's process, so scancel's SIGTERM reaches it
  // (knobs restored, the run kept as interrupted).
  return fmt::format(
      "#!/bin/sh\n"
      "# Written by schedlab slurm submit; one array task = one SUT/loadgen pair.\n"
      "exec {} slurm task {}\n",
      shell_quote(s.schedlab), shell_quote(s.dir));
}

std::vector<std::string> sbatch_args(const Submission& s, const std::string& tasks,
                                     const std::string& nodelist) {
  std::vector<std::string> a = {
      "--job-name=schedlab-" + s.name,
      "--array=" + tasks,
      fmt::format("--nodes={}", s.nodes_per_task),
      "--ntasks-per-node=1",
      "--exclusive",  // a pair's machines run nothing else (and two tasks never share one)
      "--output=" + s.dir + "/slurm/task-%a-%A.out",
      "--chdir=" + s.dir,
  };
  if (!s.partition.empty()) a.push_back("--partition=" + s.partition);
  if (!s.time_limit.empty()) a.push_back("--time=" + s.time_limit);
  if (!nodelist.empty()) a.push_back("--nodelist=" + nodelist);
  a.push_back(s.script_file());
  return a;
}

namespace {

std::filesystem::path jobs_dir() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
    return std::filesystem::path(state) / "schedlab/slurm-jobs";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/root") / ".local/state/schedlab/slurm-jobs";
}

}  // namespace

void remember_job(const std::string& job, const std::string& dir) {
  std::filesystem::create_directories(jobs_dir());
  write_whole_file(jobs_dir() / job, dir + "\n");
}

std::string submission_dir(const std::string& arg) {
  if (std::filesystem::exists(std::filesystem::path(arg) / "submission.json"))
    return std::filesystem::absolute(arg).lexically_normal().string();
  if (!arg.empty() && arg.size() < 20 && arg.find_first_not_of("0123456789") == std::string::npos) {
    try {
      return std::string(trim(read_file(jobs_dir() / arg, 4096)));
    } catch (const FileError&) {
    }
  }
  throw SlurmError(fmt::format(
      "'{}' is neither a results directory (with submission.json) nor a job schedlab submitted",
      arg));
}

PairConfig task_pair(const Config& config, const std::vector<Node>& nodes) {
  const int want = nodes_per_task(config);
  if (static_cast<int>(nodes.size()) != want)
    throw SlurmError(fmt::format("this task has {} node(s), its pair needs {}", nodes.size(), want));
  PairConfig p;
  p.name = pair_name(nodes);
  p.sut = on_node(config.sut, nodes[0].address);
  p.loadgen = want == 2 ? on_node(config.loadgen, nodes[1].address) : "local";
  if (want == 2) p.sut_address = nodes[0].address;  // the SUT as the loadgen sees it
  return p;
}

std::string task_header(const Submission& s, int task, const Config& config,
                        const std::vector<std::string>& nodes) {
  if (places_on_nodes(s, config)) {
    const PairConfig& pair = config.pairs.front();
    return wrap_words(fmt::format("schedlab slurm task {} of {}: pair {} (sut {}, loadgen {})",
                                  task, s.name, pair.name, pair.sut, pair.loadgen));
  }
  return wrap_words(fmt::format("schedlab slurm task {} of {} on {}: sut {}", task, s.name,
                                fmt::join(nodes, ","),
                                config.sut_lab ? "lab " + config.sut_lab->kernel : config.sut));
}

}  // namespace schedlab::slurm
