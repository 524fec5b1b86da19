// compare --changed over a real temporary store: each counter's p-value
// against R's t.test / wilcox.test, the q-values against R's p.adjust(BH)
// (changed_reference.json, made by changed_reference.R; R is not needed to
// run this), the floors, the sparse rows, the order, the text within 100
// columns and the JSON rows.
#include "analysis/compare/changed.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analysis/compare/compare.h"
#include "analysis/render/render.h"
#include "analysis/render/render_changed.h"
#include "tests/support/one_line.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::WithinRel;

namespace {

nlohmann::json reference() {
  std::ifstream in(std::string(SCHEDLAB_SOURCE_DIR) +
                   "/tests/analysis/compare/changed_reference.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The columns' values per iteration, as changed_reference.R has them.
struct Series {
  const char* monitor;
  const char* counter;
  std::vector<double> base, other;  // empty: the counter has no row there
};

const std::vector<Series>& series() {
  static const std::vector<Series> s{
      {"stat", "ctxt", {1000, 1020, 990, 1010, 1005, 995}, {600, 620, 590, 610, 605, 580}},
      {"stat", "intr", {500, 510, 490, 505, 495, 502}, {498, 507, 493, 506, 499, 501}},
      {"schedstat",
       "all.ttwu_local_pct",
       {40.0, 41.0, 39.5, 40.5, 40.2, 39.8},
       {30.1, 29.5, 30.5, 31.0, 29.9, 30.2}},
      {"perf-profile",
       "self.foo",
       {12.5, 13.0, 12.0, 12.8, 12.2, 12.6},
       {12.4, 13.1, 12.1, 12.7, 12.3, 12.5}},
      // Never sampled in the new column: its share there is 0.
      {"perf-profile", "self.bar", {0.5, 0.4, 0.6, 0.5, 0.45, 0.55}, {}},
      {"tasks", "tasks", std::vector<double>(6, 81), std::vector<double>(6, 41)},
      // Under the floors: a count below 10, a share below 0.1%.
      {"stat", "procs_blocked", {0, 1, 0, 0, 1, 0}, {2, 3, 2, 3, 2, 3}},
      {"perf-profile", "self.tiny", std::vector<double>(6, 0.05), std::vector<double>(6, 0.02)},
      // A per-CPU row: not a row of the table.
      {"stat", "cpu1.user", {1, 2, 3, 4, 5, 6}, {100, 200, 300, 400, 500, 600}},
  };
  return s;
}

const std::vector<double> kTimeBase{0.080, 0.082, 0.079, 0.081, 0.080, 0.078};
const std::vector<double> kTimeOther{0.056, 0.058, 0.055, 0.057, 0.0565, 0.054};

struct Db {
  test::TempDir dir;
  Store store{dir.file("changed.db")};
  std::int64_t run = 0;
  std::vector<ColumnRef> columns;

  // `samples`: the time samples an iteration (run samples, each a unit).
  explicit Db(const std::vector<Series>& monitors = series(), int samples = 1) {
    run = store.runs_table().create_run(
        {0, "r", "c.yaml", "", "x", "{}", RunStatus::kFinished, "2026-12-06T09:00:00Z", ""});
    const auto v0 = store.variants_table().add_variant({0, run, "default", 0, "{}"});
    const auto v1 = store.variants_table().add_variant({0, run, "batch", 1, "{}"});
    store.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    for (const int side : {0, 1})
      for (int i = 0; i < 6; ++i) {
        IterationRow it = test::hackbench_iteration(run, side ? v1 : v0, 2, 0, i);
        it.started_at = "t";
        it.duration_s = 1;
        for (int k = 0; k < samples; ++k)
          it.samples.push_back(
              {"time", (side ? kTimeOther : kTimeBase)[i] + k * 1e-5, std::nullopt});
        for (const Series& s : monitors) {
          const auto& v = side ? s.other : s.base;
          if (!v.empty()) it.monitor_deltas.push_back({0, s.monitor, s.counter, v[i]});
        }
        store.iterations_table().add_iteration(it);
      }
    columns = default_columns(store, {run});
  }
};

const ChangedRow* row(const ChangedTable& t, const std::string& counter) {
  for (const auto& r : t.rows)
    if (r.counter == counter) return &r;
  return nullptr;
}

// Every lead byte followed by its continuation bytes, and none stray.
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80         ? 1
                          : (c >> 5) == 6  ? 2
                          : (c >> 4) == 14 ? 3
                          : (c >> 3) == 30 ? 4
                                           : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

std::size_t columns_of(const std::string& line) {
  std::size_t n = 0;
  for (const unsigned char ch : line) n += (ch & 0xC0) != 0x80;  // UTF-8 code points
  return n;
}

}  // namespace

TEST_CASE("Benjamini-Hochberg q-values are R's p.adjust(method = 'BH')", "[changed]") {
  const auto ref = reference();
  const auto p = ref["bh_p"].get<std::vector<double>>();
  const auto want = ref["bh_q"].get<std::vector<double>>();
  const auto q = benjamini_hochberg(p);
  REQUIRE(q.size() == want.size());
  for (std::size_t i = 0; i < q.size(); ++i) CHECK_THAT(q[i], WithinRel(want[i], 1e-12));
  CHECK(benjamini_hochberg(std::vector<double>{}).empty());
  CHECK_THROWS_AS(benjamini_hochberg(std::vector<double>{0.5, 1.5}), std::invalid_argument);
}

TEST_CASE("what changed: p and q of every tested counter are R's, for both tests", "[changed]") {
  Db db;
  const auto ref = reference();
  for (const auto& [name, test] :
       {std::pair{"welch", Test::kWelch}, std::pair{"mwu", Test::kMwu}}) {
    INFO(name);
    const Comparison c = compare(db.store, db.columns);
    // fdr just below 1: every tested counter is a row, so each p and q shows.
    const ChangedTable t = what_changed(db.store, c, {.test = test, .fdr = 0.999999});
    CHECK(t.tested == 7);
    CHECK(t.below_floor == 2);
    CHECK(t.untestable == 0);
    for (const auto& [counter, want] : ref[name].items()) {
      INFO(counter);
      const ChangedRow* r = row(t, counter);
      if (want["q"].get<double>() > 0.999999) {
        CHECK(r == nullptr);
        continue;
      }
      REQUIRE(r != nullptr);
      if (want["p"].get<double>() == 0)
        CHECK(r->p == 0);
      else
        CHECK_THAT(r->p, WithinRel(want["p"].get<double>(), 1e-9));
      if (want["q"].get<double>() == 0)
        CHECK(r->q == 0);
      else
        CHECK_THAT(r->q, WithinRel(want["q"].get<double>(), 1e-9));
    }
  }
}

TEST_CASE("what changed: rows, order, shares in points, floors, text and JSON", "[changed]") {
  Db db;
  Comparison c = compare(db.store, db.columns);
  c.changed = what_changed(db.store, c, {});
  const ChangedTable& t = *c.changed;
  // The benchmark first, then by the size of the change: self.bar went
  // from 0.5% to 0 (-100%), tasks 81 -> 41, ctxt -40%, ttwu_local -25%.
  std::vector<std::string> names;
  for (const auto& r : t.rows) names.push_back(r.counter);
  CHECK(names == std::vector<std::string>{"hackbench.time", "profile.self.bar", "tasks.tasks",
                                          "stat.ctxt", "schedstat.all.ttwu_local_pct"});
  const ChangedRow& time = t.rows[0];
  CHECK(time.benchmark);
  CHECK(time.workload == "hackbench");
  CHECK(time.block == "hackbench-process-pipes");
  CHECK(time.row == "2");
  const ChangedRow& ctxt = *row(t, "stat.ctxt");
  CHECK(!ctxt.benchmark);
  CHECK(!ctxt.share);
  CHECK_THAT(ctxt.base_mean, WithinRel(1003.3333333333334, 1e-12));
  CHECK_THAT(ctxt.mean, WithinRel(600.83333333333337, 1e-12));
  CHECK_THAT(*ctxt.change_pct,
             WithinRel((600.83333333333337 / 1003.3333333333334 - 1) * 100, 1e-12));
  // sd(c(1000, 1020, 990, 1010, 1005, 995)) / mean * 100 in R: 1.0734...
  CHECK_THAT(*ctxt.base_stddev_pct, WithinRel(10.801234497346433 / 1003.3333333333334 * 100, 1e-9));
  const ChangedRow& local = *row(t, "schedstat.all.ttwu_local_pct");
  CHECK(local.share);
  CHECK(!local.change_pct);
  CHECK_THAT(*local.change_pp, WithinRel(30.2 - 40.166666666666664, 1e-9));
  const ChangedRow& bar = *row(t, "profile.self.bar");
  CHECK(bar.share);
  CHECK(bar.n == 6);  // absent from the new column's profiles: 0 there
  CHECK(bar.mean == 0);
  CHECK(!bar.stddev_pct);  // a mean of 0 has no relative spread

  const std::string text = render_text(c);
  INFO(text);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(columns_of(line) <= 100);
  }
  CHECK(text.find("what changed, default -> batch\n(Welch's t-test per counter across iterations, "
                  "Benjamini-Hochberg q <= 0.05 over 7 counters)\n") != std::string::npos);
  CHECK(text.find("      1003 \u00b1  1%     -40.1%        601 \u00b1  2%  stat.ctxt\n") !=
        std::string::npos);
  CHECK(text.find("     40.17 \u00b1  1%      -9.97      30.20 \u00b1  2%  "
                  "schedstat.all.ttwu_local_pct\n") != std::string::npos);
  CHECK(text.find("left out: 2 under the floors") != std::string::npos);

  const auto j = nlohmann::json::parse(render_json(c));
  REQUIRE(j["changed"].size() == 5);
  const auto& jr = j["changed"][3];
  CHECK(jr["counter"] == "stat.ctxt");
  CHECK(jr["benchmark"] == false);
  for (const char* key :
       {"base_mean", "base_stddev_pct", "mean", "stddev_pct", "change_pct", "p", "q"})
    CHECK(jr[key].is_number());
  CHECK(!jr.contains("change_pp"));
  CHECK(j["changed"][1]["change_pp"] == -0.5);
  CHECK(j["changed"][1]["stddev_pct"].is_null());
  CHECK(j["changed"][0]["benchmark"] == true);
  CHECK(j["changed_test"]["tested"] == 7);
  CHECK(j["changed_test"]["test"] == "welch");
}

TEST_CASE("what changed: an A/A comparison lists nothing; bad uses are refused", "[changed]") {
  Db db;
  // The baseline against itself: the same iterations on both sides.
  std::vector<ColumnRef> same{db.columns[0], db.columns[0]};
  Comparison c = compare(db.store, same);
  const ChangedTable t = what_changed(db.store, c, {});
  CHECK(t.rows.empty());
  CHECK(render_changed_text(t).find("no counter changed\n") != std::string::npos);

  Comparison three = compare(db.store, {db.columns[0], db.columns[1], db.columns[0]});
  CHECK_THROWS_WITH(what_changed(db.store, three, {}),
                    "--changed compares two columns; this comparison has 3 (name two runs, or a "
                    "run with two variants)");
  Comparison two = compare(db.store, db.columns);
  CHECK_THROWS_AS(what_changed(db.store, two, {.fdr = 1.5}), std::invalid_argument);
}

TEST_CASE("what changed: long names are cut in the text, escaped in HTML", "[changed]") {
  ChangedTable t{.base_label = "default", .label = "batch", .tested = 1};
  ChangedRow r{.workload = "hackbench",
               .block = "hackbench-process-pipes",
               .row = "2",
               .counter = "profile.self.<script>" + std::string(80, 'x') + "_end",
               .share = true,
               .base_mean = 4.26,
               .mean = 3.84,
               .change_pp = -0.42,
               .p = 0.001,
               .q = 0.001};
  t.rows.push_back(r);
  const std::string text = render_changed_text(t);
  INFO(text);
  CHECK(text.find("      4.26            -0.42       3.84        profile.self.<script>xxxx...x") !=
        std::string::npos);
  CHECK(text.find("xxx_end\n") != std::string::npos);
  CHECK(text.find("...") != std::string::npos);
  CHECK(text.find("(names cut to fit 100 columns with ...: --format json has them whole)\n") !=
        std::string::npos);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) CHECK(columns_of(line) <= 100);
  const std::string html = render_changed_html(t);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("profile.self.&lt;script&gt;") != std::string::npos);
  CHECK(html.find("<td>-0.42</td>") != std::string::npos);
}

