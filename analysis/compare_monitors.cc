#include "analysis/compare_monitors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/compare.h"

namespace schedlab {
namespace {

// What one iteration's stored deltas give (aggregate rows only).
struct IterationCounters {
  std::optional<double> ctxt, intr, irq_total, migrations, ttwu_local, ttwu_count;
};

void add_to(std::optional<double>& o, double v) {
  o = o.value_or(0) + v;
}

std::map<std::int64_t, IterationCounters> counters_of(const Store& store, std::int64_t run_id) {
  std::map<std::int64_t, IterationCounters> out;
  for (const auto& d : store.monitor_deltas(run_id, "", true)) {
    IterationCounters& c = out[d.iteration_id];
    if (d.monitor == "stat") {
      if (d.counter == "ctxt") c.ctxt = d.value;
      if (d.counter == "intr") c.intr = d.value;
    } else if (d.monitor == "interrupts") {
      add_to(c.irq_total, d.value);  // per-source totals (per-CPU rows filtered out)
    } else if (d.monitor == "schedstat") {
      if (d.counter == "all.ttwu_local") c.ttwu_local = d.value;
      if (d.counter == "all.ttwu_count") c.ttwu_count = d.value;
      // Level rows: "<level>.lb_gained_<idle type>", "<level>.alb_pushed".
      const auto dot = d.counter.find('.');
      if (dot != std::string::npos && d.counter.compare(0, dot, "all") != 0) {
        const std::string field = d.counter.substr(dot + 1);
        if (field.starts_with("lb_gained_") || field == "alb_pushed")
          add_to(c.migrations, d.value);
        else if (!c.migrations)
          c.migrations = 0;  // schedstat present: 0 moved is a value
      }
    }
  }
  return out;
}

struct Accumulator {
  double sum = 0;
  std::size_t n = 0;
  void add(std::optional<double> v, double seconds) {
    if (!v || !(seconds > 0)) return;
    sum += *v / seconds;
    ++n;
  }
  std::optional<double> mean() const {
    return n ? std::optional<double>(sum / static_cast<double>(n)) : std::nullopt;
  }
};

std::string value(std::optional<double> v, int precision, std::size_t width) {
  const std::size_t w = width > 11 ? width - 11 : width;  // aligned with the values above
  std::string s = v ? fmt::format("{:>{}.{}f}", *v, w, precision) : fmt::format("{:>{}}", "n/a", w);
  return s + std::string(width - w, ' ');
}

}  // namespace

void add_monitors(const Store& store, Comparison& c) {
  c.monitors.clear();
  std::map<std::int64_t, std::vector<IterationRow>> iterations;
  std::map<std::int64_t, std::map<std::int64_t, IterationCounters>> counters;
  for (const auto& r : c.runs) {
    iterations[r.id] = store.iterations(r.id);
    counters[r.id] = counters_of(store, r.id);
  }
  // Workload blocks and their rows in the order of the benchmark tables.
  for (const Block& b : c.blocks) {
    auto same = [&](const MonitorBlock& m) {
      return m.workload == b.workload && m.block == b.name;
    };
    if (std::any_of(c.monitors.begin(), c.monitors.end(), same)) continue;
    MonitorBlock mb{b.workload, b.name, {}};
    for (const Row& row : b.rows) {
      MonitorRow mr{row.label, {}};
      for (const ColumnRef& col : c.columns) {
        Accumulator ctxt, migr, intr;
        std::optional<double> local, count;
        MonitorCell cell;
        const auto& ctr = counters[col.run_id];
        for (const auto& it : iterations[col.run_id]) {
          if (it.variant_id != col.variant_id || it.workload != b.workload || it.block != b.name ||
              it.row != row.label || it.status != "ok")
            continue;
          const auto found = ctr.find(it.id);
          if (found == ctr.end()) continue;
          const IterationCounters& x = found->second;
          ++cell.n;
          ctxt.add(x.ctxt, it.duration_s);
          migr.add(x.migrations, it.duration_s);
          intr.add(x.intr ? x.intr : x.irq_total, it.duration_s);
          if (x.ttwu_local && x.ttwu_count) {
            add_to(local, *x.ttwu_local);
            add_to(count, *x.ttwu_count);
          }
        }
        cell.ctxt_per_s = ctxt.mean();
        cell.migrations_per_s = migr.mean();
        cell.interrupts_per_s = intr.mean();
        if (count && *count > 0) cell.ttwu_local_pct = *local / *count * 100;
        mr.cells.push_back(cell);
      }
      mb.rows.push_back(std::move(mr));
    }
    c.monitors.push_back(std::move(mb));
  }
}

std::string render_monitors_text(const MonitorBlock& m, const std::vector<ColumnRef>& columns,
                                 const std::vector<std::size_t>& widths) {
  constexpr std::size_t kOpWidth = 10;
  std::size_t label_width = 0;
  for (const auto& r : m.rows) label_width = std::max(label_width, r.label.size());
  std::string out =
      fmt::format("{} monitors (per iteration, mean over the cell's ok iterations)\n", m.block);
  out += std::string(kOpWidth + label_width, ' ');
  for (std::size_t i = 0; i < columns.size(); ++i)
    out += fmt::format("{:>{}}", columns[i].label, widths[i]);
  out += '\n';
  using Field = std::optional<double> MonitorCell::*;
  const std::tuple<const char*, Field, int> lines[] = {
      {"Ctxsw/s", &MonitorCell::ctxt_per_s, 1},
      {"Migr/s", &MonitorCell::migrations_per_s, 1},
      {"Intr/s", &MonitorCell::interrupts_per_s, 1},
      {"WakeLoc%", &MonitorCell::ttwu_local_pct, 2}};
  for (const auto& [op, field, precision] : lines)
    for (const auto& r : m.rows) {
      out += fmt::format("{:<{}}{:<{}}", op, kOpWidth, r.label, label_width);
      for (std::size_t i = 0; i < r.cells.size(); ++i)
        out += value(r.cells[i].*field, precision, widths[i]);
      // Trailing blanks of the last column are noise.
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
    }
  out +=
      "Ctxsw/s: context switches (/proc/stat); Migr/s: tasks moved by load balancing "
      "(schedstat lb_gained + alb_pushed); Intr/s: interrupts (/proc/stat); WakeLoc%: wakeups "
      "of the local CPU (schedstat ttwu_local / ttwu_count); n/a: monitor not captured\n";
  return out;
}

nlohmann::ordered_json monitors_json(const Comparison& c) {
  using Json = nlohmann::ordered_json;
  auto number = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
  };
  Json out = Json::array();
  for (const auto& m : c.monitors) {
    Json rows = Json::array();
    for (const auto& r : m.rows) {
      Json cells = Json::array();
      for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const MonitorCell& x = r.cells[i];
        cells.push_back({{"column", i},
                         {"n", x.n},
                         {"ctxt_per_s", number(x.ctxt_per_s)},
                         {"migrations_per_s", number(x.migrations_per_s)},
                         {"interrupts_per_s", number(x.interrupts_per_s)},
                         {"ttwu_local_pct", number(x.ttwu_local_pct)}});
      }
      rows.push_back({{"label", r.label}, {"cells", cells}});
    }
    out.push_back({{"workload", m.workload}, {"block", m.block}, {"rows", rows}});
  }
  return out;
}

}  // namespace schedlab
