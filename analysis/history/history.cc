#include "analysis/history/history.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "analysis/compare/compare.h"
#include "analysis/compare/manifest_diff.h"
#include "analysis/history/cell_summaries.h"
#include "analysis/history/history_changes.h"
#include "analysis/render/column_labels.h"
#include "base/json_data.h"
#include "base/sample_range.h"
#include "base/text.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/nightly_log.h"
#include "results/variants_table.h"

namespace schedlab {

// A year of nightlies is tens of thousands of (run, variant) columns. Each
// run's cells come from its stored summaries (analysis/history/cell_summaries.h: a
// row per cell, current by the database's marks) or, for a run without
// them, from its iterations through compare's core, so a point is the cell
// `schedlab compare` prints either way, with its run's label (name, start,
// kernel release: RunLabel); the rest is a bulk read each: the runs
// declaring the metric, the nightly targets (and every variant, when a run
// is computed).
HistoryReader::HistoryReader(const Store& store, std::string workload, std::string metric,
                             std::string row)
    : store_(store),
      snapshot_(store),
      workload_(std::move(workload)),
      metric_(std::move(metric)),
      row_(std::move(row)),
      declared_(store.metrics_table().runs_declaring(workload_, metric_)) {
  data_version_ = store.cell_cache().data_version();  // the snapshot's: declared_ began it
  if (declared_.empty())
    throw std::invalid_argument(fmt::format("no run in {} has metric '{}' of workload '{}'",
                                            store.path(), metric_, workload_));
  // One series is in one unit, direction and centre, the latest run's: a
  // run declaring the metric otherwise was drawn in that scale (hostile16).
  const auto declared = store.metrics_table().metric_by_run(workload_, metric_);
  const auto scale = [](const MetricInfo& m) {
    return terminal_safe(fmt::format("{}, its centre {}", scale_text(m), m.centre));
  };
  for (const auto& [run_id, m] : declared)
    if (const MetricInfo& first = declared.begin()->second;
        !same_scale(m, first) || m.centre != first.centre) {
      const auto name = [&](std::int64_t id) {
        const auto run = store.runs_table().find_run(id);
        return fmt::format("run {} '{}'", id, run ? terminal_safe(excerpt(run->name, 80)) : "");
      };
      throw std::invalid_argument(
          fmt::format("{} {}: {} declares it {}, {} {}: one series cannot hold both",
                      terminal_safe(workload_), terminal_safe(metric_),
                      name(declared.begin()->first), scale(first), name(run_id), scale(m)));
    }
  for (const auto& m : store.nightly_log().nightly_measurements())
    if (m.run_id) targets_[*m.run_id] = m.target;  // the latest measurement naming it
  // A run of kernels as columns measured each on its own guest; the run's
  // release is the first guest's (hostile9: a 6.12 column's points were
  // printed under 6.1's release). Only runs with a LABEL/VARIANT variant
  // are read.
  for (const auto& [run_id, variants] : store.variants_table().variants_by_run()) {
    if (!std::binary_search(declared_.begin(), declared_.end(), run_id) ||
        std::none_of(variants.begin(), variants.end(),
                     [](const VariantInfo& v) { return v.name.find('/') != std::string::npos; }))
      continue;
    const auto run = store.runs_table().find_run(run_id);
    for (auto& [label, release] :
         column_kernels(run ? parse_json_data(run->manifest_json) : nlohmann::json()))
      if (!release.empty()) column_kernels_[run_id].emplace_back(label, release);
  }
}

History HistoryReader::header() const {
  History h;
  h.workload = workload_;
  h.metric = metric_;
  if (const auto m = store_.metrics_table().latest_metric(workload_, metric_)) {
    h.unit = m->unit;
    h.direction = m->direction;
    h.centre = m->centre;
    h.precision = m->precision;
  }
  h.level = CompareOptions{}.level;
  return h;
}

void HistoryReader::emit(const RunLabel& run, std::span<const CellSummary> cells,
                         const std::function<void(const HistoryPoint&)>& visit) const {
  const auto target = targets_.find(run.id);
  HistoryPoint p{.date = run.started_at,
                 .run_id = run.id,
                 .run = run.name,
                 .target = target == targets_.end() ? "" : std::string_view(target->second),
                 .kernel_release = run.kernel_release};
  const auto columns = column_kernels_.find(run.id);
  for (const CellSummary& c : cells) {
    if (!row_.empty() && row_ != c.row && row_ != c.block + "/" + c.row) continue;
    p.variant = c.variant;
    // Each cell's own: a column with no release is the run's, not the
    // cell's before it (hostile10).
    p.kernel_release = run.kernel_release;
    if (columns != column_kernels_.end())
      for (const auto& [label, release] : columns->second)
        if (c.variant.size() > label.size() && c.variant.starts_with(label) &&
            c.variant[label.size()] == '/')
          p.kernel_release = release;
    p.block = c.block;
    p.row = c.row;
    p.params = c.params;
    p.n = static_cast<std::size_t>(c.n);
    // Stored summaries are data: a crafted or damaged database's inf or NaN
    // is no centre and no interval, never "[-nan, inf]"; nor is a value no
    // sample could give (1e308 was printed as 309 digits, issue 44).
    const auto finite = [](std::optional<double> v) { return v && sample_in_range(*v); };
    p.centre = finite(c.centre) ? c.centre : std::nullopt;
    p.ci = c.ci_low && c.ci_high ? std::optional(stats::Interval{*c.ci_low, *c.ci_high}) : std::nullopt;
    p.ci_reason = c.ci_reason;
    if (p.ci && !(finite(c.ci_low) && finite(c.ci_high))) {
      p.ci.reset();
      p.ci_reason = "not finite in the database's cell summaries";
    }
    visit(p);
  }
}

namespace {

// The numbers a kernel release begins with ("6.12.0-rc3" -> 6, 12, 0; at
// most three): what orders kernels. The rest ("-rc3", "-amd64", a local
// version) is not an order, so releases that differ only there keep their
// runs' order by date; a release without numbers comes first.
std::array<long, 3> kernel_numbers(std::string_view release) {
  std::array<long, 3> out{-1, -1, -1};
  std::size_t at = 0;
  for (std::size_t k = 0; k < out.size() && at < release.size(); ++k) {
    std::size_t end = at;
    while (end < release.size() && end - at < 9 && release[end] >= '0' && release[end] <= '9')
      ++end;
    if (end == at) break;
    out[k] = std::stol(std::string(release.substr(at, end - at)));
    if (end >= release.size() || release[end] != '.') break;
    at = end + 1;
  }
  return out;
}

}  // namespace

void HistoryReader::for_each_point(std::vector<RunCells>* computed,
                                   const std::function<void(const HistoryPoint&)>& visit) {
  const auto is = [](const std::vector<std::int64_t>& ids, std::int64_t id) {
    return std::binary_search(ids.begin(), ids.end(), id);
  };
  // The runs without current summaries are computed first and held (a few
  // normally: the one still running, one just imported), to be merged by
  // date into the stored ones as those are read.
  const auto summarised =
      store_.cell_cache().cell_summary_runs(workload_, metric_, kCellSummaryVersion);
  std::vector<std::int64_t> missing;  // ascending
  std::set_difference(declared_.begin(), declared_.end(), summarised.begin(), summarised.end(),
                      std::back_inserter(missing));
  struct Held {
    RunLabel run;
    std::vector<CellSummary> cells;
  };
  const auto oldest_first = [](const RunLabel& a, const RunLabel& b) {
    return std::tie(a.started_at, a.id) < std::tie(b.started_at, b.id);
  };
  // The order points come in: by kernel (its numbers), then oldest first.
  // Runs come from the database oldest first: one that comes before its
  // turn (an import of an older kernel, made later) waits, copied, until
  // every run before it in this order came or is known not to.
  std::vector<RunLabel> runs;  // the declaring runs, in the order points come
  for (auto& r : store_.runs_table().run_labels())
    if (is(declared_, r.id)) runs.push_back(std::move(r));
  std::sort(runs.begin(), runs.end(), [&](const RunLabel& a, const RunLabel& b) {
    const auto ka = kernel_numbers(a.kernel_release), kb = kernel_numbers(b.kernel_release);
    return ka != kb ? ka < kb : oldest_first(a, b);
  });
  std::unordered_map<std::int64_t, std::size_t> rank;
  for (std::size_t i = 0; i < runs.size(); ++i) rank.emplace(runs[i].id, i);
  std::vector<std::size_t> by_date(runs.size());  // ranks, oldest first
  for (std::size_t i = 0; i < by_date.size(); ++i) by_date[i] = i;
  std::sort(by_date.begin(), by_date.end(),
            [&](std::size_t a, std::size_t b) { return oldest_first(runs[a], runs[b]); });
  std::vector<bool> settled(runs.size(), false);  // it came, or never will
  std::map<std::size_t, Held> waiting;            // by rank
  std::size_t next = 0, dated = 0;                // the next rank to visit; by_date settled so far

  if (!missing.empty()) {
    const auto declared = store_.metrics_table().metric_by_run(workload_, metric_);
    const auto variants = store_.variants_table().variants_by_run();
    const auto compute = [&](std::span<const IterationRow> its) {
      const std::int64_t id = its.front().run_id;
      const auto m = declared.find(id);
      const auto vars = variants.find(id);
      const auto run = rank.find(id);
      if (m == declared.end() || vars == variants.end() || run == rank.end() || !is(missing, id))
        return;
      Held one{runs[run->second], {}};
      summarise_cells(its, vars->second, m->second, one.cells);
      if (computed)
        computed->push_back(
            {id, {static_cast<std::int64_t>(its.size()), its.back().id, data_version_}, one.cells});
      if (!one.cells.empty()) waiting.emplace(run->second, std::move(one));
    };
    // A run at a time from the indexes for a few runs; the two scans when
    // most runs have none (a database from before migration 10, or
    // read-only and never kept).
    if (2 * missing.size() > declared_.size())
      store_.iterations_table().for_each_run_iterations(workload_, metric_, compute);
    else
      store_.iterations_table().for_each_run_iterations(workload_, metric_, missing, compute);
  }
  // A computed run is known now, whether it has cells or not.
  for (std::size_t i = 0; i < runs.size(); ++i) settled[i] = is(missing, runs[i].id);

  // Visits the waiting runs whose turn came; `arrived` (with its cells) when its turn is among
  // them.
  const auto visit_settled = [&](const RunLabel* arrived,
                                 std::span<const CellSummary> cells) {
    bool visited = false;
    for (; next < runs.size() && settled[next]; ++next) {
      if (arrived && runs[next].id == arrived->id) {
        emit(*arrived, cells, visit);
        visited = true;
      } else if (const auto w = waiting.find(next); w != waiting.end()) {
        emit(w->second.run, w->second.cells, visit);
        waiting.erase(w);
      }
    }
    return visited;
  };
  store_.cell_cache().for_each_run_cell_summaries(
      workload_, metric_, kCellSummaryVersion,
      [&](const RunLabel& run, std::span<const CellSummary> cells) {
        const auto r = rank.find(run.id);
        if (r == rank.end() || is(missing, run.id)) return;
        // Every run up to this one by date came or never will.
        for (; dated < by_date.size() && !oldest_first(run, runs[by_date[dated]]); ++dated)
          settled[by_date[dated]] = true;
        if (!visit_settled(&run, cells))
          waiting.emplace(r->second, Held{run, {cells.begin(), cells.end()}});
      });
  std::fill(settled.begin(), settled.end(), true);
  visit_settled(nullptr, {});
}

History history(const Store& store, const std::string& workload, const std::string& metric,
                const std::string& row, std::vector<RunCells>* computed) {
  HistoryReader reader(store, workload, metric, row);
  History h = reader.header();
  reader.for_each_point(computed, [&](const HistoryPoint& p) { h.points.push_back(h.keep(p)); });
  return h;
}

std::string_view History::label(std::string_view s) {
  const auto known = labels_.find(s);  // without building a string
  return known != labels_.end() ? *known : *labels_.emplace(s).first;
}

HistoryPoint History::keep(const HistoryPoint& p) {
  HistoryPoint q = p;
  std::size_t i = 0;
  for (std::string_view* s : {&q.date, &q.run, &q.target, &q.kernel_release, &q.variant, &q.block,
                              &q.row, &q.ci_reason, &q.params}) {
    std::string_view& last = last_[i++];
    if (last.data() == nullptr || *s != last) last = label(*s);
    *s = last;
  }
  return q;
}

namespace {

std::string_view or_dash(std::string_view s) { return s.empty() ? "-" : s; }

// Appends `text` right-aligned in `width` columns; `text` is ASCII (a
// number, an interval), so a byte is a column.
void right_ascii(fmt::memory_buffer& buf, std::string_view text, std::size_t width) {
  static constexpr std::string_view kSpaces = "                                ";
  if (text.size() < width) buf.append(kSpaces.substr(0, std::min(width - text.size(), kSpaces.size())));
  buf.append(text);
}

// A chunk is handed on once the buffer holds this much: the whole text (7 MB
// for a year of nightlies) is never in memory, whose first touch of each
// page costs more than formatting it.
constexpr std::size_t kChunk = 64 * 1024;

}  // namespace

// A year of nightlies is tens of thousands of lines of a few thousand
// distinct labels: a run's columns are padded once for its points, and a
// cell's variant and row once for each distinct pair; only the numbers are
// formatted each line, by compiled formats.
//
// A line fits a mail's 100 columns: a run is its short label (r3, as
// compare's columns), its name, start and nightly target in the key after
// the table; a kernel release longer than its column is cut there (whole
// in the key), a long variant name becomes v1, v2, ... (keyed). --wide
// prints the names in the lines instead.
struct HistoryTextWriter::Columns {
  fmt::memory_buffer buf, run, number;
  int precision = 4;
  bool wide = false;
  bool have_run = false;
  std::int64_t run_id = 0;
  std::string date, target, kernel;  // what `run` was padded for
  struct Cell {
    std::string variant, block, row, params;
    std::string text;
  };
  std::vector<Cell> cells;  // a nightly's variants times rows
  std::set<std::int64_t> runs_keyed;
  std::string runs_key;  // a line a run: "  r3    DATE  NAME (target T)"
  std::vector<std::pair<std::string, std::string>> variants_key;
  std::map<std::string, std::string, std::less<>> variant_labels;
};

namespace {

constexpr std::size_t kKernelWidth = 16, kVariantWidth = 12;

}  // namespace

HistoryTextWriter::HistoryTextWriter(const History& h, std::function<void(std::string_view)> write,
                                     bool wide)
    : write_(std::move(write)), columns_(std::make_unique<Columns>()) {
  columns_->precision = h.precision;
  columns_->wide = wide;
  auto& buf = columns_->buf;
  buf.reserve(kChunk + 4096);
  fmt::format_to(
      fmt::appender(buf),
      "{} {}{} ({} is better), {} with its {:.0f}% interval, by kernel, then oldest first\n",
      terminal_safe(h.workload), terminal_safe(h.metric),
      h.unit.empty() ? "" : " in " + terminal_safe(h.unit), h.direction_word(),
      terminal_safe(h.centre), h.level * 100);
  if (wide)
    fmt::format_to(fmt::appender(buf),
                   "{:<20}  {:<32}  {:<24}  {:<28}  {:<12}  {:<26}  {:>3}  {:>10}  {:>20}  {:>4}\n",
                   "date", "run", "target", "kernel", "variant", "row", "set", h.centre, "interval",
                   "n");
  else
    fmt::format_to(fmt::appender(buf), "{:<5} {:<16}  {:<12}  {:<24} {:>3} {:>10} {:>17} {:>3}\n",
                   "run", "kernel", "variant", "row", "set", h.centre, "interval", "n");
}

HistoryTextWriter::~HistoryTextWriter() = default;

void HistoryTextWriter::point(const HistoryPoint& p, std::string_view mark) {
  Columns& c = *columns_;
  any_ = true;
  if (!c.have_run || p.run_id != c.run_id || p.date != c.date || p.target != c.target ||
      p.kernel_release != c.kernel) {
    c.run.clear();
    // Labels from the database, escaped for the terminal (base/text.h).
    const std::string kernel = terminal_safe(or_dash(p.kernel_release));
    if (c.wide) {
      fmt::format_to(fmt::appender(c.run), FMT_COMPILE("{:<20}  {:<32}  {:<24}  {:<28}  "),
                     terminal_safe(p.date), terminal_safe(p.run), terminal_safe(or_dash(p.target)),
                     kernel);
    } else {
      const bool cut = display_width(kernel) > kKernelWidth;
      const std::string label = fmt::format("r{}", p.run_id);
      fmt::format_to(fmt::appender(c.run), FMT_COMPILE("{:<5} {:<16}  "), label,
                     cut ? kernel.substr(0, kKernelWidth - 3) + "..." : kernel);
      if (c.runs_keyed.insert(p.run_id).second)
        c.runs_key += wrap_words(
            fmt::format("  {:<4} {:<20} {}{}{}", label, terminal_safe(p.date), terminal_safe(p.run),
                        p.target.empty() ? "" : " (target " + terminal_safe(p.target) + ")",
                        cut ? " (kernel " + kernel + ")" : ""),
            100, "      ");
    }
    c.have_run = true;
    c.run_id = p.run_id;
    c.date = p.date;
    c.target = p.target;
    c.kernel = p.kernel_release;
  }
  c.buf.append(c.run);
  auto cell = std::find_if(c.cells.begin(), c.cells.end(), [&](const Columns::Cell& x) {
    return x.variant == p.variant && x.block == p.block && x.row == p.row && x.params == p.params;
  });
  if (cell == c.cells.end()) {
    if (c.cells.size() == 64) c.cells.clear();  // labels that change every run
    const std::string row = terminal_safe(fmt::format("{}/{}", p.block, p.row));
    auto set = std::find(sets_.begin(), sets_.end(), p.params);
    if (set == sets_.end()) set = sets_.insert(set, std::string(p.params));
    std::string variant = terminal_safe(p.variant);
    if (!c.wide && display_width(variant) > kVariantWidth) {
      auto [it, added] =
          c.variant_labels.try_emplace(variant, fmt::format("v{}", c.variant_labels.size() + 1));
      if (added) c.variants_key.emplace_back(it->second, variant);
      variant = it->second;
    }
    cell = c.cells.insert(
        c.cells.end(),
        {std::string(p.variant), std::string(p.block), std::string(p.row), std::string(p.params),
         c.wide ? fmt::format(FMT_COMPILE("{:<12}  {:<26}  {:>3}  "), variant, row,
                              set - sets_.begin() + 1)
                : fmt::format(FMT_COMPILE("{:<12}  {:<24} {:>3} "), variant, row,
                              set - sets_.begin() + 1)});
  }
  c.buf.append(cell->text);
  c.number.clear();
  // An in-range extreme (1e149) in scientific notation, as compare shows it.
  const auto number = [&](double v) {
    if (std::abs(v) >= kFixedLimit)
      fmt::format_to(fmt::appender(c.number), FMT_COMPILE("{:.3e}"), v);
    else
      fmt::format_to(fmt::appender(c.number), FMT_COMPILE("{:.{}f}"), v, c.precision);
  };
  if (p.centre)
    number(*p.centre);
  else
    c.number.append(std::string_view(p.n == 0 ? "FAIL" : "n/a"));
  right_ascii(c.buf, {c.number.data(), c.number.size()}, 10);
  c.buf.append(std::string_view(c.wide ? "  " : " "));
  c.number.clear();
  if (p.ci) {
    c.number.push_back('[');
    number(p.ci->low);
    c.number.append(std::string_view(", "));
    number(p.ci->high);
    c.number.push_back(']');
  } else
    c.number.append(std::string_view("n/a"));
  right_ascii(c.buf, {c.number.data(), c.number.size()}, c.wide ? 20 : 17);
  if (c.wide)
    fmt::format_to(fmt::appender(c.buf), FMT_COMPILE("  {:>4}"), p.n);
  else
    fmt::format_to(fmt::appender(c.buf), FMT_COMPILE(" {:>3}"), p.n);
  if (!mark.empty()) {
    c.buf.append(std::string_view(c.wide ? "  <- " : "\n      ^ "));
    c.buf.append(mark);
  }
  c.buf.push_back('\n');
  if (c.buf.size() > kChunk) {
    write_({c.buf.data(), c.buf.size()});
    c.buf.clear();
  }
}

std::vector<std::string> parameter_set_labels(const std::vector<std::string>& sets) {
  // Each set is a JSON object of text values (params_text).
  std::vector<std::map<std::string, std::string>> parsed;
  for (const auto& set : sets) {
    auto& m = parsed.emplace_back();
    const auto j = parse_json_data(set);
    if (j.is_object())
      for (const auto& [k, v] : j.items()) m[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  std::set<std::string> keys, differing;
  for (const auto& m : parsed)
    for (const auto& [k, v] : m) keys.insert(k);
  for (const auto& k : keys)
    for (const auto& m : parsed) {
      const auto it = m.find(k);
      const auto first = parsed.front().find(k);
      if ((it == m.end()) != (first == parsed.front().end()) || (it != m.end() && it->second != first->second))
        differing.insert(k);
    }
  std::vector<std::string> out;
  for (const auto& m : parsed) {
    std::string label;
    for (const auto& [k, v] : m)
      if (parsed.size() == 1 || differing.count(k)) label += fmt::format("{}{} {}", label.empty() ? "" : ", ", k, v);
    if (parsed.size() > 1)
      for (const auto& k : differing)
        if (!m.count(k)) label += fmt::format("{}{} (not recorded)", label.empty() ? "" : ", ", k);
    out.push_back(label.empty() ? "(no parameters recorded)" : label);
  }
  return out;
}

void HistoryTextWriter::finish() {
  auto& buf = columns_->buf;
  if (!any_) fmt::format_to(fmt::appender(buf), "(no point matches the row)\n");
  // Which parameters each set was measured with: a series is a variant,
  // row and set; a change of set is a change of parameters, not of kernel.
  if (sets_.size() == 1) {
    fmt::format_to(fmt::appender(buf), "set 1 (every point): {}\n", parameter_set_labels(sets_).front());
  } else if (sets_.size() > 1) {
    fmt::format_to(fmt::appender(buf), "{} parameter sets, one series each (what differs):\n", sets_.size());
    const auto labels = parameter_set_labels(sets_);
    for (std::size_t i = 0; i < labels.size(); ++i)
      fmt::format_to(fmt::appender(buf), "  set {}: {}\n", i + 1, labels[i]);
  }
  // What the short labels stand for, the runs in the order they came.
  if (!columns_->runs_key.empty())
    fmt::format_to(fmt::appender(buf), "runs (started, name):\n{}", columns_->runs_key);
  fmt::format_to(fmt::appender(buf), "{}", key_text(columns_->variants_key, "variants: "));
  write_({buf.data(), buf.size()});
  buf.clear();
}

std::string render_history_text(const History& h, const HistoryChanges* changes, bool wide) {
  std::string text;
  text.reserve((wide ? 180 : 100) * (h.points.size() + 3));  // the lines' width
  HistoryTextWriter writer(
      h, [&](std::string_view chunk) { text.append(chunk); }, wide);
  for (const auto& p : h.points) writer.point(p, changes ? change_mark(*changes, p) : std::string());
  writer.finish();
  if (changes) text += render_changes_text(*changes);
  return text;
}

std::string render_history_json(const History& h, const HistoryChanges* changes) {
  using nlohmann::json;
  std::vector<std::string> sets;
  const auto set_of = [&](std::string_view params) {
    auto it = std::find(sets.begin(), sets.end(), params);
    if (it == sets.end()) it = sets.insert(it, std::string(params));
    return it - sets.begin() + 1;
  };
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
                      {"params", p.params},
                      {"set", set_of(p.params)},
                      {"n", p.n},
                      {"centre", p.centre ? json(*p.centre) : json(nullptr)},
                      {"ci_low", p.ci ? json(p.ci->low) : json(nullptr)},
                      {"ci_high", p.ci ? json(p.ci->high) : json(nullptr)},
                      {"ci_reason", p.ci_reason}});
  const json j = {{"format_version", 1},
                  {"workload", h.workload},
                  {"metric", h.metric},
                  {"unit", h.unit},
                  {"direction", h.direction_word()},
                  {"centre", h.centre},
                  {"level", h.level},
                  {"points", points}};
  // Additive: what each parameter set (a point's "set", from 1) differs in.
  json labels = json::array();
  for (const auto& l : parameter_set_labels(sets)) labels.push_back(l);
  json with = j;
  with["parameter_sets"] = labels;
  // Additive: history --changes.
  if (changes) {
    const auto run_json = [](const ChangeRun& r) -> json {
      if (r.run_id == 0) return nullptr;
      return {{"run", r.run}, {"run_id", r.run_id}, {"date", r.date},
              {"target", r.target.empty() ? json(nullptr) : json(r.target)},
              {"kernel", r.kernel}, {"commit", r.commit.empty() ? json(nullptr) : json(r.commit)}};
    };
    json list = json::array();
    for (const auto& c : changes->changes)
      list.push_back({{"run", c.after.run},
                      {"run_id", c.after.run_id},
                      {"kernel", c.after.kernel},
                      {"commit", c.after.commit.empty() ? json(nullptr) : json(c.after.commit)},
                      {"before", c.centre_before},
                      {"after", c.centre_after},
                      {"pct", c.pct},
                      {"worse", c.worse},
                      {"p_value", c.p_value},
                      {"runs_before", c.runs_before},
                      {"runs_after", c.runs_after},
                      {"series", {{"variant", c.series.variant}, {"block", c.series.block}, {"row", c.series.row},
                                  {"params", c.series.params}, {"set", c.series.set}}},
                      {"first_run_after", run_json(c.after)},
                      {"last_run_before", run_json(c.before)}});
    with["changes"] = list;
    with["changes_options"] = {{"alpha", changes->options.alpha},
                               {"min_change_pct", changes->options.min_change_pct},
                               {"min_segment", changes->options.min_segment},
                               {"permutations", changes->options.permutations}};
    with["changes_series_searched"] = changes->series_searched;
    with["changes_not_searched"] = changes->too_short;
  }
  with["precision"] = h.precision;  // additive: the decimals text and HTML print, as compare's
  return json_output(with) + "\n";
}

}  // namespace schedlab