TEST_CASE("what changed: a frequency on one side only is a missing key, not 0 ms", "[changed]") {
  // Issue 44: time_in_state's 1.2 GHz row stored for the baseline only was
  // counted as 0 ms in the other column: "-100.0%", p 7e-5.
  Db db({{"cpufreq",
          "all.2400000kHz.ms",
          {900, 901, 902, 903, 904, 905},
          {900, 902, 901, 904, 903, 905}},
         {"cpufreq", "all.1200000kHz.ms", {100, 101, 102, 103, 104, 105}, {}}});
  Comparison c = compare(db.store, db.columns);
  c.changed = what_changed(db.store, c, {});
  CHECK_FALSE(row(*c.changed, "cpufreq.all.1200000kHz.ms"));
  CHECK(c.changed->one_sided == std::set<std::string>{"cpufreq.all.1200000kHz.ms"});
}

TEST_CASE("what changed: a counter recorded in one column only is one-sided, not -100%",
          "[changed]") {
  // hostile7 37, hostile8: perf-stat's context-switches and /proc/stat's
  // ctxt stored for the baseline only were "-100.0%" against a mean of 0,
  // q 0.001. Every total of those monitors is written when recorded, so
  // absent is unrecorded (a perf that could not count it, a crafted
  // database). A profile's symbol stays sparse: absent is a share of 0.
  Db db({{"perf-stat", "context-switches", {4100, 4200, 4000, 4150, 4120, 4090}, {}},
         {"stat", "ctxt", {3400, 3500, 3300, 3450, 3420, 3390}, {}},
         {"perf-profile", "self.bar", {5.0, 5.2, 4.8, 5.1, 4.9, 5.0}, {}},
         {"perf-profile",
          "self.foo",
          {5.0, 5.2, 4.8, 5.1, 4.9, 5.0},
          {5.0, 5.2, 4.8, 5.1, 4.9, 5.0}}});
  Comparison c = compare(db.store, db.columns);
  c.changed = what_changed(db.store, c, {});
  CHECK_FALSE(row(*c.changed, "perf-stat.context-switches"));
  CHECK_FALSE(row(*c.changed, "stat.ctxt"));
  CHECK(row(*c.changed, "profile.self.bar"));
  CHECK(c.changed->one_sided == std::set<std::string>{"perf-stat.context-switches", "stat.ctxt"});
  const std::string text = render_changed_text(*c.changed);
  CHECK_THAT(test::one_line(text),
             Catch::Contains("2 counters recorded in one column only (not compared, never with "
                             "0): perf-stat.context-switches, stat.ctxt"));
  CHECK(changed_json_summary(*c.changed)["one_sided"] ==
        nlohmann::ordered_json::array({"perf-stat.context-switches", "stat.ctxt"}));
  CHECK_THAT(render_changed_html(*c.changed), Catch::Contains("<p class=\"note\">2 counters"));
  // Nothing one-sided: the summary and text as before (no key, no line).
  Db both;
  Comparison c2 = compare(both.store, both.columns);
  c2.changed = what_changed(both.store, c2, {});
  CHECK_FALSE(changed_json_summary(*c2.changed).contains("one_sided"));
  CHECK_THAT(render_changed_text(*c2.changed), !Catch::Contains("one column only"));
}

