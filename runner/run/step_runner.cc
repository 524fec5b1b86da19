#include "runner/run/step_runner.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "base/text.h"
#include "runner/hosts/interrupt.h"
#include "runner/run/leftovers.h"

namespace schedlab {
namespace {

PhaseStatus status_of(const ExecResult& r) {
  switch (r.outcome) {
    case ExecResult::Outcome::kTimedOut:
      return PhaseStatus::kTimeout;
    case ExecResult::Outcome::kSpawnFailed:
      return PhaseStatus::kSpawnError;
    case ExecResult::Outcome::kInterrupted:
      return PhaseStatus::kInterrupted;
    default:
      return PhaseStatus::kFailed;
  }
}

}  // namespace

StepRunner::~StepRunner() { stop_background(); }

void StepRunner::stop_background() {
  while (!servers_.empty()) {
    const Server s = servers_.back();
    servers_.pop_back();
    try {
      s.host->stop_background(s.id);
    } catch (const std::exception&) {
      // Already gone; nothing left to stop.
    }
    forget(s.entry);
  }
}

void StepRunner::forget(std::int64_t entry) noexcept {
  if (!journal_ || !entry) return;
  try {
    journal_->journal_restored(entry);
  } catch (...) {
    // Still journaled: its group is killed later only while its leader is
    // the one journaled or a process of it carries its mark (leftovers.h).
  }
}

PhaseResult StepRunner::start_server(const Step& step, const Command& cmd) {
  PhaseResult r;
  Host& host = pair_.host(step.role);
  // A listener already there is not ours: measuring against it would
  // measure someone else's server (a leftover of a killed run, say).
  if (step.ready && step.ready->tcp_port > 0 && host.port_accepts(step.ready->tcp_port))
    return {.status = PhaseStatus::kNotReady,
            .error = fmt::format("{}: port {} on {} already has a listener schedlab did not "
                                 "start; not measuring against it ('schedlab restore' stops "
                                 "servers of a run that died)",
                                 step.argv[0], step.ready->tcp_port, host.name())};
  Host::BackgroundId id;
  try {
    id = host.start_background(cmd);
  } catch (const HostError& e) {
    return {.status = PhaseStatus::kSpawnError,
            .error = fmt::format("{}: could not start: {}", step.argv[0], e.what())};
  }
  servers_.push_back({&host, id, step.argv[0]});
  std::optional<int> pgid;
  try {
    pgid = host.background_pgid(id);
    if (journal_ && pgid)
      servers_.back().entry = journal_process_group(*journal_, host, run_id_, *pgid, step.argv[0],
                                                    cmd.env.at(kGroupMarkVariable));
  } catch (const std::exception&) {
    // Unjournaled: it still dies with schedlab (PDEATHSIG, the SSH wrapper).
  }
  groups_.push_back({&host, pgid, step.argv[0], true});
  if (on_group_ && pgid) on_group_(groups_.back());
  if (!step.ready) return r;
  const ReadyCheck& check = *step.ready;
  const std::string what = check.what.empty() ? step.argv[0] : check.what;
  const auto deadline = std::chrono::steady_clock::now() + check.timeout;
  auto nap = std::chrono::milliseconds(10);
  while (true) {
    if (auto exited = host.poll_background(id)) {
      forget(servers_.back().entry);
      servers_.pop_back();
      return {.status = PhaseStatus::kNotReady,
              .error = fmt::format("{} exited before it was ready ({}): {}", step.argv[0],
                                   exited->describe(), last_lines(exited->err + exited->out, 3))};
    }
    bool ready = false;
    if (check.tcp_port > 0) {
      ready = host.port_accepts(check.tcp_port);
    } else if (!check.argv.empty()) {
      ready = host.run({.argv = check.argv, .timeout = std::chrono::seconds(10)}).ok();
    }
    if (ready) return r;
    if (cmd.interruptible && interrupted())
      return {.status = PhaseStatus::kInterrupted, .error = "interrupted"};
    if (std::chrono::steady_clock::now() >= deadline) {
      const ExecResult out = host.stop_background(id);
      forget(servers_.back().entry);
      servers_.pop_back();
      return {
          .status = PhaseStatus::kNotReady,
          .error = fmt::format("{}: not ready after {:.0f}s (readiness check: {}); its last "
                               "output: {}",
                               step.argv[0], std::chrono::duration<double>(check.timeout).count(),
                               what, last_lines(out.err + out.out, 3))};
    }
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::chrono::milliseconds(200));
  }
}

PhaseResult StepRunner::run(const std::vector<Step>& steps, const ProcessKnobs& knobs,
                            bool interruptible) {
  PhaseResult phase;
  for (const Step& step : steps) {
    Command cmd{.argv = step.argv,
                .env = step.env,
                .cwd = step.cwd,
                .timeout = step.timeout,
                .stdin_data = step.stdin_data,
                .interruptible = interruptible};
    // Every process the step starts carries its group's mark: restore
    // kills a group whose leader is gone only while one does (leftovers.h).
    const std::string mark = new_group_mark();
    cmd.env[kGroupMarkVariable] = mark;
    // Servers get theirs at spawn: every thread they create inherits it.
    if (step.background)
      cmd.policy = knobs.server_policy;
    else if (step.measured)
      cmd.policy = knobs.policy;
    if (step.background)
      cmd.cpus = knobs.server_cpus;
    else if (step.measured)
      cmd.cpus = knobs.client_cpus;
    if (step.background) {
      PhaseResult started = start_server(step, cmd);
      if (!started.ok()) return started;
      continue;
    }
    Host& host = pair_.host(step.role);
    std::int64_t entry = 0;  // the group's journal entry while it runs
    const std::size_t group = groups_.size();
    if (step.measured) groups_.push_back({&host, std::nullopt, step.argv[0], false});
    // Over SSH the remote group costs round trips: asked for only where the
    // policy check judges it (a stranger's process may share the name).
    cmd.remote_group = step.measured && knobs.claims_policy();
    cmd.on_start = [&, group](int pgid) {
      if (step.measured) {
        groups_[group].pgid = pgid;
        if (on_group_) on_group_(groups_[group]);
      }
      if (!journal_) return;
      try {
        entry = journal_process_group(*journal_, host, run_id_, pgid, step.argv[0], mark);
      } catch (const std::exception&) {
        // Unjournaled: its leader still dies with schedlab (PDEATHSIG).
      }
    };
    const ExecResult r = host.run(cmd);
    forget(entry);
    if (step.measured) {
      phase.out += r.out;
      phase.err += r.err;
      if (r.outcome == ExecResult::Outcome::kExited) phase.exit_code = r.exit_code;
    }
    if (r.ok() || step.ignore_failure) continue;
    phase.status = status_of(r);
    phase.error = fmt::format("{}: {}", step.argv[0], r.describe());
    // The tool's own last words say more than an exit code.
    if (const std::string why = last_lines(r.err.empty() ? r.out : r.err, 1); !why.empty())
      phase.error += ": " + why;
    if (!step.measured) {
      // Keep a failing setup step's output: it is the only evidence.
      phase.out += r.out;
      phase.err += r.err;
    }
    return phase;
  }
  return phase;
}

}  // namespace schedlab
