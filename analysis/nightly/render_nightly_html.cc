// nightly --report-html: the nightly report as one offline page, regressions
// first (each with the plots of its table), then every comparison as the
// report page shows it, flame graphs included (a sentence where there is no
// profile). The page shell is render_html's.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/counters/render_schedstat.h"
#include "analysis/nightly/nightly_report.h"
#include "analysis/nightly/nightly_sentences.h"
#include "analysis/render/render_html.h"
#include "analysis/render/render_profiles.h"
#include "base/text.h"

namespace schedlab {
namespace {

using Json = nlohmann::ordered_json;

std::string num(double v) { return fmt::format("{:.6g}", v); }

bool same_pair(const NightlyRegression& g, const NightlyComparison& c) {
  return g.config == c.config && g.variant == c.variant && g.reference == c.reference &&
         g.target == c.target && g.against == c.against;
}

}  // namespace

std::string render_nightly_html(const NightlyReport& r, const std::string& vega_script) {
  const auto& e = html_escape;
  Json plots = Json::array();
  Json flames = Json::array();  // the comparisons' flame graphs (render_profiles.h)
  std::string body = r.regressed()
                         ? fmt::format("<p class=\"emulated\"><b>{} regression{}.</b></p>\n",
                                       r.regressions.size(), r.regressions.size() == 1 ? "" : "s")
                         : std::string("<p>No regression.</p>\n");
  body += fmt::format("<h2>Regressions ({})</h2>\n", r.regressions.size());
  if (!r.regressions.empty()) {
    body += "<table class=\"regressions\"><thead><tr><th>target</th><th>against</th><th>config</th>"
            "<th>variant</th><th>table</th><th>row</th><th>metric</th><th>reference</th>"
            "<th>target</th><th>change</th><th>p</th></tr></thead><tbody>\n";
    for (const auto& g : r.regressions)
      body += fmt::format(
          "<tr><td>{}</td><td>{} ({})</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td><td class=\"pct\">{:+.2f}%</td><td>{}</td></tr>\n",
          e(g.target), e(g.against), e(g.reference), e(g.config), e(g.variant), e(g.r.block),
          e(g.r.row.empty() ? "-" : g.r.row),
          e(g.r.metric + (g.r.unit.empty() ? "" : " (" + g.r.unit + ")")), num(g.r.base_centre),
          num(g.r.centre), g.r.pct, e(p_number_text(g.r.p_value, 3)));
    body += "</tbody></table>\n";
  }
  for (std::size_t i = 0; i < r.regressions.size(); ++i) {
    const auto& g = r.regressions[i];
    body += fmt::format("<section class=\"regression\"><h3>{} vs {}: {}{} {}</h3>\n", e(g.target),
                        e(g.reference), e(g.r.block), e(g.r.row.empty() ? "" : " " + g.r.row),
                        e(g.r.metric));
    body += "<p>" + regression_change_sentence(g) + "</p>\n";
    if (const std::string commits = regression_commits_sentence(g, html_escape); !commits.empty())
      body += "<p>" + commits + "</p>\n" +
              (g.last_good.empty() ? "" : "<pre>" + e(g.bisect_command) + "</pre>\n");
    // The plots of the regressed table, from its comparison.
    for (const auto& c : r.comparisons) {
      if (!same_pair(g, c)) continue;
      for (std::size_t k = 0; k < c.comparison.blocks.size(); ++k) {
        const Block& b = c.comparison.blocks[k];
        if (b.workload != g.r.workload || b.name != g.r.block || b.metric.name != g.r.metric) continue;
        body += "<div class=\"plots\">\n";
        for (const auto& p : block_plots(c.comparison, k, fmt::format("r{}-", i))) {
          body += fmt::format("<div class=\"plot\"><h4>{}</h4><div id=\"{}\"></div></div>\n", e(p.caption), p.id);
          plots.push_back({{"id", p.id}, {"kind", p.kind}, {"spec", p.spec}});
        }
        body += "</div>\n";
      }
    }
    body += g.schedstat ? "<p>Schedstat, summed over the row's iterations:</p>\n<pre>" +
                              e(schedstat::render_text(*g.schedstat)) + "</pre>\n"
                        : fmt::format("<p>Schedstat: {}.</p>\n", e(g.schedstat_reason));
    body += "</section>\n";
  }
  body += fmt::format("<h2>Change points in history ({})</h2>\n", r.changes.size());
  if (!r.changes.empty()) {
    body += "<table class=\"changes\"><thead><tr><th>target</th><th>config</th><th>variant</th><th>table</th>"
            "<th>row</th><th>metric</th><th>before</th><th>after</th><th>change</th><th>p</th>"
            "<th>first night after</th><th>last night before</th></tr></thead><tbody>\n";
    const auto night = [&](const ChangeRun& n, const std::string& commit) {
      return n.run_id == 0 ? std::string("-")
                           : fmt::format("run {} {}{}", n.run_id, n.kernel, commit.empty() ? "" : " " + commit.substr(0, 12));
    };
    for (const auto& c : r.changes) {
      const HistoryChange& x = c.change;
      body += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td class=\"pct\">{:+.2f}% ({})</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          e(c.target), e(c.config), e(x.series.variant), e(x.series.block), e(x.series.row.empty() ? "-" : x.series.row),
          e(c.metric + (c.unit.empty() ? "" : " (" + c.unit + ")")), num(x.centre_before), num(x.centre_after), x.pct,
          x.worse ? "worse" : "better", e(p_number_text(x.p_value, 3)), e(night(x.after, c.bad)), e(night(x.before, c.good)));
    }
    body += "</tbody></table>\n";
    for (const auto& c : r.changes)
      if (!c.bisect_command.empty())
        body += fmt::format("<p>{} / {}: {} {} {:+.2f}%: commits across the change {}..{} in {}. Bisect them:</p>\n"
                            "<pre>{}</pre>\n",
                            e(c.target), e(c.config), e(c.change.series.block + " " + c.change.series.row), e(c.metric),
                            c.change.pct, e(c.good), e(c.bad), e(c.repo), e(c.bisect_command));
  }
  for (const auto& n : r.change_notes) body += "<p class=\"note\">Not searched for change points: " + e(n) + ".</p>\n";
  // Every target and config with its status, as the markdown report's
  // "Targets": what was measured tonight and what was reused.
  const auto& in = r.input;
  body += "<h2>Targets</h2>\n<table class=\"targets\"><thead><tr><th>target</th><th>kernel</th><th>config</th>"
          "<th>status</th><th>run</th><th>measured now</th></tr></thead><tbody>\n";
  for (std::size_t t = 0; t < in.targets.size(); ++t)
    for (const auto& config : in.configs)
      for (const auto& c : in.cells)
        if (c.target == in.targets[t] && c.config == config)
          body += fmt::format(
              "<tr class=\"{}\"><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
              to_string(c.status), e(c.target), t == in.baseline ? " (baseline)" : "", e(c.kernel_release),
              e(c.config),
              c.status == CellStatus::kFailed ? "failed: " + e(c.error) : e(std::string(to_string(c.status))),
              c.run_id ? std::to_string(*c.run_id) : "", c.new_now ? "yes" : "no (reused)");
  body += "</tbody></table>\n";
  if (!r.failures.empty()) {
    body += "<h2>Failures</h2>\n<ul>\n";
    for (const auto& f : r.failures) body += "<li>" + e(f) + "</li>\n";
    body += "</ul>\n";
  }
  body += "<h2>Comparisons</h2>\n";
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    const auto& c = r.comparisons[i];
    body += fmt::format("<section class=\"comparison\"><h2>{} vs {} ({}), {}, variant {}{}</h2>\n",
                        e(c.target), e(c.reference), e(c.against), e(c.config), e(c.variant),
                        c.regressions ? fmt::format(": {} regression{}", c.regressions,
                                                    c.regressions == 1 ? "" : "s")
                                      : "");
    body += comparison_html(c.comparison, fmt::format("c{}-", i), plots, &flames);
    if (c.comparison.profiles.empty()) body += no_profiles_html(c.profiles_error);
    body += "</section>\n";
  }
  return html_page("nightly: " + r.input.name, vega_script, body, plots, flames);
}

}  // namespace schedlab
