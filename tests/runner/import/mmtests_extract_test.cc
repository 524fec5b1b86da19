// The workloads' MmtestsFormat rows applied to log texts as mmtests'
// extractors read them (bin/lib/MMTests/Extract*.pm): a sample per matching
// line, whatever surrounds it. Real outputs from the shared fixtures, joined
// as mmtests appends them.
#include "runner/import/mmtests_extract.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::read_text;

namespace {

MmtestsExtractor extractor(const std::string& workload) {
  const Workload* w = find_workload(workload);
  REQUIRE(w);
  REQUIRE(w->mmtests_formats().size() == 1);
  return MmtestsExtractor(*w, w->mmtests_formats().front());
}

std::vector<double> values(const MmtestsLogRun& run, const std::string& metric) {
  std::vector<double> out;
  for (const auto& s : run.samples)
    if (s.metric == metric) out.push_back(s.value);
  return out;
}

}  // namespace

TEST_CASE("every workload's mmtests rows compile and name declared metrics and parameters") {
  int rows = 0;
  for (const Workload* w : all_workloads())
    for (const auto& f : w->mmtests_formats()) {
      INFO(w->name() << ": " << f.test);
      CHECK_NOTHROW(MmtestsExtractor(*w, f));
      CHECK_FALSE(f.source.empty());
      for (const auto& l : f.lines)
        for (const auto& p : l.params) CHECK(w->find_param(p.substr(0, p.find('='))));
      for (const auto& s : f.settings) CHECK(w->find_param(s.param.substr(0, s.param.find('='))));
      ++rows;
    }
  CHECK(rows == 3);  // hackbench, tbench, pgbench
}

TEST_CASE("mmtests hackbench: test and log names give the mode and group count") {
  const auto e = extractor("hackbench");
  CHECK(e.test_params("hackbench-thread-sockets") ==
        std::vector<std::string>{"modes=thread-sockets"});
  CHECK_FALSE(e.test_params("hackbench-thread-sockets-extra"));
  CHECK_FALSE(e.test_params("hackbench"));
  CHECK(e.log_params("hackbench-16") == std::vector<std::string>{"groups=16"});
  CHECK(e.log_params("hackbench-16-3.xz") == std::vector<std::string>{"groups=16"});
  CHECK(e.log_params("hackbench-4.gz") == std::vector<std::string>{"groups=4"});
  for (const char* other : {"time-1-1", "hackbench-1-1-1", "hackbench-", "hackbench-x",
                            "hackbench-1.log", "hackbench-1234567890"})
    CHECK_FALSE(e.log_params(other));
}

TEST_CASE("mmtests hackbench: every appended run under the older header is a sample") {
  // mmtests' own hackbench, every iteration appended: samples, not parse
  // errors.
  std::string log;
  for (const char* t : {"0.425", "0.431", "0.441", "0.429", "0.424"})
    log += fmt::format("Running with 1*40 (== 40) tasks.\nTime: {}\n", t);
  const auto runs = extractor("hackbench").extract(log, 1 << 20);
  REQUIRE(runs.size() == 5);
  CHECK(values(runs[0], "time") == std::vector<double>{0.425});
  CHECK(values(runs[4], "time") == std::vector<double>{0.424});
  for (const auto& r : runs) {
    CHECK(r.error.empty());
    CHECK(r.params == std::vector<std::string>{"backend=hackbench"});
  }
  CHECK(runs[1].text == "Running with 1*40 (== 40) tasks.\nTime: 0.431\n");
}

TEST_CASE("mmtests hackbench: rt-tests and perf outputs, appended, each run a sample") {
  std::string log;
  for (const char* f :
       {"hackbench/process-pipes-g2-l200.run1.txt", "hackbench/process-pipes-g2-l200.run2.txt",
        "hackbench/process-pipes-g2-l200.run3.txt"})
    log += read_text(fixture(f));
  // perf bench sched messaging's shape; a line mmtests would take too.
  log +=
      "# Running 'sched/messaging' benchmark:\n# 2 groups == 80 processes run\n\n     Total time: "
      "0.148 [sec]\n";
  log += "trailing words after the last run\n";
  const auto runs = extractor("hackbench").extract(log, 1 << 20);
  REQUIRE(runs.size() == 4);
  for (int i = 0; i < 3; ++i) {
    CHECK(runs[i].params == std::vector<std::string>{"backend=hackbench"});
    CHECK(runs[i].text.starts_with("Running in process mode with 2 groups"));
  }
  CHECK(runs[3].params == std::vector<std::string>{"backend=perf"});
  CHECK(values(runs[3], "time") == std::vector<double>{0.148});
  CHECK(runs[3].text.ends_with(
      "trailing words after the last run\n"));  // the last run keeps the rest
}

TEST_CASE(
    "mmtests hackbench: a time line without a number fails its run alone; no time line is an "
    "error") {
  const auto e = extractor("hackbench");
  const auto runs = e.extract("Time: 0.5\nTime: 1.2.3\nTime: 0.7\n", 1 << 20);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].error.empty());
  CHECK(runs[1].error == "line 2: '1.2.3' is not a number: Time: 1.2.3");
  CHECK(runs[1].error_line == 2);
  CHECK(runs[1].samples.empty());
  CHECK(values(runs[2], "time") == std::vector<double>{0.7});
  const auto none = e.extract("# Running 'sched/messaging' benchmark:\nkilled\n", 1 << 20);
  REQUIRE(none.size() == 1);
  CHECK_THAT(none[0].error,
             Catch::StartsWith("no line of the log holds a sample (mmtests reads it so: "
                               "ExtractHackbench.pm"));
  CHECK(none[0].text == "# Running 'sched/messaging' benchmark:\nkilled\n");
  CHECK(e.extract("", 1 << 20).size() == 1);
}