TEST_CASE("what changed: a long name is cut between UTF-8 characters", "[changed]") {
  ChangedTable t{.base_label = "default", .label = "batch", .tested = 1};
  t.rows.push_back({.block = "b",
                    .counter = "profile.self." + std::string(30, 'a') + "\xc3\xa9\xc3\xa9" +
                               std::string(60, 'b'),
                    .share = true,
                    .change_pp = 1});
  std::string name = t.rows[0].counter;
  for (std::size_t cut = 0; cut < 40; ++cut) {
    // Each length moves the cut through the two-byte characters.
    t.rows[0].counter = name.substr(0, 13) + std::string(cut, 'x') + name.substr(13);
    const std::string text = render_changed_text(t);
    INFO(text);
    CHECK(valid_utf8(text));
  }
}

TEST_CASE("what changed: Mann-Whitney's floor is R's, and binds over many counters", "[changed]") {
  const auto ref = reference();
  for (const auto& [key, want] : ref["floors"].items()) {
    INFO(key);
    const std::size_t x = key.find('x');
    const auto p =
        smallest_p(Test::kMwu, std::stoul(key.substr(0, x)), std::stoul(key.substr(x + 1)));
    REQUIRE(p);
    CHECK_THAT(p->second, WithinRel(want["untied"].get<double>(), 1e-9));
    CHECK_THAT(p->first,
               WithinRel(std::min(want["tied"].get<double>(), want["untied"].get<double>()), 1e-9));
  }
  CHECK_FALSE(smallest_p(Test::kWelch, 6, 6));  // Welch's p goes to 0

  using Sizes = std::vector<std::pair<std::size_t, std::size_t>>;
  const Sizes none;
  const Sizes six(124, {6, 6});
  const auto f = binding_floor(Test::kMwu, six, none, 0.05);
  REQUIRE(f);
  CHECK_THAT(f->p, WithinRel(ref["floors"]["6x6"]["tied"].get<double>(), 1e-9));
  CHECK_THAT(f->threshold, WithinRel(0.05 / 124, 1e-12));
  CHECK(f->rows_needed == 4);        // 4 x 0.05 / 124 = 0.0016 >= 0.0013 > 3 x 0.05 / 124
  CHECK(f->iterations_needed == 8);  // 7 a side: 0.00058 > 0.0004; 8: 0.00016
  CHECK(test::one_line(floor_sentence(*f)) ==
        "Mann-Whitney's p cannot go below 0.0013 at 6 against 6 iterations (0.0022 without ties), "
        "above Benjamini-Hochberg's first threshold 0.05/124 = 0.0004: rows come 4 or more at "
        "once, or none; Welch's t-test (welch), or 8 iterations a side, would lift this floor.");
  CHECK(f->of_counters);
  CHECK_FALSE(f->benchmark_alone);
  // The same family split as compare --changed splits it: 123 counters and
  // the benchmark's metric at 6 a side, the same floor and sentence.
  const auto split = binding_floor(Test::kMwu, Sizes(123, {6, 6}), Sizes(1, {6, 6}), 0.05);
  REQUIRE(split);
  CHECK(floor_sentence(*split) == floor_sentence(*f));
  // A benchmark metric with many samples a side (a run sample each, 10 an
  // iteration) has a floor far under the threshold: it can be listed
  // alone, but the counters, one value an iteration, still cannot, and
  // that floor is said (taken over all sizes, it vanished).
  const auto many = binding_floor(Test::kMwu, Sizes(123, {6, 6}), Sizes(1, {60, 60}), 0.05);
  REQUIRE(many);
  CHECK(many->of_counters);
  CHECK(many->benchmark_alone);
  CHECK(many->tested == 124);
  CHECK_THAT(many->p, WithinRel(f->p, 1e-12));
  CHECK(many->rows_needed == 4);
  CHECK(test::one_line(floor_sentence(*many)) ==
        "Mann-Whitney's p of a monitor counter cannot go below 0.0013 at 6 against 6 iterations "
        "(0.0022 without ties), above Benjamini-Hochberg's first threshold 0.05/124 = 0.0004: "
        "counters come only 4 or more rows at once, or none (the benchmark's metrics, whose p "
        "can go lower, can be listed alone); Welch's t-test (welch), or 8 iterations a side, "
        "would lift this floor.");
  // The counters' floor under the threshold: no sentence, whatever the
  // benchmark's. No counter tested: the benchmark's floor, as before.
  CHECK_FALSE(binding_floor(Test::kMwu, Sizes(123, {20, 20}), Sizes(1, {6, 6}), 0.05));
  const auto bench_only = binding_floor(Test::kMwu, none, Sizes(1, {2, 2}), 0.05);
  REQUIRE(bench_only);
  CHECK_FALSE(bench_only->of_counters);
  CHECK_FALSE(bench_only->benchmark_alone);
  // Few counters: one can be listed alone. Welch: no floor.
  CHECK_FALSE(binding_floor(Test::kMwu, Sizes(7, {6, 6}), none, 0.05));
  CHECK_FALSE(binding_floor(Test::kWelch, six, none, 0.05));
  // 3 against 3 over 2 counters: 0.047 > 0.05 / 2, both rows or none.
  const auto three = binding_floor(Test::kMwu, Sizes(2, {3, 3}), none, 0.05);
  REQUIRE(three);
  CHECK(three->rows_needed == 2);
  CHECK(floor_sentence(*three).find("rows come 2 or more at once, or none") != std::string::npos);
  // 2 against 2: 0.19 > 0.05 even alone; 4 a side would give 0.029.
  const auto two = binding_floor(Test::kMwu, Sizes(1, {2, 2}), none, 0.05);
  REQUIRE(two);
  CHECK(two->rows_needed > two->tested);
  CHECK(two->iterations_needed == 4);
  CHECK(
      test::one_line(floor_sentence(*two))
          .find(
              "0.05/1 = 0.05: no counter can be listed; Welch's t-test (welch), or 4 iterations a "
              "side, would lift this floor.") != std::string::npos);
}

