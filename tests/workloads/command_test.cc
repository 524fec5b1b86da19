#include "workloads/command.h"

#include <catch2/catch.hpp>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::metric_value;
using schedlab::test::read_text;

namespace {

// What configs/sysbench-cpu.yaml describes.
CommandSpec sysbench_cpu() {
  CommandSpec spec;
  spec.name = "sysbench-cpu";
  spec.package = "sysbench";
  spec.argv = {"sysbench", "cpu", "--threads={threads}", "--time={time}", "run"};
  spec.params = {{.name = "threads", .type = ParamType::kInt, .axis = Axis::kRow,
                  .default_value = std::int64_t{1}, .help = "threads", .min = 1},
                 {.name = "time", .type = ParamType::kInt, .default_value = std::int64_t{10},
                  .help = "seconds", .min = 1}};
  spec.metrics = {{.name = "events_per_s",
                   .regex = R"(^\s*events per second:\s+(?<value>[0-9.]+)\s*$)",
                   .unit = "events/s",
                   .direction = Direction::kHigherIsBetter},
                  {.name = "latency_avg",
                   .regex = R"(^\s*avg:\s+(?<value>[0-9.]+)\s*$)",
                   .unit = "ms",
                   .direction = Direction::kLowerIsBetter}};
  spec.error_regex = R"(^(FATAL: |invalid option))";
  return spec;
}

Point command_point(const Workload& w, std::int64_t threads) {
  Point p = default_point(w);
  p.values["threads"] = threads;
  return p;
}

}  // namespace

TEST_CASE("command: argv template, one element per argument, never a shell") {
  const auto w = make_command_workload(sysbench_cpu());
  auto steps = w->iteration_steps(command_point(*w, 4), {});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].argv ==
        std::vector<std::string>{"sysbench", "cpu", "--threads=4", "--time=10", "run"});
  CHECK(steps[0].role == Role::kSut);
  CHECK(w->row_label(command_point(*w, 4)) == "4");

  auto spec = sysbench_cpu();
  spec.role = Role::kLoadgen;
  spec.argv = {"netperf", "-H", "{sut_address}", "-p", "{port}", "{{literal}}", "a b;c"};
  const auto net = make_command_workload(spec);
  steps = net->iteration_steps(command_point(*net, 1), StepContext{.sut_address = "10.1.1.1", .port = 12865});
  CHECK(steps[0].argv ==
        std::vector<std::string>{"netperf", "-H", "10.1.1.1", "-p", "12865", "{literal}", "a b;c"});
  CHECK(steps[0].role == Role::kLoadgen);
}

TEST_CASE("command: metrics from the spec, centre from direction") {
  const auto w = make_command_workload(sysbench_cpu());
  CHECK(w->find_metric("events_per_s")->centre == Centre::kHmean);
  CHECK(w->find_metric("latency_avg")->centre == Centre::kAmean);
  CHECK(w->find_metric("latency_avg")->direction == Direction::kLowerIsBetter);
  CHECK(w->package() == "sysbench");
}

TEST_CASE("command parses every sysbench cpu fixture, and errors name the line") {
  const auto w = make_command_workload(sysbench_cpu());
  int parsed = 0;
  for (const auto& file : test::fixture_files("sysbench")) {
    const std::string name = file.filename().string();
    INFO(name);
    const std::string text = read_text(file);
    if (!name.starts_with("cpu-")) {
      CHECK_THROWS_AS(w->parse(command_point(*w, 2), text, ""), ParseError);
      continue;
    }
    const auto samples = w->parse(command_point(*w, 2), text, "");
    CHECK(metric_value(samples, "events_per_s") > 0);
    ++parsed;
  }
  CHECK(parsed == 4);
  const auto s = w->parse(command_point(*w, 2), read_text(fixture("sysbench/cpu-threads2-time5.run1.txt")), "");
  CHECK(metric_value(s, "events_per_s") == 9892.72);
  CHECK(metric_value(s, "latency_avg") == 0.20);
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), read_text(fixture("sysbench/error-bad-option.txt")), ""),
                    Catch::Contains("tool error: invalid option: --bogus=1"));
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), "nothing\n", ""),
                    Catch::StartsWith("metric events_per_s: no line matches"));
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), "events per second: 1\nevents per second: 2\n", ""),
                    Catch::StartsWith("line 2: metric events_per_s: a second line matches"));
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), "events per second: 1.2.3\n    avg: 1\n", ""),
                    Catch::Contains("'1.2.3' is not a number"));
}

TEST_CASE("command: stress-ng writes to stderr, each and last matches, interval offsets") {
  CommandSpec spec;
  spec.name = "stress-ng-cpu";
  spec.argv = {"stress-ng", "--cpu", "2", "--timeout", "3", "--metrics-brief"};
  spec.metrics = {{.name = "bogo_ops_s",
                   .regex = R"(metrc: \[\d+\] cpu\s+\d+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+(?<value>[0-9.]+))",
                   .unit = "bogo-ops/s",
                   .stream = CommandMetric::Stream::kStderr}};
  const auto w = make_command_workload(spec);
  const std::string text = read_text(fixture("stress-ng/cpu2-timeout3-metrics-brief.txt"));
  CHECK(metric_value(w->parse(Point{}, "", text), "bogo_ops_s") == 2352.75);
  CHECK_THROWS_AS(w->parse(Point{}, text, ""), ParseError);  // not on stdout

  spec.metrics = {{.name = "rate",
                   .regex = R"(^t=(?<offset>\d+) rate=(?<value>\d+)$)",
                   .unit = "ops/s",
                   .kind = SampleKind::kInterval}};
  const auto iv = make_command_workload(spec);
  const auto samples = iv->parse(Point{}, "t=1 rate=10\nt=2 rate=12\n", "");
  REQUIRE(samples.size() == 2);
  CHECK(samples[1].value == 12);
  CHECK(samples[1].offset_s == 2);
  spec.metrics[0].kind = SampleKind::kRun;
  spec.metrics[0].match = CommandMetric::Match::kLast;
  const auto last = make_command_workload(spec);
  const auto only = last->parse(Point{}, "t=1 rate=10\nt=2 rate=12\n", "");
  REQUIRE(only.size() == 1);
  CHECK(only[0].value == 12);
  CHECK_FALSE(only[0].offset_s);
}

