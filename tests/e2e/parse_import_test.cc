// schedlab parse and import on the real fixture outputs; schedlab workloads.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/text.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/config/command_keys.h"
#include "runner/config/workload_help.h"
#include "runner/hosts/local_host.h"
#include "runner/input/param_values.h"
#include "runner/run/iteration_output.h"
#include "tests/support/one_line.h"
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
  CHECK(test::one_line(r.err).find(
            test::one_line("error-g0.txt: hackbench output did not parse: tool error: hackbench: "
                           "--groups|-g requires an integer > 0")) != std::string::npos);
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
  const auto run = store.runs_table().find_run_by_name("elsewhere");
  REQUIRE(run);
  CHECK(store.iterations_table().iterations(run->id, true).size() == 6);
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
  CHECK(md.out == all_workloads_markdown());
  const auto text = schedlab_cmd({"workloads", "hackbench"});
  REQUIRE(text.ok());
  CHECK(text.out == wrap_words(workloads_text({find_workload("hackbench")})));  // 100 columns
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
  // A typo is named with the nearest name (not only "unknown workload"),
  // the generic workload among those offered.
  const auto bad = schedlab_cmd({"workloads", "hackbnch"});
  CHECK(bad.exit_code == 2);
  CHECK(test::one_line(bad.err) ==
        test::one_line(fmt::format("schedlab workloads: unknown workload 'hackbnch' (did you mean "
                                   "'hackbench'?); known: {}, command\n",
                                   fmt::join(workload_names(), ", "))));
  CHECK(bad.out.empty());
}

