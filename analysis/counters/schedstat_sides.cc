#include "analysis/counters/schedstat_sides.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/counters/proc_text.h"
#include "analysis/counters/schedstat_diff.h"
#include "analysis/counters/schedstat_runs.h"
#include "base/file.h"
#include "base/json_data.h"
#include "base/suggest.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "results/variants_table.h"

namespace schedlab {

namespace {

schedstat::Snapshot parse_snapshot(const std::string& text, const std::string& where,
                                   const std::vector<std::string>& level_names) {
  try {
    auto s = schedstat::parse(text);
    if (!level_names.empty()) schedstat::set_level_names(s, level_names);
    return s;
  } catch (const CounterParseError& e) {
    throw SchedstatInputError(CounterParseError(e, where).what());
  }
}

}  // namespace

schedstat::Snapshot load_snapshot(const std::string& path,
                                  const std::vector<std::string>& level_names) {
  try {
    return parse_snapshot(read_file(path), path, level_names);
  } catch (const FileError& e) {
    throw SchedstatInputError(e.what());
  }
}

SchedstatSide side_from_files(const std::string& before, const std::string& after,
                              const std::vector<std::string>& level_names) {
  try {
    return {fmt::format("{} -> {}", before, after),
            schedstat::diff(load_snapshot(before, level_names), load_snapshot(after, level_names))};
  } catch (const CounterMismatchError& e) {
    throw SchedstatInputError(fmt::format("{} -> {}: {}", before, after, e.what()));
  }
}

// RUN[:VARIANT[:ROW]]: a run (id or name), optionally one variant (empty:
// all), optionally one row (its label, e.g. "4", or BLOCK/ROW such as
// hackbench-process-pipes/4). The sum of the selection's schedstat deltas.
SchedstatSide side_from_selection(const Store& store, const std::string& selection,
                                  const std::vector<std::string>& level_names) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t colon; (colon = selection.find(':', from)) != std::string::npos;
       from = colon + 1)
    parts.push_back(selection.substr(from, colon - from));
  parts.push_back(selection.substr(from));
  if (parts.size() > 3 || parts[0].empty())
    throw SchedstatInputError(
        fmt::format("'{}' is not a file, nor a run selection RUN[:VARIANT[:ROW]]", selection));
  const std::optional<RunInfo> run = store.runs_table().find_run_arg(parts[0]);
  if (!run)
    throw SchedstatInputError(fmt::format("'{}' is not a file, and {} has no run '{}'",
                                          terminal_safe(excerpt(selection, 80)), store.path(),
                                          terminal_safe(excerpt(parts[0], 80))));
  std::optional<std::int64_t> variant_id;
  if (parts.size() > 1 && !parts[1].empty()) {
    std::vector<std::string> names;
    for (const auto& v : store.variants_table().variants(run->id)) {
      names.push_back(v.name);
      if (v.name == parts[1]) variant_id = v.id;
    }
    if (!variant_id)
      throw SchedstatInputError(fmt::format("run {} has no variant '{}'{}; it has: {}", run->name,
                                            parts[1], did_you_mean(parts[1], names),
                                            fmt::join(names, ", ")));
  }
  const std::string row = parts.size() > 2 ? parts[2] : "";

  RunSchedstat found;
  try {
    found = run_schedstat(store, {.run_id = run->id,
                                  .variant_id = variant_id,
                                  .row = row,
                                  .level_names = level_names,
                                  .label = run->name});
  } catch (const CounterParseError& e) {
    throw SchedstatInputError(e.what());
  } catch (const CounterMismatchError& e) {
    throw SchedstatInputError(e.what());
  }
  const auto& rows = found.rows;
  const int n = found.iterations;
  auto& sum = found.sum;
  if (!sum) {
    std::string why;
    const auto manifest = parse_json_data(run->manifest_json);
    if (manifest.is_object() && manifest.contains("monitors_unavailable") &&
        manifest["monitors_unavailable"].contains("schedstat"))
      why = fmt::format(" (the schedstat monitor was unavailable: {})",
                        manifest["monitors_unavailable"]["schedstat"].get<std::string>());
    else if (!row.empty() && std::none_of(rows.begin(), rows.end(), [&](const std::string& r) {
               return r == row || r.substr(r.rfind('/') + 1) == row;
             }))
      why = fmt::format(" (no row '{}'; rows: {})", row, fmt::join(rows, ", "));
    else
      why = " (run it with 'monitors: [schedstat]' in the config)";
    throw SchedstatInputError(
        fmt::format("{}: no stored schedstat snapshots of ok iterations{}", selection, why));
  }
  return {fmt::format("{} ({} iteration{})", selection, n, n == 1 ? "" : "s"), std::move(*sum), n};
}

DiffSides diff_sides(const std::vector<std::string>& files, bool delta, const std::string& db,
                     const std::vector<std::string>& level_names) {
  namespace fs = std::filesystem;
  if (delta)
    return {side_from_files(files[0], files[1], level_names),
            side_from_files(files[2], files[3], level_names)};
  // A path that exists is a file; two selections are a comparison.
  const bool f0 = fs::exists(files[0]), f1 = fs::exists(files[1]);
  if (f0 && f1) return {side_from_files(files[0], files[1], level_names), std::nullopt};
  if (f0 || f1)
    throw SchedstatInputError(fmt::format(
        "'{}' is a file but '{}' is not: give two snapshot files (BEFORE AFTER) or two run "
        "selections (RUN[:VARIANT[:ROW]])",
        files[f0 ? 0 : 1], files[f0 ? 1 : 0]));
  if (!fs::exists(db))
    throw SchedstatInputError(
        fmt::format("'{}' and '{}' are not files, and there is no database {} for run selections",
                    files[0], files[1], db));
  Store store(db, Store::Access::kReadOnly);
  return {side_from_selection(store, files[0], level_names),
          side_from_selection(store, files[1], level_names)};
}

}  // namespace schedlab
