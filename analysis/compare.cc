#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "analysis/analyse.h"
#include "analysis/stats.h"

namespace schedlab {
namespace {

RunInfo require_run(const Store& store, std::int64_t id) {
  auto run = store.find_run(id);
  if (!run) throw StoreError(fmt::format("{}: no run with id {}", store.path(), id));
  return *run;
}

// One column's iterations at one point of the plan: (column, the row's
// order of first appearance, which is unique across groups).
using Points = std::map<std::pair<std::size_t, std::size_t>, std::vector<const IterationRow*>>;

// The samples of one metric at one point. For interval metrics the units
// of the test are the iterations: each contributes the centre of its own
// samples (batch means, a batch being one iteration), as consecutive time
// slices of one run are not independent.
Cell make_cell(const MetricInfo& m, Centre centre, const std::vector<const IterationRow*>* its) {
  Cell c;
  if (!its) return c;
  const bool interval = m.kind == "interval";
  std::vector<double> mine;
  for (const IterationRow* it : *its) {
    if (it->status == IterationStatus::kUnsupported) {
      c.unsupported = it->error;
      continue;
    }
    if (it->status != IterationStatus::kOk) {
      ++c.failed;
      continue;
    }
    for (std::size_t at = 0, end; at < it->notes.size(); at = end + 1) {
      end = it->notes.find('\n', at);
      if (end == std::string::npos) end = it->notes.size();
      if (end > at) c.notes.push_back({it->iteration, it->notes.substr(at, end - at)});
    }
    mine.clear();
    for (const auto& s : it->samples)
      if (s.metric == m.name) {
        mine.push_back(s.value);
        c.origins.push_back({it->id, it->iteration, it->pair});
      }
    c.samples.insert(c.samples.end(), mine.begin(), mine.end());
    if (interval)
      if (auto v = centre_of(mine, centre)) c.units.push_back(*v);
  }
  return c;
}

// A workload block (e.g. hackbench-process-pipes) with its rows and the
// metrics that apply, in order of first appearance.
struct Group {
  std::string workload;
  std::string block;
  struct SeenRow {
    std::string label;
    int order = 0;
    std::size_t first = 0;
  };
  std::vector<SeenRow> rows;
  std::vector<MetricInfo> metrics;
};

// Resolves a column against the store: fills in names, checks the variant
// belongs to the run.
ColumnRef resolve(const Store& store, const RunInfo& run, ColumnRef col) {
  const auto vars = store.variants(run.id);
  auto v = std::find_if(vars.begin(), vars.end(), [&](const VariantInfo& x) {
    return col.variant_id != 0 ? x.id == col.variant_id : x.name == col.variant;
  });
  if (v == vars.end()) {
    std::string names;
    for (const auto& x : vars) names += (names.empty() ? "" : ", ") + x.name;
    const std::string wanted =
        col.variant_id != 0 ? fmt::format("id {}", col.variant_id) : "'" + col.variant + "'";
    throw StoreError(fmt::format("run '{}' (id {}) has no variant {} (variants: {})", run.name,
                                 run.id, wanted, names.empty() ? "none" : names));
  }
  col.run_name = run.name;
  col.variant_id = v->id;
  col.variant = v->name;
  if (col.label.empty()) col.label = v->name;
  return col;
}

// Checks the options; the header fields every comparison carries.
Comparison empty_comparison(const CompareOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1))
    throw std::invalid_argument(fmt::format("alpha must be between 0 and 1, not {}", o.alpha));
  if (!(o.level > 0 && o.level < 1))
    throw std::invalid_argument(
        fmt::format("confidence level must be between 0 and 1, not {}", o.level));
  Comparison out;
  out.alpha = o.alpha;
  out.level = o.level;
  out.test = o.mmtests ? "mmtests" : std::string(test_name(o.test));
  out.all_stats = o.all_stats;
  return out;
}

}  // namespace

std::vector<Block> compare_blocks(const std::vector<ColumnData>& columns,
                                  const CompareOptions& options) {
  std::vector<Block> out;
  // Groups, rows and metrics in order of first appearance across columns;
  // only the compared variants' iterations count.
  // Looked up by scanning (a comparison has a few groups of a few rows), so
  // no key is copied per iteration: history runs this for every column of a
  // year of nightlies.
  std::vector<Group> groups;
  Points points;
  std::size_t seen = 0;
  for (std::size_t ci = 0; ci < columns.size(); ++ci) {
    const ColumnRef& col = columns[ci].ref;
    for (const auto& it : columns[ci].iterations) {
      if (it.variant_id != col.variant_id) continue;
      if (col.pair && it.pair != *col.pair) continue;
      auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
        return x.workload == it.workload && x.block == it.block;
      });
      if (g == groups.end()) g = groups.insert(g, Group{it.workload, it.block, {}, {}});
      for (const auto& m : columns[ci].metrics) {
        if (m.workload != it.workload) continue;
        auto same = [&](const MetricInfo& x) { return x.name == m.name; };
        if (std::none_of(g->metrics.begin(), g->metrics.end(), same)) g->metrics.push_back(m);
      }
      auto r = std::find_if(g->rows.begin(), g->rows.end(),
                            [&](const Group::SeenRow& x) { return x.label == it.row; });
      if (r == g->rows.end()) r = g->rows.insert(r, {it.row, it.row_order, seen++});
      points[{ci, r->first}].push_back(&it);
    }
  }

  for (Group& g : groups) {
    std::stable_sort(g.rows.begin(), g.rows.end(), [](const auto& a, const auto& b) {
      return std::tie(a.order, a.first) < std::tie(b.order, b.first);
    });
    for (const MetricInfo& m : g.metrics) {
      const Centre centre = effective_centre(m, options);
      Block block{g.workload, g.block, m, {}};
      for (const auto& seen_row : g.rows) {
        Row row{seen_row.label, {}, {}};
        for (std::size_t ci = 0; ci < columns.size(); ++ci) {
          auto p = points.find({ci, seen_row.first});
          if (row.params_json.empty() && p != points.end() && !p->second.empty())
            row.params_json = p->second.front()->params_json;
          row.cells.push_back(make_cell(m, centre, p == points.end() ? nullptr : &p->second));
        }
        block.rows.push_back(std::move(row));
      }
      // A metric no iteration measured, while none failed (pgbench's
      // progress metrics in a saved log made without -P), is no table of FAIL.
      const bool measured = std::any_of(block.rows.begin(), block.rows.end(), [](const Row& r) {
        return std::any_of(r.cells.begin(), r.cells.end(), [](const Cell& c) {
          return !c.samples.empty() || c.failed > 0 || !c.unsupported.empty();
        });
      });
      if (!measured) continue;
      analyse_block(block, options);
      out.push_back(std::move(block));
    }
  }
  return out;
}

