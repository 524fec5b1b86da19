#include "analysis/compare/compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "analysis/compare/analyse.h"
#include "analysis/compare/sequential_cells.h"
#include "analysis/stats/stats.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/store_error.h"
#include "results/variants_table.h"

namespace schedlab {
namespace {

RunInfo require_run(const Store& store, std::int64_t id) {
  auto run = store.runs_table().find_run(id);
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
// The parameters of a cell's iterations; a parameter on which they
// disagree reads "a|b".
std::map<std::string, std::string> cell_params(const std::vector<const IterationRow*>& its) {
  std::map<std::string, std::set<std::string>> seen;
  const std::string* last = nullptr;  // iterations of a point share one params_json
  for (const IterationRow* it : its) {
    if (last && *last == it->params_json) continue;
    last = &it->params_json;
    const auto j = parse_json_data(it->params_json);
    if (!j.is_object()) continue;
    for (const auto& [k, v] : j.items()) seen[k].insert(param_text(v));
  }
  std::map<std::string, std::string> out;
  for (const auto& [k, values] : seen) {
    std::string joined;
    for (const auto& v : values) joined += (joined.empty() ? "" : "|") + v;
    out[k] = joined;
  }
  return out;
}

// What a cell's parameters say against the baseline's: every key whose
// value differs, or that one side lacks.
std::vector<std::string> unlike(const std::map<std::string, std::string>& cell,
                                const std::map<std::string, std::string>& base) {
  std::set<std::string> keys;
  for (const auto& [k, v] : cell) keys.insert(k);
  for (const auto& [k, v] : base) keys.insert(k);
  std::vector<std::string> out;
  for (const auto& k : keys) {
    const auto a = cell.find(k), b = base.find(k);
    const std::string mine = a == cell.end() ? "(not recorded)" : a->second;
    const std::string theirs = b == base.end() ? "(not recorded)" : b->second;
    if (mine != theirs) out.push_back(fmt::format("{} {} (baseline {})", k, mine, theirs));
  }
  return out;
}

// The parameter whose value is every row's label: hackbench's groups for
// rows "1", "2", "4". Rows with several row parameters ("4/2") have none.
std::string swept_parameter(const Block& b) {
  std::optional<std::set<std::string>> keys;
  for (const auto& r : b.rows) {
    std::set<std::string> mine;
    for (const auto& cell : r.cells)
      for (const auto& [k, v] : cell.params)
        if (v == r.label) mine.insert(k);
    if (!keys) {
      keys = mine;
      continue;
    }
    std::set<std::string> both;
    std::set_intersection(keys->begin(), keys->end(), mine.begin(), mine.end(), std::inserter(both, both.end()));
    keys = both;
  }
  return keys && keys->size() == 1 ? *keys->begin() : "point";
}

Cell make_cell(const MetricInfo& m, Centre centre, const std::vector<const IterationRow*>* its) {
  Cell c;
  if (!its || its->empty()) {
    c.measured = false;
    return c;
  }
  c.params = cell_params(*its);
  const bool interval = m.kind == SampleKind::kInterval;
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

// Resolves a column against its run's variants: fills in names, checks the
// variant belongs to the run.
ColumnRef resolve(const RunInfo& run, const std::vector<VariantInfo>& vars, ColumnRef col) {
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

// "What differs" gets every workload parameter on which a row's cells
// disagree (the swept one never does: it names the row), each column with
// its values, and the config's hash when the columns' runs were made from
// different files.
void add_like_with_like(Comparison& out) {
  const std::size_t n = out.columns.size();
  std::map<std::pair<std::string, std::string>, std::vector<std::set<std::string>>> params;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& b : out.blocks)
    for (const auto& r : b.rows) {
      std::set<std::string> keys;
      for (const auto& cell : r.cells)
        for (const auto& [k, v] : cell.params) keys.insert(k);
      for (const auto& k : keys) {
        std::vector<std::optional<std::string>> values;
        for (const auto& cell : r.cells) {
          if (!cell.measured) continue;
          const auto v = cell.params.find(k);
          values.push_back(v == cell.params.end() ? std::nullopt : std::optional(v->second));
        }
        if (std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) == values.end()) continue;
        const std::pair key{b.workload, k};
        auto& per_column = params[key];
        if (per_column.empty()) {
          per_column.resize(n);
          order.push_back(key);
        }
        for (std::size_t i = 0; i < n; ++i)
          if (const auto v = r.cells[i].params.find(k); v != r.cells[i].params.end())
            per_column[i].insert(v->second);
      }
    }
  for (const auto& key : order) {
    std::vector<std::optional<std::string>> values;
    for (const auto& set : params[key]) {
      if (set.empty()) {
        values.push_back(std::nullopt);
        continue;
      }
      std::string joined;
      for (const auto& v : set) joined += (joined.empty() ? "" : "|") + v;
      values.push_back(joined);
    }
    out.differences.push_back({"param", key.first + " " + key.second, std::move(values)});
  }
  // An import's "config" lists the files it read (schedlab import): two
  // imports of the same measurement differ there, and in nothing measured.
  std::vector<std::optional<std::string>> hashes;
  for (const auto& col : out.columns)
    for (const auto& r : out.runs)
      if (r.id == col.run_id)
        hashes.push_back(r.config_sha256.empty() || r.config_path == "(import)"
                             ? std::nullopt
                             : std::optional(r.config_sha256.substr(0, 12)));
  if (std::adjacent_find(hashes.begin(), hashes.end(), std::not_equal_to<>()) != hashes.end())
    out.differences.push_back({"config", "sha256", std::move(hashes)});
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
      block.swept = swept_parameter(block);
      // Like with like: a cell whose parameters are not its baseline's.
      for (auto& row : block.rows)
        for (std::size_t ci = 1; ci < row.cells.size(); ++ci)
          if (row.cells[ci].measured && row.cells[0].measured)
            row.cells[ci].unlike_baseline = unlike(row.cells[ci].params, row.cells[0].params);
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

  // Each run is read once, however many of its variants are columns (a
  // run of 3000 variants read its variants once per column: 37 s).
  std::map<std::int64_t, std::vector<IterationRow>> iterations;
  std::map<std::int64_t, std::vector<MetricInfo>> metrics;
  std::map<std::int64_t, std::vector<VariantInfo>> variants;
  for (const auto& col : columns) {
    if (!iterations.count(col.run_id)) {
      out.runs.push_back(require_run(store, col.run_id));
      iterations[col.run_id] = store.iterations_table().iterations(col.run_id);
      metrics[col.run_id] = store.metrics_table().metrics(col.run_id);
      variants[col.run_id] = store.variants_table().variants(col.run_id);
    }
    const auto& run = *std::find_if(out.runs.begin(), out.runs.end(),
                                    [&](const RunInfo& r) { return r.id == col.run_id; });
    out.columns.push_back(resolve(run, variants[col.run_id], col));
  }

  // Every run stores its workloads' metrics when it is created: one with
  // none (a crafted database, DELETE FROM metrics) would print no table
  // and pass for a comparison.
  std::vector<std::string> bare;
  for (const RunInfo& run : out.runs)
    if (metrics[run.id].empty())
      bare.push_back(fmt::format("run {} '{}'", run.id, terminal_safe(excerpt(run.name, 80))));
  if (!bare.empty())
    throw StoreError(
        fmt::format("{}: {} hold{} no metric rows (a damaged or crafted database): "
                    "nothing to compare",
                    store.path(), fmt::join(bare, ", "), bare.size() == 1 ? "s" : ""));
  // Nor one whose metric rows all name other workloads than its iterations
  // (UPDATE metrics SET workload = ...): no block, the same empty table.
  for (const RunInfo& run : out.runs) {
    std::set<std::string> unmeasured;
    for (const IterationRow& it : iterations[run.id])
      if (std::none_of(metrics[run.id].begin(), metrics[run.id].end(),
                       [&](const MetricInfo& m) { return m.workload == it.workload; }))
        unmeasured.insert(fmt::format("'{}'", terminal_safe(excerpt(it.workload, 80))));
    if (!unmeasured.empty())
      throw StoreError(fmt::format(
          "{}: run {} '{}' holds no metric rows for its workload{} {} (its metric rows name "
          "other workloads: a damaged or crafted database): nothing to compare",
          store.path(), run.id, terminal_safe(excerpt(run.name, 80)),
          unmeasured.size() == 1 ? "" : "s", fmt::join(unmeasured, ", ")));
  }

  // A table is in one unit and direction, its first run's: a run declaring
  // a metric otherwise had its numbers printed in that scale (a command
  // workload's unit edited from ms to us: 4000 "ms", -79900%; hostile16).
  std::map<std::pair<std::string, std::string>, std::pair<const RunInfo*, const MetricInfo*>>
      scales;
  for (const RunInfo& run : out.runs)
    for (const MetricInfo& m : metrics[run.id]) {
      const auto [first, added] = scales.try_emplace({m.workload, m.name}, &run, &m);
      if (added || same_scale(*first->second.second, m)) continue;
      const auto name = [](const RunInfo& r) {
        return fmt::format("run {} '{}'", r.id, terminal_safe(excerpt(r.name, 80)));
      };
      throw std::invalid_argument(fmt::format(
          "{} {}: {} declares it {}, {} {}: one table cannot show both; compare those runs "
          "apart",
          terminal_safe(m.workload), terminal_safe(m.name), name(*first->second.first),
          terminal_safe(scale_text(*first->second.second)), name(run),
          terminal_safe(scale_text(m))));
    }

  // What differs between the columns' runs (kernel, cmdline, knobs, state).
  std::vector<ManifestColumn> manifests;
  for (const ColumnRef& col : out.columns) {
    const auto& run = *std::find_if(out.runs.begin(), out.runs.end(),
                                    [&](const RunInfo& r) { return r.id == col.run_id; });
    std::string knobs;
    for (const auto& v : variants[col.run_id])
      if (v.id == col.variant_id) knobs = v.knobs_json;
    auto manifest = parse_json_data(run.manifest_json);
    // A pair's column: that pair's SUT manifest.
    if (col.pair && manifest.is_object() && manifest.contains("pairs") &&
        manifest["pairs"].contains(*col.pair))
      manifest = nlohmann::json(manifest["pairs"][*col.pair]);
    // A kernel's column of a kernels-as-columns run: that guest's build.
    manifest = kernel_column_manifest(std::move(manifest), col.variant);
    manifests.push_back({col.label, std::move(manifest), parse_json_data(knobs)});
  }
  out.differences = manifest_differences(manifests);

  std::vector<ColumnData> data;
  for (const ColumnRef& col : out.columns)
    data.push_back({col, iterations[col.run_id], metrics[col.run_id]});
  out.blocks = compare_blocks(data, options);
  add_like_with_like(out);
  attach_sequential(store, out);
  return out;
}

std::string param_text(const nlohmann::json& v) {
  if (v.is_null()) return kUnknownParam;
  return v.is_string() ? v.get<std::string>() : v.dump();
}

bool has_unknown_params(const Comparison& c) {
  const auto unknown = [](const std::string& v) {
    return v == kUnknownParam || v.starts_with("?|") || v.ends_with("|?") ||
           v.find("|?|") != std::string::npos;
  };
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows)
      for (const auto& cell : r.cells)
        for (const auto& [k, v] : cell.params)
          if (unknown(v)) return true;
  return false;
}

std::vector<std::string> unlike_cells(const Comparison& c) {
  std::vector<std::string> out;
  std::set<std::string> seen;  // metric blocks of one workload block share their cells' parameters
  for (const auto& b : c.blocks)
    for (const auto& r : b.rows)
      for (std::size_t i = 1; i < r.cells.size(); ++i)
        if (!r.cells[i].unlike_baseline.empty()) {
          std::string line = fmt::format("{} {} {}: ", b.name, r.label, c.columns[i].label);
          for (std::size_t k = 0; k < r.cells[i].unlike_baseline.size(); ++k)
            line += (k ? ", " : "") + r.cells[i].unlike_baseline[k];
          if (seen.insert(line).second) out.push_back(line);
        }
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
    const auto vars = store.variants_table().variants(id);
    // The pairs with iterations, in configuration order (the manifest's
    // pair_order), any others after them by name.
    std::vector<std::string> pairs;
    if (by_pair) {
      std::set<std::string> stored;
      for (const auto& it : store.iterations_table().iterations(id))
        if (!it.pair.empty()) stored.insert(it.pair);
      const auto manifest = parse_json_data(run.manifest_json);
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
