// Rows of a database that name other rows, read back by the commands that
// trust them (hostile7, issue 44): a nightly measurement whose run is gone,
// an iteration of another run's variant. Each is either refused, naming the
// row, or acted on as what it is; never a silent gap in a report.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "base/file.h"
#include "base/text.h"
#include "tests/support/one_line.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"
#include "tests/support/value_config.h"

using namespace schedlab;
using namespace schedlab::test;

TEST_CASE("nightly measures again a target whose reused measurement names no run (hostile7)") {
  TempDir dir;
  const std::string db = dir.file("n.db"), config = two_value_runs(dir, db);
  const std::string night = reused_nightly(dir, db, config);
  SECTION("the run was removed") {
    REQUIRE(schedlab_cmd({"rm", "--db", db, "2"}).exit_code == 0);
  }
  SECTION("the row names a run that is not there") {
    REQUIRE(exec_raw(db, "UPDATE nightly_measurements SET run_id = 99 WHERE target = 't2'"));
  }
  SECTION("the row names a finished run of another config (issue 44)") {
    REQUIRE(exec_raw(db, "UPDATE runs SET config_text = config_text || '# other' WHERE id = 2"));
  }
  // Before: both reused, t2 in no comparison, "No regression", exit 0.
  // Now t2 is measured again: its hook fails, and the night says so
  // (exit 2, t2 failed in the targets' table).
  const auto r = schedlab_cmd({"nightly", night, "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("t2 / " + config + ": the measurement of an earlier night names"));
  CHECK_THAT(one_line(r.err), Catch::Contains("measuring again"));
  CHECK_THAT(r.out, Catch::Contains("| failed: hook false: exit 1 |"));
}

TEST_CASE("compare and export refuse an iteration of another run's variant, naming it (hostile7)") {
  // compare left it out of every column unsaid (n 4 of 5), list counted it,
  // merge refused it.
  TempDir dir;
  const std::string db = dir.file("v.db");
  two_value_runs(dir, db);
  REQUIRE(exec_raw(db,
                   "UPDATE iterations SET variant_id = (SELECT id FROM variants WHERE run_id = 2) "
                   "WHERE id = (SELECT min(id) FROM iterations WHERE run_id = 1)"));
  const std::string id = raw(db, "SELECT min(id) FROM iterations WHERE run_id = 1");
  const std::string variant = raw(db, "SELECT id FROM variants WHERE run_id = 2");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", "r1"}, {"export", "--format", "kcidb", "r1"}}) {
    auto with_db = args;
    with_db.insert(with_db.end(), {"--db", db});
    const auto r = schedlab_cmd(with_db);
    INFO(args[0]);
    CHECK(r.exit_code != 0);
    CHECK_THAT(one_line(r.err),
               Catch::Contains(fmt::format("(id {}) names variant id {}, no "
                                           "variant of its run (a damaged or crafted database)",
                                           id, variant)));
  }
}

TEST_CASE("nightly reuses a measurement of its config named by another path (hostile8)") {
  // The measurements name the config by its absolute path; this nightly
  // names the same file (same text, same sha) as './c.yaml'. The reused
  // cells kept the stored path, so the report's targets table and
  // comparisons (which look cells up by this nightly's path) had none of
  // them: "No regression", exit 0, with nothing compared.
  TempDir dir;
  const std::string db = dir.file("n.db"), config = two_value_runs(dir, db);
  reused_nightly(dir, db, config);
  write_text(dir.file("night2.yaml"),
             "name: hn\nbaseline: t1\ntargets:\n  - name: t1\n    hook: [\"false\"]\n"
             "  - name: t2\n    hook: [\"false\"]\nconfigs: [./c.yaml]\n");
  const auto r = schedlab_cmd({"nightly", dir.file("night2.yaml"), "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const std::string named = dir.file("./c.yaml");
  CHECK_THAT(r.out, Catch::Contains("| t1 (baseline) | 6.1 | " + named +
                                    " | measured | 1 | no (reused) |"));
  CHECK_THAT(r.out, Catch::Contains("| t2 | 6.1 | " + named + " | measured | 2 | no (reused) |"));
  CHECK_THAT(r.out, Catch::Contains("### " + named + ": t2 vs t1 (baseline)"));
}

TEST_CASE("a run named twice is refused by compare and export, removed once by rm (hostile8)") {
  // compare 1 r1 gave the run's columns twice; export --format otava 1 1
  // wrote it as two rows ("8 cells of 2 runs"); rm 1 r1 removed nothing and
  // said "no run with id 1".
  TempDir dir;
  const std::string db = dir.file("d.db");
  two_value_runs(dir, db);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"compare", "1", "r1"},
                                               {"export", "--format", "otava", "r1", "1"}}) {
    auto with_db = args;
    with_db.insert(with_db.end(), {"--db", db});
    const auto r = schedlab_cmd(with_db);
    INFO(args[0]);
    CHECK(r.exit_code == 2);
    CHECK_THAT(one_line(r.err),
               Catch::Contains(
                   fmt::format("run 1 'r1' is named twice, as '{}' and '{}': name each run once",
                               args[args.size() - 2], args.back())));
  }
  const auto rm = schedlab_cmd({"rm", "--db", db, "1", "r1"});
  CHECK(rm.exit_code == 0);
  CHECK(rm.err == "removed run 1 'r1'\n");
  CHECK(raw(db, "SELECT count(*) FROM runs") == "1");
  // A group's name from the command line, escaped like a run's.
  const auto group = schedlab_cmd({"compare", "--db", db, "--group", "g\x1b]0;x\x07"});
  CHECK(group.err.find('\x1b') == std::string::npos);
  CHECK_THAT(group.err, Catch::Contains("no runs of group 'g\\x1b]0;x\\x07'"));
}