// 124 counters at 6 against 6 iterations: hackbench.time, k counters
// constant on each side (50 against 80) and the rest the same on both.
// Mann-Whitney lists the k constant counters together when k >= 4 (the
// floor's rows_needed) and nothing when k = 3, with R's q-values; the
// section says why in text, JSON and HTML. Welch lists them all.
TEST_CASE("what changed: at Mann-Whitney's floor rows come several at once, and it says so",
          "[changed]") {
  const auto ref = reference();
  for (const int k : {3, 4}) {
    INFO(k);
    std::vector<std::string> names;
    for (int i = 0; i < 123; ++i) names.push_back(fmt::format("c{:03}", i));
    std::vector<Series> s;
    for (int i = 0; i < 123; ++i)
      s.push_back(i < k ? Series{"vmstat", names[i].c_str(), std::vector<double>(6, 50),
                                 std::vector<double>(6, 80)}
                        : Series{"vmstat",
                                 names[i].c_str(),
                                 {100, 101, 102, 103, 104, 105},
                                 {105, 104, 103, 102, 101, 100}});
    Db db(s);
    Comparison c = compare(db.store, db.columns);
    c.changed = what_changed(db.store, c, {.test = Test::kMwu});
    const ChangedTable& t = *c.changed;
    CHECK(t.tested == 124);
    const auto& want = ref[fmt::format("floor_{}", k)];
    REQUIRE(t.p_floor);
    CHECK(t.p_floor->rows_needed == 4);
    if (k == 3) {
      CHECK(t.rows.empty());
    } else {
      REQUIRE(t.rows.size() == 4);
      for (const auto& r : t.rows)
        CHECK_THAT(r.q, WithinRel(want["constant_q"].get<double>(), 1e-9));
    }
    const std::string text = render_text(c);
    INFO(text);
    CHECK(test::one_line(text).find(
              "(Mann-Whitney U test per counter across iterations, "
              "Benjamini-Hochberg q <= 0.05 over 124 counters) Mann-Whitney's "
              "p cannot go below 0.0013 at 6 against 6 iterations") != std::string::npos);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) CHECK(columns_of(line) <= 100);
    const auto j = nlohmann::json::parse(render_json(c));
    const auto& jf = j["changed_test"]["p_floor"];
    CHECK_THAT(jf["p"].get<double>(), WithinRel(ref["floors"]["6x6"]["tied"].get<double>(), 1e-9));
    CHECK(jf["n_base"] == 6);
    CHECK(jf["rows_needed"] == 4);
    CHECK(jf["iterations_needed"] == 8);
    CHECK(jf["of"] == "counters");
    CHECK(jf["benchmark_alone"] == false);
    CHECK(jf["note"] == floor_sentence(*t.p_floor));
    CHECK(render_changed_html(t).find("<p class=\"note\">Mann-Whitney's p cannot go below") !=
          std::string::npos);

    if (k == 3) {
      // hackbench.time with 10 samples an iteration, 60 units a side: its
      // floor is far lower, the counters' still binds and is said, with
      // the benchmark's metric apart. Listed first, it makes the 3
      // constant counters' group of 4: all four come at once.
      Db many(s, 10);
      Comparison cm = compare(many.store, many.columns);
      cm.changed = what_changed(many.store, cm, {.test = Test::kMwu});
      REQUIRE(cm.changed->p_floor);
      CHECK(cm.changed->p_floor->benchmark_alone);
      CHECK(cm.changed->p_floor->rows_needed == 4);
      REQUIRE(cm.changed->rows.size() == 4);
      CHECK(cm.changed->rows[0].counter == "hackbench.time");
      CHECK(cm.changed->rows[1].counter.starts_with("vmstat.c00"));
      const auto jm = nlohmann::json::parse(render_json(cm))["changed_test"]["p_floor"];
      CHECK(jm["of"] == "counters");
      CHECK(jm["benchmark_alone"] == true);
      CHECK(test::one_line(render_text(cm)).find("counters come only 4 or more rows at once") !=
            std::string::npos);
    }

    c.changed = what_changed(db.store, c, {.test = Test::kWelch});
    CHECK_FALSE(c.changed->p_floor);
    CHECK(c.changed->rows.size() == static_cast<std::size_t>(k) + 1);  // and hackbench.time
    CHECK(nlohmann::json::parse(render_json(c))["changed_test"]["p_floor"].is_null());
    CHECK(render_text(c).find("cannot go below") == std::string::npos);
  }
}

