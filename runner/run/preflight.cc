#include "runner/run/preflight.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/message.h"
#include "base/text.h"
#include "runner/hosts/local_host.h"
#include "runner/input/units.h"
#include "runner/knobs/journal_rows.h"
#include "runner/knobs/knobs.h"
#include "runner/knobs/sysctl_values.h"
#include "runner/lab/guest_journal.h"
#include "runner/monitors/perf_monitor.h"
#include "runner/run/leftovers.h"

namespace schedlab {
namespace {
// A server policy is given to the servers the runner starts for each point
// (background steps); a workload without one (hackbench) or whose server
// is started once for all variants (HammerDB's managed database) would
// claim it of nothing.
void check_server_policy(const Config& config, const Plan& plan, const VariantConfig& v,
                         const StepContext& ctx) {
  for (const auto& pp : plan.points) {
    const Workload& w = *pp.workload->workload;
    std::vector<Step> steps = w.point_setup_steps(pp.point, ctx);
    for (auto& s : w.iteration_steps(pp.point, ctx)) steps.push_back(std::move(s));
    if (std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.background; }))
      continue;
    const KnobSetting* at = v.knobs.find("policy", "server.policy");
    if (!at) at = v.knobs.find("policy", "server.nice");
    throw PreflightError(fmt::format(
        "{}:{}: variants.{}: a server policy, but {} starts no server of its own for a variant "
        "(a server it does not start is named by its threads: policy: {{tasks: {{comm: NAME, "
        "policy: batch}}}})",
        config.path, at ? at->line : 0, v.name, w.name()));
  }
}

// Process knobs. A server policy needs a server the runner starts; affinity:
// every CPU listed must be online on the host the step runs on (Step::role),
// and a remote host needs taskset to apply it.
void check_affinity(const Pair& pair, const Config& config, const Plan& plan) {
  std::map<Host*, std::vector<int>> online;
  auto online_cpus = [&](Host& host) -> const std::vector<int>& {
    auto it = online.find(&host);
    if (it != online.end()) return it->second;
    const auto text = host.read_file("/sys/devices/system/cpu/online");
    const auto cpus = text ? parse_cpu_list(*text) : std::nullopt;
    if (!cpus) throw PreflightError(fmt::format("cannot read the online CPUs of {}", host.name()));
    if (!dynamic_cast<LocalHost*>(&host) && !host.find_program("taskset"))
      throw PreflightError(
          fmt::format("affinity: 'taskset' is not installed on {} (install the "
                      "Debian package util-linux)",
                      host.name()));
    return online.emplace(&host, *cpus).first->second;
  };
  const StepContext ctx{
      .workdir = "/tmp/schedlab-preflight", .sut_address = pair.sut_address, .port = 1};
  for (const VariantConfig* variant : plan.variants) {
    const VariantConfig& v = *variant;
    const ProcessKnobs knobs = process_knobs(v.knobs);
    if (knobs.server_policy) check_server_policy(config, plan, v, ctx);
    if (knobs.server_cpus.empty() && knobs.client_cpus.empty()) continue;
    for (const auto& pp : plan.points) {
      const Workload& w = *pp.workload->workload;
      std::vector<Step> steps = w.point_setup_steps(pp.point, ctx);
      for (auto& s : w.iteration_steps(pp.point, ctx)) steps.push_back(std::move(s));
      for (const auto& step : steps) {
        const bool server = step.background;
        if (!server && !step.measured) continue;
        const auto& cpus = server ? knobs.server_cpus : knobs.client_cpus;
        if (cpus.empty()) continue;
        Host& host = pair.host(step.role);
        const auto& have = online_cpus(host);
        for (int c : cpus)
          if (!std::binary_search(have.begin(), have.end(), c))
            throw PreflightError(fmt::format(
                "{}:{}: variants.{}.affinity.{}: CPU {} is not online on {} (online: {})",
                config.path, v.knobs.find("affinity", server ? "server" : "client")->line, v.name,
                server ? "server" : "client", c, host.name(), format_cpu_list(have)));
      }
    }
  }
}

// Where a missing program comes from: its own ProgramSpec's package (by
// the argv's base name: a `path:` parameter names it anywhere), else the
// workload's; what Debian does not package (the doctor's "not packaged"
// rows: schbench, HammerDB) is said as it is.
std::string how_to_install(const Workload& w, const std::string& tool) {
  const std::string base = tool.substr(tool.rfind('/') + 1);
  std::string package = w.package();
  for (const ProgramSpec& p : w.programs())
    if (p.name == base && !p.package.empty()) package = p.package;
  if (package.starts_with("not packaged")) return package;
  return "install the Debian package " + package;
}

}  // namespace

