#include "workloads/netperf.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>

#include "runner/hosts/local_host.h"
#include "tests/support/samples.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"
#include "tests/support/unknown_point.h"
#include "tests/workloads/step_exec.h"

using namespace schedlab;

namespace {

const Netperf& netperf() {
  static const Netperf w;
  return w;
}

Point point(const std::string& test, std::int64_t size = 0) {
  Point p = default_point(netperf());
  p.values["test"] = test;
  p.values["message_size"] = size;
  return p;
}

std::map<std::string, double> by_metric(const std::vector<Sample>& samples) {
  std::map<std::string, double> m;
  for (const auto& s : samples) {
    CHECK_FALSE(m.count(s.metric));  // one sample per metric and iteration
    m[s.metric] = s.value;
  }
  return m;
}

}  // namespace

TEST_CASE("netperf reads every shared fixture, and names the missing netserver") {
  struct Expected {
    Point p;
    std::map<std::string, double> samples;
  };
  auto cpu = point("TCP_RR", 1);
  cpu.values["cpu_util"] = true;
  auto latency = point("TCP_RR");
  latency.values["latency"] = true;
  const std::map<std::string, Expected> expected = {
      {"tcp_stream-l3.txt", {point("TCP_STREAM"), {{"throughput", 1147.88}}}},
      {"udp_stream-l3-i5-I95.txt",
       {point("UDP_STREAM", 65507), {{"throughput", 581.50}, {"send_throughput", 9806.89}}}},
      {"tcp_rr-l3.txt", {point("TCP_RR"), {{"transactions", 5578.23}}}},
      {"tcp_rr-l3-cC-r1.txt",
       {cpu, {{"transactions", 3451.04}, {"local_cpu", 99.84}, {"remote_cpu", 99.84}}}},
      {"tcp_rr-omni-O-latency.txt",
       {latency,
        {{"transactions", 14863.967},
         {"latency_mean", 63.90},
         {"latency_p50", 15},
         {"latency_p90", 17},
         {"latency_p99", 400}}}},
  };
  int read = 0;
  for (const auto& file : test::fixture_files("netperf")) {
    const std::string name = file.filename().string();
    if (file.extension() != ".txt") continue;
    INFO(name);
    const std::string text = test::read_text(file);
    if (name == "error-no-netserver.txt") {
      // Exit 255: the iteration fails on its status; the parser says why too.
      CHECK_THROWS_WITH(
          netperf().parse(point("TCP_STREAM"), text, ""),
          Catch::StartsWith("line 1: no netserver answered: establish control: are you sure there "
                            "is a netserver listening on 127.0.0.1 at port 1?"));
      continue;
    }
    const auto& want = expected.at(name);
    CHECK(by_metric(netperf().parse(want.p, text, "")) == want.samples);
    ++read;
  }
  CHECK(read == 5);
}

TEST_CASE(
    "netperf reads this machine's outputs: CPU columns, MAERTS, CRR and omni confidence columns") {
  auto maerts = point("TCP_MAERTS", 2048);
  maerts.values["cpu_util"] = true;
  CHECK(by_metric(netperf().parse(maerts, test::own_fixture("netperf/tcp_maerts-cC-m2048.txt"), "")) ==
        std::map<std::string, double>{
            {"throughput", 4764.56}, {"local_cpu", 100}, {"remote_cpu", 100}});
  // UDP_STREAM with -c -C: local CPU on the sent row, remote on the received one.
  CHECK(by_metric(netperf().parse(point("UDP_STREAM", 1024), test::own_fixture("netperf/udp_stream-cC-m1024.txt"),
                                  "")) == std::map<std::string, double>{{"throughput", 660.3},
                                                                        {"send_throughput", 1080.1},
                                                                        {"local_cpu", 100},
                                                                        {"remote_cpu", 100}});
  CHECK(by_metric(netperf().parse(point("TCP_CRR", 100), test::own_fixture("netperf/tcp_crr-r100.txt"), "")) ==
        std::map<std::string, double>{{"transactions", 10081.04}});
  auto omni = point("TCP_RR", 64);
  omni.values["latency"] = true;
  omni.values["cpu_util"] = true;
  // Omni output shows no message size: the columns are read by their names.
  CHECK(by_metric(netperf().parse(
            omni, test::own_fixture("netperf/tcp_rr-omni-latency-cpu-confidence-missed.txt"), "")) ==
        std::map<std::string, double>{{"latency_mean", 19.85},
                                      {"latency_p50", 19},
                                      {"latency_p90", 21},
                                      {"latency_p99", 30},
                                      {"transactions", 51060.666},
                                      {"local_cpu", 100},
                                      {"remote_cpu", 100}});
}

