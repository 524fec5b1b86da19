#include "runner/slurm/nightly_jobs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <filesystem>
#include <memory>
#include <vector>

#include "runner/hosts/interrupt.h"
#include "runner/slurm/array_job.h"

namespace schedlab::slurm {
namespace {

// "nightly n base pingpong #3" -> "nightly-n-base-pingpong-3": a directory name.
std::string directory_name(const std::string& run_name) {
  std::string out;
  for (char c : run_name) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_';
    if (plain)
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "run" : out;
}

}  // namespace

RemoteMeasure nightly_jobs(const NightlySlurmSettings& settings) {
  auto submissions = std::make_shared<std::vector<Submission>>();
  RemoteMeasure r;
  r.start = [settings, submissions](const Config& config, const NightlyTarget& target,
                                    const std::string& run_name) {
    const std::string dir =
        (std::filesystem::absolute(settings.results) / directory_name(run_name)).string();
    if (std::filesystem::exists(dir + "/submission.json")) {
      // An earlier invocation submitted it: wait for what is queued,
      // resubmit what stopped unfinished.
      Submission s = Submission::load(dir);
      for (const auto& again : resume(s))
        settings.note(fmt::format("{}: resubmitted as job {}", run_name, again.job));
      submissions->push_back(s);
      return;
    }
    Submission s = plan_submission(config, {.config_path = config.path,
                                            .name = run_name,
                                            .results = dir,
                                            .pairs = 1,
                                            .partition = settings.partition,
                                            .time_limit = settings.time_limit,
                                            .lab_kernel = target.lab_kernel,
                                            .target_sut = target.sut});
    const std::string job = submit(s, config.text);
    settings.note(fmt::format("{}: job {}, {}", run_name, job, s.dir));
    submissions->push_back(s);
  };
  r.collect = [settings, submissions](Store& store) {
    std::map<std::string, std::string> errors;
    for (const auto& s : *submissions) {
      if (!wait_for(s, [] { return !interrupted(); })) return errors;  // the rest stays queued
      const TaskRun t = task_run(s, 0);
      if (!t.exists) {
        errors[s.name] = fmt::format("the Slurm task stored no run ({}; see {}/slurm/)",
                                     ended_how(s, 0), s.dir);
        continue;
      }
      try {
        const auto c = store.merge_from(s.task_db(0));
        settings.note(fmt::format("{}: {} iteration(s) merged from {}", s.name, c.iterations_new,
                                  s.task_db(0)));
      } catch (const StoreError& e) {
        errors[s.name] = e.what();
      }
    }
    return errors;
  };
  return r;
}

}  // namespace schedlab::slurm
