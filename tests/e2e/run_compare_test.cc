// End to end: the real schedlab binary runs real hackbench into a temporary
// database, then compare prints the table. Needs rt-tests installed.
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "base/base64.h"
#include "base/compression.h"
#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/config/config.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/one_line.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

using test::schedlab_cmd;

const std::string kTinyConfig = R"(
iterations: 3
workloads:
  - hackbench:
      modes: [process-pipes, thread-sockets]
      groups: [1, 2]
      loops: 50
      timeout: 30s
)" + test::kDefaultAndBatchVariants;

}  // namespace

TEST_CASE("run a tiny config, then compare it as text and JSON") {
  test::TempDir dir;
  const std::string db = dir.file("e2e.db");
  const std::string cfg = dir.file("tiny.yaml");
  test::write_text(cfg, kTinyConfig);

  const auto run = schedlab_cmd({"run", cfg, "--db", db, "--name", "tiny"});
  INFO(run.err);
  REQUIRE(run.ok());
  CHECK(run.err.find("run 1 'tiny' finished: 24 iterations measured (0 failed)") != std::string::npos);

  {
    Store store(db);
    const auto r = store.runs_table().find_run_by_name("tiny");
    REQUIRE(r);
    CHECK(to_string(r->status) == "finished");
    CHECK(r->config_text == kTinyConfig);
    CHECK(r->config_sha256.size() == 64);
    const auto m = nlohmann::json::parse(r->manifest_json);
    CHECK(m["kernel_release"].get<std::string>().size() > 0);
    CHECK(m["cpu_count"].get<int>() >= 1);
    CHECK(m["tools"]["rt-tests"].is_string());
    // The version --version prints, taken at build time.
    const auto version = schedlab_cmd({"--version"});
    CHECK("schedlab " + m["schedlab_version"].get<std::string>() + "\n" == version.out);
    const auto its = store.iterations_table().iterations(r->id, true);
    REQUIRE(its.size() == 24);
    for (const auto& it : its) {
      CHECK(to_string(it.status) == "ok");
      CHECK(it.stdout_text.find("Time: ") != std::string::npos);
      CHECK(it.samples.size() == 1);
    }
  }

  const auto text = schedlab_cmd({"compare", "tiny", "--db", db});
  INFO(text.err);
  REQUIRE(text.ok());
  // run ends with the same table on stdout.
  CHECK(run.out == text.out);
  CHECK(text.out.find("hackbench-process-pipes") != std::string::npos);
  CHECK(text.out.find("hackbench-thread-sockets") != std::string::npos);
  CHECK(text.out.find("sched-batch") != std::string::npos);
  CHECK(text.out.find("Amean     1 ") != std::string::npos);
  CHECK(text.out.find("Amean     2 ") != std::string::npos);
  CHECK(text.out.find("(   0.00%)") != std::string::npos);

  const auto json = schedlab_cmd({"compare", "--format", "json"}, {{"SCHEDLAB_DB", db}});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["format_version"] == 1);
  REQUIRE(j["columns"].size() == 2);
  CHECK(j["columns"][0]["variant"] == "default");
  CHECK(j["columns"][1]["variant"] == "sched-batch");
  REQUIRE(j["blocks"].size() == 2);
  for (const auto& block : j["blocks"]) {
    CHECK(block["metric"]["name"] == "time");
    CHECK(block["metric"]["direction"] == "lower");
    REQUIRE(block["rows"].size() == 2);
    CHECK(block["rows"][0]["label"] == "1");
    CHECK(block["rows"][1]["label"] == "2");
    for (const auto& row : block["rows"])
      for (const auto& cell : row["cells"]) CHECK(cell["n"] == 3);
  }

  const auto list = schedlab_cmd({"list", "--db", db});
  REQUIRE(list.ok());
  CHECK(list.out.find("tiny") != std::string::npos);
  CHECK(list.out.find("default,sched-batch") != std::string::npos);
}

TEST_CASE("bad input: a misspelt key, a missing file, a missing tool") {
  test::TempDir dir;
  const std::string db = dir.file("bad.db");
  const std::string cfg = dir.file("bad.yaml");
  test::write_text(cfg, "workloads:\n  - hackbench:\n      grups: [1]\n");
  auto r = schedlab_cmd({"run", cfg, "--db", db});
  CHECK(r.exit_code == 2);
  CHECK(
      test::one_line(r.err) ==
      test::one_line("schedlab: " + cfg +
                     ":3: workloads[0].hackbench: unknown key 'grups' (did you mean 'groups'?)\n"));

  r = schedlab_cmd({"run", dir.file("nope.yaml"), "--db", db});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab: " + dir.file("nope.yaml") +
                       ": cannot read the file: No such file or directory\n"));

  test::write_text(cfg, "workloads: [hackbench]\n");
  r = schedlab_cmd({"run", cfg, "--db", db}, {{"PATH", dir.path().string()}});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab: hackbench: 'hackbench' is not installed on local (install the "
                       "Debian package rt-tests)\n"));
}

TEST_CASE("a 900 KB unknown key or program name is quoted cut, not printed whole") {
  // Issue 44: each came back whole in a 918 KB message.
  test::TempDir dir;
  const std::string db = dir.file("e.db"), cfg = dir.file("k.yaml");
  const std::string key(900000, 'k'), word(900000, 'w');
  test::write_text(cfg, "workloads:\n  - hackbench:\n      ? " + key + "\n      : 1\n");
  auto r = schedlab_cmd({"run", cfg, "--db", db});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab: " + cfg + ":3: workloads[0].hackbench: unknown key '" +
                       std::string(80, 'k') + "... (900000 characters)'\n"));
  test::write_text(cfg, "workloads:\n  - command:\n      name: x\n      argv: [" + word +
                            "]\n      metrics: {t: {regex: \"(?<value>1)\", direction: lower}}\n");
  r = schedlab_cmd({"run", cfg, "--db", db});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab: x: '" + std::string(80, 'w') +
                       "... (900000 characters)' is not installed on local (install the Debian "
                       "package x)\n"));
}

