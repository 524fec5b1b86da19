#include "analysis/history/history_changes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {
namespace {

using SeriesKey = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;

SeriesKey key_of(const HistoryPoint& p) { return {p.variant, p.block, p.row, p.params}; }

std::string series_name(const HistorySeries& s) {
  return fmt::format("{} {}/{} set {}", s.variant, s.block, s.row, s.set);
}

ChangeRun change_run(const RunsTable& runs, const HistoryPoint& p) {
  ChangeRun r{.run_id = p.run_id,
              .run = std::string(p.run),
              .date = std::string(p.date),
              .target = std::string(p.target),
              .kernel = std::string(p.kernel_release)};
  if (const auto run = runs.find_run(p.run_id)) r.commit = run_commit(*run);
  return r;
}

}  // namespace

std::string run_commit(const RunInfo& run) {
  const auto m = parse_json_data(run.manifest_json);
  if (!m.is_object() || !m.contains("lab") || !m["lab"].is_object()) return "";
  const auto& lab = m["lab"];
  if (!lab.contains("build") || !lab["build"].is_object()) return "";
  const auto& b = lab["build"];
  return b.contains("commit") && b["commit"].is_string() ? b["commit"].get<std::string>() : "";
}

HistoryChanges find_history_changes(const RunsTable& runs_table, const History& h,
                                    const ChangePointOptions& options) {
  HistoryChanges out;
  out.options = options;
  // Series by first appearance; parameter sets numbered as the text's legend.
  std::vector<std::string_view> sets;
  std::vector<SeriesKey> order;
  std::map<SeriesKey, std::vector<const HistoryPoint*>> series;
  for (const auto& p : h.points) {
    if (std::find(sets.begin(), sets.end(), p.params) == sets.end()) sets.push_back(p.params);
    const SeriesKey k = key_of(p);
    auto& s = series[k];
    if (s.empty()) order.push_back(k);
    s.push_back(&p);
  }
  const std::size_t need = 2 * options.min_segment;
  std::size_t longest = 0;
  std::string longest_name;
  for (const SeriesKey& k : order) {
    const auto& points = series[k];
    const HistoryPoint& first = *points.front();
    const HistorySeries name{std::string(first.variant), std::string(first.block), std::string(first.row),
                             std::string(first.params),
                             static_cast<std::size_t>(std::find(sets.begin(), sets.end(), first.params) - sets.begin()) + 1};
    std::vector<SeriesRun> runs;
    std::size_t with_value = 0;
    for (const HistoryPoint* p : points) {
      // A centre that is not finite (a crafted database) is no value: one
      // run must not stop the search of every series.
      const bool value = p->centre && std::isfinite(*p->centre);
      runs.push_back({value ? p->centre : std::nullopt, p->n});
      with_value += value;
    }
    if (with_value > longest || longest_name.empty()) {
      longest = with_value;
      longest_name = series_name(name);
    }
    if (with_value < need) {
      out.too_short.push_back(fmt::format("{}: {} run{} with a value", series_name(name), with_value,
                                          with_value == 1 ? "" : "s"));
      continue;
    }
    ++out.series_searched;
    for (const ChangePoint& c : change_points(runs, options)) {
      HistoryChange hc{.series = name};
      hc.after = change_run(runs_table, *points[c.index]);
      for (std::size_t i = c.index; i-- > 0;)
        if (runs[i].centre) {
          hc.before = change_run(runs_table, *points[i]);
          break;
        }
      hc.centre_before = c.before;
      hc.centre_after = c.after;
      hc.runs_before = c.runs_before;
      hc.runs_after = c.runs_after;
      hc.pct = c.pct;
      hc.worse = h.direction == Direction::kHigherIsBetter ? c.pct < 0 : c.pct > 0;
      hc.p_value = c.p_value;
      out.changes.push_back(std::move(hc));
    }
  }
  if (out.series_searched == 0)
    throw std::invalid_argument(fmt::format(
        "change points need at least {} runs with a value in a series ({} either side of a change); the "
        "longest series{} has {}",
        need, options.min_segment, longest_name.empty() ? "" : " (" + longest_name + ")", longest));
  return out;
}

std::string change_mark(const HistoryChanges& c, const HistoryPoint& p) {
  for (std::size_t i = 0; i < c.changes.size(); ++i) {
    const HistoryChange& x = c.changes[i];
    if (x.after.run_id == p.run_id && x.series.variant == p.variant && x.series.block == p.block &&
        x.series.row == p.row && x.series.params == p.params)
      return fmt::format("change {}", i + 1);
  }
  return "";
}

std::string render_changes_text(const HistoryChanges& c) {
  const auto& o = c.options;
  std::string out = fmt::format(
      "\n{} change{} in {} series (a rank scan per segment with a permutation p-value below {:g}, a change of "
      "at least {:g}% in the medians either side; one outlier run is not a change):\n",
      c.changes.size(), c.changes.size() == 1 ? "" : "s", c.series_searched, o.alpha, o.min_change_pct);
  const auto name = [](const ChangeRun& r) {
    // Names from the database, escaped for the terminal (base/text.h).
    std::string s = fmt::format("run {} {}", r.run_id, terminal_safe(r.run));
    const std::string_view what = !r.target.empty() ? r.target : r.kernel;
    if (!what.empty()) s += fmt::format(" ({})", terminal_safe(what));
    if (!r.commit.empty()) s += fmt::format(" commit {}", terminal_safe(r.commit.substr(0, 12)));
    return s;
  };
  for (std::size_t i = 0; i < c.changes.size(); ++i) {
    const HistoryChange& x = c.changes[i];
    out += fmt::format(
        "  change {}: {} {}/{} set {}: {:.6g} -> {:.6g} ({}%, {}), {}; first run after: {}",
        i + 1, terminal_safe(x.series.variant), terminal_safe(x.series.block),
        terminal_safe(x.series.row), x.series.set, x.centre_before, x.centre_after,
        signed_fixed_text(x.pct, 2), x.worse ? "worse" : "better", p_value_text(x.p_value, 3, " "), name(x.after));
    if (x.before.run_id) out += fmt::format("; last run before: {}", name(x.before));
    out += "\n";
  }
  if (!c.too_short.empty())
    out += fmt::format("not searched (fewer than {} runs with a value): {}\n", 2 * o.min_segment,
                       terminal_safe(fmt::format("{}", fmt::join(c.too_short, "; "))));
  return wrap_words(out, 100, "    ");  // a mail's 100 columns
}

}  // namespace schedlab