TEST_CASE("schedlab workloads command documents the generic workload's keys, from the rows config checks") {
  const auto text = schedlab_cmd({"workloads", "command"});
  INFO(text.err);
  REQUIRE(text.ok());
  CHECK(text.out == wrap_words(command_workload_text()));
  for (const auto& k : kCommandKeys) CHECK(text.out.find(fmt::format("    {}: ", k.key)) != std::string::npos);
  for (const auto& k : kCommandMetricKeys) CHECK(text.out.find(fmt::format("    {}: ", k.key)) != std::string::npos);
  // The full listing ends with it, in every format.
  const auto all = schedlab_cmd({"workloads"});
  REQUIRE(all.ok());
  CHECK(all.out.ends_with(wrap_words(command_workload_text())));
  const auto json = schedlab_cmd({"workloads", "command", "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["name"] == "command");
  CHECK(j[0]["config_keys"].size() == std::size(kCommandKeys));
  // A key the rows do not hold is refused by config validation, with the
  // nearest row's name: the help and the check are one table.
  test::TempDir dir;
  const std::string config = dir.file("c.yaml");
  test::write_text(config,
                   "hosts: {sut: local, loadgen: local}\nworkloads:\n  - command:\n      name: x\n"
                   "      argv: [true]\n      metrcs: {}\nvariants:\n  default: {}\n");
  const auto dry = schedlab_cmd({"run", config, "--dry-run", "--db", dir.file("x.db")});
  CHECK(dry.exit_code == 2);
  CHECK(test::one_line(dry.err).find(
            test::one_line("unknown key 'metrcs' (did you mean 'metrics'?)")) != std::string::npos);
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
  const auto run = store.runs_table().find_run_by_name("points");
  REQUIRE(run);
  const auto its = store.iterations_table().iterations(run->id);
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
  CHECK(test::one_line(no_match.err)
            .find(test::one_line(
                "its name 'thread-pipes-g4-l1000.txt' does not match --param-from-name")) !=
        std::string::npos);
  const auto twice = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param", "groups=2",
                                   "--param-from-name", "-g(?<groups>[0-9]+)", "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("parameter 'groups' is given by --param and by --param-from-name") != std::string::npos);
  const auto bad_re = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", db, "--param-from-name", "(?<groups>[0-9+",
                                    "base=" + fx("hackbench/thread-pipes-g4-l1000.txt")});
  CHECK(bad_re.exit_code == 2);
  CHECK(bad_re.err.find("--param-from-name '(?<groups>[0-9+': ") != std::string::npos);
  CHECK_FALSE(store.runs_table().find_run_by_name("x"));
}

// One judgement for every path: the same saved output
// gets the same status from judge_output (what `run` stores through
// judge_into), from `schedlab parse` and from `schedlab import`: a dmatest
// log counting failures is a failed iteration under import as under run.
TEST_CASE("an output gets the same status under run, parse and import, for every judging workload") {
  struct Case {
    std::string workload;
    std::string file;
    std::vector<std::string> params;
    std::string status;  // as stored
    std::string error;   // part of the stored error
  };
  const std::string sysbench_errors =
      std::string(SCHEDLAB_SOURCE_DIR) + "/tests/fixtures/sysbench/oltp_read_write-16thr-ignored-errors.txt";
  const std::vector<Case> cases = {
      {"hackbench", fx("hackbench/process-pipes-g2-l200.run1.txt"), {"groups=2"}, "ok", ""},
      {"hackbench", fx("hackbench/error-g0.txt"), {}, "parse_error", "hackbench output did not parse"},
      {"dmatest", fx("dmatest/hisi_dma-2024-jiehai-3chan-timeout-failures.dmesg.txt"), {}, "failed",
       "dmatest: dmatest reported 3 failed transfers"},
      {"dmatest", fx("dmatest/sf-pdma-2020-greenwan-4chan.dmesg.txt"), {}, "ok", ""},
      {"sysbench", sysbench_errors, {"threads=16"}, "failed", "sysbench counted 351 errors"},
      {"sysbench", sysbench_errors, {"threads=16", "allow_errors=true"}, "ok", ""},
      {"seccomp-notify", std::string(SCHEDLAB_SOURCE_DIR) + "/fuzz/seeds/seccomp-notify/sync-unsupported.txt",
       {"modes=sync"}, "unsupported", "kernel lacks SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP"},
  };
  test::TempDir dir;
  int n = 0;
  for (const auto& c : cases) {
    INFO(c.workload << " " << c.file << " " << fmt::format("{}", fmt::join(c.params, " ")));
    const Workload* w = find_workload(c.workload);
    REQUIRE(w);
    // run's judgement (executor.cc calls judge_into, which calls this).
    Point p = point_from_overrides(*w, c.params);
    const auto judged = judge_output(*w, p, test::read_text(c.file), "");
    CHECK(std::string(to_string(iteration_status(judged.verdict))) == c.status);
    CHECK_THAT(judged.error, Catch::Contains(c.error));
    std::vector<std::string> params;
    for (const auto& x : c.params) params.insert(params.end(), {"--param", x});
    // parse
    auto args = std::vector<std::string>{"parse", c.workload, c.file, "--format", "json"};
    args.insert(args.end(), params.begin(), params.end());
    const auto parsed = schedlab_cmd(args);
    INFO(parsed.err);
    CHECK(parsed.exit_code == (c.status == "ok" ? 0 : 3));
    const auto j = nlohmann::json::parse(parsed.out);
    CHECK(j[0]["status"] == c.status);
    // import
    const std::string db = dir.file(fmt::format("j{}.db", n++));
    args = {"import", c.workload, "base=" + c.file, "--name", "imp", "--db", db};
    args.insert(args.end(), params.begin(), params.end());
    const auto imported = schedlab_cmd(args);
    INFO(imported.err);
    CHECK(imported.exit_code == (c.status == "ok" ? 0 : 3));
    Store store(db);
    const auto its =
        store.iterations_table().iterations(store.runs_table().find_run_by_name("imp")->id);
    REQUIRE(its.size() == 1);
    CHECK(std::string(to_string(its[0].status)) == c.status);
    CHECK_THAT(its[0].error, Catch::Contains(c.error));
  }
}

// An import is one transaction: killed at any moment it
// leaves a whole run or nothing, and nothing that blocks the same import
// again; names are checked before anything is written; `schedlab rm`
// removes a run; an imported run has nothing to resume.
TEST_CASE("import is all or nothing, checks names first; rm removes a run; an import is not resumed") {
  test::TempDir dir;
  const std::string db = dir.file("atomic.db");
  std::vector<std::string> args = {"import", "hackbench", "--name", "many", "--db", db, "--param", "groups=2"};
  const std::string one = test::read_text(test::fixture("hackbench/process-pipes-g2-l200.run1.txt"));
  for (int i = 0; i < 400; ++i) {
    const std::string f = dir.file(fmt::format("out{}.txt", i));
    test::write_text(f, one);
    args.push_back("base=" + f);
  }
  // kill -9 at a few moments: a finished run or no run, never a part.
  LocalHost local;
  for (int delay_ms : {5, 20, 60, 150}) {
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    std::vector<std::string> argv = {"timeout", "-s", "KILL", fmt::format("{}ms", delay_ms), SCHEDLAB_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    local.run({.argv = argv, .timeout = std::chrono::seconds(60)});
    if (!std::filesystem::exists(db)) continue;
    {
      Store store(db, Store::Access::kReadOnly);
      const auto runs = store.runs_table().list_runs();
      INFO("killed after " << delay_ms << " ms");
      if (!runs.empty()) {
        CHECK(to_string(runs.front().status) == "finished");
        CHECK(store.iterations_table().iterations(runs.front().id).size() == 400);
        continue;
      }
    }
    // Nothing left: the same import goes through.
    const auto again = schedlab_cmd(args);
    INFO(again.err);
    CHECK(again.ok());
  }
  // A name that is not UTF-8 text, or holds a terminal escape: refused
  // before anything is written.
  const std::string fresh = dir.file("names.db");
  for (const std::string& bad : {std::string("run\xff\xfe"), std::string("run\x1b]0;pwned\x07")}) {
    const auto r = schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name", bad, "--db", fresh,
                                 "--param", "groups=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("nothing imported") != std::string::npos);
  }
  CHECK((!std::filesystem::exists(fresh) ||
         Store(fresh, Store::Access::kReadOnly).runs_table().list_runs().empty()));
  // A name of digits would be read as a run's id: refused by import and run.
  for (const std::string digits : {"02", "1"}) {
    const auto r = schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name",
                                 digits, "--db", fresh, "--param", "groups=2"});
    CHECK(r.exit_code == 2);
    CHECK(
        test::one_line(r.err) ==
        test::one_line(
            "schedlab import: run name '" + digits +
            "': it is all digits, which a RUN argument takes for a run's id; nothing imported\n"));
  }
  test::write_text(dir.file("c.yaml"), "workloads: [hackbench]\n");
  const auto run =
      schedlab_cmd({"run", dir.file("c.yaml"), "--name", "02", "--db", fresh, "--dry-run"});
  CHECK(run.exit_code == 2);
  CHECK(test::one_line(run.err) == test::one_line("schedlab run: run name '02': it is all digits, "
                                                  "which a RUN argument takes for a run's id; "
                                                  "give "
                                                  "another --name\n"));
  CHECK((!std::filesystem::exists(fresh) ||
         Store(fresh, Store::Access::kReadOnly).runs_table().list_runs().empty()));
  // rm, then the same name again; an import is not resumed.
  const std::string small = dir.file("small.db");
  REQUIRE(schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name", "imp", "--db", small,
                        "--param", "groups=2"})
              .ok());
  auto resume = schedlab_cmd({"run", "--resume", "imp", "--db", small});
  CHECK(resume.exit_code == 2);
  CHECK(test::one_line(resume.err)
            .find(test::one_line(
                "was imported, not run: there is nothing to resume (schedlab rm 1 removes it)")) !=
        std::string::npos);
  const auto rm = schedlab_cmd({"rm", "imp", "--db", small});
  CHECK(rm.ok());
  CHECK(rm.err == "removed run 1 'imp'\n");
  CHECK(Store(small, Store::Access::kReadOnly).runs_table().list_runs().empty());
  CHECK(schedlab_cmd({"rm", "imp", "--db", small}).exit_code == 2);
  CHECK(schedlab_cmd({"rm", "99999999999999999999", "--db", small}).exit_code == 2);  // no run, not a crash
  CHECK(schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name", "imp", "--db", small,
                      "--param", "groups=2"})
            .ok());
  // A database made elsewhere with run 2 'second' and a run named '02': rm
  // 02 names both and deletes nothing.
  REQUIRE(schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name", "second",
                        "--db", small, "--param", "groups=2"})
              .ok());
  std::int64_t second = 0, named = 0;
  {
    Store store(small);
    second = store.runs_table().find_run_by_name("second")->id;
    named = store.runs_table().create_run({.name = fmt::format("{:02}", second),
                                           .config_path = "(import)",
                                           .config_text = "{}",
                                           .config_sha256 = ""});
  }
  const auto both = schedlab_cmd({"rm", fmt::format("{:02}", second), "--db", small});
  CHECK(both.exit_code == 2);
  CHECK(test::one_line(both.err) ==
        test::one_line(fmt::format(
            "schedlab rm: '{:02}' names two runs in {}: run {} 'second' by its id and run {} by "
            "its name; give the id of the one you mean\n",
            second, small, second, named)));
  CHECK(Store(small, Store::Access::kReadOnly).runs_table().list_runs().size() == 3);
}

