#include "runner/executor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "runner/interrupt.h"
#include "runner/knobs.h"
#include "runner/manifest.h"

namespace schedlab {
namespace {

using Clock = std::chrono::steady_clock;

// The identity of a stored iteration, for resume.
using IterationKey = std::tuple<std::int64_t, std::string, std::string, int>;

nlohmann::json knobs_json(const VariantConfig& v) {
  nlohmann::json j = nlohmann::json::object();
  if (!v.sysctls.empty()) {
    nlohmann::json s = nlohmann::json::object();
    for (const auto& x : v.sysctls) s[x.name] = x.value;
    j["sysctl"] = s;
  }
  if (v.policy) {
    j["policy"] = sched_policy_name(v.policy->policy);
    if (v.policy->nice) j["nice"] = *v.policy->nice;
  }
  return j;
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

// Runs one iteration's steps. Nothing when schedlab was interrupted during
// it: an unfinished iteration is not stored, and resume runs it again.
std::optional<IterationRow> run_iteration(Host& host, const PlanPoint& pp,
                                          const VariantConfig& variant) {
  const Workload& w = *pp.workload->workload;
  IterationRow row;
  row.workload = w.name();
  row.block = pp.block;
  row.row = pp.row;
  row.row_order = pp.row_order;
  row.params_json = pp.params_json;
  row.started_at = utc_now_iso8601();
  row.status = "ok";
  const auto start = Clock::now();
  for (const Step& step : w.iteration_steps(pp.point, StepContext{})) {
    Command cmd{.argv = step.argv, .timeout = step.timeout};
    if (step.measured) cmd.policy = variant.policy;
    const ExecResult r = host.run(cmd);
    if (r.outcome == ExecResult::Outcome::kInterrupted) return std::nullopt;
    row.stdout_text += r.out;
    row.stderr_text += r.err;
    if (r.outcome == ExecResult::Outcome::kExited) row.exit_code = r.exit_code;
    if (r.ok()) continue;
    row.status = r.outcome == ExecResult::Outcome::kTimedOut      ? "timeout"
                 : r.outcome == ExecResult::Outcome::kSpawnFailed ? "spawn_error"
                                                                  : "failed";
    row.error = fmt::format("{}: {}", step.argv[0], r.describe());
    // The tool's own last words say more than an exit code.
    if (const std::string why = last_line(r.err.empty() ? r.out : r.err); !why.empty())
      row.error += ": " + why;
    break;
  }
  row.duration_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (row.status == "ok") {
    try {
      for (auto& s : w.parse(pp.point, row.stdout_text, row.stderr_text))
        row.samples.push_back({s.metric, s.value, s.offset_s});
    } catch (const ParseError& e) {
      row.status = "parse_error";
      row.error = fmt::format("{} output did not parse: {}", w.name(), e.what());
    }
  }
  return row;
}

class Progress {
 public:
  Progress(bool enabled, std::size_t total) : enabled_(enabled), total_(total) {}
  ~Progress() {
    if (enabled_ && shown_) fmt::print(stderr, "\r\033[K");
  }
  void show(std::size_t done, const std::string& what) {
    if (!enabled_) return;
    std::string eta;
    if (measured_ > 0) {
      const double per = elapsed_ / measured_;
      const auto left = static_cast<long>(per * static_cast<double>(total_ - done));
      eta = left >= 60 ? fmt::format("  ETA {}m{:02}s", left / 60, left % 60)
                       : fmt::format("  ETA {}s", left);
    }
    fmt::print(stderr, "\r\033[K[{}/{}] {}{}", done + 1, total_, what, eta);
    std::fflush(stderr);
    shown_ = true;
  }
  void measured(double seconds) {
    ++measured_;
    elapsed_ += seconds;
  }

 private:
  bool enabled_;
  std::size_t total_;
  bool shown_ = false;
  int measured_ = 0;
  double elapsed_ = 0;
};

}  // namespace

void preflight(Store& store, Host& host, const Config& config, const Plan& plan) {
  const auto pending = store.unrestored(host.name());
  if (!pending.empty()) {
    std::vector<std::string> names;
    for (const auto& e : pending) names.push_back(fmt::format("{} (run {})", e.name, e.run_id));
    throw PreflightError(fmt::format(
        "{} still has knobs changed by an earlier run that did not finish: {}; run 'schedlab "
        "restore' first",
        host.name(), fmt::join(names, ", ")));
  }
  std::set<std::string> checked;
  for (const auto& pp : plan.points) {
    const Workload& w = *pp.workload->workload;
    for (const auto& step : w.iteration_steps(pp.point, StepContext{})) {
      const std::string& tool = step.argv.front();
      if (!checked.insert(tool).second) continue;
      if (!host.find_program(tool))
        throw PreflightError(fmt::format("{}: '{}' is not installed on {} (install the Debian package {})",
                                         w.name(), tool, host.name(), w.package()));
    }
  }
  for (const auto& v : config.variants) {
    for (const auto& s : v.sysctls) {
      try {
        read_sysctl(host, s.name);
      } catch (const KnobError& e) {
        throw PreflightError(fmt::format("{}:{}: variants.{}.sysctl: {}", config.path, s.line,
                                         v.name, e.what()));
      }
    }
  }
}

RunSummary execute(Store& store, Host& host, const Config& config, const Plan& plan,
                   const ExecOptions& options) {
  RunSummary summary;
  std::vector<std::int64_t> variant_ids;
  std::set<IterationKey> done;

  if (options.resume_run) {
    auto run = store.find_run(*options.resume_run);
    if (!run) throw PreflightError(fmt::format("no run {} in {}", *options.resume_run, store.path()));
    summary.run_id = run->id;
    summary.name = run->name;
    const auto stored = store.variants(run->id);
    for (const auto& v : config.variants) {
      auto it = std::find_if(stored.begin(), stored.end(), [&](auto& s) { return s.name == v.name; });
      if (it == stored.end())
        throw PreflightError(fmt::format("run {} has no variant '{}'", run->id, v.name));
      variant_ids.push_back(it->id);
    }
    for (const auto& it : store.iterations(run->id))
      done.insert({it.variant_id, it.workload, it.params_json, it.iteration});
    store.set_run_status(run->id, "running", false);
  } else {
    nlohmann::json manifest = collect_manifest(host, [&] {
      std::vector<std::string> pkgs;
      for (const auto& wc : config.workloads) pkgs.push_back(wc.workload->package());
      return pkgs;
    }());
    manifest["sut"] = config.sut;
    manifest["loadgen"] = config.loadgen;
    manifest["started_at"] = utc_now_iso8601();
    summary.name = options.name;
    summary.run_id = store.create_run({.name = options.name,
                                       .config_path = config.path,
                                       .config_text = config.text,
                                       .config_sha256 = sha256_hex(config.text),
                                       .manifest_json = manifest.dump(),
                                       .status = "running"});
    for (std::size_t i = 0; i < config.variants.size(); ++i)
      variant_ids.push_back(store.add_variant({.run_id = summary.run_id,
                                               .name = config.variants[i].name,
                                               .position = static_cast<int>(i),
                                               .knobs_json = knobs_json(config.variants[i]).dump()}));
    for (const auto& wc : config.workloads)
      for (const auto& m : wc.workload->metrics())
        store.add_metric(summary.run_id, {wc.workload->name(), m.name, m.unit,
                                          std::string(to_string(m.direction)),
                                          std::string(to_string(m.centre)),
                                          std::string(to_string(m.kind)), m.precision});
  }

  Progress progress(options.progress, plan.items.size());
  std::string status = "finished";
  try {
    std::size_t index = 0;
    while (index < plan.items.size() && !interrupted()) {
      const std::size_t v = plan.items[index].variant;
      const VariantConfig& variant = config.variants[v];
      // One journal per variant: its destructor restores on every way out.
      KnobJournal journal(store, host, summary.run_id);
      bool applied = false;
      for (; index < plan.items.size() && plan.items[index].variant == v; ++index) {
        if (interrupted()) break;
        const PlanItem& item = plan.items[index];
        const PlanPoint& pp = plan.points[item.point];
        if (done.count({variant_ids[v], pp.workload->workload->name(), pp.params_json,
                        item.iteration})) {
          ++summary.skipped;
          continue;
        }
        if (!applied) {
          for (const auto& s : variant.sysctls) journal.apply_sysctl(s);
          applied = true;
        }
        progress.show(index, fmt::format("{} variant={} iter {}/{}", pp.describe(), variant.name,
                                         item.iteration + 1, pp.iterations));
        auto row = run_iteration(host, pp, variant);
        if (!row) break;  // interrupted
        row->run_id = summary.run_id;
        row->variant_id = variant_ids[v];
        row->iteration = item.iteration;
        store.add_iteration(*row);
        progress.measured(row->duration_s);
        ++summary.measured;
        if (row->status != "ok") {
          ++summary.failed;
          summary.errors.push_back(fmt::format("{} variant={} iteration {}: {}", pp.describe(),
                                               variant.name, item.iteration + 1, row->error));
        }
      }
      journal.restore_all();
    }
    if (interrupted()) status = "interrupted";
  } catch (...) {
    store.set_run_status(summary.run_id, "failed", true);
    throw;
  }
  store.set_run_status(summary.run_id, status, true);
  summary.status = status;
  return summary;
}

}  // namespace schedlab
