#include "runner/nightly/nightly.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/hash.h"
#include "base/json_data.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/time.h"
#include "results/nightly_log.h"
#include "results/runs_table.h"
#include "runner/config/config.h"
#include "runner/hosts/interrupt.h"
#include "runner/hosts/local_host.h"
#include "runner/lab/host_set.h"
#include "runner/lab/kernel.h"
#include "runner/lab/kernel_build.h"
#include "runner/nightly/hook.h"
#include "runner/run/manifest.h"
#include "runner/run/plan.h"
#include "runner/run/session.h"

namespace schedlab {
namespace {

// Where a target's configs run, to check its kernel after the hook: its own
// ssh:// SUT, else the configs' SUT (the first config's; lab SUTs boot
// their own kernel).
std::string checked_sut(const NightlyTarget& t, const std::vector<Config>& configs) {
  if (!t.sut.empty()) return t.sut;
  return configs.empty() || configs.front().sut_lab ? "" : configs.front().sut;
}

struct Prepared {
  std::string error;  // empty: ready
  std::string hook_output;
};

// The hook, the wait for ssh and the kernel check of one target.
Prepared prepare_target(const NightlyTarget& t, const std::vector<Config>& configs,
                        const NightlyOptions& o) {
  Prepared p;
  const std::string sut = checked_sut(t, configs);
  const SshConfig ssh = configs.empty() ? SshConfig{} : configs.front().ssh;
  const bool remote = sut.starts_with("ssh://");
  try {
    std::optional<std::string> old_boot;
    if (t.reboots && remote) {
      // The boot before the hook, so an SUT that has not gone down yet is
      // not taken for the rebooted one. Unreachable now is fine.
      try {
        auto host = HostSet::connect(sut, ssh);
        old_boot = boot_id(*host);
      } catch (const std::exception& e) {
        o.note(fmt::format("{}: {} not reachable before the hook ({}); waiting for it afterwards",
                           t.name, sut, e.what()));
      }
    }
    if (t.hook) {
      o.note(fmt::format("{}: running hook {}", t.name, fmt::join(t.hook->argv, " ")));
      const HookResult h = run_hook(*t.hook, hook_values(t));
      p.hook_output = h.output();
      if (!h.ok()) {
        p.error = h.describe();
        return p;
      }
    }
    const bool check = !t.expect.release.empty() || !t.expect.sha.empty();
    std::unique_ptr<Host> host;
    if (remote && (t.hook || check)) {
      o.note(fmt::format("{}: waiting for {} to answer on ssh", t.name, sut));
      host = wait_for_ssh(
          sut, ssh,
          {.deadline = std::chrono::steady_clock::now() + t.ssh_timeout, .not_boot_id = old_boot});
    } else if (check && sut == "local") {
      host = std::make_unique<LocalHost>();
    }
    if (check && host) {
      const KernelIdentity id = verify_kernel(*host, t.expect);
      o.note(fmt::format("{}: {} runs {}{}", t.name, host->name(), id.release,
                         id.sha.empty() ? "" : " at " + id.sha));
    }
  } catch (const HookError& e) {
    p.error = e.what();
  } catch (const HostError& e) {
    p.error = e.what();
  }
  return p;
}

std::string kernel_release_of(const Store& store, std::int64_t run_id) {
  const auto run = store.runs_table().find_run(run_id);
  if (!run) return "";
  const auto m = parse_json_data(run->manifest_json);
  return m.is_object() && m.contains("kernel_release") && m["kernel_release"].is_string()
             ? m["kernel_release"].get<std::string>()
             : "";
}

NightlyCell cell_of(const NightlyMeasurement& m, bool new_now, const std::string& repo) {
  return {.target = m.target,
          .config = m.config_path,
          .status = m.status == NightlyStatus::kMeasured ? CellStatus::kMeasured
                    : m.status == NightlyStatus::kFailed ? CellStatus::kFailed
                                                         : CellStatus::kNotMeasured,
          .new_now = new_now,
          .run_id = m.run_id,
          .kernel_release = m.kernel_release,
          .error = m.error,
          .measurement_id = m.id,
          .config_sha256 = m.config_sha256,
          .kernel_repo = m.kernel_commit.empty() ? "" : repo,
          .kernel_commit = m.kernel_commit};
}

// What needs both files: every per_metric key names a metric of a config,
// and lab targets can run each config (the loadgen on this machine).
void check_against_configs(const NightlyConfig& n, const std::vector<Config>& configs) {
  std::vector<std::string> known;
  for (const auto& c : configs)
    for (const auto& wc : c.workloads)
      for (const auto& m : wc.workload->metrics()) {
        known.push_back(wc.workload->name() + "/" + m.name);
        known.push_back(m.name);
      }
  for (const auto& [name, line] : n.per_metric_lines)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw ConfigError(
          n.path, line, "rule.per_metric",
          fmt::format("'{}' is no metric of the configs{} (use workload/metric or metric)", name,
                      did_you_mean(name, known)));
  for (const auto& t : n.targets)
    for (std::size_t i = 0; i < configs.size(); ++i)
      if (!t.lab_kernel.empty() && configs[i].loadgen != "local")
        throw ConfigError(
            n.path, t.line, fmt::format("targets ({})", t.name),
            fmt::format("a lab kernel needs the loadgen on this machine, and {} has loadgen {}",
                        n.configs[i].path, configs[i].loadgen));
}

}  // namespace

ResolvedKernel resolve_lab_kernel(const std::string& lab_kernel) {
  ResolvedKernel r{.lab_kernel = lab_kernel};
  if (!lab::is_git_kernel(lab_kernel)) return r;
  lab::GitKernelSpec g;
  try {
    g = lab::parse_git_kernel(lab_kernel);
  } catch (const lab::UnknownKernel& e) {
    r.error = e.what();
    return r;
  }
  if (g.ref.empty()) return r;  // the work tree as it is: no commit to name
  LocalHost local;
  Command c{.argv = {"git", "-C", g.tree, "rev-parse", "--verify", "--quiet", "--end-of-options",
                     g.ref + "^{commit}"},
            .timeout = std::chrono::minutes(2)};
  c.env["LC_ALL"] = "C";
  ExecResult res;
  try {
    res = local.run(c);
  } catch (const HostError& e) {
    r.error = fmt::format("{}: {}", lab_kernel, e.what());
    return r;
  }
  const std::string sha(trim(res.out));
  if (!res.ok() || sha.empty()) {
    r.error = fmt::format("{}: unknown ref '{}' in {} (git rev-parse found no commit)", lab_kernel,
                          g.ref, g.tree);
    return r;
  }
  r.repo = g.tree;
  r.commit = sha;
  r.lab_kernel = "git:" + g.tree + "@" + sha;
  return r;
}

Config config_for_target(const Config& config, const NightlyTarget& target) {
  Config c = config;
  if (!target.lab_kernel.empty()) {
    LabConfig lab = config.sut_lab.value_or(LabConfig{});
    lab.kernel = target.lab_kernel;
    c.sut_lab = lab;
    c.sut = "lab";
  } else if (!target.sut.empty()) {
    c.sut_lab.reset();
    c.sut = target.sut;
  }
  return c;
}

NightlyRun run_nightly(Store& store, const NightlyConfig& nightly, const NightlyOptions& o) {
  std::vector<Config> configs;
  for (const auto& ref : nightly.configs) configs.push_back(load_config_file(ref.path));
  check_against_configs(nightly, configs);
  // Branches are resolved once, now: every config of a target measures the
  // same commit even if the branch moves while the nightly runs.
  std::vector<ResolvedKernel> kernels;
  for (const auto& t : nightly.targets) {
    kernels.push_back(resolve_lab_kernel(t.lab_kernel));
    const ResolvedKernel& k = kernels.back();
    if (!k.error.empty())
      o.note(fmt::format("{}: not measured: {}", t.name, k.error));
    else if (!k.commit.empty())
      o.note(fmt::format("{}: {} is {}", t.name, t.lab_kernel, k.commit));
  }
  NightlyRun out;
  // Measurements handed to o.remote, settled once collect() returns.
  struct Pending {
    std::size_t cell;
    NightlyMeasurement m;
    std::string run_name;
    std::string repo;
  };
  std::vector<Pending> pending;
  for (std::size_t ti = 0; ti < nightly.targets.size(); ++ti) {
    const ResolvedKernel& kernel = kernels[ti];
    NightlyTarget t = nightly.targets[ti];
    t.lab_kernel = kernel.lab_kernel;
    // The target's preparation failed (or its branch did not resolve): every
    // config fails with it.
    bool prepared = !kernel.error.empty();
    std::string failure = kernel.error;
    std::string hook_output;
    for (std::size_t ci = 0; ci < configs.size(); ++ci) {
      const Config& config = configs[ci];
      const std::string& path = nightly.configs[ci].path;
      if (out.interrupted || interrupted()) {
        out.interrupted = true;
        out.cells.push_back({.target = t.name, .config = path, .status = CellStatus::kNotMeasured});
        continue;
      }
      const std::string sha = sha256_hex(config.text);
      std::optional<NightlyMeasurement> latest;
      if (kernel.error.empty())
        latest = store.nightly_log().latest_nightly_measurement(t.name, sha, kernel.commit);
      if (latest && latest->status == NightlyStatus::kMeasured && !o.force) {
        // Reused only with its run: a run removed since (schedlab rm), or
        // a row naming a run that is not there, did not finish or ran
        // another config (a crafted or merged database), would leave the
        // target out of every comparison and the report saying "No
        // regression", or stand for a config it did not run.
        const auto run =
            latest->run_id ? store.runs_table().find_run(*latest->run_id) : std::nullopt;
        const bool same_config = run && run->config_text == config.text;
        if (run && run->status == RunStatus::kFinished && same_config) {
          // Named as this nightly names the config: the report finds a
          // cell by that path, and one stored as 'c.yaml' is the same
          // config (by its text's sha) as './c.yaml' today.
          NightlyCell cell = cell_of(*latest, false, kernel.repo);
          cell.config = path;
          out.cells.push_back(std::move(cell));
          continue;
        }
        o.note(fmt::format(
            "{} / {}: the measurement of an earlier night names {}; measuring again", t.name, path,
            !latest->run_id ? std::string("no run (it was removed)")
            : !run          ? fmt::format("run {}, which is not in the database", *latest->run_id)
            : same_config   ? fmt::format("run {}, which is {}", run->id, to_string(run->status))
                            : fmt::format("run {}, which holds another config", run->id)));
        latest.reset();
      }
      // An unfinished run of an earlier invocation (the runner restarted):
      // continue it rather than start over, --force or not.
      std::optional<NightlyMeasurement> resume;
      if (latest && latest->status == NightlyStatus::kMeasuring) resume = latest;

      if (!prepared) {
        prepared = true;
        const Prepared p = prepare_target(t, configs, o);
        failure = p.error;
        hook_output = p.hook_output;
        if (!failure.empty()) o.note(fmt::format("{}: not measured: {}", t.name, failure));
      }
      NightlyMeasurement m = resume ? *resume
                                    : NightlyMeasurement{.nightly = nightly.name,
                                                         .target = t.name,
                                                         .config_path = path,
                                                         .config_sha256 = sha,
                                                         .status = NightlyStatus::kMeasuring,
                                                         .kernel_commit = kernel.commit};
      m.config_path = path;  // a resumed measurement too: as the report names it
      if (!hook_output.empty()) m.hook_output = hook_output;
      if (!failure.empty()) {
        m.status = NightlyStatus::kFailed;
        m.error = failure;
        m.ended_at = utc_now_iso8601();
        if (resume)
          store.nightly_log().update_nightly_measurement(m);
        else
          m.id = store.nightly_log().add_nightly_measurement(m);
        out.cells.push_back(cell_of(m, true, kernel.repo));
        continue;
      }
      if (!resume) m.id = store.nightly_log().add_nightly_measurement(m);
      auto name_of = [&](std::int64_t id) {
        return fmt::format("nightly {} {} {} #{}", nightly.name, t.name,
                           std::filesystem::path(path).stem().string(), id);
      };
      std::string run_name = name_of(m.id);
      ExecOptions exec{.name = run_name, .progress = o.progress ? ProgressStyle::kLine : ProgressStyle::kNone};
      if (!m.run_id)
        if (auto run = store.runs_table().find_run_by_name(run_name))
          m.run_id = run->id;  // created, then the runner died
      if (m.run_id) {
        const auto run = store.runs_table().find_run(*m.run_id);
        if (run && (run->config_text != config.text || run->name != run_name)) {
          // Its run holds another config's iterations, or is not the run
          // this measurement started (named for it: another target's, of
          // the same config) (a crafted or merged row): resumed, one run
          // would mix the two, and finished, it would stand for a config or
          // target it did not run. This measurement fails, saying why; a
          // fresh one starts a new run.
          const std::string why =
              run->config_text != config.text
                  ? fmt::format("run {} holds another config than {} (sha256 {}, this one {})",
                                run->id, path, sha256_hex(run->config_text).substr(0, 12),
                                sha.substr(0, 12))
                  : fmt::format("run {} is '{}', not this measurement's run '{}'", run->id,
                                terminal_safe(excerpt(run->name, 80)), run_name);
          o.note(fmt::format("{} / {}: {}; not resumed: starting a fresh run", t.name, path, why));
          m.status = NightlyStatus::kFailed;
          m.error = why + "; not resumed";
          m.ended_at = utc_now_iso8601();
          store.nightly_log().update_nightly_measurement(m);
          m = NightlyMeasurement{.nightly = nightly.name,
                                 .target = t.name,
                                 .config_path = path,
                                 .config_sha256 = sha,
                                 .status = NightlyStatus::kMeasuring,
                                 .hook_output = hook_output,
                                 .kernel_commit = kernel.commit};
          m.id = store.nightly_log().add_nightly_measurement(m);
          run_name = name_of(m.id);
          exec.name = run_name;
        } else if (run && run->status == RunStatus::kFinished) {
          m.status = NightlyStatus::kMeasured;
        } else if (run) {
          exec.resume_run = run->id;
          o.note(fmt::format("{} / {}: resuming run {}", t.name, path, run->id));
        }
      }
      if (m.status != NightlyStatus::kMeasured && o.remote) {
        try {
          o.remote->start(config_for_target(config, t), t, run_name);
          o.note(fmt::format("{} / {}: submitted as '{}'", t.name, path, run_name));
          pending.push_back({out.cells.size(), m, run_name, kernel.repo});
          out.cells.push_back({.target = t.name, .config = path, .status = CellStatus::kNotMeasured});
          continue;
        } catch (const StoreError&) {
          throw;
        } catch (const std::exception& e) {
          m.status = NightlyStatus::kFailed;
          m.error = e.what();
        }
      }
      if (m.status != NightlyStatus::kMeasured && m.status != NightlyStatus::kFailed) {
        o.note(fmt::format("{} / {}: measuring", t.name, path));
        try {
          const Config target_config = config_for_target(config, t);
          const RunSummary s = run_config(store, target_config, exec);
          m.run_id = s.run_id;
          for (const auto& e : s.errors) o.note(fmt::format("{} / {}: {}", t.name, path, e));
          if (s.status == RunStatus::kInterrupted) {
            store.nightly_log().update_nightly_measurement(m);  // stays measuring: the next invocation resumes it
            out.interrupted = true;
            out.cells.push_back(
                {.target = t.name, .config = path, .status = CellStatus::kNotMeasured, .run_id = m.run_id});
            continue;
          }
          if (s.status == RunStatus::kFinished) {
            m.status = NightlyStatus::kMeasured;
          } else {
            m.status = NightlyStatus::kFailed;
            m.error = fmt::format("run {} {}{}", s.run_id, to_string(s.status),
                                  s.errors.empty() ? "" : ": " + s.errors.front());
          }
        } catch (const StoreError&) {
          throw;
        } catch (const std::exception& e) {
          if (interrupted()) {
            store.nightly_log().update_nightly_measurement(m);
            out.interrupted = true;
            out.cells.push_back(
                {.target = t.name, .config = path, .status = CellStatus::kNotMeasured, .run_id = m.run_id});
            continue;
          }
          m.status = NightlyStatus::kFailed;
          m.error = e.what();
        }
      }
      if (m.run_id) m.kernel_release = kernel_release_of(store, *m.run_id);
      m.ended_at = utc_now_iso8601();
      store.nightly_log().update_nightly_measurement(m);
      if (m.status == NightlyStatus::kFailed) o.note(fmt::format("{} / {}: failed: {}", t.name, path, m.error));
      out.cells.push_back(cell_of(m, true, kernel.repo));
    }
  }
  if (!pending.empty()) {
    const auto errors = o.remote->collect(store);
    if (interrupted()) out.interrupted = true;  // what is still running stays measuring
    for (auto& p : pending) {
      NightlyMeasurement& m = p.m;
      const auto run = store.runs_table().find_run_by_name(p.run_name);
      if (run) m.run_id = run->id;
      if (const auto e = errors.find(p.run_name); e != errors.end()) {
        m.status = NightlyStatus::kFailed;
        m.error = e->second;
      } else if (run && run->status == RunStatus::kFinished) {
        m.status = NightlyStatus::kMeasured;
      } else if (out.interrupted) {
        store.nightly_log().update_nightly_measurement(m);  // the next invocation collects it
        out.cells[p.cell].run_id = m.run_id;
        continue;
      } else {
        m.status = NightlyStatus::kFailed;
        m.error = run ? fmt::format("run {} {}", run->id, to_string(run->status))
                      : "the run did not come back";
      }
      if (m.run_id) m.kernel_release = kernel_release_of(store, *m.run_id);
      m.ended_at = utc_now_iso8601();
      store.nightly_log().update_nightly_measurement(m);
      if (m.status == NightlyStatus::kFailed)
        o.note(fmt::format("{} / {}: failed: {}", m.target, m.config_path, m.error));
      out.cells[p.cell] = cell_of(m, true, p.repo);
    }
  }
  return out;
}

NightlyReportInput report_input(const NightlyConfig& nightly, const NightlyRun& run,
                                const std::string& db) {
  NightlyReportInput in{.name = nightly.name,
                        .baseline = nightly.baseline,
                        .cells = run.cells,
                        .rule = nightly.rule,
                        .db = db};
  for (const auto& t : nightly.targets) in.targets.push_back(t.name);
  for (const auto& c : nightly.configs) in.configs.push_back(c.path);
  return in;
}

}  // namespace schedlab