TEST_CASE("merge: a database of a newer schema, or the output itself, is a one-line error and nothing is written") {
  test::TempDir dir;
  const std::string in = dir.file("in.db"), out = dir.file("out.db");
  {
    Store s(in);
    s.runs_table().create_run(
        {.name = "r", .config_path = "c.yaml", .config_text = "t", .config_sha256 = "x"});
  }
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(in.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "PRAGMA user_version = 99", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(h);
  auto r = schedlab_cmd({"merge", out, in});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab merge: " + in +
                       ": database schema version 99 is newer than this schedlab (" +
                       std::to_string(Store::kSchemaVersion) + "); use a newer schedlab\n"));
  CHECK_FALSE(std::filesystem::exists(out));
  r = schedlab_cmd({"merge", in, in});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab merge: " + in + " is the output database itself\n"));
  r = schedlab_cmd({"merge", out, dir.file("none.db")});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("no database at " + dir.file("none.db")) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("merge: a stored perf profile that does not decode is refused, naming its iteration") {
  // Issue 44: a crafted database's profile with a count of 1e999 merged,
  // and every report of the run failed after.
  test::TempDir dir;
  const std::string in = dir.file("in.db"), out = dir.file("out.db");
  {
    Store s(in);
    const auto run = test::plain_run(s, "prof");
    const auto v = s.variants_table().add_variant({0, run, "default", 0, "{}"});
    IterationRow it = test::plain_iteration(run, v);
    it.monitor_snapshots = {{0, "perf-profile", "after", "perf script (folded stacks, gzip+base64)",
                             base64_encode(gzip("hackbench;main 1e999\n"))}};
    s.iterations_table().add_iteration(it);
  }
  const auto r = schedlab_cmd({"merge", out, in});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("schedlab merge: " + in + ": run prof iteration id 1") != std::string::npos);
  CHECK(test::one_line(r.err).find(test::one_line(
            "expected 'STACK COUNT', found 'hackbench;main 1e999'; nothing merged")) !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

namespace {

// A run whose names carry what a terminal acts on: clear the screen (CSI
// 2J), set the window title (OSC 0, ended by BEL), CSI as a C1 control in
// UTF-8 (U+009B), DEL, a newline that would forge a table line.
const std::string kEscRun = "r\x1b[2J\x1b]0;owned\x07";
const std::string kEscVariants[] = {
    "base\xc2\x9b"
    "31m",
    "v\x7f\nAmean 1 0.0001"};

void write_escape_db(const std::string& db, const std::string& run_name, const std::string& sha) {
  Store s(db);
  const auto run = s.runs_table().create_run(
      {.name = run_name,
       .config_path = "c.yaml",
       .config_text = "",
       .config_sha256 = sha,
       .manifest_json = R"({"kernel_release":"6.1\u001b[5m","hostname":"h\u001b[8m"})",
       .status = RunStatus::kFinished,
       .started_at = "2026-12-01T10:00:00Z"});
  for (int k = 0; k < 2; ++k) {
    const auto v =
        s.variants_table().add_variant({.run_id = run, .name = kEscVariants[k], .position = k, .knobs_json = "{}"});
    s.metrics_table().add_metric(
        run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
    for (int i = 0; i < 3; ++i)
      s.iterations_table().add_iteration(
          {.run_id = run,
           .variant_id = v,
           .workload = "hackbench",
           .block = "hackbench-\x1b[1mpipes",
           .row = "1",
           .params_json = R"({"groups":1})",
           .iteration = i,
           .started_at = "2026-12-01T10:00:00Z",
           .samples = {{"time", 0.1 + 0.01 * i + 0.02 * k, std::nullopt}}});
  }
}

// No byte a terminal acts on: C0 controls but the line ends, DEL, C1 in UTF-8.
void check_no_controls(const std::string& out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto b = static_cast<unsigned char>(out[i]);
    INFO("byte " << i << " of:\n" << out);
    CHECK((b >= 0x20 || b == '\n'));
    CHECK(b != 0x7f);
    if (b == 0xc2 && i + 1 < out.size()) CHECK(static_cast<unsigned char>(out[i + 1]) >= 0xa0);
  }
}

}  // namespace

TEST_CASE("list, compare and history print names from a database with their escapes escaped") {
  test::TempDir dir;
  const std::string db = dir.file("esc.db");
  write_escape_db(db, kEscRun, "x");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list"},
        {"compare"},
        {"compare", "--format", "markdown"},
        {"history", "--workload", "hackbench", "--metric", "time"}}) {
    auto argv = args;
    argv.insert(argv.end(), {"--db", db});
    const auto r = schedlab_cmd(argv);
    INFO(args.front() << ": " << r.err << r.out);
    REQUIRE(r.ok());
    check_no_controls(r.out);
    // Shown, escaped: what the name was is still there to read (markdown
    // escapes the backslash and bracket once more).
    CHECK(r.out.find("x1b") != std::string::npos);
  }
  const auto list = schedlab_cmd({"list", "--db", db});
  CHECK(list.out.find("r\\x1b[2J\\x1b]0;owned\\x07") != std::string::npos);
  // Its variants whole with --wide (without, cut to the 100 columns and counted).
  CHECK(schedlab_cmd({"list", "--db", db, "--wide"}).out.find("base\\u009b31m,v\\x7f\\x0aAmean 1 0.0001") !=
        std::string::npos);
  CHECK(list.out.find("6.1\\x1b[5m") != std::string::npos);
  const auto text = schedlab_cmd({"compare", "--db", db});
  // The newline in a name forges no table line.
  CHECK(text.out.find("\nAmean 1 0.0001") == std::string::npos);
  CHECK(text.out.find("v\\x7f\\x0aAmean 1 0.0001") != std::string::npos);
  // JSON keeps the names as stored (its own escapes).
  const auto json = schedlab_cmd({"compare", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  CHECK(nlohmann::json::parse(json.out)["columns"][1]["variant"] == kEscVariants[1]);
}

TEST_CASE(
    "merge: a 0-byte file or another program's database is refused, nothing written anywhere") {
  test::TempDir dir;
  const std::string out = dir.file("out.db"), empty = dir.file("empty.db"),
                    other = dir.file("other.db");
  test::write_text(empty, "");
  {
    sqlite3* h = nullptr;
    REQUIRE(sqlite3_open(other.c_str(), &h) == SQLITE_OK);
    REQUIRE(sqlite3_exec(h, "CREATE TABLE contacts (name TEXT)", nullptr, nullptr, nullptr) ==
            SQLITE_OK);
    sqlite3_close(h);
  }
  const std::string other_bytes = test::read_text(other);
  for (const auto& in : {empty, other}) {
    const auto r = schedlab_cmd({"merge", out, in});
    CHECK(r.exit_code == 1);
    CHECK(test::one_line(r.err) ==
          test::one_line("schedlab merge: " + in +
                         ": not a schedlab database (no schedlab schema version: an empty file or "
                         "another program's SQLite database); nothing merged\n"));
    CHECK_FALSE(std::filesystem::exists(out));
  }
  CHECK(std::filesystem::file_size(empty) == 0);
  CHECK(test::read_text(other) == other_bytes);
  // As the output, another program's database is refused too.
  const std::string good = dir.file("good.db");
  {
    Store s(good);
    test::plain_run(s, "plain");
  }
  const auto r = schedlab_cmd({"merge", other, good});
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "not a schedlab database (a SQLite database of another program")) != std::string::npos);
  CHECK(test::read_text(other) == other_bytes);
}

