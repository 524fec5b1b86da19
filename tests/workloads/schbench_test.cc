#include "workloads/schbench.h"

#include <catch2/catch.hpp>
#include <map>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"
#include "tests/support/unknown_point.h"
#include "tests/workloads/step_exec.h"

using namespace schedlab;

namespace {

const Schbench& schbench() {
  static const Schbench w;
  return w;
}

Point point(int runtime_s, std::int64_t threads = 2) {
  Point p = default_point(schbench());
  p.values["runtime"] = std::chrono::milliseconds(std::chrono::seconds(runtime_s));
  p.values["threads"] = threads;
  return p;
}

std::map<std::string, double> run_metrics(const std::vector<Sample>& samples) {
  std::map<std::string, double> m;
  for (const auto& s : samples)
    if (!s.offset_s) {
      CHECK_FALSE(m.count(s.metric));
      m[s.metric] = s.value;
    }
  return m;
}

const std::string kFake =
    std::string(SCHEDLAB_SOURCE_DIR) + "/tests/support/fake_schbench/schbench";

}  // namespace

TEST_CASE("schbench reads the final report of every fixture, text or -j JSON") {
  const std::map<std::string, double> r5 = {{"wakeup_p50", 991},     {"wakeup_p90", 3964},
                                            {"wakeup_p99", 10640},   {"wakeup_p999", 24736},
                                            {"request_p50", 9744},   {"request_p90", 20064},
                                            {"request_p99", 103296}, {"request_p999", 304640},
                                            {"rps_p50", 96},         {"average_rps", 123.20}};
  // The final report, not the interval report printed just before it.
  CHECK(run_metrics(schbench().parse(
            point(5), "", test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt")))) == r5);
  const auto text = run_metrics(schbench().parse(
      point(5), "", test::read_text(test::fixture("schbench/schbench-m1-t2-r5-json.txt"))));
  auto json = run_metrics(schbench().parse(
      point(5), test::read_text(test::fixture("schbench/schbench-m1-t2-r5.json")), ""));
  // The -j file holds the same final report, without the average rps.
  CHECK(text.at("average_rps") == 154.00);
  CHECK_FALSE(json.count("average_rps"));
  json["average_rps"] = 154.00;
  CHECK(json == text);
  CHECK(text.at("wakeup_p99") == 13328);
  CHECK(text.at("rps_p50") == 127);
  const auto four = run_metrics(schbench().parse(
      point(6, 4), "", test::read_text(test::fixture("schbench/schbench-m1-t4-r6-i2.txt"))));
  CHECK(four.at("request_p99") == 210688);  // the final report's, not the last interval's 218880
  CHECK(four.at("average_rps") == 100.00);
  // Pipe mode: the wake-up block (with a 20th percentile, not stored) and the transfer rate.
  auto pipe = point(4);
  pipe.values["pipe"] = std::int64_t{4096};
  CHECK(run_metrics(schbench().parse(
            pipe, "", test::read_text(test::fixture("schbench/schbench-m1-t2-r4-pipe4096.txt")))) ==
        std::map<std::string, double>{{"wakeup_p50", 3},
                                      {"wakeup_p90", 8},
                                      {"wakeup_p99", 35},
                                      {"wakeup_p999", 95},
                                      {"transfer_ops", 80793.78},
                                      {"transfer_rate", 315.60}});
  int files = 0;
  for (const auto& f : test::fixture_files("schbench")) files += f.extension() != ".md";
  CHECK(files == 5);  // each read above
}

TEST_CASE("schbench interval reports become interval samples when asked") {
  const std::string text = test::read_text(test::fixture("schbench/schbench-m1-t4-r6-i2.txt"));
  auto p = point(6, 4);
  CHECK(test::metric_values(schbench().parse(p, "", text), "interval_rps").empty());
  p.values["intervals"] = true;
  const auto samples = schbench().parse(p, "", text);
  CHECK(test::metric_values(samples, "interval_wakeup_p99") ==
        std::vector<double>{57920, 39744, 19360});
  CHECK(test::metric_values(samples, "interval_request_p99") ==
        std::vector<double>{297472, 218880, 218880});
  CHECK(test::metric_values(samples, "interval_rps") == std::vector<double>{67.99, 116.99, 148.98});
  std::vector<double> offsets;
  for (const auto& s : samples)
    if (s.metric == "interval_rps") offsets.push_back(*s.offset_s);
  CHECK(offsets == std::vector<double>{2, 4, 6});
}

TEST_CASE(
    "schbench errors: a truncated report, JSON that is not schbench's, another run's output") {
  const std::string text = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt"));
  const auto first_lines = [&](int n) {
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) at = text.find('\n', at) + 1;
    return text.substr(0, at);
  };
  // Killed after the interval report: no final one.
  CHECK_THROWS_WITH(schbench().parse(point(5), "", first_lines(19)),
                    "no final report ('average rps' or 'avg worker transfer' line) in the output: "
                    "current rps: 155.99");
  // Killed inside the final report.
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", first_lines(33)),
      Catch::Contains(
          "ends inside a report (RPS, Request Latencies, Wakeup Latencies) without its end "
          "line: schbench did not finish (a truncated report)"));
  // A block cut before its min/max line, the next one started.
  std::string cut = text;
  cut.erase(
      cut.find("\t  min=2, max=24722\nRequest Latencies percentiles (usec) runtime 5 (s) (614"),
      std::string("\t  min=2, max=24722\n").size());
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", cut),
      "line 6: the block from line 1 ends before its min/max line (a truncated report)");
  // A mangled percentile line.
  std::string mangled = text;
  mangled.replace(mangled.find("\t  90.0th: 3964"), 15, "\t  90.0th: 3x64");
  CHECK_THROWS_WITH(schbench().parse(point(5), "", mangled),
                    Catch::StartsWith("line 3: unrecognised report line:"));
  CHECK_THROWS_WITH(schbench().parse(point(5), R"({"normal": {}, "int": {"time": 1}})", ""),
                    "a JSON document that is not schbench's -j file (no \"int\" object with "
                    "\"wakeup_latency_pct99.0\")");
  CHECK_THROWS_WITH(schbench().parse(point(5), R"([1, 2, 3])", ""),
                    Catch::Contains("not schbench's -j file"));
  CHECK_THROWS_WITH(schbench().parse(point(5), "{\"int\": {", ""),
                    "the output starts like JSON but is not JSON");
  std::string bad_json = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.json"));
  bad_json.replace(bad_json.find("\"rps_pct50.0\": 127"), 18, "\"rps_pct50.0\": \"x\"");
  CHECK_THROWS_WITH(schbench().parse(point(5), bad_json, ""),
                    "schbench -j file: \"int\".\"rps_pct50.0\" is missing or not a number");
  // Like with like: a 5 s run is no sample of a 30 s point; pipe mode is no normal run.
  CHECK_THROWS_WITH(schbench().parse(point(30), "", text),
                    "line 20: the final report covers 5 s, the point's runtime is 30 s");
  CHECK_THROWS_WITH(
      schbench().parse(point(4), "",
                       test::read_text(test::fixture("schbench/schbench-m1-t2-r4-pipe4096.txt"))),
      "line 8: the output is pipe mode (avg worker transfer), the point's pipe is 0");
  // schbench's own error (a bad option): usage, no report.
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", "schbench usage:\n\t-C (--calibrate): run our work loop\n"),
      Catch::StartsWith("line 2: unrecognised report line"));
  // No wake-up at all is no measurement.
  std::string none = text;
  none.replace(none.rfind("(616 total samples)\n\t  50.0th: 991"), 19, "(0 total samples)");
  CHECK_THROWS_WITH(schbench().parse(point(5), "", none),
                    "line 20: no wake-up was measured (0 total samples)");
}

