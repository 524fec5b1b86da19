#include <fmt/format.h>

#include "base/message.h"
#include "base/placeholders.h"
#include "results/bisect_log.h"
#include "results/runs_table.h"
#include "runner/bisect/bisect_driver.h"
#include "runner/bisect/bisect_git.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/kernel_build.h"
#include "runner/nightly/hook.h"
#include "runner/run/executor.h"
#include "runner/run/session.h"

namespace schedlab {

// Checks out the commit (git mode) and runs the hook; the failure's
// description, or nothing when it went well. Throws BisectError on an
// interrupt.
std::optional<std::string> BisectDriver::prepare(std::size_t pos) {
  const std::string& c = spec_.candidates[pos];
  if (builds_itself()) return build(pos);
  if (spec_.mode == "git") {
    checkout_detached(spec_.repo, c);
  }
  if (spec_.hook_argv.empty()) return std::nullopt;
  const Hook hook{.argv = spec_.hook_argv, .cwd = spec_.hook_cwd, .timeout = spec_.hook_timeout};
  const HookValues values =
      spec_.mode == "git" ? HookValues{{"commit", c}} : HookValues{{"kernel", c}};
  const Config config = parse_config(spec_.config_text, spec_.config_path);
  std::optional<std::string> before_boot;
  const bool ssh_sut = config.sut.starts_with("ssh://");
  if (spec_.hook_reboots && ssh_sut) {
    const auto host =
        wait_for_ssh(config.sut, config.ssh,
                     {.deadline = std::chrono::steady_clock::now() + spec_.reboot_timeout});
    before_boot = boot_id(*host);
  }
  print_message(fmt::format("schedlab bisect: hook for {}\n", spec_.labels[pos]));
  const HookResult h = run_hook(hook, values);
  if (h.exec.outcome == ExecResult::Outcome::kInterrupted) throw BisectInterrupted{};
  if (!h.ok()) return h.describe();
  if (ssh_sut && (spec_.hook_reboots || !spec_.uname.empty())) {
    try {
      const auto host =
          wait_for_ssh(config.sut, config.ssh,
                       {.deadline = std::chrono::steady_clock::now() + spec_.reboot_timeout,
                        .not_boot_id = before_boot});
      if (!spec_.uname.empty()) verify_kernel(*host, {.release = substitute(spec_.uname, values)});
    } catch (const HookError& e) {
      return std::string(e.what());
    }
  }
  return std::nullopt;
}

// git mode with no hook: each commit is built as a lab kernel
// (git:REPO@COMMIT, kernel_build.h) in the lab cache's persistent build
// directory, so the user's tree is never checked out and consecutive
// candidates rebuild incrementally.
bool BisectDriver::builds_itself() const {
  return spec_.mode == "git" && spec_.hook_argv.empty();
}

std::string BisectDriver::lab_kernel(std::size_t pos) const {
  return "git:" + spec_.repo + "@" + spec_.candidates[pos];
}

// Builds the candidate (or finds it built); a failed build is the
// failure's description (the candidate is skipped, like git bisect skip).
std::optional<std::string> BisectDriver::build(std::size_t pos) {
  const Config config = parse_config(spec_.config_text, spec_.config_path);
  const LabConfig& lab = *config.sut_lab;
  print_message(fmt::format("schedlab bisect: building {}\n", spec_.labels[pos]));
  LocalHost local;
  try {
    lab::build_kernel(
        lab_kernel(pos),
        {.fragments = lab.config_fragments, .symbols = lab.config, .board = lab.board},
        lab::LabPaths::from_env(), local, print_line);
  } catch (const lab::KernelBuildFailed& e) {
    if (interrupted()) throw BisectInterrupted{};
    return fmt::format("build failed: {}", e.what());
  }
  return std::nullopt;
}

// Runs `name` on the kernel of candidate `which` (resuming the run when
// an earlier invocation was interrupted in it). False when interrupted.
bool BisectDriver::run_batch(std::size_t which, const std::string& name) {
  Config config = parse_config(spec_.config_text, spec_.config_path);
  if (spec_.mode == "kernels" && config.sut_lab) config.sut_lab->kernel = spec_.candidates[which];
  if (builds_itself()) config.sut_lab->kernel = lab_kernel(which);
  ExecOptions exec;
  exec.name = name;
  exec.progress = options_.progress ? ProgressStyle::kLine : ProgressStyle::kNone;
  if (const auto r = store_.runs_table().find_run_by_name(exec.name)) {
    exec.resume_run = r->id;
    print_message(fmt::format("schedlab bisect: resuming run {} '{}'\n", r->id, r->name));
  }
  const RunSummary s = run_config(store_, config, exec);
  for (const auto& e : s.errors) print_message(fmt::format("schedlab: {}\n", e));
  if (s.status == RunStatus::kInterrupted) return false;
  if (s.status != RunStatus::kFinished)
    throw BisectError(fmt::format("run {} '{}' {}", s.run_id, s.name, to_string(s.status)));
  return true;
}

bool BisectDriver::run_batch(std::size_t pos, std::size_t batch) {
  return run_batch(pos, run_name(pos, batch));
}

// One more batch of a reference (its hook first). Nothing on success;
// the outcome to return otherwise. A reference whose hook fails is an
// error: there is nothing to bisect against.
std::optional<BisectOutcome> BisectDriver::reference_batch(std::size_t pos) {
  const char* which = pos == 0 ? "good" : "bad";
  print_message(
      fmt::format("schedlab bisect: measuring the {} reference {}\n", which, spec_.labels[pos]));
  try {
    if (const auto failure = prepare(pos))
      throw BisectError(fmt::format("the {} reference {}: {}", which, spec_.labels[pos], *failure));
    if (!run_batch(pos, finished_runs(pos).size() + 1)) return BisectOutcome::kInterrupted;
  } catch (const BisectInterrupted&) {
    return BisectOutcome::kInterrupted;
  }
  if (samples(pos).size() < 2)
    throw BisectError(fmt::format("the {} reference {} gave {} samples of metric '{}' (need 2)",
                                  which, spec_.labels[pos], samples(pos).size(), spec_.metric));
  return std::nullopt;
}

void BisectDriver::record_reference(std::size_t pos) {
  const auto x = samples(pos);
  store_.bisect_log().add_bisect_decision({.session_id = id_,
                                           .position = static_cast<int>(pos),
                                           .candidate = spec_.candidates[pos],
                                           .verdict = pos == 0 ? "REF-GOOD" : "REF-BAD",
                                           .decided_by = "reference",
                                           .n = static_cast<int>(x.size()),
                                           .centre = centre_of(x, verdict_.centre),
                                           .run_ids_json = runs_json(pos)});
}

}  // namespace schedlab
