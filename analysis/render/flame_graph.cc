#include "analysis/render/flame_graph.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/text.h"

namespace schedlab {
namespace {

struct FlameNode {
  std::uint64_t value = 0;
  std::map<std::string, std::unique_ptr<FlameNode>, std::less<>> children;
};

FlameNode flame_tree(const perf_profile::Folded& f, std::size_t* cut = nullptr) {
  FlameNode root;
  for (const auto& [stack, n] : f) {
    root.value += n;
    FlameNode* at = &root;
    std::string_view rest = stack;
    for (std::size_t depth = 1;; ++depth) {
      if (depth > kMaxFlameDepth) {
        if (cut) ++*cut;
        break;
      }
      const auto semi = rest.find(';');
      const std::string_view frame = rest.substr(0, semi);
      auto child = at->children.find(frame);
      if (child == at->children.end())
        child = at->children.emplace(std::string(frame), std::make_unique<FlameNode>()).first;
      at = child->second.get();
      at->value += n;
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  }
  return root;
}

// FlameNodes at least `min` samples wide (the root always), and those below.
std::size_t count_kept_frames(const FlameNode& node, std::uint64_t min, std::size_t& left_out) {
  std::size_t kept = 1;
  for (const auto& [name, child] : node.children) {
    if (child->value >= min)
      kept += count_kept_frames(*child, min, left_out);
    else
      ++left_out;
  }
  return kept;
}

std::uint64_t flame_min_samples(std::uint64_t total, double pct) {
  return std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(static_cast<double>(total) * pct / 100)));
}

// The trim for this tree: min_pct, frames kept and left out.
void choose_trim(const FlameNode& root, FlameGraph& g) {
  while (true) {
    g.left_out = 0;
    g.frames = count_kept_frames(root, flame_min_samples(root.value, g.min_pct), g.left_out);
    if (g.frames <= kMaxFlameFrames || g.min_pct >= 100) return;
    g.min_pct *= 2;
  }
}

double flame_share_pct(std::uint64_t n, std::uint64_t total) {
  return total ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0;
}

// base: the same stack prefix in the base profile (null when it has none).
nlohmann::ordered_json flame_json(const std::string& name, const FlameNode& node, std::uint64_t min,
                                  const FlameNode* base, std::uint64_t total,
                                  std::uint64_t base_total, FlameGraph& g) {
  // A frame drawn as the page's cells show names (issue 44: a right-to-left
  // override in a symbol reversed its frame's label).
  nlohmann::ordered_json j = {{"n", terminal_safe(name)}, {"v", node.value}};
  if (base_total) {
    // Rounded: the page needs no more, and it keeps the page small.
    const double d =
        flame_share_pct(node.value, total) - flame_share_pct(base ? base->value : 0, base_total);
    const double rounded = std::round(d * 1e4) / 1e4;
    j["d"] = rounded;
    g.max_change_pp = std::max(g.max_change_pp, std::abs(rounded));
  }
  auto children = nlohmann::ordered_json::array();
  for (const auto& [child_name, child] : node.children) {
    if (child->value < min) continue;
    const FlameNode* b = nullptr;
    if (base)
      if (const auto it = base->children.find(child_name); it != base->children.end())
        b = it->second.get();
    children.push_back(flame_json(child_name, *child, min, b, total, base_total, g));
  }
  if (!children.empty()) j["c"] = std::move(children);
  return j;
}

FlameGraph flame_graph_of(const perf_profile::Folded& now, const FlameNode* base) {
  FlameGraph g;
  const FlameNode root = flame_tree(now, &g.cut_stacks);
  g.samples = root.value;
  choose_trim(root, g);
  g.tree = flame_json("all", root, flame_min_samples(root.value, g.min_pct), base, root.value,
                      base ? std::max<std::uint64_t>(base->value, 1) : 0, g);
  return g;
}

}  // namespace

FlameGraph flame_graph(const perf_profile::Folded& f) {
  return flame_graph_of(f, nullptr);
}

FlameGraph differential_flame_graph(const perf_profile::Folded& base,
                                    const perf_profile::Folded& now) {
  const FlameNode b = flame_tree(base);
  return flame_graph_of(now, &b);
}

}  // namespace schedlab
