// stop: sequential at one point, without hosts: rounds of fixed seeded
// values (CV 2%: 60 draws a side, Python's random.Random(36).gauss) fed to
// SequentialPoint as the executor feeds them; a planted 10% change, an A/A
// point, failures, the cap, and a resume from the stored rows that ends
// exactly where an uninterrupted point does.
#include "runner/run/sequential_stop.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "results/point_stops_table.h"
#include "runner/config/config.h"

using namespace schedlab;

namespace {

const std::vector<double> kPointBase = {
    97.29,  105.03, 104.33, 98.87,  101.01, 96.05,  102.81, 100.01, 100.05, 103.24, 97.66,  101.06,
    97.47,  99.3,   102.64, 95.0,   97.95,  102.99, 101.53, 98.72,  101.67, 101.64, 100.22, 97.57,
    101.25, 102.87, 98.12,  103.72, 101.32, 102.34, 95.64,  103.82, 102.65, 103.15, 98.32,  100.95,
    100.61, 102.26, 106.9,  96.72,  102.55, 98.98,  100.21, 102.37, 99.01,  98.65,  100.84, 99.93,
    100.13, 101.34, 100.36, 100.63, 100.13, 101.93, 102.33, 99.07,  98.69,  98.69,  101.24, 102.26};
const std::vector<double> kPointTenPct = {
    109.87, 109.08, 109.11, 108.78, 109.24, 108.08, 110.73, 110.97, 110.72, 107.35, 114.1,  112.45,
    109.7,  111.76, 111.86, 110.03, 105.63, 108.27, 109.22, 112.46, 112.94, 111.61, 109.34, 112.03,
    109.47, 114.03, 111.19, 109.85, 109.0,  110.32, 110.01, 105.2,  112.34, 112.37, 109.2,  112.27,
    108.05, 109.05, 108.86, 108.41, 107.93, 110.05, 108.92, 110.56, 109.33, 110.83, 108.35, 108.42,
    105.91, 112.3,  111.5,  112.25, 107.6,  108.02, 110.14, 107.94, 112.91, 108.52, 112.67, 111.36};
const std::vector<double> kPointSame = {
    95.35,  99.5,   99.54,  97.04,  98.63,  97.17,  97.8,   100.76, 99.61,  99.92,  97.91,  99.86,
    97.69,  101.13, 98.85,  98.38,  98.69,  99.34,  102.92, 99.56,  98.99,  96.89,  101.23, 100.21,
    98.44,  101.49, 98.06,  101.45, 97.69,  97.62,  99.28,  98.09,  102.12, 97.03,  100.32, 99.92,
    98.91,  99.42,  103.1,  96.32,  99.13,  98.46,  101.67, 98.28,  99.57,  98.78,  102.97, 102.37,
    101.23, 98.49,  101.46, 100.84, 101.19, 99.25,  99.99,  98.27,  101.71, 99.37,  102.25, 99.25};

const MetricSpec kPointScore{.name = "score", .unit = "ops/s", .direction = Direction::kHigherIsBetter,
                        .centre = Centre::kAmean};

IterationPolicy sequential_policy(int max = 60) {
  return parse_config("iterations: {stop: sequential, max: " + std::to_string(max) +
                          "}\nworkloads: [hackbench]\nvariants: {a: {}, b: {policy: batch}}\n",
                      "p.yaml")
      .iterations;
}

// PointRounds as the executor runs them: each variant still measuring takes its
// next value; after each round the point looks. Returns the rounds run.
struct PointRounds {
  std::vector<std::vector<double>> source;  // per variant
  std::vector<std::vector<double>> units;
  std::vector<int> attempted;
  std::vector<std::optional<PointStop>> rows;  // what the executor stores
  int rounds = 0;

  explicit PointRounds(std::vector<std::vector<double>> s)
      : source(std::move(s)), units(source.size()), attempted(source.size(), 0), rows(source.size()) {}

  void run(SequentialPoint& point, int max_rounds = 1000) {
    for (int r = 0; r < max_rounds && !point.done(); ++r) {
      for (std::size_t v = 0; v < source.size(); ++v)
        if (point.measuring(v)) {
          units[v].push_back(source[v].at(static_cast<std::size_t>(attempted[v])));
          ++attempted[v];
        }
      ++rounds;
      for (const std::size_t v : point.after_round(units, attempted))
        rows[v] = PointStop{.iterations = attempted[v], .reason = point.reason(v), .sequential = point.record(v)};
    }
  }
};

}  // namespace

TEST_CASE("sequential stop: a planted 10% change is called different after a few rounds") {
  SequentialPoint point(sequential_policy(), kPointScore, 2);
  PointRounds r({kPointBase, kPointTenPct});
  r.run(point);
  REQUIRE(point.done());
  CHECK(point.reason(1) == "decided");
  CHECK(point.reason(0) == "tests_stopped");
  const auto& rec = *point.record(1);
  CHECK(rec.decision == "different");
  CHECK(rec.metric == "score");
  INFO("rounds " << r.rounds << ", looks " << rec.looks);
  // A fixed two-sample t-test at 80% power for 3% with CV 2% needs about 9
  // a side; the O'Brien-Fleming-type bounds are strict at the first looks,
  // so a 10% change is called about there (8 rounds with these draws), far
  // before the cap of 60.
  CHECK(r.rounds <= 10);
  CHECK(rec.n == r.rounds);
  CHECK(rec.looks >= 1);
  REQUIRE(rec.p_value);
  CHECK(*rec.p_value < 0.05);
  REQUIRE(rec.ci_low);
  CHECK(*rec.ci_low > 0);  // the adjusted 95% interval excludes no change
  CHECK(*rec.ci_high > *rec.ci_low);
  CHECK(*rec.estimate_pct == Approx(10).margin(3));
  CHECK(rec.level == 0.95);
  CHECK(nlohmann::json::parse(rec.looks_json).size() == static_cast<std::size_t>(rec.looks));
  CHECK(nlohmann::json::parse(rec.design_json) ==
        nlohmann::json{{"alpha", 0.05}, {"power", 0.8}, {"min_effect_pct", 3.0}, {"min", 3}, {"max", 60}, {"spending", "obf"}});
}

