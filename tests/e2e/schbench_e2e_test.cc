// schbench through the schedlab binary. schbench is not packaged in Debian,
// so the runs use its TEST DOUBLE (tests/support/fake_schbench/schbench:
// schbench's options and exact output format, made-up numbers) given as
// `path:`, as a user gives a schbench built from source. What a missing
// schbench says is checked against the real PATH.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "runner/hosts/local_host.h"
#include "tests/support/config_run.h"
#include "tests/support/one_line.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

const std::string kDouble =
    std::string(SCHEDLAB_SOURCE_DIR) + "/tests/support/fake_schbench/schbench";

}  // namespace

TEST_CASE(
    "schbench (test double): a row per worker count, the final report's numbers, intervals kept",
    "[heavy]") {
  test::TempDir dir;
  const auto [cfg, db, run, its] = test::run_config(
      dir, "sb",
      "iterations: 2\nworkloads:\n  - schbench: {threads: [1, 4], runtime: 2s, interval: 1s, "
      "intervals: true, path: " +
          kDouble + "}\n",
      120s);
  REQUIRE(its.size() == 4);
  LocalHost local;
  for (const auto& it : its) {
    INFO(it.error);
    CHECK(to_string(it.status) == "ok");
    CHECK(it.stdout_text.empty());  // schbench reports on stderr
    CHECK(it.stderr_text.find("average rps:") != std::string::npos);
    int intervals = 0;
    for (const auto& s : it.samples) intervals += s.metric == "interval_rps";
    CHECK(intervals == 2);  // at 1 s and 2 s
  }
  const auto json =
      local.run({.argv = {SCHEDLAB_BINARY, "compare", "sb", "--db", db, "--format", "json"}});
  REQUIRE(json.ok());
  bool seen = false;
  const auto doc = nlohmann::json::parse(json.out);  // outlives the loop over its blocks
  for (const auto& block : doc["blocks"]) {
    if (block["metric"]["name"] != "wakeup_p99") continue;
    seen = true;
    CHECK(block["block"] == "schbench");
    REQUIRE(block["rows"].size() == 2);
    CHECK(block["rows"][0]["label"] == "1");
    // The double's p99 is 40 us per worker: 40 and 160, every iteration.
    CHECK(block["rows"][0]["cells"][0]["centre"] == 40.0);
    CHECK(block["rows"][1]["cells"][0]["centre"] == 160.0);
    CHECK(block["metric"]["direction"] == "lower");
  }
  CHECK(seen);
  const auto text = local.run({.argv = {SCHEDLAB_BINARY, "compare", "sb", "--db", db}});
  CHECK(text.out.find("schbench (wakeup_p99 in us, lower is better)") != std::string::npos);
}

TEST_CASE(
    "schbench missing: the run stops before anything runs and says where schbench comes from") {
  test::TempDir dir;
  const std::string cfg = dir.file("sb.yaml"), db = dir.file("sb.db");
  test::write_text(
      cfg, "workloads:\n  - schbench: {threads: [1], runtime: 1s, path: /nonexistent/schbench}\n");
  LocalHost local;
  const auto r = local.run({.argv = {SCHEDLAB_BINARY, "run", cfg, "--db", db}, .timeout = 60s});
  CHECK(r.exit_code == 1);
  CHECK(
      test::one_line(r.err) ==
      test::one_line(
          "schedlab: schbench: '/nonexistent/schbench' is not installed on local (not packaged in "
          "Debian: build "
          "schbench from git.kernel.org/pub/scm/linux/kernel/git/mason/schbench.git (one C file, "
          "make) and put it on "
          "PATH or give its path (see workloads/README.md))\n"));
  // A warm-up schbench would ignore is refused by config validation.
  test::write_text(cfg, "workloads:\n  - schbench: {threads: [1], runtime: 10s, warmup: 5s}\n");
  const auto bad = local.run({.argv = {SCHEDLAB_BINARY, "run", cfg, "--db", db}, .timeout = 60s});
  CHECK(bad.exit_code == 2);
  CHECK(test::one_line(bad.err).find(test::one_line(
            "warmup 5s with runtime 10s: schbench ignores -w when the runtime is under 30 s")) !=
        std::string::npos);
}

TEST_CASE("schbench parse: a final rate of 1e308 is refused as that rate, by its line") {
  // The ninth hostile pass: "average rps: 1e308" was read as commentary and
  // refused as a truncated report.
  test::TempDir dir;
  std::string text = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.txt"));
  const std::string rate = "average rps: 123.20";
  REQUIRE(text.find(rate) != std::string::npos);
  text.replace(text.find(rate), rate.size(), "average rps: 1e308");
  const std::string out = dir.file("schbench.txt");
  test::write_text(out, text);
  LocalHost local;
  const auto r = local.run({.argv = {SCHEDLAB_BINARY, "parse", "schbench", out}, .timeout = 30s});
  CHECK(r.exit_code == 3);
  CHECK(test::one_line(r.err).find(
            "schbench output did not parse: line 37: average rps 1e+308 is past 1e+15, beyond any "
            "measurement (statistics would overflow)") != std::string::npos);
  CHECK(r.err.find("truncated") == std::string::npos);
}