TEST_CASE("mmtests tbench4: the execute lines are the samples, the log is one run") {
  const auto e = extractor("tbench");
  CHECK(e.test_params("tbench4") == std::vector<std::string>{});
  CHECK(e.log_params("tbench-4.log.gz") == std::vector<std::string>{"clients=4"});
  CHECK(e.log_params("dbench-4.log") == std::vector<std::string>{"clients=4"});
  CHECK_FALSE(e.log_params("tbench-4"));
  const std::string log = read_text(fixture("tbench/tbench-t10-4clients.txt"));
  const auto runs = e.extract(log, 1 << 20);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].error.empty());
  CHECK(values(runs[0], "interval_throughput") == std::vector<double>{728.48, 725.84, 729.10,
                                                                      729.63, 727.33, 731.94,
                                                                      733.70, 734.70, 737.73});
  CHECK(values(runs[0], "throughput") == std::vector<double>{737.729});
  CHECK(runs[0].samples[0].offset_s == 1.0);  // "execute   1 sec"
  CHECK(runs[0].text == log);
}

TEST_CASE("mmtests pgbench: the tps line mmtests reads, and the builtin from the header") {
  const auto e = extractor("pgbench");
  CHECK(e.log_params("pgbench-6.log") == std::vector<std::string>{"clients=6"});
  CHECK(e.log_params("pgbench-raw-6") == std::vector<std::string>{"clients=6"});
  CHECK_FALSE(e.log_params("pgbench-transactions-6.log"));
  const auto now = e.extract(read_text(fixture("pgbench/select-only-c2-j2-T5.run1.txt")), 1 << 20);
  REQUIRE(now.size() == 1);
  CHECK(now[0].error.empty());
  CHECK(now[0].params == std::vector<std::string>{"builtin=select-only"});
  REQUIRE(now[0].samples.size() == 1);
  // pgbench before 14 printed two tps lines; the older extractor took the
  // first, "including connections establishing".
  const auto old = e.extract(
      "transaction type: <builtin: TPC-B (sort of)>\nnumber of clients: 6\n"
      "tps = 27000.000000 (including connections establishing)\n"
      "tps = 27400.000000 (excluding connections establishing)\n",
      1 << 20);
  REQUIRE(old.size() == 1);
  CHECK(values(old[0], "tps") == std::vector<double>{27000});
  CHECK(old[0].params == std::vector<std::string>{"builtin=tpcb-like"});
}

TEST_CASE("mmtests logs: what a run keeps of a long log is bounded, its start and its end") {
  const auto e = extractor("hackbench");
  const std::string noise(3 << 20, 'x');
  const auto runs =
      e.extract("Running with 1*40 (== 40) tasks.\n" + noise + "\nTime: 0.5\n", 1 << 20);
  REQUIRE(runs.size() == 1);
  CHECK(values(runs[0], "time") == std::vector<double>{0.5});
  CHECK(runs[0].text.size() < (1 << 20) + 100);
  CHECK(runs[0].text.starts_with("Running with 1*40"));
  CHECK(runs[0].text.ends_with("\nTime: 0.5\n"));
  CHECK_THAT(runs[0].text, Catch::Contains("bytes left out here]"));
  // A 16 MiB line with no newline: a search, not a crash.
  const auto line = e.extract(std::string(16 << 20, '9'), 1 << 10);
  REQUIRE(line.size() == 1);
  CHECK_FALSE(line[0].error.empty());
}

TEST_CASE("mmtests logs: the sample lines a log may yield are bounded before they are held") {
  std::string log;
  for (int i = 0; i < 1000; ++i) log += "Time: 0.5\n";
  const auto e = extractor("hackbench");
  CHECK(e.extract(log, 1 << 10, 1000).size() == 1000);
  CHECK_THROWS_AS(e.extract(log, 1 << 10, 999), MmtestsTooManyLines);
  // A whole-log format: its samples are what is bounded.
  std::string tb;
  for (int i = 1; i <= 100; ++i)
    tb += fmt::format("   1     1000   200.00 MB/sec  execute {} sec\n", i);
  CHECK(extractor("tbench").extract(tb, 1 << 10, 100).size() == 1);
  CHECK_THROWS_AS(extractor("tbench").extract(tb, 1 << 10, 99), MmtestsTooManyLines);
}

TEST_CASE("mmtests import: a sample past the sample range fails its run alone (issue 44)") {
  const auto e = extractor("hackbench");
  const auto runs =
      e.extract("Time: 0.5\nTime: 1" + std::string(308, '0') + "\nTime: 0.7\n", 1 << 20);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].error.empty());
  CHECK_THAT(runs[1].error, Catch::StartsWith("line 2: '1000") &&
                                Catch::Contains("is no sample: 1e+308 is outside +-1e+150"));
  CHECK(runs[1].samples.empty());
  CHECK(values(runs[2], "time") == std::vector<double>{0.7});
}
