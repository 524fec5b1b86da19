// Change points on seeded planted series with known answers: a flat
// series, one shift, two shifts, a single outlier run, too short a series.
#include "analysis/history/change_points.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/sequential/sequential_simulation.h"

using namespace schedlab;

namespace {

// Run centres: level(i) with CV `cv` (a fraction) of normal noise.
template <class Level>
std::vector<SeriesRun> series(std::size_t runs, double cv, std::uint64_t seed, Level level) {
  SeededNormal rng(seed);
  std::vector<SeriesRun> s;
  for (std::size_t i = 0; i < runs; ++i) s.push_back({level(i) * (1 + cv * rng()), 5});
  return s;
}

}  // namespace

TEST_CASE("flat series: a change in no more of them than alpha allows", "[change_points]") {
  // Each flat series reports a change with probability at most alpha
  // (0.05); of 20, more than 3 would happen 1.6% of the time.
  int with_change = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    with_change += !change_points(series(80, 0.02, seed, [](std::size_t) { return 100.0; }), {})
                        .empty();
  CHECK(with_change <= 3);
}

TEST_CASE("one planted 6% shift is found at its run", "[change_points]") {
  const auto s = series(60, 0.02, 7, [](std::size_t i) { return i >= 40 ? 106.0 : 100.0; });
  const auto c = change_points(s, {});
  REQUIRE(c.size() == 1);
  CHECK(std::abs(static_cast<int>(c[0].index) - 40) <= 2);  // noise moves the best split
  CHECK(c[0].pct == Approx(6).margin(1.5));
  CHECK(c[0].before == Approx(100).margin(1.5));
  CHECK(c[0].after == Approx(106).margin(1.5));
  CHECK(c[0].p_value < 0.05);
  CHECK(c[0].runs_after <= 22);
}

TEST_CASE("two shifts, up then down, are both found", "[change_points]") {
  const auto s = series(70, 0.02, 8, [](std::size_t i) {
    return i < 25 ? 100.0 : i < 50 ? 108.0 : 96.0;
  });
  const auto c = change_points(s, {});
  REQUIRE(c.size() == 2);
  CHECK(std::abs(static_cast<int>(c[0].index) - 25) <= 1);
  CHECK(std::abs(static_cast<int>(c[1].index) - 50) <= 1);
  CHECK(c[0].pct > 5);
  CHECK(c[1].pct < -8);
}

TEST_CASE("a single outlier run is no change, wherever it is", "[change_points]") {
  for (std::size_t at : {0, 10, 30, 56, 59}) {
    INFO("outlier at run " << at);
    auto s = series(60, 0.02, 9 + at, [](std::size_t) { return 100.0; });
    s[at].centre = *s[at].centre * 1.3;
    CHECK(change_points(s, {}).empty());
  }
}

TEST_CASE("a shift smaller than the minimum change is not reported", "[change_points]") {
  const auto s = series(80, 0.005, 10, [](std::size_t i) { return i >= 40 ? 101.5 : 100.0; });
  ChangePointOptions o;
  CHECK(change_points(s, o).empty());  // 1.5% < 3%
  o.min_change_pct = 1;
  REQUIRE(change_points(s, o).size() == 1);
}

TEST_CASE("runs without a centre are skipped; indices stay the series'", "[change_points]") {
  auto s = series(40, 0.01, 11, [](std::size_t i) { return i >= 20 ? 110.0 : 100.0; });
  s.insert(s.begin() + 5, SeriesRun{std::nullopt, 0});
  const auto c = change_points(s, {});
  REQUIRE(c.size() == 1);
  CHECK(c[0].index == 21);
}

TEST_CASE("too short a series, bad options and a NaN are one-line errors", "[change_points]") {
  const auto s = series(7, 0.01, 12, [](std::size_t) { return 100.0; });
  CHECK_THROWS_WITH(change_points(s, {}),
                    "7 runs with a value: change points need at least 8 (4 either side of a "
                    "change)");
  const auto ok = series(20, 0.01, 12, [](std::size_t) { return 100.0; });
  ChangePointOptions o;
  o.alpha = 0.01;
  o.permutations = 50;
  CHECK_THROWS_WITH(change_points(ok, o),
                    "50 permutations cannot give a p-value below alpha "
                    "0.01 (more than 1 / alpha - 1 are needed, at most "
                    "1000000)");
  o = {};
  o.min_segment = 2;
  CHECK_THROWS_WITH(change_points(ok, o), "min_segment must be at least 3 runs, not 2");
  auto nan = ok;
  nan[3].centre = std::nan("");
  // nan[3] is the fourth run of the series (issue 44: it was named "run 3").
  CHECK_THROWS_WITH(change_points(nan, {}),
                    "the series' run 4 of 20 has a centre that is not a number");
}

TEST_CASE("false alarms on flat series stay within alpha", "[change_points][simulation]") {
  // 400 flat series of 60 runs: the share with any change reported is at
  // most alpha plus three standard errors.
  constexpr int kSeries = 400;
  int alarms = 0;
  for (int k = 0; k < kSeries; ++k) {
    ChangePointOptions o;
    o.min_change_pct = 0;  // the test's own rate, not the minimum change's help
    o.seed = 1000 + k;
    const auto s = series(60, 0.03, 5000 + k, [](std::size_t) { return 100.0; });
    alarms += !change_points(s, o).empty();
  }
  const double rate = static_cast<double>(alarms) / kSeries;
  INFO("series with a false change: " << rate);
  CHECK(rate <= 0.05 + 3 * std::sqrt(0.05 * 0.95 / kSeries));
}