TEST_CASE("merge: a hostile run name is refused as a new run's would be, and printed escaped") {
  // Issue 44: merge once copied names no run may be given (run_name_problem).
  test::TempDir dir;
  const std::string a = dir.file("a.db"), b = dir.file("b.db"), out = dir.file("out.db");
  write_escape_db(a, kEscRun, "sha-a");
  write_escape_db(b, kEscRun, "sha-b");
  const auto r = schedlab_cmd({"merge", out, a, b});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err).find("run 'r\\x1b[2J\\x1b]0;owned\\x07' has a name no run may be "
                                   "given") != std::string::npos);
  check_no_controls(r.err);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("output that does not parse fails its iteration, keeps the raw output, and the run goes on") {
  test::TempDir dir;
  const std::string db = dir.file("parse.db");
  const std::string cfg = dir.file("p.yaml");
  // Test double: a fake `hackbench` that prints output the real tool never
  // prints, so the parse-failure path can be driven on purpose.
  const std::string bin = dir.file("bin");
  ::mkdir(bin.c_str(), 0755);
  test::write_text(bin + "/hackbench", "#!/bin/sh\necho 'Running in process mode with 1 groups using 40 file descriptors'\necho 'Time: soon'\n");
  ::chmod((bin + "/hackbench").c_str(), 0755);
  test::write_text(cfg, "iterations: 2\nworkloads:\n  - hackbench: {groups: [1]}\n");
  const std::string path = bin + ":" + std::getenv("PATH");
  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "p"}, {{"PATH", path}});
  CHECK(r.exit_code == 3);
  CHECK(test::one_line(r.err).find(test::one_line(
            "hackbench output did not parse: line 2: 'Time:' line without a number: Time: soon")) !=
        std::string::npos);
  Store store(db);
  const auto its =
      store.iterations_table().iterations(store.runs_table().find_run_by_name("p")->id, true);
  REQUIRE(its.size() == 2);
  CHECK(to_string(its[1].status) == "parse_error");
  CHECK(its[1].stdout_text.find("Time: soon") != std::string::npos);
  // list never hides them: ok, failed and planned.
  const auto list = schedlab_cmd({"list", "--db", db, "--format", "json"});
  REQUIRE(list.ok());
  const auto j = nlohmann::json::parse(list.out);
  CHECK(j[0]["iterations_ok"] == 0);
  CHECK(j[0]["iterations_failed"] == 2);
  CHECK(j[0]["planned_iterations"] == nlohmann::json{{"min", 2}, {"max", 2}});
  const auto text = schedlab_cmd({"list", "--db", db});
  CHECK(text.out.find("   ok failed planned") != std::string::npos);
  CHECK(text.out.find("    0      2       2  ") != std::string::npos);
}

TEST_CASE("a hung iteration is killed at its timeout, recorded as failed, and the run goes on") {
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  const std::string cfg = dir.file("t.yaml");
  // 2 iterations that take minutes each with a 1 s timeout, then a quick point.
  test::write_text(cfg, "iterations: 2\nworkloads:\n  - hackbench: {groups: [8], loops: 10000000, timeout: 1s}\n  - hackbench: {groups: [1], loops: 10}\n");
  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "t"});
  CHECK(r.exit_code == 3);
  Store store(db);
  const auto its =
      store.iterations_table().iterations(store.runs_table().find_run_by_name("t")->id);
  REQUIRE(its.size() == 4);
  CHECK(to_string(its[0].status) == "timeout");
  CHECK(its[0].duration_s < 10);
  CHECK(its[0].error.find("killed at its timeout") != std::string::npos);
  CHECK(to_string(its[3].status) == "ok");
  // Nothing of the killed hackbench survives.
  LocalHost host;
  CHECK(host.run({.argv = {"pgrep", "-f", "hackbench.*10000000"}}).exit_code == 1);
}

