// What is computed from schedstat snapshots: the delta of a before/after
// pair, its all-CPU and per-domain-level summaries with derived ratios, and
// the comparison of two deltas (A vs B, e.g. two kernels or two variants).
// Renderers (render_schedstat.h) only format these values.
//
// A delta is Snapshot-shaped (same CPUs and domains; counters are after -
// before, timestamp is the elapsed jiffies), so summaries work the same on a
// delta, on a sum of deltas (accumulate: all iterations of a run), or on a
// single snapshot (counters since boot, as `schedlab schedstat show` prints).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/counters/schedstat.h"

namespace schedlab::schedstat {

// Throws CounterMismatchError unless a and b have the same version, domain
// layout, CPUs (count and numbers) and domains per CPU (count, cpumask,
// name): a delta across a topology change would mix unrelated counters.
void check_same_topology(const Snapshot& a, const Snapshot& b);

// after - before for every counter: the kernel's 32-bit ones (cpu fields
// 1-6, every domain counter) modulo 2^32, its unsigned long ones (the
// timestamp, timeslices) too when below 2^32 (a 32-bit kernel's); a 64-bit
// one going backwards is refused (a reset, or snapshots out of order),
// never taken as a wrap.
// Throws CounterMismatchError for a topology change or a counter that went
// backwards (snapshots from different boots or out of order).
Snapshot diff(const Snapshot& before, const Snapshot& after);

// sum += delta (both deltas of the same topology), e.g. over iterations.
void accumulate(Snapshot& sum, const Snapshot& delta);

// A derived ratio in percent; empty ("n/a") when its denominator is 0.
struct Ratio {
  std::string name;   // stable key, e.g. "ttwu_local_pct", "move_affine_pct"
  std::string label;  // for people, e.g. "try_to_wake_up() that woke the local CPU"
  std::optional<double> pct;
};

// One domain level summed over the CPUs that have it.
struct LevelSummary {
  std::string key;    // level_key(): "MC", "PKG", "NUMA@3"
  std::string level;  // SMT, MC, PKG, NUMA or the kernel's name
  bool inferred = false;
  int index = 0;  // domainN of the first CPU having it
  int cpus = 0;   // CPUs with this level
  DomainCounters c;
  // Wakeups per level as a share of all wakeups (all-CPU ttwu_count): remote
  // (task last ran on another CPU of the domain) and affine (moved to the
  // waking CPU); and per idle type the share of load_balance() calls that
  // moved tasks, (lb_count - lb_balanced - lb_failed) / lb_count. (Affine
  // over remote is not offered: the kernel counts the two at different
  // domains of different CPUs, so it exceeds 100% on real machines.)
  std::vector<Ratio> ratios;
};

struct Summary {
  int version = 0;
  DomainLayout layout = DomainLayout::none;
  std::uint64_t jiffies = 0;  // a delta's elapsed jiffies; a snapshot's timestamp
  int cpus = 0;
  CpuCounters total;  // all-CPU sums
  // Share of try_to_wake_up() that woke the local CPU, share of schedule()
  // that left the CPU idle.
  std::vector<Ratio> ratios;
  std::vector<LevelSummary> levels;  // bottom-up, in first-seen order
};

Summary summarize(const Snapshot& s);

// A domain counter of a level, or empty when the layout does not print it.
std::optional<std::uint64_t> level_counter(const Summary& s, const LevelSummary& l,
                                           std::size_t field);

// A vs B, row by row. Levels are matched by key; a counter or level one side
// lacks is empty on that side. change_pct = (b - a) / a * 100, empty when a
// side is missing or a is 0 (a zero base prints "n/a", never 0%).
struct CompareRow {
  std::string section;  // "all CPUs" or a level key
  std::string name;     // counter or ratio key
  std::string label;    // for people
  bool ratio = false;   // a and b are percentages
  std::optional<double> a, b, change_pct;
};

struct Comparison {
  std::string label_a, label_b;
  Summary a, b;
  std::vector<CompareRow> rows;
};

Comparison compare(const Summary& a, const Summary& b, std::string label_a = "A",
                   std::string label_b = "B");

std::optional<double> pct_change(std::optional<double> a, std::optional<double> b);

}  // namespace schedlab::schedstat