TEST_CASE("what changed: a change of 1e140 against 1 prints in a bounded width (hostile11)",
          "[changed]") {
  // hostile10 17: %change printed with 142 digits.
  ChangedTable t{.base_label = "a", .label = "b", .tested = 1};
  t.rows.push_back(ChangedRow{.workload = "w",
                              .block = "w",
                              .row = "1",
                              .counter = "vmstat.pgfault",
                              .base_mean = 1,
                              .mean = 1e140,
                              .base_stddev_pct = 1e140,
                              .stddev_pct = 5,
                              .change_pct = (1e140 - 1) / 1 * 100,
                              .p = 0.001,
                              .q = 0.001});
  const std::string text = render_changed_text(t);
  INFO(text);
  CHECK(
      text.find("      1.00 \u00b11e+140% +1.000e+142% 1.000e+140 \u00b1  5%  vmstat.pgfault\n") !=
      std::string::npos);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) CHECK(columns_of(line) <= 100);
  CHECK(render_changed_html(t).find("<td>+1.000e+142%</td>") != std::string::npos);
  CHECK(changed_json_rows(t)[0]["change_pct"].get<double>() == 1e142);
}

TEST_CASE("what changed: a stored perf-stat count below 0 is refused, not -394% (hostile9/11)",
          "[changed]") {
  // merge refuses such a row (merge_checks.cc); compare --changed on the
  // crafted database itself printed -394.0%.
  Db db({{"perf-stat",
          "context-switches",
          {100, 100, 100, 100, 100, 100},
          {-294, -294, -294, -294, -294, -294}}});
  Comparison c = compare(db.store, db.columns);
  CHECK_THROWS_WITH(what_changed(db.store, c, {}),
                    "run 1 iteration id 7: perf-stat count context-switches is no count: -294 is "
                    "negative: no count is (a damaged or crafted database)");
  // A vmstat gauge's delta may be below 0.
  Db gauge({{"vmstat", "nr_free_pages", {100, 101, 102, 103, 104, 105}, {-1, -2, -3, -4, -5, -6}}});
  Comparison g = compare(gauge.store, gauge.columns);
  CHECK(what_changed(gauge.store, g, {}).rows.size() >= 1);
}