TEST_CASE("SIGINT keeps finished iterations, restores the sysctl, and resume completes the run") {
  const std::string knob = "kernel.sched_autogroup_enabled";
  if (::access(sysctl_path(knob).c_str(), W_OK) != 0) {
    SCHEDLAB_SKIP(sysctl_path(knob) << " is not writable here (needs root)");
  }
  LocalHost host;
  const std::string original = read_sysctl(host, knob);
  const std::string flipped = original == "0" ? "1" : "0";
  test::TempDir dir;
  const std::string db = dir.file("i.db");
  const std::string cfg = dir.file("i.yaml");
  test::write_text(cfg, "iterations: 40\nworkloads:\n  - hackbench: {groups: [1], loops: 200}\n"
                        "variants:\n  flipped:\n    sysctl:\n      " + knob + ": " + flipped + "\n  default: {}\n");
  // coreutils timeout delivers SIGINT after 2 s, as Ctrl-C would.
  Command cmd{.argv = {"timeout", "--preserve-status", "-s", "INT", "2", SCHEDLAB_BINARY, "run",
                       cfg, "--db", db, "--name", "i"},
              .timeout = 120s};
  const auto r = host.run(cmd);
  INFO(r.err);
  CHECK(r.exit_code == 130);
  // The hint names the database, so it works pasted anywhere.
  const auto hint_at = r.err.find("continue it with: ");
  REQUIRE(hint_at != std::string::npos);
  const std::string hint =
      r.err.substr(hint_at + 18, r.err.find('\n', hint_at) - hint_at - 18);
  CHECK(hint == "schedlab run --resume 1 --db " + std::filesystem::canonical(db).string());
  CHECK(read_sysctl(host, knob) == original);
  std::size_t before = 0;
  {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name("i");
    CHECK(to_string(run->status) == "interrupted");
    before = store.iterations_table().iterations(run->id).size();
    CHECK(before > 0);
    CHECK(before < 80);
    CHECK(store.journal().unrestored("local").empty());
  }
  // Pasted as it is, from another directory with no schedlab.db.
  test::TempDir elsewhere;
  const auto resumed =
      host.run({.argv = {"sh", "-c", hint},
                .env = {{"PATH", std::filesystem::path(SCHEDLAB_BINARY).parent_path().string() + ":" +
                                     std::getenv("PATH")}},
                .cwd = elsewhere.path().string(),
                .timeout = 240s});
  INFO(resumed.err);
  CHECK(resumed.ok());
  CHECK_FALSE(std::filesystem::exists(elsewhere.file("schedlab.db")));
  CHECK(read_sysctl(host, knob) == original);
  Store store(db);
  const auto run = store.runs_table().find_run_by_name("i");
  CHECK(to_string(run->status) == "finished");
  CHECK(store.iterations_table().iterations(run->id).size() == 80);
}

TEST_CASE("variants run interleaved per iteration by default, sequentially on request") {
  test::TempDir dir;
  const std::string db = dir.file("o.db");
  const std::string cfg = dir.file("o.yaml");
  auto order_of = [&](const std::string& name) {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name(name);
    std::map<std::int64_t, std::string> names;
    for (const auto& v : store.variants_table().variants(run->id)) names[v.id] = v.name;
    std::string order;
    for (const auto& it : store.iterations_table().iterations(run->id))
      order += names[it.variant_id].substr(0, 1);
    return order;
  };
  test::write_text(cfg, "iterations: 3\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n"
                        "variants:\n  a: {}\n  b: {policy: batch}\n");
  REQUIRE(schedlab_cmd({"run", cfg, "--db", db, "--name", "inter"}).ok());
  CHECK(order_of("inter") == "ababab");
  test::write_text(cfg, "order: sequential\niterations: 3\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n"
                        "variants:\n  a: {}\n  b: {policy: batch}\n");
  REQUIRE(schedlab_cmd({"run", cfg, "--db", db, "--name", "seq"}).ok());
  CHECK(order_of("seq") == "aaabbb");
}

TEST_CASE("adaptive iterations stop each point and record why") {
  test::TempDir dir;
  const std::string db = dir.file("a.db");
  const std::string cfg = dir.file("a.yaml");
  // A very wide target is met at min; an impossible one runs to max.
  // hackbench prints milliseconds: a short run often repeats its time
  // exactly (a zero-width interval meets any target), so the second point
  // runs ~0.1 s and needs three samples, never all equal in practice.
  test::write_text(cfg, "workloads:\n"
                        "  - hackbench: {groups: [1], loops: 500, iterations: {min: 3, max: 8, ci_width_pct: 99}}\n"
                        "  - hackbench: {groups: [2], loops: 1000, iterations: {min: 3, max: 4, ci_width_pct: 0.0001}}\n");
  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "ad"});
  INFO(r.err);
  REQUIRE(r.ok());
  Store store(db);
  const auto run = store.runs_table().find_run_by_name("ad");
  const auto stops = store.point_stops_table().point_stops(run->id);
  REQUIRE(stops.size() == 2);
  // Real timing noise: the wide target is usually met at min, but a cold
  // first iteration may need one or two more.
  CHECK(stops[0].reason == "ci_reached");
  CHECK(stops[0].iterations >= 3);
  CHECK(stops[0].iterations < 8);
  CHECK(*stops[0].ci_halfwidth_pct <= 99);
  CHECK(stops[1].reason == "max_reached");
  CHECK(stops[1].iterations == 4);
  CHECK(store.iterations_table().iterations(run->id).size() ==
        static_cast<std::size_t>(stops[0].iterations + 4));
}

