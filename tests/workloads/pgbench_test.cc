#include "workloads/pgbench.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <thread>

#include "tests/support/samples.h"
#include "tests/support/temp_dir.h"
#include "tests/workloads/step_exec.h"

using namespace schedlab;
using schedlab::test::metric_values;
using schedlab::test::fixture;
using schedlab::test::fixture_files;
using schedlab::test::read_text;
using std::chrono::milliseconds;

namespace {

Point pgbench_point(std::int64_t clients = 2) {
  static const Pgbench pg;
  Point p = default_point(pg);
  p.values["clients"] = clients;
  return p;
}

std::vector<double> offsets(const std::vector<Sample>& samples, const std::string& metric) {
  std::vector<double> v;
  for (const auto& s : samples)
    if (s.metric == metric) v.push_back(s.offset_s.value_or(-1));
  return v;
}

}  // namespace

TEST_CASE("pgbench parses every run fixture and refuses init output, errors and data files") {
  Pgbench pg;
  int parsed = 0, refused = 0;
  for (const auto& file : fixture_files("pgbench")) {
    const std::string name = file.filename().string();
    INFO(name);
    if (name.find(".run3.std") != std::string::npos) continue;  // the split pair, below
    const std::string text = read_text(file);
    if (name.starts_with("error-") || name.starts_with("init-") || !name.ends_with(".txt")) {
      CHECK_THROWS_AS(pg.parse(pgbench_point(), text, ""), ParseError);
      ++refused;
      continue;
    }
    const auto samples = pg.parse(pgbench_point(), text, "");
    REQUIRE(metric_values(samples, "tps").size() == 1);
    CHECK(metric_values(samples, "tps")[0] > 0);
    CHECK(metric_values(samples, "latency").size() == 1);
    ++parsed;
  }
  CHECK(parsed == 10);
  CHECK(refused == 5);  // 2 errors, 2 inits, custom-script.sql
}

TEST_CASE("pgbench reads stdout and stderr captured apart") {
  Pgbench pg;
  const auto samples =
      pg.parse(pgbench_point(), read_text(fixture("pgbench/select-only-c2-j2-T5.run3.stdout.txt")),
               read_text(fixture("pgbench/select-only-c2-j2-T5.run3.stderr.txt")));
  CHECK(metric_values(samples, "tps") == std::vector<double>{82329.574193});
  CHECK(metric_values(samples, "latency") == std::vector<double>{0.024});
}

TEST_CASE("pgbench progress lines are interval samples, minus the warm-up") {
  Pgbench pg;
  const std::string text = read_text(fixture("pgbench/select-only-c2-j2-T5-P1.txt"));
  auto p = pgbench_point();
  auto samples = pg.parse(p, text, "");
  CHECK(metric_values(samples, "tps") == std::vector<double>{87282.689690});
  CHECK(metric_values(samples, "interval_tps") ==
        std::vector<double>{99818.8, 102821.9, 106094.7, 79177.6});
  CHECK(offsets(samples, "interval_tps") == std::vector<double>{1, 2, 3, 4});
  CHECK(metric_values(samples, "interval_latency") == std::vector<double>{0.020, 0.019, 0.019, 0.025});
  p.values["warmup"] = milliseconds(2000);
  samples = pg.parse(p, text, "");
  CHECK(metric_values(samples, "interval_tps") == std::vector<double>{106094.7, 79177.6});
  CHECK(pg.find_metric("interval_tps")->kind == SampleKind::kInterval);
  CHECK(pg.find_metric("tps")->kind == SampleKind::kRun);
  // --progress-timestamp: epoch seconds become offsets from the start.
  const auto stamped = pg.parse(
      pgbench_point(),
      read_text(fixture("pgbench/select-only-prepared-c2-j2-T5-P1-progress-timestamp.txt")), "");
  const auto o = offsets(stamped, "interval_tps");
  REQUIRE(o.size() == 5);
  CHECK(o[0] == Approx(1.0));
  CHECK(o[4] == Approx(5.001));
  // hostile7: a time that goes back (a stepped clock, an edited log) fell
  // below the warm-up and its samples were dropped unsaid (1 of 5 kept).
  std::string back =
      read_text(fixture("pgbench/select-only-prepared-c2-j2-T5-P1-progress-timestamp.txt"));
  back.replace(back.find("1795974183.517"), 14, "1795974180.517");
  CHECK_THROWS_WITH(
      pg.parse(pgbench_point(), back, ""),
      Catch::StartsWith("line 5: progress time 1795974180.517 s is not after the line "
                        "before's (1795974182.517 s): progress: 1795974180.517 s"));
}

