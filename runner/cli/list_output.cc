#include "runner/cli/list_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/compare/manifest_diff.h"
#include "analysis/render/column_labels.h"
#include "base/json_data.h"
#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/hosts/locks.h"

namespace schedlab::cli {
namespace {

// A run stored as running whose process is gone (kill -9, power loss) is
// shown as interrupted; the database is not changed (list only reads).
RunStatus shown_status(const Store& store, std::int64_t id, RunStatus status) {
  if (status == RunStatus::kRunning && !RunAlive::held(store.path(), id))
    return RunStatus::kInterrupted;
  return status;
}

// "default,sched-batch,+3": the variants that fit `width` columns, and how
// many more there are (`list --format json` has them all).
std::string variants_within(const std::vector<std::string>& variants, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string more =
        i + 1 < variants.size() ? fmt::format(",+{}", variants.size() - i - 1) : "";
    const std::string with = out + (i ? "," : "") + terminal_safe(variants[i]);
    if (i && display_width(with) + more.size() > width)
      return out + fmt::format(",+{}", variants.size() - i);
    out = with;
  }
  return out;
}

// The run's kernel release ("?" when none is recorded); every kernel of a
// run of kernels as columns, by label ("HEAD 6.1.0, WORKTREE 6.1.0+"; its
// manifest's kernel_release is the first guest's alone). Only such runs,
// whose variants are LABEL/VARIANT, have their manifest read.
std::string kernels(const Store& store, const RunLabel& r, const RunOverview& ov) {
  if (std::any_of(ov.variants.begin(), ov.variants.end(),
                  [](const std::string& v) { return v.find('/') != std::string::npos; }))
    if (const auto run = store.runs_table().find_run(r.id))
      if (const auto k = column_kernels(parse_json_data(run->manifest_json)); !k.empty())
        return labelled_kernels(k);
  return r.kernel_release.empty() ? "?" : r.kernel_release;
}

}  // namespace

void list_json(const Store& store, const Overviews& overview) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : store.runs_table().list_runs()) {
    const auto& ov = overview(r.id);
    out.push_back(
        {{"id", r.id},
         {"name", r.name},
         {"status", to_string(shown_status(store, r.id, r.status))},
         {"started_at", r.started_at},
         {"ended_at", r.ended_at},
         {"config_path", r.config_path},
         {"config_sha256", r.config_sha256},
         {"variants", ov.variants},
         {"iterations_ok", ov.iterations_ok},
         {"iterations_failed", ov.iterations_failed},
         {"planned_iterations",
          ov.planned_max ? nlohmann::json{{"min", ov.planned_min.value_or(*ov.planned_max)},
                                          {"max", *ov.planned_max}}
                         : nlohmann::json(nullptr)},
         {"manifest", require_json_data(r.manifest_json, fmt::format("run {}'s manifest", r.id))}});
  }
  fmt::print("{}\n", json_output(out));
}

void list_text(const Store& store, const Overviews& overview, bool wide) {
  // A line a run from its label (the kernel release is kept by the
  // database, run_kernel_releases): a year of manifests is not parsed.
  const auto runs = store.runs_table().run_labels();
  if (runs.empty()) {
    print_message(fmt::format("no runs in {}\n", store.path()));
    return;
  }
  fmt::memory_buffer text;
  // ok, failed and planned iterations: a run with 4 of 12 failed never
  // reads as plain "ok 8".
  const auto planned = [](const RunOverview& ov) -> std::string {
    if (!ov.planned_max) return "-";
    const std::int64_t min = ov.planned_min.value_or(*ov.planned_max);
    return min == *ov.planned_max ? std::to_string(min)
                                  : fmt::format("{}-{}", min, *ov.planned_max);
  };
  // Names come from whoever wrote the database (a merged task, an
  // import): escaped before padding, so an ESC neither reaches the
  // terminal nor shifts the columns; each column as wide as its longest
  // cell, so a long name shifts none after it.
  struct Line {
    std::string id, name, status, started, ok, failed, planned, kernel, variants;
  };
  std::vector<Line> lines{
      {"id", "name", "status", "started", "ok", "failed", "planned", "kernel", "variants"}};
  for (const auto& r : runs) {
    const auto& ov = overview(r.id);
    lines.push_back({std::to_string(r.id), terminal_safe(r.name),
                     std::string(to_string(shown_status(store, r.id, r.status))),
                     terminal_safe(r.started_at), std::to_string(ov.iterations_ok),
                     std::to_string(ov.iterations_failed), planned(ov),
                     terminal_safe(kernels(store, r, ov)),
                     terminal_safe(fmt::format("{}", fmt::join(ov.variants, ",")))});
  }
  using Field = std::string Line::*;
  const Field fields[] = {&Line::id,     &Line::name,    &Line::status, &Line::started, &Line::ok,
                          &Line::failed, &Line::planned, &Line::kernel, &Line::variants};
  const char* before[] = {"", "  ", " ", " ", " ", " ", " ", "  ", " "};
  const auto layout = [&] {
    std::vector<std::size_t> widths = {4, 4, 6, 7, 5, 6, 7, 6, 0};
    for (const auto& l : lines)
      for (std::size_t f = 0; f < std::size(fields); ++f)
        widths[f] = std::max(widths[f], display_width(l.*fields[f]));
    return widths;
  };
  std::vector<std::size_t> widths = layout();
  const auto line_width = [&] {
    std::size_t w = 0;
    for (std::size_t f = 0; f < std::size(fields); ++f) w += std::strlen(before[f]) + widths[f];
    return w;
  };
  // A mail's 100 columns (unless --wide): a name too long for what the
  // other columns leave becomes its run's short label (r3, as compare's
  // columns) with the name in the key under the table, then the variants
  // that do not fit are counted.
  constexpr std::size_t kWidth = 100;
  std::vector<std::pair<std::string, std::string>> key;
  if (!wide && line_width() > kWidth) {
    const std::size_t others = line_width() - widths[1];
    const std::size_t room = std::max<std::size_t>(kWidth > others ? kWidth - others : 0, 6);
    for (std::size_t i = 1; i < lines.size(); ++i)
      if (display_width(lines[i].name) > room) {
        key.emplace_back(fmt::format("r{}", runs[i - 1].id), lines[i].name);
        lines[i].name = key.back().first;
      }
    widths = layout();
    if (line_width() > kWidth) {
      const std::size_t room_v = std::max<std::size_t>(kWidth + widths[8] - line_width(), 8);
      for (std::size_t i = 1; i < lines.size(); ++i)
        lines[i].variants = variants_within(overview(runs[i - 1].id).variants, room_v);
      widths = layout();
    }
  }
  // Numbers right-aligned; the last column is not padded.
  const bool right[] = {true, false, false, false, true, true, true, false, false};
  for (const auto& l : lines) {
    std::string line;
    for (std::size_t f = 0; f < std::size(fields); ++f) {
      const std::string& cell = l.*fields[f];
      const std::string pad(f + 1 == std::size(fields) ? 0 : widths[f] - display_width(cell), ' ');
      line += before[f] + (right[f] ? pad + cell : cell + pad);
    }
    fmt::format_to(fmt::appender(text), "{}\n", line);
  }
  fmt::format_to(fmt::appender(text), "{}", key_text(key, "runs: ", kWidth));
  std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace schedlab::cli
