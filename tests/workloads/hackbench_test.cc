#include "workloads/hackbench.h"

#include <catch2/catch.hpp>
#include <boost/regex.hpp>

#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::fixture_files;
using schedlab::test::read_text;

namespace {

Point hackbench_point(const std::string& mode, std::int64_t groups) {
  static const Hackbench hb;
  Point p = default_point(hb);
  p.values["modes"] = mode;
  p.values["groups"] = groups;
  return p;
}

// The fixture names say how each output was made: process-pipes-g2-l200...
struct FixtureName {
  std::string mode;
  std::int64_t groups;
};
std::optional<FixtureName> decode(const std::string& name) {
  static const boost::regex re(R"(^(process|thread)-(pipes|sockets)-g(\d+)-)");
  boost::smatch m;
  if (!boost::regex_search(name, m, re)) return std::nullopt;
  return FixtureName{m[1].str() + "-" + m[2].str(), std::stoll(m[3])};
}

}  // namespace

TEST_CASE("hackbench parses the Time line of every real output fixture") {
  Hackbench hb;
  int parsed = 0;
  for (const auto& file : fixture_files("hackbench")) {
    const std::string name = file.filename().string();
    if (name.starts_with("error-")) continue;
    INFO(name);
    const auto decoded = decode(name);
    if (!decoded) {
      // process-inet: sockets over TCP, not a mode schedlab sweeps, but the
      // output has the same shape.
      REQUIRE(name.starts_with("process-inet"));
      const auto samples = hb.parse(hackbench_point("process-sockets", 1), read_text(file), "");
      REQUIRE(samples.size() == 1);
      CHECK(samples[0].value == Approx(0.084));
      ++parsed;
      continue;
    }
    const auto samples = hb.parse(hackbench_point(decoded->mode, decoded->groups), read_text(file), "");
    REQUIRE(samples.size() == 1);
    CHECK(samples[0].metric == "time");
    CHECK(samples[0].value > 0);
    ++parsed;
  }
  CHECK(parsed == 19);
}

TEST_CASE("hackbench reads exact values") {
  Hackbench hb;
  CHECK(hb.parse(hackbench_point("process-pipes", 2),
                 read_text(fixture("hackbench/process-pipes-g2-l200.run1.txt")), "")[0]
            .value == 0.066);
  CHECK(hb.parse(hackbench_point("process-sockets", 4),
                 read_text(fixture("hackbench/process-sockets-g4-l3000.with-proc-snapshots.txt")),
                 "")[0]
            .value == 5.121);
}

TEST_CASE("hackbench error outputs are parse errors naming the tool's message") {
  Hackbench hb;
  SECTION("bad option") {
    const std::string out = read_text(fixture("hackbench/error-bad-option.txt"));
    CHECK_THROWS_AS(hb.parse(hackbench_point("process-pipes", 1), out, ""), ParseError);
  }
  SECTION("groups 0") {
    const std::string out = read_text(fixture("hackbench/error-g0.txt"));
    CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 1), out, ""),
                      "tool error: hackbench: --groups|-g requires an integer > 0");
  }
}

TEST_CASE("hackbench refuses output that does not match the point") {
  Hackbench hb;
  const std::string out = read_text(fixture("hackbench/thread-pipes-g2-l200.run1.txt"));
  CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 2), out, ""),
                    Catch::Contains("line 1: ran in threaded mode, expected process"));
  CHECK_THROWS_WITH(hb.parse(hackbench_point("thread-pipes", 4), out, ""),
                    Catch::Contains("line 1: ran 2 groups, expected 4"));
}