TEST_CASE("a timed-out client leaves no server behind (real tbench, local)") {
  LocalHost host;
  if (!host.find_program("tbench_srv")) {
    SCHEDLAB_SKIP("dbench's tbench_srv is not installed");
  }
  test::TempDir dir;
  const std::string db = dir.file("tb.db"), cfg = dir.file("tb.yaml");
  // A 60 s client killed after 2 s: the iteration fails as timeout, the
  // server of the point is stopped, and the run goes on to the next point.
  test::write_text(cfg, "iterations: 1\nworkloads:\n"
                        "  - tbench: {clients: [1], duration: 60s, timeout: 2s}\n"
                        "  - tbench: {clients: [1], duration: 2s}\n");
  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "tb"});
  INFO(r.err);
  CHECK(r.exit_code == 3);
  Store store(db);
  const auto its =
      store.iterations_table().iterations(store.runs_table().find_run_by_name("tb")->id);
  REQUIRE(its.size() == 2);
  CHECK(to_string(its[0].status) == "timeout");
  CHECK(to_string(its[1].status) == "ok");
  const auto ps = host.run({.argv = {"ps", "-eo", "stat=,comm="}});
  std::istringstream in(ps.out);
  int servers = 0;
  for (std::string stat, comm; in >> stat >> comm;)
    if ((comm == "tbench_srv" || comm == "tbench") && stat[0] != 'Z') ++servers;
  CHECK(servers == 0);
}

TEST_CASE(
    "run --iterations N gives every point a fixed count (adaptive ones too) and the manifest "
    "records it") {
  test::TempDir dir;
  const std::string db = dir.file("n.db");
  const std::string cfg = dir.file("n.yaml");
  test::write_text(cfg,
                   "iterations: 5\nworkloads:\n"
                   "  - hackbench: {groups: [1, 2], loops: 10}\n"
                   "  - hackbench: {groups: [1], loops: 20, iterations: {min: 3, max: 8, "
                   "ci_width_pct: 0.0001}}\n"
                   "variants:\n  a: {}\n  b: {policy: batch}\n");
  // --dry-run shows the count that will run.
  const auto plain = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  REQUIRE(plain.ok());
  CHECK(plain.out.find("at most 36 iterations") != std::string::npos);  // (5 + 5 + 8) x 2
  CHECK(plain.out.find("--iterations") == std::string::npos);
  const auto dry = schedlab_cmd({"run", cfg, "--db", db, "--iterations", "2", "--dry-run"});
  INFO(dry.out);
  REQUIRE(dry.ok());
  CHECK(dry.out.find("at most 12 iterations") != std::string::npos);  // 3 points x 2 variants x 2
  CHECK(dry.out.find(
            "  iterations: 2 per point and variant (--iterations, in place of the config's)\n") !=
        std::string::npos);
  CHECK(dry.out.find("until CI") == std::string::npos);
  CHECK(dry.out.find("x5") == std::string::npos);
  CHECK(dry.out.find("hackbench-process-pipes groups=2 x2:") != std::string::npos);

  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "smoke", "--iterations", "2"});
  INFO(r.err);
  REQUIRE(r.ok());
  CHECK(r.err.find("run 1 'smoke' finished: 12 iterations measured (0 failed)") !=
        std::string::npos);
  {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name("smoke");
    REQUIRE(run);
    const auto m = nlohmann::json::parse(run->manifest_json);
    CHECK(m["iterations_override"] == 2);
    std::map<std::string, int> per_point;  // variant and params -> iterations
    for (const auto& it : store.iterations_table().iterations(run->id))
      ++per_point[std::to_string(it.variant_id) + it.params_json];
    CHECK(per_point.size() == 6);
    for (const auto& [point, n] : per_point) CHECK(n == 2);
    const auto stops = store.point_stops_table().point_stops(run->id);
    REQUIRE(stops.size() == 6);
    for (const auto& s : stops) {
      CHECK(s.reason == "fixed");
      CHECK(s.iterations == 2);
    }
  }
  // A resumed run keeps its count; it is not given again.
  const auto again = schedlab_cmd({"run", "--resume", "smoke", "--db", db, "--iterations", "3"});
  CHECK(again.exit_code == 2);
  CHECK(test::one_line(again.err) ==
        test::one_line(
            "schedlab run: --iterations starts a new run; a resumed run keeps the count it started "
            "with\n"));
  CHECK_FALSE(schedlab_cmd({"run", cfg, "--db", db, "--iterations", "0", "--dry-run"}).ok());
  // Resumed, it counts with the override: every point is complete (at the
  // config's counts it would run 3 more, and up to 6 more adaptive ones).
  Store(db).runs_table().set_run_status(1, RunStatus::kInterrupted, true);
  const auto resumed = schedlab_cmd({"run", "--resume", "smoke", "--db", db});
  INFO(resumed.err);
  REQUIRE(resumed.ok());
  CHECK(test::one_line(resumed.err)
            .find(test::one_line(
                "run 1 'smoke' finished: 0 iterations measured (0 failed), 3 points already "
                "complete")) != std::string::npos);
  // Without it the manifest has no such member.
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n");
  REQUIRE(schedlab_cmd({"run", cfg, "--db", db, "--name", "plain"}).ok());
  Store store(db);
  CHECK_FALSE(nlohmann::json::parse(store.runs_table().find_run_by_name("plain")->manifest_json)
                  .contains("iterations_override"));
}