TEST_CASE("schbench steps: the options in the point, the binary from PATH or path") {
  auto p = point(30, 8);
  p.values["message_threads"] = std::int64_t{2};
  const auto steps = schbench().iteration_steps(p, StepContext{});
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].role == Role::kSut);
  CHECK(steps[0].measured);
  CHECK(steps[0].argv == std::vector<std::string>{"schbench", "-m", "2", "-t", "8", "-r", "30",
                                                  "-i", "10", "-F", "256", "-n", "5"});
  CHECK(steps[0].timeout == std::chrono::seconds(90));
  p.values["warmup"] = std::chrono::milliseconds(std::chrono::seconds(5));
  p.values["rps"] = std::int64_t{1000};
  p.values["path"] = std::string("/opt/schbench/schbench");
  CHECK(schbench().iteration_steps(p, StepContext{})[0].argv ==
        std::vector<std::string>{"/opt/schbench/schbench", "-m", "2", "-t", "8", "-r", "30", "-i",
                                 "10", "-F", "256", "-n", "5", "-w", "5", "-R", "1000"});
  CHECK(schbench().row_label(p) == "8");
  CHECK(schbench().primary_metric(p).name == "wakeup_p99");
}

TEST_CASE("schbench refuses settings schbench would silently ignore") {
  auto p = point(10);
  CHECK(schbench().check_fixed(p).empty());
  p.values["warmup"] = std::chrono::milliseconds(std::chrono::seconds(5));
  CHECK(schbench().check_fixed(p) ==
        "warmup 5s with runtime 10s: schbench ignores -w when the runtime is under 30 s");
  p.values["runtime"] = std::chrono::milliseconds(std::chrono::seconds(60));
  CHECK(schbench().check_fixed(p).empty());
  p.values["rps"] = std::int64_t{100};
  CHECK_THAT(schbench().check_fixed(p),
             Catch::StartsWith("warmup: schbench does not warm up in rps or pipe mode"));
  p.values["warmup"] = std::chrono::milliseconds(0);
  p.values["pipe"] = std::int64_t{4096};
  CHECK(schbench().check_fixed(p) == "rps and pipe: two separate schbench modes; set one");
  p.values["rps"] = std::int64_t{0};
  p.values["intervals"] = true;
  CHECK(schbench().check_fixed(p) == "intervals: schbench prints no interval reports in pipe mode");
  CHECK(schbench().find_param("pipe")->max == 1 << 20);  // schbench caps -p there
}

