// Renderers of the nightly report (analysis/nightly/nightly_report.h): they only
// format. Markdown is for people and may change; JSON is versioned.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/counters/render_schedstat.h"
#include "analysis/nightly/nightly_report.h"
#include "analysis/nightly/nightly_sentences.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/stats/significance.h"
#include "base/json_data.h"
#include "base/text.h"

namespace schedlab {
namespace {

std::string rule_text(const RegressionRule& rule) {
  std::string text = fmt::format("{}, alpha {}, minimum effect {}%",
                                 test_title(test_from_name(rule.test).value_or(Test::kWelch)),
                                 rule.alpha, rule.min_effect_pct);
  for (const auto& [name, m] : rule.per_metric) {
    text += fmt::format("; {}:", name);
    if (m.alpha) text += fmt::format(" alpha {}", *m.alpha);
    if (m.min_effect_pct) text += fmt::format(" minimum effect {}%", *m.min_effect_pct);
  }
  return text;
}

// The report within a mail's 100 columns where markdown allows: prose
// lines wrapped (a paragraph's line breaks are not shown); a table row or a
// heading is one line by markdown's syntax, and a fenced command (bisect's)
// is copied whole, so they stay as they are.
std::string wrap_prose(const std::string& md) {
  std::string out;
  bool fenced = false;
  for (const std::string_view line : split_lines(md)) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced || line.empty() || line.starts_with('|') || line.starts_with('#'))
      out.append(line).push_back('\n');
    else
      out += wrap_words(line, 100, "  ");
  }
  return out;
}

// A comparison as its text table: short column labels and their key when
// the targets' names are long, as compare prints it.
std::string comparison_text(Comparison c) {
  make_names_terminal_safe(
      c);  // a run's name or kernel from a database: no newline of it forges a line
  shorten_column_labels(c);
  return render_text(c);
}

// Stored text (a kernel release, a run's name) escaped as terminal_safe does
// (a newline too, so it cannot end the row), and a '|' as \|: a table cell.
std::string md_cell(std::string_view raw) {
  const std::string s = terminal_safe(raw);
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string fmt_num(double v) {
  return fmt::format("{:.6g}", v);
}

// A night at one end of a change: its run, kernel and commit.
std::string night(const ChangeRun& r, const std::string& commit) {
  if (r.run_id == 0) return "-";
  std::string s = fmt::format("run {}", r.run_id);
  if (!r.kernel.empty()) s += " " + r.kernel;
  if (!commit.empty()) s += " " + commit.substr(0, 12);
  return s;
}

nlohmann::json change_json(const NightlyChange& c) {
  using nlohmann::json;
  const HistoryChange& x = c.change;
  const auto run = [](const ChangeRun& r, const std::string& commit) -> json {
    if (r.run_id == 0) return nullptr;
    return {{"run_id", r.run_id}, {"run", r.run}, {"date", r.date}, {"kernel", r.kernel},
            {"commit", commit.empty() ? json(nullptr) : json(commit)}};
  };
  return {{"target", c.target},
          {"config", c.config},
          {"workload", c.workload},
          {"metric", c.metric},
          {"unit", c.unit},
          {"series", {{"variant", x.series.variant}, {"block", x.series.block}, {"row", x.series.row},
                      {"params", x.series.params}}},
          {"before", x.centre_before},
          {"after", x.centre_after},
          {"pct", x.pct},
          {"worse", x.worse},
          {"p_value", x.p_value},
          {"runs_before", x.runs_before},
          {"runs_after", x.runs_after},
          {"first_night_after", run(x.after, c.bad.empty() ? x.after.commit : c.bad)},
          {"last_night_before", run(x.before, c.good.empty() ? x.before.commit : c.good)},
          {"commits", c.repo.empty() ? json(nullptr)
                                     : json{{"repo", c.repo},
                                            {"good", c.good.empty() ? json(nullptr) : json(c.good)},
                                            {"bad", c.bad.empty() ? json(nullptr) : json(c.bad)},
                                            {"bisect_command", c.bisect_command}}}};
}

}  // namespace