TEST_CASE(
    "pgbench refuses a progress line whose figure is no measurement, naming the line "
    "(hostile16)") {
  Pgbench pg;
  const std::string text = read_text(fixture("pgbench/select-only-c2-j2-T5-P1.txt"));
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    REQUIRE(t.find(from) != std::string::npos);
    return t.replace(t.find(from), from.size(), to);
  };
  // Each was a line skipped unsaid: a gap in the interval series.
  CHECK_THROWS_WITH(pg.parse(pgbench_point(), edited("102821.9 tps", "nan tps"), ""),
                    "line 4: progress tps 'nan' is not a number: progress: 2.0 s, nan tps, lat "
                    "0.019 ms stddev 0.024, 0 failed");
  CHECK_THROWS_WITH(pg.parse(pgbench_point(), edited("102821.9 tps", "1e200 tps"), ""),
                    Catch::StartsWith("line 4: progress tps 1e+200 is past 1e+15"));
  CHECK_THROWS_WITH(pg.parse(pgbench_point(), edited("progress: 3.0 s", "progress: -5.0 s"), ""),
                    "line 5: progress time -5 is negative: no measurement");
  CHECK_THROWS_WITH(pg.parse(pgbench_point(), edited("lat 0.025 ms", "lat 1e99 ms"), ""),
                    Catch::StartsWith("line 6: progress latency 1e+99 is past 1e+15"));
  // A latency of NaN (an interval without a transaction) is no latency
  // sample, its rate still one.
  const auto samples =
      pg.parse(pgbench_point(), edited("lat 0.019 ms stddev 0.024", "lat NaN ms stddev NaN"), "");
  CHECK(metric_values(samples, "interval_tps").size() == 4);
  CHECK(metric_values(samples, "interval_latency") == std::vector<double>{0.020, 0.019, 0.025});
}

TEST_CASE("pgbench errors name the tool's message and the line") {
  Pgbench pg;
  CHECK_THROWS_WITH(
      pg.parse(pgbench_point(), read_text(fixture("pgbench/error-no-database.txt")), ""),
      Catch::StartsWith("line 1: tool error: pgbench: error: connection to server") &&
          Catch::Contains("database \"nosuchdb\" does not exist"));
  // As the runner passes it: the error on stderr, stdout empty.
  CHECK_THROWS_WITH(
      pg.parse(pgbench_point(), "", read_text(fixture("pgbench/error-connection-refused.txt"))),
      Catch::StartsWith("line 1: tool error:"));
  CHECK_THROWS_WITH(pg.parse(pgbench_point(), read_text(fixture("pgbench/init-s1.txt")), ""),
                    "no 'tps = N (without initial connection time)' line in the output");
  CHECK_THROWS_WITH(pg.parse(pgbench_point(4), read_text(fixture("pgbench/select-only-c2-j2-T5.run1.txt")), ""),
                    Catch::Contains("line 6: ran 2 clients, expected 4"));
}

