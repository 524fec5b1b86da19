// report's profiles (issue 46 item 4) end to end: real perf profiles
// (tests/fixtures/perf/script-two-hot-*.txt.gz: `perf record -a -g` of a
// program whose two hot functions swap their balance between the two
// variants) folded and stored as the perf-profile monitor stores them, the
// page written by the real binary and opened in headless Chromium
// (tests/browser/check_report.py): a flame graph per column, the
// differential one red where a frame grew and blue where it shrank, a
// screenshot under build/; a corrupt stored profile is an error naming its
// iteration; a comparison without profiles has no trace of the section;
// frame names that would open or close a <script> are drawn as text.
#include <fmt/format.h>
#include <unistd.h>

#include <boost/regex.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "analysis/counters/perf_profile.h"
#include "base/compression.h"
#include "base/file.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "tests/support/one_line.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/profiled_command.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/stored_profiles.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

enum class Profiles { kStored, kNone, kCorrupt, kHostile };

// Frame and process names that would open or close a <script> block, or
// hold markup: kHostile adds a stack of them to every profile.
const std::string kEvilFrame = "</script><script>alert(1)</script>";
const std::string kEvilComm = "<!--<script>";
const std::string kMarkupFrame = "a&b<i>c</i>";

// One run, two variants (alpha-heavy the baseline, beta-heavy), three
// iterations each; each iteration's profile folded, stored and turned into
// rows as runner/monitors/perf_monitor.cc and monitor_runner.cc do. The
// metric is the program's own samples in its profile.
std::string profile_db(test::TempDir& dir, Profiles profiles) {
  const std::string db = dir.file("profiles.db");
  Store store(db);
  const auto run = test::plain_run(store, "two-hot");
  store.runs_table().set_run_status(run, RunStatus::kFinished, true);
  store.metrics_table().add_metric(run, {"command", "samples", "samples", Direction::kLowerIsBetter,
                                         "amean", SampleKind::kRun, 0});
  const std::vector<std::pair<std::string, std::string>> variants = {{"alpha-heavy", "a"},
                                                                     {"beta-heavy", "b"}};
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const auto variant =
        store.variants_table().add_variant({0, run, variants[v].first, static_cast<int>(v), "{}"});
    for (int i = 0; i < 3; ++i) {
      auto folded = test::two_hot_profile(variants[v].second + std::to_string(i + 1));
      if (profiles == Profiles::kHostile)
        folded[kEvilComm + ";main;" + kEvilFrame + ";" + kMarkupFrame] = 40 + 20 * v;
      IterationRow it = test::plain_iteration(run, variant, "command");
      it.block = "two_hot";
      it.iteration = i;
      it.started_at = "";
      it.samples = {{"samples", test::samples_of(folded, "two_hot"), std::nullopt}};
      if (profiles != Profiles::kNone) {
        std::string stored = perf_profile::store(folded);
        // The second iteration of the second variant: base64 of plain text.
        if (profiles == Profiles::kCorrupt && v == 1 && i == 1) stored = "bm90IGd6aXA=";
        test::add_profile_rows(it, folded, stored);
      }
      store.iterations_table().add_iteration(it);
    }
  }
  return db;
}

// The page in Chromium: a flame graph per column and the differential one
// (tests/support/stored_profiles.h) of ITERATIONS a column, a screenshot
// SHOT.png under build/.
void check_flames(test::TempDir& dir, const std::string& page, const std::string& shot,
                  const std::string& iterations = "3") {
  test::check_two_hot_flames(dir, page, shot, "", "alpha-heavy", "beta-heavy", iterations);
}

}  // namespace

TEST_CASE("report: flame graphs per column and a differential one, drawn in headless Chromium") {
  test::TempDir dir;
  const std::string db = profile_db(dir, Profiles::kStored);
  const std::string page = dir.file("profiles.html");
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", page});
  INFO(rep.err);
  REQUIRE(rep.ok());
  const std::string html = read_file(page);
  CHECK(html.find("<h2>Profiles (perf-profile)</h2>") != std::string::npos);
  // The symbols whose share moved: both hot functions, self and children.
  const auto moved = html.find("Symbols whose share of samples moved");
  REQUIRE(moved != std::string::npos);
  const std::string section = html.substr(moved, html.find("</table>", moved) - moved);
  CHECK(section.find("<td class=\"symbol\">alpha_loop</td><td>self</td>") != std::string::npos);
  CHECK(section.find("<td class=\"symbol\">beta_loop</td><td>self</td>") != std::string::npos);
  // The library is inlined with its licence named; nothing is fetched.
  CHECK(html.find("d3-flame-graph 5.0.0 by Martin Spier, Apache License 2.0") != std::string::npos);
  CHECK(html.find("https://d3js.org v7.9.2") != std::string::npos);
  CHECK(html.find("<script src") == std::string::npos);

  check_flames(dir, page, "report-profiles");
}

