// The command line as people's habits expect it, through the
// real binary: git's "did you mean" for a mistyped command, `help`,
// CLI11's errors worded like schedlab's, --version, and the man pages and
// bash completion that `cmake --install` puts in place.
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/file.h"
#include "base/text.h"
#include "runner/hosts/local_host.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/sweep_db.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using test::schedlab_cmd;

namespace {

ExecResult run(const std::vector<std::string>& argv, std::map<std::string, std::string> env = {}) {
  LocalHost host;
  Command cmd;
  cmd.argv = argv;
  cmd.env = std::move(env);
  cmd.timeout = std::chrono::seconds(120);
  return host.run(cmd);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// The commands `schedlab help` lists, in its order.
// man's text with each run of spaces as one: it justifies its lines.
std::string squeezed(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  return out;
}

std::vector<std::string> commands() {
  const auto help = schedlab_cmd({"help"});
  REQUIRE(help.ok());
  std::vector<std::string> out;
  std::istringstream lines(help.out.substr(help.out.find("Subcommands:")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    if (line.starts_with("   ")) continue;  // a description wrapped under itself
    std::istringstream words(line);
    std::string word;
    if (words >> word) out.push_back(word);
  }
  return out;
}

// ARGS refused with exactly ERR on stderr, exit 2, nothing on stdout.
void refused(const std::vector<std::string>& args, const std::string& err) {
  INFO(fmt::format("{}", fmt::join(args, " ")));
  const auto r = schedlab_cmd(args);
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) == test::one_line(err));
  CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("command line: a mistyped command is named with the nearest one, exit 2") {
  auto r = schedlab_cmd({"compre"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) == test::one_line("schedlab: unknown command 'compre' (did you mean "
                                                "'compare'?); schedlab help lists them\n"));
  CHECK(r.out.empty());
  r = schedlab_cmd({"frobnicate", "--db", "x.db"});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "schedlab: unknown command 'frobnicate'; schedlab help lists them\n");
  // A command's own subcommands too.
  r = schedlab_cmd({"schedstat", "dif", "a", "b"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab schedstat: unknown command 'dif' (did you mean 'diff'?); schedlab "
                       "help schedstat lists them\n"));
  // An escape sequence in the word is shown escaped.
  r = schedlab_cmd({"\x1b]0;x\x07"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find('\x1b') == std::string::npos);
}

TEST_CASE("command line: schedlab help [COMMAND] prints the overview or the command's help") {
  const auto all = schedlab_cmd({"help"});
  INFO(all.err);
  REQUIRE(all.ok());
  CHECK(all.out.find("Usage: schedlab [OPTIONS] SUBCOMMAND") != std::string::npos);
  for (const char* cmd : {"run", "compare", "report", "history", "help"}) CHECK(all.out.find(cmd) != std::string::npos);
  // Hidden build commands are not offered.
  CHECK(all.out.find("generate-docs") == std::string::npos);
  CHECK(all.out.find("complete-runs") == std::string::npos);
  const auto compare = schedlab_cmd({"help", "compare"});
  REQUIRE(compare.ok());
  CHECK(compare.out.find("Usage: schedlab compare") != std::string::npos);
  CHECK(compare.out.find("--wide") != std::string::npos);
  CHECK(compare.out == schedlab_cmd({"compare", "--help"}).out);
  const auto diff = schedlab_cmd({"help", "schedstat", "diff"});
  REQUIRE(diff.ok());
  CHECK(diff.out.find("Usage: schedlab schedstat diff") != std::string::npos);
  const auto bad = schedlab_cmd({"help", "compre"});
  CHECK(bad.exit_code == 2);
  CHECK(test::one_line(bad.err) == test::one_line("schedlab: unknown command 'compre' (did you "
                                                  "mean 'compare'?); schedlab help lists them\n"));
}

TEST_CASE("command line: CLI11's own errors carry schedlab's prefix and exit 2") {
  auto r = schedlab_cmd({"compare", "--format", "xml"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("schedlab compare: --format: "));
  CHECK(test::one_line(r.err).ends_with(test::one_line(" (schedlab help compare)\n")));
  CHECK(test::message_count(r.err) == 1);
  r = schedlab_cmd({});
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("schedlab: a command is required: run, list, "));
  r = schedlab_cmd({"schedstat"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line(
            "schedlab schedstat: a command is required: show, diff (schedlab help schedstat)\n"));
  r = schedlab_cmd({"--frobnicate"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("schedlab: "));
  CHECK(r.err.find("Run with --help") == std::string::npos);
}

TEST_CASE("command line: a fraction or percentage option refuses nan, inf and a long value") {
  // Hostile pass 4: CLI::Range let "nan" through (no comparison with NaN
  // is true): compare --changed --fdr nan ran with it.
  const std::string cut = std::string(40, '9') + "... (5000 characters)";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"compare", "a", "--changed", "--fdr", "nan"},
       "--fdr: must be a number from 1e-06 to 0.5, not 'nan'"},
      {{"compare", "a", "--changed", "--fdr", "-nan"}, "not '-nan'"},
      {{"compare", "a", "--changed", "--fdr", "inf"}, "not 'inf'"},
      {{"compare", "a", "--changed", "--fdr", std::string(5000, '9')}, "not '" + cut + "'"},
      {{"report", "a", "--fdr", "NaN"}, "must be a number from 1e-06 to 0.5, not 'NaN'"},
      {{"compare", "a", "--alpha", "nan"}, "must be a number from 1e-09 to 0.5, not 'nan'"},
      {{"stats", "a", "--level", "nan"}, "must be a number from 0.5 to 0.999999, not 'nan'"},
      {{"export", "a", "--format", "bmf", "--level", "nan"},
       "must be a number from 0.5 to 0.999999, not 'nan'"},
      {{"history", "hackbench", "--changes", "--changes-alpha", "nan"},
       "must be a number from 0.001 to 0.5, not 'nan'"},
      {{"history", "hackbench", "--changes", "--min-change-pct", "nan"},
       "must be a number from 0 to 1000, not 'nan'"},
  };
  for (const auto& [args, error] : cases) {
    INFO(args[0] << " " << args.back().substr(0, 20));
    const auto r = schedlab_cmd(args);
    CHECK(r.exit_code == 2);
    CHECK(test::one_line(r.err).find(test::one_line(error)) != std::string::npos);
    CHECK(test::message_count(r.err) == 1);
  }
}

TEST_CASE("command line: --format takes the command's own formats and names them for any other") {
  auto r = schedlab_cmd({"compare", "--format", "jsn"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab compare: --format: unknown format 'jsn' (did you mean 'json'?); "
                       "known: text, markdown, csv, "
                       "json (schedlab help compare)\n"));
  // A format another command takes is no nearer for this one.
  r = schedlab_cmd({"bisect", "status", "--format", "json"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) == test::one_line("schedlab bisect status: --format: unknown format "
                                                "'json'; known: text, html (schedlab help "
                                                "bisect status)\n"));
  r = schedlab_cmd({"history", "--workload", "w", "--metric", "m", "--format", "markdown"});
  CHECK(r.exit_code == 2);
  CHECK(test::one_line(r.err) ==
        test::one_line("schedlab history: --format: unknown format 'markdown'; known: text, json, "
                       "html (schedlab help "
                       "history)\n"));
  // The help lists them as a sentence, and as CLI11 lists the choices it checks.
  const auto help = schedlab_cmd({"workloads", "--help"});
  REQUIRE(help.ok());
  CHECK(squeezed(help.out).find("--format TEXT:{text,markdown,json}\n text, markdown or json\n") !=
        std::string::npos);
}

TEST_CASE("command line: --version and -V print the project version and the tree's git describe") {
  const auto v = schedlab_cmd({"--version"});
  REQUIRE(v.ok());
  CHECK(schedlab_cmd({"-V"}).out == v.out);
  // project(schedlab VERSION x.y.z) in CMakeLists.txt.
  const std::string cmake = read_file(SCHEDLAB_SOURCE_DIR "/CMakeLists.txt");
  std::smatch project;
  REQUIRE(std::regex_search(cmake, project, std::regex(R"(project\(schedlab VERSION ([0-9.]+))")));
  std::smatch m;
  REQUIRE(std::regex_match(v.out, m, std::regex(R"(schedlab ([0-9.]+) \((.+)\)\n)")));
  CHECK(m[1] == project[1].str());
  // git describe of the tree as built (taken at build time): the same
  // commit as now, whether or not files changed since.
  const auto git = run({"git", "-C", SCHEDLAB_SOURCE_DIR, "describe", "--always", "--tags"});
  if (!git.ok()) SCHEDLAB_SKIP("git describe does not work here: " + git.err);
  std::string built = m[2];
  if (built.ends_with("-dirty")) built.resize(built.size() - 6);
  CHECK(built == trimmed(git.out));
}

TEST_CASE("command line: cmake --install puts a man page per command and the bash completion in place") {
  test::TempDir dir;
  const std::string prefix = dir.file("prefix");
  const auto install = run({"cmake", "--install", SCHEDLAB_BUILD_DIR, "--prefix", prefix});
  INFO(install.out << install.err);
  REQUIRE(install.ok());
  const std::string man1 = prefix + "/share/man/man1/";
  std::vector<std::string> pages = {"schedlab.1"};
  for (const auto& cmd : commands()) pages.push_back("schedlab-" + cmd + ".1");
  REQUIRE(pages.size() > 15);
  for (const auto& page : pages) {
    INFO(page);
    REQUIRE(std::filesystem::is_regular_file(man1 + page));
    // groff reads it without a warning (-ww: all of them).
    const auto groff = run({"groff", "-man", "-Tutf8", "-ww", "-z", man1 + page});
    CHECK(groff.ok());
    CHECK(groff.err.empty());
  }
  // man renders it: the options of the command's table, with their help.
  const auto man = run({"man", "-l", man1 + "schedlab-compare.1"}, {{"MANPAGER", "cat"}, {"MANWIDTH", "100"}});
  INFO(man.err);
  REQUIRE(man.ok());
  CHECK(squeezed(man.out).find("schedlab-compare - compare the variants of a run") != std::string::npos);
  CHECK(squeezed(man.out).find("--format TEXT:{text,markdown,csv,json}") != std::string::npos);
  CHECK(squeezed(man.out).find("SCHEDLAB_DB") != std::string::npos);
  CHECK(squeezed(man.out).find("EXIT STATUS") != std::string::npos);
  const auto root = run({"man", "-l", man1 + "schedlab.1"}, {{"MANPAGER", "cat"}, {"MANWIDTH", "100"}});
  REQUIRE(root.ok());
  CHECK(squeezed(root.out).find("schedlab-history(1)") != std::string::npos);
  const auto schedstat = run({"man", "-l", man1 + "schedlab-schedstat.1"}, {{"MANPAGER", "cat"}, {"MANWIDTH", "100"}});
  CHECK(squeezed(schedstat.out).find("schedlab schedstat diff") != std::string::npos);

  // The completion: subcommands, options, --format values, workload names,
  // run names from the database named on the line.
  const std::string completion = prefix + "/share/bash-completion/completions/schedlab";
  REQUIRE(std::filesystem::is_regular_file(completion));
  const std::string db = dir.file("runs.db");
  // A name that compgen -W would expand, running what it names: offered
  // as it is, and never run.
  const std::string planted = dir.file("planted");
  const std::string hostile = "gamma-$(touch " + planted + ")";
  test::write_sweep_db(db, {.runs = {"alpha-run", "beta-run", hostile}, .groups = {1}});
  const std::string script = R"(
source "$1"
complete -p schedlab
c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _schedlab; echo "${COMPREPLY[*]}"; }
c schedlab comp
c schedlab compare --for
c schedlab compare --format ''
c schedlab workloads hack
c schedlab schedstat ''
c schedlab history --workload tb
c schedlab help comp
c "$2" compare --db "$3" ''
c schedlab import hackbench --variant ''
c "$2" report --db "$3" gam
)";
  const auto bash = run({"bash", "-c", script, "bash", completion, SCHEDLAB_BINARY, db});
  INFO(bash.out << bash.err);
  REQUIRE(bash.ok());
  CHECK(bash.err.empty());
  std::istringstream lines(bash.out);
  std::vector<std::string> got;
  for (std::string line; std::getline(lines, line);) got.push_back(line);
  REQUIRE(got.size() == 11);
  CHECK(got[0] == "complete -o filenames -F _schedlab schedlab");
  CHECK(got[1] == "compare");
  CHECK(got[2] == "--format");
  CHECK(got[3] == "text markdown csv json");
  CHECK(got[4] == "hackbench");
  CHECK(got[5] == "show diff");
  CHECK(got[6] == "tbench");
  CHECK(got[7] == "compare");  // help takes a command
  CHECK(got[8] == "alpha-run beta-run " + hostile);
  CHECK(got[9] == "");  // --variant takes a name of one's own
  CHECK(got[10] == hostile);
  CHECK_FALSE(std::filesystem::exists(planted));
}

