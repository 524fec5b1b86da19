// Flame graphs where a comparison is a section of another page (issue 46):
// nightly --report-html and bisect status --format html, end to end on this
// machine. A hook installs what each kernel (target, candidate) stands for:
// the mean a small Python program prints (1.0, or 2.0 for the bad ones). The
// runs are measured for real without perf-profile; the page then says, in a
// sentence, that there is no profile, and has no graph and no d3. Real perf
// profiles (tests/support/stored_profiles.h: alpha-heavy for the good
// kernel, beta-heavy for the bad) are then stored with every iteration as
// the monitor stores them, and the page, made again from the same runs,
// draws them in headless Chromium: a graph per column and the differential
// one, alpha_loop blue and beta_loop red. The nightly case takes 4 s here, the
// bisection 8 s (in the long tier).
#include <fmt/format.h>
#include <sys/utsname.h>

#include <catch2/catch.hpp>

#include "results/runs_table.h"
#include "results/store.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/stored_profiles.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

const char* const kMeanProgram = R"py(import random, sys
mean = float(open(sys.argv[1]).read())
print("seconds: %f" % (mean * random.uniform(0.98, 1.02)))
)py";

struct MeanSetup {
  test::TempDir dir;
  MeanSetup() {
    test::write_text(dir.file("mean.py"), kMeanProgram);
    for (const auto& [kernel, mean] :
         {std::pair{"good-1", "1.0"}, {"bad-2", "2.0"}, {"bad-3", "2.0"}})
      test::write_text(dir.file(std::string(kernel) + ".val"), mean);
    test::write_text(dir.file("mean.yaml"),
                     fmt::format(R"(description: prints the mean the hook installed
hosts: {{sut: local, loadgen: local}}
iterations: 4
workloads:
  - command:
      name: mean
      argv: [python3, {}, {}]
      metrics:
        seconds: {{regex: '^seconds: (?<value>[0-9.]+)$', direction: lower}}
)",
                                 dir.file("mean.py"), dir.file("current.val")));
  }
  // Every ok iteration of every run in DB gets a real profile: alpha-heavy
  // where the run's name says GOOD, beta-heavy otherwise.
  void store_profiles(const std::string& db, const std::string& good) const {
    Store store(db);
    for (const auto& run : store.runs_table().list_runs())
      for (const auto& it : store.iterations_table().iterations(run.id))
        if (it.status == IterationStatus::kOk)
          test::store_profile(store, it.id,
                              test::two_hot_profile(fmt::format(
                                  "{}{}", run.name.find(good) != std::string::npos ? 'a' : 'b',
                                  it.iteration % 3 + 1)));
  }
};

// A page without profiles: the sentence, no graph, no d3.
void check_no_flames(const std::string& html) {
  CHECK_THAT(html, Contains("No flame graphs: neither column has a stored perf-profile"));
  CHECK_THAT(html, !Contains("<div class=\"flame\">") && !Contains("d3js.org") &&
                       !Contains("schedlab-flames"));
}

}  // namespace

TEST_CASE("nightly --report-html: flame graphs of each comparison, or a sentence without profiles",
          "[e2e][profiles][long]") {
  MeanSetup s;
  const std::string db = s.dir.file("n.db"), page = s.dir.file("n.html");
  test::write_text(s.dir.file("n.yaml"),
                   fmt::format("baseline: good-1\ntargets:\n"
                               "  - name: good-1\n    hook: [cp, good-1.val, current.val]\n"
                               "  - name: bad-2\n    hook: [cp, bad-2.val, current.val]\n"
                               "configs: [{}]\nrule: {{test: mwu, alpha: 0.05}}\n",
                               s.dir.file("mean.yaml")));
  const auto nightly = [&] {
    return test::schedlab_cmd({"nightly", s.dir.file("n.yaml"), "--db", db, "--report-md",
                               db + ".md", "--report-html", page});
  };
  const auto r = nightly();
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 1);  // bad-2 regressed
  check_no_flames(test::read_text(page));

  s.store_profiles(db, " good-1 ");
  const auto again = nightly();  // the same runs, reused
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 1);
  CHECK_THAT(again.err, Contains("0 measured now, 2 reused"));
  const std::string html = test::read_text(page);
  CHECK_THAT(html, Contains("<h2>Profiles (perf-profile)</h2>") &&
                       Contains("Symbols whose share of samples moved") &&
                       !Contains("No flame graphs"));
  // The columns are named by target and kernel release (this machine's).
  utsname u{};
  REQUIRE(uname(&u) == 0);
  test::check_two_hot_flames(s.dir, page, "nightly-profiles", "c0-",
                             fmt::format("good-1 ({})", u.release),
                             fmt::format("bad-2 ({})", u.release), "4");

  // A stored profile that does not load: that comparison's graphs give way
  // to the error, naming the iteration; the night's report is still made.
  REQUIRE(test::exec_raw(db,
                         "UPDATE monitor_snapshots SET text = 'bm90IGd6aXA=' WHERE "
                         "monitor = 'perf-profile' AND iteration_id = (SELECT "
                         "MIN(iteration_id) FROM monitor_snapshots)"));
  const auto corrupt = nightly();
  INFO(corrupt.out << corrupt.err);
  CHECK(corrupt.exit_code == 1);
  const std::string broken = test::read_text(page);
  CHECK_THAT(broken,
             Contains("No flame graphs: a stored perf-profile did not load: run nightly ") &&
                 Contains("iteration 0 (id ") && Contains("the stored profile is not gzip data") &&
                 !Contains("schedlab-flames"));
  CHECK_THAT(test::read_text(db + ".md"), Contains("## Regressions (1)"));
}

// [long]: a bisection of three kernels with its two pages takes 8 s here.
TEST_CASE("bisect status --format html: the last good against the first bad, with flame graphs",
          "[e2e][profiles][long]") {
  MeanSetup s;
  const std::string db = s.dir.file("b.db"), page = s.dir.file("b.html");
  const auto r = test::schedlab_cmd({"bisect",       "start",
                                     "--db",         db,
                                     "--good",       "good-1",
                                     "--bad",        "bad-3",
                                     "--kernels",    "good-1,bad-2,bad-3",
                                     "--config",     s.dir.file("mean.yaml"),
                                     "--metric",     "seconds",
                                     "--hook-cwd",   s.dir.path().string(),
                                     "--",           "cp",
                                     "{kernel}.val", "current.val"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto status = [&] {
    const auto st = test::schedlab_cmd({"bisect", "status", "--db", db, "--format", "html"});
    INFO(st.err);
    REQUIRE(st.ok());
    test::write_text(page, st.out);
    return st.out;
  };
  const std::string plain = status();
  CHECK_THAT(plain, Contains("<h2>Last good against first bad</h2>") &&
                        Contains("last-good: good-1 (run ") && Contains("first-bad: bad-2 (run "));
  check_no_flames(plain);

  s.store_profiles(db, "-c0-");
  const std::string html = status();
  CHECK_THAT(html, Contains("<h2>Profiles (perf-profile)</h2>") && !Contains("No flame graphs"));
  test::check_two_hot_flames(s.dir, page, "bisect-profiles", "e-", "last-good", "first-bad", "4");
}
