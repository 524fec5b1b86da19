#include "analysis/history.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "analysis/cell_summaries.h"
#include "analysis/compare.h"

namespace schedlab {

// A year of nightlies is tens of thousands of (run, variant) columns. Each
// run's cells come from its stored summaries (analysis/cell_summaries.h: a
// row per cell, current by the database's marks) or, for a run without
// them, from its iterations through compare's core, so a point is the cell
// `schedlab compare` prints either way; the rest is a bulk read each: the
// runs declaring the metric, each run's kernel release read by SQLite (and
// every variant, when a run is computed).
History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row, std::vector<Store::RunCells>* computed) {
  History h{.workload = workload, .metric = metric};
  const auto declared = store.metric_by_run(workload, metric);
  if (declared.empty())
    throw std::invalid_argument(fmt::format("no run in {} has metric '{}' of workload '{}'",
                                            store.path(), metric, workload));
  std::map<std::int64_t, std::string>
      targets;  // run -> nightly target (the latest measurement naming it)
  for (const auto& m : store.nightly_measurements())
    if (m.run_id) targets[*m.run_id] = m.target;
  const auto releases = store.manifest_strings("kernel_release");
  std::unordered_map<std::int64_t, Store::RunLabel> runs;
  for (auto& r : store.run_labels()) runs.emplace(r.id, std::move(r));

  // Points in run id order, as the runs are read; sorted by date after,
  // when the two orders differ (rarely: a run imported late, or one
  // computed after the stored ones).
  std::vector<HistoryPoint> points;
  points.reserve(4 * declared.size());  // a nightly's variants times rows
  struct Stretch {
    std::int64_t run;
    std::size_t begin, end;  // in points
  };
  std::vector<Stretch> stretches;
  stretches.reserve(declared.size());
  const auto add_points = [&](std::span<const CellSummary> cells) {
    const std::int64_t id = cells.front().run_id;
    const auto run = runs.find(id);
    if (!declared.count(id) || run == runs.end()) return;
    const auto release = releases.find(id);
    const auto target = targets.find(id);
    const std::size_t begin = points.size();
    for (const CellSummary& c : cells) {
      if (!row.empty() && row != c.row && row != c.block + "/" + c.row) continue;
      points.push_back({.date = run->second.started_at,
                        .run_id = id,
                        .run = run->second.name,
                        .target = target == targets.end() ? "" : target->second,
                        .kernel_release = release == releases.end() ? "" : release->second,
                        .variant = c.variant,
                        .block = c.block,
                        .row = c.row,
                        .n = static_cast<std::size_t>(c.n),
                        .centre = c.centre,
                        .ci = c.ci_low && c.ci_high
                                  ? std::optional(stats::Interval{*c.ci_low, *c.ci_high})
                                  : std::nullopt,
                        .ci_reason = c.ci_reason});
    }
    stretches.push_back({id, begin, points.size()});
  };

  std::unordered_set<std::int64_t> summarised;
  store.for_each_run_cell_summaries(workload, metric, kCellSummaryVersion,
                                    [&](std::span<const CellSummary> cells) {
                                      summarised.insert(cells.front().run_id);
                                      add_points(cells);
                                    });
  std::vector<std::int64_t> missing;  // ascending, as declared is
  for (const auto& [id, m] : declared)
    if (!summarised.count(id)) missing.push_back(id);
  // Only a run without summaries needs its variants.
  const auto variants =
      missing.empty() ? std::map<std::int64_t, std::vector<VariantInfo>>() : store.variants_by_run();
  std::vector<CellSummary> cells;
  const auto compute = [&](std::span<const IterationRow> its) {
    const std::int64_t id = its.front().run_id;
    const auto m = declared.find(id);
    const auto vars = variants.find(id);
    if (m == declared.end() || vars == variants.end() || summarised.count(id)) return;
    cells.clear();
    summarise_cells(its, vars->second, m->second, cells);
    if (!cells.empty()) add_points(cells);
    if (computed)
      computed->push_back({id, {static_cast<std::int64_t>(its.size()), its.back().id}, cells});
  };
  // A run at a time from the indexes for a few runs (the one still
  // running, a run just imported); the two scans when most runs have none
  // (a database from before migration 10, or read-only and never kept).
  if (2 * missing.size() > declared.size())
    store.for_each_run_iterations(workload, metric, compute);
  else if (!missing.empty())
    store.for_each_run_iterations(workload, metric, missing, compute);

  // Oldest first; the latest run declaring the metric names its unit.
  std::vector<std::int64_t> dated;
  for (const auto& [id, m] : declared)
    if (runs.count(id)) dated.push_back(id);
  std::sort(dated.begin(), dated.end(), [&](std::int64_t a, std::int64_t b) {
    const auto &ra = runs.at(a), &rb = runs.at(b);
    return std::tie(ra.started_at, ra.id) < std::tie(rb.started_at, rb.id);
  });
  std::unordered_map<std::int64_t, std::size_t> rank;
  for (std::size_t i = 0; i < dated.size(); ++i) rank[dated[i]] = i;
  // Each run's points, a run at a time, to their place by date.
  const auto by_date = [&](const Stretch& a, const Stretch& b) { return rank.at(a.run) < rank.at(b.run); };
  if (!std::is_sorted(stretches.begin(), stretches.end(), by_date)) {
    // In place, by following the permutation's cycles: a second vector of
    // every point would double the memory history touches.
    std::sort(stretches.begin(), stretches.end(), by_date);
    std::vector<std::size_t> to(points.size());  // each point's place
    std::size_t at = 0;
    for (const auto& st : stretches)
      for (std::size_t i = st.begin; i < st.end; ++i) to[i] = at++;
    for (std::size_t i = 0; i < points.size(); ++i)
      while (to[i] != i) {
        std::swap(points[i], points[to[i]]);
        std::swap(to[i], to[to[i]]);
      }
  }
  h.points = std::move(points);
  if (!dated.empty()) {
    const MetricInfo& m = declared.at(dated.back());
    h.unit = m.unit;
    h.direction = m.direction;
    h.centre = m.centre;
  }
  h.level = CompareOptions{}.level;
  return h;
}