TEST_CASE(
    "command line: an option given where it would change nothing is refused by name, exit 2") {
  // compare: each option of the output's shape, where it has none to change.
  refused({"compare", "--style", "amd", "--format", "markdown"},
          "schedlab compare: --style amd does nothing with --format markdown: it applies to "
          "--format text\n");
  refused({"compare", "--style", "amd", "--format", "csv"},
          "schedlab compare: --style amd does nothing with --format csv: it applies to --format "
          "text\n");
  refused({"compare", "--style", "amd", "--summary", "time"},
          "schedlab compare: --style amd does nothing with --summary: it applies to the tables of "
          "each block\n");
  refused({"compare", "--wide", "--format", "json"},
          "schedlab compare: --wide does nothing with --format json: it applies to --format text "
          "or markdown; json "
          "and csv always have the full names\n");
  refused(
      {"compare", "--csv-raw"},
      "schedlab compare: --csv-raw does nothing with --format text: it applies to --format csv\n");
  refused({"compare", "--summary", "time", "--format", "csv"},
          "schedlab compare: --summary does nothing with --format csv: it applies to --format "
          "text, markdown or "
          "json\n");
  refused({"compare", "--monitors", "--format", "csv"},
          "schedlab compare: --monitors does nothing with --format csv: it applies to --format "
          "text, markdown or "
          "json\n");
  refused({"compare", "--monitors", "--style", "amd"},
          "schedlab compare: --monitors does nothing with --style amd: it applies to the mmtests "
          "layout\n");
  refused({"compare", "--all-stats", "--summary", "time"},
          "schedlab compare: --all-stats does nothing with --summary: it applies to the tables of "
          "each block\n");
  // run: the table's options where no table is printed; a resumed run's name.
  const std::string cfg = SCHEDLAB_SOURCE_DIR "/configs/demo-local.yaml";
  refused({"run", cfg, "--dry-run", "--format", "json"},
          "schedlab run: --format does nothing with --dry-run: it prints the plan, no table\n");
  refused({"run", cfg, "--dry-run", "--quiet"},
          "schedlab run: --quiet does nothing with --dry-run: it prints the plan, no table\n");
  refused({"run", cfg, "--quiet", "--wide"},
          "schedlab run: --wide does nothing with --quiet: it prints no table\n");
  refused({"run", cfg, "--wide", "--format", "json"},
          "schedlab run: --wide does nothing with --format json: it applies to --format text or "
          "markdown; json and "
          "csv always have the full names\n");
  refused({"run", "--resume", "r1", "--name", "r2"},
          "schedlab run: --name does nothing with --resume: a resumed run keeps its name\n");
  // nightly's Slurm options, bisect's hook options, a bisect that decides nothing.
  refused({"nightly", "n.yaml", "--time", "1h"},
          "schedlab nightly: --time requires --slurm (schedlab help nightly)\n");
  refused(
      {"bisect", "start", "--good", "a", "--bad", "b", "--config", "c.yaml", "--metric", "time",
       "--kernels", "a,b", "--hook-timeout", "5m"},
      "schedlab bisect: --hook-timeout does nothing without a hook: give its argv after -- or with "
      "--hook-file\n");
  refused(
      {"bisect", "start", "--good", "a", "--bad", "b", "--config", "c.yaml", "--metric", "time",
       "--kernels", "a,b", "--reboot-timeout", "5m"},
      "schedlab bisect start: --reboot-timeout requires --reboots (schedlab help bisect start)\n");
  CHECK(schedlab_cmd({"help", "bisect", "status"}).out.find("--max-candidates") ==
        std::string::npos);
  // schedstat: --per-cpu has no rows in a comparison of two sides.
  const std::string s =
      SCHEDLAB_FIXTURES "/schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu.";
  refused({"schedstat", "diff", "--delta", "--per-cpu", s + "before.txt", s + "after.txt",
           s + "before.txt", s + "after.txt"},
          "schedlab schedstat diff: --per-cpu does nothing with two sides compared: it applies to "
          "one snapshot or "
          "one delta (BEFORE AFTER)\n");
  // What they apply to still works.
  CHECK(schedlab_cmd({"schedstat", "diff", "--per-cpu", s + "before.txt", s + "after.txt"}).ok());
}