void preflight(const RunContext& run) {
  Store& store = run.store;
  const Pair& pair = run.pair;
  const Config& config = run.config;
  const Plan& plan = run.plan;
  for (Host* host : {&pair.sut, &pair.loadgen}) {
    // A lab guest boots fresh: entries of an earlier guest under the same
    // name (same release, accelerator and port) are of a kernel that is gone.
    if (lab::is_lab_host_name(host->name())) {
      if (const auto note = lab::discard_guest_journal(store.journal(), host->name());
          !note.empty())
        print_message(fmt::format("schedlab: {}\n", note));
      continue;
    }
    // Work directories and servers of a run that died (the SUT lock is
    // ours: no live run of this SUT left them).
    for (const auto& line : clean_leftovers(store.journal(), *host))
      print_message(fmt::format("schedlab: {}: {}\n", host->name(), line));
    // perf runs on the SUT, whose lock is ours.
    if (host == &pair.sut)
      for (const auto& line : stop_perf_leftovers(*host))
        print_message(fmt::format("schedlab: {}: {}\n", host->name(), line));
    // Only this host's rows of this boot block a run; an earlier boot's are
    // closed (the reboot reset them), another machine's left alone.
    const JournalRows rows = journal_rows(store.journal(), *host);
    for (const auto& line : settle_foreign_rows(store.journal(), rows))
      print_message(fmt::format("schedlab: {}: {}\n", host->name(), line));
    std::vector<std::string> names;
    for (const auto& e : rows.live)
      if (!is_leftover_kind(e.kind)) names.push_back(fmt::format("{} (run {})", e.name, e.run_id));
    if (!names.empty())
      throw PreflightError(fmt::format(
          "{} still has knobs changed by an earlier run that did not finish: {}; run 'schedlab "
          "restore' first",
          host->name(), fmt::join(names, ", ")));
    // A knob row without identity or this user's tag may be an old
    // schedlab's unfinished run (its knob still changed), another user's or
    // a crafted one: not measured over either way.
    for (const auto& e : rows.unidentified)
      if (!is_leftover_kind(e.kind))
        names.push_back(fmt::format("{} (run {})", terminal_safe(excerpt(e.name, 80)), e.run_id));
    if (!names.empty())
      throw PreflightError(fmt::format(
          "{}: the database journals knobs this user did not journal on this machine and "
          "boot (no identity or tag of this user's): {}; 'schedlab restore' lists them "
          "(--adopt-unidentified puts them back, if they are this host's)",
          host->name(), fmt::join(names, ", ")));
  }
  check_plan(pair, config, plan);
}

void check_plan(const Pair& pair, const Config& config, const Plan& plan) {
  // Every program any step of the first point runs must exist where it runs.
  std::set<std::pair<std::string, std::string>> checked;
  const StepContext ctx{
      .workdir = "/tmp/schedlab-preflight", .sut_address = pair.sut_address, .port = 1};
  for (const auto& pp : plan.points) {
    const Workload& w = *pp.workload->workload;
    std::vector<Step> steps = w.setup_steps(pp.point, ctx);
    for (auto& s : w.point_setup_steps(pp.point, ctx)) steps.push_back(std::move(s));
    for (auto& s : w.iteration_steps(pp.point, ctx)) steps.push_back(std::move(s));
    for (const auto& step : steps) {
      Host& host = pair.host(step.role);
      const std::string& tool = step.argv.front();
      if (!checked.insert({host.name(), tool}).second) continue;
      if (!host.find_program(tool))
        throw PreflightError(fmt::format("{}: '{}' is not installed on {} ({})", w.name(),
                                         excerpt(tool, 80), host.name(), how_to_install(w, tool)));
    }
  }
  check_affinity(pair, config, plan);
  // Every perf event the config names must be one perf knows on the SUT.
  if (const auto e = unknown_perf_event(pair.sut, config)) throw PreflightError(*e);
  // Every knob must exist on the SUT (features against its own list).
  for (const VariantConfig* variant : plan.variants) {
    const VariantConfig& v = *variant;
    for (const auto& [kind, s] : kernel_settings(v.knobs)) {
      try {
        const std::string now = read_knob(pair.sut, s.knob);
        // The value by the knob's kind: an integer sysctl takes integers.
        if (kind->verify)
          if (const auto problem = kind->verify(s, now)) throw KnobError(*problem);
      } catch (const KnobError& e) {
        throw PreflightError(fmt::format("{}:{}: variants.{}.{}: {}", config.path, s.line, v.name,
                                         kind->config_keys.front(), e.what()));
      }
    }
  }
}

void try_knobs(const RunContext& ctx, std::int64_t run_id) {
  for (std::size_t i = 0; i < ctx.plan.variants.size(); ++i) {
    const VariantConfig* v = ctx.plan.variants[i];
    for (const auto& [kind, s] : kernel_settings(v->knobs)) {
      try {
        KnobJournal journal(ctx.store.journal(), ctx.pair_of(i).sut, run_id);
        journal.apply(s.knob, s.value);  // restores at once when it does not take
        journal.restore_all();
      } catch (const KnobError& e) {
        throw PreflightError(fmt::format("{}:{}: variants.{}.{}: {}; nothing was measured",
                                         ctx.config.path, s.line, v->name,
                                         kind->config_keys.front(), e.what()));
      }
    }
  }
}

}  // namespace schedlab