TEST_CASE(
    "schbench's steps against its test double: the format the parser reads, rows that differ") {
  std::map<std::int64_t, double> p99;
  for (const std::int64_t threads : {1, 4}) {
    auto p = point(1, threads);
    p.values["path"] = kFake;
    p.values["interval"] = std::chrono::milliseconds(std::chrono::seconds(1));
    p.values["intervals"] = true;
    const auto ran = schedlab::test::exec_step(schbench().iteration_steps(p, StepContext{})[0]);
    REQUIRE(ran.rc == 0);
    CHECK(ran.out.empty());  // schbench writes its reports to stderr
    const auto samples = schbench().parse(p, ran.out, ran.err);
    const auto m = run_metrics(samples);
    CHECK(m.size() == 10);
    p99[threads] = m.at("wakeup_p99");
    CHECK(test::metric_values(samples, "interval_rps").size() == 1);
  }
  CHECK(p99[4] > p99[1]);
  auto pipe = point(1);
  pipe.values["path"] = kFake;
  pipe.values["pipe"] = std::int64_t{4096};
  const auto ran = schedlab::test::exec_step(schbench().iteration_steps(pipe, StepContext{})[0]);
  CHECK(run_metrics(schbench().parse(pipe, ran.out, ran.err)).at("transfer_rate") ==
        Approx(20000.0 * 4096 / 1048576).epsilon(0.001));
}

TEST_CASE("schbench states the final report's runtime, pipe mode, and a -j file's command line") {
  const Point none = test::unknown_point(schbench());
  const std::map<std::string, std::pair<std::string, std::vector<std::string>>> expected = {
      {"schbench-m1-t2-r5.txt", {"err", {"runtime=5s", "pipe=0"}}},
      {"schbench-m1-t2-r5-json.txt", {"err", {"runtime=5s", "pipe=0"}}},
      {"schbench-m1-t4-r6-i2.txt", {"err", {"runtime=6s", "pipe=0"}}},
      // Pipe mode: on, but its bytes are not printed.
      {"schbench-m1-t2-r4-pipe4096.txt", {"err", {"runtime=4s"}}},
      {"schbench-m1-t2-r5.json",
       {"out", {"message_threads=1", "threads=2", "runtime=5s", "pipe=0"}}},
  };
  int files = 0;
  for (const auto& f : test::fixture_files("schbench")) files += f.extension() != ".md";
  CHECK(files == static_cast<int>(expected.size()));
  for (const auto& [file, where_stated] : expected) {
    INFO(file);
    const auto& [where, stated] = where_stated;
    const std::string text = test::read_text(test::fixture("schbench/" + file));
    const std::string out = where == "out" ? text : "", err = where == "err" ? text : "";
    CHECK(schbench().stated_params(none, out, err) == stated);
    // Nothing known: read without a runtime or pipe check.
    CHECK_FALSE(schbench().parse(none, out, err).empty());
  }
  // From 30 s on a warm-up may have reset the report's runtime: stated
  // only when the warm-up is known to be off.
  std::string long_run = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt"));
  for (auto at = long_run.find("runtime 5 (s)"); at != std::string::npos;
       at = long_run.find("runtime 5 (s)"))
    long_run.replace(at, 13, "runtime 60 (s)");
  CHECK(schbench().stated_params(none, "", long_run) == std::vector<std::string>{"pipe=0"});
  CHECK(schbench().stated_params(test::with(none, "warmup", std::chrono::milliseconds(0)), "",
                                 long_run) == std::vector<std::string>{"runtime=60s", "pipe=0"});
  // intervals says how schedlab reads, so it is never unknown.
  CHECK(none.known("intervals"));
}