TEST_CASE("command line: a mistyped option or metric is named with the nearest one, exit 2") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  test::write_sweep_db(db, {.runs = {"alpha-run", "beta-run"}, .groups = {1, 2}});
  // Options: the command's own long options are offered.
  refused({"compare", "--db", db, "--wdie"},
          "schedlab compare: unknown option '--wdie' (did you mean '--wide'?) (schedlab help "
          "compare)\n");
  refused({"compare", "--db", db, "--wdie=1"},
          "schedlab compare: unknown option '--wdie' (did you mean '--wide'?) (schedlab help "
          "compare)\n");
  refused({"schedstat", "diff", "a", "b", "--dleta"},
          "schedlab schedstat diff: unknown option '--dleta' (did you mean '--delta'?) (schedlab "
          "help schedstat "
          "diff)\n");
  // Nothing near, or one letter: named alone.
  refused({"list", "--db", db, "--frobnicate"},
          "schedlab list: unknown option '--frobnicate' (schedlab help list)\n");
  refused({"compare", "--db", db, "-x"},
          "schedlab compare: unknown option '-x' (schedlab help compare)\n");
  // Metrics and workloads: what the database has.
  refused({"history", "--db", db, "--workload", "hackbench", "--metric", "tim"},
          "schedlab history: no run in " + db +
              " has metric 'tim' of workload 'hackbench' (did you mean 'time'?); its metrics "
              "there: time\n");
  refused({"history", "--db", db, "--workload", "hackbnch", "--metric", "time"},
          "schedlab history: no run in " + db +
              " has workload 'hackbnch' (did you mean 'hackbench'?); its workloads: hackbench\n");
  refused({"compare", "--db", db, "alpha-run", "beta-run", "--summary", "tim"},
          "schedlab: --summary: no metric 'tim' in the comparison (did you mean 'time'?); it has: "
          "time\n");
  // The right names work.
  CHECK(schedlab_cmd({"history", "--db", db, "--workload", "hackbench", "--metric", "time"}).ok());
  CHECK(schedlab_cmd({"compare", "--db", db, "alpha-run", "beta-run", "--wide"}).ok());
}

