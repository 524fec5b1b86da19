// schedlab schedstat: show one /proc/schedstat snapshot, the delta of a
// before/after pair, or compare two deltas (A vs B), like `perf sched stats`.
//
//   schedlab schedstat show FILE
//   schedlab schedstat diff BEFORE AFTER
//   schedlab schedstat diff --delta A_BEFORE A_AFTER B_BEFORE B_AFTER
//   schedlab schedstat diff [--db DB] A B     A, B: RUN[:VARIANT[:ROW]]
//
// The sides (a snapshot, a file pair's delta, a run selection's summed
// stored deltas) are analysis/counters/schedstat_sides.h's; this file
// parses the arguments and prints. Two arguments that both exist as files
// are the file form.
#include <fmt/format.h>

#include <memory>

#include "analysis/counters/render_schedstat.h"
#include "analysis/counters/render_schedstat_perf.h"
#include "analysis/counters/schedstat_diff.h"
#include "analysis/counters/schedstat_sides.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"

namespace schedlab::cli {
namespace {

struct SchedstatCmdOptions {
  std::vector<std::string> files;
  bool delta = false;    // diff: two before/after pairs
  bool per_cpu = false;  // also per-CPU rows
  Format format = Format::kText;
  std::string style = "schedlab";        // diff: schedlab | perf (perf sched stats diff's table)
  std::vector<std::string> level_names;  // domain0, domain1, ... names (e.g. from debugfs)
  DbOption db;                           // run selections
};

// What schedstat prints in each format: one side summarised (ro.title is
// its label), or two compared with the warning the table carries (empty:
// none). Text escaped: a file's name is a label (hostile18).
struct SchedstatRender {
  std::string (*side)(const schedstat::Summary&, const schedstat::RenderOptions& ro);
  std::string (*comparison)(const schedstat::Comparison&, const std::string& warning);
};
const Renderers<SchedstatRender> kSchedstatOutputs{
    {Format::kText,
     {[](const schedstat::Summary& summary, const schedstat::RenderOptions& ro) {
        return terminal_safe(schedstat::render_text(summary, ro), true);
      },
      [](const schedstat::Comparison& c, const std::string& warning) {
        return terminal_safe((warning.empty() ? "" : fmt::format("warning: {}\n", warning)) +
                                 schedstat::render_text(c),
                             true);
      }}},
    {Format::kJson,
     {[](const schedstat::Summary& summary, const schedstat::RenderOptions& ro) {
        auto j = schedstat::to_json(summary, ro);
        j["label"] = ro.title;
        return json_output(j) + "\n";
      },
      [](const schedstat::Comparison& c, const std::string& warning) {
        auto j = schedstat::to_json(c);
        if (!warning.empty()) j["warning"] = warning;
        return json_output(j) + "\n";
      }}},
};

void print_side(const SchedstatSide& side, const SchedstatCmdOptions& o) {
  if (o.style == "perf") {  // every CPU is in perf's report shape already
    fmt::print("{}", schedstat::render_perf_text(side.counters, nullptr));
    return;
  }
  const schedstat::RenderOptions ro{.title = side.label,
                                    .per_cpu = o.per_cpu ? &side.counters : nullptr};
  fmt::print("{}", kSchedstatOutputs.of(o.format).side(schedstat::summarize(side.counters), ro));
}

void print_comparison(const SchedstatSide& a, const SchedstatSide& b,
                      const SchedstatCmdOptions& o) {
  // Its table has no per-CPU rows: --per-cpu would change nothing.
  if (o.per_cpu)
    throw SchedstatInputError(
        "--per-cpu does nothing with two sides compared: it applies to one snapshot or one delta "
        "(BEFORE AFTER)");
  if (o.style == "perf") {
    fmt::print("{}", schedstat::render_perf_text(a.counters, &b.counters));
    return;
  }
  const auto c = schedstat::compare(schedstat::summarize(a.counters),
                                    schedstat::summarize(b.counters), a.label, b.label);
  // Counts are sums over the iterations each side stored (ok ones only): over
  // unequal numbers they are not like with like, and the table says so.
  std::string warning;
  if (a.iterations && b.iterations && *a.iterations != *b.iterations)
    warning = fmt::format("the sides summed different numbers of iterations ({} against {}: failed or unfinished "
                          "iterations are left out); compare rates and percentages, not counts",
                          *a.iterations, *b.iterations);
  fmt::print("{}", kSchedstatOutputs.of(o.format).comparison(c, warning));
}

int show_command(const SchedstatCmdOptions& o) {
  return guarded<SchedstatInputError>({.prefix = "schedlab schedstat show"}, [&] {
    print_side({o.files[0] + " (counters since boot)", load_snapshot(o.files[0], o.level_names)},
               o);
    return kOk;
  });
}

int diff_command(const SchedstatCmdOptions& o) {
  const std::size_t want = o.delta ? 4 : 2;
  if (o.files.size() != want) {
    print_message(fmt::format(
        "schedlab schedstat diff: expected {} files, got {}\n",
        o.delta ? "4 (A_BEFORE A_AFTER B_BEFORE B_AFTER with --delta)" : "2 (BEFORE AFTER)",
        o.files.size()));
    return kBadInput;
  }
  if (o.style == "perf" && o.format != Format::kText) {
    print_message(fmt::format(
        "schedlab schedstat diff: --style perf does nothing with --format {}: it applies "
        "to --format text\n",
        format_name(o.format)));
    return kBadInput;
  }
  if (o.style == "perf" && o.per_cpu) {
    print_message(fmt::format(
        "schedlab schedstat diff: --per-cpu does nothing with --style perf: perf's table "
        "has every CPU already\n"));
    return kBadInput;
  }
  return guarded<SchedstatInputError, std::invalid_argument>(
      {.prefix = "schedlab schedstat diff"}, [&] {
        const auto sides = diff_sides(o.files, o.delta, o.db.resolve(), o.level_names);
        if (sides.second)
          print_comparison(sides.first, *sides.second, o);
        else
          print_side(sides.first, o);
        return kOk;
      });
}

void add_common(CLI::App& cmd, SchedstatCmdOptions& o) {
  kSchedstatOutputs.add_option(cmd, o.format);
  cmd.add_option("--level-names", o.level_names,
                 "names of domain0, domain1, ... (e.g. MC,PKG from "
                 "/sys/kernel/debug/sched/domains/cpu0/domainN/name); default: the kernel's "
                 "v17 names, else inferred from the cpumasks")
      ->delimiter(',')
      ->check(domain_name_check());
}

}  // namespace

void register_schedstat(CLI::App& app, int& exit_code) {
  auto* cmd = add_command(
      app, "schedstat", "show and diff /proc/schedstat snapshots",
      {"Reads /proc/schedstat snapshots (v15 to v17) and prints their counters summarised per "
       "domain level (wakeups, migrations, load balancing), for one snapshot, the delta of two, or "
       "two deltas side by side; runs' stored per-iteration deltas compare the same way.",
       {{"schedlab schedstat show /proc/schedstat", "the counters since boot"},
        {"schedlab schedstat diff before.txt after.txt", "what changed between two snapshots"},
        {"schedlab schedstat diff baseline:default patched:default",
         "the stored deltas of two runs compared"}}});
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
      "change from A to B; A B as run selections RUN[:VARIANT[:ROW]] sum each selection's "
      "stored per-iteration deltas and compare them");
  d->add_option("files", diff->files,
                "BEFORE AFTER, or A_BEFORE A_AFTER B_BEFORE B_AFTER, or A B as run selections "
                "RUN[:VARIANT[:ROW]] (run id or name; ROW: a row label or BLOCK/ROW; a path that "
                "exists is a file)")
      ->required();
  add_db_option(*d, diff->db);
  d->add_flag("--delta", diff->delta, "compare two before/after pairs (A vs B)");
  d->add_flag("--per-cpu", diff->per_cpu, "also one row per CPU (single delta only)");
  d->add_option("--style", diff->style,
                "schedlab, or perf: the table `perf sched stats diff` prints (perf's wording, "
                "COUNT1, COUNT2 | PCT_CHANGE | and its ratios, the all-CPU summary, each domain "
                "level and each CPU; one delta: `perf sched stats report`'s; --format text)")
      ->check(CLI::IsMember({"schedlab", "perf"}))
      ->capture_default_str();
  add_common(*d, *diff);
  d->callback([diff, &exit_code] { exit_code = diff_command(*diff); });
}

}  // namespace schedlab::cli