std::string render_nightly_markdown(const NightlyReport& r) {
  const auto& in = r.input;
  std::string md = fmt::format("# schedlab nightly: {}\n\n", in.name);
  md += fmt::format(
      "Baseline: **{}**. Rule: a regression is significant, at least the minimum "
      "effect, and in the bad direction ({}).\n\n",
      in.targets.at(in.baseline), rule_text(in.rule));
  md += r.regressed() ? fmt::format("**{} regression{}.**\n\n", r.regressions.size(),
                                    r.regressions.size() == 1 ? "" : "s")
                      : "No regression.\n\n";

  md += fmt::format("## Regressions ({})\n\n", r.regressions.size());
  if (r.regressions.empty()) {
    md += "None.\n\n";
  } else {
    md +=
        "| target | against | config | variant | table | row | metric | reference | target | "
        "change | p |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& g : r.regressions)
      md += fmt::format("| {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} | {:+.2f}% | {} |\n",
                        md_cell(g.target), g.against, md_cell(g.reference), md_cell(g.config),
                        md_cell(g.variant), md_cell(g.r.block),
                        md_cell(g.r.row.empty() ? "-" : g.r.row),
                        md_cell(g.r.metric + (g.r.unit.empty() ? "" : " (" + g.r.unit + ")")),
                        fmt_num(g.r.base_centre), fmt_num(g.r.centre), g.r.pct, p_number_text(g.r.p_value, 3));
    md += "\n";
    for (const auto& g : r.regressions) {
      md += fmt::format("### {} vs {}: {}{} {}\n\n", g.target, g.reference, g.r.block,
                        g.r.row.empty() ? "" : " " + g.r.row, g.r.metric);
      md += regression_change_sentence(g) + "\n\n";
      if (const std::string commits = regression_commits_sentence(g, unescaped); !commits.empty())
        md +=
            commits + (g.last_good.empty() ? "\n\n" : "\n\n```\n" + g.bisect_command + "\n```\n\n");
      if (g.schedstat)
        md += "Schedstat, summed over the row's iterations:\n\n```\n" +
              schedstat::render_text(*g.schedstat) + "```\n\n";
      else
        md += fmt::format("Schedstat: {}.\n\n", g.schedstat_reason);
    }
  }

  md += fmt::format("## Change points in history ({})\n\n", r.changes.size());
  if (r.changes.empty()) {
    md += "None.\n\n";
  } else {
    md += "| target | config | variant | table | row | metric | before | after | change | p | first night after | "
          "last night before |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& c : r.changes) {
      const HistoryChange& x = c.change;
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {:+.2f}% ({}) | {} | {} | {} |\n",
                        md_cell(c.target), md_cell(c.config), md_cell(x.series.variant), md_cell(x.series.block),
                        md_cell(x.series.row.empty() ? "-" : x.series.row),
                        md_cell(c.metric + (c.unit.empty() ? "" : " (" + c.unit + ")")), fmt_num(x.centre_before),
                        fmt_num(x.centre_after), x.pct, x.worse ? "worse" : "better", p_number_text(x.p_value, 3),
                        md_cell(night(x.after, c.bad)), md_cell(night(x.before, c.good)));
    }
    md += "\n";
    for (const auto& c : r.changes) {
      if (c.repo.empty()) continue;
      md += fmt::format("### {} / {}: {} {}{} {:+.2f}%\n\n", c.target, c.config, c.change.series.block,
                        c.change.series.row.empty() ? "" : c.change.series.row + " ", c.metric, c.change.pct);
      if (c.bisect_command.empty())
        md += fmt::format("Commits: no range to bisect ({}).\n\n",
                          c.good.empty() || c.bad.empty() ? "a night either side has no commit" : "the same commit");
      else
        md += fmt::format("Commits across the change: {}..{} in {}. Bisect them:\n\n```\n{}\n```\n\n", c.good, c.bad,
                          c.repo, c.bisect_command);
    }
  }
  for (const auto& n : r.change_notes) md += fmt::format("Not searched for change points: {}.\n\n", md_cell(n));

  md +=
      "## Targets\n\n| target | kernel | config | status | run | measured now "
      "|\n|---|---|---|---|---|---|\n";
  for (std::size_t t = 0; t < in.targets.size(); ++t)
    for (const auto& config : in.configs)
      for (const auto& c : in.cells)
        if (c.target == in.targets[t] && c.config == config)
          md += fmt::format(
              "| {}{} | {} | {} | {} | {} | {} |\n", md_cell(c.target),
              t == in.baseline ? " (baseline)" : "", md_cell(c.kernel_release), md_cell(c.config),
              c.status == CellStatus::kFailed ? "failed: " + md_cell(c.error)
                                              : std::string(to_string(c.status)),
              c.run_id ? std::to_string(*c.run_id) : "", c.new_now ? "yes" : "no (reused)");
  md += "\n";

  md += "## Comparisons\n\n";
  for (const auto& c : r.comparisons) {
    md += fmt::format("### {}: {} vs {} ({}){}\n\n", c.config, c.target, c.reference, c.against,
                      c.variant == "default" ? "" : ", variant " + c.variant);
    md += "```\n" + comparison_text(c.comparison) + "```\n\n";
  }
  // Whatever stored text is left (a target's name in a heading) reaches the
  // terminal escaped, and no byte of it that takes no column slows the wrapping.
  return wrap_prose(terminal_safe(md, true));
}

