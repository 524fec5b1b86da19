// The nightly report over a real temporary store: regressions found with
// the rule, compared against the baseline and the previous target, with
// the schedstat diff attached from stored monitor snapshots (real
// /proc/schedstat files from the shared fixtures), or the reason it is not.
#include "analysis/nightly/nightly_report.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/nightly_log.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

const char* const kFixture = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu";

struct Db {
  test::TempDir dir;
  Store store{dir.file("r.db")};
  // One run of hackbench time samples, with schedstat snapshots or not.
  std::int64_t run(const std::string& name, const std::vector<double>& times, bool schedstat) {
    const auto id = store.runs_table().create_run({.name = name,
                                      .config_path = "c.yaml",
                                      .config_text = "x",
                                      .config_sha256 = "s",
                                      .status = RunStatus::kFinished});
    const auto v =
        store.variants_table().add_variant({.run_id = id, .name = "default", .position = 0, .knobs_json = "{}"});
    store.metrics_table().add_metric(
        id, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    int i = 0;
    for (double t : times) {
      IterationRow it{.run_id = id,
                      .variant_id = v,
                      .workload = "hackbench",
                      .block = "hackbench-process-pipes",
                      .row = "4",
                      .params_json = "{\"groups\":4}",
                      .iteration = i++,
                      .status = IterationStatus::kOk,
                      .started_at = "2026-11-29T00:00:00Z"};
      it.samples = {{"time", t, std::nullopt}};
      if (schedstat)
        it.monitor_snapshots = {
            {0, "schedstat", "before", "/proc/schedstat",
             test::read_text(test::fixture(std::string(kFixture) + ".before.txt"))},
            {0, "schedstat", "after", "/proc/schedstat",
             test::read_text(test::fixture(std::string(kFixture) + ".after.txt"))}};
      store.iterations_table().add_iteration(it);
    }
    return id;
  }
};

NightlyCell cell(const std::string& target, std::int64_t run) {
  return {.target = target, .config = "c.yaml", .status = CellStatus::kMeasured, .run_id = run};
}

}  // namespace

TEST_CASE("the nightly report finds the regression and attaches the schedstat diff of its row") {
  Db db;
  const auto base = db.run("base", {1.00, 1.01, 0.99, 1.00, 1.02}, true);
  const auto slow = db.run("slow", {1.20, 1.21, 1.19, 1.20, 1.22}, true);
  const auto plain = db.run("plain", {1.40, 1.41, 1.39, 1.40, 1.42}, false);
  NightlyReportInput in{.name = "n",
                        .targets = {"base", "slow", "plain", "broken"},
                        .baseline = 0,
                        .configs = {"c.yaml"},
                        .cells = {cell("base", base),
                                  cell("slow", slow),
                                  cell("plain", plain),
                                  {.target = "broken",
                                   .config = "c.yaml",
                                   .status = CellStatus::kFailed,
                                   .error = "hook: exit 1"}},
                        .rule = {.alpha = 0.05, .min_effect_pct = 3}};
  const NightlyReport r = build_nightly_report(db.store, in);
  // slow and plain against base, plain against slow (previous): all worse.
  REQUIRE(r.comparisons.size() == 3);
  REQUIRE(r.regressions.size() == 3);
  CHECK(r.regressions[0].target == "slow");
  CHECK(r.regressions[0].against == "baseline");
  CHECK(r.regressions[1].target == "plain");
  CHECK(r.regressions[1].against == "baseline");
  CHECK(r.regressions[2].target == "plain");
  CHECK(r.regressions[2].reference == "slow");
  CHECK(r.regressions[2].against == "previous");
  REQUIRE(r.regressions[0].schedstat);
  CHECK(r.regressions[0].schedstat->label_a == "base (5 iterations)");
  CHECK_FALSE(r.regressions[1].schedstat);
  CHECK_THAT(r.regressions[1].schedstat_reason, Contains("no schedstat monitor data in plain"));
  REQUIRE(r.failures.size() == 1);
  CHECK(r.failures[0] == "broken / c.yaml: hook: exit 1");

  const std::string md = render_nightly_markdown(r);
  CHECK_THAT(md, Contains("**3 regressions.**") &&
                     Contains("Schedstat, summed over the row's iterations") &&
                     Contains("failed: hook: exit 1"));
  CHECK(md.find("## Regressions") < md.find("## Targets"));
  const auto j = nlohmann::json::parse(render_nightly_json(r));
  CHECK(j["format_version"] == 1);
  CHECK(j["regressed"] == true);
  CHECK(j["regressions"][0]["schedstat"].is_object());
  CHECK(j["regressions"][1]["schedstat"].is_null());
  CHECK(j["regressions"][0]["pct"].get<double>() == Approx(-20).epsilon(0.01));
  CHECK(j["comparisons"][0]["compare"]["format_version"].is_number());
  // A p that underflowed to 0 is a bound in the tables, never "0" (issue 44).
  NightlyReport tiny = r;
  tiny.regressions[0].r.p_value = 0;
  CHECK_THAT(render_nightly_markdown(tiny), Contains("% | <1e-300 |"));
  CHECK_THAT(render_nightly_html(tiny, ""), Contains("%</td><td>&lt;1e-300</td>"));
}

