#include "analysis/history.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/compare.h"

namespace schedlab {

History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row) {
  History h{.workload = workload, .metric = metric};
  std::map<std::int64_t, std::string>
      targets;  // run -> nightly target (the latest measurement naming it)
  for (const auto& m : store.nightly_measurements())
    if (m.run_id) targets[*m.run_id] = m.target;
  auto runs = store.list_runs();
  std::stable_sort(runs.begin(), runs.end(),
                   [](const RunInfo& a, const RunInfo& b) { return a.started_at < b.started_at; });
  bool any = false;
  for (const auto& run : runs) {
    const auto metrics = store.metrics(run.id);
    const auto m = std::find_if(metrics.begin(), metrics.end(), [&](const MetricInfo& mi) {
      return mi.workload == workload && mi.name == metric;
    });
    if (m == metrics.end()) continue;
    any = true;
    h.unit = m->unit;
    h.direction = m->direction;
    h.centre = m->centre;
    const auto manifest = nlohmann::json::parse(run.manifest_json, nullptr, false);
    const std::string release = manifest.is_object() && manifest.contains("kernel_release") &&
                                        manifest["kernel_release"].is_string()
                                    ? manifest["kernel_release"].get<std::string>()
                                    : "";
    for (const auto& v : store.variants(run.id)) {
      const Comparison c = compare(store, {ColumnRef{.run_id = run.id, .variant_id = v.id}});
      h.level = c.level;
      for (const auto& b : c.blocks) {
        if (b.workload != workload || b.metric.name != metric) continue;
        for (const auto& r : b.rows) {
          if (!row.empty() && row != r.label && row != b.name + "/" + r.label) continue;
          const Cell& cell = r.cells.front();
          if (cell.n == 0 && cell.failed == 0) continue;  // this variant never ran the row
          h.points.push_back({.date = run.started_at,
                              .run_id = run.id,
                              .run = run.name,
                              .target = targets.count(run.id) ? targets[run.id] : "",
                              .kernel_release = release,
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
  }
  if (!any)
    throw std::invalid_argument(fmt::format("no run in {} has metric '{}' of workload '{}'",
                                            store.path(), metric, workload));
  return h;
}

std::string render_history_text(const History& h) {
  std::string out = fmt::format(
      "{} {}{} ({} is better), {} with its {:.0f}% interval, oldest first\n", h.workload, h.metric,
      h.unit.empty() ? "" : " in " + h.unit, h.direction, h.centre, h.level * 100);
  out +=
      fmt::format("{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n", "date",
                  "run", "target", "kernel", "variant", "row", h.centre, "interval", "n");
  for (const auto& p : h.points) {
    const std::string centre =
        p.centre ? fmt::format("{:.6g}", *p.centre) : (p.n == 0 ? "FAIL" : "n/a");
    const std::string ci = p.ci ? fmt::format("[{:.6g}, {:.6g}]", p.ci->low, p.ci->high) : "n/a";
    out += fmt::format("{:<20}  {:>5}  {:<24}  {:<28}  {:<12}  {:<26}  {:>12}  {:>27}  {:>4}\n",
                       p.date, p.run_id, p.target.empty() ? "-" : p.target,
                       p.kernel_release.empty() ? "-" : p.kernel_release, p.variant,
                       p.block + "/" + p.row, centre, ci, p.n);
  }
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
