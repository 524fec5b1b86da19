// schedlab schedstat: show one /proc/schedstat snapshot, the delta of a
// before/after pair, or compare two deltas (A vs B), like `perf sched stats`.
//
//   schedlab schedstat show FILE
//   schedlab schedstat diff BEFORE AFTER
//   schedlab schedstat diff --delta A_BEFORE A_AFTER B_BEFORE B_AFTER
//   schedlab schedstat diff [--db DB] A B     A, B: RUN[:VARIANT[:ROW]]
//
// Everything below the argument handling works on DeltaSide values. The
// run form sums a selection's stored per-iteration snapshot pairs (the
// schedstat monitor's, ok iterations only) with schedstat::accumulate()
// into a DeltaSide; printing is shared. Two arguments that both exist as
// files are the file form.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/render_schedstat.h"
#include "analysis/schedstat_diff.h"
#include "analysis/schedstat_runs.h"
#include "base/file.h"
#include "results/store.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/input/suggest.h"

namespace schedlab::cli {
namespace {

struct SchedstatCmdOptions {
  std::vector<std::string> files;
  bool delta = false;    // diff: two before/after pairs
  bool per_cpu = false;  // also per-CPU rows
  Format format = Format::kText;
  std::vector<std::string> level_names;  // domain0, domain1, ... names (e.g. from debugfs)
  DbOption db;                           // run selections
};

// Bad input (unreadable file, parse error, topology change) exits 2, by
// guarded<BadInput>.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One side of a comparison: what it is and its counters (a delta, a sum of
// deltas, or a snapshot's counters since boot).
struct DeltaSide {
  std::string label;
  schedstat::Snapshot counters;
  std::optional<int> iterations;  // summed, for a run selection
};

schedstat::Snapshot parse_snapshot(const std::string& text, const std::string& where,
                                   const SchedstatCmdOptions& o) {
  try {
    auto s = schedstat::parse(text);
    if (!o.level_names.empty()) schedstat::set_level_names(s, o.level_names);
    return s;
  } catch (const CounterParseError& e) {
    throw BadInput(CounterParseError(e, where).what());
  }
}

schedstat::Snapshot load_snapshot(const std::string& path, const SchedstatCmdOptions& o) {
  try {
    return parse_snapshot(read_file(path), path, o);
  } catch (const FileError& e) {
    throw BadInput(e.what());
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

// RUN[:VARIANT[:ROW]]: a run (id or name), optionally one variant (empty:
// all), optionally one row (its label, e.g. "4", or BLOCK/ROW such as
// hackbench-process-pipes/4). The sum of the selection's schedstat deltas.
DeltaSide delta_from_selection(const Store& store, const std::string& selection,
                               const SchedstatCmdOptions& o) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t colon; (colon = selection.find(':', from)) != std::string::npos; from = colon + 1)
    parts.push_back(selection.substr(from, colon - from));
  parts.push_back(selection.substr(from));
  if (parts.size() > 3 || parts[0].empty())
    throw BadInput(fmt::format("'{}' is not a file, nor a run selection RUN[:VARIANT[:ROW]]",
                               selection));
  const std::optional<RunInfo> run = store.runs_table().find_run_arg(parts[0]);
  if (!run)
    throw BadInput(fmt::format("'{}' is not a file, and {} has no run '{}'", selection,
                               store.path(), parts[0]));
  std::optional<std::int64_t> variant_id;
  if (parts.size() > 1 && !parts[1].empty()) {
    std::vector<std::string> names;
    for (const auto& v : store.variants_table().variants(run->id)) {
      names.push_back(v.name);
      if (v.name == parts[1]) variant_id = v.id;
    }
    if (!variant_id)
      throw BadInput(fmt::format("run {} has no variant '{}'{}; it has: {}", run->name, parts[1],
                                 did_you_mean(parts[1], names), fmt::join(names, ", ")));
  }
  const std::string row = parts.size() > 2 ? parts[2] : "";

  RunSchedstat found;
  try {
    found = run_schedstat(store, {.run_id = run->id, .variant_id = variant_id, .row = row,
                                  .level_names = o.level_names, .label = run->name});
  } catch (const CounterParseError& e) {
    throw BadInput(e.what());
  } catch (const CounterMismatchError& e) {
    throw BadInput(e.what());
  }
  const auto& rows = found.rows;
  const int n = found.iterations;
  auto& sum = found.sum;
  if (!sum) {
    std::string why;
    const auto manifest = nlohmann::json::parse(run->manifest_json, nullptr, false);
    if (manifest.is_object() && manifest.contains("monitors_unavailable") &&
        manifest["monitors_unavailable"].contains("schedstat"))
      why = fmt::format(" (the schedstat monitor was unavailable: {})",
                        manifest["monitors_unavailable"]["schedstat"].get<std::string>());
    else if (!row.empty() && std::none_of(rows.begin(), rows.end(), [&](const std::string& r) {
               return r == row || r.substr(r.rfind('/') + 1) == row;
             }))
      why = fmt::format(" (no row '{}'; rows: {})", row, fmt::join(rows, ", "));
    else
      why = " (run it with 'monitors: [schedstat]' in the config)";
    throw BadInput(fmt::format("{}: no stored schedstat snapshots of ok iterations{}", selection, why));
  }
  return {fmt::format("{} ({} iteration{})", selection, n, n == 1 ? "" : "s"), std::move(*sum), n};
}

// What schedstat prints in each format: one side summarised (ro.title is
// its label), or two compared with the warning the table carries (empty:
// none).
struct SchedstatRender {
  std::string (*side)(const schedstat::Summary&, const schedstat::RenderOptions& ro);
  std::string (*comparison)(const schedstat::Comparison&, const std::string& warning);
};
const Renderers<SchedstatRender> kSchedstatOutputs{
    {Format::kText,
     {[](const schedstat::Summary& summary, const schedstat::RenderOptions& ro) {
        return schedstat::render_text(summary, ro);
      },
      [](const schedstat::Comparison& c, const std::string& warning) {
        return (warning.empty() ? "" : fmt::format("warning: {}\n", warning)) +
               schedstat::render_text(c);
      }}},
    {Format::kJson,
     {[](const schedstat::Summary& summary, const schedstat::RenderOptions& ro) {
        auto j = schedstat::to_json(summary, ro);
        j["label"] = ro.title;
        return j.dump(2) + "\n";
      },
      [](const schedstat::Comparison& c, const std::string& warning) {
        auto j = schedstat::to_json(c);
        if (!warning.empty()) j["warning"] = warning;
        return j.dump(2) + "\n";
      }}},
};

void print_side(const DeltaSide& side, const SchedstatCmdOptions& o) {
  const schedstat::RenderOptions ro{.title = side.label,
                                    .per_cpu = o.per_cpu ? &side.counters : nullptr};
  fmt::print("{}", kSchedstatOutputs.of(o.format).side(schedstat::summarize(side.counters), ro));
}

void print_comparison(const DeltaSide& a, const DeltaSide& b, const SchedstatCmdOptions& o) {
  // Its table has no per-CPU rows: --per-cpu would change nothing.
  if (o.per_cpu)
    throw BadInput(
        "--per-cpu does nothing with two sides compared: it applies to one snapshot or one delta "
        "(BEFORE AFTER)");
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
  return guarded<BadInput>({.prefix = "schedlab schedstat show"}, [&] {
    print_side({o.files[0] + " (counters since boot)", load_snapshot(o.files[0], o)}, o);
    return kOk;
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
  return guarded<BadInput>({.prefix = "schedlab schedstat diff"}, [&] {
    namespace fs = std::filesystem;
    if (!o.delta) {
      // A path that exists is a file; two selections are a comparison.
      const bool f0 = fs::exists(o.files[0]), f1 = fs::exists(o.files[1]);
      if (f0 && f1) {
        print_side(delta_from_files(o.files[0], o.files[1], o), o);
        return kOk;
      }
      if (f0 || f1)
        throw BadInput(fmt::format(
            "'{}' is a file but '{}' is not: give two snapshot files (BEFORE AFTER) or two run "
            "selections (RUN[:VARIANT[:ROW]])",
            o.files[f0 ? 0 : 1], o.files[f0 ? 1 : 0]));
      const std::string db = o.db.resolve();
      if (!fs::exists(db))
        throw BadInput(fmt::format("'{}' and '{}' are not files, and there is no database {} "
                                   "for run selections",
                                   o.files[0], o.files[1], db));
      Store store(db, Store::Access::kReadOnly);
      print_comparison(delta_from_selection(store, o.files[0], o),
                       delta_from_selection(store, o.files[1], o), o);
      return kOk;
    }
    print_comparison(delta_from_files(o.files[0], o.files[1], o),
                     delta_from_files(o.files[2], o.files[3], o), o);
    return kOk;
  });
}

void add_common(CLI::App& cmd, SchedstatCmdOptions& o) {
  kSchedstatOutputs.add_option(cmd, o.format);
  cmd.add_option("--level-names", o.level_names,
                 "names of domain0, domain1, ... (e.g. MC,PKG from "
                 "/sys/kernel/debug/sched/domains/cpu0/domainN/name); default: the kernel's "
                 "v17 names, else inferred from the cpumasks")
      ->delimiter(',');
}

}  // namespace

void register_schedstat(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("schedstat", "show and diff /proc/schedstat snapshots");
  document(
      *cmd,
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
  add_common(*d, *diff);
  d->callback([diff, &exit_code] { exit_code = diff_command(*diff); });
}

}  // namespace schedlab::cli
