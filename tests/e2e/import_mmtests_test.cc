// schedlab import --mmtests: mmtests results trees (work/log) built here in
// mmtests' layout, as its parsers read them (bin/lib/MMTests/Extract*.pm,
// shellpack_src/src/<bench>/parse-results), compressed by the real gzip and
// xz; compare --mmtests on the imported runs prints the golden vectors'
// numbers (tests/analysis/stats/mmtests_test.cc: what mmtests itself printed).
#include <fmt/format.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/text.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/asan.h"
#include "tests/support/hackbench_samples.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

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
    CHECK(store.runs_table().list_runs().size() == 2);  // not-a-run has no iter-N
    const auto run = store.runs_table().find_run_by_name("patched");
    REQUIRE(run);
    const auto m = nlohmann::json::parse(run->manifest_json);
    CHECK(m["kernel_release"] == "6.1.0-rc1-patched");
    CHECK(m["mmtests"]["iterations"] == 6);
    const auto its = store.iterations_table().iterations(run->id, true);
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
  // tests/analysis/stats/mmtests_test.cc's golden lines, the row now labelled 1 / 6.
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
  CHECK_THAT(test::one_line(empty.err),
             Catch::Contains(test::one_line("no mmtests run here (expected RUN/iter-N/TEST/logs")));
  // A corrupt compressed log names its file; nothing is stored.
  const fs::path logs = dir.path() / "corrupt" / "r" / "iter-0" / "hackbench-thread-pipes" / "logs";
  put(logs / "hackbench-2.gz", std::string("\x1f\x8b\x08\x00garbage", 12));
  const auto corrupt = schedlab_cmd({"import", "--mmtests", dir.file("corrupt"), "--db", db});
  CHECK(corrupt.exit_code == 2);
  CHECK_THAT(test::one_line(corrupt.err),
             Catch::Contains(test::one_line("hackbench-2.gz: gzip data is corrupt")));
  // A log that does not parse is kept as a parse-error iteration.
  const fs::path ok = dir.path() / "partial" / "r" / "iter-0" / "hackbench-thread-pipes" / "logs";
  put(ok / "hackbench-2-1", "# Running 'sched/messaging' benchmark:\n# 2 groups == 80 threads run\n\n     Total time: 0.2 [sec]\n");
  put(ok / "hackbench-2-2", "# Running 'sched/messaging' benchmark:\nkilled\n");
  const auto partial = schedlab_cmd({"import", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(partial.exit_code == 3);
  CHECK_THAT(test::one_line(partial.err),
             Catch::Contains(test::one_line("hackbench-2-2: hackbench output did not parse")));
  {
    Store store(db, Store::Access::kReadOnly);
    const auto run = store.runs_table().find_run_by_name("r");
    REQUIRE(run);
    const auto its = store.iterations_table().iterations(run->id, true);
    REQUIRE(its.size() == 2);
    CHECK(its[1].status == IterationStatus::kParseError);
    CHECK(its[1].stdout_text.find("killed") != std::string::npos);  // the raw output is kept
  }
  // The same names again: refused before anything is written.
  const auto again = schedlab_cmd({"import", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(again.exit_code == 2);
  CHECK_THAT(test::one_line(again.err),
             Catch::Contains(test::one_line("already has a run named 'r'; nothing imported")));
  const auto mixed = schedlab_cmd({"import", "hackbench", "--mmtests", dir.file("partial"), "--db", db});
  CHECK(mixed.exit_code == 2);
  CHECK_THAT(mixed.err, Catch::Contains("--mmtests DIR takes no workload"));
}

namespace {

// mmtests' own hackbench before it ran perf: every iteration appended
// under this header (a tree of them must not import as parse errors).
std::string old_hackbench(int groups, double seconds) {
  return fmt::format("Running with {}*40 (== {}) tasks.\nTime: {:.3f}\n", groups, 40 * groups,
                     seconds);
}

// rt-tests hackbench 2.4's output, as the fixtures hold it.
std::string rt_hackbench(int groups, double seconds) {
  return fmt::format(
      "Running in process mode with {} groups using 40 file descriptors each (== {} tasks)\n"
      "Each sender will pass 1000 messages of 100 bytes\nTime: {:.3f}\n",
      groups, 40 * groups, seconds);
}

// pgbench before 14: both tps lines; mmtests' older extractor took the
// first. The second is made different so that taking it would show.
std::string old_pgbench(double tps) {
  return fmt::format(
      "starting vacuum...end.\ntransaction type: <builtin: select only>\nscaling factor: 1\n"
      "query mode: simple\nnumber of clients: 6\nnumber of threads: 6\nduration: 5 s\n"
      "number of transactions actually processed: 140000\nlatency average = 0.214 ms\n"
      "tps = {:.6f} (including connections establishing)\ntps = {:.6f} (excluding connections "
      "establishing)\n",
      tps, tps + 500);
}

// "older": every hackbench run appended under the old header (gzip), tbench4
// logs as tbench-<clients>.log, pgbench's output as pgbench-raw-<clients>.
// "newer": iter-N directories of one hackbench run each (rt-tests, in
// hackbench-<groups>-1), tbench4 logs as dbench-<clients>.log (one xz),
// pgbench-<clients>.log.
fs::path build_layouts(const fs::path& root) {
  const fs::path log = root / "work" / "log";
  std::string appended;
  for (double t : kHackbenchBase) appended += old_hackbench(1, t);
  const fs::path hb = log / "older" / "iter-0" / "hackbench-process-pipes" / "logs";
  put(hb / "hackbench-1", appended);
  compress("gzip", hb / "hackbench-1");
  const fs::path tb = log / "older" / "iter-0" / "tbench4" / "logs";
  put(tb / "tbench-1.log", test::read_text(test::fixture("tbench/tbench-t5-1client.run1.txt")));
  compress("gzip", tb / "tbench-1.log");
  put(tb / "tbench-2.log", test::read_text(test::fixture("tbench/tbench-t5-2clients.run1.txt")));
  const fs::path tn = log / "newer" / "iter-0" / "tbench4" / "logs";
  put(tn / "dbench-1.log", test::read_text(test::fixture("tbench/tbench-t5-1client.run2.txt")));
  compress("xz", tn / "dbench-1.log");
  put(tn / "dbench-2.log", test::read_text(test::fixture("tbench/tbench-t5-2clients.run2.txt")));
  for (std::size_t i = 0; i < kC6Base.size(); ++i) {
    const fs::path o = log / "older" / fmt::format("iter-{}", i);
    kernel_version(o, "4.12.14-old");
    put(o / "pgbench" / "logs" / "pgbench-raw-6", old_pgbench(kC6Base[i]));
    const fs::path n = log / "newer" / fmt::format("iter-{}", i);
    kernel_version(n, "6.12.0-new");
    put(n / "pgbench" / "logs" / "pgbench-6.log", pgbench_output(kC6Patched[i]));
    if (i < kHackPatched.size())
      put(n / "hackbench-process-pipes" / "logs" / "hackbench-1-1",
          rt_hackbench(1, kHackPatched[i]));
  }
  return log;
}

}  // namespace

TEST_CASE(
    "import --mmtests: iterations that record two kernels are refused, naming both (hostile16)") {
  // The run was stored, listed and compared as iter-0's kernel, a third of
  // its samples measured on another.
  test::TempDir dir;
  const fs::path log = build_tree(dir.path());
  kernel_version(log / "patched" / "iter-2", "6.12.0-1-amd64");
  const std::string db = dir.file("k.db");
  const auto r = schedlab_cmd({"import", "--mmtests", log.string(), "--db", db});
  CHECK(r.exit_code == 2);
  CHECK_THAT(test::one_line(r.err),
             Catch::Contains("patched: iter-0/kernel.version records kernel 6.1.0-rc1-patched, "
                             "iter-2/kernel.version 6.12.0-1-amd64: one run is measured on one "
                             "kernel; nothing imported"));
  CHECK_FALSE(fs::exists(db));
}

TEST_CASE("import --mmtests: each layout mmtests has written is read as its extractors read it") {
  test::TempDir dir;
  const fs::path log = build_layouts(dir.path());
  const std::string db = dir.file("layouts.db");
  const auto imp = schedlab_cmd({"import", "--mmtests", log.string(), "--db", db});
  INFO(imp.err);
  REQUIRE(imp.exit_code == 0);
  // 5 hackbench runs + 2 tbench logs + 6 pgbench runs each.
  CHECK_THAT(
      imp.err,
      Catch::Contains(
          "imported run 1 'newer' (6.12.0-new): 13 outputs from 6 iterations, 0 failed"));
  CHECK_THAT(
      imp.err,
      Catch::Contains(
          "imported run 2 'older' (4.12.14-old): 13 outputs from 6 iterations, 0 failed"));
  {
    Store store(db, Store::Access::kReadOnly);
    const auto older = store.runs_table().find_run_by_name("older");
    REQUIRE(older);
    std::vector<std::string> sources;
    for (const auto& it : store.iterations_table().iterations(older->id, true))
      if (it.workload == "hackbench") sources.push_back(it.stdout_text);
    REQUIRE(sources.size() == 5);
    CHECK(sources[2] == old_hackbench(1, kHackbenchBase[2]));  // each run keeps its own output
  }
  const auto cmp =
      schedlab_cmd({"compare", "older", "newer", "--mmtests", "--all-stats", "--db", db});
  INFO(cmp.out << cmp.err);
  REQUIRE(cmp.ok());
  // The golden vectors' lines (tests/analysis/stats/mmtests_test.cc), and for
  // tbench the Hmean of the execute lines' MB/sec as R computes it:
  // 1/mean(1/c(212.07, 204.26, 170.49, 157.87)) = 183.3944,
  // 1/mean(1/c(141.89, 204.13, 168.40, 220.25)) = 178.3716.
  // The logs state what they ran with: the older hackbench prints no
  // "Each sender will pass" line (its loops, fds and datasize unknown, "?",
  // unlike the newer's), and the two pgbench logs ran 6 and 2 threads. Those
  // cells are not like with like ("!").
  for (const char* line : {
           "Amean     1      0.4300 (   0.00%)      0.4420 !  -2.79%!",
           "BAmean-95 1      0.4272 (   0.00%)      0.4408 (  -3.16%)",
           "Hmean     6    27726.72 (   0.00%)    34115.16 !  23.04%!",
           "Hmean     1      183.39 (   0.00%)      178.37 (  -2.74%)",
           "  param hackbench loops     ?            1000\n",
           "  param pgbench threads     6            2\n",
           "?: a parameter an imported output did not state and no --param gave: unknown, so never "
           "like a known "
           "value (two ? are not told apart)\n",
       })
    CHECK_THAT(cmp.out, Catch::Contains(wrap_words(line)));  // within 100 columns
  CHECK_THAT(cmp.out, Catch::Contains("hackbench-process-pipes (time in s, lower is better)"));
}

TEST_CASE("import --mmtests: a FIFO named as a log is an error at once, not a hang") {
  test::TempDir dir;
  const fs::path logs = dir.path() / "t" / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  put(logs / "hackbench-1-1", rt_hackbench(1, 0.5));
  const std::string fifo = (logs / "hackbench-1-2").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string db = dir.file("fifo.db");
  const auto r = schedlab_cmd({"import", "--mmtests", dir.file("t"), "--db", db}, {},
                              std::chrono::seconds(20));
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab import: " + fifo +
                       ": cannot read the file: not a regular file (a FIFO)\n"));
  CHECK_FALSE(fs::exists(db));  // nothing stored
}

TEST_CASE("import --mmtests: links are followed only within the tree") {
  test::TempDir dir;
  const fs::path tree = dir.path() / "t";
  const fs::path logs = tree / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  put(logs / "hackbench-1-1", rt_hackbench(1, 0.5));
  // A link inside the tree is read like the file it names.
  put(tree / "r" / "iter-0" / "kept" / "run-2.txt", rt_hackbench(1, 0.6));
  fs::create_symlink("../../kept/run-2.txt", logs / "hackbench-1-2");
  const std::string db = dir.file("links.db");
  const auto ok = schedlab_cmd({"import", "--mmtests", tree.string(), "--db", db});
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.err, Catch::Contains("2 outputs from 1 iteration,"));
  // A link to a file outside the tree: its content never reaches a database.
  put(dir.path() / "secret.txt", "Time: 0.123\nthe content of a file outside the tree\n");
  fs::create_symlink(dir.path() / "secret.txt", logs / "hackbench-1-3");
  const std::string db2 = dir.file("out.db");
  const auto out = schedlab_cmd({"import", "--mmtests", tree.string(), "--db", db2});
  CHECK(out.exit_code == 2);
  CHECK_THAT(test::one_line(out.err),
             Catch::Contains(test::one_line(
                 (logs / "hackbench-1-3").string() + ": cannot read the file: a link to " +
                 fs::canonical(dir.path() / "secret.txt").string() + ", outside ")));
  CHECK_FALSE(fs::exists(db2));
  fs::remove(logs / "hackbench-1-3");
  // A run directory that is a link out of the tree, the same.
  put(dir.path() / "elsewhere" / "iter-0" / "hackbench-process-pipes" / "logs" / "hackbench-1-1",
      rt_hackbench(1, 0.7));
  fs::create_symlink(dir.path() / "elsewhere", tree / "r2");
  const auto run_link = schedlab_cmd({"import", "--mmtests", tree.string(), "--db", db2});
  CHECK(run_link.exit_code == 2);
  CHECK_THAT(test::one_line(run_link.err),
             Catch::Contains(
                 test::one_line((tree / "r2").string() + ": cannot read the file: a link to ")));
  CHECK_FALSE(fs::exists(db2));
}

