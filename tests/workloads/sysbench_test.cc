#include "workloads/sysbench.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::metric_values;
using schedlab::test::read_text;
using std::chrono::milliseconds;

namespace {

Point sysbench_point(const std::string& test = "oltp_read_write", std::int64_t threads = 2) {
  static const Sysbench sb;
  Point p = default_point(sb);
  p.values["test"] = test;
  p.values["threads"] = threads;
  return p;
}

double one(const std::vector<Sample>& samples, const std::string& metric) {
  const auto v = metric_values(samples, metric);
  REQUIRE(v.size() == 1);
  return v[0];
}

const StepContext kCtx{
    .workdir = "/w", .sut_address = "10.0.0.2", .port = 3401, .secret = "abc123"};

}  // namespace

TEST_CASE("sysbench parses the summary and the per-second reports of real output") {
  Sysbench sb;
  const auto s = sb.parse(sysbench_point("oltp_read_write", 2), test::own_fixture("sysbench/oltp_read_write-2thr-tcp.txt"), "");
  CHECK(one(s, "tps") == 106.97);
  CHECK(one(s, "qps") == 2139.41);
  CHECK(one(s, "latency") == 18.62);
  CHECK(one(s, "latency_p95") == 53.85);
  CHECK(one(s, "errors") == 0);
  CHECK(one(s, "reconnects") == 0);
  CHECK(metric_values(s, "interval_tps") == std::vector<double>{146.10, 81.27, 71.66, 127.08});
  CHECK(metric_values(s, "interval_qps") == std::vector<double>{2941.84, 1637.39, 1413.00, 2567.28});
  CHECK(metric_values(s, "interval_latency_p95") == std::vector<double>{43.39, 57.87, 71.83, 40.37});
  // Four one-second reports: their transactions are the summary's, give or
  // take the partial second sysbench counts after the last report.
  const auto it = metric_values(s, "interval_tps");
  CHECK(std::accumulate(it.begin(), it.end(), 0.0) == Approx(431).margin(10));
  CHECK(sb.judge(sysbench_point(), s).empty());
}

TEST_CASE("sysbench parses every test of the fixtures and checks the thread count") {
  Sysbench sb;
  struct Case {
    const char* file;
    const char* test;
    std::int64_t threads;
  };
  for (const Case& c : {Case{"oltp_read_only-4thr-tcp.txt", "oltp_read_only", 4},
                        Case{"oltp_point_select-2thr-socket.txt", "oltp_point_select", 2},
                        Case{"oltp_write_only-8thr-tcp.txt", "oltp_write_only", 8}}) {
    INFO(c.file);
    const std::string text = test::own_fixture(std::string("sysbench/") + c.file);
    const auto s = sb.parse(sysbench_point(c.test, c.threads), text, "");
    CHECK(one(s, "tps") > 0);
    CHECK(one(s, "qps") >= one(s, "tps"));
    CHECK(one(s, "latency_p95") >= one(s, "latency"));
    CHECK(metric_values(s, "interval_tps").size() == 3);
    CHECK_THROWS_WITH(
        sb.parse(sysbench_point(c.test, c.threads + 1), text, ""),
        Catch::Contains(fmt::format("ran {} threads, expected {}", c.threads, c.threads + 1)));
  }
}

TEST_CASE("sysbench: errors fail the iteration unless allowed; connection failures name the line") {
  Sysbench sb;
  auto p = sysbench_point("oltp_read_write", 16);
  const auto s = sb.parse(p, test::own_fixture("sysbench/oltp_read_write-16thr-ignored-errors.txt"), "");
  CHECK(one(s, "errors") == 351);
  CHECK(sb.judge(p, s) == "sysbench counted 351 errors (allow_errors: true accepts them)");
  p.values["allow_errors"] = true;
  CHECK(sb.judge(p, s).empty());
  CHECK_THROWS_WITH(
      sb.parse(sysbench_point("oltp_read_write", 1), test::own_fixture("sysbench/oltp_read_write-bad-password.txt"), ""),
      Catch::Contains("line 10: tool error: FATAL: unable to connect"));
  CHECK_THROWS_WITH(
      sb.parse(sysbench_point("oltp_read_write", 1), test::own_fixture("sysbench/oltp_read_write-no-server.txt"), ""),
      Catch::Contains("FATAL: unable to connect to MySQL server on host '127.0.0.1', port 3398"));
  CHECK_THROWS_WITH(sb.parse(sysbench_point(), "sysbench 1.0.20\n", ""),
                    "no 'transactions: N (X per sec.)' line in the output");
  CHECK_THROWS_WITH(sb.parse(sysbench_point(), "[ 1s ] thds: 2 tps: lots\n", ""),
                    Catch::StartsWith("line 1: unrecognised report line"));
}