TEST_CASE(
    "netperf: a confidence interval not reached is a note, in classic and omni output alike") {
  CHECK(netperf().notes(point("UDP_STREAM"),
                        test::read_text(test::fixture("netperf/udp_stream-l3-i5-I95.txt")), "") ==
        std::vector<std::string>{
            "netperf: desired confidence not achieved (+/-2.500% @ 95% conf. wanted); "
            "confidence intervals: Throughput 333.562%, Local CPU util 0.000%, Remote CPU "
            "util 0.000%"});
  CHECK(netperf().notes(point("UDP_RR", 32), test::own_fixture("netperf/udp_rr-r32-i3-I99.txt"), "") ==
        std::vector<std::string>{
            "netperf: desired confidence not achieved (+/-0.500% @ 99% conf. wanted); "
            "confidence intervals: Throughput 26.757%, Local CPU util 0.000%, Remote CPU "
            "util 0.000%"});
  auto omni = point("TCP_RR");
  omni.values["latency"] = true;
  CHECK(netperf().notes(omni, test::own_fixture("netperf/tcp_rr-omni-latency-cpu-confidence-missed.txt"), "") ==
        std::vector<std::string>{
            "netperf: desired confidence not achieved in 5 iterations: wanted a 1% wide "
            "interval at 95%, reached Throughput 5.056%"});
  // Reached (5.764% against 50%), or never asked for: nothing to say.
  CHECK(
      netperf()
          .notes(omni, test::own_fixture("netperf/tcp_rr-omni-latency-confidence-reached.txt"), "")
          .empty());
  CHECK(netperf()
            .notes(omni, test::read_text(test::fixture("netperf/tcp_rr-omni-O-latency.txt")), "")
            .empty());
  CHECK(netperf()
            .notes(point("TCP_STREAM"), test::read_text(test::fixture("netperf/tcp_stream-l3.txt")),
                   "")
            .empty());
}

// The line netperf's SIGALRM handler prints (netperf.c, catcher) when the
// test had ended before its timer fired, put into real outputs where a
// loaded machine can print it: after the banner, inside the omni header,
// after the result rows.
TEST_CASE("netperf: the late-timer line anywhere in an output is a note, the numbers unchanged") {
  const std::string late = "catcher: timer popped with times_up != 0";
  const auto insert_after = [&](const std::string& text, int line) {
    std::size_t at = 0;
    for (int i = 0; i < line; ++i) at = text.find('\n', at) + 1;
    return text.substr(0, at) + late + "\n" + text.substr(at);
  };
  auto omni = point("TCP_RR", 64);
  omni.values["latency"] = true;
  omni.values["cpu_util"] = true;
  const std::string rr = test::own_fixture("netperf/tcp_rr-omni-latency-cpu-confidence-missed.txt");
  const std::string crr = test::own_fixture("netperf/tcp_crr-r100.txt");
  for (const int line : {1, 3, 6}) {
    INFO("after line " << line);
    const std::string text = insert_after(rr, line);
    CHECK(by_metric(netperf().parse(omni, text, "")) == by_metric(netperf().parse(omni, rr, "")));
    const auto notes = netperf().notes(omni, text, "");
    REQUIRE(notes.size() == 2);  // and the confidence missed
    CHECK(notes[1] == fmt::format("netperf: the test had ended before its timer fired (line {}: {}); the rate is "
                                  "over the time it ran",
                                  line + 1, late));
  }
  CHECK(by_metric(netperf().parse(point("TCP_CRR", 100), insert_after(crr, 1), "")) ==
        std::map<std::string, double>{{"transactions", 10081.04}});
  // On stderr, after what stdout said.
  CHECK(netperf().notes(point("TCP_CRR", 100), crr, late + "\n").size() == 1);
  // Anything else after the rows is still refused.
  CHECK_THROWS_WITH(netperf().parse(point("TCP_CRR", 100), crr + "catcher: something else\n", ""),
                    Catch::Contains("unexpected after the result rows"));
}

