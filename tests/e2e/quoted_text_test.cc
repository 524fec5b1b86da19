// Text from elsewhere that schedlab quotes back: a parser's error quoting
// the output's line, rm's message naming a run, nightly's markdown naming
// runs and kernels, bisect's progress lines naming candidates (hostile6,
// issue 44: 8, 20, 22-24, 38, 40). An escape sequence or a bidirectional
// override reaches the terminal escaped, and a newline cannot forge a line.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/text.h"
#include "tests/support/one_line.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/temp_dir.h"
#include "tests/support/value_config.h"

using namespace schedlab;
using namespace schedlab::test;

namespace {

// No ESC, BEL or right-to-left override in TEXT.
bool terminal_clean(const std::string& text) {
  return text.find('\x1b') == std::string::npos && text.find('\x07') == std::string::npos &&
         text.find("\xe2\x80\xae") == std::string::npos;
}

}  // namespace

TEST_CASE("parse and import quote an output's line escaped (hostile6 40)") {
  TempDir dir;
  write_text(dir.file("h"),
             "Running in process mode with 1 groups using 40 file descriptors each (== 40 "
             "tasks)\nTime: 0.084\nTime: 0.1 \x1b]0;p\x07\n");
  write_text(dir.file("s"), "garbage \x1b]0;p\x07\xe2\x80\xae\n");
  const auto hackbench = schedlab_cmd({"parse", "hackbench", dir.file("h")});
  CHECK(terminal_clean(hackbench.err));
  CHECK(one_line(hackbench.err).find("without a number: Time: 0.1 \\x1b]0;p\\x07") !=
        std::string::npos);
  const auto schbench = schedlab_cmd({"parse", "schbench", dir.file("s")});
  CHECK(terminal_clean(schbench.err));
  CHECK(one_line(schbench.err).find("in the output: garbage \\x1b]0;p\\x07\\u202e") !=
        std::string::npos);
  const auto import = schedlab_cmd({"import", "hackbench", "--name", "x", "--db", dir.file("i.db"),
                                    "--param", "groups=1", "--variant", "v", dir.file("h")});
  CHECK(terminal_clean(import.err));
  CHECK(one_line(import.err).find("Time: 0.1 \\x1b]0;p\\x07") != std::string::npos);
}

TEST_CASE("rm names a removed run escaped (hostile6 38)") {
  TempDir dir;
  const std::string db = dir.file("r.db");
  REQUIRE(schedlab_cmd({"run", value_config(dir), "--db", db, "--name", "one"}).exit_code == 0);
  REQUIRE(exec_raw(db,
                   "UPDATE runs SET name = 'o' || char(27) || ']0;x' || char(7) || char(10) || "
                   "'forged' WHERE id = 1"));
  const auto r = schedlab_cmd({"rm", "--db", db, "1"});
  CHECK(r.exit_code == 0);
  CHECK(r.err == "removed run 1 'o\\x1b]0;x\\x07\\x0aforged'\n");
}

