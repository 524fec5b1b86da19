// stop: sequential at one point, without hosts: rounds of fixed seeded
// values (CV 2%: 60 draws a side, Python's random.Random(36).gauss, made by
// sequential_stop_draws.py) fed to SequentialPoint as the executor feeds
// them; a planted 10% change, an A/A point, failures, the cap, and a resume
// from the stored rows that ends exactly where an uninterrupted point does.
#include "runner/run/sequential_stop.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/point_stops_table.h"
#include "runner/config/config.h"

using namespace schedlab;

namespace {

// A series of sequential_stop_draws.json: 60 draws at CV 2% (base, ten_pct:
// 10% higher, same: A/A), made by sequential_stop_draws.py; Python is not
// needed to run this.
std::vector<double> draws(const char* series) {
  std::ifstream in(std::string(SCHEDLAB_SOURCE_DIR) +
                   "/tests/runner/run/sequential_stop_draws.json");
  REQUIRE(in);
  return nlohmann::json::parse(in).at(series).get<std::vector<double>>();
}

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

TEST_CASE("sequential stop: a planted 10% change is called different after a few rounds", "[unit]") {
  SequentialPoint point(sequential_policy(), kPointScore, 2);
  PointRounds r({draws("base"), draws("ten_pct")});
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

TEST_CASE("sequential stop: an A/A point is called same within min_effect before the cap", "[unit]") {
  SequentialPoint point(sequential_policy(), kPointScore, 2);
  PointRounds r({draws("base"), draws("same")});
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

TEST_CASE("sequential stop: a decided variant is measured no more while another is still looked at", "[unit]") {
  SequentialPoint point(sequential_policy(), kPointScore, 3);
  PointRounds r({draws("base"), draws("ten_pct"), draws("same")});
  r.run(point);
  REQUIRE(point.done());
  CHECK(point.record(1)->decision == "different");
  CHECK(point.record(2)->decision == "same");
  // The 10% variant stopped first; the baseline ran as long as the A/A one.
  CHECK(r.attempted[1] < r.attempted[2]);
  CHECK(r.attempted[0] == r.attempted[2]);
  CHECK_FALSE(point.record(0));
}

TEST_CASE("sequential stop: at the cap an undecided variant stops as max_reached", "[unit]") {
  // Three rounds cannot decide a 1% difference at CV 2%.
  SequentialPoint point(sequential_policy(3), kPointScore, 2);
  PointRounds r({draws("base"), draws("same")});
  r.run(point);
  REQUIRE(point.done());
  CHECK(r.rounds == 3);
  CHECK(point.reason(1) == "max_reached");
  CHECK(point.reason(0) == "max_reached");
  CHECK(point.record(1)->decision == "undecided");
}

TEST_CASE("sequential stop: a variant whose every iteration failed stops as failed", "[unit]") {
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

TEST_CASE("sequential stop: samples the test refuses stop the variant with the reason", "[unit]") {
  const MetricSpec rate{.name = "rate", .unit = "/s", .direction = Direction::kHigherIsBetter,
                        .centre = Centre::kHmean};
  SequentialPoint point(sequential_policy(), rate, 2);
  point.after_round({{100, 101, 99}, {100, 0, 98}}, {3, 3});
  CHECK(point.reason(1) == "refused");
  CHECK(point.record(1)->note == "hmean needs positive samples, not 0");
}

TEST_CASE("sequential stop: a resumed point rebuilds its tests from the stored looks and ends the same", "[unit]") {
  SequentialPoint whole(sequential_policy(), kPointScore, 3);
  PointRounds all({draws("base"), draws("ten_pct"), draws("same")});
  all.run(whole);
  REQUIRE(whole.done());

  // Interrupted after a few rounds: the stored rows are what a resumed run reads.
  SequentialPoint first(sequential_policy(), kPointScore, 3);
  PointRounds part({draws("base"), draws("ten_pct"), draws("same")});
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
