// schedlab parse and import on the real fixture outputs; schedlab workloads.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "results/store.h"
#include "runner/config/workload_help.h"
#include "runner/hosts/local_host.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {
using test::schedlab_cmd;
std::string fx(const std::string& p) { return test::fixture(p).string(); }
}  // namespace

TEST_CASE("parse prints the samples of saved outputs") {
  const auto r = schedlab_cmd({"parse", "hackbench", fx("hackbench/process-pipes-g2-l200.run1.txt"),
                               "--param", "groups=2", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.ok());
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j[0]["samples"][0]["metric"] == "time");
  CHECK(j[0]["samples"][0]["value"] == 0.066);
}

TEST_CASE("parse names the file and the line that did not match") {
  const auto r = schedlab_cmd({"parse", "hackbench", fx("hackbench/error-g0.txt")});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("error-g0.txt: hackbench output did not parse: tool error: hackbench: --groups|-g requires an integer > 0") != std::string::npos);
  const auto bad = schedlab_cmd({"parse", "hackbench", fx("hackbench/error-g0.txt"), "--param", "grups=2"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "schedlab parse: --param grups=2: hackbench has no parameter 'grups' (did you mean 'groups'?)\n");
}

TEST_CASE("import records saved outputs as a run that compare can show") {
  test::TempDir dir;
  const std::string db = dir.file("imp.db");
  std::vector<std::string> args = {"import", "hackbench", "--name", "elsewhere", "--db", db,
                                   "--param", "modes=thread-pipes", "--param", "groups=2"};
  for (int i = 1; i <= 3; ++i) args.push_back("base=" + fx("hackbench/thread-pipes-g2-l200.run" + std::to_string(i) + ".txt"));
  for (int i = 1; i <= 3; ++i) args.push_back("other=" + fx("hackbench/thread-pipes-g2-l200.run" + std::to_string(i) + ".txt"));
  const auto r = schedlab_cmd(args);
  INFO(r.err);
  REQUIRE(r.ok());
  Store store(db);
  const auto run = store.find_run_by_name("elsewhere");
  REQUIRE(run);
  CHECK(store.iterations(run->id, true).size() == 6);
  const auto cmp = schedlab_cmd({"compare", "elsewhere", "--db", db, "--format", "json"});
  REQUIRE(cmp.ok());
  const auto j = nlohmann::json::parse(cmp.out);
  CHECK(j["columns"][1]["variant"] == "other");
  CHECK(j["blocks"][0]["block"] == "hackbench-thread-pipes");
  CHECK(j["blocks"][0]["rows"][0]["cells"][1]["n"] == 3);
  CHECK(j["blocks"][0]["rows"][0]["cells"][1]["pct"] == 0.0);
}

TEST_CASE("schedlab workloads prints the spec rows in each format, and an unknown name exits 2") {
  const auto md = schedlab_cmd({"workloads", "--format", "markdown"});
  REQUIRE(md.ok());
  CHECK(md.out == workloads_markdown(all_workloads()));
  const auto text = schedlab_cmd({"workloads", "hackbench"});
  REQUIRE(text.ok());
  CHECK(text.out == workloads_text({find_workload("hackbench")}));
  CHECK(text.out.find(
            "    groups: int (groups); default 1; at least 1; a list: one row per value\n") !=
        std::string::npos);
  const auto json = schedlab_cmd({"workloads", "tbench", "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["name"] == "tbench");
  CHECK(j[0]["metrics"][0]["name"] == "throughput");
  CHECK(j[0]["metrics"][0]["direction"] == "higher");
  const auto bad = schedlab_cmd({"workloads", "hackbenc"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "schedlab workloads: unknown workload 'hackbenc'\n");
  CHECK(bad.out.empty());
}

// Many sweep points in one run: each file's parameters from its name
// (hackbench's real outputs at 2 and 4 groups), rows in natural order
// whatever order the files come in.
TEST_CASE("import --param-from-name: one run, a row per point named in the file names") {
  test::TempDir dir;
  const std::string db = dir.file("points.db");
  const std::string pattern = "(?<modes>[a-z]+-[a-z]+)-g(?<groups>[0-9]+)-l(?<loops>[0-9]+)";
  std::vector<std::string> args = {"import", "hackbench", "--name", "points", "--db", db, "--param-from-name", pattern,
                                   "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")};
  for (int i = 1; i <= 3; ++i) args.push_back("base=" + fx("hackbench/thread-pipes-g2-l200.run" + std::to_string(i) + ".txt"));
  const auto r = schedlab_cmd(args);
  INFO(r.err);
  REQUIRE(r.ok());
  const auto cmp = schedlab_cmd({"compare", "points", "--db", db, "--format", "json"});
  REQUIRE(cmp.ok());
  const auto j = nlohmann::json::parse(cmp.out);
  const auto& rows = j["blocks"][0]["rows"];
  CHECK(j["blocks"][0]["block"] == "hackbench-thread-pipes");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["label"] == "2");
  CHECK(rows[0]["cells"][0]["n"] == 3);
  CHECK(rows[1]["label"] == "4");
  CHECK(rows[1]["cells"][0]["n"] == 1);
  Store store(db);
  const auto run = store.find_run_by_name("points");
  REQUIRE(run);
  const auto its = store.iterations(run->id);
  REQUIRE(its.size() == 4);
  CHECK(nlohmann::json::parse(its[0].params_json)["loops"] == "1000");
  CHECK(its[3].iteration == 2);  // the third at groups=2

  // Bad patterns and names are errors before anything is stored.
  const auto no_group = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param-from-name", "g[0-9]+",
                                      "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(no_group.exit_code == 2);
  CHECK(no_group.err.find("has no named group: write (?<NAME>...)") != std::string::npos);
  const auto no_match = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param-from-name",
                                      "-g(?<groups>[0-9]+)-x", "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(no_match.exit_code == 2);
  CHECK(no_match.err.find("its name 'thread-pipes-g4-l1000.txt' does not match --param-from-name") != std::string::npos);
  const auto twice = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param", "groups=2",
                                   "--param-from-name", "-g(?<groups>[0-9]+)", "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("parameter 'groups' is given by --param and by --param-from-name") != std::string::npos);
  const auto bad_re = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param-from-name", "(?<groups>[0-9+",
                                    "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(bad_re.exit_code == 2);
  CHECK(bad_re.err.find("--param-from-name '(?<groups>[0-9+': ") != std::string::npos);
  CHECK_FALSE(store.find_run_by_name("x"));
}