TEST_CASE("pgbench steps as a non-root user: cluster in the work dir, server per point") {
  Pgbench pg;
  auto p = pgbench_point(4);
  p.values["scale"] = std::int64_t{3};
  p.values["duration"] = milliseconds(5000);
  const StepContext ctx{.workdir = "/w", .sut_address = "127.0.0.1", .port = 5499};
  const auto setup = pg.setup_steps(p, ctx);
  std::vector<std::vector<std::string>> argvs;
  for (const auto& s : setup) {
    argvs.push_back(s.argv);
    CHECK_FALSE(s.background);
    CHECK(s.role == Role::kSut);
  }
  REQUIRE(argvs.size() == 7);
  CHECK(argvs[0] == std::vector<std::string>{"mkdir", "-p", "-m", "0700", "/w/pgbench-cluster"});
  CHECK(argvs[1][0] == "/usr/lib/postgresql/15/bin/initdb");
  CHECK(argvs[2] == std::vector<std::string>{"tee", "-a", "/w/pgbench-cluster/data/postgresql.conf"});
  CHECK(setup[2].stdin_data ==
        "# schedlab\nport = 5499\nunix_socket_directories = '/w/pgbench-cluster'\n"
        "listen_addresses = ''\n");
  CHECK(argvs[3] == std::vector<std::string>{"/usr/lib/postgresql/15/bin/pg_ctl", "-D",
                                             "/w/pgbench-cluster/data", "-l",
                                             "/w/pgbench-cluster/server.log", "-w", "-t", "120",
                                             "start"});
  CHECK(argvs[4] == std::vector<std::string>{"createdb", "-h", "/w/pgbench-cluster", "-p", "5499",
                                             "-U", "postgres", "schedlab"});
  CHECK(argvs[5] == std::vector<std::string>{"pgbench", "-i", "-s", "3", "-h",
                                             "/w/pgbench-cluster", "-p", "5499", "-U", "postgres",
                                             "schedlab"});
  CHECK(argvs[6][4] == "fast");
  CHECK_FALSE(setup[6].ignore_failure);

  const auto server = pg.point_setup_steps(p, ctx);
  REQUIRE(server.size() == 1);
  CHECK(server[0].background);
  CHECK(server[0].argv == std::vector<std::string>{"/usr/lib/postgresql/15/bin/postgres", "-D",
                                                   "/w/pgbench-cluster/data"});
  REQUIRE(server[0].ready);
  CHECK(server[0].ready->argv == std::vector<std::string>{"pg_isready", "-q", "-h",
                                                          "/w/pgbench-cluster", "-p", "5499",
                                                          "-U", "postgres"});

  const auto run = pg.iteration_steps(p, ctx);
  REQUIRE(run.size() == 1);
  CHECK(run[0].measured);
  CHECK(run[0].argv == std::vector<std::string>{"pgbench", "-h", "/w/pgbench-cluster", "-p",
                                                "5499", "-U", "postgres", "-b", "select-only",
                                                "-M", "simple", "-c", "4", "-j", "4", "-T", "5",
                                                "-P", "1", "schedlab"});
  CHECK(run[0].timeout == std::chrono::seconds(125));
  p.values["script"] = std::string("/srv/ro.sql");
  p.values["threads"] = std::int64_t{2};
  const auto scripted = pg.iteration_steps(p, ctx)[0].argv;
  CHECK(std::find(scripted.begin(), scripted.end(), "/srv/ro.sql") != scripted.end());
  CHECK(scripted[14] == "2");
  CHECK(pg.block_label(p) == "pgbench-ro");

  CHECK(pg.point_teardown_steps(p, ctx)[0].ignore_failure);
  const auto teardown = pg.teardown_steps(p, ctx);
  REQUIRE(teardown.size() == 2);
  CHECK(teardown[1].argv == std::vector<std::string>{"rm", "-rf", "--", "/w/pgbench-cluster"});
  p.values["keep"] = true;
  CHECK(pg.teardown_steps(p, ctx).size() == 1);
}

