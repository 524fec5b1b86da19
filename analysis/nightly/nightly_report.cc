#include "analysis/nightly/nightly_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "analysis/compare/profiles.h"
#include "analysis/counters/proc_text.h"
#include "analysis/counters/schedstat_runs.h"
#include "base/json_data.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/nightly_log.h"
#include "results/variants_table.h"

namespace schedlab {
namespace {

const NightlyCell* find_cell(const NightlyReportInput& in, const std::string& target,
                             const std::string& config) {
  for (const auto& c : in.cells)
    if (c.target == target && c.config == config) return &c;
  return nullptr;
}

bool measured(const NightlyCell* c) {
  return c && c->status == CellStatus::kMeasured && c->run_id;
}

// A cell whose run another target's cell of the same config has (a crafted
// or edited nightly row pointing a target at the baseline's run): one run
// measures one kernel, and compared with itself it says "No regression".
// The baseline keeps its run, then each target in file order; a later one
// fails, naming its row.
void refuse_shared_runs(NightlyReportInput& in) {
  std::vector<std::size_t> order{in.baseline};
  for (std::size_t i = 0; i < in.targets.size(); ++i)
    if (i != in.baseline) order.push_back(i);
  for (const auto& config : in.configs) {
    std::map<std::int64_t, std::size_t> owner;  // run -> target
    for (const std::size_t i : order) {
      const auto c = std::find_if(in.cells.begin(), in.cells.end(), [&](const NightlyCell& x) {
        return x.target == in.targets[i] && x.config == config;
      });
      if (c == in.cells.end() || !measured(&*c)) continue;
      const auto [o, first] = owner.emplace(*c->run_id, i);
      if (first) continue;
      c->status = CellStatus::kFailed;
      c->error = fmt::format(
          "its measurement (nightly_measurements row {}) names run {}, the measurement of {}{}: "
          "a run compared with itself shows no change; not compared",
          c->measurement_id, *c->run_id, in.targets[o->second],
          o->second == in.baseline ? " (the baseline)" : "");
    }
  }
}

std::string label(const NightlyCell& c) {
  return c.kernel_release.empty() || c.kernel_release == c.target
             ? c.target
             : fmt::format("{} ({})", c.target, terminal_safe(c.kernel_release));
}

// The regressed row's schedstat sums in both runs, compared.
void attach_schedstat(const Store& store, NightlyRegression& reg, std::int64_t ref_variant,
                      std::int64_t target_variant) {
  const std::string row = reg.r.block + "/" + reg.r.row;
  try {
    const auto a =
        run_schedstat(store, {.run_id = reg.reference_run, .variant_id = ref_variant, .row = row});
    const auto b =
        run_schedstat(store, {.run_id = reg.target_run, .variant_id = target_variant, .row = row});
    if (!a.sum || !b.sum) {
      reg.schedstat_reason = fmt::format(
          "no schedstat monitor data in {} (add 'monitors: [schedstat]' to the "
          "config; the SUT needs CONFIG_SCHEDSTATS)",
          !a.sum && !b.sum ? "either run"
          : !a.sum         ? reg.reference
                           : reg.target);
      return;
    }
    reg.schedstat =
        schedstat::compare(schedstat::summarize(*a.sum), schedstat::summarize(*b.sum),
                           fmt::format("{} ({} iterations)", reg.reference, a.iterations),
                           fmt::format("{} ({} iterations)", reg.target, b.iterations));
  } catch (const CounterParseError& e) {
    reg.schedstat_reason = e.what();
  } catch (const CounterMismatchError& e) {
    reg.schedstat_reason = e.what();
  }
}

CompareOptions compare_options(const RegressionRule& rule) {
  CompareOptions options;
  options.alpha = rule.alpha;
  const auto test = test_from_name(rule.test);
  if (!test) throw std::invalid_argument(fmt::format("unknown test '{}'", rule.test));
  options.test = *test;
  return options;
}

// Two runs compared per variant both have, in the target's variant order.
struct VariantComparison {
  VariantInfo ref, target;
  Comparison comparison;
};
std::vector<VariantComparison> compare_runs(const Store& store, const RegressionRule& rule,
                                            std::int64_t ref_run, const std::string& ref_label,
                                            std::int64_t target_run,
                                            const std::string& target_label) {
  const auto ref_variants = store.variants_table().variants(ref_run);
  const CompareOptions options = compare_options(rule);
  std::vector<VariantComparison> out;
  for (const auto& tv : store.variants_table().variants(target_run)) {
    const auto rv = std::find_if(ref_variants.begin(), ref_variants.end(),
                                 [&](auto& v) { return v.name == tv.name; });
    if (rv == ref_variants.end()) continue;  // a variant the reference run does not have
    out.push_back(
        {*rv, tv,
         compare(store,
                 {ColumnRef{.run_id = ref_run, .variant_id = rv->id, .label = ref_label},
                  ColumnRef{.run_id = target_run, .variant_id = tv.id, .label = target_label}},
                 options)});
  }
  return out;
}

// The commits since the last good night of a branch target that regressed
// against the baseline (see NightlyRegression::last_good).
struct CommitRange {
  std::string last_good;
  std::int64_t last_good_run = 0;
  std::string note;
};
CommitRange find_last_good(const Store& store, const NightlyReportInput& in,
                           const NightlyCell& base, const NightlyCell& cell) {
  CommitRange range;
  int regressed = 0;
  const auto all = store.nightly_log().nightly_measurements();
  for (auto m = all.rbegin(); m != all.rend(); ++m) {
    if (m->target != cell.target || m->config_sha256 != cell.config_sha256 ||
        m->status != NightlyStatus::kMeasured || !m->run_id || m->kernel_commit.empty() ||
        m->kernel_commit == cell.kernel_commit || m->id >= cell.measurement_id)
      continue;
    bool bad = false;
    for (const auto& vc :
         compare_runs(store, in.rule, *base.run_id, base.target, *m->run_id, m->kernel_commit))
      bad = bad || !find_regressions(vc.comparison, in.rule).empty();
    if (!bad) {
      range.last_good = m->kernel_commit;
      range.last_good_run = *m->run_id;
      return range;
    }
    ++regressed;
  }
  range.note =
      regressed == 0
          ? fmt::format("no earlier night of {} with {} was measured", cell.target, cell.config)
          : fmt::format("no good night of {} with {}: the {} earlier night{} regressed too",
                        cell.target, cell.config, regressed, regressed == 1 ? "" : "s");
  return range;
}

// The command line that bisects a range, each argument quoted for the shell.
std::string bisect_command(const NightlyReportInput& in, const std::string& repo, const std::string& good,
                           const std::string& bad, const std::string& config, const std::string& metric,
                           const std::vector<std::string>& more = {}) {
  std::vector<std::string> argv = {"--repo", repo, "--good", good, "--bad", bad, "--config", config, "--metric", metric};
  argv.insert(argv.end(), more.begin(), more.end());
  if (!in.db.empty()) argv.insert(argv.end(), {"--db", in.db});
  std::string line = "schedlab bisect start";
  for (const auto& a : argv) line += " " + shell_word(a);
  return line;
}
std::string bisect_command(const NightlyReportInput& in, const NightlyRegression& g) {
  return bisect_command(in, g.repo, g.last_good, g.commit, g.config, g.r.metric);
}

// --param NAME=VALUE for each parameter on which a run's points of a
// workload differ, at the point of `change`'s series: what picks that one
// point in `schedlab bisect`.
std::vector<std::string> point_params(const Store& store, std::int64_t run, const std::string& workload,
                                      const HistorySeries& series) {
  std::map<std::string, std::set<std::string>> values;
  std::string mine;
  for (const auto& it : store.iterations_table().iterations(run)) {
    if (it.workload != workload) continue;
    const auto j = parse_json_data(it.params_json);
    if (!j.is_object()) continue;
    for (const auto& [k, v] : j.items()) values[k].insert(param_text(v));
    if (mine.empty() && it.block == series.block && it.row == series.row) mine = it.params_json;
  }
  std::vector<std::string> out;
  const auto point = parse_json_data(mine);
  if (!point.is_object()) return out;
  for (const auto& [k, v] : point.items())
    if (values[k].size() > 1 && !v.is_null())
      out.insert(out.end(), {"--param", k + "=" + param_text(v)});
  return out;
}

// The change points of each measured target's history with each config.
void find_changes(const Store& store, NightlyReport& report) {
  const auto& in = report.input;
  const auto all = store.nightly_log().nightly_measurements();
  for (const auto& config : in.configs)
    for (const auto& target : in.targets) {
      const NightlyCell* cell = find_cell(in, target, config);
      if (!measured(cell)) continue;
      // The measured nights of this target and config text, oldest first,
      // up to tonight's.
      std::vector<std::int64_t> runs;
      std::map<std::int64_t, std::string> commits;
      for (const auto& m : all) {
        if (m.target != target || m.config_sha256 != cell->config_sha256 || m.status != NightlyStatus::kMeasured ||
            !m.run_id || (cell->measurement_id && m.id > cell->measurement_id))
          continue;
        if (std::find(runs.begin(), runs.end(), *m.run_id) == runs.end()) runs.push_back(*m.run_id);
        commits[*m.run_id] = m.kernel_commit;
      }
      const std::string where = fmt::format("{} / {}", target, config);
      const std::size_t need = 2 * ChangePointOptions{}.min_segment;
      if (runs.size() < need) {
        report.change_notes.push_back(fmt::format("{}: {} measured night{}; change points need at least {}", where,
                                                  runs.size(), runs.size() == 1 ? "" : "s", need));
        continue;
      }
      for (const auto& metric : store.metrics_table().metrics(*cell->run_id)) {
        const History whole = history(store, metric.workload, metric.name, "");
        History mine = History();
        mine.workload = whole.workload;
        mine.metric = whole.metric;
        mine.unit = whole.unit;
        mine.direction = whole.direction;
        mine.centre = whole.centre;
        for (const auto& p : whole.points)
          if (std::find(runs.begin(), runs.end(), p.run_id) != runs.end()) mine.points.push_back(mine.keep(p));
        HistoryChanges found;
        try {
          found = find_history_changes(
              store.runs_table(), mine,
              {.alpha = in.rule.alpha_for(metric.workload, metric.name),
               .min_change_pct = in.rule.min_effect_for(metric.workload, metric.name)});
        } catch (const std::invalid_argument& e) {
          const std::string note = fmt::format("{}: {} measured night{}; {}", where, runs.size(),
                                               runs.size() == 1 ? "" : "s", e.what());
          if (std::find(report.change_notes.begin(), report.change_notes.end(), note) == report.change_notes.end())
            report.change_notes.push_back(note);
          continue;
        }
        for (auto& c : found.changes) {
          NightlyChange nc{.target = target, .config = config, .workload = metric.workload, .metric = metric.name,
                           .unit = metric.unit, .change = c};
          const auto commit_of = [&](const ChangeRun& r) {
            const auto m = commits.find(r.run_id);
            return m != commits.end() && !m->second.empty() ? m->second : r.commit;
          };
          if (!cell->kernel_repo.empty() && c.before.run_id) {
            // A worsening is bisected from the night before (good) to the
            // night after (bad); an improvement the other way round would
            // not be a range, so it is bisected as a change either way.
            nc.repo = cell->kernel_repo;
            nc.good = commit_of(c.before);
            nc.bad = commit_of(c.after);
            if (!nc.good.empty() && !nc.bad.empty() && nc.good != nc.bad) {
              std::vector<std::string> more = point_params(store, c.after.run_id, metric.workload, c.series);
              if (!c.worse) more.insert(more.end(), {"--direction", "either"});
              nc.bisect_command = bisect_command(in, nc.repo, nc.good, nc.bad, config, metric.name, more);
            }
          }
          report.changes.push_back(std::move(nc));
        }
      }
    }
}

void compare_pair(const Store& store, NightlyReport& report, const std::string& config,
                  const NightlyCell& ref, const NightlyCell& target, const std::string& against) {
  std::optional<CommitRange> range;  // computed for the first regression that needs it
  for (auto& vc : compare_runs(store, report.input.rule, *ref.run_id, label(ref), *target.run_id,
                               label(target))) {
    NightlyComparison nc{.config = config,
                         .variant = vc.target.name,
                         .reference = ref.target,
                         .target = target.target,
                         .against = against,
                         .comparison = std::move(vc.comparison)};
    // What else changed between the two runs (compare --changed); its
    // markdown, JSON and page show it with the table. Welch's t-test
    // whatever the rule's: at a nightly's few iterations Mann-Whitney's p
    // has a floor over BH's first threshold (changed_floor.h), and Welch
    // keeps A/A comparisons as clean (README, "What changed").
    if (nc.comparison.columns.size() == 2)
      nc.comparison.changed = what_changed(store, nc.comparison, {.test = Test::kWelch});
    // The columns' perf-profile stacks, for the page's flame graphs. A
    // profile that does not load costs its page the graphs, not the night's
    // report (report stops on it: there the page is all there is).
    try {
      nc.comparison.profiles = column_profiles(store, nc.comparison);
    } catch (const CounterParseError& e) {
      nc.profiles_error = e.what();
    }
    for (const auto& r : find_regressions(nc.comparison, report.input.rule)) {
      NightlyRegression reg{.r = r,
                            .config = config,
                            .variant = vc.target.name,
                            .reference = ref.target,
                            .target = target.target,
                            .against = against,
                            .reference_run = *ref.run_id,
                            .target_run = *target.run_id};
      attach_schedstat(store, reg, vc.ref.id, vc.target.id);
      if (against == "baseline" && !target.kernel_commit.empty()) {
        if (!range) range = find_last_good(store, report.input, ref, target);
        reg.repo = target.kernel_repo;
        reg.commit = target.kernel_commit;
        reg.last_good = range->last_good;
        reg.last_good_run = range->last_good_run;
        reg.range_note = range->note;
        if (!reg.last_good.empty()) reg.bisect_command = bisect_command(report.input, reg);
      }
      report.regressions.push_back(std::move(reg));
      ++nc.regressions;
    }
    report.comparisons.push_back(std::move(nc));
  }
}

}  // namespace

NightlyReport build_nightly_report(const Store& store, const NightlyReportInput& input) {
  NightlyReport report;
  report.input = input;
  refuse_shared_runs(report.input);
  for (const auto& c : report.input.cells)
    if (c.status == CellStatus::kFailed)
      report.failures.push_back(fmt::format("{} / {}: {}", c.target, c.config, c.error));
  const NightlyReportInput& in = report.input;
  const std::string& base_name = in.targets.at(in.baseline);
  for (const auto& config : in.configs) {
    const NightlyCell* base = find_cell(in, base_name, config);
    for (std::size_t i = 0; i < in.targets.size(); ++i) {
      if (i == in.baseline) continue;
      const NightlyCell* cell = find_cell(in, in.targets[i], config);
      if (!measured(cell)) continue;
      if (measured(base)) compare_pair(store, report, config, *base, *cell, "baseline");
      // The previous target of the list that was measured, unless that is
      // the baseline (already compared).
      for (std::size_t j = i; j-- > 0;) {
        const NightlyCell* prev = find_cell(in, in.targets[j], config);
        if (!measured(prev)) continue;
        if (j != in.baseline) compare_pair(store, report, config, *prev, *cell, "previous");
        break;
      }
    }
  }
  find_changes(store, report);
  // Regressions against the baseline first, then against the previous target.
  std::stable_sort(report.regressions.begin(), report.regressions.end(),
                   [](const NightlyRegression& a, const NightlyRegression& b) {
                     return a.against == "baseline" && b.against != "baseline";
                   });
  return report;
}

}  // namespace schedlab