TEST_CASE("netperf refuses output that is not what the point ran, naming the line") {
  const std::string stream = test::read_text(test::fixture("netperf/tcp_stream-l3.txt"));
  CHECK_THROWS_WITH(netperf().parse(point("TCP_RR"), stream, ""),
                    "line 1: the output is a TCP_STREAM test, the point's test is TCP_RR");
  CHECK_THROWS_WITH(
      netperf().parse(point("TCP_STREAM", 4096), stream, ""),
      Catch::StartsWith(
          "line 7: ran with 16384-byte messages, the point says 4096 (message_size)"));
  auto cpu = point("TCP_STREAM");
  cpu.values["cpu_util"] = true;
  CHECK_THROWS_WITH(netperf().parse(cpu, stream, ""),
                    "line 7: cpu_util is set but the result has no CPU columns (-c -C)");
  auto latency = point("TCP_RR");
  latency.values["latency"] = true;
  CHECK_THROWS_WITH(
      netperf().parse(latency, test::read_text(test::fixture("netperf/tcp_rr-l3.txt")), ""),
      Catch::Contains("latency is set but the output has no latency columns"));
  // The banner alone: netperf killed before its result.
  const std::string banner = stream.substr(0, stream.find('\n') + 1);
  CHECK_THROWS_WITH(netperf().parse(point("TCP_STREAM"), banner, ""),
                    "no result row after the TCP_STREAM banner (line 1)");
  CHECK_THROWS_WITH(
      netperf().parse(point("TCP_STREAM"), "", ""),
      "no netperf test banner ('... TEST from ... to ...') in the output, nor only result "
      "rows (-P 0)");
  // A row with a column missing, and a zero throughput.
  std::string cut = stream;
  cut.replace(cut.find("1147.88"), 7, "");
  CHECK_THROWS_WITH(
      netperf().parse(point("TCP_STREAM"), cut, ""),
      Catch::StartsWith(
          "line 7: a TCP_STREAM result row has 5 (9 with -c -C) numbers, this one 4"));
  std::string zero = stream;
  zero.replace(zero.find("1147.88"), 7, "0.00");
  CHECK_THROWS_WITH(netperf().parse(point("TCP_STREAM"), zero, ""),
                    Catch::StartsWith("line 7: a throughput of 0 is no measurement"));
  // Gigabits (-f g): not the metric's unit.
  std::string gbits = stream;
  gbits.replace(gbits.find("10^6bits"), 8, "10^9bits");
  CHECK_THROWS_WITH(netperf().parse(point("TCP_STREAM"), gbits, ""),
                    Catch::Contains("not in 10^6bits/s"));
  // Two outputs pasted together.
  CHECK_THROWS_WITH(netperf().parse(point("TCP_STREAM"), stream + stream, ""),
                    Catch::StartsWith("line 8: a second test banner"));
  // UDP_STREAM without its received row: what arrived is unknown.
  const std::string udp = test::read_text(test::fixture("netperf/udp_stream-l3-i5-I95.txt"));
  const std::string sent_only = udp.substr(0, udp.rfind("212992           3.01"));
  CHECK_THROWS_WITH(
      netperf().parse(point("UDP_STREAM"), sent_only, ""),
      Catch::Contains("UDP_STREAM prints two result rows (sent, received), this output 1"));
}