TEST_CASE("hackbench refuses a task count that is not groups x descriptors (hostile16)") {
  Hackbench hb;
  // rt-tests: "%d groups using %d file descriptors each (== %d tasks)" with
  // 2 x fds descriptors and groups x 2 x fds tasks.
  const std::string real = read_text(fixture("hackbench/process-sockets-g2-f10-s512-l500.txt"));
  auto p = hackbench_point("process-sockets", 2);
  CHECK(hb.parse(p, real, "").at(0).value == Approx(0.094));
  std::string eight = real;
  eight.replace(eight.find("(== 40 tasks)"), 13, "(== 8 tasks)");
  CHECK_THROWS_WITH(hb.parse(p, eight, ""),
                    "line 1: 2 groups using 20 file descriptors each are 40 tasks, not 8: Running "
                    "in process mode with 2 groups using 20 file descriptors each (== 8 tasks)");
}

TEST_CASE("hackbench output without a number is a parse error with its line") {
  Hackbench hb;
  const std::string header =
      "Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)\n"
      "Each sender will pass 10 messages of 100 bytes\n";
  CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 1), header, ""),
                    "no 'Time: <seconds>' line in the output");
  CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 1), header + "Time: fast\n", ""),
                    "line 3: 'Time:' line without a number: Time: fast");
  // A number in a form hackbench does not print is named as a number (hostile16).
  CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 1), header + "Time: 1e-320\n", ""),
                    "line 3: 'Time:' value '1e-320' is not in hackbench's form (seconds as digits "
                    "and a decimal point, such as 0.094): Time: 1e-320");
  CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 1), "", ""),
                    "no 'Running in ... mode with N groups' line in the output");
  try {
    hb.parse(hackbench_point("process-pipes", 1), header + "Time: fast\n", "");
  } catch (const ParseError& e) {
    CHECK(e.line() == 3);
    CHECK(e.workload() == "hackbench");
  }
}

TEST_CASE("hackbench steps pass every parameter to the tool") {
  Hackbench hb;
  auto p = hackbench_point("thread-sockets", 8);
  p.values["loops"] = std::int64_t{500};
  const auto steps = hb.iteration_steps(p, {});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].argv == std::vector<std::string>{"hackbench", "--threads", "--groups", "8",
                                                  "--fds", "20", "--datasize", "100", "--loops",
                                                  "500"});
  CHECK(steps[0].timeout == std::chrono::minutes(5));
  CHECK(hb.block_label(p) == "hackbench-thread-sockets");
  CHECK(hb.row_label(p) == "8");
  p.values["modes"] = std::string("process-pipes");
  CHECK(hb.iteration_steps(p, {})[0].argv[1] == "--pipe");
}

TEST_CASE("every registered metric declares direction and centre") {
  for (const Workload* w : all_workloads()) {
    REQUIRE_FALSE(w->metrics().empty());
    for (const auto& m : w->metrics()) {
      INFO(w->name() << " " << m.name);
      CHECK_FALSE(m.unit.empty());
      CHECK_FALSE(m.help.empty());
      // Every built-in metric is a time, latency, rate or count.
      CHECK(m.domain == ValueDomain::kNonNegative);
      CHECK(declared_domain(w->name(), m.name) == ValueDomain::kNonNegative);
    }
    for (const auto& p : w->params()) CHECK_FALSE(p.help.empty());
  }
  CHECK(find_workload("hackbench") != nullptr);
  CHECK(find_workload("hackbenc") == nullptr);
  CHECK_FALSE(declared_domain("hackbench", "tiem"));
  CHECK_FALSE(declared_domain("sysbench-cpu", "events_per_s"));  // a command's: the config's
}

TEST_CASE("hackbench runs on the SUT with nothing else installed: lab guests get a copy") {
  const Hackbench hb;
  REQUIRE(hb.programs().size() == 2);
  CHECK(hb.programs()[0].name == "hackbench");
  CHECK(hb.programs()[0].guest);
  CHECK_FALSE(hb.programs()[1].guest);  // perf: the host's, for backend perf
}

