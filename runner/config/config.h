// An experiment file, loaded and validated against the workload registry
// before anything runs. Every error names the file, the line and the key.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sequential/sequential.h"
#include "runner/hosts/ssh_config.h"
#include "runner/input/config_error.h"
#include "runner/knobs/knob_settings.h"
#include "runner/lab/lab_config.h"
#include "workloads/workload.h"

namespace schedlab {

struct VariantConfig {
  std::string name;
  // Its knobs, read by the kind rows (runner/knobs/knob_kind.h).
  KnobSettings knobs;
  // Lab SUTs: the kernels (as the lab's `kernels:` spell them) this variant
  // applies to; empty: every kernel. NO_PLACE_LAG exists on EEVDF only.
  std::vector<std::string> kernels;
  int line = 0;
};

// How many measured iterations a sweep point gets, per variant: a fixed
// count (min == max); adaptive: at least min, then until the confidence
// interval's half-width is at most ci_width_pct of the centre, at most max;
// or sequential (`stop: sequential`): interleaved rounds until a group
// sequential test (analysis/sequential/sequential.h) of every non-baseline variant
// against the baseline says `different` or `same`, at most max.
// The most iterations a config may ask for (per point, adaptive max included).
constexpr std::int64_t kMaxIterations = 1000000;

// `stop: sequential` and its error rates: the design's alpha, power and
// min_effect_pct (min is its min_n); where it was given, for the checks
// that need the whole file (variants, order, pairs).
struct SequentialStop {
  SequentialDesign design;
  int line = 0;
  std::string key;  // "iterations.stop", "workloads[0].hackbench.iterations.stop"
};

struct IterationPolicy {
  int min = 5;
  int max = 5;
  std::optional<double> ci_width_pct;
  std::optional<SequentialStop> sequential;
  bool adaptive() const { return ci_width_pct.has_value(); }
};

// Variants run interleaved per iteration (A B A B ...) so slow drift hits
// them alike, or sequentially per sweep point (A A ... B B ...).
enum class Order { kInterleaved, kSequential };

// The `tasks` monitor's settings (`task_monitor:` at the top level or per
// workload; a workload's keys override the top level's).
struct TaskMonitorConfig {
  // How often the workload's tasks are sampled during an iteration.
  std::chrono::milliseconds interval{100};
  // The comm names to sample; empty: the workload's own (Workload::task_names).
  std::vector<std::string> comm;
};

// The perf monitors' settings (top-level `perf_stat:` and `perf_profile:`).
struct PerfConfig {
  // perf-stat's events; empty: perf_stat::default_events().
  std::vector<std::string> events;
  std::vector<int> event_lines;  // the config line of each of `events`
  // perf-profile's samples per second and CPU (perf record -F).
  int frequency = 99;
};

struct WorkloadConfig {
  const Workload* workload = nullptr;
  // A workload made from the config itself (`command`); `workload` points here.
  std::shared_ptr<const Workload> owned;
  // Every parameter of the workload: the configured values, or the default.
  std::map<std::string, std::vector<ParamValue>> values;
  IterationPolicy iterations;
  // Kernel counter monitors snapshotted around each iteration on the SUT
  // (analysis/counters/monitors.h names), in configuration order: the entry's
  // `monitors:`, else the top-level default, else none.
  std::vector<std::string> monitors;
  TaskMonitorConfig task_monitor;
  int line = 0;
};

// One SUT/loadgen pair of `pairs:`; the plan runs on every pair at once.
struct PairConfig {
  std::string name;  // unique; default: from the SUT's host, or pairN
  std::string sut;
  std::string loadgen = "local";
  std::string sut_address;  // empty: derived as for hosts:
  int line = 0;
};

struct Config {
  std::string path;
  std::string text;
  std::string description;
  std::string sut = "local";      // or ssh://[user@]host[:port]
  std::optional<LabConfig> sut_lab;  // hosts.sut: {lab: {...}}; sut is then "lab"
  std::string loadgen = "local";
  std::string sut_address;        // the SUT as the loadgen sees it; empty: derived
  // `pairs:` instead of `hosts:`; empty: the one pair above.
  std::vector<PairConfig> pairs;
  SshConfig ssh;
  IterationPolicy iterations;
  std::vector<std::string> monitors;  // top-level `monitors:`, the workloads' default
  TaskMonitorConfig task_monitor;     // top-level `task_monitor:`, the workloads' default
  PerfConfig perf;                    // top-level `perf_stat:` and `perf_profile:`
  Order order = Order::kInterleaved;
  std::vector<WorkloadConfig> workloads;
  std::vector<VariantConfig> variants;  // the first one is the baseline
};

// Reads and validates. Throws ConfigError.
Config load_config_file(const std::string& path);
// `path` is only used in error messages.
Config parse_config(const std::string& text, const std::string& path);

}  // namespace schedlab
