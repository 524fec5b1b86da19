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
