// --mmtests mode against golden vectors that mmtests itself printed:
// every number must match to the printed digit. The tables are
// checked as text, as that is what "the printed digit" means.
#include "analysis/stats/mmtests.h"

#include <catch2/catch.hpp>
#include <vector>

#include "analysis/compare/compare.h"
#include "analysis/render/render.h"
#include "tests/support/hackbench_samples.h"

using namespace schedlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

using schedlab::test::kHackbenchBase;

namespace {

const std::vector<double> kHackPatched{0.442, 0.447, 0.439, 0.445, 0.437};
const std::vector<double> kC6Base{27000, 28100, 27500, 27900, 27600, 28300};
const std::vector<double> kC6Patched{34000, 34300, 33800, 34500, 34100, 34000};
const std::vector<double> kC1Base{68, 70, 67, 69, 68, 69};
const std::vector<double> kC1Patched{70, 71, 69, 70, 69, 70};

const MetricInfo kHackbenchTime{"hackbench", "time",           "s", Direction::kLowerIsBetter,
                                "amean",     SampleKind::kRun, 4};
const MetricInfo kPgbenchTps{"pgbench",        "tps", "", Direction::kHigherIsBetter, "hmean",
                             SampleKind::kRun, 2};

std::string mmtests_table(const std::vector<double>& base, const std::vector<double>& patched,
                          const MetricInfo& m) {
  CompareOptions o;
  o.mmtests = true;
  o.all_stats = true;
  return render_text(compare_samples({{"baseline", base}, {"patched", patched}}, m, o));
}

}  // namespace

TEST_CASE("golden: hackbench g1 under --mmtests, not significant by mmtests' rule", "[mmtests]") {
  CHECK(mmtests_table(kHackbenchBase, kHackPatched, kHackbenchTime) ==
        "samples (time in s, lower is better)\n"
        "                         baseline                patched\n"
        "Min             0.4250 (   0.00%)      0.4370 (  -2.82%)\n"
        "Amean           0.4300 (   0.00%)      0.4420 (  -2.79%)\n"
        "Stddev          0.0064 (   0.00%)      0.0041 (  36.00%)\n"
        "CoeffVar        1.4982 (   0.00%)      0.9328 (  37.73%)\n"
        "Max             0.4410 (   0.00%)      0.4470 (  -1.36%)\n"
        "BAmean-95       0.4272 (   0.00%)      0.4408 (  -3.16%)\n"
        "mmtests' marker: * = means differ by more than 1.96 x (sum of Stddevs); 1 comparison; n = 5 per cell\n");
}

TEST_CASE("golden: the same hackbench data is significant under Welch (p ~ 0.010)", "[mmtests]") {
  const Comparison c =
      compare_samples({{"baseline", kHackbenchBase}, {"patched", kHackPatched}}, kHackbenchTime);
  const Cell& patched = c.blocks[0].rows[0].cells[1];
  CHECK_THAT(*patched.p_value, WithinRel(0.0103416877583205046211, 1e-8));
  CHECK(patched.significant);
}

TEST_CASE("golden: pgbench c6 under --mmtests, Hmean significant", "[mmtests]") {
  CHECK(mmtests_table(kC6Base, kC6Patched, kPgbenchTps) ==
        "samples (tps, higher is better)\n"
        "                         baseline                patched\n"
        "Min           27000.00 (   0.00%)    33800.00 (  25.19%)\n"
        "Hmean         27726.72 (   0.00%)    34115.16 *  23.04%*\n"
        "HStddev         429.38 (   0.00%)      226.10 (  47.34%)\n"
        "HCoeffVar         1.55 (   0.00%)        0.66 (  57.20%)\n"
        "Max           28300.00 (   0.00%)    34500.00 (  21.91%)\n"
        "BHmean-95     27876.79 (   0.00%)    34178.90 (  22.61%)\n"
        "mmtests' marker: * = means differ by more than 1.96 x (sum of HStddevs); 1 comparison;\n"
        "  n = 6 per cell\n");
}