std::string render_nightly_json(const NightlyReport& r) {
  using nlohmann::json;
  const auto& in = r.input;
  json per_metric = json::object();
  for (const auto& [name, m] : in.rule.per_metric) {
    per_metric[name] = {
        {"alpha", m.alpha ? json(*m.alpha) : json(nullptr)},
        {"min_effect_pct", m.min_effect_pct ? json(*m.min_effect_pct) : json(nullptr)}};
  }
  json j = {{"format_version", 1},
            {"nightly", in.name},
            {"baseline", in.targets.at(in.baseline)},
            {"rule",
             {{"test", in.rule.test},
              {"alpha", in.rule.alpha},
              {"min_effect_pct", in.rule.min_effect_pct},
              {"per_metric", per_metric}}},
            {"regressed", r.regressed()}};
  json targets = json::array();
  for (const auto& c : in.cells)
    targets.push_back({{"target", c.target},
                       {"config", c.config},
                       {"status", to_string(c.status)},
                       {"new", c.new_now},
                       {"run_id", c.run_id ? json(*c.run_id) : json(nullptr)},
                       {"kernel_release", c.kernel_release},
                       {"kernel_commit", c.kernel_commit},
                       {"error", c.error}});
  j["targets"] = targets;
  json regressions = json::array();
  for (const auto& g : r.regressions)
    regressions.push_back(
        {{"target", g.target},
         {"reference", g.reference},
         {"against", g.against},
         {"config", g.config},
         {"variant", g.variant},
         {"workload", g.r.workload},
         {"block", g.r.block},
         {"row", g.r.row},
         {"metric", g.r.metric},
         {"unit", g.r.unit},
         {"reference_centre", g.r.base_centre},
         {"centre", g.r.centre},
         {"pct", g.r.pct},
         {"p_value", g.r.p_value},
         {"alpha", g.r.alpha},
         {"min_effect_pct", g.r.min_effect_pct},
         {"reference_run", g.reference_run},
         {"target_run", g.target_run},
         {"schedstat", g.schedstat ? schedstat::to_json(*g.schedstat) : json(nullptr)},
         {"schedstat_reason", g.schedstat_reason},
         {"commits",
          g.repo.empty()
              ? json(nullptr)
              : json{{"repo", g.repo},
                     {"bad", g.commit},
                     {"last_good", g.last_good.empty() ? json(nullptr) : json(g.last_good)},
                     {"last_good_run", g.last_good.empty() ? json(nullptr) : json(g.last_good_run)},
                     {"note", g.range_note},
                     {"bisect_command", g.bisect_command}}}});
  j["regressions"] = regressions;
  json comparisons = json::array();
  for (const auto& c : r.comparisons)
    comparisons.push_back({{"config", c.config},
                           {"variant", c.variant},
                           {"reference", c.reference},
                           {"target", c.target},
                           {"against", c.against},
                           {"regressions", c.regressions},
                           {"compare", json::parse(render_json(c.comparison))}});
  j["comparisons"] = comparisons;
  j["failures"] = r.failures;
  json changes = json::array();
  for (const auto& c : r.changes) changes.push_back(change_json(c));
  j["changes"] = changes;
  j["change_notes"] = r.change_notes;
  return json_output(j) + "\n";
}

}  // namespace schedlab