TEST_CASE(
    "netperf steps: netserver on the SUT on the reserved port, netperf on the loadgen, data port "
    "pinned") {
  const StepContext ctx{
      .workdir = "/w", .sut_address = "10.0.0.2", .port = 41000, .ports = {41000, 41001}};
  const auto server = netperf().point_setup_steps(point("TCP_STREAM"), ctx);
  REQUIRE(server.size() == 1);
  CHECK(server[0].role == Role::kSut);
  CHECK(server[0].background);
  CHECK(server[0].argv == std::vector<std::string>{"netserver", "-D", "-4", "-p", "41000"});
  CHECK(server[0].ready->tcp_port == 41000);

  auto stream = point("UDP_STREAM", 1024);
  stream.values["confidence"] = std::int64_t{95};
  stream.values["confidence_max"] = std::int64_t{5};
  stream.values["cpu_util"] = true;
  auto steps = netperf().iteration_steps(stream, ctx);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].role == Role::kLoadgen);
  CHECK(steps[0].argv == std::vector<std::string>{"netperf", "-H",     "10.0.0.2",   "-p",
                                                  "41000",   "-t",     "UDP_STREAM", "-l",
                                                  "10",      "-c",     "-C",         "-i",
                                                  "5,3",     "-I",     "95,5",       "--",
                                                  "-P",      ",41001", "-m",         "1024,1024"});
  CHECK(steps[0].timeout == std::chrono::seconds(10 * 5 + 60));

  auto rr = point("TCP_RR", 64);
  rr.values["latency"] = true;
  rr.values["confidence"] = std::int64_t{99};
  rr.values["confidence_width"] = 2.5;
  steps = netperf().iteration_steps(rr, ctx);
  CHECK(steps[0].argv ==
        std::vector<std::string>{
            "netperf",
            "-H",
            "10.0.0.2",
            "-p",
            "41000",
            "-t",
            "TCP_RR",
            "-l",
            "10",
            "-i",
            "10,3",
            "-I",
            "99,2.5",
            "--",
            "-P",
            ",41001",
            "-r",
            "64,64",
            "-O",
            std::string(Netperf::kLatencySelectors) +
                ",CONFIDENCE_LEVEL,CONFIDENCE_INTERVAL,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,"
                "LOCAL_CPU_CONFID,REMOTE_CPU_CONFID"});
  // Streams have no transactions to time; netperf's own sizes without
  // message_size; no data port outside a run (--dry-run, preflight).
  auto plain = point("TCP_STREAM");
  plain.values["latency"] = true;
  CHECK(netperf().iteration_steps(plain, StepContext{.port = 5})[0].argv ==
        std::vector<std::string>{"netperf", "-H", "127.0.0.1", "-p", "5", "-t", "TCP_STREAM", "-l",
                                 "10"});
  CHECK(netperf().row_label(plain) == "default");
  CHECK(netperf().row_label(point("TCP_STREAM", 64)) == "64");
  CHECK(netperf().block_label(plain) == "netperf-TCP_STREAM");
  CHECK(netperf().ports() == 2);
  CHECK(netperf().primary_metric(point("TCP_CRR")).name == "transactions");
  CHECK(netperf().primary_metric(point("UDP_STREAM")).name == "throughput");
}

TEST_CASE("netperf refuses confidence settings netperf would change behind the user's back") {
  auto p = point("TCP_STREAM");
  CHECK(netperf().check_fixed(p).empty());
  p.values["confidence"] = std::int64_t{90};
  CHECK(netperf().check_fixed(p) ==
        "confidence 90: netperf takes a level of 95 or 99 (or 0: no interval)");
  p.values["confidence"] = std::int64_t{95};
  p.values["confidence_min"] = std::int64_t{12};
  CHECK_THAT(netperf().check_fixed(p),
             Catch::StartsWith("confidence_min 12 is above confidence_max 10"));
  p.values["confidence_min"] = std::int64_t{3};
  p.values["confidence_width"] = 0.0;
  CHECK_THAT(netperf().check_fixed(p), Catch::StartsWith("confidence_width 0:"));
  // -i's bounds are the rows' (netperf clamps to 3..30).
  CHECK(netperf().find_param("confidence_max")->min == 3);
  CHECK(netperf().find_param("confidence_max")->max == 30);
}

TEST_CASE(
    "netperf exits 255 when no netserver answers: its own step, run for real, fails and says why") {
  LocalHost local;
  if (!local.find_program("netperf"))
    SCHEDLAB_SKIP(
        "netperf is not installed (Debian non-free package netperf: scripts/install-deps.sh)");
  const int port = local.free_port();  // nothing listens there
  auto p = point("TCP_STREAM");
  p.values["duration"] = std::chrono::milliseconds(1000);
  const auto ran = schedlab::test::exec_step(netperf().iteration_steps(
      p, StepContext{.sut_address = "127.0.0.1", .port = port, .ports = {port, port + 1}})[0]);
  CHECK(ran.rc == 255);
  CHECK_THROWS_WITH(netperf().parse(p, ran.out, ran.err),
                    Catch::StartsWith(fmt::format(
                        "line 1: no netserver answered: establish control: are you sure "
                        "there is a netserver listening on 127.0.0.1 at port {}?",
                        port)));
}

