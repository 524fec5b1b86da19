#include "runner/cli/merge_checks.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "analysis/compare/sequential_cells.h"
#include "analysis/counters/perf_profile.h"
#include "analysis/counters/perf_stat.h"
#include "base/sample_range.h"
#include "base/text.h"
#include "base/time.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/monitor_rows.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/monitors/monitor_cpu.h"

namespace schedlab::cli {
namespace {

// The run's name as a message quotes it.
std::string quoted(const std::string& name) {
  return terminal_safe(excerpt(name, 60));
}

[[noreturn]] void refuse(const std::string& in, const RunInfo& run, const std::string& why) {
  throw std::invalid_argument(
      fmt::format("{}: run '{}' {}; nothing merged", in, quoted(run.name), why));
}

void check_names(const Store& store, const std::string& in, const RunInfo& run) {
  if (const auto problem = run_name_problem(run.name))
    refuse(in, run, fmt::format("has a name no run may be given: {}", *problem));
  for (const auto& v : store.variants_table().variants(run.id))
    if (const auto problem = name_problem(v.name))
      refuse(
          in, run,
          fmt::format("has a variant '{}' no variant may be called: {}", quoted(v.name), *problem));
}

// A run's start and end as schedlab writes them: merge keeps the earlier
// start of a run from two pairs (a string's order), history and Otava's
// export order runs by it.
void check_time(const std::string& in, const RunInfo& run, const char* what,
                const std::string& time) {
  if (!is_utc_iso8601(time))
    refuse(in, run,
           fmt::format("has {} '{}': not a UTC time as schedlab writes it (2026-11-29T18:30:00Z)",
                       what, quoted(time)));
}

// Its point stops as compare and resume read them.
void check_point_stops(const Store& store, const std::string& in, const RunInfo& run) {
  try {
    const auto metrics = store.metrics_table().metrics(run.id);
    for (const auto& stop : store.point_stops_table().point_stops(run.id))
      check_stored_sequential(stop, metrics);
  } catch (const StoreError& e) {
    refuse(in, run, fmt::format("cannot be read back: {}", e.what()));
  } catch (const std::invalid_argument& e) {
    refuse(in, run, fmt::format("cannot be read back: {}", e.what()));
  }
}

// Every stored perf profile decodes to folded stacks, as report and
// compare read them: a crafted one (counts of 1e999, not gzip) is refused,
// naming its iteration. The samples of a variant's ok iterations summed
// (report's column of it) fit a 64-bit count.
void check_profiles(const Store& store, const std::string& in, const RunInfo& run) {
  const std::string monitor(perf_profile::kMonitorName);
  std::map<std::int64_t, std::int64_t> variant_of;  // ok iteration id -> its variant
  for (const auto& it : store.iterations_table().iterations(run.id))
    if (it.status == IterationStatus::kOk) variant_of.emplace(it.id, it.variant_id);
  std::map<std::int64_t, std::uint64_t> samples;  // variant id -> its profiles' samples
  for (const auto& snap : store.monitor_rows().monitor_snapshots(run.id, monitor)) {
    if (snap.path != perf_profile::kStoredPath) continue;
    const std::string what =
        fmt::format("run {} iteration id {}", quoted(run.name), snap.iteration_id);
    try {
      const auto folded = perf_profile::load(snap.text, what);
      const auto v = variant_of.find(snap.iteration_id);
      if (v == variant_of.end()) continue;
      std::uint64_t& sum = samples[v->second];
      for (const auto& [stack, n] : folded) {
        if (n > std::numeric_limits<std::uint64_t>::max() - sum)
          throw CounterParseError(0, fmt::format("{}: with the other profiles of its variant "
                                                 "(variant id {}) summed, the samples overflow "
                                                 "a 64-bit count",
                                                 what, v->second));
        sum += n;
      }
    } catch (const CounterParseError& e) {
      throw std::invalid_argument(fmt::format("{}: {}; nothing merged", in, e.what()));
    }
  }
}

// perf-stat's rows are counts of events, never negative, as its parser
// reads them (perf_stat.h): a crafted database's -294 was merged and
// compare --changed printed -394.0% (hostile9). perf-profile's rows are
// shares of all samples, 0-100% (perf_profile.h): 500 and -50 were merged
// (hostile11).
void check_monitor_ranges(const Store& store, const std::string& in, const RunInfo& run) {
  for (const auto& d :
       store.monitor_rows().monitor_deltas(run.id, std::string(perf_stat::kMonitorName)))
    if (const auto why = count_out_of_range(d.value))
      refuse(in, run,
             fmt::format("has a perf-stat count of {} (iteration id {}) that is no count: {}",
                         terminal_safe(excerpt(d.counter, 60)), d.iteration_id, *why));
  for (const auto& d :
       store.monitor_rows().monitor_deltas(run.id, std::string(perf_profile::kMonitorName)))
    if (const auto why = share_out_of_range(d.value))
      refuse(in, run,
             fmt::format("has a perf-profile share of {} (iteration id {}) that is no share: {}",
                         terminal_safe(excerpt(d.counter, 60)), d.iteration_id, *why));
}

}  // namespace

void check_merge_input(const std::string& in, const std::string& path) {
  const Store store(path, Store::Access::kReadOnly);
  for (const auto& run : store.runs_table().list_runs()) {
    check_names(store, in, run);
    if (const auto problem = monitor_cpu_problem(run.manifest_json))
      refuse(in, run, fmt::format("is refused: {}", *problem));
    check_time(in, run, "started_at", run.started_at);
    if (!run.ended_at.empty()) check_time(in, run, "ended_at", run.ended_at);
    check_point_stops(store, in, run);
    check_profiles(store, in, run);
    check_monitor_ranges(store, in, run);
  }
}

}  // namespace schedlab::cli