Comparison compare(const Store& store, const std::vector<ColumnRef>& columns,
                   const CompareOptions& options) {
  if (columns.empty()) throw std::invalid_argument("compare needs at least one column");
  Comparison out = empty_comparison(options);

  // Each run is read once, however many of its variants are columns.
  std::map<std::int64_t, std::vector<IterationRow>> iterations;
  std::map<std::int64_t, std::vector<MetricInfo>> metrics;
  for (const auto& col : columns) {
    if (!iterations.count(col.run_id)) {
      out.runs.push_back(require_run(store, col.run_id));
      iterations[col.run_id] = store.iterations(col.run_id);
      metrics[col.run_id] = store.metrics(col.run_id);
    }
    const auto& run = *std::find_if(out.runs.begin(), out.runs.end(),
                                    [&](const RunInfo& r) { return r.id == col.run_id; });
    out.columns.push_back(resolve(store, run, col));
  }

  // What differs between the columns' runs (kernel, cmdline, knobs, state).
  std::vector<ManifestColumn> manifests;
  for (const ColumnRef& col : out.columns) {
    const auto& run = *std::find_if(out.runs.begin(), out.runs.end(),
                                    [&](const RunInfo& r) { return r.id == col.run_id; });
    std::string knobs;
    for (const auto& v : store.variants(col.run_id))
      if (v.id == col.variant_id) knobs = v.knobs_json;
    auto manifest = nlohmann::json::parse(run.manifest_json, nullptr, false);
    // A pair's column: that pair's SUT manifest.
    if (col.pair && manifest.is_object() && manifest.contains("pairs") &&
        manifest["pairs"].contains(*col.pair))
      manifest = nlohmann::json(manifest["pairs"][*col.pair]);
    manifests.push_back(
        {col.label, std::move(manifest), nlohmann::json::parse(knobs, nullptr, false)});
  }
  out.differences = manifest_differences(manifests);

  std::vector<ColumnData> data;
  for (const ColumnRef& col : out.columns)
    data.push_back({col, iterations[col.run_id], metrics[col.run_id]});
  out.blocks = compare_blocks(data, options);
  return out;
}

Comparison compare_samples(const std::vector<SampleColumn>& columns, const MetricInfo& metric,
                           const CompareOptions& options) {
  if (columns.empty()) throw std::invalid_argument("compare needs at least one column");
  Comparison out = empty_comparison(options);
  Block block{metric.workload, "samples", metric, {}};
  Row row{"", {}, {}};
  for (const auto& col : columns) {
    out.columns.push_back({0, 0, "", col.label, col.label});
    Cell c;
    c.samples = col.samples;
    row.cells.push_back(std::move(c));
  }
  block.rows.push_back(std::move(row));
  analyse_block(block, options);
  out.blocks.push_back(std::move(block));
  return out;
}

std::vector<ColumnRef> default_columns(const Store& store, const std::vector<std::int64_t>& runs,
                                       bool by_pair) {
  std::vector<ColumnRef> cols;
  for (std::int64_t id : runs) {
    const RunInfo run = require_run(store, id);
    const auto vars = store.variants(id);
    // The pairs with iterations, in configuration order (the manifest's
    // pair_order), any others after them by name.
    std::vector<std::string> pairs;
    if (by_pair) {
      std::set<std::string> stored;
      for (const auto& it : store.iterations(id))
        if (!it.pair.empty()) stored.insert(it.pair);
      const auto manifest = nlohmann::json::parse(run.manifest_json, nullptr, false);
      if (manifest.is_object() && manifest.contains("pair_order") &&
          manifest["pair_order"].is_array())
        for (const auto& p : manifest["pair_order"])
          if (p.is_string() && stored.erase(p.get<std::string>()))
            pairs.push_back(p.get<std::string>());
      pairs.insert(pairs.end(), stored.begin(), stored.end());
    }
    for (const auto& v : vars) {
      std::string label = runs.size() == 1   ? v.name
                          : vars.size() == 1 ? run.name
                                             : run.name + "/" + v.name;
      if (pairs.empty()) {
        cols.push_back({run.id, v.id, run.name, v.name, std::move(label)});
        continue;
      }
      for (const auto& p : pairs)
        cols.push_back({run.id, v.id, run.name, v.name, label + "@" + p, p});
    }
  }
  return cols;
}

}  // namespace schedlab
