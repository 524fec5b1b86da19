// schedlab schedstat: show one /proc/schedstat snapshot, the delta of a
// before/after pair, or compare two deltas (A vs B), like `perf sched stats`.
//
//   schedlab schedstat show FILE
//   schedlab schedstat diff BEFORE AFTER
//   schedlab schedstat diff --delta A_BEFORE A_AFTER B_BEFORE B_AFTER
//
// Everything below the argument handling works on DeltaSide values, so the
// run form ("A and B are runs or run/variant selections") only needs a
// loader that sums a selection's stored per-iteration snapshot pairs with
// schedstat::accumulate() into a DeltaSide; printing is shared.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "analysis/render_schedstat.h"
#include "analysis/schedstat_diff.h"
#include "runner/cli/common.h"

namespace schedlab::cli {
namespace {

struct SchedstatCmdOptions {
  std::vector<std::string> files;
  bool delta = false;    // diff: two before/after pairs
  bool per_cpu = false;  // also per-CPU rows
  std::string format = "text";
  std::vector<std::string> level_names;  // domain0, domain1, ... names (e.g. from debugfs)
};

// Bad input (unreadable file, parse error, topology change) exits 2.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One side of a comparison: what it is and its counters (a delta, a sum of
// deltas, or a snapshot's counters since boot).
struct DeltaSide {
  std::string label;
  schedstat::Snapshot counters;
};

schedstat::Snapshot load_snapshot(const std::string& path, const SchedstatCmdOptions& o) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BadInput(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    auto s = schedstat::parse(text.str());
    if (!o.level_names.empty()) schedstat::set_level_names(s, o.level_names);
    return s;
  } catch (const CounterParseError& e) {
    throw BadInput(CounterParseError(e, path).what());
  }
}

DeltaSide delta_from_files(const std::string& before, const std::string& after,
                           const SchedstatCmdOptions& o) {
  try {
    return {fmt::format("{} -> {}", before, after),
            schedstat::diff(load_snapshot(before, o), load_snapshot(after, o))};
  } catch (const CounterMismatchError& e) {
    throw BadInput(fmt::format("{} -> {}: {}", before, after, e.what()));
  }
}

void print_side(const DeltaSide& side, const SchedstatCmdOptions& o) {
  const schedstat::RenderOptions ro{.title = side.label,
                                    .per_cpu = o.per_cpu ? &side.counters : nullptr};
  const auto summary = schedstat::summarize(side.counters);
  if (o.format == "json") {
    auto j = schedstat::to_json(summary, ro);
    j["label"] = side.label;
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", schedstat::render_text(summary, ro));
  }
}

void print_comparison(const DeltaSide& a, const DeltaSide& b, const SchedstatCmdOptions& o) {
  const auto c = schedstat::compare(schedstat::summarize(a.counters),
                                    schedstat::summarize(b.counters), a.label, b.label);
  if (o.format == "json")
    fmt::print("{}\n", schedstat::to_json(c).dump(2));
  else
    fmt::print("{}", schedstat::render_text(c));
}

template <typename F>
int guarded(std::string_view sub, F&& f) {
  try {
    f();
    return kOk;
  } catch (const BadInput& e) {
    fmt::print(stderr, "schedlab schedstat {}: {}\n", sub, e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "schedlab schedstat {}: {}\n", sub, e.what());
    return kError;
  }
}

int show_command(const SchedstatCmdOptions& o) {
  return guarded("show", [&] {
    print_side({o.files[0] + " (counters since boot)", load_snapshot(o.files[0], o)}, o);
  });
}

int diff_command(const SchedstatCmdOptions& o) {
  const std::size_t want = o.delta ? 4 : 2;
  if (o.files.size() != want) {
    fmt::print(stderr, "schedlab schedstat diff: expected {} files, got {}\n",
               o.delta ? "4 (A_BEFORE A_AFTER B_BEFORE B_AFTER with --delta)" : "2 (BEFORE AFTER)",
               o.files.size());
    return kBadInput;
  }
  return guarded("diff", [&] {
    if (!o.delta) return print_side(delta_from_files(o.files[0], o.files[1], o), o);
    print_comparison(delta_from_files(o.files[0], o.files[1], o),
                     delta_from_files(o.files[2], o.files[3], o), o);
  });
}

void add_common(CLI::App& cmd, SchedstatCmdOptions& o) {
  cmd.add_option("--format", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd.add_option("--level-names", o.level_names,
                 "names of domain0, domain1, ... (e.g. MC,PKG from "
                 "/sys/kernel/debug/sched/domains/cpu0/domainN/name); default: the kernel's "
                 "v17 names, else inferred from the cpumasks")
      ->delimiter(',');
}

}  // namespace

void register_schedstat(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("schedstat", "show and diff /proc/schedstat snapshots");
  cmd->require_subcommand(1);

  auto show = std::make_shared<SchedstatCmdOptions>();
  auto* s = cmd->add_subcommand("show", "the counters of one snapshot (since boot), summarised");
  s->add_option("file", show->files, "a copy of /proc/schedstat")->required()->expected(1);
  s->add_flag("--per-cpu", show->per_cpu, "also one row per CPU");
  add_common(*s, *show);
  s->callback([show, &exit_code] { exit_code = show_command(*show); });

  auto diff = std::make_shared<SchedstatCmdOptions>();
  auto* d = cmd->add_subcommand(
      "diff",
      "the delta of BEFORE and AFTER; with --delta, two deltas A and B side by side with the "
      "change from A to B");
  d->add_option("files", diff->files, "BEFORE AFTER, or A_BEFORE A_AFTER B_BEFORE B_AFTER")
      ->required();
  d->add_flag("--delta", diff->delta, "compare two before/after pairs (A vs B)");
  d->add_flag("--per-cpu", diff->per_cpu, "also one row per CPU (single delta only)");
  add_common(*d, *diff);
  d->callback([diff, &exit_code] { exit_code = diff_command(*diff); });
}

}  // namespace schedlab::cli