TEST_CASE(
    "command line: each command's man page says what it does and gives examples, as its --help") {
  for (const auto& cmd : commands()) {
    INFO(cmd);
    const std::string page =
        read_file(SCHEDLAB_BUILD_DIR "/runner/doc/man1/schedlab-" + cmd + ".1");
    const auto section = [&](const std::string& name) {
      const auto at = page.find(".SH " + name + "\n");
      if (at == std::string::npos) return std::string();
      const auto begin = at + name.size() + 5;
      return page.substr(begin, page.find(".SH ", begin) - begin);
    };
    // NAME is "schedlab\-CMD \- the one line"; DESCRIPTION is more than that line.
    const std::string name = section("NAME");
    const std::string one_line = name.substr(name.find(" \\- ") + 4);
    const std::string description = section("DESCRIPTION");
    CHECK(description.size() > one_line.size() + 20);
    CHECK(description.find(one_line.substr(0, one_line.size() - 1)) == std::string::npos);
    CHECK(section("EXAMPLES").find(".TP\n\\fBschedlab") != std::string::npos);
    // --help ends with the same examples.
    const auto help = schedlab_cmd({cmd, "--help"});
    CHECK(help.out.find("\nExamples:\n  schedlab ") != std::string::npos);
  }
}

TEST_CASE(
    "command line: SCHEDLAB_LOCK_DIR and SCHEDLAB_LAB_CACHE in a folder others can change "
    "are refused, naming the variable (hostile11/12)") {
  // hostile11: both were used as given, in a folder every user may write.
  test::TempDir dir;
  const std::string ww = dir.file("ww");
  std::filesystem::create_directory(ww);
  ::chmod(ww.c_str(), 0777);  // writable by every user, no sticky bit
  const std::string config = dir.file("c.yaml");
  test::write_text(config, R"(hosts: {sut: local, loadgen: local}
iterations: 1
workloads:
  - command:
      name: one
      argv: [echo, 'seconds: 1']
      metrics:
        seconds: {regex: '^seconds: (?<value>[0-9.]+)$', direction: lower}
)");
  const std::string locks = ww + "/locks", db = dir.file("r.db");
  const auto r = schedlab_cmd({"run", config, "--db", db}, {{"SCHEDLAB_LOCK_DIR", locks}});
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(test::one_line(r.err).find(fmt::format(
            "SCHEDLAB_LOCK_DIR: {} (a folder above {}) is writable by every user and has no "
            "sticky bit: another user could replace what schedlab keeps there; use a folder of "
            "your own",
            ww, locks)) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(locks));
  const std::string cache = ww + "/cache";
  const auto l = schedlab_cmd({"lab", "list"}, {{"SCHEDLAB_LAB_CACHE", cache}});
  INFO(l.err);
  CHECK(l.exit_code != 0);
  CHECK(test::one_line(l.err).find(fmt::format("SCHEDLAB_LAB_CACHE: {} (a folder above {}) is "
                                               "writable by every user and has no sticky bit",
                                               ww, cache)) != std::string::npos);
  CHECK(l.out.empty());
  // Owned by another user (root may hand it over): refused too.
  ::chmod(ww.c_str(), 0755);
  if (::geteuid() == 0 && ::chown(ww.c_str(), 65534, 65534) == 0) {
    const auto o = schedlab_cmd({"lab", "list"}, {{"SCHEDLAB_LAB_CACHE", ww}});
    CHECK(test::one_line(o.err).find(fmt::format(
              "SCHEDLAB_LAB_CACHE: {} is owned by user 65534, neither this user (0) nor root",
              ww)) != std::string::npos);
    REQUIRE(::chown(ww.c_str(), 0, 0) == 0);
  }
  // With the sticky bit (as /tmp), and a folder of one's own, the run goes on.
  ::chmod(ww.c_str(), 01777);
  const auto ok = schedlab_cmd({"run", config, "--db", db}, {{"SCHEDLAB_LOCK_DIR", locks}});
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  // The sticky folder itself as the lock folder: another user made the
  // alive file of the next run first, swapped it once the run held it, and
  // restore took the live run for dead: it killed its process group and
  // removed its work directory; list said "interrupted" (hostile15).
  const std::string sticky = fmt::format(
      "SCHEDLAB_LOCK_DIR: {} is writable by every user: even with the sticky bit another user "
      "can make files there first, under the names schedlab uses, and swap them later; use a "
      "folder of your own (one made in it is fine)",
      ww);
  const auto st = schedlab_cmd({"run", config, "--db", db}, {{"SCHEDLAB_LOCK_DIR", ww}});
  INFO(st.err);
  CHECK(st.exit_code != 0);
  CHECK(test::one_line(st.err).find(sticky) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(ww + "/sut.lock"));
}

