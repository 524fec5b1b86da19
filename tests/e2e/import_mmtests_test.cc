// schedlab import --mmtests: mmtests results trees (work/log) built here in
// mmtests' layout, as its parsers read them (bin/lib/MMTests/Extract*.pm,
// shellpack_src/src/<bench>/parse-results), compressed by the real gzip and
// xz; compare --mmtests on the imported runs prints the golden vectors'
// numbers (tests/analysis/mmtests_test.cc: what mmtests itself printed).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"
#include "tests/support/hackbench_samples.h"

using namespace schedlab;
using test::schedlab_cmd;
namespace fs = std::filesystem;

using schedlab::test::kHackbenchBase;

namespace {

// test::write_text, its directories made first.
void put(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  test::write_text(file, text);
}

const std::vector<double> kHackPatched{0.442, 0.447, 0.439, 0.445, 0.437};
const std::vector<double> kC6Base{27000, 28100, 27500, 27900, 27600, 28300};
const std::vector<double> kC6Patched{34000, 34300, 33800, 34500, 34100, 34000};

// perf bench sched messaging, as mmtests' hackbench-bench logs it.
std::string perf_messaging(int groups, double seconds) {
  return fmt::format(
      "# Running 'sched/messaging' benchmark:\n# 20 sender and receiver processes per group\n"
      "# {} groups == {} processes run\n\n     Total time: {:.3f} [sec]\n",
      groups, 40 * groups, seconds);
}

// pgbench 15's output (the fixture's shape) at 6 clients.
std::string pgbench_output(double tps) {
  std::string text = test::read_text(test::fixture("pgbench/select-only-c2-j2-T5-l-aggregate1.txt"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, text.find('\n', at) - at, to);
  };
  replace("number of clients:", "number of clients: 6");
  replace("tps = ", fmt::format("tps = {:.6f} (without initial connection time)", tps));
  return text;
}

void compress(const std::string& tool, const fs::path& file) {
  LocalHost local;
  REQUIRE(local.run({.argv = {tool, file.string()}, .timeout = std::chrono::seconds(30)}).ok());
}

void kernel_version(const fs::path& iter, const std::string& release) {
  put(iter / "kernel.version",
                   "Linux sut " + release + " #1 SMP PREEMPT_DYNAMIC Debian " + release +
                       " (2024-01-01) x86_64 GNU/Linux\n");
}

// baseline: the newer layout (one iter-0, every hackbench run appended to
// logs/hackbench-1, gzipped; pgbench's iterations as iter-N directories).
// patched: the older one (hackbench-1-<i>, one run per file, some xz).
fs::path build_tree(const fs::path& root) {
  const fs::path log = root / "work" / "log";
  for (std::size_t i = 0; i < kC6Base.size(); ++i) {
    const fs::path iter = log / "baseline" / fmt::format("iter-{}", i);
    kernel_version(iter, "6.1.0-18-amd64");
    put(iter / "pgbench" / "logs" / "pgbench-6.log", pgbench_output(kC6Base[i]));
    put(iter / "pgbench" / "logs" / "pgbench-transactions-6.log", "1700000000 1523 9 9 9 9\n");
    const fs::path p = log / "patched" / fmt::format("iter-{}", i);
    kernel_version(p, "6.1.0-rc1-patched");
    put(p / "pgbench" / "logs" / "pgbench-6.log", pgbench_output(kC6Patched[i]));
    compress("gzip", p / "pgbench" / "logs" / "pgbench-6.log");
  }
  std::string appended;
  for (double t : kHackbenchBase) appended += perf_messaging(1, t);
  const fs::path hb = log / "baseline" / "iter-0" / "hackbench-process-pipes" / "logs";
  put(hb / "hackbench-1", appended);
  compress("gzip", hb / "hackbench-1");
  put(hb / "time-1-1", "0.40user 1.20system 0:00.43elapsed\n");  // not a result
  const fs::path hp = log / "patched" / "iter-0" / "hackbench-process-pipes" / "logs";
  for (std::size_t i = 0; i < kHackPatched.size(); ++i) {
    const fs::path f = hp / fmt::format("hackbench-1-{}", i + 1);
    put(f, perf_messaging(1, kHackPatched[i]));
    if (i % 2) compress("xz", f);
  }
  put(log / "baseline" / "iter-0" / "dbench4" / "logs" / "dbench-1.log", "x\n");
  fs::create_directories(log / "not-a-run");
  return log;
}

}  // namespace