TEST_CASE("a stored value that is no number is named as what it holds (hostile8)") {
  // hostile7 7: a delta or sample stored as text 'abc' read back as NaN:
  // "nan is not finite".
  TempDir dir;
  const std::string db = dir.file("t.db");
  two_value_runs(dir, db);
  const std::string id = raw(db, "SELECT min(id) FROM iterations WHERE run_id = 1");
  REQUIRE(exec_raw(db, "INSERT INTO monitor_deltas VALUES (" + id + ", 'stat', 'ctxt', 'abc')"));
  auto r = schedlab_cmd({"compare", "--db", db, "r1", "--monitors"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("iteration id " + id +
                             ": stat counter ctxt: its value is text 'abc', not a number"));
  REQUIRE(exec_raw(db, "DELETE FROM monitor_deltas"));
  REQUIRE(exec_raw(db, "UPDATE samples SET value = x'00ff' WHERE iteration_id = " + id));
  r = schedlab_cmd({"compare", "--db", db, "r1"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("sample of t: its value is a blob of 2 bytes, not a number"));
  // history's scan of every run's samples said "nan is not finite" (hostile8 A5).
  r = schedlab_cmd({"history", "--db", db, "--workload", "reader", "--metric", "t"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("sample of t: its value is a blob of 2 bytes, not a number"));
}

TEST_CASE("a tasks row that is no CPU's count is refused by compare --monitors (hostile8)") {
  // std::stoi read cpu_hits.1e9 as CPU 1 (its count added there), and
  // cpu_hits.99999999999 stopped compare --monitors and report with a bare
  // "stoi".
  TempDir dir;
  const std::string db = dir.file("h.db");
  two_value_runs(dir, db);
  const std::string id = raw(db, "SELECT min(id) FROM iterations WHERE run_id = 1");
  for (const char* row : {"'cpu_hits.1e9', 5", "'cpu_hits.99999999999', 5", "'cpu_hits.1', -5"}) {
    REQUIRE(exec_raw(db, "DELETE FROM monitor_deltas"));
    REQUIRE(exec_raw(db, "INSERT INTO monitor_deltas VALUES (" + id +
                             ", 'tasks', 'samples', 9), (" + id + ", 'tasks', " + row + ")"));
    const auto r = schedlab_cmd({"compare", "--db", db, "r1", "--monitors"});
    INFO(row);
    CHECK(r.exit_code != 0);
    CHECK_THAT(one_line(r.err),
               Catch::Contains("iteration id " + id + ": tasks counter cpu_hits.") &&
                   Catch::Contains("is not a CPU's count of samples"));
  }
}

TEST_CASE("resume names the run and point of a stored sequential test it cannot go on with") {
  // hostile7 41: "a past look needs its fraction and needed n", naming
  // neither.
  TempDir dir;
  const std::string db = dir.file("s.db"), config = dir.file("s.yaml");
  write_text(config, R"(iterations: {stop: sequential, min: 3, max: 6, min_effect_pct: 30}
workloads:
  - command:
      name: reader
      argv: [sh, -c, 'echo $((100 + $$ % 7))']
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
      monitors: []
variants:
  a: {}
  b: {}
)");
  REQUIRE(schedlab_cmd({"run", config, "--db", db, "--name", "s", "--quiet"}).exit_code == 0);
  REQUIRE(exec_raw(db,
                   "UPDATE runs SET status = 'interrupted'; UPDATE point_stops SET reason = "
                   "'looking', seq_decision = 'undecided', seq_looks_json = "
                   "'[{\"fraction\": 0.1, \"n\": 3, \"needed_n\": -1}]' WHERE seq_metric "
                   "IS NOT NULL; UPDATE point_stops SET reason = 'looking'"));
  const auto r = schedlab_cmd({"run", "--resume", "s", "--db", db, "--quiet"});
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK_THAT(one_line(r.err),
             Catch::Contains("run 1 's', reader: its stored sequential test: a past look needs its "
                             "fraction and needed n"));
  // hostile9: a look's n past the cap (1e300 let no later look be taken:
  // "undecided, n 3 vs 3" over 6 a side).
  for (const auto& [look, says] : std::vector<std::pair<std::string, std::string>>{
           {R"({"fraction": 0.1, "n": 1e300, "needed_n": 3})",
            "a past look's n 1e+300 is not within the cap of 6 iterations a side"},
           {R"({"fraction": 0.1, "n": 7, "needed_n": 3})", "a past look's n 7 is not within"}}) {
    REQUIRE(exec_raw(db,
                     "UPDATE runs SET status = 'interrupted'; UPDATE point_stops SET "
                     "seq_looks_json = '[" +
                         look + "]' WHERE seq_metric IS NOT NULL"));
    const auto again = schedlab_cmd({"run", "--resume", "s", "--db", db, "--quiet"});
    INFO(again.err);
    CHECK(again.exit_code != 0);
    CHECK_THAT(one_line(again.err),
               Catch::Contains("run 1 's', reader: its stored sequential test: " + says));
  }
}

TEST_CASE("run --resume runs no config of a run started elsewhere (hostile11)") {
  // hostile11: a crafted interrupted run whose stored config's command
  // touched a file ran it at `run --resume`.
  TempDir dir;
  const std::string db = dir.file("r.db"), config = two_value_runs(dir, db);
  const std::string touched = dir.file("PWNED");
  const std::string evil = fmt::format(
      "iterations: 1\nworkloads:\n  - command:\n      name: reader\n      argv: [touch, {}]\n"
      "      metrics:\n        t: {{regex: \"^(?<value>[0-9]+)$\", direction: lower}}\n"
      "      monitors: []\n",
      touched);
  // The run's own config, resumed here: its tag holds (and without the tag,
  // the file at its path holds the text stored).
  REQUIRE(exec_raw(db, "UPDATE runs SET status = 'interrupted' WHERE id = 2"));
  CHECK(schedlab_cmd({"run", "--resume", "r2", "--db", db, "--quiet"}).exit_code == 0);
  REQUIRE(
      exec_raw(db, "UPDATE runs SET status = 'interrupted', manifest_json = '{}' WHERE id = 2"));
  CHECK(schedlab_cmd({"run", "--resume", "r2", "--db", db, "--quiet"}).exit_code == 0);
  // Another config text under the same path and tag: refused, nothing run.
  REQUIRE(exec_raw(db, fmt::format("UPDATE runs SET status = 'interrupted', config_text = '{}' "
                                   "WHERE id = 1",
                                   evil)));
  const auto r = schedlab_cmd({"run", "--resume", "r1", "--db", db});
  CHECK(r.exit_code == 2);
  CHECK_THAT(one_line(r.err),
             Catch::Contains(one_line(
                 "run 1 'r1' was not started by this user on this machine (a database from "
                 "elsewhere, or a schedlab before runs were marked), and its config " +
                 config + " is not here as it is stored: its config is not run")));
  CHECK_FALSE(std::filesystem::exists(touched));
}

TEST_CASE("a stdout that cannot be written is an error, not exit 0 (hostile11)") {
  // hostile11: compare, list and stats > /dev/full exited 0 with nothing written.
  TempDir dir;
  const std::string db = dir.file("w.db");
  two_value_runs(dir, db);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"list", "--db", db},
                                               {"compare", "--db", db, "r1"},
                                               {"compare", "--db", db, "r1", "--format", "csv"}}) {
    LocalHost host;
    Command c{.argv = {"sh", "-c", "\"$0\" \"$@\" > /dev/full", SCHEDLAB_BINARY}};
    c.argv.insert(c.argv.end(), args.begin(), args.end());
    const auto r = host.run(c);
    INFO(args[0] << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err == "schedlab: cannot write stdout: No space left on device\n");
  }
}

