#include "analysis/history.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis/compare.h"

namespace schedlab {

// A year of nightlies is tens of thousands of (run, variant) columns: the
// data comes from a few bulk reads (the metric's samples and the workload's
// iterations streamed a run at a time, the runs declaring the metric, every
// variant, each run's kernel release read by SQLite), and each column goes
// through compare's core, so a point is the cell `schedlab compare` prints.
History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row) {
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
  const auto variants = store.variants_by_run();
  std::unordered_map<std::int64_t, Store::RunLabel> runs;
  for (auto& r : store.run_labels()) runs.emplace(r.id, std::move(r));

  // Points in run id order, as the runs are read; sorted by date after,
  // when the two orders differ (rarely: a run imported late).
  std::vector<HistoryPoint> points;
  struct Stretch {
    std::int64_t run;
    std::size_t begin, end;  // in points
  };
  std::vector<Stretch> stretches;
  store.for_each_run_iterations(workload, metric, [&](std::span<const IterationRow> its) {
    const std::int64_t id = its.front().run_id;
    const auto m = declared.find(id);
    const auto vars = variants.find(id);
    const auto run = runs.find(id);
    if (m == declared.end() || vars == variants.end() || run == runs.end()) return;
    const auto release = releases.find(id);
    const auto target = targets.find(id);
    const std::size_t begin = points.size();
    for (const auto& v : vars->second) {
      const ColumnData column{{.run_id = id, .variant_id = v.id}, its, std::span(&m->second, 1)};
      for (const auto& b : compare_blocks({column})) {
        for (const auto& r : b.rows) {
          if (!row.empty() && row != r.label && row != b.name + "/" + r.label) continue;
          const Cell& cell = r.cells.front();
          if (cell.n == 0 && cell.failed == 0) continue;  // this variant never ran the row
          points.push_back({.date = run->second.started_at,
                            .run_id = id,
                            .run = run->second.name,
                            .target = target == targets.end() ? "" : target->second,
                            .kernel_release = release == releases.end() ? "" : release->second,
                            .variant = v.name,
                            .block = b.name,
                            .row = r.label,
                            .n = cell.n,
                            .centre = cell.centre,
                            .ci = cell.ci.ci,
                            .ci_reason = cell.ci.reason});
        }
      }
    }
    stretches.push_back({id, begin, points.size()});
  });

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
  // Each run's points move once, a run at a time.
  const auto by_date = [&](const Stretch& a, const Stretch& b) { return rank.at(a.run) < rank.at(b.run); };
  if (std::is_sorted(stretches.begin(), stretches.end(), by_date)) {
    h.points = std::move(points);
  } else {
    std::sort(stretches.begin(), stretches.end(), by_date);
    h.points.reserve(points.size());
    for (const auto& st : stretches)
      std::move(points.begin() + static_cast<std::ptrdiff_t>(st.begin),
                points.begin() + static_cast<std::ptrdiff_t>(st.end), std::back_inserter(h.points));
  }
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
}  // namespace

std::string render_history_text(const History& h) {
  std::string out;
  out.reserve(200 * (h.points.size() + 2));
  out += fmt::format(
      "{} {}{} ({} is better), {} with its {:.0f}% interval, oldest first\n", h.workload, h.metric,
      h.unit.empty() ? "" : " in " + h.unit, h.direction, h.centre, h.level * 100);
  out +=
      fmt::format("{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n", "date",
                  "run", "target", "kernel", "variant", "row", h.centre, "interval", "n");
  // One buffer for every line: a year of nightlies is tens of thousands.
  fmt::memory_buffer buf;
  fmt::memory_buffer centre, ci, row;
  for (const auto& p : h.points) {
    centre.clear();
    if (p.centre)
      fmt::format_to(fmt::appender(centre), "{:.6g}", *p.centre);
    else
      fmt::format_to(fmt::appender(centre), "{}", p.n == 0 ? "FAIL" : "n/a");
    ci.clear();
    if (p.ci)
      fmt::format_to(fmt::appender(ci), "[{:.6g}, {:.6g}]", p.ci->low, p.ci->high);
    else
      fmt::format_to(fmt::appender(ci), "n/a");
    row.clear();
    fmt::format_to(fmt::appender(row), "{}/{}", p.block, p.row);
    fmt::format_to(fmt::appender(buf),
                   "{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n", p.date,
                   p.run_id, or_dash(p.target), or_dash(p.kernel_release), p.variant,
                   fmt::string_view(row.data(), row.size()),
                   fmt::string_view(centre.data(), centre.size()),
                   fmt::string_view(ci.data(), ci.size()), p.n);
  }
  out.append(buf.data(), buf.size());
  if (h.points.empty()) out += "(no point matches the row)\n";
  return out;
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