TEST_CASE("pgbench as root: PostgreSQL's tools run as the configured user") {
  Pgbench pg;
  auto p = pgbench_point();
  p.values["scale"] = std::int64_t{1};
  const StepContext ctx{.workdir = "/w", .port = 5499, .sut_root = true};
  const auto setup = pg.setup_steps(p, ctx);
  CHECK(setup[0].argv == std::vector<std::string>{"chmod", "o+x", "/w"});
  CHECK(setup[1].argv == std::vector<std::string>{"install", "-d", "-m", "0700", "-o", "postgres",
                                                  "/w/pgbench-cluster"});
  CHECK(std::vector<std::string>(setup[2].argv.begin(), setup[2].argv.begin() + 6) ==
        std::vector<std::string>{"setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--",
                                 "/usr/lib/postgresql/15/bin/initdb"});
  const auto server = pg.point_setup_steps(p, ctx)[0].argv;
  CHECK(server[0] == "setpriv");
  // Clients do not need it.
  CHECK(pg.iteration_steps(p, ctx)[0].argv[0] == "pgbench");
}

TEST_CASE("pgbench scale 0 follows mmtests' memory sizing") {
  Pgbench pg;
  auto p = pgbench_point();
  constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;
  // 24 GiB: shared buffers 4.8 GiB, 80% of that, minus 30 MiB, per 15 MiB.
  CHECK(pgbench_scale_for_memory(24 * kGiB) == (24 * kGiB / 5 * 4 / 5 - 30 * 1048576) / (15 * 1048576));
  CHECK(pgbench_scale_for_memory(64 * 1048576) == 1);
  CHECK(pg.scale(p, StepContext{.sut_mem_bytes = 24 * kGiB}) == 260);
  CHECK_THROWS_WITH(pg.scale(p, StepContext{}), Catch::Contains("set 'scale'"));
  p.values["scale"] = std::int64_t{7};
  CHECK(pg.scale(p, StepContext{}) == 7);
  // shared_buffers 0 = a fifth of memory, like mmtests.
  const auto c =
      pg.server(pgbench_point(), StepContext{.workdir = "/w", .sut_mem_bytes = 10 * kGiB});
  CHECK(c.shared_buffers_mb == 2048);
}

// Hidden ([.real]): the steps against the real PostgreSQL 15, run by hand
// with `workloads_test '[real]'`. The runner's own integration test owns
// this in CI; this one checks the argv alone, without the executor.
// [host]: a real server on a fixed port (tests/CMakeLists.txt: the sanitizer run's lanes).
TEST_CASE("pgbench steps run a real throw-away cluster", "[.real][host]") {
  namespace bp = boost::process;
  Pgbench pg;
  schedlab::test::TempDir work;
  auto p = pgbench_point(2);
  p.values["scale"] = std::int64_t{1};
  p.values["duration"] = milliseconds(3000);
  const StepContext ctx{.workdir = work.path().string(), .port = 5497, .sut_root = ::getuid() == 0};
  for (const auto& s : pg.setup_steps(p, ctx)) {
    INFO(fmt::format("{}", fmt::join(s.argv, " ")));
    const auto ran = schedlab::test::exec_step(s);
    INFO(ran.out << ran.err);
    REQUIRE(ran.rc == 0);
  }
  const Step server = pg.point_setup_steps(p, ctx)[0];
  bp::child srv(bp::search_path(server.argv[0]),
                bp::args(std::vector<std::string>(server.argv.begin() + 1, server.argv.end())),
                bp::std_out > bp::null, bp::std_err > bp::null);
  bool ready = false;
  for (int i = 0; i < 100 && !ready; ++i) {
    ready = schedlab::test::exec_step(Step{.argv = server.ready->argv}).rc == 0;
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(ready);
  const auto ran = schedlab::test::exec_step(pg.iteration_steps(p, ctx)[0]);
  const auto samples = pg.parse(p, ran.out, ran.err);
  CHECK(metric_values(samples, "tps").size() == 1);
  CHECK(metric_values(samples, "interval_tps").size() >= 2);
  for (const auto& s : pg.point_teardown_steps(p, ctx)) schedlab::test::exec_step(s);
  srv.wait();
  for (const auto& s : pg.teardown_steps(p, ctx))
    CHECK((schedlab::test::exec_step(s).rc == 0 || s.ignore_failure));
  CHECK_FALSE(std::filesystem::exists(ctx.workdir + "/pgbench-cluster"));
}