TEST_CASE("stats: a p-value that underflows to 0 prints as p<1e-300, not p=0 (issue 44)") {
  // Hostile12 #14: two samples far apart (5,000,000 each there; 50 here of
  // a spread of 5e-8 around 1 and 2) give Welch's t past 1e8 at 98 degrees
  // of freedom: p underflows, and "p=0" read as a certainty.
  test::TempDir dir;
  std::string a, b;
  for (int i = 0; i < 50; ++i) {
    a += fmt::format("{:.9f}\n", 1 + i * 1e-9);
    b += fmt::format("{:.9f}\n", 2 + i * 1e-9);
  }
  test::write_text(dir.file("a.txt"), a);
  test::write_text(dir.file("b.txt"), b);
  const auto r = schedlab_cmd({"stats", dir.file("a.txt"), dir.file("b.txt")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("  p<1e-300") != std::string::npos);
  CHECK(r.out.find("p=0") == std::string::npos);
  // The same files a little closer print their p as before.
  std::string c;
  for (int i = 0; i < 50; ++i) c += fmt::format("{}\n", 1 + (i % 7) * 0.1);
  test::write_text(dir.file("c.txt"), c);
  const auto near = schedlab_cmd({"stats", dir.file("a.txt"), dir.file("c.txt")});
  CHECK(near.exit_code == 0);
  CHECK(std::regex_search(near.out, std::regex("  p=[0-9.e-]+\n")));
  CHECK(near.out.find("p<") == std::string::npos);
}
