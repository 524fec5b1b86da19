// A profile's folded stacks as the tree d3-flame-graph draws (report's
// flame graphs, issue 46): the root "all", then the process name, then the
// frames outermost first; a node's value is every sample with that stack
// prefix (its width). Siblings are in name order, as flamegraph.pl sorts
// them. Keys are the library's short ones: n (name), v (value), c
// (children), d (a differential graph's change).
//
// Trimmed, so a profile of a million distinct stacks stays a page: a frame
// with fewer than min_pct of all samples is left out with its callees, its
// samples still in its caller's width (flamegraph.pl's --minwidth, in
// samples rather than pixels). min_pct starts at kFlameMinPct and doubles
// while more than kMaxFlameFrames frames would stay; what was left out is
// counted, for the page to say. A stack deeper than kMaxFlameDepth frames
// (perf stops at 127 by default; stored data may claim any depth) is cut
// there, and counted.
//
// The differential graph is Brendan Gregg's `difffolded.pl -n BASE NEW |
// flamegraph.pl`: frames and widths from the new profile; each frame's d is
// its share of the new profile's samples minus the same stack prefix's share
// of the base's, in percentage points (each profile normalised to its own
// total). A frame only the base has does not show (flamegraph.pl's
// --negate view of the other order would show it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "analysis/counters/perf_profile.h"

namespace schedlab {

inline constexpr double kFlameMinPct = 0.1;
inline constexpr std::size_t kMaxFlameFrames = 5000;
inline constexpr std::size_t kMaxFlameDepth = 512;

struct FlameGraph {
  nlohmann::ordered_json tree;  // {"n": "all", "v": samples, "c": [...]}
  std::uint64_t samples = 0;
  std::size_t frames = 0;    // nodes in the tree, the root included
  std::size_t left_out = 0;  // frames (with their callees) below min_pct
  double min_pct = kFlameMinPct;
  double max_change_pp = 0;    // differential: the largest |d|
  std::size_t cut_stacks = 0;  // distinct stacks cut at kMaxFlameDepth
};

FlameGraph flame_graph(const perf_profile::Folded& f);
FlameGraph differential_flame_graph(const perf_profile::Folded& base,
                                    const perf_profile::Folded& now);

}  // namespace schedlab