TEST_CASE("a stderr closed or full loses the messages, not the command (hostile13)") {
  // hostile13: with `2>&-` or `2>/dev/full`, every message (an error, report's "wrote",
  // import's count) threw from fmt::print and ended schedlab in std::terminate (SIGABRT, exit
  // 134), after import had stored its run.
  TempDir dir;
  const std::string db = dir.file("e.db");
  two_value_runs(dir, db);
  for (const std::string redirect : {"2>&-", "2>/dev/full"}) {
    INFO(redirect);
    const auto run = [&](const std::vector<std::string>& args) {
      LocalHost host;
      Command c{.argv = {"sh", "-c", "\"$0\" \"$@\" " + redirect, SCHEDLAB_BINARY}};
      c.argv.insert(c.argv.end(), args.begin(), args.end());
      return host.run(c).exit_code;
    };
    CHECK(run({"compare", "--db", db, "no-such-run"}) == 2);
    const std::string page = dir.file("p" + std::to_string(redirect.size()) + ".html");
    CHECK(run({"report", "--db", db, "r1", "-o", page}) == 0);
    CHECK(read_file(page).ends_with("</html>\n"));
  }
}

TEST_CASE(
    "XDG_CACHE_HOME in a folder others can change holds no lab cache and no secret (hostile13)") {
  // hostile12 refused SCHEDLAB_LAB_CACHE there; XDG_CACHE_HOME still named the lab's cache and
  // the secret that marks this user's runs and bisections, which another user could put in place.
  TempDir dir;
  const std::string shared = dir.file("shared");
  std::filesystem::create_directory(shared);
  std::filesystem::permissions(shared, std::filesystem::perms::all);
  const auto run = [&](std::vector<std::string> args) {
    LocalHost host;
    Command c{
        .argv = {"env", "-u", "SCHEDLAB_LAB_CACHE", "XDG_CACHE_HOME=" + shared, SCHEDLAB_BINARY}};
    c.argv.insert(c.argv.end(), args.begin(), args.end());
    return host.run(c);
  };
  const auto lab = run({"lab", "list"});
  CHECK(lab.exit_code != 0);
  CHECK_THAT(one_line(lab.err),
             Catch::Contains("XDG_CACHE_HOME: " + shared) &&
                 Catch::Contains("is writable by every user and has no sticky bit"));
  const std::string config = value_config(dir);
  CHECK(run({"run", config, "--db", dir.file("x.db")}).exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(shared + "/schedlab/local-secret"));
}