TEST_CASE("import --mmtests: a run per mmtests run, compare --mmtests prints mmtests' numbers") {
  test::TempDir dir;
  const fs::path log = build_tree(dir.path());
  const std::string db = dir.file("mm.db");
  const auto imp = schedlab_cmd({"import", "--mmtests", log.string(), "--db", db});
  INFO(imp.err);
  REQUIRE(imp.ok());
  CHECK(imp.err.find("baseline: skipped iter-0/dbench4: dbench measures a file system") != std::string::npos);
  CHECK(imp.err.find("imported run 1 'baseline' (6.1.0-18-amd64): 11 outputs from 6 iterations") !=
        std::string::npos);
  CHECK(imp.err.find("imported run 2 'patched' (6.1.0-rc1-patched): 11 outputs") != std::string::npos);
  {
    Store store(db, Store::Access::kReadOnly);
    CHECK(store.list_runs().size() == 2);  // not-a-run has no iter-N
    const auto run = store.find_run_by_name("patched");
    REQUIRE(run);
    const auto m = nlohmann::json::parse(run->manifest_json);
    CHECK(m["kernel_release"] == "6.1.0-rc1-patched");
    CHECK(m["mmtests"]["iterations"] == 6);
    const auto its = store.iterations(run->id, true);
    REQUIRE(its.size() == 11);
    for (const auto& it : its) CHECK(it.status == IterationStatus::kOk);
    // The hackbench runs, in file order, numbered 0..4 at their point.
    std::vector<int> numbers;
    for (const auto& it : its)
      if (it.workload == "hackbench") numbers.push_back(it.iteration);
    CHECK(numbers == std::vector<int>{0, 1, 2, 3, 4});
  }

  const auto cmp = schedlab_cmd({"compare", "baseline", "patched", "--mmtests", "--all-stats", "--db", db});
  INFO(cmp.out << cmp.err);
  REQUIRE(cmp.ok());
  // tests/analysis/mmtests_test.cc's golden lines, the row now labelled 1 / 6.
  for (const char* line : {
           "Min       1      0.4250 (   0.00%)      0.4370 (  -2.82%)",
           "Amean     1      0.4300 (   0.00%)      0.4420 (  -2.79%)",
           "Stddev    1      0.0064 (   0.00%)      0.0041 (  36.00%)",
           "CoeffVar  1      1.4982 (   0.00%)      0.9328 (  37.73%)",
           "Max       1      0.4410 (   0.00%)      0.4470 (  -1.36%)",
           "BAmean-95 1      0.4272 (   0.00%)      0.4408 (  -3.16%)",
           "Hmean     6    27726.72 (   0.00%)    34115.16 *  23.04%*",
           "HStddev   6      429.38 (   0.00%)      226.10 (  47.34%)",
           "BHmean-95 6    27876.79 (   0.00%)    34178.90 (  22.61%)",
       })
    CHECK_THAT(cmp.out, Catch::Contains(line));
  CHECK_THAT(cmp.out, Catch::Contains("perf-messaging-process-pipes (time in s, lower is better)"));
  CHECK_THAT(cmp.out, Catch::Contains("pgbench-select-only (tps in tx/s, higher is better)"));
  CHECK_THAT(cmp.out, !Catch::Contains("FAIL"));  // no progress lines: no interval tables
}

TEST_CASE("import --mmtests: bad trees and names are errors that store nothing") {
  test::TempDir dir;
  const std::string db = dir.file("bad.db");
  const auto none = schedlab_cmd({"import", "--mmtests", dir.file("missing"), "--db", db});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("no such directory"));
  fs::create_directories(dir.path() / "empty" / "run1");
  const auto empty = schedlab_cmd({"import", "--mmtests", dir.file("empty"), "--db", db});
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Catch::Contains("no mmtests run here (expected RUN/iter-N/TEST/logs"));
  // A corrupt compressed log names its file; nothing is stored.
  const fs::path logs = dir.path() / "corrupt" / "r" / "iter-0" / "hackbench-thread-pipes" / "logs";
  put(logs / "hackbench-2.gz", std::string("\x1f\x8b\x08\x00garbage", 12));
  const auto corrupt = schedlab_cmd({"import", "--mmtests", dir.file("corrupt"), "--db", db});
  CHECK(corrupt.exit_code == 2);
  CHECK_THAT(corrupt.err, Catch::Contains("hackbench-2.gz: gzip data is corrupt"));
  // A log that does not parse is kept as a parse-error iteration.
  const fs::path ok = dir.path() / "partial" / "r" / "iter-0" / "hackbench-thread-pipes" / "logs";
  put(ok / "hackbench-2-1", "# Running 'sched/messaging' benchmark:\n# 2 groups == 80 threads run\n\n     Total time: 0.2 [sec]\n");
  put(ok / "hackbench-2-2", "# Running 'sched/messaging' benchmark:\nkilled\n");
  const auto partial = schedlab_cmd({"import", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(partial.exit_code == 3);
  CHECK_THAT(partial.err, Catch::Contains("hackbench-2-2: hackbench output did not parse"));
  {
    Store store(db, Store::Access::kReadOnly);
    const auto run = store.find_run_by_name("r");
    REQUIRE(run);
    const auto its = store.iterations(run->id, true);
    REQUIRE(its.size() == 2);
    CHECK(its[1].status == IterationStatus::kParseError);
    CHECK(its[1].stdout_text.find("killed") != std::string::npos);  // the raw output is kept
  }
  // The same names again: refused before anything is written.
  const auto again = schedlab_cmd({"import", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.err, Catch::Contains("already has a run named 'r'; nothing imported"));
  const auto mixed = schedlab_cmd({"import", "hackbench", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(mixed.exit_code == 2);
  CHECK_THAT(mixed.err, Catch::Contains("--mmtests DIR takes no workload"));
}