TEST_CASE(
    "import --mmtests: a log over the per-log limit is refused, stating the limit; bombs too") {
  test::TempDir dir;
  const fs::path tree = dir.path() / "t";
  const fs::path logs = tree / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  // 65 MiB of text with one run at its end, gzipped to some 100 KB.
  std::string big = old_hackbench(1, 0.5);
  big.insert(0, std::string(65 << 20, 'x') + "\n");
  put(logs / "hackbench-1", big);
  compress("gzip", logs / "hackbench-1");
  const std::string db = dir.file("bomb.db");
  const auto refused = schedlab_cmd({"import", "--mmtests", tree.string(), "--db", db});
  CHECK(refused.exit_code == 2);
  CHECK(test::one_line(refused.err) ==
        test::one_line(
            "schedlab import: " + (logs / "hackbench-1.gz").string() +
            ": larger than 64 MiB (decompressed), the limit for one log; mmtests logs are "
            "kilobytes to megabytes, so it is not read (--max-log-mib raises the limit)\n"));
  CHECK_FALSE(fs::exists(db));
  // Raised, it is read; what the run keeps of it is bounded (1 MiB).
  const auto raised =
      schedlab_cmd({"import", "--mmtests", tree.string(), "--db", db, "--max-log-mib", "100"});
  INFO(raised.err);
  REQUIRE(raised.exit_code == 0);
  {
    Store store(db, Store::Access::kReadOnly);
    const auto its =
        store.iterations_table().iterations(store.runs_table().find_run_by_name("r")->id, true);
    REQUIRE(its.size() == 1);
    CHECK(its[0].stdout_text.size() <= (1 << 20) + 100);
    CHECK(its[0].stdout_text.ends_with(old_hackbench(1, 0.5)));
    REQUIRE(its[0].samples.size() == 1);
    CHECK(its[0].samples[0].value == 0.5);
  }
  // An xz log and a plain one over a lower limit: the same error.
  const fs::path x = dir.path() / "x" / "r" / "iter-0" / "tbench4" / "logs";
  put(x / "tbench-1.log", std::string(2 << 20, 'y'));
  compress("xz", x / "tbench-1.log");
  put(x / "tbench-2.log", std::string(2 << 20, 'y'));
  const auto xz = schedlab_cmd(
      {"import", "--mmtests", dir.file("x"), "--db", dir.file("x.db"), "--max-log-mib", "1"});
  CHECK(xz.exit_code == 2);
  CHECK_THAT(test::one_line(xz.err),
             Catch::Contains(test::one_line(
                 "tbench-1.log.xz: larger than 1 MiB (decompressed), the limit for one log")));
  fs::remove(x / "tbench-1.log.xz");
  const auto plain = schedlab_cmd(
      {"import", "--mmtests", dir.file("x"), "--db", dir.file("x.db"), "--max-log-mib", "1"});
  CHECK(plain.exit_code == 2);
  CHECK_THAT(test::one_line(plain.err),
             Catch::Contains(test::one_line(
                 "tbench-2.log: larger than 1 MiB (decompressed), the limit for one log")));
  const auto alone = schedlab_cmd({"import", "hackbench", "a=b", "--name", "n", "--db",
                                   dir.file("x.db"), "--max-log-mib", "1"});
  CHECK(alone.exit_code != 0);
  CHECK_THAT(alone.err, Catch::Contains("--max-log-mib requires --mmtests"));
}