TEST_CASE(
    "schbench refuses numbers statistics cannot hold, and -j values the text parser refuses (issue "
    "44)") {
  const std::string json = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.json"));
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string j = json;
    REQUIRE(j.find(from) != std::string::npos);
    j.replace(j.find(from), from.size(), to);
    return j;
  };
  // A negative percentile: the text parser's pattern has no sign.
  CHECK_THROWS_WITH(
      schbench().parse(
          point(5), edited("\"wakeup_latency_pct50.0\": 867", "\"wakeup_latency_pct50.0\": -867"),
          ""),
      "schbench -j file: \"int\".\"wakeup_latency_pct50.0\" -867 is negative: no measurement");
  // runtime 1e300 is refused before it is converted to an integer.
  const auto runtime = edited("\"runtime\": 5", "\"runtime\": 1e300");
  CHECK_THROWS_WITH(schbench().parse(point(5), runtime, ""),
                    Catch::Contains("\"runtime\" 1e+300 is past 1e+15"));
  CHECK_THROWS_WITH(schbench().parse(point(5), runtime, ""),
                    !Catch::Contains("-9223372036854775808"));
  CHECK(schbench().stated_params(
            test::unknown_point(schbench()),
            edited("\"runtime\": 5", "\"runtime\": 1e300").replace(json.find("-r 5"), 4, "    "),
            "") == std::vector<std::string>{"message_threads=1", "threads=2", "pipe=0"});
  // hostile9: an option given twice is schbench's getopt's last, not the first.
  CHECK(
      schbench().stated_params(test::unknown_point(schbench()), edited("-t 2", "-t 2 -t 8"), "") ==
      std::vector<std::string>{"message_threads=1", "threads=8", "runtime=5s", "pipe=0"});
  CHECK_THROWS_WITH(schbench().parse(point(5), edited("\"runtime\": 5", "\"runtime\": 5.5"), ""),
                    "schbench -j file: \"runtime\" 5.5 is not a whole number from 0 to 2^53");
  CHECK_THROWS_WITH(
      schbench().parse(
          point(5),
          edited("\"wakeup_latency_pct99.0\": 13328", "\"wakeup_latency_pct99.0\": 1e308"), ""),
      Catch::Contains("\"wakeup_latency_pct99.0\" 1e+308 is past 1e+15"));
  // The text report: a 1e308 percentile, and a runtime of 300 digits.
  const std::string text = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt"));
  std::string huge = text;
  huge.replace(huge.rfind("10640      (55"), 5, "1" + std::string(308, '0'));
  CHECK_THROWS_WITH(schbench().parse(point(5), "", huge),
                    Catch::Contains("99.0th percentile 1e+308 is past 1e+15"));
  std::string long_runtime = text;
  long_runtime.replace(long_runtime.rfind("runtime 5 (s)"), 13,
                       "runtime 1" + std::string(300, '0') + " (s)");
  CHECK_THROWS_WITH(schbench().parse(point(5), "", long_runtime),
                    Catch::Contains("runtime 1e+300 is not a whole number from 0 to 2^53"));
  std::string rate = text;
  rate.replace(rate.find("average rps: 123.20"), 19, "average rps: 1" + std::string(308, '0'));
  CHECK_THROWS_WITH(schbench().parse(point(5), "", rate),
                    Catch::Contains("average rps 1e+308 is past 1e+15"));
  // The ninth hostile pass: written as 1e308 (or signed), the rate was read
  // as commentary and the refusal named a truncated report instead.
  const auto line_as = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    REQUIRE(t.find(from) != std::string::npos);
    return t.replace(t.find(from), from.size(), to);
  };
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", line_as("average rps: 123.20", "average rps: 1e308")),
      "line 37: average rps 1e+308 is past 1e+15, beyond any measurement (statistics would "
      "overflow)");
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", line_as("average rps: 123.20", "average rps: -5")),
      "line 37: average rps -5 is negative: no measurement");
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", line_as("current rps: 155.99", "current rps: 1e308")),
      Catch::StartsWith("line 19: current rps 1e+308 is past 1e+15"));
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", line_as("average rps: 123.20", "average rps: 12x")),
      "line 37: '12x' is not a number");
  std::string pipe_text = test::read_text(test::fixture("schbench/schbench-m1-t2-r4-pipe4096.txt"));
  const std::string transfer = "avg worker transfer: 80793.78 ops/sec";
  REQUIRE(pipe_text.find(transfer) != std::string::npos);
  pipe_text.replace(pipe_text.find(transfer), transfer.size(),
                    "avg worker transfer: 1e308 ops/sec");
  auto pipe = point(4);
  pipe.values["pipe"] = std::int64_t{4096};
  CHECK_THROWS_WITH(schbench().parse(pipe, "", pipe_text),
                    "line 8: transfer rate 1e+308 is past 1e+15, beyond any measurement "
                    "(statistics would overflow)");
}

