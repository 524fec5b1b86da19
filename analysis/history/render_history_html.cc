// schedlab history --format html: the series a nightly builds up, one Vega
// plot per table row (centre with its interval band across runs, a line per
// variant), then every point in a table. The page shell is render_html's.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/history/history.h"
#include "analysis/history/history_changes.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render_html.h"
#include "base/text.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

// The x label of a point: its run, and what it measured (a nightly target,
// else the kernel release); runs in the order the history lists them.
// A run's name is never the label (names share long prefixes, and were
// cut alike): "r3" alone, its name in the key above the table.
// Stored text goes into a plot's data (its axis labels, legend, tooltips)
// as terminal_safe shows it, as html_escape shows it in the page: a
// right-to-left override in a run's name must not reorder a tooltip.
std::string x_label(const HistoryPoint& p) {
  const std::string_view what = !p.target.empty() ? p.target : p.kernel_release;
  return what.empty() ? fmt::format("r{}", p.run_id)
                      : fmt::format("r{} {}", p.run_id, terminal_safe(what));
}

std::string key_of(const HistoryPoint& p) { return fmt::format("{}/{}", p.block, p.row); }

// A line per variant and parameter set: "default", or "default (loops 200)"
// when the history holds several sets (a change of parameters is another
// line, never a step in one).
using SeriesName = std::function<std::string(const HistoryPoint&)>;

// `changes`: {"x", "v", "label"} per change point of the plot's series: a
// dashed rule at the first run after it.
Json series_spec(const History& h, const std::vector<const HistoryPoint*>& points, const SeriesName& name,
                 const Json& changes) {
  Json values = Json::array(), domain = Json::array();
  for (const HistoryPoint* p : points) {
    const std::string x = x_label(*p);
    if (std::find(domain.begin(), domain.end(), x) == domain.end()) domain.push_back(x);
    if (!p->centre) continue;
    Json v = {{"x", x},
              {"v", name(*p)},
              {"y", *p->centre},
              {"run", terminal_safe(p->run)},
              {"date", terminal_safe(p->date)}};
    if (p->ci) {
      v["lo"] = p->ci->low;
      v["hi"] = p->ci->high;
    }
    values.push_back(v);
  }
  const Json enc_x = {{"scale", "x"}, {"field", "x"}};
  const Json colour = {{"scale", "colour"}, {"field", "v"}};
  const Json tooltip = {{"signal",
                         "{'run': datum.run, 'date': datum.date, 'variant': datum.v, 'centre': "
                         "datum.y, 'low': datum.lo, 'high': datum.hi}"}};
  Json line = {{"type", "line"},
               {"from", {{"data", "series"}}},
               {"encode", {{"enter", {{"x", enc_x}, {"y", {{"scale", "y"}, {"field", "y"}}},
                                      {"stroke", colour}, {"strokeWidth", {{"value", 2}}}}}}}};
  Json band = {{"type", "area"},
               {"from", {{"data", "band"}}},
               {"encode", {{"enter", {{"x", enc_x}, {"y", {{"scale", "y"}, {"field", "lo"}}},
                                      {"y2", {{"scale", "y"}, {"field", "hi"}}}, {"fill", colour},
                                      {"fillOpacity", {{"value", 0.2}}}}}}}};
  Json s = vega_base_spec(static_cast<int>(std::max<std::size_t>(320, 40 * domain.size())), 240);
  s["data"] = points_with_ci_data(values);
  s["scales"] = Json::array(
      {{{"name", "x"}, {"type", "point"}, {"padding", 0.5}, {"range", "width"}, {"domain", domain}},
       y_scale_with_ci(),
       {{"name", "colour"}, {"type", "ordinal"}, {"range", "category"},
        {"domain", {{"data", "points"}, {"field", "v"}}}}});
  s["axes"] = Json::array(
      {{{"orient", "bottom"},
        {"scale", "x"},
        {"title", "run (nightly target or kernel), oldest first"},
        {"labelAngle", -40},
        {"labelAlign", "right"}},
       {{"orient", "left"},
        {"scale", "y"},
        {"title", terminal_safe(fmt::format("{} {}{}", h.centre, h.metric,
                                            h.unit.empty() ? "" : " (" + h.unit + ")"))}}});
  s["legends"] = Json::array({{{"fill", "colour"}, {"title", "variant (parameters)"}}});
  s["data"].push_back({{"name", "changes"}, {"values", changes}});
  const Json change_rule = {
      {"type", "rule"},
      // Not "changes": a named mark is a data set too, and Vega refuses two.
      {"name", "change_rules"},
      {"from", {{"data", "changes"}}},
      {"encode", {{"enter", {{"x", enc_x}, {"y", {{"value", 0}}}, {"y2", {{"signal", "height"}}}, {"stroke", colour},
                             {"strokeDash", {{"value", Json::array({6, 3})}}}, {"strokeWidth", {{"value", 2}}},
                             {"tooltip", {{"signal", "datum.label"}}}}}}}};
  s["marks"] = Json::array(
      {{{"type", "group"},
        {"from", {{"facet", {{"name", "band"}, {"data", "ci"}, {"groupby", "v"}}}}},
        {"marks", Json::array({band})}},
       {{"type", "group"},
        {"from", {{"facet", {{"name", "series"}, {"data", "points"}, {"groupby", "v"}}}}},
        {"marks", Json::array({line})}},
       {{"type", "symbol"},
        {"from", {{"data", "points"}}},
        {"encode", {{"enter", {{"x", enc_x}, {"y", {{"scale", "y"}, {"field", "y"}}}, {"fill", colour},
                               {"size", {{"value", 30}}}, {"tooltip", tooltip}}}}}}});
  s["marks"].push_back(change_rule);
  return s;
}

