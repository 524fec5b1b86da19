#include "workloads/tbench.h"

#include <catch2/catch.hpp>
#include <boost/regex.hpp>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::metric_value;
using schedlab::test::read_text;

namespace {

Point tbench_point(std::int64_t clients) {
  static const Tbench tb;
  Point p = default_point(tb);
  p.values["clients"] = clients;
  return p;
}

int count_of(const std::vector<Sample>& samples, const std::string& metric) {
  return static_cast<int>(std::count_if(samples.begin(), samples.end(),
                                        [&](const Sample& s) { return s.metric == metric; }));
}

}  // namespace

TEST_CASE("tbench parses every client output fixture and refuses the others") {
  Tbench tb;
  static const boost::regex clients_re(R"(-(\d+)clients?)");
  int parsed = 0, refused = 0;
  for (const auto& file : test::fixture_files("tbench")) {
    const std::string name = file.filename().string();
    INFO(name);
    const std::string text = read_text(file);
    boost::smatch m;
    if (name.starts_with("error-") || !boost::regex_search(name, m, clients_re)) {
      CHECK_THROWS_AS(tb.parse(tbench_point(1), text, ""), ParseError);
      ++refused;
      continue;
    }
    const auto samples = tb.parse(tbench_point(std::stoll(m[1])), text, "");
    CHECK(count_of(samples, "throughput") == 1);
    CHECK(count_of(samples, "max_latency") == 1);
    CHECK(count_of(samples, "interval_throughput") >= 4);
    CHECK(metric_value(samples, "throughput") > 0);
    ++parsed;
  }
  CHECK(parsed == 7);
  CHECK(refused == 2);  // error-no-server, tbench_srv-server-log
}

TEST_CASE("tbench reads exact values and keeps only execute seconds as intervals") {
  Tbench tb;
  const auto samples = tb.parse(tbench_point(4), read_text(fixture("tbench/tbench-t10-4clients.txt")), "");
  CHECK(metric_value(samples, "throughput") == Approx(737.729));
  CHECK(metric_value(samples, "max_latency") == Approx(8.131));
  // One warmup line, nine execute lines.
  CHECK(count_of(samples, "interval_throughput") == 9);
  CHECK(count_of(samples, "interval_max_latency") == 9);
  const auto first = std::find_if(samples.begin(), samples.end(), [](const Sample& s) {
    return s.metric == "interval_throughput";
  });
  CHECK(first->value == Approx(728.48));
  CHECK(first->offset_s == Approx(1.0));
  const auto outlier =
      tb.parse(tbench_point(2), read_text(fixture("tbench/tbench-t5-2clients.run2.txt")), "");
  CHECK(metric_value(outlier, "max_latency") == Approx(392.106));
  // --clients-per-process=2: 8 clients in 4 processes; the sweep counts processes.
  const auto perproc =
      tb.parse(tbench_point(4), read_text(fixture("tbench/tbench-t5-4clients-2perproc.txt")), "");
  CHECK(metric_value(perproc, "throughput") == Approx(526.039));
}

TEST_CASE("tbench errors name the line") {
  Tbench tb;
  CHECK_THROWS_WITH(tb.parse(tbench_point(1), read_text(fixture("tbench/error-no-server.txt")), ""),
                    "line 4: tool error: failed to connect to 127.0.0.1 - Connection refused");
  CHECK_THROWS_WITH(tb.parse(tbench_point(1), read_text(fixture("tbench/tbench_srv-server-log.txt")), ""),
                    "no 'Throughput N MB/sec ... N procs' line in the output");
  CHECK_THROWS_WITH(
      tb.parse(tbench_point(2), read_text(fixture("tbench/tbench-t5-1client.run1.txt")), ""),
      Catch::Contains("ran 1 client processes, expected 2"));
  CHECK_THROWS_WITH(tb.parse(tbench_point(1), "Throughput fast MB/sec  1 clients  1 procs\n", ""),
                    Catch::Contains("line 1:"));
}

TEST_CASE("tbench accepts dbench 3 and newer dbench final lines") {
  Tbench tb;
  const auto old = tb.parse(tbench_point(2), "Throughput 321.5 MB/sec 2 procs\n", "");
  CHECK(metric_value(old, "throughput") == Approx(321.5));
  CHECK(count_of(old, "max_latency") == 0);
  const auto git = tb.parse(
      tbench_point(2), "Throughput 321.500000 MB/sec (sync open)  2 clients  2 procs  max_latency=1.000 ms\n",
      "");
  CHECK(metric_value(git, "max_latency") == Approx(1.0));
}

TEST_CASE("tbench steps: a ready-checked server per point, a client with a timeout") {
  Tbench tb;
  auto p = tbench_point(8);
  p.values["duration"] = std::chrono::milliseconds(12500);
  const StepContext ctx{.workdir = "/tmp/w", .sut_address = "10.0.0.2", .port = 7100};
  const auto server = tb.point_setup_steps(p, ctx);
  REQUIRE(server.size() == 1);
  CHECK(server[0].argv == std::vector<std::string>{"tbench_srv"});
  CHECK(server[0].background);
  CHECK(server[0].role == Role::kSut);
  REQUIRE(server[0].ready);
  CHECK(server[0].ready->tcp_port == 7003);
  CHECK(server[0].ready->what == "tbench_srv accepting on port 7003");
  const auto client = tb.iteration_steps(p, ctx);
  REQUIRE(client.size() == 1);
  CHECK(client[0].role == Role::kLoadgen);
  CHECK(client[0].argv == std::vector<std::string>{"tbench", "-t", "13", "8", "10.0.0.2"});
  CHECK(client[0].timeout == std::chrono::seconds(73));
  p.values["loadfile"] = std::string("/srv/client.txt");
  p.values["timeout"] = std::chrono::milliseconds(20000);
  const auto custom = tb.iteration_steps(p, ctx);
  CHECK(custom[0].argv == std::vector<std::string>{"tbench", "-t", "13", "-c", "/srv/client.txt",
                                                   "8", "10.0.0.2"});
  CHECK(custom[0].timeout == std::chrono::seconds(20));
  CHECK(tb.row_label(p) == "8");
}

TEST_CASE("tbench refuses a throughput that is not positive") {
  // A real output with its final line's throughput replaced.
  const std::string text = read_text(fixture("tbench/tbench-t5-1client.run1.txt"));
  const auto at = text.find("Throughput 157.867 MB/sec");
  REQUIRE(at != std::string::npos);
  Tbench tb;
  for (const std::string v : {"-5", "0", "0.000", "-1e3"}) {
    std::string bad = text;
    bad.replace(at, 18, "Throughput " + v);
    INFO(bad.substr(at, 60));
    CHECK_THROWS_WITH(tb.parse(tbench_point(1), bad, ""),
                      Catch::StartsWith("line 31: a throughput of ") && Catch::Contains("is no measurement"));
  }
  CHECK(metric_value(tb.parse(tbench_point(1), text, ""), "throughput") == 157.867);
}