// `parse hackbench FILE` needs no --param groups=2 --param loops=200: the
// output states both.
TEST_CASE("parse takes the parameters an output states; only what --param gives is checked against it") {
  const std::string file = fx("hackbench/thread-pipes-g2-l200.run1.txt");
  const auto r = schedlab_cmd({"parse", "hackbench", file, "--format", "json"});
  INFO(r.err);
  REQUIRE(r.ok());
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["status"] == "ok");
  CHECK(j[0]["params"]["groups"] == "2");
  CHECK(j[0]["params"]["loops"] == "200");
  // "threaded mode" says thread, never pipes or sockets: the mode is not
  // stated, and an unknown parameter is null, not the default.
  CHECK(j[0]["params"]["modes"].is_null());
  CHECK(j[0]["params"]["timeout"].is_null());
  CHECK(j[0]["params"]["backend"] == "hackbench");
  CHECK(j[0]["samples"][0]["value"] == 0.055);
  // What the user gives and the output says alike is fine; what it
  // contradicts fails the file, naming both.
  CHECK(schedlab_cmd({"parse", "hackbench", file, "--param", "groups=2"}).ok());
  const auto wrong = schedlab_cmd({"parse", "hackbench", file, "--param", "groups=4"});
  CHECK(wrong.exit_code == 3);
  CHECK(test::one_line(wrong.err).find(test::one_line(
            "the output states groups=2, not --param groups=4")) != std::string::npos);
}