TEST_CASE("import --mmtests: what a tree holds before it is stored has a budget") {
  test::TempDir dir;
  const fs::path logs = dir.path() / "t" / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  // Three logs of 600 KiB, each kept whole by its run: 1.8 MiB held.
  for (int g : {1, 2, 4})
    put(logs / fmt::format("hackbench-{}", g),
        std::string(600 << 10, 'z') + "\n" + old_hackbench(g, 0.5));
  const std::string db = dir.file("budget.db");
  const auto refused =
      schedlab_cmd({"import", "--mmtests", dir.file("t"), "--db", db, "--max-tree-mib", "1"});
  CHECK(refused.exit_code == 2);
  CHECK(test::one_line(refused.err) ==
        test::one_line(
            "schedlab import: " + dir.file("t") +
            ": the tree's outputs need more than 1 MiB of memory before they are stored (the "
            "limit for a tree; --max-tree-mib raises it); import a part of it (a directory of "
            "fewer runs)\n"));
  CHECK_FALSE(fs::exists(db));
  const auto fits =
      schedlab_cmd({"import", "--mmtests", dir.file("t"), "--db", db, "--max-tree-mib", "2"});
  INFO(fits.err);
  CHECK(fits.exit_code == 0);
  // A small log of nothing but time lines (a run each): refused while it is
  // read, before its runs are held.
  const fs::path lines = dir.path() / "l" / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "Time: 0.5\n";
  put(lines / "hackbench-1", many);
  const auto flood = schedlab_cmd(
      {"import", "--mmtests", dir.file("l"), "--db", dir.file("l.db"), "--max-tree-mib", "1"});
  CHECK(flood.exit_code == 2);
  CHECK_THAT(
      test::one_line(flood.err),
      Catch::Contains(test::one_line("need more than 1 MiB of memory before they are stored")));
  CHECK_FALSE(fs::exists(dir.file("l.db")));
}