namespace {

fmt::string_view or_dash(const std::string& s) { return s.empty() ? "-" : fmt::string_view(s); }

// The text into `buf`, handed to `flush` whenever it holds more than
// `chunk` bytes (and at the end); the formats of a point's line are
// compiled, not parsed per line: a year of nightlies is tens of thousands.
template <typename Flush>
void history_text(const History& h, fmt::memory_buffer& buf, std::size_t chunk, Flush flush) {
  fmt::format_to(fmt::appender(buf),
                 "{} {}{} ({} is better), {} with its {:.0f}% interval, oldest first\n",
                 h.workload, h.metric, h.unit.empty() ? "" : " in " + h.unit, h.direction,
                 h.centre, h.level * 100);
  fmt::format_to(fmt::appender(buf),
                 "{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n", "date",
                 "run", "target", "kernel", "variant", "row", h.centre, "interval", "n");
  fmt::memory_buffer centre, ci, row;
  for (const auto& p : h.points) {
    centre.clear();
    if (p.centre)
      fmt::format_to(fmt::appender(centre), FMT_COMPILE("{:.6g}"), *p.centre);
    else
      centre.append(fmt::string_view(p.n == 0 ? "FAIL" : "n/a"));
    ci.clear();
    if (p.ci)
      fmt::format_to(fmt::appender(ci), FMT_COMPILE("[{:.6g}, {:.6g}]"), p.ci->low, p.ci->high);
    else
      ci.append(fmt::string_view("n/a"));
    row.clear();
    fmt::format_to(fmt::appender(row), FMT_COMPILE("{}/{}"), p.block, p.row);
    fmt::format_to(fmt::appender(buf),
                   FMT_COMPILE("{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n"),
                   p.date,
                   p.run_id, or_dash(p.target), or_dash(p.kernel_release), p.variant,
                   fmt::string_view(row.data(), row.size()),
                   fmt::string_view(centre.data(), centre.size()),
                   fmt::string_view(ci.data(), ci.size()), p.n);
    if (buf.size() > chunk) flush();
  }
  if (h.points.empty()) fmt::format_to(fmt::appender(buf), "(no point matches the row)\n");
  flush();
}

}  // namespace

std::string render_history_text(const History& h) {
  fmt::memory_buffer buf;
  buf.reserve(180 * (h.points.size() + 3));  // the lines' width
  history_text(h, buf, SIZE_MAX, [] {});
  return fmt::to_string(buf);
}

void write_history_text(const History& h, std::FILE* out) {
  // A chunk at a time through one small buffer: the whole text (7 MB for a
  // year of nightlies) is never in memory, whose first touch of each page
  // costs more than formatting it.
  constexpr std::size_t kChunk = 64 * 1024;
  fmt::memory_buffer buf;
  buf.reserve(kChunk + 4096);
  history_text(h, buf, kChunk, [&] {
    std::fwrite(buf.data(), 1, buf.size(), out);
    buf.clear();
  });
}



std::string render_history_json(const History& h) {
  using nlohmann::json;
  json points = json::array();
  for (const auto& p : h.points)
    points.push_back({{"date", p.date},
                      {"run_id", p.run_id},
                      {"run", p.run},
                      {"target", p.target.empty() ? json(nullptr) : json(p.target)},
                      {"kernel_release", p.kernel_release},
                      {"variant", p.variant},
                      {"block", p.block},
                      {"row", p.row},
                      {"n", p.n},
                      {"centre", p.centre ? json(*p.centre) : json(nullptr)},
                      {"ci_low", p.ci ? json(p.ci->low) : json(nullptr)},
                      {"ci_high", p.ci ? json(p.ci->high) : json(nullptr)},
                      {"ci_reason", p.ci_reason}});
  const json j = {{"format_version", 1}, {"workload", h.workload},   {"metric", h.metric},
                  {"unit", h.unit},      {"direction", h.direction}, {"centre", h.centre},
                  {"level", h.level},    {"points", points}};
  return j.dump(2) + "\n";
}

}  // namespace schedlab