TEST_CASE("netperf states its test, message size, columns and confidence; never the duration") {
  const Point none = test::unknown_point(netperf());
  const std::map<std::string, std::vector<std::string>> expected = {
      {"tcp_stream-l3.txt",
       {"test=TCP_STREAM", "confidence=0", "message_size=16384", "cpu_util=false"}},
      {"udp_stream-l3-i5-I95.txt",
       {"test=UDP_STREAM", "confidence=95", "confidence_width=5", "message_size=65507",
        "cpu_util=false"}},
      {"tcp_rr-l3.txt",
       {"test=TCP_RR", "confidence=0", "message_size=1", "cpu_util=false", "latency=false"}},
      {"tcp_rr-l3-cC-r1.txt",
       {"test=TCP_RR", "confidence=0", "message_size=1", "cpu_util=true", "latency=false"}},
      {"tcp_rr-omni-O-latency.txt",
       {"test=TCP_RR", "confidence=0", "latency=true", "cpu_util=false"}},
      {"error-no-netserver.txt", {}},
  };
  int files = 0;
  for (const auto& f : test::fixture_files("netperf")) files += f.extension() != ".md";
  CHECK(files == static_cast<int>(expected.size()));
  for (const auto& [file, stated] : expected) {
    INFO(file);
    const std::string text = test::read_text(test::fixture("netperf/" + file));
    CHECK(netperf().stated_params(none, text, "") == stated);
    // At a point that knows nothing, every result still reads (no check
    // against an unknown test, size or column set).
    if (file.starts_with("error-"))
      CHECK_THROWS_WITH(netperf().parse(none, text, ""), Catch::Contains("no netserver answered"));
    else
      CHECK_FALSE(netperf().parse(none, text, "").empty());
  }
  // A given 0 (netperf's own default size) is not contradicted by the size
  // the row shows.
  CHECK(netperf().stated_params(test::with(none, "message_size", std::int64_t{0}),
                                test::read_text(test::fixture("netperf/tcp_stream-l3.txt")), "") ==
        std::vector<std::string>{"test=TCP_STREAM", "confidence=0", "cpu_util=false"});
  // An unknown size makes the row label "?", never "default".
  CHECK(netperf().row_label(none) == "?");
}

TEST_CASE(
    "netperf -P 0: the result row alone reads when the test is known, which fixes its columns") {
  const Point none = test::unknown_point(netperf());
  const std::string stream = "131072  16384  16384    3.32     1147.88   \n";
  CHECK_THROWS_WITH(
      netperf().parse(none, stream, ""),
      "line 1: a result row without banner or header (netperf -P 0): give the test it "
      "ran (--param test=TCP_STREAM, ...), which fixes its columns");
  const Point tcp_stream = test::with(none, "test", std::string("TCP_STREAM"));
  CHECK(by_metric(netperf().parse(tcp_stream, stream, "")) ==
        std::map<std::string, double>{{"throughput", 1147.88}});
  CHECK_THAT(
      netperf().notes(tcp_stream, stream, "")[0],
      Catch::Contains("no header (-P 0): the throughput is taken in netperf's default unit"));
  CHECK(netperf().stated_params(tcp_stream, stream, "") ==
        std::vector<std::string>{"message_size=16384", "cpu_util=false"});
  // RR: the row and the remote socket sizes.
  const std::string rr = "16384  131072 1        1       3.01     5578.23   \n16384  131072\n";
  CHECK(by_metric(netperf().parse(test::with(none, "test", std::string("TCP_RR")), rr, "")) ==
        std::map<std::string, double>{{"transactions", 5578.23}});
  // The wrong test's columns, and text that is no row.
  CHECK_THROWS_WITH(
      netperf().parse(test::with(none, "test", std::string("TCP_RR")), stream, ""),
      Catch::StartsWith("line 1: a TCP_RR result row has 6 (10 with -c -C) numbers, this one 5"));
  CHECK_THROWS_WITH(netperf().parse(tcp_stream, "hello\n" + stream, ""),
                    Catch::StartsWith("no netperf test banner"));
}