TEST_CASE("import --mmtests: peak memory stays bounded on gzip bombs") {
  // Read without a limit, three 873 KB .gz logs reached 7.9 GB. Three logs
  // of 200 MiB each, refused at the 64 MiB limit while they decompress.
  if (!fs::exists("/usr/bin/time"))
    SCHEDLAB_SKIP("/usr/bin/time is not installed (Debian package time)");
#if defined(SCHEDLAB_TEST_ASAN)
  // ASan's shadow memory and its 256 MB free quarantine count in the peak
  // RSS; the plain build measures what schedlab itself holds.
  SCHEDLAB_SKIP("built with AddressSanitizer: the peak RSS is ASan's, not schedlab's");
#endif
  test::TempDir dir;
  const fs::path logs = dir.path() / "t" / "r" / "iter-0" / "hackbench-process-pipes" / "logs";
  put(logs / "hackbench-1", std::string(200 << 20, '\n'));
  compress("gzip", logs / "hackbench-1");
  fs::copy_file(logs / "hackbench-1.gz", logs / "hackbench-2.gz");
  fs::copy_file(logs / "hackbench-1.gz", logs / "hackbench-4.gz");
  LocalHost local;
  const auto r =
      local.run({.argv = {"/usr/bin/time", "-f", "peak-kib %M", SCHEDLAB_BINARY, "import",
                          "--mmtests", dir.file("t"), "--db", dir.file("bomb.db")},
                 .timeout = std::chrono::seconds(120)});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("larger than 64 MiB (decompressed)"));
  const auto at = r.err.rfind("peak-kib ");
  REQUIRE(at != std::string::npos);
  const long kib = std::stol(r.err.substr(at + 9));
  CHECK(kib < 256 * 1024);  // one log's limit, twice over while it grows, and the program
}
