// Real perf profiles for the pages that draw flame graphs (report, nightly
// --report-html, bisect status --format html): `perf script` of a program
// whose two hot functions swap their balance (tests/fixtures/perf/
// script-two-hot-{a,b}{1,2,3}.txt.gz: a is alpha-heavy, b beta-heavy),
// folded and stored with an iteration as the perf-profile monitor stores
// them; and what Chromium must show of them.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/counters/perf_profile.h"
#include "base/compression.h"
#include "base/file.h"
#include "results/iterations_table.h"
#include "results/monitor_rows.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

namespace schedlab::test {

// The folded stacks of fixture NAME (a1 ... b3).
inline perf_profile::Folded two_hot_profile(const std::string& name) {
  const std::string path =
      SCHEDLAB_SOURCE_DIR "/tests/fixtures/perf/script-two-hot-" + name + ".txt.gz";
  return perf_profile::fold(gunzip(read_file(path), path));
}

// The samples of one process in a profile.
inline double samples_of(const perf_profile::Folded& f, const std::string& comm) {
  double n = 0;
  for (const auto& [stack, count] : f)
    if (stack.starts_with(comm + ";")) n += static_cast<double>(count);
  return n;
}

// The snapshot and delta rows perf-profile stores with an iteration
// (runner/monitors/perf_monitor.cc, monitor_runner.cc); `stored` is
// perf_profile::store(folded) or, to test a corrupt one, other text.
inline void add_profile_rows(IterationRow& it, const perf_profile::Folded& folded,
                             const std::string& stored) {
  it.monitor_snapshots.push_back({0, std::string(perf_profile::kMonitorName), "after",
                                  std::string(perf_profile::kStoredPath), stored});
  for (const auto& r : perf_profile::shares(folded).rows)
    it.monitor_deltas.push_back({0, std::string(perf_profile::kMonitorName), r.counter, r.value});
}

// The same rows for an iteration already stored (a run measured for real).
inline void store_profile(Store& store, std::int64_t iteration_id,
                          const perf_profile::Folded& folded) {
  IterationRow rows;
  add_profile_rows(rows, folded, perf_profile::store(folded));
  store.monitor_rows().add(iteration_id, rows.monitor_snapshots, rows.monitor_deltas);
}

// "rgb(r,g,b)" (d3 may write "rgb(r, g, b)") as three numbers.
inline std::array<int, 3> rgb(const std::string& fill) {
  std::array<int, 3> c{-1, -1, -1};
  std::sscanf(fill.c_str(), "rgb(%d ,%d ,%d)", &c[0], &c[1], &c[2]);
  return c;
}

// The page in Chromium (a screenshot SHOT.png under build/): the flame
// graphs PREFIXflame0 and PREFIXflame1 of the two columns and the
// differential PREFIXflamediff1, each with the program's frames drawn;
// alpha_loop, hot in the alpha-heavy baseline BASE, blue in the
// differential graph, beta_loop red; the captions name the columns (NEW
// against BASE) and ITERATIONS merged. Returns what the browser saw
// (check_report.py --dump).
inline nlohmann::json check_two_hot_flames(TempDir& dir, const std::string& page,
                                           const std::string& shot, const std::string& prefix,
                                           const std::string& base, const std::string& now,
                                           const std::string& iterations) {
  const std::string dump = dir.file(shot + ".json");
  const auto check =
      check_page_in_chromium(page, SCHEDLAB_BUILD_DIR "/" + shot + ".png", {"--dump", dump});
  INFO(check.out << check.err);
  REQUIRE(check.ok());
  for (const std::string id : {"flame0 (column)", "flame1 (column)", "flamediff1 (diff)"})
    CHECK(check.out.find("flame graph " + prefix + id + ": ") != std::string::npos);
  const auto seen = nlohmann::json::parse(read_file(dump));
  const auto& flames = seen["flames"];
  REQUIRE(flames.size() == 3);
  // A frame's fill in a graph (the program's frames are each there once).
  auto fill = [&](const std::string& graph, const std::string& name) {
    for (const auto& f : flames[prefix + graph])
      if (f["name"] == name) return f["fill"].get<std::string>();
    return std::string("none");
  };
  for (const char* graph : {"flame0", "flame1", "flamediff1"}) {
    INFO(graph);
    CHECK(fill(graph, "alpha_loop") != "none");
    CHECK(fill(graph, "beta_loop") != "none");
    CHECK(fill(graph, "main") != "none");
    double drawn = 0;
    for (const auto& f : flames[prefix + graph]) drawn += f["width"].get<double>();
    CHECK(drawn > 0);  // the rectangles got their widths
  }
  // The baseline ran alpha_loop 400M times and beta_loop 130M, the other
  // column the reverse: alpha_loop shrank (blue), beta_loop grew (red).
  const auto alpha = rgb(fill("flamediff1", "alpha_loop"));
  const auto beta = rgb(fill("flamediff1", "beta_loop"));
  INFO(fill("flamediff1", "alpha_loop") << " " << fill("flamediff1", "beta_loop"));
  CHECK(alpha[2] == 255);
  CHECK(alpha[0] < 200);
  CHECK(alpha[0] == alpha[1]);
  CHECK(beta[0] == 255);
  CHECK(beta[2] < 200);
  CHECK(beta[1] == beta[2]);
  // The captions say what a graph merged and how to read the differential.
  const std::string text = seen["text"];
  CHECK(text.find(base + ": ") != std::string::npos);
  CHECK(text.find(" from " + iterations + " iterations merged") != std::string::npos);
  CHECK(text.find(now + " against " + base + ": widths from " + now + "; red where") !=
        std::string::npos);
  return seen;
}

}  // namespace schedlab::test
