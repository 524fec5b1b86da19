#include "analysis/compare/compare_monitors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/compare/compare.h"
#include "analysis/counters/task_samples.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/monitor_rows.h"
#include "results/store_error.h"

namespace schedlab {
namespace {

// What one iteration's stored deltas give (aggregate rows only).
struct IterationCounters {
  std::optional<double> ctxt, intr, irq_total, migrations, ttwu_local, ttwu_count;
  std::optional<double> task_migrations, tasks;
  std::map<int, std::uint64_t> cpu_hits;
};

void add_to(std::optional<double>& o, double v) {
  o = o.value_or(0) + v;
}

// The CPU of a tasks row "cpu_hits.N" and its count, as the sampler writes
// them (a CPU number, a whole count of samples). A crafted or damaged row
// ("cpu_hits.1e9", "cpu_hits.-1", a count of -5) is a StoreError naming it:
// std::stoi read "1e9" as CPU 1, threw a bare "stoi" past 2^31, and a
// negative count wrapped to 2^64 - 5 samples.
int hits_cpu(const MonitorDeltaRow& d) {
  const std::string_view cpu = std::string_view(d.counter).substr(9);
  constexpr int kMaxCpu = 1 << 22;  // Linux's NR_CPUS is at most 8192; sane far above it
  int n = 0;
  bool ok = !cpu.empty() && cpu.size() <= 7 && all_digits(cpu);
  if (ok) n = std::stoi(std::string(cpu));
  if (!ok || n >= kMaxCpu || !(d.value >= 0) || d.value != std::floor(d.value))
    throw StoreError(
        fmt::format("iteration id {}: tasks counter {}: {} is not a CPU's count of "
                    "samples (a damaged or crafted database)",
                    d.iteration_id, terminal_safe(excerpt(d.counter)), d.value));
  return n;
}

std::map<std::int64_t, IterationCounters> counters_of(const Store& store, std::int64_t run_id) {
  std::map<std::int64_t, IterationCounters> out;
  for (const auto& d : store.monitor_rows().monitor_deltas(run_id, "", true)) {
    IterationCounters& c = out[d.iteration_id];
    if (d.monitor == "stat") {
      if (d.counter == "ctxt") c.ctxt = d.value;
      if (d.counter == "intr") c.intr = d.value;
    } else if (d.monitor == "interrupts") {
      add_to(c.irq_total, d.value);  // per-source totals (per-CPU rows filtered out)
    } else if (d.monitor == tasks::kMonitorName) {
      if (d.counter == "migrations") c.task_migrations = d.value;
      if (d.counter == "tasks") c.tasks = d.value;
      if (d.counter.starts_with("cpu_hits.")) {
        const int cpu = hits_cpu(d);
        c.cpu_hits[cpu] += static_cast<std::uint64_t>(d.value);
      }
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
    iterations[r.id] = store.iterations_table().iterations(r.id);
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
        Accumulator ctxt, migr, intr, task_migr, tasks_seen;
        std::optional<double> local, count;
        MonitorCell cell;
        const auto& ctr = counters[col.run_id];
        for (const auto& it : iterations[col.run_id]) {
          if (it.variant_id != col.variant_id || it.workload != b.workload || it.block != b.name ||
              it.row != row.label || it.status != IterationStatus::kOk)
            continue;
          const auto found = ctr.find(it.id);
          if (found == ctr.end()) continue;
          const IterationCounters& x = found->second;
          ++cell.n;
          ctxt.add(x.ctxt, it.duration_s);
          migr.add(x.migrations, it.duration_s);
          intr.add(x.intr ? x.intr : x.irq_total, it.duration_s);
          task_migr.add(x.task_migrations, 1);  // per iteration, not per second
          tasks_seen.add(x.tasks, 1);
          for (const auto& [cpu, hits] : x.cpu_hits) cell.cpu_hits[cpu] += hits;
          if (x.ttwu_local && x.ttwu_count) {
            add_to(local, *x.ttwu_local);
            add_to(count, *x.ttwu_count);
          }
        }
        cell.ctxt_per_s = ctxt.mean();
        cell.migrations_per_s = migr.mean();
        cell.interrupts_per_s = intr.mean();
        cell.task_migrations = task_migr.mean();
        cell.tasks = tasks_seen.mean();
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
  using Field = std::optional<double> MonitorCell::*;
  const std::tuple<const char*, Field, int> lines[] = {
      {"Ctxsw/s", &MonitorCell::ctxt_per_s, 1},
      {"Migr/s", &MonitorCell::migrations_per_s, 1},
      {"Intr/s", &MonitorCell::interrupts_per_s, 1},
      {"WakeLoc%", &MonitorCell::ttwu_local_pct, 2}};
  // The tasks monitor's rows only when some cell has them.
  const bool with_tasks = std::any_of(m.rows.begin(), m.rows.end(), [](const MonitorRow& r) {
    return std::any_of(r.cells.begin(), r.cells.end(),
                       [](const MonitorCell& c) { return c.tasks.has_value(); });
  });
  const std::tuple<const char*, Field, int> task_lines[] = {
      {"TaskMigr", &MonitorCell::task_migrations, 1}, {"Tasks", &MonitorCell::tasks, 1}};
  std::vector<std::tuple<const char*, Field, int>> all(std::begin(lines), std::end(lines));
  if (with_tasks) all.insert(all.end(), std::begin(task_lines), std::end(task_lines));
  // Many columns: in pieces within a mail's 100 columns, the baseline first in each.
  const auto pieces = table_pieces(
      kOpWidth + label_width,
      std::vector(widths.begin(), widths.begin() + static_cast<std::ptrdiff_t>(columns.size())));
  for (const auto& piece : pieces) {
    if (&piece != &pieces.front()) out += '\n';
    out += std::string(kOpWidth + label_width, ' ');
    for (const std::size_t i : piece) out += fmt::format("{:>{}}", columns[i].label, widths[i]);
    out += '\n';
    for (const auto& [op, field, precision] : all)
      for (const auto& r : m.rows) {
        out += fmt::format("{:<{}}{:<{}}", op, kOpWidth, r.label, label_width);
        for (const std::size_t i : piece)
          if (i < r.cells.size()) out += value(r.cells[i].*field, precision, widths[i]);
        // Trailing blanks of the last column are noise.
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += '\n';
      }
  }
  out += wrap_words(
      "Ctxsw/s: context switches (/proc/stat); Migr/s: tasks moved by load balancing "
      "(schedstat lb_gained + alb_pushed); Intr/s: interrupts (/proc/stat); WakeLoc%: wakeups "
      "of the local CPU (schedstat ttwu_local / ttwu_count); n/a: monitor not captured");
  if (!with_tasks) return out;
  out += wrap_words(
      "TaskMigr: migrations of the workload's own tasks per iteration (tasks monitor: "
      "nr_migrations, a lower bound); Tasks: its tasks seen per iteration");
  out += "CPUs hit (samples that found the workload's tasks on each CPU, summed over the cell):\n";
  std::size_t column_width = 0;
  for (const auto& c : columns) column_width = std::max(column_width, c.label.size());
  for (const auto& r : m.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      out += wrap_words(
          fmt::format(
              "  {:<{}}  {:<{}}  {}", r.label, label_width, columns[i].label, column_width,
              r.cells[i].cpu_hits.empty() ? "n/a" : tasks::format_cpu_hits(r.cells[i].cpu_hits)),
          100, "    ");
  return out;
}

nlohmann::ordered_json monitors_json(const Comparison& c) {
  using Json = nlohmann::ordered_json;
  auto number = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
  };
  // {"0": 352, "1": 220}; null when the tasks monitor did not run.
  auto hits = [](const std::map<int, std::uint64_t>& h) {
    if (h.empty()) return Json(nullptr);
    Json j = Json::object();
    for (const auto& [cpu, n] : h) j[std::to_string(cpu)] = n;
    return j;
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
                         {"ttwu_local_pct", number(x.ttwu_local_pct)},
                         {"task_migrations", number(x.task_migrations)},
                         {"tasks", number(x.tasks)},
                         {"cpu_hits", hits(x.cpu_hits)}});
      }
      rows.push_back({{"label", r.label}, {"cells", cells}});
    }
    out.push_back({{"workload", m.workload}, {"block", m.block}, {"rows", rows}});
  }
  return out;
}

}  // namespace schedlab