TEST_CASE("compare --strict refuses runs made with other parameters; without it the cells are marked") {
  test::TempDir dir;
  const std::string db = dir.file("p.db");
  for (const char* loops : {"50", "20"}) {
    const std::string cfg = dir.file(std::string("l") + loops + ".yaml");
    test::write_text(cfg, std::string("iterations: 2\nworkloads:\n  - hackbench: {groups: [1], loops: ") + loops +
                              "}\n");
    const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", std::string("loops") + loops});
    INFO(r.err);
    REQUIRE(r.ok());
  }
  const auto marked = schedlab_cmd({"compare", "loops50", "loops20", "--db", db});
  INFO(marked.err);
  CHECK(marked.ok());
  CHECK(marked.out.find("param hackbench loops") != std::string::npos);
  CHECK(marked.out.find("config sha256") != std::string::npos);
  CHECK(marked.out.find("loops 20 (baseline 50)") != std::string::npos);
  const auto strict = schedlab_cmd({"compare", "loops50", "loops20", "--db", db, "--strict"});
  CHECK(strict.exit_code == 2);
  CHECK(strict.out.empty());
  CHECK(test::one_line(strict.err) ==
        test::one_line(
            "schedlab compare: --strict: 1 cell measured with other parameters than the baseline:\n"
            "  hackbench-process-pipes 1 loops20: loops 20 (baseline 50)\n"));
  // Runs of one config are like with like: --strict prints the table.
  CHECK(schedlab_cmd({"compare", "loops50", "--db", db, "--strict"}).ok());
}

TEST_CASE("run --dry-run checks the SUT read-only; a run refused before its first iteration leaves no database") {
  test::TempDir dir;
  const std::string db = dir.file("none.db");
  const std::string cfg = dir.file("typo.yaml");
  // A sysctl the kernel does not have (enable for enabled): the run refuses
  // it at preflight, and so does the dry run now.
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\nvariants:\n"
                        "  default: {}\n  typo:\n    sysctl:\n      kernel.sched_autogroup_enable: 0\n");
  const auto dry = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  CHECK(dry.exit_code == 1);
  CHECK(
      test::one_line(dry.err).find(test::one_line(
          "variants.typo.sysctl: sysctl kernel.sched_autogroup_enable: does not exist on local")) !=
      std::string::npos);
  CHECK(dry.err.find("did you mean 'kernel.sched_autogroup_enabled'?") != std::string::npos);
  const auto run = schedlab_cmd({"run", cfg, "--db", db});
  CHECK(run.exit_code == 1);
  CHECK(run.err == dry.err);
  CHECK_FALSE(std::filesystem::exists(db));  // refused: nothing left behind
  // A value the knob cannot take is refused by both, before anything runs.
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\nvariants:\n"
                        "  default: {}\n  bad:\n    sysctl:\n      kernel.sched_autogroup_enabled: abc\n");
  const auto bad = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  CHECK(bad.exit_code == 2);
  CHECK(test::one_line(bad.err) ==
        test::one_line("schedlab: " + cfg +
                       ":8: variants.bad.sysctl.kernel.sched_autogroup_enabled: 'abc' is not an "
                       "integer from 0 to 1, "
                       "which kernel.sched_autogroup_enabled takes\n"));
  for (const char* value : {"\"0 1\"", "99999999999999999999"}) {
    test::write_text(cfg, std::string("iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n"
                                      "variants:\n  default: {}\n  bad:\n    sysctl:\n      "
                                      "kernel.sched_autogroup_enabled: ") +
                              value + "\n");
    CHECK(schedlab_cmd({"run", cfg, "--db", db}).exit_code == 2);
  }
  // A sysctl outside the ranges schedlab knows, checked against the SUT's
  // own value at preflight: vm.swappiness holds one integer.
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\nvariants:\n"
                        "  default: {}\n  bad:\n    sysctl:\n      vm.swappiness: '10 20'\n");
  const auto two = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  CHECK(two.exit_code == 1);
  CHECK(test::one_line(two.err).find(
            test::one_line("sysctl vm.swappiness: '10 20' has 2 values, vm.swappiness holds 1")) !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(db));
  // A good config's dry run says what it checked.
  test::write_text(cfg, "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\n");
  const auto good = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  CHECK(good.ok());
  CHECK(good.out.find("preflight on local: programs, CPUs and knobs checked, nothing changed") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(db));
}

// The kernel publishes no range for vm.swappiness: -5 passes the config and
// the read-only preflight, and the kernel refuses it (EINVAL). Every
// variant's knobs are written, read back and put back before the baseline
// is measured, so the run fails at once, naming the sysctl and both values.
TEST_CASE("a sysctl value the kernel does not take fails the run before the baseline is measured") {
  if (::geteuid() != 0) SCHEDLAB_SKIP("needs root to write vm.swappiness");
  LocalHost local;
  const std::string swappiness = read_sysctl(local, "vm.swappiness");
  const std::string autogroup = read_sysctl(local, "kernel.sched_autogroup_enabled");
  test::TempDir dir;
  const std::string cfg = dir.file("c.yaml"), db = dir.file("t.db");
  test::write_text(cfg,
                   "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\nvariants:\n"
                   "  default: {}\n  neg:\n    sysctl:\n      kernel.sched_autogroup_enabled: " +
                       std::string(autogroup == "0" ? "1" : "0") + "\n      vm.swappiness: -5\n");
  CHECK(schedlab_cmd({"run", cfg, "--db", db, "--dry-run"})
            .ok());  // read-only: nothing written to find out
  const auto r = schedlab_cmd({"run", cfg, "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(test::one_line(r.err).find(test::one_line(
            "schedlab: " + cfg + ":9: variants.neg.sysctl: sysctl vm.swappiness = -5: ")) !=
        std::string::npos);
  CHECK(r.err.find("restored '" + swappiness + "'; nothing was measured") != std::string::npos);
  CHECK(read_sysctl(local, "vm.swappiness") == swappiness);
  CHECK(read_sysctl(local, "kernel.sched_autogroup_enabled") == autogroup);
  Store store(db, Store::Access::kReadOnly);
  const auto runs = store.runs_table().list_runs();
  REQUIRE(runs.size() == 1);
  CHECK(to_string(runs[0].status) == "failed");
  CHECK(store.iterations_table().iterations(runs[0].id, true).empty());  // not even the baseline
  CHECK(store.journal().unrestored("local").empty());
  // Values the kernel takes: tried, put back, then run as usual.
  const std::string other = swappiness == "10" ? "11" : "10";
  test::write_text(cfg,
                   "iterations: 1\nworkloads:\n  - hackbench: {groups: [1], loops: 10}\nvariants:\n"
                   "  default: {}\n  low:\n    sysctl:\n      vm.swappiness: " +
                       other + "\n");
  const auto ok = schedlab_cmd({"run", cfg, "--db", db, "--name", "ok"});
  INFO(ok.err);
  CHECK(ok.ok());
  CHECK(read_sysctl(local, "vm.swappiness") == swappiness);
}

