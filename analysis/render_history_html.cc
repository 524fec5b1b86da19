// schedlab history --format html: the series a nightly builds up, one Vega
// plot per table row (centre with its interval band across runs, a line per
// variant), then every point in a table. The page shell is render_html's.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/history.h"
#include "analysis/render_html.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

// The x label of a point: its run, and what it measured (a nightly target,
// else the kernel release); runs in the order the history lists them.
std::string x_label(const HistoryPoint& p) {
  const std::string_view what = !p.target.empty() ? p.target : p.kernel_release;
  return fmt::format("r{} {}", p.run_id, what.empty() ? p.run : what);
}

std::string key_of(const HistoryPoint& p) { return fmt::format("{}/{}", p.block, p.row); }

// A line per variant and parameter set: "default", or "default (loops 200)"
// when the history holds several sets (a change of parameters is another
// line, never a step in one).
using SeriesName = std::function<std::string(const HistoryPoint&)>;

Json series_spec(const History& h, const std::vector<const HistoryPoint*>& points, const SeriesName& name) {
  Json values = Json::array(), domain = Json::array();
  for (const HistoryPoint* p : points) {
    const std::string x = x_label(*p);
    if (std::find(domain.begin(), domain.end(), x) == domain.end()) domain.push_back(x);
    if (!p->centre) continue;
    Json v = {{"x", x}, {"v", name(*p)}, {"y", *p->centre}, {"run", p->run}, {"date", p->date}};
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
      {{{"orient", "bottom"}, {"scale", "x"}, {"title", "run (nightly target or kernel), oldest first"},
        {"labelAngle", -40}, {"labelAlign", "right"}},
       {{"orient", "left"}, {"scale", "y"},
        {"title", fmt::format("{} {}{}", h.centre, h.metric, h.unit.empty() ? "" : " (" + h.unit + ")")}}});
  s["legends"] = Json::array({{{"fill", "colour"}, {"title", "variant (parameters)"}}});
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
  return s;
}

std::string significant6(const std::optional<double>& v) {
  return v ? fmt::format("{:.6g}", *v) : "n/a";
}

}  // namespace

std::string render_history_html(const History& h, const std::string& vega_script) {
  const std::string title =
      fmt::format("history: {} {}{} ({} is better)", h.workload, h.metric,
                  h.unit.empty() ? "" : " in " + h.unit, h.direction);
  std::vector<std::string> sets;
  for (const auto& p : h.points)
    if (std::find(sets.begin(), sets.end(), p.params) == sets.end()) sets.emplace_back(p.params);
  const auto labels = parameter_set_labels(sets);
  const auto set_index = [&](const HistoryPoint& p) {
    return static_cast<std::size_t>(std::find(sets.begin(), sets.end(), p.params) - sets.begin());
  };
  const SeriesName name = [&](const HistoryPoint& p) {
    return sets.size() < 2 ? std::string(p.variant) : fmt::format("{} ({})", p.variant, labels[set_index(p)]);
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
      "<p class=\"note\">{} with its {:.0f}% interval (the band), one line per variant and parameter set, "
      "oldest first. {}</p>\n<div class=\"plots\">\n",
      html_escape(h.centre), h.level * 100,
      html_escape(sets.size() == 1   ? "Every point: " + labels.front() + "."
                  : sets.size() > 1 ? fmt::format("{} parameter sets: a change of parameters is a new line, never a "
                                                  "step of the kernel's.",
                                                  sets.size())
                                    : std::string()));
  Json plots = Json::array();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string id = fmt::format("h{}", i);
    body += fmt::format("<div class=\"plot\"><h4>{}</h4><div id=\"{}\"></div></div>\n",
                        html_escape(order[i]), id);
    plots.push_back({{"id", id}, {"kind", "history"}, {"spec", series_spec(h, series[order[i]], name)}});
  }
  body += "</div>\n<table class=\"history\"><thead><tr><th>date</th><th>run</th><th>target</th>"
          "<th>kernel</th><th>variant</th><th>row</th><th>parameters</th><th>" +
          html_escape(h.centre) + "</th><th>interval</th><th>n</th></tr></thead><tbody>\n";
  for (const auto& p : h.points) {
    const std::string centre = p.centre ? significant6(p.centre) : (p.n == 0 ? "FAIL" : "n/a");
    const std::string ci = p.ci ? fmt::format("[{:.6g}, {:.6g}]", p.ci->low, p.ci->high)
                                : p.ci_reason.empty() ? "n/a" : fmt::format("n/a ({})", p.ci_reason);
    body += fmt::format(
        "<tr data-run=\"{}\"><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td class=\"centre\">{}</td><td>{}</td><td>{}</td></tr>\n",
        p.run_id, html_escape(p.date), p.run_id, html_escape(p.run),
        html_escape(p.target.empty() ? "-" : p.target),
        html_escape(p.kernel_release.empty() ? "-" : p.kernel_release), html_escape(p.variant),
        html_escape(key_of(p)), html_escape(labels[set_index(p)]), html_escape(centre), html_escape(ci), p.n);
  }
  body += "</tbody></table>\n";
  if (h.points.empty()) body += "<p>(no point matches the row)</p>\n";
  return html_page(title, vega_script, body, plots);
}

}  // namespace schedlab