TEST_CASE(
    "nightly resumes no run of another config: it says so and starts a fresh one (issue 44)") {
  // hostile13 #20: a crafted `measuring` row naming a running run of another
  // config was resumed with the nightly's config: two configs' iterations
  // in one run, which then stood for the nightly's config.
  TempDir dir;
  const std::string db = dir.file("n.db"), config = value_config(dir);
  write_text(dir.file("other.yaml"), read_file(config) + "# another config\n");
  REQUIRE(schedlab_cmd({"run", dir.file("other.yaml"), "--db", db, "--name", "x"}).exit_code == 0);
  REQUIRE(exec_raw(
      db, fmt::format("UPDATE runs SET status = 'running' WHERE id = 1; "
                      "INSERT INTO nightly_measurements (nightly, target, config_path, "
                      "config_sha256, run_id, status, error, hook_output, kernel_release, "
                      "started_at) VALUES ('hn', 't1', '{}', '{}', 1, 'measuring', '', '', '', "
                      "'2026-12-06T17:00:00Z')",
                      config, sha256_file(config))));
  write_text(
      dir.file("night.yaml"),
      fmt::format("name: hn\nbaseline: t1\ntargets:\n  - name: t1\nconfigs: [{}]\n", config));
  const auto r = schedlab_cmd({"nightly", dir.file("night.yaml"), "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(one_line(r.err),
             Catch::Contains(one_line(fmt::format(
                 "t1 / {}: run 1 holds another config than {} (sha256 {}, this one {}); not "
                 "resumed: starting a fresh run",
                 config, config, sha256_file(dir.file("other.yaml")).substr(0, 12),
                 sha256_file(config).substr(0, 12)))));
  CHECK(r.err.find("resuming run 1") == std::string::npos);
  // Run 1 keeps its own 5 iterations; run 2 measured the nightly's config.
  CHECK(raw(db, "SELECT count(*) FROM iterations WHERE run_id = 1") == "5");
  CHECK(raw(db, "SELECT count(*) FROM iterations WHERE run_id = 2") == "5");
  CHECK(raw(db, "SELECT status FROM runs WHERE id = 2") == "finished");
  CHECK(raw(db,
            "SELECT group_concat(status || ':' || ifnull(run_id, ''), ' ') FROM "
            "nightly_measurements ORDER BY id") == "failed:1 measured:2");
  CHECK_THAT(raw(db, "SELECT error FROM nightly_measurements WHERE id = 1"),
             Catch::Contains("run 1 holds another config"));
}

TEST_CASE("compare names the runs that hold no metric rows and exits 1 (issue 44)") {
  // hostile12 #20: after DELETE FROM metrics, compare printed its header and
  // no table, exit 0, as if the runs had nothing to say.
  TempDir dir;
  const std::string db = dir.file("m.db");
  two_value_runs(dir, db);
  REQUIRE(exec_raw(db, "DELETE FROM metrics WHERE run_id = 2"));
  const auto one = schedlab_cmd({"compare", "--db", db, "r1", "r2"});
  INFO(one.out << one.err);
  CHECK(one.exit_code == 1);
  CHECK(one.out.empty());
  CHECK_THAT(one_line(one.err),
             Catch::Contains(one_line(db + ": run 2 'r2' holds no metric rows (a damaged or "
                                           "crafted database): nothing to compare")));
  CHECK(schedlab_cmd({"compare", "--db", db, "r1"}).exit_code == 0);
  REQUIRE(exec_raw(db, "DELETE FROM metrics"));
  const auto both = schedlab_cmd({"compare", "--db", db, "r1", "r2"});
  CHECK(both.exit_code == 1);
  CHECK_THAT(one_line(both.err), Catch::Contains("run 1 'r1', run 2 'r2' hold no metric rows"));
  CHECK(schedlab_cmd({"compare", "--db", db, "r1"}).exit_code == 1);
}

TEST_CASE("compare refuses a run whose metric rows all name another workload (hostile15 19)") {
  // UPDATE metrics SET workload = 'zzz': rows remain, none of the workload the
  // iterations measured; compare printed the header, no table, exit 0.
  TempDir dir;
  const std::string db = dir.file("w.db");
  two_value_runs(dir, db);
  REQUIRE(exec_raw(db, "UPDATE metrics SET workload = 'zzz' WHERE run_id = 2"));
  const auto r = schedlab_cmd({"compare", "--db", db, "r1", "r2"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK_THAT(one_line(r.err),
             Catch::Contains(one_line(db + ": run 2 'r2' holds no metric rows for its workload "
                                           "'reader' (its metric rows name other workloads")));
  CHECK(schedlab_cmd({"compare", "--db", db, "r1"}).exit_code == 0);
}

TEST_CASE(
    "nightly resumes no run of another target: it says so and starts a fresh one "
    "(hostile15 20)") {
  // A crafted `measuring` row of t2 naming t1's unfinished run (the same
  // config text) resumed it as t2's: "t2: resuming run 1", t1's iterations
  // reported as t2's measurement.
  TempDir dir;
  const std::string db = dir.file("n.db"), config = value_config(dir);
  REQUIRE(schedlab_cmd({"run", config, "--db", db, "--name", "nightly hn t1 c #1"}).exit_code == 0);
  const std::string sha = sha256_file(config);
  REQUIRE(exec_raw(db, "UPDATE runs SET status = 'running' WHERE id = 1"));
  for (const char* target : {"t1", "t2"})
    REQUIRE(exec_raw(
        db, fmt::format("INSERT INTO nightly_measurements (nightly, target, config_path, "
                        "config_sha256, run_id, status, error, hook_output, kernel_release, "
                        "started_at) VALUES ('hn', '{}', '{}', '{}', 1, 'measuring', '', '', '', "
                        "'2026-12-06T17:00:00Z')",
                        target, config, sha)));
  write_text(dir.file("night.yaml"),
             fmt::format("name: hn\nbaseline: t1\ntargets:\n  - name: t1\n  - name: t2\n"
                         "configs: [{}]\n",
                         config));
  const auto r = schedlab_cmd({"nightly", dir.file("night.yaml"), "--db", db});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("t1 / " + config + ": resuming run 1"));
  CHECK_THAT(one_line(r.err),
             Catch::Contains(one_line(fmt::format(
                 "t2 / {}: run 1 is 'nightly hn t1 c #1', not this measurement's run 'nightly hn "
                 "t2 c #2'; not resumed: starting a fresh run",
                 config))));
  CHECK(r.err.find("t2 / " + config + ": resuming") == std::string::npos);
  // t2 measured by a run of its own.
  CHECK(raw(db,
            "SELECT group_concat(target || ':' || status || ':' || ifnull(run_id, ''), ' ') FROM "
            "nightly_measurements ORDER BY id") == "t1:measured:1 t2:failed:1 t2:measured:2");
  CHECK(raw(db, "SELECT name || ':' || status FROM runs WHERE id = 2") ==
        "nightly hn t2 c #3:finished");
  CHECK(raw(db, "SELECT count(*) FROM iterations WHERE run_id = 2") == "5");
}

TEST_CASE(
    "a copy without its schema version (sqlite3 .dump) is called the same by list and rm "
    "(hostile15 17)") {
  // .dump writes no PRAGMA user_version: list said "a command that writes
  // (schedlab restore) migrates it", which rm and restore then refused.
  TempDir dir;
  const std::string db = dir.file("d.db");
  REQUIRE(schedlab_cmd({"run", value_config(dir), "--db", db, "--name", "r"}).exit_code == 0);
  REQUIRE(exec_raw(db, "PRAGMA user_version = 0"));
  const std::string why =
      db +
      ": not a schedlab database (a SQLite database of another program, or a copy of one of "
      "schedlab's that lost its schema version, as sqlite3's .dump does: it has tables but "
      "no schedlab schema version); nothing ";
  const auto list = schedlab_cmd({"list", "--db", db});
  CHECK(list.exit_code == 1);
  CHECK_THAT(one_line(list.err), Catch::Contains(one_line(why + "read")));
  const auto rm = schedlab_cmd({"rm", "--db", db, "r"});
  CHECK(rm.exit_code == 2);  // rm: bad input
  CHECK_THAT(one_line(rm.err), Catch::Contains(one_line(why + "written")));
  CHECK(raw(db, "SELECT count(*) FROM runs") == "1");
}

TEST_CASE(
    "a -wal or -shm link beside a database is named in plain words, not as a SELECT "
    "(hostile15 6)") {
  // SQLite opens neither through a link: rm said "unable to open database
  // file (SELECT (SELECT user_version ...))".
  TempDir dir;
  const std::string db = dir.file("l.db");
  REQUIRE(schedlab_cmd({"run", value_config(dir), "--db", db, "--name", "r"}).exit_code == 0);
  write_text(dir.file("victim"), "victim\n");
  for (const char* side : {"-shm", "-wal"}) {
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    std::filesystem::create_symlink(dir.file("victim"), db + side);
    const auto r = schedlab_cmd({"rm", "--db", db, "r"});
    INFO(side << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(one_line(r.err) ==
          one_line("schedlab rm: " + db + ": cannot open database: " + db + side +
                   " is a symbolic link, and SQLite opens its -wal and -shm files through none; "
                   "nothing written (remove the link: SQLite makes the file anew)\n"));
    CHECK(r.err.find("SELECT") == std::string::npos);
    CHECK(read_file(dir.file("victim")) == "victim\n");
  }
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
  CHECK(schedlab_cmd({"rm", "--db", db, "r"}).exit_code == 0);
}

TEST_CASE(
    "compare and history refuse runs that declare a metric in two units or directions "
    "(hostile16)") {
  // A command workload's unit edited from none to us between two runs:
  // compare printed run 2's 4000 in run 1's scale (-3900.00%), history in
  // the latest run's, and an edited direction turned every verdict round.
  TempDir dir;
  const std::string db = dir.file("u.db"), config = value_config(dir);
  REQUIRE(schedlab_cmd({"run", config, "--db", db, "--name", "r1"}).exit_code == 0);
  std::string text = read_file(config);
  const std::string lower = "direction: lower";
  text.replace(text.find(lower), lower.size(), "direction: lower\n          unit: us");
  write_text(config, text);
  write_text(dir.file("value"), "4000\n");
  REQUIRE(schedlab_cmd({"run", config, "--db", db, "--name", "r2"}).exit_code == 0);
  const std::string table =
      "reader t: run 1 'r1' declares it with no unit, lower is better, a sample per run, run 2 "
      "'r2' in us, lower is better, a sample per run: one table cannot show both";
  const std::string history =
      "reader t: run 1 'r1' declares it with no unit, lower is better, a sample per run, its "
      "centre amean, run 2 'r2' in us, lower is better, a sample per run, its centre amean: one "
      "series cannot hold both";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", "r1", "r2"},
        {"history", "--workload", "reader", "--metric", "t"}}) {
    auto with_db = args;
    with_db.insert(with_db.end(), {"--db", db});
    const auto r = schedlab_cmd(with_db);
    INFO(args[0] << ": " << r.out << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.out.find("4000") == std::string::npos);
    CHECK_THAT(one_line(r.err), Catch::Contains(args[0] == "history" ? history : table));
  }
  // Otava: the series is left out, so nothing is exported.
  const auto otava = schedlab_cmd({"export", "--format", "otava", "r1", "r2", "--db", db});
  CHECK(otava.exit_code != 0);
  CHECK(otava.out.find("4000") == std::string::npos);
  // Each run on its own is its own scale.
  CHECK(schedlab_cmd({"compare", "r2", "--db", db}).exit_code == 0);
  // A centre edited: compare takes the first column's for every column;
  // history's cells are each run's own, so it refuses a series of two.
  const std::string centre = dir.file("c.db");
  REQUIRE(schedlab_cmd({"run", config, "--db", centre, "--name", "r1"}).exit_code == 0);
  text.replace(text.find("unit: us"), 8, "unit: us\n          centre: median");
  write_text(config, text);
  REQUIRE(schedlab_cmd({"run", config, "--db", centre, "--name", "r3"}).exit_code == 0);
  CHECK(schedlab_cmd({"compare", "r1", "r3", "--db", centre}).exit_code == 0);
  const auto h = schedlab_cmd({"history", "--workload", "reader", "--metric", "t", "--db", centre});
  CHECK(h.exit_code != 0);
  CHECK_THAT(one_line(h.err), Catch::Contains("its centre amean, run 2 'r3' in us, lower is "
                                              "better, a sample per run, its centre median"));
}
