// The flame graphs' trees (analysis/render/flame_graph.h): widths, order,
// the trim and its doubling, the depth cut, and the differential changes,
// each worked out by hand from small folded profiles.
#include "analysis/render/flame_graph.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

using namespace schedlab;
using Catch::Matchers::WithinAbs;
using Json = nlohmann::ordered_json;

namespace {

// The node at a path of names below the root, or null.
const Json* at(const Json& root, std::initializer_list<std::string> path) {
  const Json* node = &root;
  for (const auto& name : path) {
    const Json* next = nullptr;
    if (node->contains("c"))
      for (const auto& c : (*node)["c"])
        if (c["n"] == name) next = &c;
    if (!next) return nullptr;
    node = next;
  }
  return node;
}

}  // namespace

TEST_CASE("a flame graph: the root, process, frames outermost first, values inclusive", "[flame]") {
  const perf_profile::Folded f{{"prog;main;work;alpha", 30},
                               {"prog;main;work;beta", 10},
                               {"prog;main", 5},
                               {"other;[unknown]", 55}};
  const FlameGraph g = flame_graph(f);
  CHECK(g.samples == 100);
  CHECK(g.tree["n"] == "all");
  CHECK(g.tree["v"] == 100);
  CHECK(g.frames == 8);  // all, prog, main, work, alpha, beta, other, [unknown]
  CHECK(g.left_out == 0);
  // Siblings in name order.
  CHECK(g.tree["c"][0]["n"] == "other");
  CHECK(g.tree["c"][1]["n"] == "prog");
  CHECK((*at(g.tree, {"prog", "main"}))["v"] == 45);
  CHECK((*at(g.tree, {"prog", "main", "work"}))["v"] == 40);
  CHECK((*at(g.tree, {"prog", "main", "work", "alpha"}))["v"] == 30);
  CHECK_FALSE(at(g.tree, {"prog", "main", "work", "alpha"})->contains("c"));
  CHECK_FALSE(g.tree.contains("d"));  // not a differential graph
}

TEST_CASE("a flame graph leaves out frames under 0.1% of samples, in their caller's width",
          "[flame]") {
  // 2000 samples: 0.1% is 2; a frame of 1 sample goes, with its callee.
  const perf_profile::Folded f{{"p;main;big", 1997}, {"p;main;tiny;deeper", 1}, {"p;main;two", 2}};
  const FlameGraph g = flame_graph(f);
  CHECK(g.min_pct == 0.1);
  CHECK(g.left_out == 1);
  CHECK(at(g.tree, {"p", "main", "tiny"}) == nullptr);
  CHECK(at(g.tree, {"p", "main", "two"}) != nullptr);
  CHECK((*at(g.tree, {"p", "main"}))["v"] == 2000);
}

TEST_CASE("a flame graph of very many distinct stacks is trimmed harder, and says so", "[flame]") {
  // 20,000 processes of one sample each, then one with 20,000: at 0.1%
  // every frame is under the floor (40 samples); each doubling keeps the
  // page's frames at most kMaxFlameFrames.
  perf_profile::Folded f;
  for (int i = 0; i < 20000; ++i) f[fmt::format("p{};f", i)] = 1;
  f["big;main"] = 20000;
  const FlameGraph g = flame_graph(f);
  CHECK(g.frames <= kMaxFlameFrames);
  CHECK(g.frames == 3);  // all, big, main
  CHECK(g.left_out == 20000);
  CHECK(g.min_pct == 0.1);  // already few enough at 0.1%
  // 600 processes, each a chain of 10 frames: 400 of 20 samples, 200 of
  // 10, 10,000 in all. At 0.1% (10 samples) all 6,001 frames stay, too
  // many; at 0.2% (20) the 400 heavier chains do.
  perf_profile::Folded wide;
  for (int i = 0; i < 600; ++i)
    wide[fmt::format("p{};f1;f2;f3;f4;f5;f6;f7;f8;f9", i)] = i < 400 ? 20 : 10;
  const FlameGraph w = flame_graph(wide);
  CHECK(w.min_pct == 0.2);
  CHECK(w.frames == 4001);
  CHECK(w.left_out == 200);
}

TEST_CASE("a stack deeper than kMaxFlameDepth is cut there and counted", "[flame]") {
  std::string deep = "p";
  for (std::size_t i = 0; i < 2 * kMaxFlameDepth; ++i) deep += fmt::format(";f{}", i);
  const FlameGraph g = flame_graph({{deep, 5}, {"p;main", 5}});
  CHECK(g.cut_stacks == 1);
  std::size_t depth = 0;
  for (const Json* n = &g.tree; n->contains("c"); n = &(*n)["c"][0]) ++depth;
  CHECK(depth == kMaxFlameDepth);
}

TEST_CASE("the differential graph: widths from the new profile, d its share minus the base's",
          "[flame]") {
  // Base: alpha 60%, beta 20% of 100 samples. New: alpha 20%, beta 60%
  // of 200; gamma only in the new one, delta only in the base.
  const perf_profile::Folded base{
      {"prog;main;alpha", 60}, {"prog;main;beta", 20}, {"prog;main;delta", 10}, {"idle", 10}};
  const perf_profile::Folded now{
      {"prog;main;alpha", 40}, {"prog;main;beta", 120}, {"prog;main;gamma", 20}, {"idle", 20}};
  const FlameGraph g = differential_flame_graph(base, now);
  CHECK(g.samples == 200);
  CHECK((*at(g.tree, {"prog", "main", "alpha"}))["v"] == 40);
  CHECK_THAT((*at(g.tree, {"prog", "main", "alpha"}))["d"].get<double>(), WithinAbs(-40, 1e-9));
  CHECK_THAT((*at(g.tree, {"prog", "main", "beta"}))["d"].get<double>(), WithinAbs(40, 1e-9));
  CHECK_THAT((*at(g.tree, {"prog", "main", "gamma"}))["d"].get<double>(), WithinAbs(10, 1e-9));
  CHECK_THAT((*at(g.tree, {"prog"}))["d"].get<double>(), WithinAbs(0, 1e-9));  // 90% both
  CHECK_THAT((*at(g.tree, {"idle"}))["d"].get<double>(), WithinAbs(0, 1e-9));
  CHECK_THAT(g.tree["d"].get<double>(), WithinAbs(0, 1e-9));
  CHECK(at(g.tree, {"prog", "main", "delta"}) == nullptr);  // only the base has it
  CHECK(g.max_change_pp == 40);
}

TEST_CASE("a frame's name is drawn as the page's cells show names: no override, no escape",
          "[flame]") {
  // Issue 44: a right-to-left override in a symbol reversed its label.
  const perf_profile::Folded f{{"prog\x1b[2J\x07;sym\xe2\x80\xaetxt.exe", 10}};
  const FlameGraph g = flame_graph(f);
  CHECK(at(g.tree, {"prog\\x1b[2J\\x07", "sym\\u202etxt.exe"}) != nullptr);
  const FlameGraph d = differential_flame_graph(f, f);
  CHECK(at(d.tree, {"prog\\x1b[2J\\x07", "sym\\u202etxt.exe"}) != nullptr);
}