TEST_CASE("sysbench warm-up seconds are left out of the interval samples") {
  Sysbench sb;
  auto p = sysbench_point("oltp_read_write", 2);
  p.values["warmup"] = milliseconds(2000);
  const auto s = sb.parse(p, test::own_fixture("sysbench/oltp_read_write-2thr-tcp.txt"), "");
  CHECK(metric_values(s, "interval_tps") == std::vector<double>{71.66, 127.08});
  CHECK(one(s, "tps") == 106.97);
}

TEST_CASE("sysbench steps: a throw-away MariaDB in the work directory, server per point") {
  Sysbench sb;
  auto p = sysbench_point("oltp_point_select", 4);
  p.values["tables"] = std::int64_t{3};
  p.values["table_size"] = std::int64_t{5000};
  StepContext ctx = kCtx;
  ctx.sut_root = true;
  const auto setup = sb.setup_steps(p, ctx);
  std::vector<std::string> progs;
  for (const auto& s : setup) {
    progs.push_back(s.argv[0]);
    CHECK(s.cwd == "/w");  // never the directory schedlab was started from
    CHECK(s.role == Role::kSut);
    CHECK_FALSE(s.measured);
  }
  CHECK(progs == std::vector<std::string>{"chmod", "install", "mariadb-install-db",
                                          "start-stop-daemon", "mariadb-admin", "mariadb",
                                          "sysbench", "mariadb-admin"});
  CHECK(setup[1].argv == std::vector<std::string>{"install", "-d", "-m", "0700", "-o", "mysql",
                                                  "/w/sysbench-mariadb"});
  CHECK(setup[2].argv.back() == "--user=mysql");
  CHECK_THAT(setup[5].stdin_data,
             Catch::Contains("CREATE DATABASE IF NOT EXISTS `sbtest`;") &&
                 Catch::Contains("'sbtest'@'%' IDENTIFIED BY 'abc123'") &&
                 Catch::Contains("'sbtest'@'localhost' IDENTIFIED BY 'abc123'"));
  CHECK(setup[6].argv == std::vector<std::string>{
                             "sysbench", "oltp_read_write", "--db-driver=mysql",
                             "--mysql-user=sbtest", "--mysql-password=abc123", "--mysql-db=sbtest",
                             "--mysql-socket=/w/sysbench-mariadb/mariadbd.sock", "--tables=3",
                             "--table-size=5000", "--threads=3", "prepare"});
  CHECK_FALSE(setup[7].ignore_failure);
  const auto server = sb.point_setup_steps(p, ctx);
  REQUIRE(server.size() == 1);
  CHECK(server[0].background);
  CHECK(server[0].argv[0] == "/usr/sbin/mariadbd");
  CHECK(server[0].argv.back() == "--user=mysql");
  CHECK_THAT(
      fmt::format("{}", fmt::join(server[0].argv, " ")),
      Catch::Contains("--port=3401") && Catch::Contains("--datadir=/w/sysbench-mariadb/data"));
  REQUIRE(server[0].ready);
  CHECK(server[0].ready->argv.back() == "ping");

  const auto run = sb.iteration_steps(p, ctx);
  REQUIRE(run.size() == 1);
  CHECK(run[0].role == Role::kSut);
  CHECK(run[0].measured);
  CHECK(run[0].argv[1] == "oltp_point_select");
  CHECK_THAT(
      fmt::format("{}", fmt::join(run[0].argv, " ")),
      Catch::EndsWith("--threads=4 --time=60 --events=0 --report-interval=1 --percentile=95 run"));
  CHECK(run[0].timeout == std::chrono::seconds(180));

  p.values["client"] = std::string("loadgen");
  const auto remote = sb.iteration_steps(p, ctx)[0];
  CHECK(remote.role == Role::kLoadgen);
  CHECK_THAT(fmt::format("{}", fmt::join(remote.argv, " ")),
             Catch::Contains("--mysql-host=10.0.0.2 --mysql-port=3401") &&
                 !Catch::Contains("--mysql-socket"));

  const auto down = sb.teardown_steps(p, ctx);
  REQUIRE(down.size() == 2);
  CHECK(down[0].ignore_failure);
  CHECK(down[1].argv == std::vector<std::string>{"rm", "-rf", "--", "/w/sysbench-mariadb"});
  p.values["keep"] = true;
  CHECK(sb.teardown_steps(p, ctx).size() == 1);
  CHECK(sb.keeps_workdir(p));
  p.values["keep"] = false;
  CHECK_FALSE(sb.keeps_workdir(p));

  ctx.sut_root = false;
  const auto user = sb.setup_steps(p, ctx);
  CHECK(user[0].argv ==
        std::vector<std::string>{"mkdir", "-p", "-m", "0700", "/w/sysbench-mariadb"});
  CHECK(user[1].argv.back() == "--auth-root-authentication-method=socket");
  ctx.secret = "x'; DROP";
  CHECK_THROWS_AS(sb.setup_steps(p, ctx), std::invalid_argument);
}
