// "What changed" (`compare --changed`, issue 46): for two columns, every
// stored monitor counter and the benchmark's own metrics, per benchmark
// point, tested across iterations and kept when the false-discovery rate
// allows it. The shape is Intel LKP's mail table (base mean ±%stddev,
// %change, new mean ±%stddev, name); the choice of rows is not LKP's
// min/max-overlap rule but a test per counter with Benjamini-Hochberg
// control of the false-discovery rate, so an A/A comparison lists (almost)
// nothing.
//
// What a row is. Per iteration, the monitor's stored delta of one counter
// (results' monitor_deltas, per-CPU rows left out: the all-CPU, per-level
// and per-source totals are what a reader compares), named MONITOR.COUNTER
// ("stat.ctxt", "schedstat.MC.lb_count_newidle", "tasks.migrations",
// "perf-stat.context-switches"); a `perf-profile` counter SELF|CHILDREN.SYM
// is named "profile.self.SYM". Benchmark rows are the cells' units (one
// value per iteration, or per run sample), named WORKLOAD.METRIC.
//
// Shares and percentages (perf-profile rows, ratio rows ending in "_pct" or
// holding "_pct_", pressure's avg10/avg60/avg300) change in percentage
// points (change_pp); everything else in percent of the base (change_pct,
// none when the base mean is 0).
//
// Missing values. An iteration whose monitor stored no row of a counter:
// for a ratio, the ratio was undefined there (zero denominator) and the
// iteration is left out; for a perf-profile share or a tasks count, 0
// (sparse rows); for any other counter, not recorded (the monitors write
// every total), and left out. A counter recorded in one column only is
// not tested: it is listed as one-sided (ChangedTable::one_sided), never
// compared with 0 ("-100%").
//
// Floors (LKP leaves tiny counters out as noise too): a count whose base and
// new means are both below kCountFloor in absolute value, and a share whose
// two means are both below kShareFloorPct, are not tested and do not enter
// the false-discovery family. A counter is untestable with fewer than 2
// iterations a side (1 for Mann-Whitney), or when its test is undefined; two
// constant sides that differ (no noise at all: 41 tasks against 81) get p = 0.
//
// The family is every tested counter of every point: q is the BH-adjusted
// p over all of them, as R's p.adjust(p, "BH"); a row is kept when
// q <= fdr. Order per point: the benchmark's metrics first, then by effect
// size: the magnitude of the relative change of the means (a base of 0
// first).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/compare/changed_table.h"
#include "analysis/stats/significance.h"
#include "results/store.h"

namespace schedlab {

struct Comparison;

inline constexpr double kCountFloor = 10;      // a count's mean per iteration
inline constexpr double kShareFloorPct = 0.1;  // a share's mean, in percent

struct ChangedOptions {
  Test test = Test::kWelch;
  double fdr = 0.05;
};

// Benjamini-Hochberg adjusted p-values, in the order given: R's
// p.adjust(p, method = "BH"). Each p must be in [0, 1].
std::vector<double> benjamini_hochberg(std::span<const double> p);

// The table for c's two columns (the first the base). Throws
// std::invalid_argument unless c has exactly two columns, or fdr is outside
// (0, 1). Its renderers: analysis/render/render_changed.h.
ChangedTable what_changed(const Store& store, const Comparison& c, const ChangedOptions& o);

}  // namespace schedlab
