// schedlab stats: compare plain sample files (one number per line), the
// first the baseline, like benchstat; no database involved.
#include <fmt/format.h>

#include "analysis/compare/compare.h"
#include "analysis/render/column_labels.h"
#include "analysis/render/render.h"
#include "analysis/stats/sample_file.h"
#include "runner/cli/command_doc.h"
#include "runner/cli/common.h"
#include "runner/cli/output_format.h"
#include "runner/cli/stats_options.h"
#include "runner/input/file_glob.h"

namespace schedlab::cli {
namespace {

struct StatsCmdOptions {
  std::vector<std::string> files;
  bool higher = false;
  bool lower = false;
  std::string centre;  // empty: hmean when higher is better, else amean
  std::string name = "value";
  std::string unit;
  int precision = 4;
  std::string domain = "unbounded";
  Format format = Format::kText;
  StatsOptions stats;
};

const Renderers<std::string (*)(const Comparison&)> kStatsOutputs{
    {Format::kText, render_stats_text},
    {Format::kJson, render_stats_json},
};

int stats_command(const StatsCmdOptions& o) {
  std::vector<SampleColumn> columns;
  const Direction direction = o.higher ? Direction::kHigherIsBetter : Direction::kLowerIsBetter;
  MetricInfo metric{"", o.name, o.unit, direction, o.centre, SampleKind::kRun, o.precision};
  if (metric.centre.empty()) metric.centre = o.higher ? "hmean" : "amean";
  metric.domain = domain_from_string(o.domain);  // CLI11 has checked the word
  // A file that cannot be read or parsed is bad input; the comparison's own
  // errors are not.
  if (const int rc = guarded<std::invalid_argument>({}, [&] {
        for (const auto& f : o.files) columns.push_back({f, parse_samples(read_input_file(f), f)});
        return kOk;
      }))
    return rc;
  return guarded({}, [&] {
    CompareOptions options = o.stats.to_options();
    Comparison c = compare_samples(columns, metric, options);
    // Long file names: short labels (c1, c2) and their key, as compare's, in
    // text; and names escaped there, as compare's: a file's name reaches the
    // terminal without its escape sequences (hostile18: `stats *.txt` over a
    // tree from elsewhere).
    if (o.format == Format::kText) {
      shorten_column_labels(c);
      make_names_terminal_safe(c);
    }
    fmt::print("{}", kStatsOutputs.of(o.format)(c));
    return kOk;
  });
}

}  // namespace

void register_stats(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<StatsCmdOptions>();
  auto* cmd =
      add_command(app, "stats",
                  "compare sample files (one number per line, # comments), the first the baseline",
                  {"Compares plain sample files (one number per line, # comments), like benchstat: "
                   "the first file is the baseline; each other gets the change of its centre, its "
                   "interval and a p-value. No database is involved.",
                   {{"schedlab stats old.txt new.txt", "lower is better (times)"},
                    {"schedlab stats --higher --test mwu old.txt new.txt",
                     "throughputs, with the Mann-Whitney U test"}}});
  cmd->add_option("files", o->files, "sample files; the first is the baseline")->required();
  auto* higher = cmd->add_flag("--higher", o->higher, "higher values are better");
  auto* lower = cmd->add_flag("--lower", o->lower, "lower values are better (the default)");
  higher->excludes(lower);
  cmd->add_option("--centre", o->centre,
                  "centre statistic (default: hmean with --higher, else amean)")
      ->check(CLI::IsMember({"amean", "hmean", "gmean", "median"}));
  cmd->add_option("--name", o->name, "what the numbers are, for the title")->capture_default_str();
  cmd->add_option("--unit", o->unit, "their unit, for the title");
  cmd->add_option("--precision", o->precision, "digits after the point")
      ->check(CLI::Range(0, 12))
      ->capture_default_str();
  cmd->add_option("--domain", o->domain,
                  "the values the numbers can take: nonnegative (times, latencies, rates, counts: "
                  "intervals are cut at 0, and say so) or unbounded")
      ->check(CLI::IsMember(domain_words()))
      ->capture_default_str();
  kStatsOutputs.add_option(*cmd, o->format);
  add_stats_options(*cmd, o->stats);
  cmd->callback([o, &exit_code] { exit_code = stats_command(*o); });
}

}  // namespace schedlab::cli