TEST_CASE("stop: sequential on real hackbench: each variant stops when its test decides, compare shows it") {
  test::TempDir dir;
  const std::string db = dir.file("seq.db");
  const std::string cfg = dir.file("seq.yaml");
  // Two variants alike (A/A): with a minimum effect of 50% the test calls
  // them the same (or, at most alpha of the time, different) in a few rounds,
  // long before the cap.
  test::write_text(cfg,
                   "iterations: {min: 3, max: 12, stop: sequential, alpha: 0.05, power: 0.8, min_effect_pct: 50}\n"
                   "workloads:\n  - hackbench: {groups: [1], loops: 200}\n"
                   "variants:\n  a: {}\n  b: {}\n");
  const auto dry = schedlab_cmd({"run", cfg, "--db", db, "--dry-run"});
  INFO(dry.out << dry.err);
  REQUIRE(dry.ok());
  CHECK(test::one_line(dry.out).find("3..12 until every variant is decided against the baseline (sequential: "
                                     "alpha 0.05, power 0.8, min effect 50%)") != std::string::npos);

  const auto r = schedlab_cmd({"run", cfg, "--db", db, "--name", "seq"});
  INFO(r.err);
  REQUIRE(r.ok());
  std::optional<PointStop> b;
  int base_iterations = 0;
  {
    Store store(db);
    const auto run = store.runs_table().find_run_by_name("seq");
    REQUIRE(run);
    for (const auto& s : store.point_stops_table().point_stops(run->id)) {
      if (s.sequential) b = s;
      else base_iterations = s.iterations;
    }
    REQUIRE(b);
    INFO("b: " << b->reason << " " << b->sequential->decision << " after " << b->iterations);
    CHECK(b->reason == "decided");
    CHECK(b->sequential->decision != "undecided");
    // At most the max: a busy machine's noise may take every iteration to decide.
    CHECK(b->iterations <= 12);
    CHECK(b->sequential->looks >= 1);
    CHECK(b->sequential->metric == "time");
    CHECK(base_iterations == b->iterations);
    CHECK(store.iterations_table().iterations(run->id).size() ==
          static_cast<std::size_t>(2 * b->iterations));
  }
  const auto json = schedlab_cmd({"compare", "seq", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  const auto& cell = j["blocks"][0]["rows"][0]["cells"][1];
  REQUIRE(cell["sequential"].is_object());
  CHECK(cell["sequential"]["decision"] == b->sequential->decision);
  CHECK(cell["sequential"]["looks"] == b->sequential->looks);
  CHECK(cell["sequential"]["method"] ==
        fmt::format("stage-wise ordering, {} look{}", b->sequential->looks, b->sequential->looks == 1 ? "" : "s"));
  CHECK(cell["p_value"] == cell["sequential"]["p_value"]);
  CHECK(j["blocks"][0]["rows"][0]["cells"][0]["sequential"].is_null());
  const auto text = schedlab_cmd({"compare", "seq", "--db", db});
  INFO(text.out);
  REQUIRE(text.ok());
  // The note wraps at 100 columns: compared with its line breaks as spaces.
  const std::string flat = test::one_line(text.out);
  CHECK(flat.find("stop: sequential (alpha 0.05, power 0.8, min effect 50%, at most 12 iterations): D = "
                  "different, S = same") != std::string::npos);
  CHECK(text.out.find("hackbench-process-pipes 1 b time: " + b->sequential->decision + " (decided) after") !=
        std::string::npos);
}

TEST_CASE("run: the table on stdout (text, markdown or JSON), none with --quiet; the run's line on stderr") {
  test::TempDir dir;
  const std::string db = dir.file("q.db");
  const std::string cfg = dir.file("tiny.yaml");
  test::write_text(cfg, kTinyConfig);
  const auto json = schedlab_cmd({"run", cfg, "--db", db, "--name", "j", "--iterations", "2", "--format", "json"});
  INFO(json.err);
  REQUIRE(json.ok());
  // A script gets the run's id from the JSON, or from the stable line.
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["runs"][0]["id"] == 1);
  CHECK(j["runs"][0]["name"] == "j");
  CHECK(json.out == schedlab_cmd({"compare", "j", "--db", db, "--format", "json"}).out);
  CHECK(test::one_line(json.err).find(test::one_line(
            "run 1 'j' finished: 16 iterations measured (0 failed) in " + db + "\n")) !=
        std::string::npos);
  const auto quiet = schedlab_cmd({"run", cfg, "--db", db, "--name", "q", "--iterations", "1", "--quiet"});
  REQUIRE(quiet.ok());
  CHECK(quiet.out.empty());
  CHECK(quiet.err.find("run 2 'q' finished: 8 iterations measured (0 failed)") != std::string::npos);
  const auto md = schedlab_cmd({"run", cfg, "--db", db, "--name", "m", "--iterations", "1", "--format", "markdown"});
  REQUIRE(md.ok());
  CHECK(md.out == schedlab_cmd({"compare", "m", "--db", db, "--format", "markdown"}).out);
}

TEST_CASE("run: the status line on a terminal cut to its width; --progress, --no-progress and TERM=dumb") {
  test::TempDir dir;
  const std::string db = dir.file("p.db");
  const std::string cfg = dir.file("tiny.yaml");
  test::write_text(cfg, kTinyConfig);
  // Off a terminal: nothing by default; --progress: a plain line per
  // iteration, no escape sequence.
  const auto quiet = schedlab_cmd({"run", cfg, "--db", db, "--name", "a", "--iterations", "1"});
  REQUIRE(quiet.ok());
  CHECK(quiet.err.find("[1/8]") == std::string::npos);
  const auto plain = schedlab_cmd({"run", cfg, "--db", db, "--name", "b", "--iterations", "1", "--progress"});
  INFO(plain.err);
  REQUIRE(plain.ok());
  CHECK(plain.err.find("[1/8] hackbench-process-pipes groups=1 variant=default iter 1\n") != std::string::npos);
  CHECK(plain.err.find("[8/8] hackbench-thread-sockets groups=2 variant=sched-batch iter 1  ETA ") != std::string::npos);
  CHECK(plain.err.find('\x1b') == std::string::npos);
  const auto both = schedlab_cmd({"run", cfg, "--db", db, "--progress", "--no-progress"});
  CHECK(both.exit_code == 2);

  // On a terminal (util-linux's script gives the run a pty) 40 columns wide.
  LocalHost host;
  const auto on_tty = [&](const std::string& name, const std::string& flags, const std::string& term) {
    Command cmd;
    cmd.argv = {"script", "-qec",
                "stty cols 40 rows 20; exec " + std::string(SCHEDLAB_BINARY) + " run " + cfg + " --db " + db +
                    " --name " + name + " --iterations 1 --quiet" + flags,
                "/dev/null"};
    cmd.env = {{"TERM", term}};
    cmd.timeout = std::chrono::seconds(240);
    return host.run(cmd);
  };
  const auto tty = on_tty("c", "", "xterm");
  INFO(tty.out << tty.err);
  REQUIRE(tty.ok());
  REQUIRE(tty.out.find("\r\x1b[K[1/8] ") != std::string::npos);
  // Every rewrite of the line fits 39 columns: none wraps.
  std::size_t rewrites = 0;
  for (std::size_t at = tty.out.find("\r\x1b[K"); at != std::string::npos; at = tty.out.find("\r\x1b[K", at + 1)) {
    const auto begin = at + 4;
    const auto end = tty.out.find_first_of("\r\n", begin);
    const std::string shown = tty.out.substr(begin, end - begin);
    // The last clear is followed by the run's own line, not a status.
    if (!shown.starts_with("[")) continue;
    INFO(shown);
    CHECK(shown.size() <= 39);
    ++rewrites;
  }
  CHECK(rewrites >= 8);
  const auto off = on_tty("d", " --no-progress", "xterm");
  REQUIRE(off.ok());
  CHECK(off.out.find("[1/8]") == std::string::npos);
  const auto dumb = on_tty("e", "", "dumb");
  REQUIRE(dumb.ok());
  CHECK(dumb.out.find("[1/8]") == std::string::npos);
  const auto dumb_asked = on_tty("f", " --progress", "dumb");
  REQUIRE(dumb_asked.ok());
  CHECK(dumb_asked.out.find("[1/8] ") != std::string::npos);
  CHECK(dumb_asked.out.find('\x1b') == std::string::npos);
}

TEST_CASE("list keeps its columns aligned for long names; a database error names the file") {
  test::TempDir dir;
  const std::string db = dir.file("l.db");
  const std::string cfg = dir.file("tiny.yaml");
  test::write_text(cfg, kTinyConfig);
  const std::string long_name = "a-run-name-well-past-the-thirty-two-columns-list-had";
  REQUIRE(schedlab_cmd({"run", cfg, "--db", db, "--name", long_name, "--iterations", "1", "--quiet"}).ok());
  REQUIRE(schedlab_cmd({"run", cfg, "--db", db, "--name", "short", "--iterations", "1", "--quiet"}).ok());
  const auto list = schedlab_cmd({"list", "--db", db});
  INFO(list.out);
  REQUIRE(list.ok());
  std::istringstream lines(list.out);
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  // Within 100 columns: the long name is its run's short label, named under the list.
  REQUIRE(got.size() == 4);
  CHECK(got[3] == "runs: r1 = " + long_name);
  for (const auto& line : got) CHECK(line.size() <= 100);
  // The status column starts at the same place on every line.
  const auto status_at = got[0].find("status");
  CHECK(got[1].find("finished") == status_at);
  CHECK(got[2].find("finished") == status_at);
  // So does the kernel column, after the long name.
  const auto kernel_at = got[0].find("kernel");
  for (std::size_t i : {1, 2}) {
    REQUIRE(got[i].size() > kernel_at);
    CHECK(got[i][kernel_at - 1] == ' ');
    CHECK(got[i][kernel_at] != ' ');
  }

  // Not a database: the message says which file.
  const std::string junk = dir.file("junk.db");
  test::write_text(junk, std::string(4096, 'x'));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"list"}, {"compare"},
                                               {"history", "--workload", "hackbench", "--metric", "time"},
                                               {"run", cfg, "--iterations", "1"}}) {
    auto argv = args;
    argv.insert(argv.end(), {"--db", junk});
    const auto r = schedlab_cmd(argv);
    INFO(args.front() << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("junk.db") != std::string::npos);
    CHECK(r.err.find("sqlite:") == std::string::npos);
  }
}