TEST_CASE("golden: pgbench c1 under --mmtests, not significant", "[mmtests]") {
  const std::string text = mmtests_table(kC1Base, kC1Patched, kPgbenchTps);
  CHECK_THAT(text, Contains("Hmean            68.49 (   0.00%)       69.83 (   1.96%)\n"));
}

TEST_CASE("mmtests mode picks the mean from the direction, whatever the metric declares",
          "[mmtests]") {
  MetricInfo m = kPgbenchTps;
  m.centre = "median";
  CompareOptions o;
  o.mmtests = true;
  const Comparison c = compare_samples({{"a", kC6Base}, {"b", kC6Patched}}, m, o);
  CHECK(c.test == "mmtests");
  CHECK(c.blocks[0].metric.centre == "hmean");
  CHECK_THAT(*c.blocks[0].rows[0].cells[0].centre, WithinRel(27726.7235061819, 1e-12));
}

TEST_CASE("HStddev is the delta method with /n, Stddev is n - 1", "[mmtests]") {
  using namespace mmtests;
  CHECK_THAT(*stddev(kC6Base, Mean::kHmean), WithinRel(429.3750823094997, 1e-12));
  CHECK_THAT(*stddev(kC6Patched, Mean::kHmean), WithinRel(226.10296494272808, 1e-12));
  CHECK_THAT(*stddev(kHackbenchBase, Mean::kAmean), WithinRel(0.00644204936336256847, 1e-12));
  CHECK_THAT(*coeffvar(kC6Base, Mean::kHmean), WithinRel(1.5485965451841677, 1e-12));
  CHECK_FALSE(stddev(std::vector<double>{5}, Mean::kAmean));
  CHECK_FALSE(stddev(std::vector<double>{0, 1, 2}, Mean::kHmean));
}

TEST_CASE("best 95% and percentiles use best-first data and a floor rank", "[mmtests]") {
  using namespace mmtests;
  // n = 5 keeps floor(4.75) = 4 best; lower is better keeps the 4 smallest.
  CHECK_THAT(*best_mean(kHackbenchBase, Mean::kAmean, 95, false), WithinRel(0.42725, 1e-12));
  // n = 6, higher is better: the 5 largest.
  CHECK_THAT(*best_mean(kC6Base, Mean::kHmean, 95, true), WithinRel(27876.788077833884, 1e-12));
  const std::vector<double> ten{3, 1, 4, 10, 5, 9, 2, 6, 8, 7};
  CHECK(*percentile(ten, 90, false) == 9);  // rank 9 of 1..10
  CHECK(*percentile(ten, 90, true) == 2);   // rank 9 of 10..1
  CHECK(*percentile(ten, 25, false) == 2);  // floor(2.5) = 2
  CHECK(*percentile(kHackbenchBase, 10, false) == 0.425);  // floor(0.5) = 0, at least rank 1
  CHECK_FALSE(percentile(std::vector<double>{}, 50, false));
}

TEST_CASE("pdiff and pndiff keep mmtests' special cases for zeros", "[mmtests]") {
  using namespace mmtests;
  CHECK_THAT(pdiff(110, 100), WithinRel(10.0, 1e-12));
  CHECK_THAT(pndiff(90, 100), WithinRel(10.0, 1e-12));
  CHECK(pdiff(5, 5) == 0);
  CHECK(pdiff(0, 5) == 0);
  CHECK(pdiff(5, 0) == 100);
  CHECK(pndiff(0, 5) == 100);
  CHECK(pndiff(5, 0) == -99);
}

TEST_CASE("mmtests' marker is the non-overlap of mean +- 1.96 stddev", "[mmtests]") {
  using namespace mmtests;
  // z = 1.959964: a gap of 1.96 x (1 + 1) = 3.92 just clears it.
  CHECK(significant(10, 1, 13.92, 1));
  CHECK_FALSE(significant(10, 1, 13.91, 1));
  CHECK_FALSE(significant(0.430, 0.00644, 0.442, 0.00412));
}