// history --changes: every change, with the runs either side (dashed
// rules on the plots mark them).
std::string changes_table(const HistoryChanges& c) {
  const auto run = [](const ChangeRun& r) {
    if (r.run_id == 0) return std::string("-");
    std::string s = fmt::format("{} {}", r.run_id, r.run);
    if (!r.kernel.empty()) s += " (" + r.kernel + ")";
    if (!r.commit.empty()) s += " " + r.commit.substr(0, 12);
    return s;
  };
  std::string out = fmt::format(
      "<h3>{} change point{} in {} series</h3>\n<p class=\"note\">a rank scan per segment with a permutation "
      "p-value below {:g}, a change of at least {:g}% in the medians either side; one outlier run is not a "
      "change</p>\n",
      c.changes.size(), c.changes.size() == 1 ? "" : "s", c.series_searched, c.options.alpha, c.options.min_change_pct);
  out += "<table class=\"changes\"><thead><tr><th>#</th><th>variant</th><th>row</th><th>set</th><th>before</th>"
         "<th>after</th><th>change</th><th>p</th><th>first run after</th><th>last run before</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < c.changes.size(); ++i) {
    const HistoryChange& x = c.changes[i];
    out += fmt::format(
        "<tr data-change-run=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{:.6g}</td><td>{:.6g}</td>"
        "<td class=\"pct\">{}% ({})</td><td>{:.3g}</td><td>{}</td><td>{}</td></tr>\n",
        x.after.run_id, i + 1, html_escape(x.series.variant),
        html_escape(x.series.block + "/" + x.series.row), x.series.set, x.centre_before,
        x.centre_after, signed_fixed_text(x.pct, 2), x.worse ? "worse" : "better", x.p_value,
        html_escape(run(x.after)), html_escape(run(x.before)));
  }
  out += "</tbody></table>\n";
  if (!c.too_short.empty())
    out += "<p class=\"note\">not searched (too few runs): " + html_escape(fmt::format("{}", fmt::join(c.too_short, "; "))) +
           "</p>\n";
  return out;
}

// As `compare` prints the metric: its precision's decimals.
std::string in_decimals(const std::optional<double>& v, int precision) {
  return v ? fixed_text(*v, precision) : "n/a";
}

}  // namespace