TEST_CASE("the nightly report without a measured baseline compares with the previous target only") {
  Db db;
  const auto a = db.run("a", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  const auto b = db.run("b", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  NightlyReportInput in{
      .name = "n",
      .targets = {"base", "a", "b"},
      .baseline = 0,
      .configs = {"c.yaml"},
      .cells = {{.target = "base", .config = "c.yaml", .status = CellStatus::kFailed, .error = "x"},
                cell("a", a),
                cell("b", b)}};
  const NightlyReport r = build_nightly_report(db.store, in);
  REQUIRE(r.comparisons.size() == 1);
  CHECK(r.comparisons[0].reference == "a");
  CHECK(r.comparisons[0].against == "previous");
  CHECK_FALSE(r.regressed());
}

TEST_CASE("a target whose nightly row names the baseline's own run is refused, naming the row") {
  // Hostile pass 7 (item 23): a crafted row pointed target t1 at the
  // baseline's run, and the report compared the baseline with itself: "No
  // regression". The baseline keeps its run, though it comes later in the file.
  Db db;
  const auto base = db.run("base", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  const auto slow = db.run("slow", {1.20, 1.21, 1.19, 1.20, 1.22}, false);
  NightlyCell shared = cell("t1", base);
  shared.measurement_id = 7;
  NightlyReportInput in{.name = "n",
                        .targets = {"t1", "base", "t2"},
                        .baseline = 1,
                        .configs = {"c.yaml"},
                        .cells = {shared, cell("base", base), cell("t2", slow)},
                        .rule = {.alpha = 0.05, .min_effect_pct = 3}};
  const NightlyReport r = build_nightly_report(db.store, in);
  REQUIRE(r.failures.size() == 1);
  CHECK(r.failures[0] ==
        fmt::format("t1 / c.yaml: its measurement (nightly_measurements row 7) names run {}, the "
                    "measurement of base (the baseline): a run compared with itself shows no "
                    "change; not compared",
                    base));
  REQUIRE(r.comparisons.size() == 1);  // t2 against the baseline only
  CHECK(r.comparisons[0].target == "t2");
  CHECK(r.regressed());
  CHECK_THAT(render_nightly_markdown(r),
             Contains("failed: its measurement (nightly_measurements row 7)"));
}

namespace {

// A branch target's night: its run and the nightly row naming its commit.
struct Night {
  std::int64_t run = 0;
  std::int64_t row = 0;
};
Night night(Db& db, const std::string& commit, const std::vector<double>& times) {
  Night n;
  n.run = db.run(
      fmt::format("branch {} #{}", commit, db.store.nightly_log().nightly_measurements().size()),
      times, false);
  n.row = db.store.nightly_log().add_nightly_measurement({.nightly = "n",
                                                          .target = "branch",
                                                          .config_path = "c.yaml",
                                                          .config_sha256 = "s",
                                                          .run_id = n.run,
                                                          .status = NightlyStatus::kMeasured,
                                                          .kernel_commit = commit});
  return n;
}

NightlyReportInput branch_input(std::int64_t base, const Night& now, const std::string& commit) {
  NightlyCell c = cell("branch", now.run);
  c.measurement_id = now.row;
  c.config_sha256 = "s";
  c.kernel_repo = "/src/my linux";
  c.kernel_commit = commit;
  return {.name = "n",
          .targets = {"base", "branch"},
          .baseline = 0,
          .configs = {"c.yaml"},
          .cells = {cell("base", base), c},
          .rule = {.alpha = 0.05, .min_effect_pct = 3},
          .db = "/var/lib/schedlab/night's.db"};
}

const std::vector<double> kFast = {1.00, 1.01, 0.99, 1.00, 1.02};
const std::vector<double> kSlow = {1.20, 1.21, 1.19, 1.20, 1.22};

}  // namespace

TEST_CASE(
    "a branch target's regression names the commits since its last good night and the bisect") {
  Db db;
  const auto base = db.run("base", kFast, false);
  night(db, "aaaa", kSlow);  // an older bad night: the newest good one counts
  night(db, "bbbb", {1.01, 1.00, 1.02, 0.99, 1.00});  // the last good night
  const Night c = night(db, "cccc", kSlow);
  night(db, "cccc", kSlow);  // a later row (e.g. a later night): not earlier
  const Night d = night(db, "dddd", {1.21, 1.20, 1.22, 1.19, 1.23});
  const NightlyReport r = build_nightly_report(db.store, branch_input(base, d, "dddd"));
  REQUIRE(r.regressions.size() == 1);
  const auto& g = r.regressions[0];
  CHECK(g.repo == "/src/my linux");
  CHECK(g.commit == "dddd");
  CHECK(g.last_good == "bbbb");  // cccc regressed; aaaa is older than bbbb
  CHECK(g.range_note.empty());
  const std::string cmd =
      "schedlab bisect start --repo '/src/my linux' --good bbbb --bad dddd --config c.yaml "
      "--metric time --db '/var/lib/schedlab/night'\\''s.db'";
  CHECK(g.bisect_command == cmd);
  const std::string md = render_nightly_markdown(r);
  CHECK_THAT(md, Contains("Commits since the last good night: bbbb..dddd in /src/my linux"));
  CHECK_THAT(md, Contains("```\n" + cmd + "\n```"));
  const auto j = nlohmann::json::parse(render_nightly_json(r));
  CHECK(j["regressions"][0]["commits"]["last_good"] == "bbbb");
  CHECK(j["regressions"][0]["commits"]["bad"] == "dddd");
  CHECK(j["regressions"][0]["commits"]["bisect_command"] == cmd);
  (void)c;
}

TEST_CASE("a branch target with no good night before says so and prints no bisect") {
  Db db;
  const auto base = db.run("base", kFast, false);
  night(db, "aaaa", kSlow);
  const Night now = night(db, "bbbb", kSlow);
  NightlyReportInput in = branch_input(base, now, "bbbb");
  in.db.clear();
  const NightlyReport r = build_nightly_report(db.store, in);
  REQUIRE(r.regressions.size() == 1);
  CHECK(r.regressions[0].last_good.empty());
  CHECK(r.regressions[0].bisect_command.empty());
  CHECK(r.regressions[0].range_note ==
        "no good night of branch with c.yaml: the 1 earlier night regressed too");
  const std::string md = render_nightly_markdown(r);
  CHECK_THAT(md, Contains("branch is at bbbb; no good night of branch with c.yaml"));
  CHECK(md.find("schedlab bisect start") == std::string::npos);
  CHECK(nlohmann::json::parse(render_nightly_json(r))["regressions"][0]["commits"]["last_good"]
            .is_null());

  SECTION("nor does a target that is not a branch") {
    in.cells[1].kernel_commit.clear();
    in.cells[1].kernel_repo.clear();
    const NightlyReport plain = build_nightly_report(db.store, in);
    REQUIRE(plain.regressions.size() == 1);
    CHECK(plain.regressions[0].repo.empty());
    CHECK(nlohmann::json::parse(render_nightly_json(plain))["regressions"][0]["commits"].is_null());
  }
}

TEST_CASE("a shift across several nights of a branch is a change point with its commits and the bisect") {
  Db db;
  const auto base = db.run("base", kFast, false);
  // Twelve nights of one branch; from the seventh on (commit c06) the time is
  // 20% higher. Each night's samples wobble a little around its level.
  const double wobble[] = {0.4, -0.8, 1.1, -0.3, 0.9, -1.2, 0.2, 0.7, -0.6, 1.0, -0.9, 0.3};
  Night now;
  for (int k = 0; k < 12; ++k) {
    const double level = (1 + wobble[k] / 100) * (k >= 6 ? 1.2 : 1.0);
    now = night(db, fmt::format("c{:02}", k), {level * 0.99, level, level * 1.01, level * 0.995, level * 1.005});
  }
  const NightlyReport r = build_nightly_report(db.store, branch_input(base, now, "c11"));
  REQUIRE(r.changes.size() == 1);
  const NightlyChange& c = r.changes[0];
  CHECK(c.target == "branch");
  CHECK(c.metric == "time");
  CHECK(c.change.pct == Approx(20).margin(2));
  CHECK(c.change.worse);
  CHECK(c.good == "c05");
  CHECK(c.bad == "c06");
  CHECK(c.repo == "/src/my linux");
  const std::string cmd =
      "schedlab bisect start --repo '/src/my linux' --good c05 --bad c06 --config c.yaml --metric time --db "
      "'/var/lib/schedlab/night'\\''s.db'";
  CHECK(c.bisect_command == cmd);
  // The baseline target has no history of nights: said, not searched.
  CHECK(r.change_notes == std::vector<std::string>{"base / c.yaml: 0 measured nights; change points need at least 8"});

  const std::string md = render_nightly_markdown(r);
  CHECK_THAT(md, Contains("## Change points in history (1)") &&
                     Contains("Commits across the change: c05..c06 in /src/my linux") &&
                     Contains("```\n" + cmd + "\n```"));
  const auto j = nlohmann::json::parse(render_nightly_json(r));
  REQUIRE(j["changes"].size() == 1);
  CHECK(j["changes"][0]["commits"]["good"] == "c05");
  CHECK(j["changes"][0]["commits"]["bad"] == "c06");
  CHECK(j["changes"][0]["commits"]["bisect_command"] == cmd);
  CHECK(j["changes"][0]["worse"] == true);
  CHECK(j["changes"][0]["first_night_after"]["commit"] == "c06");
  const std::string html = render_nightly_html(r, "/* vega */");
  CHECK_THAT(html, Contains("Change points in history (1)") && Contains("c05..c06"));
}

TEST_CASE("an improvement across nights is bisected as a change either way; a flat branch has none") {
  Db db;
  const auto base = db.run("base", kFast, false);
  const double wobble[] = {0.4, -0.8, 1.1, -0.3, 0.9, -1.2, 0.2, 0.7, -0.6, 1.0, -0.9, 0.3};
  SECTION("faster from c06") {
    Night now;
    for (int k = 0; k < 12; ++k) {
      const double level = (1 + wobble[k] / 100) * (k >= 6 ? 0.8 : 1.0);
      now = night(db, fmt::format("c{:02}", k), {level * 0.99, level, level * 1.01});
    }
    const NightlyReport r = build_nightly_report(db.store, branch_input(base, now, "c11"));
    REQUIRE(r.changes.size() == 1);
    CHECK_FALSE(r.changes[0].change.worse);
    CHECK_THAT(r.changes[0].bisect_command, Contains("--good c05 --bad c06") && Contains("--direction either"));
  }
  SECTION("flat") {
    Night now;
    for (int k = 0; k < 12; ++k) {
      const double level = 1 + wobble[k] / 100;
      now = night(db, fmt::format("c{:02}", k), {level * 0.99, level, level * 1.01});
    }
    const NightlyReport r = build_nightly_report(db.store, branch_input(base, now, "c11"));
    CHECK(r.changes.empty());
    CHECK_THAT(render_nightly_markdown(r), Contains("## Change points in history (0)"));
  }
}

TEST_CASE("the nightly HTML shows a hostile target and variant name visibly in every cell") {
  // Issue 44: cells were HTML-escaped, not terminal-safe as the title is.
  Db db;
  const auto base = db.run("base", {1.00, 1.01, 0.99, 1.00, 1.02}, false);
  const auto slow = db.run("slow", {1.20, 1.21, 1.19, 1.20, 1.22}, false);
  const std::string hostile = "s\x1b]0;pwned\x07low\xe2\x80\xae";
  NightlyReportInput in{.name = "n",
                        .targets = {"base", hostile},
                        .baseline = 0,
                        .configs = {"c.yaml"},
                        .cells = {cell("base", base), cell(hostile, slow)},
                        .rule = {.alpha = 0.05, .min_effect_pct = 3}};
  const NightlyReport r = build_nightly_report(db.store, in);
  REQUIRE(r.regressions.size() == 1);
  std::string html = render_nightly_html(r, "/* vega */");
  // The plots' data (JSON in a script) aside: every table cell and heading.
  for (std::size_t at; (at = html.find("<script")) != std::string::npos;)
    html.erase(at, html.find("</script>", at) + 9 - at);
  for (const char* raw : {"\x1b", "\x07", "\xe2\x80\xae"})
    CHECK(html.find(raw) == std::string::npos);
  CHECK_THAT(html, Contains("<tr><td>s\\x1b]0;pwned\\x07low\\u202e</td>"));
}