TEST_CASE("nightly's markdown names reused runs and kernels escaped (hostile6 22, 23, 24)") {
  TempDir dir;
  const std::string db = dir.file("n.db"), config = two_value_runs(dir, db);
  const std::string night = reused_nightly(dir, db, config);
  // Both nights reused (their config's hash matches), with hostile names:
  // a run's name with OSC and a newline, a manifest's kernel_release with
  // ESC and a newline, a stored kernel_release with ESC, a newline and
  // 80 KB of bytes that take no column (22: quadratic wrapping).
  std::string zero_width_hex;  // 80 KB of byte 0x80, as an SQL blob's hex digits
  for (int i = 0; i < 80'000; ++i) zero_width_hex += "80";
  REQUIRE(exec_raw(
      db,
      "UPDATE runs SET name = 'r1' || char(27) || ']0;pwn' || char(7) || char(10) || 'forged "
      "name' WHERE id = 1; UPDATE runs SET manifest_json = json_set(manifest_json, "
      "'$.kernel_release', '6.1' || char(27) || '[2J' || char(10) || 'forged kernel') WHERE id = "
      "2; UPDATE nightly_measurements SET kernel_release = 'k' || char(27) || '[2J' || "
      "char(8238) || char(10) || 'forged release ' || CAST(x'" +
          zero_width_hex + "' AS TEXT) WHERE id = 2"));
  const auto r = schedlab_cmd({"nightly", night, "--db", db, "--report-html", dir.file("n.html")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(terminal_clean(r.out));
  for (const auto line : split_lines(r.out)) CHECK_FALSE(line.starts_with("forged"));
  CHECK(r.out.find("| t2 | k\\x1b[2J\\u202e\\x0aforged release \\x80\\x80") != std::string::npos);
  CHECK(r.out.find("kernel 6.1\\x1b[2J\\x0aforged kernel") != std::string::npos);
  CHECK(r.out.find("r1\\x1b]0;pwn\\x07\\x0aforged name") != std::string::npos);
  // The page's plot labels (a column named by its kernel) hold no raw override either.
  CHECK(terminal_clean(read_text(dir.file("n.html"))));
}

TEST_CASE("bisect's progress lines name candidates escaped (hostile6 8, 20)") {
  TempDir dir;
  const std::string config = value_config(dir);
  // The hook makes b measure 120 and the others 100: references differ, m is GOOD.
  const auto r = schedlab_cmd(
      {"bisect",
       "start",
       "--db",
       dir.file("b.db"),
       "--kernels",
       "g\x1b]0;x\x07,m\x1b[2J,b\xe2\x80\xae",
       "--good",
       "g\x1b]0;x\x07",
       "--bad",
       "b\xe2\x80\xae",
       "--config",
       config,
       "--metric",
       "t",
       "--test",
       "mwu",
       "--",
       "sh",
       "-c",
       fmt::format("case \"$1\" in b*) echo 120;; *) echo 100;; esac > {}", dir.file("value")),
       "sh",
       "{kernel}"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(terminal_clean(r.err));
  CHECK(terminal_clean(r.out));
  const std::string err = one_line(r.err);
  CHECK(err.find("between g\\x1b]0;x\\x07 and b\\u202e") != std::string::npos);
  CHECK(err.find("hook for g\\x1b]0;x\\x07") != std::string::npos);
  CHECK(err.find("candidate 1/2 m\\x1b[2J") != std::string::npos);
  CHECK(err.find("m\\x1b[2J is GOOD") != std::string::npos);
  CHECK(one_line(r.out).find("first bad: b\\u202e") != std::string::npos);
}

TEST_CASE("history's HTML plots name runs, kernels and variants escaped (hostile6 41)") {
  TempDir dir;
  const std::string db = dir.file("h.db");
  two_value_runs(dir, db);
  // The tooltip's run, the axis's kernel, the legend's variant.
  REQUIRE(exec_raw(db,
                   "UPDATE runs SET name = 'r' || char(8238) || 'evil' WHERE id = 1; "
                   "UPDATE runs SET manifest_json = json_set(manifest_json, '$.kernel_release', "
                   "'6.1' || char(27) || '[2J' || char(8238)) WHERE id = 2; "
                   "UPDATE variants SET name = 'v' || char(8238) || char(7) WHERE run_id = 2"));
  const auto r = schedlab_cmd({"history", "--db", db, "--workload", "reader", "--metric", "t",
                               "--format", "html", "-o", dir.file("h.html")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string page = read_text(dir.file("h.html"));
  CHECK(terminal_clean(page));
  CHECK(page.find(R"("run":"r\\u202eevil")") != std::string::npos);
}

TEST_CASE("doctor names an unreachable SUT escaped (hostile7)") {
  const auto r = schedlab_cmd({"doctor", "--sut", "x\x1b]0;t\x07\xe2\x80\xae"});
  CHECK(r.exit_code != 0);
  CHECK(terminal_clean(r.err));
  CHECK(one_line(r.err).find("cannot reach x\\x1b]0;t\\x07\\u202e") != std::string::npos);
}

TEST_CASE("JSON outputs write bidi and C1 characters of names as \\u escapes (hostile7 29)") {
  TempDir dir;
  const std::string db = dir.file("j.db");
  two_value_runs(dir, db);
  // A right-to-left override and a C1 CSI in a run and a variant name; a
  // CJK character stays as it is.
  REQUIRE(exec_raw(db,
                   "UPDATE runs SET name = 'r' || char(8238) || 'evil' || char(155) || "
                   "char(20013) WHERE id = 1; "
                   "UPDATE variants SET name = 'v' || char(8294) || char(8207) WHERE run_id = 1"));
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"list", "--format", "json"},
           {"compare", "1", "2", "--format", "json"},
           {"history", "--workload", "reader", "--metric", "t", "--format", "json"}}) {
    std::vector<std::string> with_db = args;
    with_db.insert(with_db.begin() + 1, {"--db", db});
    const auto r = schedlab_cmd(with_db);
    INFO(args[0] << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(terminal_clean(r.out));
    CHECK(r.out.find("\xc2\x9b") == std::string::npos);
    CHECK(r.out.find(R"(r\u202eevil\u009b)"
                     "\xe4\xb8\xad") != std::string::npos);
    if (args[0] != "list") CHECK(r.out.find(R"(v\u2066\u200f)") != std::string::npos);
    CHECK(nlohmann::json::parse(r.out).dump().find("r\xe2\x80\xae"
                                                   "evil") != std::string::npos);
  }
  CHECK(unicode_escaped_controls("\xe2\x80\xaa\xe2\x80\x8e\xe2\x81\xa9\xc2\x80 caf\xc3\xa9 \xff") ==
        "\\u202a\\u200e\\u2069\\u0080 caf\xc3\xa9 \xff");

  // hostile8 A14: "a run named 'r2' already exists in PATH" broke a path
  // holding spaces across lines; it stays whole, on a line of its own when
  // the sentence and it pass 100 columns.
  const std::string folder =
      dir.file(std::string(40, 'd') + " with spaces " + std::string(40, 'e'));
  std::filesystem::create_directories(folder);
  const std::string spaced = folder + "/x y.db";
  std::filesystem::copy_file(db, spaced);
  const auto again = schedlab_cmd({"run", dir.file("c.yaml"), "--db", spaced, "--name", "r2"});
  INFO(again.err);
  CHECK(again.exit_code != 0);
  CHECK(again.err.find("a run named 'r2' already exists in\n  " + spaced + "\n") !=
        std::string::npos);
}

TEST_CASE(
    "run --dry-run's plan names a workload and its argv escaped, as run does (hostile15 23)") {
  TempDir dir;
  write_text(dir.file("e.yaml"), R"(iterations: 2
workloads:
  - command:
      name: "w\e]0;t\a\u202Ex"
      argv: [echo, "a\e[2Jb\u202E"]
      metrics:
        t:
          regex: '^(?<value>[0-9]+)$'
          direction: lower
      monitors: []
)");
  const auto r = schedlab_cmd({"run", dir.file("e.yaml"), "--db", dir.file("d.db"), "--dry-run"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(terminal_clean(r.out));
  CHECK(r.out.find("w\\x1b]0;t\\x07\\u202ex") != std::string::npos);
  CHECK(r.out.find("[echo a\\x1b[2Jb\\u202e]") != std::string::npos);
  CHECK(r.out.find("plan for ") != std::string::npos);
}

TEST_CASE(
    "parse and stats name a file and quote an output's text escaped, whichever parser's message "
    "it is (hostile18)") {
  TempDir dir;
  // minors17's task-count check quotes its line as it is; seccomp-notify's
  // unsupported reason is the output's text; a file's name from a tree.
  write_text(dir.file("h"),
             "Running in process mode with 2 groups using 40 file descriptors each (== 81 tasks) "
             "\x1b]0;p\x07\n"
             "Time: 0.5\n");
  write_text(dir.file("s"), "seccomp-notify: mode sync: unsupported: \x1b[2J\xe2\x80\xae x\n");
  const std::string named = dir.file("n\x1b]0;p\x07.txt");
  write_text(named,
             "Running in process mode with 2 groups using 40 file descriptors each (== 80 "
             "tasks)\nTime: 0.5\n");
  const auto hackbench = schedlab_cmd({"parse", "hackbench", dir.file("h"), named});
  CHECK(hackbench.exit_code != 0);
  CHECK(terminal_clean(hackbench.err));
  CHECK(terminal_clean(hackbench.out));
  CHECK(one_line(hackbench.err).find("tasks) \\x1b]0;p\\x07") != std::string::npos);
  CHECK(hackbench.out.find("n\\x1b]0;p\\x07.txt\ttime\t0.5") != std::string::npos);
  const auto seccomp =
      schedlab_cmd({"parse", "seccomp-notify", "--param", "modes=sync", dir.file("s")});
  CHECK(terminal_clean(seccomp.err));
  CHECK(
      one_line(seccomp.err).find("seccomp-notify: \\x1b[2J\\u202e x (an unsupported iteration)") !=
      std::string::npos);
  write_text(dir.file("a.txt"), "1\n2\n3\n");
  write_text(named, "1\n2\n4\n");
  const auto stats = schedlab_cmd({"stats", dir.file("a.txt"), named});
  INFO(stats.err);
  CHECK(stats.exit_code == 0);
  CHECK(terminal_clean(stats.out));
  CHECK(stats.out.find("n\\x1b]0;p\\x07.txt") != std::string::npos);
  const std::string before = dir.file("b\x1b]0;p\x07"), after = dir.file("a\x1b[2J");
  std::filesystem::copy_file(fixture(kSchedstatV15 + "before.txt"), before);
  std::filesystem::copy_file(fixture(kSchedstatV15 + "after.txt"), after);
  const auto diff = schedlab_cmd({"schedstat", "diff", before, after});
  INFO(diff.err);
  CHECK(diff.exit_code == 0);
  CHECK(terminal_clean(diff.out));
  CHECK(diff.out.find("b\\x1b]0;p\\x07 -> ") != std::string::npos);
  // merge's inputs: `task-*.db` of a shared folder.
  const std::string task = dir.file("task-\x1b]0;p\x07.db");
  REQUIRE(schedlab_cmd({"import", "hackbench", "--name", "x", "--db", task,
                        "a=" + fixture("hackbench/process-pipes-g2-l200.run1.txt").string()})
              .exit_code == 0);
  const auto merge = schedlab_cmd({"merge", dir.file("all.db"), task});
  INFO(merge.err);
  CHECK(merge.exit_code == 0);
  CHECK(terminal_clean(merge.out));
  CHECK(one_line(merge.out).find("task-\\x1b]0;p\\x07.db: 1 new run(s)") != std::string::npos);
}
