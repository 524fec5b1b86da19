#include "runner/bisect/bisect_page.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "analysis/compare/profiles.h"
#include "analysis/render/render_html.h"
#include "analysis/render/render_profiles.h"
#include "analysis/sequential/bisect_verdict.h"
#include "analysis/stats/summary.h"
#include "base/json_data.h"
#include "base/text.h"
#include "runner/bisect/bisect.h"
#include "runner/bisect/bisect_ends.h"
#include "runner/bisect/bisect_samples.h"
#include "runner/bisect/bisect_stored.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

std::string number(const std::optional<double>& v, const char* spec = "{:.4g}") {
  return v ? fmt::format(fmt::runtime(spec), *v) : "-";
}

// A done bisection's last good against its first bad, as report shows a
// comparison: tables, plots, what changed, and the flame graphs of their
// stored profiles (a sentence when there are none). A stored profile that
// does not load stops the page, naming its iteration, as it stops report.
std::string ends_html(const Store& store, const StoredBisection& stored, Json& plots,
                      Json& flames) {
  const BisectSpec& spec = stored.spec;
  const auto& r = stored.result;
  auto ends = bisect_ends(store, spec, r, stored.decisions);
  if (!ends) return "";
  Comparison& c = ends->comparison;
  c.profiles = column_profiles(store, c);
  std::string out = fmt::format(
      "<section class=\"ends\"><h2>Last good against first bad</h2>\n<p class=\"note\">last-good: "
      "{} (run {}); first-bad: {} (run {}); the first batch run of each</p>\n",
      html_escape(spec.labels.at(r.at("last_good").get<std::size_t>())), ends->last_good_run,
      html_escape(spec.labels.at(r.at("first_bad").get<std::size_t>())), ends->first_bad_run);
  out += comparison_html(c, "e-", plots, &flames);
  if (c.profiles.empty()) out += no_profiles_html();
  return out + "</section>\n";
}

}  // namespace