namespace {

// Captured on this machine with perf 6.1.187 (Debian linux-perf):
// `perf bench sched messaging -g 2 -l 100` and `... -t -p -g 1 -l 50`.
const char* kPerfProcesses =
    "# Running 'sched/messaging' benchmark:\n"
    "# 20 sender and receiver processes per group\n"
    "# 2 groups == 80 processes run\n"
    "\n"
    "     Total time: 0.148 [sec]\n";
const char* kPerfThreads =
    "# Running 'sched/messaging' benchmark:\n"
    "# 20 sender and receiver threads per group\n"
    "# 1 groups == 40 threads run\n"
    "\n"
    "     Total time: 0.016 [sec]\n";
const char* kPerfBadOption =
    "# Running 'sched/messaging' benchmark:\n"
    "  Error: unknown option `bogus'\n";

Point perf_point(const std::string& mode, std::int64_t groups) {
  Point p = hackbench_point(mode, groups);
  p.values["backend"] = std::string("perf");
  return p;
}

}  // namespace

TEST_CASE("hackbench backend perf runs perf bench sched messaging") {
  Hackbench hb;
  auto p = perf_point("thread-pipes", 4);
  p.values["loops"] = std::int64_t{200};
  CHECK(hb.iteration_steps(p, {})[0].argv ==
        std::vector<std::string>{"perf", "bench", "sched", "messaging", "--thread", "--pipe",
                                 "--group", "4", "--nr_loops", "200"});
  CHECK(hb.block_label(p) == "perf-messaging-thread-pipes");
  CHECK(hb.block_label(hackbench_point("thread-pipes", 4)) == "hackbench-thread-pipes");
  p.values["fds"] = std::int64_t{10};
  CHECK_THROWS_WITH(hb.iteration_steps(p, {}), Catch::Contains("always uses 20 fds"));
}

TEST_CASE("hackbench backend perf parses Total time") {
  Hackbench hb;
  CHECK(hb.parse(perf_point("process-sockets", 2), kPerfProcesses, "")[0].value == 0.148);
  CHECK(hb.parse(perf_point("thread-pipes", 1), kPerfThreads, "")[0].value == 0.016);
  CHECK_THROWS_WITH(hb.parse(perf_point("process-pipes", 1), kPerfThreads, ""),
                    Catch::Contains("line 3: ran threads, expected processes"));
  CHECK_THROWS_WITH(hb.parse(perf_point("process-pipes", 4), kPerfProcesses, ""),
                    Catch::Contains("line 3: ran 2 groups, expected 4"));
  CHECK_THROWS_WITH(hb.parse(perf_point("process-pipes", 1), kPerfBadOption, ""),
                    "line 2: tool error:   Error: unknown option `bogus'");
  CHECK_THROWS_WITH(hb.parse(perf_point("process-pipes", 2),
                             "# 2 groups == 80 processes run\n", ""),
                    "no 'Total time: <seconds> [sec]' line in the output");
}

TEST_CASE("hackbench refuses a zero run time, from hackbench and from perf") {
  // A real output with its Time line replaced ('Time: 0' is no sample).
  std::string text = read_text(fixture("hackbench/process-pipes-g2-l200.run1.txt"));
  const auto at = text.find("Time: 0.066");
  REQUIRE(at != std::string::npos);
  Hackbench hb;
  for (const std::string& zero :
       std::vector<std::string>{"Time: 0", "Time: 0.000", "Time: 0." + std::string(100000, '0')}) {
    std::string bad = text;
    bad.replace(at, 11, zero);
    CHECK_THROWS_WITH(hb.parse(hackbench_point("process-pipes", 2), bad, ""),
                      Catch::StartsWith("line 3: a run time of ") && Catch::Contains("is no measurement"));
  }
  const std::string perf_zero =
      "# Running 'sched/messaging' benchmark:\n# 20 sender and receiver processes per group\n"
      "# 2 groups == 80 processes run\n\n     Total time: 0.000 [sec]\n";
  CHECK_THROWS_WITH(hb.parse(perf_point("process-sockets", 2), perf_zero, ""),
                    Catch::Contains("a run time of 0.000 s is no measurement"));
}