// `import hackbench base=imp/*.txt` as a shell expands it: the files after
// base=FIRST are base's too, not variants.
TEST_CASE("import takes VARIANT=FILE FILE... and --variant NAME FILE... as a shell expands a glob") {
  test::TempDir dir;
  std::vector<std::string> base, other;
  for (int i = 1; i <= 3; ++i) {
    base.push_back(fx("hackbench/thread-pipes-g2-l200.run" + std::to_string(i) + ".txt"));
    other.push_back(fx("hackbench/thread-sockets-g2-l200.run" + std::to_string(i) + ".txt"));
  }
  const auto variants_of = [](const std::string& db, const std::string& name) {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name(name);
    REQUIRE(run);
    std::map<std::int64_t, int> per_variant;
    for (const auto& it : store.iterations_table().iterations(run->id, true))
      ++per_variant[it.variant_id];
    std::vector<int> counts;
    for (const auto& [v, n] : per_variant) counts.push_back(n);
    return counts;
  };
  const std::string db = dir.file("imp.db");
  // VARIANT=FILE then FILEs; VARIANT= then FILEs. The parameters come from
  // the outputs (2 groups, 200 loops, threads over pipes).
  std::vector<std::string> args = {"import", "hackbench", "--name", "globbed", "--db", db, "base=" + base[0], base[1],
                                   base[2], "other=", other[0], other[1], other[2]};
  const auto r = schedlab_cmd(args);
  INFO(r.err);
  REQUIRE(r.ok());
  CHECK(r.err.find("imported run 1 'globbed': 6 files, 0 failed") != std::string::npos);
  CHECK(variants_of(db, "globbed") == std::vector<int>{3, 3});
  // --variant NAME before each variant's files.
  args = {"import", "hackbench", "--name", "flagged", "--db", db, "--variant", "base"};
  args.insert(args.end(), base.begin(), base.end());
  args.insert(args.end(), {"--variant", "other", other[0]});
  const auto f = schedlab_cmd(args);
  INFO(f.err);
  REQUIRE(f.ok());
  CHECK(f.err.find("'flagged': 4 files") != std::string::npos);
  CHECK(variants_of(db, "flagged") == std::vector<int>{3, 1});
  const auto cmp = schedlab_cmd({"compare", "flagged", "--db", db, "--format", "json"});
  REQUIRE(cmp.ok());
  const auto j = nlohmann::json::parse(cmp.out);
  CHECK(j["columns"][0]["variant"] == "base");
  CHECK(j["columns"][1]["variant"] == "other");
  // A file before any variant: which one? Nothing stored.
  const auto bare = schedlab_cmd({"import", "hackbench", "--name", "bare", "--db", db, base[0]});
  CHECK(bare.exit_code == 2);
  CHECK(test::one_line(bare.err).find(test::one_line(
            "which variant? give VARIANT=FILE, or --variant NAME before the files")) !=
        std::string::npos);
  Store store(db);
  CHECK_FALSE(store.runs_table().find_run_by_name("bare"));
  // --variant b whose glob matched nothing (nullglob): an error, never a
  // run with one variant; so is b= with nothing after it.
  for (const std::vector<std::string>& empty :
       {std::vector<std::string>{"--variant", "a", base[0], "--variant", "b"},
        std::vector<std::string>{"--variant", "b", "--variant", "a", base[0]},
        std::vector<std::string>{"a=" + base[0], "b="}}) {
    std::vector<std::string> e = {"import", "hackbench", "--name", "empty", "--db", db};
    e.insert(e.end(), empty.begin(), empty.end());
    const auto r = schedlab_cmd(e);
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "schedlab import: variant 'b' has no files (a glob that matched nothing?); nothing "
          "imported\n");
    CHECK_FALSE(store.runs_table().find_run_by_name("empty"));
  }
}

TEST_CASE(
    "import: a FIFO, a device or a directory given as a file is not a regular file, not a missing "
    "one") {
  test::TempDir dir;
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const auto& [path, kind] :
       std::vector<std::pair<std::string, std::string>>{{fifo, "a FIFO"},
                                                        {"/dev/null", "a character device"},
                                                        {dir.path().string(), "a directory"}}) {
    const auto r = schedlab_cmd(
        {"import", "hackbench", "--name", "x", "--db", dir.file("x.db"), "--variant", "a", path},
        {}, std::chrono::seconds(20));
    CHECK(r.exit_code == 2);
    CHECK(r.err == "schedlab import: " + path + ": not a regular file (" + kind + ")\n");
  }
  const auto missing = schedlab_cmd(
      {"import", "hackbench", "--name", "x", "--db", dir.file("x.db"), "a=" + dir.file("gone")});
  CHECK(missing.err == "schedlab import: " + dir.file("gone") + ": no such file\n");
}