std::string bisect_page(const Store& store, const BisectSession& session,
                        const std::string& vega_script) {
  const StoredBisection stored = load_bisection(store.bisect_log(), session);
  const BisectSpec& spec = stored.spec;
  const auto& decisions = stored.decisions;
  const auto now = latest_decisions(decisions);
  Json values = Json::array(), skips = Json::array(), domain = Json::array();
  std::string rows;
  for (std::size_t pos = 0; pos < spec.candidates.size(); ++pos) {
    // Cut by columns, not bytes: a cut UTF-8 character is not text JSON can hold.
    const std::string x =
        fmt::format("{} {}", pos, terminal_safe(head_columns(spec.labels[pos], 24)));
    domain.push_back(x);
    const auto it = now.find(static_cast<int>(pos));
    if (it == now.end()) continue;
    const BisectDecision& d = *it->second;
    const auto runs = require_json_data(d.run_ids_json, "a bisect step's run ids")
                          .get<std::vector<std::int64_t>>();
    const auto samples = bisect_samples(store, spec, runs);
    const Centre centre = bisect_metric_centre(store.metrics_table(), spec, runs);
    const auto ci = centre_interval(samples, centre, 0.95);
    const auto c = centre_of(samples, centre);
    if (d.verdict == "SKIP")
      skips.push_back({{"x", x}, {"note", terminal_safe(head_columns(d.note, 200))}});
    if (c) {
      Json v = {{"x", x}, {"y", *c}, {"verdict", d.verdict}, {"n", samples.size()}};
      if (ci.ci) {
        v["lo"] = ci.ci->low;
        v["hi"] = ci.ci->high;
      }
      values.push_back(v);
    }
    rows += fmt::format(
        "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"centre\">{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        html_escape(d.verdict), pos, html_escape(spec.labels[pos]), html_escape(d.verdict), d.n,
        html_escape(number(d.centre)),
        html_escape(ci.ci ? fmt::format("[{:.4g}, {:.4g}]", ci.ci->low, ci.ci->high)
                          : "n/a" + (ci.reason.empty() ? "" : " (" + ci.reason + ")")),
        html_escape(number(d.p_good, "{:.3g}")), html_escape(number(d.p_bad, "{:.3g}")),
        html_escape(d.level_good && d.level_bad
                        ? fmt::format("{:.3g} / {:.3g}", *d.level_good, *d.level_bad)
                        : "-"),
        html_escape(d.decided_by), html_escape(d.error_rates.empty() ? "-" : d.error_rates),
        html_escape(std::string(head_columns(d.note, 300))));
  }
  const Json enc_x = {{"scale", "x"}, {"field", "x"}};
  const Json colour = {{"scale", "colour"}, {"field", "verdict"}};
  Json s = vega_base_spec(static_cast<int>(std::max<std::size_t>(360, 48 * domain.size())), 260);
  s["data"] = points_with_ci_data(values);
  s["data"].push_back({{"name", "skips"}, {"values", skips}});
  s["scales"] = Json::array(
      {{{"name", "x"}, {"type", "point"}, {"padding", 0.5}, {"range", "width"}, {"domain", domain}},
       y_scale_with_ci(),
       {{"name", "colour"}, {"type", "ordinal"},
        {"domain", Json::array({"REF-GOOD", "GOOD", "UNKNOWN", "BAD", "REF-BAD"})},
        {"range", Json::array({"#1a7f37", "#4caf50", "#999999", "#e57373", "#b71c1c"})}}});
  s["axes"] = Json::array(
      {{{"orient", "bottom"}, {"scale", "x"}, {"title", "candidate (position, oldest first)"},
        {"labelAngle", -40}, {"labelAlign", "right"}},
       {{"orient", "left"}, {"scale", "y"}, {"title", spec.metric}}});
  s["legends"] = Json::array({{{"fill", "colour"}, {"title", "verdict"}}});
  const Json tooltip = {{"signal", "{'candidate': datum.x, 'verdict': datum.verdict, 'centre': "
                                   "datum.y, 'low': datum.lo, 'high': datum.hi, 'n': datum.n}"}};
  s["marks"] = Json::array(
      {{{"type", "rule"},
        {"from", {{"data", "ci"}}},
        {"encode", {{"enter", {{"x", enc_x}, {"y", {{"scale", "y"}, {"field", "lo"}}},
                               {"y2", {{"scale", "y"}, {"field", "hi"}}}, {"stroke", colour},
                               {"strokeWidth", {{"value", 2}}}}}}}},
       {{"type", "symbol"},
        {"from", {{"data", "points"}}},
        {"encode", {{"enter", {{"x", enc_x}, {"y", {{"scale", "y"}, {"field", "y"}}}, {"fill", colour},
                               {"size", {{"value", 60}}}, {"tooltip", tooltip}}}}}},
       // A skipped candidate has no centre: a cross on the axis, its note as tooltip.
       {{"type", "symbol"},
        {"from", {{"data", "skips"}}},
        {"encode", {{"enter", {{"x", enc_x}, {"y", {{"signal", "height"}}}, {"shape", {{"value", "cross"}}},
                               {"fill", {{"value", "#555"}}}, {"size", {{"value", 80}}},
                               {"tooltip", {{"signal", "{'skipped': datum.x, 'why': datum.note}"}}}}}}}}});
  const std::string title = fmt::format("bisection {} ({}): {}", session.id, to_string(session.status),
                                        spec.metric);
  std::string body = fmt::format(
      "<p class=\"note\">{} candidates between {} and {}; {} at alpha {}; centre with its 95% "
      "interval from the samples behind each candidate's last decision; a cross marks a skip</p>\n"
      "<p class=\"note\">error rates: {}</p>\n"
      "<div class=\"plots\"><div class=\"plot\"><h4>candidates by position</h4><div "
      "id=\"b0\"></div></div></div>\n",
      spec.candidates.size() - 2, html_escape(spec.labels.front()), html_escape(spec.labels.back()),
      html_escape(verdict_test_title(spec.test)), spec.alpha, html_escape(error_rates_statement(spec)));
  body += "<table class=\"bisect\"><thead><tr><th>pos</th><th>candidate</th><th>verdict</th><th>n</th>"
          "<th>centre</th><th>interval</th><th>p(good)</th><th>p(bad)</th><th>levels (good / bad)</th>"
          "<th>decided by</th><th>error rates held</th><th>runs / note</th></tr></thead><tbody>\n" +
          rows + "</tbody></table>\n";
  Json plots = Json::array({{{"id", "b0"}, {"kind", "bisect"}, {"spec", s}}});
  Json flames = Json::array();
  if (session.status == BisectStatus::kDone) body += ends_html(store, stored, plots, flames);
  return html_page(title, vega_script, body, plots, flames);
}

}  // namespace schedlab