TEST_CASE("what changed: a stored perf-profile share outside 0-100 is refused (hostile11/12)",
          "[changed]") {
  // A profile's self and children shares are percent of all samples; a
  // crafted database's 500 and -50 were read as shares.
  Db big(
      {{"perf-profile", "children.hot", {10, 10, 10, 10, 10, 10}, {500, 500, 500, 500, 500, 500}}});
  Comparison c = compare(big.store, big.columns);
  CHECK_THROWS_WITH(what_changed(big.store, c, {}),
                    "run 1 iteration id 7: perf-profile share children.hot is no share: 500 is "
                    "outside 0-100: no share is (a damaged or crafted database)");
  Db neg({{"perf-profile", "self.hot", {-50, 10, 10, 10, 10, 10}, {10, 10, 10, 10, 10, 10}}});
  Comparison n = compare(neg.store, neg.columns);
  CHECK_THROWS_WITH(what_changed(neg.store, n, {}),
                    "run 1 iteration id 1: perf-profile share self.hot is no share: -50 is "
                    "outside 0-100: no share is (a damaged or crafted database)");
  // 100 (every sample) is a share.
  Db all({{"perf-profile",
           "children.main",
           {100, 100, 100, 100, 100, 100},
           {90, 91, 92, 93, 94, 95}}});
  Comparison a = compare(all.store, all.columns);
  CHECK_NOTHROW(what_changed(all.store, a, {}));
}