TEST_CASE("netperf refuses latencies out of their histogram's order (hostile14), naming the line") {
  // The fixture's row: minimum 14, P50 15, P90 17, P99 400, maximum 174252.
  const std::string real = test::read_text(test::fixture("netperf/tcp_rr-omni-O-latency.txt"));
  auto p = point("TCP_RR");
  p.values["latency"] = true;
  CHECK(by_metric(netperf().parse(p, real, "")).at("latency_p99") == 400);
  // hostile14: a P50 above the P90 was read (the columns stay aligned).
  std::string p50 = real;
  p50.replace(p50.find("15           17"), 2, "99");
  CHECK_THROWS_WITH(netperf().parse(p, p50, ""),
                    "line 6: 90th Percentile 17 is below 50th Percentile 99: netperf's latencies "
                    "come from one histogram and never decrease in that order");
  // A maximum below the 99th percentile, and a minimum above the median.
  std::string max = real;
  max.replace(max.find("174252"), 6, "399   ");
  CHECK_THROWS_WITH(netperf().parse(p, max, ""),
                    Catch::Contains("Maximum Latency 399 is below 99th Percentile 400"));
  std::string min = real;
  min.replace(min.find("14 "), 2, "16");
  CHECK_THROWS_WITH(netperf().parse(p, min, ""),
                    Catch::Contains("50th Percentile 15 is below Minimum Latency 16"));
  // hostile16: a mean above the maximum, and one below the minimum.
  std::string high = real;
  high.replace(high.find("63.90   "), 8, "99999999");
  CHECK_THROWS_WITH(netperf().parse(p, high, ""),
                    "line 6: Mean Latency 1e+08 is outside Minimum Latency 14 to Maximum Latency "
                    "174252: a mean lies between them");
  std::string low = real;
  low.replace(low.find("63.90"), 5, "1.000");
  CHECK_THROWS_WITH(netperf().parse(p, low, ""), Catch::Contains("Mean Latency 1 is outside"));
}

TEST_CASE("netperf names a result row value that is not a number (hostile16 wording)") {
  const std::string real = test::read_text(test::fixture("netperf/tcp_rr-omni-O-latency.txt"));
  std::string nan = real;
  nan.replace(nan.find("14863.967"), 9, "nan      ");
  // Was: "no result row after the TCP_RR banner (line 1)".
  CHECK_THROWS_WITH(netperf().parse(point("TCP_RR"), nan, ""),
                    Catch::StartsWith("line 6: a result row with a value that is not a finite "
                                      "number ('nan'): 14           63.90"));
  std::string inf = real;
  inf.replace(inf.find("63.90"), 5, "1e400");
  CHECK_THROWS_WITH(netperf().parse(point("TCP_RR"), inf, ""),
                    Catch::Contains("not a finite number ('1e400')"));
}

TEST_CASE("netperf refuses a figure statistics cannot hold (issue 44), naming the line") {
  const std::string stream = test::read_text(test::fixture("netperf/tcp_stream-l3.txt"));
  std::string huge = stream;
  huge.replace(huge.find("1147.88"), 7, "1e308");
  CHECK_THROWS_WITH(
      netperf().parse(point("TCP_STREAM"), huge, ""),
      "line 7: throughput 1e+308 is past 1e+15, beyond any measurement (statistics would "
      "overflow)");
  // Just past the bound, in plain digits, and a latency column.
  std::string past = stream;
  past.replace(past.find("1147.88"), 7, "1000000000000001");
  CHECK_THROWS_WITH(netperf().parse(point("TCP_STREAM"), past, ""),
                    Catch::Contains("is past 1e+15"));
  std::string latency = test::read_text(test::fixture("netperf/tcp_rr-omni-O-latency.txt"));
  latency.replace(latency.find("63.90 "), 6, "9e200 ");
  auto p = point("TCP_RR");
  p.values["latency"] = true;
  CHECK_THROWS_WITH(netperf().parse(p, latency, ""),
                    Catch::StartsWith("line 6: Mean Latency Microseconds 9e+200 is past 1e+15"));
  // The bound itself still reads.
  std::string at = stream;
  at.replace(at.find("1147.88"), 7, "1e15");
  CHECK(by_metric(netperf().parse(point("TCP_STREAM"), at, "")).at("throughput") == 1e15);
}