TEST_CASE("report: a corrupt stored profile is an error naming its iteration") {
  test::TempDir dir;
  const std::string db = profile_db(dir, Profiles::kCorrupt);
  const std::string page = dir.file("corrupt.html");
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", page});
  CHECK(rep.exit_code == 1);
  CHECK(test::one_line(rep.err).find(test::one_line(
            "run two-hot variant beta-heavy two_hot 1 iteration 1 (id 5): the stored "
            "profile is not gzip data")) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(page));
}

TEST_CASE("report: a comparison without profiles has no profiles section, no d3") {
  test::TempDir dir;
  const std::string db = profile_db(dir, Profiles::kNone);
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", "-"});
  INFO(rep.err);
  REQUIRE(rep.ok());
  CHECK(rep.out.find("Profiles") == std::string::npos);
  CHECK(rep.out.find("flame") == std::string::npos);
  CHECK(rep.out.find("d3js.org") == std::string::npos);
}

TEST_CASE("report of two real perf-profile runs: the hot function's move in the flame graphs",
          "[perf][heavy]") {
  LocalHost host;
  if (!host.find_program("perf")) SCHEDLAB_SKIP("perf is not installed (Debian: linux-perf)");
  if (geteuid() != 0) SCHEDLAB_SKIP("perf -a needs root here");
  test::TempDir dir;
  const std::string db = dir.file("live.db");
  for (const auto& [name, alpha, beta] : {std::tuple{"alpha-heavy", "400000000", "130000000"},
                                          std::tuple{"beta-heavy", "130000000", "400000000"}}) {
    const std::string config = dir.file(std::string(name) + ".yaml");
    // Five iterations a side, not three: perf samples the whole machine, and
    // a build beside the tests (test.sh's sanitized build) takes a share of
    // the samples that varies from iteration to iteration; with three, the
    // 24-point move of alpha_loop was once not significant (q > 0.05).
    test::write_text(config, test::profiled_command_config(
                                 5, "two_hot", fmt::format(R"(["{}", "{}", "{}"])",
                                                           SCHEDLAB_TEST_TWO_HOT, alpha, beta)));
    const auto run = test::schedlab_cmd({"run", config, "--db", db, "--name", name}, {},
                                        std::chrono::seconds(600));
    INFO(run.out << run.err);
    REQUIRE(run.ok());
  }
  const std::string page = dir.file("live.html");
  const auto rep =
      test::schedlab_cmd({"report", "alpha-heavy", "beta-heavy", "--db", db, "-o", page});
  INFO(rep.err);
  REQUIRE(rep.ok());
  // alpha_loop's share fell by about 24 points (35% to 11% of all samples
  // here, the machine shared): a row of the moved symbols, in blue.
  const std::string html = read_file(page);
  const auto moved = html.find("Symbols whose share of samples moved");
  REQUIRE(moved != std::string::npos);
  const std::string section = html.substr(moved, html.find("</table>", moved) - moved);
  INFO(section);
  CHECK(boost::regex_search(section, boost::regex("<td class=\"symbol\">alpha_loop</td><td>"
                                                  "(self|children)</td>[^\\n]*class=\"shrank\"")));
  check_flames(dir, page, "report-profiles-live", "5");
}

TEST_CASE("report: frame names that open or close a <script> are drawn as text") {
  test::TempDir dir;
  const std::string db = profile_db(dir, Profiles::kHostile);
  const std::string page = dir.file("hostile.html");
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", page});
  INFO(rep.err);
  REQUIRE(rep.ok());
  const std::string dump = dir.file("hostile.json");
  // No dialog, no error, every plot and flame graph drawn.
  const auto check = test::check_page_in_chromium(
      page, SCHEDLAB_BUILD_DIR "/report-profiles-hostile.png", {"--dump", dump});
  INFO(check.out << check.err);
  REQUIRE(check.ok());
  const auto seen = nlohmann::json::parse(read_file(dump));
  // Vega, the plots, d3, d3-flame-graph, the graphs, their boot, the plots' boot: ours only.
  CHECK(seen["scripts"] == 7);
  for (const char* graph : {"flame0", "flame1", "flamediff1"}) {
    INFO(graph);
    std::set<std::string> names;
    for (const auto& f : seen["flames"][graph]) names.insert(f["name"].get<std::string>());
    CHECK(names.count(kEvilComm) == 1);
    CHECK(names.count(kEvilFrame) == 1);
    CHECK(names.count(kMarkupFrame) == 1);
  }
}