TEST_CASE("command specs are checked when made") {
  auto bad = sysbench_cpu();
  bad.argv.push_back("{thread}");
  CHECK_THROWS_WITH(make_command_workload(bad),
                    "sysbench-cpu: argv '{thread}' uses {thread}, which is not a parameter");
  bad = sysbench_cpu();
  bad.metrics[0].regex = R"(events per second: ([0-9.]+))";
  CHECK_THROWS_WITH(make_command_workload(bad), Catch::Contains("needs a named group (?<value>...)"));
  bad = sysbench_cpu();
  bad.metrics[0].regex = R"((?<value>[0-9.]+)";
  CHECK_THROWS_WITH(make_command_workload(bad), Catch::Contains("bad regex"));
  bad = sysbench_cpu();
  bad.metrics[1].name = "events_per_s";
  CHECK_THROWS_WITH(make_command_workload(bad), Catch::Contains("metric 'events_per_s' twice"));
  bad = sysbench_cpu();
  bad.argv = {"x", "{threads"};
  CHECK_THROWS_WITH(make_command_workload(bad), "argv '{threads': '{' without '}'");
  bad.argv = {"x", "threads}"};
  CHECK_THROWS_WITH(make_command_workload(bad), "argv 'threads}': '}' without '{'");
  // A name argv could not write as a placeholder ({Threads} passes through as it is).
  bad = sysbench_cpu();
  bad.params[0].name = "Threads";
  CHECK_THROWS_WITH(make_command_workload(bad),
                    Catch::StartsWith("sysbench-cpu: parameter 'Threads': a name of a-z"));
  // Other braces are the tool's own (the hooks' grammar, base/placeholders.h).
  auto awk = sysbench_cpu();
  awk.argv = {"awk", "{print $1}", "--threads={threads}"};
  const auto a = make_command_workload(awk);
  CHECK(a->iteration_steps(command_point(*a, 2), {})[0].argv ==
        std::vector<std::string>{"awk", "{print $1}", "--threads=2"});
  // Python-style named groups work too.
  auto py = sysbench_cpu();
  py.metrics[0].regex = R"(events per second:\s+(?P<value>[0-9.]+))";
  const auto w = make_command_workload(py);
  CHECK(metric_value(w->parse(command_point(*w, 1), "events per second: 5\n    avg: 1\n", ""), "events_per_s") == 5);
}

TEST_CASE("command: an escaped parenthesis is not a Python group") {
  auto spec = sysbench_cpu();
  spec.metrics = {{.name = "n", .regex = R"(\(?P<x> (?<value>\d+))", .unit = "x"}};
  const auto w = make_command_workload(spec);
  CHECK(metric_value(w->parse(command_point(*w, 1), "(P<x> 7\n", ""), "n") == 7);
}

TEST_CASE("command: a value below 0 of a nonnegative metric is a parse error naming the line") {
  auto spec = sysbench_cpu();
  spec.metrics[1].regex = R"(^\s*avg:\s+(?<value>-?[0-9.]+)\s*$)";
  spec.metrics[1].domain = ValueDomain::kNonNegative;
  const auto w = make_command_workload(spec);
  CHECK(w->find_metric("latency_avg")->domain == ValueDomain::kNonNegative);
  CHECK(w->find_metric("events_per_s")->domain == ValueDomain::kUnbounded);
  const std::string out = "events per second: 10\n    avg: -0.20\n";
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), out, ""),
                    "line 2: metric latency_avg: -0.20 is below 0, outside its domain "
                    "(nonnegative):     avg: -0.20");
  // Unbounded: the same value is a sample.
  spec.metrics[1].domain = ValueDomain::kUnbounded;
  const auto u = make_command_workload(spec);
  CHECK(metric_value(u->parse(command_point(*u, 2), out, ""), "latency_avg") == -0.20);
}

TEST_CASE("command: a value out of a sample's range is the iteration's parse error (hostile16)") {
  // 1e151 from a command failed the whole run at the store ("outside
  // +-1e+150; not stored"), its remaining iterations never measured.
  auto spec = sysbench_cpu();
  spec.metrics[0].regex = R"(^\s*events per second:\s+(?<value>\S+)\s*$)";
  spec.metrics[1].regex = R"(^\s*avg:\s+(?<value>\S+)\s*$)";
  const auto w = make_command_workload(spec);
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), "events per second: 10\n    avg: -1e151\n", ""),
                    "line 2: metric latency_avg: -1e+151 is outside +-1e+150:     avg: -1e151");
  CHECK_THROWS_WITH(w->parse(command_point(*w, 2), "events per second: 1e-200\n    avg: 1\n", ""),
                    Catch::StartsWith("line 1: metric events_per_s: 1e-200 is"));
  CHECK(metric_value(w->parse(command_point(*w, 2), "events per second: 10\n    avg: -1e150\n", ""),
                     "latency_avg") == -1e150);
}
