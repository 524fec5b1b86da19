// schedlab parse and import on the real fixture outputs; schedlab workloads.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "results/store.h"
#include "runner/config/command_keys.h"
#include "runner/config/workload_help.h"
#include "runner/hosts/local_host.h"
#include "runner/input/param_values.h"
#include "runner/run/iteration_output.h"
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
  // A typo is named with the nearest name (not only "unknown workload"),
  // the generic workload among those offered.
  const auto bad = schedlab_cmd({"workloads", "hackbnch"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err ==
        fmt::format("schedlab workloads: unknown workload 'hackbnch' (did you mean 'hackbench'?); known: {}, command\n",
                    fmt::join(workload_names(), ", ")));
  CHECK(bad.out.empty());
}

TEST_CASE("schedlab workloads command documents the generic workload's keys, from the rows config checks") {
  const auto text = schedlab_cmd({"workloads", "command"});
  INFO(text.err);
  REQUIRE(text.ok());
  CHECK(text.out == command_workload_text());
  for (const auto& k : kCommandKeys) CHECK(text.out.find(fmt::format("    {}: ", k.key)) != std::string::npos);
  for (const auto& k : kCommandMetricKeys) CHECK(text.out.find(fmt::format("    {}: ", k.key)) != std::string::npos);
  // The full listing ends with it, in every format.
  const auto all = schedlab_cmd({"workloads"});
  REQUIRE(all.ok());
  CHECK(all.out.ends_with(command_workload_text()));
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
  CHECK(dry.err.find("unknown key 'metrcs' (did you mean 'metrics'?)") != std::string::npos);
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
  CHECK(no_match.err.find("its name 'thread-pipes-g4-l1000.txt' does not match --param-from-name") != std::string::npos);
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
    CHECK(r.err ==
          "schedlab import: run name '" + digits +
              "': it is all digits, which a RUN argument takes for a run's id; nothing imported\n");
  }
  test::write_text(dir.file("c.yaml"), "workloads: [hackbench]\n");
  const auto run =
      schedlab_cmd({"run", dir.file("c.yaml"), "--name", "02", "--db", fresh, "--dry-run"});
  CHECK(run.exit_code == 2);
  CHECK(run.err ==
        "schedlab run: run name '02': it is all digits, which a RUN argument takes for a run's id; "
        "give "
        "another --name\n");
  CHECK((!std::filesystem::exists(fresh) ||
         Store(fresh, Store::Access::kReadOnly).runs_table().list_runs().empty()));
  // rm, then the same name again; an import is not resumed.
  const std::string small = dir.file("small.db");
  REQUIRE(schedlab_cmd({"import", "hackbench", "base=" + dir.file("out0.txt"), "--name", "imp", "--db", small,
                        "--param", "groups=2"})
              .ok());
  auto resume = schedlab_cmd({"run", "--resume", "imp", "--db", small});
  CHECK(resume.exit_code == 2);
  CHECK(resume.err.find("was imported, not run: there is nothing to resume (schedlab rm 1 removes it)") !=
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
  CHECK(both.err ==
        fmt::format(
            "schedlab rm: '{:02}' names two runs in {}: run {} 'second' by its id and run {} by "
            "its name; give the id of the one you mean\n",
            second, small, second, named));
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
  CHECK(j[0]["params"]["modes"] == "thread-pipes");
  CHECK(j[0]["samples"][0]["value"] == 0.055);
  // What the user gives and the output says alike is fine; what it
  // contradicts fails the file, naming both.
  CHECK(schedlab_cmd({"parse", "hackbench", file, "--param", "groups=2"}).ok());
  const auto wrong = schedlab_cmd({"parse", "hackbench", file, "--param", "groups=4"});
  CHECK(wrong.exit_code == 3);
  CHECK(wrong.err.find("the output states groups=2, not --param groups=4") != std::string::npos);
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
  CHECK(bare.err.find("which variant? give VARIANT=FILE, or --variant NAME before the files") != std::string::npos);
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