// Issue 43 part 3: every real output of every workload, read by `schedlab
// parse` with no --param: its status, and exactly the parameters it states
// (as the fixture READMEs' commands ran them); every other parameter is
// null (unknown), never its default. Those that say how schedlab reads
// (ParamSpec::reading: pgbench's and sysbench's warmup, allow_errors,
// schbench's intervals) take their default and are left out.
TEST_CASE("parse records what every real fixture states, and null for what none states") {
  struct Expected {
    std::string workload, file, status, stated;
  };
  const std::vector<Expected> expected = {
      {"hackbench", "error-bad-option.txt", "parse_error", ""},
      {"hackbench", "error-g0.txt", "parse_error", ""},
      {"hackbench", "process-inet-g1-l100.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=1 loops=100"},
      {"hackbench", "process-pipes-g2-l200.run1.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "process-pipes-g2-l200.run2.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "process-pipes-g2-l200.run3.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "process-pipes-g4-l1000.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=4 loops=1000"},
      {"hackbench", "process-sockets-g1-l200.run1.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=1 loops=200"},
      {"hackbench", "process-sockets-g1-l200.run2.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=1 loops=200"},
      {"hackbench", "process-sockets-g1-l200.run3.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=1 loops=200"},
      {"hackbench", "process-sockets-g2-f10-s512-l500.txt", "ok", "backend=hackbench datasize=512 fds=10 groups=2 loops=500"},
      {"hackbench", "process-sockets-g4-l2000.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=4 loops=2000"},
      {"hackbench", "process-sockets-g4-l3000.with-proc-snapshots.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=4 loops=3000"},
      {"hackbench", "thread-pipes-g2-l200.run1.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-pipes-g2-l200.run2.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-pipes-g2-l200.run3.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-pipes-g4-l1000.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=4 loops=1000"},
      {"hackbench", "thread-sockets-g2-l200.run1.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-sockets-g2-l200.run2.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-sockets-g2-l200.run3.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=2 loops=200"},
      {"hackbench", "thread-sockets-g4-l1000.txt", "ok", "backend=hackbench datasize=100 fds=20 groups=4 loops=1000"},
      {"tbench", "error-no-server.txt", "parse_error", "duration=3s loadfile="},
      {"tbench", "tbench-t10-4clients.txt", "ok", "clients=4 duration=10s loadfile="},
      {"tbench", "tbench-t5-1client.run1.txt", "ok", "clients=1 duration=5s loadfile="},
      {"tbench", "tbench-t5-1client.run2.txt", "ok", "clients=1 duration=5s loadfile="},
      {"tbench", "tbench-t5-2clients-per-client-results.txt", "ok", "clients=2 duration=5s loadfile="},
      {"tbench", "tbench-t5-2clients.run1.txt", "ok", "clients=2 duration=5s loadfile="},
      {"tbench", "tbench-t5-2clients.run2.txt", "ok", "clients=2 duration=5s loadfile="},
      {"tbench", "tbench-t5-4clients-2perproc.txt", "ok", "clients=4 duration=5s loadfile="},
      {"tbench", "tbench_srv-server-log.txt", "parse_error", ""},
      {"pgbench", "custom-script-c2-j2-T3-r.txt", "ok", "clients=2 duration=3s query_mode=simple scale=1 script=/tmp/pgfix/custom.sql threads=2"},
      {"pgbench", "error-connection-refused.txt", "parse_error", ""},
      {"pgbench", "error-no-database.txt", "parse_error", ""},
      {"pgbench", "init-s1-reinit.txt", "parse_error", ""},
      {"pgbench", "init-s1.txt", "parse_error", ""},
      {"pgbench", "select-only-c2-j2-T5-P1.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5-R500-P1-l.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5-l-aggregate1.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5-r.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5.run1.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5.run2.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-T5.run3.stderr.txt", "parse_error", ""},
      {"pgbench", "select-only-c2-j2-T5.run3.stdout.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-c2-j2-t300-l.txt", "ok", "builtin=select-only clients=2 query_mode=simple scale=1 script= threads=2"},
      {"pgbench", "select-only-prepared-c2-j2-T5-P1-progress-timestamp.txt", "ok", "builtin=select-only clients=2 duration=5s query_mode=prepared scale=1 script= threads=2"},
      {"pgbench", "tpcb-c2-j2-T5-r-P1.txt", "ok", "builtin=tpcb-like clients=2 duration=5s query_mode=simple scale=1 script= threads=2"},
      {"sysbench", "cpu-threads1-prime20000-time5.txt", "parse_error", "threads=1"},
      {"sysbench", "cpu-threads2-time5-report1-histogram.txt", "parse_error", "threads=2"},
      {"sysbench", "cpu-threads2-time5.run1.txt", "parse_error", "threads=2"},
      {"sysbench", "cpu-threads2-time5.run2.txt", "parse_error", "threads=2"},
      {"sysbench", "error-bad-option.txt", "parse_error", ""},
      {"sysbench", "memory-threads2-2G.txt", "parse_error", "threads=2"},
      {"sysbench", "mutex-threads2.txt", "parse_error", "threads=2"},
      {"sysbench", "threads-threads2-time5.txt", "parse_error", "threads=2"},
      {"sysbench", "threads-threads4-yields100-locks4-time5.txt", "parse_error", "threads=4"},
      {"dmatest", "hisi_dma-2024-jiehai-3chan-timeout-failures.dmesg.txt", "failed", ""},
      {"dmatest", "owl-dma-s500-ciocaltea-3chan-300tests.dmesg.txt", "ok", ""},
      {"dmatest", "owl-dma-s700-1test.dmesg.txt", "ok", ""},
      {"dmatest", "ptdma-5.15.8-fomichev-2022-patch2-noverify-N.dmesg.txt", "ok", ""},
      {"dmatest", "ptdma-5.15.8-fomichev-2022-vanilla-noverify.dmesg.txt", "ok", ""},
      {"dmatest", "sdxi-2025-amd-2threads-trimmed.dmesg.txt", "ok", ""},
      {"dmatest", "sf-pdma-2020-greenwan-4chan.dmesg.txt", "ok", ""},
      {"hammerdb", "blog-oracle-awr-timed-run-2vu.txt", "ok", "virtual_users=2"},
      {"hammerdb", "docs-v6.0-jobid-vurun.txt", "ok", "virtual_users=32"},
      {"hammerdb", "docs-v6.0-maria_tprocc.sh-full-build-run-drop-result.txt", "ok", "db=mariadb virtual_users=24"},
      {"hammerdb", "docs-v6.0-mssqls-cli-interactive-vurun.txt", "ok", "virtual_users=4"},
      {"hammerdb", "docs-v6.0-mssqls-cli-source-cliexample-1-2-4vu.txt", "parse_error", ""},
      {"hammerdb", "docs-v6.0-pg-hdbxtprofile.log", "parse_error", "timeprofile=true"},
      {"hammerdb", "docs-v6.0-postgres-timed-run-tail.txt", "ok", "db=postgres virtual_users=5"},
      {"hammerdb", "issue-782-mariadb-steprun-tail.txt", "ok", "db=mariadb virtual_users=1"},
      {"hammerdb", "issue-99-old-format-pg-v3.x.txt", "ok", "db=postgres"},
      {"hammerdb", "pr-356-mariadb-v4.4-result-lines.txt", "parse_error", "db=mariadb virtual_users=16"},
      {"netperf", "error-no-netserver.txt", "parse_error", ""},
      {"netperf", "tcp_rr-l3-cC-r1.txt", "ok", "confidence=0 cpu_util=true latency=false message_size=1 test=TCP_RR"},
      {"netperf", "tcp_rr-l3.txt", "ok", "confidence=0 cpu_util=false latency=false message_size=1 test=TCP_RR"},
      {"netperf", "tcp_rr-omni-O-latency.txt", "ok", "confidence=0 cpu_util=false latency=true test=TCP_RR"},
      {"netperf", "tcp_stream-l3.txt", "ok", "confidence=0 cpu_util=false message_size=16384 test=TCP_STREAM"},
      {"netperf", "udp_stream-l3-i5-I95.txt", "ok", "confidence=95 confidence_width=5 cpu_util=false message_size=65507 test=UDP_STREAM"},
      {"schbench", "schbench-m1-t2-r4-pipe4096.txt", "ok", "runtime=4s"},
      {"schbench", "schbench-m1-t2-r5-json.txt", "ok", "pipe=0 runtime=5s"},
      {"schbench", "schbench-m1-t2-r5.json", "ok", "message_threads=1 pipe=0 runtime=5s threads=2"},
      {"schbench", "schbench-m1-t2-r5.txt", "ok", "pipe=0 runtime=5s"},
      {"schbench", "schbench-m1-t4-r6-i2.txt", "ok", "pipe=0 runtime=6s"},

  };
  // Every registered workload with outputs in the shared fixtures (its
  // folder there); each output needs its row above.
  std::set<std::string> checked;
  for (const std::string& w : workload_names()) {
    if (!std::filesystem::is_directory(test::fixture(w))) continue;
    checked.insert(w);
    INFO(w);
    std::vector<std::string> args = {"parse", w, "--format", "json"};
    for (const auto& f : test::fixture_files(w)) {
      const std::string name = f.filename().string();
      // Not outputs: formats, a pgbench script, its per-transaction logs,
      // a sysfs parameter listing.
      if (std::filesystem::is_directory(f) || f.extension() == ".md" || f.extension() == ".sql" ||
          name.ends_with("parameters.grep-H.txt"))
        continue;
      args.push_back(f.string());
    }
    const auto r = schedlab_cmd(args);
    const auto j = nlohmann::json::parse(r.out);
    std::size_t seen = 0;
    for (const auto& e : j) {
      const std::string file = std::filesystem::path(e["file"].get<std::string>()).filename().string();
      INFO(file);
      const auto want = std::find_if(expected.begin(), expected.end(),
                                     [&](const Expected& x) { return x.workload == w && x.file == file; });
      REQUIRE(want != expected.end());
      ++seen;
      CHECK(e["status"] == want->status);
      std::vector<std::string> stated;
      for (const auto& [k, v] : e["params"].items()) {
        if (find_workload(w)->find_param(k)->reading) {
          CHECK_FALSE(v.is_null());
          continue;
        }
        if (!v.is_null()) stated.push_back(k + "=" + v.get<std::string>());
      }
      CHECK(fmt::format("{}", fmt::join(stated, " ")) == want->stated);
    }
    CHECK(seen == static_cast<std::size_t>(std::count_if(expected.begin(), expected.end(),
                                                         [&](const Expected& x) { return x.workload == w; })));
  }
  // No row of a workload that was not checked (its folder gone, or a name the registry lacks).
  for (const Expected& x : expected) CHECK(checked.count(x.workload) == 1);
}

TEST_CASE("parse and import: a --param the output contradicts is an error naming both values") {
  // The cases of the issue: each reads without --param, and a --param it
  // contradicts names the output's value and the user's.
  const struct {
    std::string workload, file, param, message;
  } cases[] = {
      {"netperf", "netperf/tcp_rr-l3.txt", "test=TCP_STREAM", "the output states test=TCP_RR, not --param test=TCP_STREAM"},
      {"netperf", "netperf/tcp_stream-l3.txt", "message_size=4096",
       "the output states message_size=16384, not --param message_size=4096"},
      {"schbench", "schbench/schbench-m1-t2-r4-pipe4096.txt", "runtime=30s",
       "the output states runtime=4s, not --param runtime=30s"},
      {"schbench", "schbench/schbench-m1-t2-r5.json", "threads=4", "the output states threads=2, not --param threads=4"},
      {"pgbench", "pgbench/select-only-c2-j2-T5.run1.txt", "clients=8", "the output states clients=2, not --param clients=8"},
      {"tbench", "tbench/tbench-t10-4clients.txt", "duration=30s", "the output states duration=10s, not --param duration=30s"},
  };
  test::TempDir dir;
  int n = 0;
  for (const auto& c : cases) {
    INFO(c.file);
    CHECK(schedlab_cmd({"parse", c.workload, fx(c.file)}).ok());
    const auto parsed = schedlab_cmd({"parse", c.workload, fx(c.file), "--param", c.param});
    CHECK(parsed.exit_code == 3);
    CHECK_THAT(test::one_line(parsed.err), Catch::Contains(test::one_line(c.message)));
    const std::string db = dir.file(fmt::format("c{}.db", n++));
    const auto imported =
        schedlab_cmd({"import", c.workload, "base=" + fx(c.file), "--name", "x", "--param", c.param, "--db", db});
    CHECK(imported.exit_code == 2);
    CHECK_THAT(test::one_line(imported.err), Catch::Contains(test::one_line(c.message)));
  }
  // A --param that agrees is taken.
  CHECK(schedlab_cmd({"parse", "netperf", fx("netperf/tcp_rr-l3.txt"), "--param", "test=TCP_RR"}).ok());
}

TEST_CASE("import netperf records the stated size and an unknown duration; compare shows ? and says why") {
  test::TempDir dir;
  const std::string db = dir.file("netperf.db");
  const auto imp = schedlab_cmd({"import", "netperf", "base=" + fx("netperf/tcp_stream-l3.txt"), "--name", "here", "--db", db});
  INFO(imp.err);
  REQUIRE(imp.ok());
  Store store(db);
  const auto its = store.iterations_table().iterations(store.runs_table().find_run_by_name("here")->id);
  REQUIRE(its.size() == 1);
  const auto params = nlohmann::json::parse(its[0].params_json);
  CHECK(params["message_size"] == "16384");  // not 0, the default
  CHECK(params["duration"].is_null());        // not 10s: elapsed 3.32 s is no -l
  CHECK(params["test"] == "TCP_STREAM");
  CHECK(its[0].row == "16384");
  // The same output with its -l given: like with like only on what is known.
  const auto given = schedlab_cmd({"import", "netperf", "base=" + fx("netperf/tcp_stream-l3.txt"), "--name", "there",
                                   "--param", "duration=3s", "--db", db});
  REQUIRE(given.ok());
  const auto cmp = schedlab_cmd({"compare", "here", "there", "--db", db});
  INFO(cmp.out << cmp.err);
  REQUIRE(cmp.ok());
  CHECK_THAT(cmp.out, Catch::Contains("param netperf duration"));
  CHECK_THAT(cmp.out, Catch::Contains("duration 3s (baseline ?)"));
  CHECK_THAT(cmp.out, Catch::Contains("?: a parameter an imported output did not state and no --param gave"));
  const auto json = schedlab_cmd({"compare", "here", "there", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  const auto& cells = j["blocks"][0]["rows"][0]["cells"];
  CHECK(cells[0]["params"]["duration"].is_null());
  CHECK(cells[1]["params"]["duration"] == "3s");
  CHECK(cells[1]["unlike_baseline"][0] == "duration 3s (baseline ?)");
}

TEST_CASE("parse netperf -P 0: the row alone reads with --param test, and not without") {
  test::TempDir dir;
  const std::string file = dir.file("p0.txt");
  test::write_text(file, "131072  16384  16384    3.32     1147.88   \n");
  const auto none = schedlab_cmd({"parse", "netperf", file});
  CHECK(none.exit_code == 3);
  CHECK_THAT(none.err, Catch::Contains("give the test it ran (--param test=TCP_STREAM, ...)"));
  const auto r = schedlab_cmd({"parse", "netperf", file, "--param", "test=TCP_STREAM", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.ok());
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j[0]["samples"][0]["value"] == 1147.88);
  CHECK(j[0]["params"]["message_size"] == "16384");
  CHECK(j[0]["params"]["confidence"].is_null());  // no banner to say
  CHECK_THAT(j[0]["notes"][0].get<std::string>(), Catch::Contains("no header (-P 0)"));
}

TEST_CASE("import of a netperf or schbench output with a 1e308 figure fails its iteration, the output kept") {
  test::TempDir dir;
  std::string stream = test::read_text(test::fixture("netperf/tcp_stream-l3.txt"));
  stream.replace(stream.find("1147.88"), 7, "1e308");
  std::string json = test::read_text(test::fixture("schbench/schbench-m1-t2-r5.json"));
  json.replace(json.find("\"runtime\": 5"), 12, "\"runtime\": 1e300");
  // hostile16: dmatest's 1e181 KB/s refused the whole import at the store.
  std::string dmesg = test::read_text(test::fixture("dmatest/owl-dma-s700-1test.dmesg.txt"));
  dmesg.replace(dmesg.find("32258 KB/s"), 5, "1" + std::string(181, '0'));
  const struct {
    std::string workload, name, text, message;
  } cases[] = {
      {"netperf", "huge.txt", stream, "line 7: throughput 1e+308 is past 1e+15"},
      {"schbench", "huge.json", json, "\"runtime\" 1e+300 is past 1e+15"},
      {"dmatest", "huge.dmesg", dmesg, "line 3: KB/s 1e+181 is past 1e+15"},
  };
  for (const auto& c : cases) {
    const std::string file = dir.file(c.name), db = dir.file(c.name + ".db");
    test::write_text(file, c.text);
    const auto parsed = schedlab_cmd({"parse", c.workload, file});
    CHECK(parsed.exit_code == 3);
    CHECK_THAT(test::one_line(parsed.err), Catch::Contains(test::one_line(c.message)));
    const auto imported = schedlab_cmd({"import", c.workload, "base=" + file, "--name", "x", "--db", db});
    CHECK(imported.exit_code == 3);
    Store store(db);
    const auto its = store.iterations_table().iterations(store.runs_table().find_run_by_name("x")->id, true);
    REQUIRE(its.size() == 1);
    CHECK(its[0].status == IterationStatus::kParseError);
    CHECK_THAT(its[0].error, Catch::StartsWith(file + ": ") && Catch::Contains(c.message));
    CHECK(its[0].stdout_text == c.text);
  }
  // A sample only the store refuses (pgbench's summary has no bound of its
  // own) ends the import's transaction: the error names the file.
  std::string tps = test::read_text(test::fixture("pgbench/select-only-c2-j2-T5.run1.txt"));
  tps.replace(tps.find("tps = 56498"), 11, "tps = 1" + std::string(180, '0'));
  const std::string file = dir.file("tps.txt"), db = dir.file("tps.db");
  test::write_text(file, tps);
  const auto imported =
      schedlab_cmd({"import", "pgbench", "base=" + file, "--name", "x", "--db", db});
  CHECK(imported.exit_code != 0);
  CHECK_THAT(test::one_line(imported.err),
             Catch::Contains(test::one_line(file + ": run 1 iteration 0 of pgbench")) &&
                 Catch::Contains("1e+180 is outside +-1e+150; not stored; nothing imported"));
}