std::string render_history_html(const History& h, const std::string& vega_script, const HistoryChanges* changes) {
  const std::string title = fmt::format("history: {} {}{} ({} is better)", h.workload, h.metric,
                                        h.unit.empty() ? "" : " in " + h.unit, h.direction_word());
  std::vector<std::string> sets;
  for (const auto& p : h.points)
    if (std::find(sets.begin(), sets.end(), p.params) == sets.end()) sets.emplace_back(p.params);
  const auto labels = parameter_set_labels(sets);
  const auto set_index = [&](const HistoryPoint& p) {
    return static_cast<std::size_t>(std::find(sets.begin(), sets.end(), p.params) - sets.begin());
  };
  const SeriesName name = [&](const HistoryPoint& p) {
    return terminal_safe(sets.size() < 2 ? std::string(p.variant)
                                         : fmt::format("{} ({})", p.variant, labels[set_index(p)]));
  };
  // One plot per block/row, in the order rows first appear.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const HistoryPoint*>> series;
  for (const auto& p : h.points) {
    const std::string key = key_of(p);
    if (!series.count(key)) order.push_back(key);
    series[key].push_back(&p);
  }
  std::string body = fmt::format(
      "<p class=\"note\">{} with its {:.0f}% interval (the band), one line per variant and "
      "parameter set, "
      "by kernel, then oldest first. {}</p>\n<div class=\"plots\">\n",
      html_escape(h.centre), h.level * 100,
      html_escape(
          sets.size() == 1 ? "Every point: " + labels.front() + "."
          : sets.size() > 1
              ? fmt::format("{} parameter sets: a change of parameters is a new line, never a "
                            "step of the kernel's.",
                            sets.size())
              : std::string()));
  Json plots = Json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string id = fmt::format("h{}", i);
    body += fmt::format("<div class=\"plot\"><h4>{}</h4><div id=\"{}\"></div></div>\n",
                        html_escape(order[i]), id);
    Json marks = Json::array();
    if (changes)
      for (std::size_t c = 0; c < changes->changes.size(); ++c) {
        const HistoryChange& x = changes->changes[c];
        if (x.series.block + "/" + x.series.row != order[i]) continue;
        for (const HistoryPoint* p : series[order[i]])
          if (p->run_id == x.after.run_id && p->variant == x.series.variant && p->params == x.series.params) {
            marks.push_back({{"x", x_label(*p)},
                             {"v", name(*p)},
                             {"label", fmt::format("change {}: {}% ({})", c + 1,
                                                   signed_fixed_text(x.pct, 2), p_value_text(x.p_value, 3, " "))}});
            break;
          }
      }
    plots.push_back({{"id", id}, {"kind", "history"}, {"spec", series_spec(h, series[order[i]], name, marks)}});
  }
  // The runs' names once, in the key; each parameter set's once, by its number.
  std::vector<std::pair<std::string, std::string>> runs;
  for (const auto& p : h.points)
    if (runs.empty() || runs.back().first != fmt::format("r{}", p.run_id))
      runs.emplace_back(fmt::format("r{}", p.run_id), std::string(p.run));
  std::sort(runs.begin(), runs.end());
  runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
  body += "</div>\n<p class=\"note key\">" + html_escape(key_text(runs, "runs: ")) + "</p>\n";
  if (sets.size() > 1)
    for (std::size_t i = 0; i < labels.size(); ++i)
      body += fmt::format("<p class=\"note\">set {}: {}</p>\n", i + 1, html_escape(labels[i]));
  body +=
      "<table class=\"history\"><thead><tr><th>date</th><th>run</th><th>target</th>"
      "<th>kernel</th><th>variant</th><th>row</th><th>set</th><th>" +
      html_escape(h.centre) + "</th><th>interval</th><th>n</th></tr></thead><tbody>\n";
  for (const auto& p : h.points) {
    const std::string centre = p.centre ? in_decimals(p.centre, h.precision) : (p.n == 0 ? "FAIL" : "n/a");
    const std::string ci = p.ci ? fmt::format("[{}, {}]", in_decimals(p.ci->low, h.precision), in_decimals(p.ci->high, h.precision))
                                : p.ci_reason.empty() ? "n/a" : fmt::format("n/a ({})", p.ci_reason);
    body += fmt::format(
        "<tr data-run=\"{}\"><td>{}</td><td "
        "title=\"{}\">r{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td class=\"centre\">{}</td><td>{}</td><td>{}</td></tr>\n",
        p.run_id, html_escape(p.date), html_escape(p.run), p.run_id,
        html_escape(p.target.empty() ? "-" : p.target),
        html_escape(p.kernel_release.empty() ? "-" : p.kernel_release), html_escape(p.variant),
        html_escape(key_of(p)), set_index(p) + 1, html_escape(centre), html_escape(ci), p.n);
  }
  body += "</tbody></table>\n";
  if (h.points.empty()) body += "<p>(no point matches the row)</p>\n";
  if (changes) body += changes_table(*changes);
  return html_page(title, vega_script, body, plots);
}

}  // namespace schedlab