TEST_CASE("sequential stop: an A/A point is called same within min_effect before the cap") {
  SequentialPoint point(sequential_policy(), kPointScore, 2);
  PointRounds r({kPointBase, kPointSame});
  r.run(point);
  REQUIRE(point.done());
  const auto& rec = *point.record(1);
  INFO("rounds " << r.rounds << ", looks " << rec.looks);
  CHECK(rec.decision == "same");
  CHECK(point.reason(1) == "decided");
  CHECK(r.rounds < 60);
  // `same` is the repeated 80% interval (1 - 2 gamma) inside +-3%; the
  // interval stored and shown is the adjusted 95% one, which is wider.
  REQUIRE(rec.ci_low);
  CHECK(*rec.ci_low < 0);
  CHECK(*rec.ci_high > 0);
  CHECK(std::fabs(*rec.estimate_pct) < 3);
  CHECK(*rec.p_value > 0.05);
}

TEST_CASE("sequential stop: a decided variant is measured no more while another is still looked at") {
  SequentialPoint point(sequential_policy(), kPointScore, 3);
  PointRounds r({kPointBase, kPointTenPct, kPointSame});
  r.run(point);
  REQUIRE(point.done());
  CHECK(point.record(1)->decision == "different");
  CHECK(point.record(2)->decision == "same");
  // The 10% variant stopped first; the baseline ran as long as the A/A one.
  CHECK(r.attempted[1] < r.attempted[2]);
  CHECK(r.attempted[0] == r.attempted[2]);
  CHECK_FALSE(point.record(0));
}

TEST_CASE("sequential stop: at the cap an undecided variant stops as max_reached") {
  // Three rounds cannot decide a 1% difference at CV 2%.
  SequentialPoint point(sequential_policy(3), kPointScore, 2);
  PointRounds r({kPointBase, kPointSame});
  r.run(point);
  REQUIRE(point.done());
  CHECK(r.rounds == 3);
  CHECK(point.reason(1) == "max_reached");
  CHECK(point.reason(0) == "max_reached");
  CHECK(point.record(1)->decision == "undecided");
}

TEST_CASE("sequential stop: a variant whose every iteration failed stops as failed") {
  SequentialPoint point(sequential_policy(), kPointScore, 2);
  std::vector<std::vector<double>> units = {{100, 101, 99}, {}};
  const auto changed = point.after_round(units, {3, 3});
  CHECK(point.done());
  CHECK(point.reason(1) == "failed");
  CHECK(point.record(1)->decision == "undecided");
  CHECK(point.record(1)->note == "every iteration failed");
  CHECK(changed == std::vector<std::size_t>{1, 0});
  CHECK(point.reason(0) == "tests_stopped");
}

TEST_CASE("sequential stop: samples the test refuses stop the variant with the reason") {
  const MetricSpec rate{.name = "rate", .unit = "/s", .direction = Direction::kHigherIsBetter,
                        .centre = Centre::kHmean};
  SequentialPoint point(sequential_policy(), rate, 2);
  point.after_round({{100, 101, 99}, {100, 0, 98}}, {3, 3});
  CHECK(point.reason(1) == "refused");
  CHECK(point.record(1)->note == "hmean needs positive samples, not 0");
}

TEST_CASE("sequential stop: a resumed point rebuilds its tests from the stored looks and ends the same") {
  SequentialPoint whole(sequential_policy(), kPointScore, 3);
  PointRounds all({kPointBase, kPointTenPct, kPointSame});
  all.run(whole);
  REQUIRE(whole.done());

  // Interrupted after a few rounds: the stored rows are what a resumed run reads.
  SequentialPoint first(sequential_policy(), kPointScore, 3);
  PointRounds part({kPointBase, kPointTenPct, kPointSame});
  part.run(first, 4);
  REQUIRE_FALSE(first.done());
  REQUIRE(part.rows[2]);
  CHECK(part.rows[2]->reason == "looking");
  SequentialPoint resumed(sequential_policy(), kPointScore, 3, part.rows);
  part.run(resumed);
  REQUIRE(resumed.done());
  CHECK(part.rounds == all.rounds);
  CHECK(part.attempted == all.attempted);
  for (std::size_t v = 1; v < 3; ++v) {
    CHECK(resumed.record(v)->decision == whole.record(v)->decision);
    CHECK(resumed.record(v)->looks == whole.record(v)->looks);
    CHECK(*resumed.record(v)->p_value == Approx(*whole.record(v)->p_value));
    CHECK(resumed.record(v)->looks_json == whole.record(v)->looks_json);
  }
}