TEST_CASE(
    "schbench refuses percentiles out of their histogram's order and a min above its max "
    "(hostile16), text and -j alike") {
  const std::string text = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt"));
  const std::string json = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.json"));
  const auto edited = [](const std::string& from_text, const std::string& from,
                         const std::string& to) {
    std::string t = from_text;
    REQUIRE(t.rfind(from) != std::string::npos);
    t.replace(t.rfind(from), from.size(), to);
    return t;
  };
  // The final report's wake-up P90 below its P50 (the columns stay aligned).
  CHECK_THROWS_WITH(schbench().parse(point(5), "", edited(text, "90.0th: 3964", "90.0th: 0964")),
                    "line 22: 90.0th percentile 964 is below 50.0th percentile 991: schbench's "
                    "percentiles come from one histogram and never decrease");
  // A P99.9 below the P99 in the interval report's request block.
  std::string interval = text;
  interval.replace(interval.find("99.9th: 304640"), 14, "99.9th: 3     ");
  CHECK_THROWS_WITH(schbench().parse(point(5), "", interval),
                    Catch::StartsWith("line 11: 99.9th percentile 3 is below 99.0th percentile "
                                      "67456"));
  // A min above the max.
  CHECK_THROWS_WITH(
      schbench().parse(point(5), "", edited(text, "min=92, max=157", "min=158, max=157")),
      "line 36: max 157 is below min 158: a maximum is never below its minimum");
  // The -j file: a P90 below the P50, a P20 above the P50, a min above the max.
  CHECK_THROWS_WITH(
      schbench().parse(
          point(5),
          edited(json, "\"request_latency_pct90.0\": 13872", "\"request_latency_pct90.0\": 1387"),
          ""),
      "schbench -j file: \"int\".\"request_latency_pct90.0\" 1387 is below "
      "\"int\".\"request_latency_pct50.0\" 9584: schbench's percentiles come from one histogram "
      "and never decrease");
  CHECK_THROWS_WITH(
      schbench().parse(point(5), edited(json, "\"rps_pct20.0\": 104", "\"rps_pct20.0\": 200"), ""),
      Catch::Contains("\"int\".\"rps_pct50.0\" 127 is below \"int\".\"rps_pct20.0\" 200"));
  CHECK_THROWS_WITH(
      schbench().parse(point(5),
                       edited(json, "\"wakeup_latency_min\": 2", "\"wakeup_latency_min\": 200000"),
                       ""),
      "schbench -j file: \"int\".\"wakeup_latency_max\" 127507 is below "
      "\"int\".\"wakeup_latency_min\" 200000: a maximum is never below its minimum");
}
