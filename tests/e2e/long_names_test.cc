// Text output fits a mail's 100 columns with the 71-character run names
// people give (issue 48): real hackbench outputs imported under such names,
// with the kernels they ran on, then every text output that names runs.
// --wide keeps the full names. Also: import --kernel, history's order by
// kernel, and "What differs" between imports.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/text.h"
#include "results/store.h"
#include "runner/config/config.h"
#include "runner/slurm/array_job.h"
#include "runner/slurm/submission.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

// 71 characters each, as in the issue; the kernel each ran on. Imported
// newest kernel first: history puts 6.9 first all the same.
const std::string kNames[] = {
    "sync-wakeup-from-irq-investigation-baseline-6.12.0-rc3-20261204T220811Z",
    "sync-wakeup-from-irq-investigation-patched-v2-6.12.0-rc3-20261205T01011",
    "sync-wakeup-from-irq-investigation-patched-v3-6.9.0-rc3-20261206T010111",
};
const std::string kKernels[] = {"6.12.0-rc3", "6.12.0-rc3", "6.9.0"};

std::string hackbench(const std::string& name) { return test::fixture("hackbench/" + name).string(); }

// Three runs of two variants each (process and thread pipes, three real
// outputs each), or of one variant (`one_variant`: three columns, two
// comparisons, in compare).
void import_runs(const std::string& db, bool one_variant) {
  for (std::size_t r = 0; r < std::size(kNames); ++r) {
    std::vector<std::string> args{"import", "hackbench", "--db", db, "--name", kNames[r], "--kernel", kKernels[r]};
    for (int i = 1; i <= 3; ++i)
      args.push_back(fmt::format("base={}", hackbench(fmt::format("process-pipes-g2-l200.run{}.txt", i))));
    if (!one_variant)
      for (int i = 1; i <= 3; ++i)
        args.push_back(fmt::format("batch={}", hackbench(fmt::format("thread-pipes-g2-l200.run{}.txt", i))));
    const auto r_ = test::schedlab_cmd(args);
    INFO(r_.err);
    REQUIRE(r_.ok());
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Every line within 100 columns; the widest is named when one is not.
void check_fits(const std::string& text) {
  std::size_t widest = 0;
  std::string which;
  for (const auto& line : lines_of(text))
    if (display_width(line) > widest) widest = display_width(line), which = line;
  INFO(text);
  INFO("widest line (" << widest << " columns): " << which);
  CHECK(widest <= 100);
}

ExecResult ok(const std::vector<std::string>& args) {
  const auto r = test::schedlab_cmd(args);
  INFO(fmt::format("{}", fmt::join(args, " ")) << "\n" << r.err);
  REQUIRE(r.ok());
  return r;
}

// The line of `text` holding `what`; empty when none does.
std::string line_with(const std::string& text, const std::string& what) {
  for (const auto& line : lines_of(text))
    if (line.find(what) != std::string::npos) return line;
  return "";
}

}  // namespace

TEST_CASE("long names: every text output fits 100 columns and names its runs in a key") {
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == 3);
  for (const auto& n : kNames) REQUIRE(n.size() == 71);
  test::TempDir dir;
  const std::string two = dir.file("two-variants.db"), one = dir.file("one-variant.db");
  import_runs(two, false);
  import_runs(one, true);
  const std::vector<std::vector<std::string>> outputs = {
      {"list", "--db", two},
      {"history", "--db", two, "--workload", "hackbench", "--metric", "time"},
      // Three columns (the mmtests table of four is 103 wide, as it always was):
      // two comparisons, which the footer counts.
      {"compare", "1", "2", "3", "--db", one},
      {"compare", "1", "2", "3", "--db", two, "--summary", "time"},
      {"compare", "1", "2", "3", "--db", one, "--summary", "time", "--format", "markdown"},
      {"compare", "1", "2", "--db", two, "--style", "amd"},
      {"compare", "1", "2", "3", "--db", one, "--style", "amd"},
  };
  for (const auto& args : outputs) {
    INFO(fmt::format("{}", fmt::join(args, " ")));
    const auto r = ok(args);
    check_fits(r.out);
    // Each run is named: its short label, and its name in the key.
    for (std::size_t i = 0; i < (args.size() > 3 && args[3] == "3" ? 3u : 2u); ++i)
      CHECK_THAT(r.out, Contains(kNames[i]));
  }
  // The key ties a short label to its name.
  CHECK_THAT(ok({"list", "--db", two}).out, Contains("r1 = " + kNames[0]));
  CHECK_THAT(ok({"compare", "1", "2", "--db", two, "--style", "amd"}).out,
             Contains("columns: r1 = " + kNames[0]));
  const auto summary = ok({"compare", "1", "2", "3", "--db", two, "--summary", "time"}).out;
  CHECK_THAT(summary, Contains("% change against r1/base"));
  CHECK(line_with(summary, "r3/batch").find("+18.18%*") != std::string::npos);
  // history names the run of each point, and each run once after the table.
  const auto history = ok({"history", "--db", two, "--workload", "hackbench", "--metric", "time"}).out;
  CHECK(line_with(history, kNames[2]).starts_with("  r3   "));
  CHECK(line_with(history, "r1    6.12.0-rc3").find("base") != std::string::npos);
  // The help of every workload, netperf's longest.
  check_fits(ok({"workloads", "netperf"}).out);
  check_fits(ok({"workloads"}).out);
}

TEST_CASE("long names: --wide prints the full names in the lines") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  import_runs(db, false);
  CHECK(line_with(ok({"list", "--db", db, "--wide"}).out, kNames[1]).find("finished") != std::string::npos);
  const auto history = ok({"history", "--db", db, "--workload", "hackbench", "--metric", "time", "--wide"}).out;
  CHECK(line_with(history, kNames[0]).find("0.0623") != std::string::npos);
  CHECK_THAT(ok({"compare", "1", "2", "--db", db, "--wide"}).out, Contains(kNames[0] + "/base"));
  const auto summary = ok({"compare", "1", "2", "--db", db, "--summary", "time", "--wide"}).out;
  CHECK(line_with(summary, kNames[1] + "/batch").find("+18.18%*") != std::string::npos);
  const auto amd = ok({"compare", "1", "2", "--db", db, "--style", "amd", "--wide"}).out;
  // More columns than 100 take: in pieces, each headed "Test:".
  bool named = false;
  for (const auto& line : lines_of(amd))
    named |= line.starts_with("Test:") && line.find(kNames[1] + "/base") != std::string::npos;
  CHECK(named);
  CHECK(amd.find("columns: ") == std::string::npos);
  // Where it would change nothing, refused.
  const auto json = test::schedlab_cmd({"list", "--db", db, "--wide", "--format", "json"});
  CHECK(json.exit_code == 2);
  CHECK(test::one_line(json.err) ==
        "schedlab list: --wide does nothing with --format json: it applies to --format text; json "
        "always has "
        "the full names ");
  const auto history_json =
      test::schedlab_cmd({"history", "--db", db, "--workload", "hackbench", "--metric", "time", "--wide", "--format", "json"});
  CHECK(history_json.exit_code == 2);
}

TEST_CASE("import --kernel: list shows it, history orders by it, compare names it as what differs") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  import_runs(db, true);
  const auto list = ok({"list", "--db", db}).out;
  CHECK(line_with(list, "r1 ").find("6.12.0-rc3") != std::string::npos);
  CHECK(line_with(list, "r3 ").find("6.9.0") != std::string::npos);
  // By kernel: 6.9 (imported last) before 6.12.
  const auto history = lines_of(ok({"history", "--db", db, "--workload", "hackbench", "--metric", "time"}).out);
  REQUIRE(history.size() > 4);
  CHECK(history[2].starts_with("r3    6.9.0 "));
  CHECK(history[3].starts_with("r1    6.12.0-rc3 "));
  CHECK(history[4].starts_with("r2    6.12.0-rc3 "));
  // The two imports differ in their kernel, and in nothing else: not in
  // the files they read.
  const auto differs = ok({"compare", "1", "3", "--db", db}).out;
  INFO(differs);
  CHECK(differs.starts_with("What differs between the columns:\n"));
  CHECK(line_with(differs, "  kernel ").find("6.9.0") != std::string::npos);
  CHECK(line_with(differs, "sha256").empty());
  CHECK(line_with(differs, "config").empty());
  // Same kernel: nothing differs, no section.
  CHECK_FALSE(ok({"compare", "1", "2", "--db", db}).out.starts_with("What differs"));
}

TEST_CASE("import --kernel: a release uname -r could not print is refused, and nothing is imported") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  const std::string file = "base=" + hackbench("process-pipes-g2-l200.run1.txt");
  const auto refused = [&](const std::string& release, const std::string& err) {
    const auto r = test::schedlab_cmd({"import", "hackbench", file, "--name", "x", "--db", db, "--kernel", release});
    INFO(release);
    CHECK(r.exit_code == 2);
    CHECK(test::one_line(r.err) == test::one_line(err));
    CHECK_FALSE(std::filesystem::exists(db));
  };
  refused("6.12\x1b[2J", "schedlab import: --kernel '6.12\\x1b[2J': it holds a control character (U+001B at byte 4)\n");
  refused("6.12 rc1",
          "schedlab import: --kernel '6.12 rc1': it holds ' ' at byte 4: a release is printable ASCII without spaces, "
          "as uname -r prints it\n");
  refused(std::string(65, '6'), "schedlab import: --kernel '" + excerpt(std::string(65, '6'), 80) +
                                    "': it is 65 bytes long, and uname -r prints at most 64\n");
  refused(std::string(100000, 'x'), "schedlab import: --kernel '" + excerpt(std::string(100000, 'x'), 80) +
                                        "': it is 100000 bytes long, and uname -r prints at most 64\n");
  // 64 is uname's limit, and taken.
  CHECK(test::schedlab_cmd({"import", "hackbench", file, "--name", "x", "--db", db, "--kernel", std::string(64, '6')})
            .ok());
}

TEST_CASE("report --summary with a metric the comparison has not: exit 2, with the nearest one") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  import_runs(db, true);
  const auto r = test::schedlab_cmd({"report", "1", "2", "--db", db, "--summary", "tim", "-o", dir.file("r.html")});
  CHECK(r.exit_code == 2);
  CHECK(r.err == "schedlab report: --summary: no metric 'tim' in the comparison (did you mean 'time'?); it has: time\n");
  CHECK_FALSE(std::filesystem::exists(
      dir.file("r.html")));  // Hostile pass 4: a 5 KB name was printed back whole.
  const auto long_name = test::schedlab_cmd({"report", "1", "2", "--db", db, "--summary",
                                             std::string(5000, 'm'), "-o", dir.file("r.html")});
  CHECK(long_name.exit_code == 2);
  CHECK(test::one_line(long_name.err) ==
        test::one_line("schedlab report: --summary: no metric '" + excerpt(std::string(5000, 'm')) +
                       "' in the comparison; it has: time\n"));
}

TEST_CASE("bisect --reboots or --uname with a SUT that is not ssh:// is refused, exit 2") {
  const std::string cfg = SCHEDLAB_SOURCE_DIR "/configs/demo-local.yaml";
  const auto r = test::schedlab_cmd({"bisect", "start", "--good", "a", "--bad", "b", "--config", cfg, "--metric", "time",
                                     "--kernels", "a,b", "--reboots", "--", "true"});
  CHECK(r.exit_code == 2);
  CHECK(
      test::one_line(r.err) ==
      test::one_line("schedlab bisect: " + cfg +
                     ": --reboots waits for an ssh:// SUT to come back, and the SUT is 'local'\n"));
  CHECK(r.out.empty());
  // --uname, checked over SSH after the hook, likewise.
  const auto u = test::schedlab_cmd({"bisect", "start", "--good", "a", "--bad", "b", "--config", cfg, "--metric",
                                     "time", "--kernels", "a,b", "--uname", "{kernel}", "--", "true"});
  CHECK(u.exit_code == 2);
  CHECK(test::one_line(u.err) ==
        test::one_line(
            "schedlab bisect: " + cfg +
            ": --uname is checked on an ssh:// SUT after its hook, and the SUT is 'local'\n"));
}

TEST_CASE("long names: history's page and report's title, in Chromium") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  import_runs(db, false);
  const std::string page = dir.file("history.html");
  ok({"history", "--db", db, "--workload", "hackbench", "--metric", "time", "--format", "html",
      "-o", page});
  const std::string dump = dir.file("history.json");
  const auto check = test::check_page_in_chromium(
      page, SCHEDLAB_BUILD_DIR "/history-long-names.png", {"--renderer", "svg", "--dump", dump});
  INFO(check.out << check.err);
  REQUIRE(check.ok());
  const auto seen = nlohmann::json::parse(test::read_text(dump));
  // The table fits the window: no run name or parameter list in its rows.
  CHECK(seen["page"]["scroll_width"].get<int>() <= seen["page"]["window_width"].get<int>());
  // The x axis: each run by its short label and kernel, none by its name.
  std::size_t axes = 0;
  for (const auto& [id, svg] : seen["svg"].items()) {
    for (const auto& t : svg["x_labels"]) {
      INFO(t);
      CHECK(boost::regex_match(t.get<std::string>(), boost::regex("r[0-9]+ 6\\.[0-9.]+(-rc3)?")));
      ++axes;
    }
  }
  CHECK(axes >= 3);
  const std::string text = seen["text"];
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    CHECK(text.find(fmt::format("r{} = {}", i + 1, kNames[i])) != std::string::npos);
  // Parameters once, above the table, not in every row.
  CHECK(test::read_text(page).find("datasize 100") == test::read_text(page).rfind("datasize 100"));

  // The report's title: the names apart.
  const std::string report = dir.file("report.html");
  ok({"report", "1", "2", "--db", db, "-o", report});
  CHECK_THAT(test::read_text(report),
             Contains("<title>schedlab report: " + kNames[0] + ", " + kNames[1] + "</title>"));
}

namespace {

// A markdown document's lines within 100 columns, but for its pipe-table
// rows and headings: markdown gives each one line, whatever its width.
void check_markdown_fits(const std::string& md) {
  std::string prose;
  for (const auto& line : lines_of(md))
    if (!line.starts_with('|') && !line.starts_with('#')) prose += line + "\n";
  check_fits(prose);
}

// A 71-character name ending in `what`.
std::string long_name(const std::string& what) {
  std::string n = "sync-wakeup-from-irq-investigation-6.12.0-rc3-20261204T220811Z-" + what;
  n.resize(71, 'x');
  return n;
}

}  // namespace

TEST_CASE("long names: every command and format that prints text fits 100 columns", "[long]") {
  test::TempDir dir;
  const std::string db = dir.file("all.db");
  const auto fixture = [](const std::string& f) { return test::fixture(f).string(); };
  const std::string pipes = hackbench("process-pipes-g2-l200.run1.txt");
  const std::string threads = hackbench("thread-pipes-g2-l200.run1.txt");
  // Runs of 2, 3, 4 and 6 columns, and the other workloads' real outputs.
  const std::vector<std::string> variants{"base", "batch", "third", "fourth", "fifth", "sixth"};
  for (const std::size_t columns : {2u, 3u, 4u, 6u}) {
    std::vector<std::string> args{
        "import", "hackbench", "--db", db, "--name", long_name(fmt::format("{}-columns", columns))};
    for (std::size_t v = 0; v < columns; ++v)
      for (int i = 1; i <= 3; ++i) {
        const std::string file =
            hackbench(fmt::format("{}-pipes-g2-l200.run{}.txt", v % 2 ? "thread" : "process", i));
        args.push_back(i == 1 ? variants[v] + "=" + file : file);
      }
    ok(args);
  }
  for (const auto& [workload, file] : {std::pair{"tbench", "tbench/tbench-t5-2clients.run1.txt"},
                                       {"pgbench", "pgbench/select-only-c2-j2-T5.run1.txt"},
                                       {"netperf", "netperf/tcp_rr-l3.txt"},
                                       {"schbench", "schbench/schbench-m1-t2-r5.txt"}})
    ok({"import", workload, "--db", db, "--name", long_name(workload), "base=" + fixture(file),
        "other=" + fixture(file)});
  // A real run with monitors, for --monitors and --changed.
  const std::string config = dir.file("monitors.yaml");
  test::write_text(config, R"(iterations: 3
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [2]
      loops: 100
      timeout: 60s
      monitors: [stat, tasks]
      task_monitor: {interval: 20ms}
variants:
  default: {}
  sched-batch:
    policy: batch
)");
  const std::string monitored = long_name("monitored");
  ok({"run", config, "--db", db, "--name", monitored, "--quiet"});
  // Ten nights, the last five slower: history --changes has a change to mark.
  const std::string nights = dir.file("nights.db");
  for (int i = 0; i < 10; ++i)
    ok({"import", "hackbench", "--db", nights, "--name", long_name(fmt::format("night-{}", i)),
        "--kernel", fmt::format("6.{}.0", 10 + i), "base=" + (i < 5 ? pipes : threads),
        i < 5 ? hackbench("process-pipes-g2-l200.run2.txt")
              : hackbench("thread-pipes-g2-l200.run2.txt"),
        "batch=" + threads});
  // schedstat snapshots under their own names, in a folder as a user's.
  const std::string v15 = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu";
  const std::string v17 = "schedstat/v17.aws-repro-collection-v6.19-epyc9r14-16cpu";
  std::vector<std::string> snaps;
  for (const auto& f :
       {v15 + ".before.txt", v15 + ".after.txt", v17 + ".before.txt", v17 + ".after.txt"}) {
    snaps.push_back(dir.file(std::filesystem::path(f).filename().string()));
    std::filesystem::copy_file(fixture(f), snaps.back());
  }
  // File names longer than a column label (a path of over 100 characters
  // would be shown whole in the key: it is what the user typed).
  const std::string base_samples = dir.file("hackbench-time-baseline-6.12.0-rc3.txt");
  const std::string new_samples = dir.file("hackbench-time-patched-v2-6.12.0-rc3.txt");
  test::write_text(base_samples, "1.0\n1.1\n0.9\n1.05\n");
  test::write_text(new_samples, "1.3\n1.4\n1.2\n1.35\n");

  std::vector<std::vector<std::string>> outputs = {
      {"list", "--db", db},
      {"history", "--db", nights, "--workload", "hackbench", "--metric", "time"},
      {"history", "--db", nights, "--workload", "hackbench", "--metric", "time", "--changes"},
      {"compare", monitored, "--db", db, "--monitors"},
      {"compare", monitored, "--db", db, "--changed"},
      {"schedstat", "show", snaps[1]},
      {"schedstat", "diff", snaps[0], snaps[1]},
      {"schedstat", "diff", snaps[0], snaps[1], "--per-cpu"},
      {"schedstat", "diff", snaps[0], snaps[1], "--style", "perf"},
      {"schedstat", "diff", snaps[2], snaps[3], "--style", "perf"},
      {"schedstat", "diff", "--delta", snaps[0], snaps[1], snaps[2], snaps[3]},
      {"stats", base_samples, new_samples},
      {"workloads"},
      {"design", "--cv", "5"},
      {"doctor"},
      {"run", config, "--db", dir.file("dry.db"), "--name", monitored, "--dry-run"},
      {"help"},
  };
  // hackbench's runs (1-4 imported, 9 run here) in every layout; tbench, netperf, schbench.
  for (const std::string run : {"1", "2", "3", "4", "9"})
    for (const std::vector<std::string>& more : {std::vector<std::string>{},
                                                 {"--all-stats"},
                                                 {"--mmtests"},
                                                 {"--summary", "time"},
                                                 {"--style", "amd"}}) {
      std::vector<std::string> args{"compare", run, "--db", db};
      args.insert(args.end(), more.begin(), more.end());
      outputs.push_back(args);
    }
  for (const std::string run : {"5", "7", "8"}) {
    outputs.push_back({"compare", run, "--db", db});
    outputs.push_back({"compare", run, "--db", db, "--style", "amd"});
  }
  outputs.push_back({"compare", "1", "2", "3", "4", "--db", db});
  outputs.push_back({"compare", "1", "2", "3", "--db", db, "--style", "amd"});
  for (const char* w : {"hackbench", "tbench", "pgbench", "dmatest", "hammerdb", "sysbench",
                        "seccomp-notify", "netperf", "schbench", "command"})
    outputs.push_back({"workloads", w});
  // The help of every command and subcommand.
  for (const std::string cmd :
       {"run",       "list",   "merge",  "compare", "restore", "stats",     "design",
        "schedstat", "lab",    "doctor", "parse",   "import",  "workloads", "nightly",
        "history",   "bisect", "report", "export",  "slurm",   "rm",        "help"})
    outputs.push_back({"help", cmd});
  for (const auto& [cmd, sub] : {std::pair{"schedstat", "show"},
                                 {"schedstat", "diff"},
                                 {"lab", "boot"},
                                 {"bisect", "start"},
                                 {"bisect", "status"}})
    outputs.push_back({"help", cmd, sub});
  for (const auto& args : outputs) {
    INFO(fmt::format("{}", fmt::join(args, " ")));
    const auto r = test::schedlab_cmd(args);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    check_fits(r.out);
    check_fits(r.err);
  }
  // The mark of a change is on a line of its own.
  const auto changes =
      ok({"history", "--db", nights, "--workload", "hackbench", "--metric", "time", "--changes"})
          .out;
  CHECK_THAT(changes, Contains("\n      ^ change 1\n"));
  // Markdown: prose and fenced text within 100 columns.
  for (const std::string run : {"1", "4", "9"})
    check_markdown_fits(ok({"compare", run, "--db", db, "--format", "markdown"}).out);
  check_markdown_fits(
      ok({"compare", monitored, "--db", db, "--changed", "--monitors", "--format", "markdown"})
          .out);
  // Wide tables come in pieces, each with the baseline first.
  const auto six = ok({"compare", "4", "--db", db}).out;
  CHECK(std::count(six.begin(), six.end(), '\n') > 8);
  CHECK_THAT(six, Contains("base                  sixth\n"));
}

TEST_CASE("long names: bisect status and the nightly report fit 100 columns", "[long]") {
  test::TempDir dir;
  // Three kernels of 71-character names: a hook installs each one's value.
  std::vector<std::string> kernels;
  for (int i = 0; i < 3; ++i) {
    kernels.push_back(long_name(fmt::format("kernel-{}", i)));
    test::write_text(dir.file(kernels.back() + ".val"), i == 0 ? "v: 1.0\n" : "v: 2.0\n");
  }
  const std::string config = dir.file("value.yaml");
  test::write_text(config, fmt::format(R"(description: the value the hook installed
hosts: {{sut: local, loadgen: local}}
iterations: 6
workloads:
  - command:
      name: value
      argv: [cat, {}]
      metrics:
        v: {{regex: '^v: (?<value>[0-9.]+)$', direction: lower}}
      monitors: [stat]
)",
                                       dir.file("current.val")));
  const std::string db = dir.file("b.db");
  const auto bisect =
      test::schedlab_cmd({"bisect",       "start",
                          "--db",         db,
                          "--good",       kernels[0],
                          "--bad",        kernels[2],
                          "--kernels",    fmt::format("{}", fmt::join(kernels, ",")),
                          "--config",     config,
                          "--metric",     "v",
                          "--hook-cwd",   dir.path().string(),
                          "--",           "cp",
                          "{kernel}.val", "current.val"});
  INFO(bisect.out << bisect.err);
  REQUIRE(bisect.exit_code == 0);
  check_fits(bisect.out);
  // Its progress on stderr too: each reference, candidate and verdict names
  // its kernel (issue 48).
  check_fits(bisect.err);
  CHECK_THAT(test::one_line(bisect.err), Contains("measuring the good reference " + kernels[0]) &&
                                             Contains(kernels[1] + " is BAD (n="));
  const auto status = ok({"bisect", "status", "--db", db}).out;
  check_fits(status);
  CHECK_THAT(status, Contains("first bad: " + kernels[1]));
  CHECK_THAT(status, Contains("candidates by pos: 0 = " + kernels[0]));

  std::string targets;
  for (const auto& k : kernels)
    targets += fmt::format("  - name: {}\n    hook: [cp, {}.val, current.val]\n", k, k);
  const std::string nightly = dir.file("nightly.yaml");
  test::write_text(nightly,
                   fmt::format("baseline: {}\ntargets:\n{}configs: [{}]\nrule: {{test: mwu}}\n",
                               kernels[0], targets, config));
  const auto n = test::schedlab_cmd(
      {"nightly", nightly, "--db", dir.file("n.db"), "--report-md", dir.file("n.md")});
  INFO(n.err);
  REQUIRE(n.exit_code == 1);
  // nightly's progress: the hook and measuring lines of each target.
  check_fits(n.err);
  CHECK_THAT(test::one_line(n.err),
             Contains(kernels[2] + ": running hook cp " + kernels[2] + ".val"));
  const std::string md = test::read_text(dir.file("n.md"));
  check_markdown_fits(md);
  CHECK_THAT(md, Contains("columns: r1 = " + kernels[0]));
}

TEST_CASE(
    "long names: refusals and errors on stderr fit 100 columns and still name what they are "
    "about") {
  test::TempDir dir;
  const std::string db = dir.file("runs.db");
  import_runs(db, false);
  const std::string metric = long_name("metric"), variant = long_name("variant");
  const std::string missing = "nosuch-" + kNames[0];
  // Files of 60-character names: a path stays whole on its line, so one in
  // a temporary folder that is wider than the line cannot fit.
  const auto file = [&](std::size_t i, const std::string& ext) {
    return dir.file(kNames[i].substr(0, 60) + ext);
  };
  const std::string v15 = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu";
  const std::string v17 = "schedstat/v17.aws-repro-collection-v6.19-epyc9r14-16cpu";
  const auto snap = [](const std::string& f) { return test::fixture(f).string(); };
  const std::string config = dir.file("config.yaml");
  test::write_text(config, fmt::format(R"(iterations: 1
workloads:
  - hackbench: {{groups: [1], loops: 10}}
variants:
  {}: {{polciy: batch}}
)",
                                       variant));
  // The command, and what its message must still say (read as one line).
  const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
      // 168 columns before: the longest series by its name.
      {{"history", "--db", db, "--workload", "hackbench", "--metric", "time", "--changes"},
       "the longest series (base hackbench-?/2 set 1) has 3"},
      {{"history", "--db", db, "--workload", "hackbench", "--metric", metric},
       "has metric '" + metric + "' of workload 'hackbench'"},
      {{"compare", kNames[0], missing, "--db", db}, "no run '" + missing + "' in " + db},
      {{"compare", kNames[0], kNames[1], "--db", db, "--summary", metric},
       "--summary: no metric '" + excerpt(metric) + "'"},
      {{"report", kNames[0], kNames[1], "--db", db, "--summary", metric, "-o", dir.file("r.html")},
       "--summary: no metric '" + excerpt(metric) + "'"},
      {{"list", "--db", db, "--wide", "--format", "json"},
       "--wide does nothing with --format json"},
      {{"rm", missing, "--db", db}, "has no run '" + missing + "'"},
      {{"export", "--db", db, "--format", "kcidb", missing},
       "no run '" + excerpt(missing, 60) + "'"},
      {{"export", "--db", db, "--format", "kcidb", "--workload", variant},
       "unknown workload '" + excerpt(variant, 60) + "'"},
      {{"import", "hackbench", "--db", db, "--name", kNames[0],
        "base=" + hackbench("process-pipes-g2-l200.run1.txt")},
       "already has a run named '" + kNames[0] + "'; nothing imported"},
      {{"import", "hackbench", "--db", dir.file("none.db"), "--name", kNames[0],
        variant + "=" + file(0, ".txt")},
       file(0, ".txt") + ": no such file"},
      // 212 columns before: the versions, and why perf's table cannot have both.
      {{"schedstat", "diff", "--delta", snap(v15 + ".before.txt"), snap(v15 + ".after.txt"),
        snap(v17 + ".before.txt"), snap(v17 + ".after.txt"), "--style", "perf"},
       "(v15 against v17): v17 splits the load-balance imbalance"},
      {{"stats", file(0, ".txt"), file(1, ".txt")}, file(0, ".txt") + ": cannot read the file"},
      {{"parse", "hackbench", file(1, ".txt")}, file(1, ".txt") + ": cannot read the file"},
      {{"bisect", "status", "--db", file(2, ".db")}, "no database at " + file(2, ".db")},
      {{"workloads", variant}, "unknown workload '" + excerpt(variant, 60) + "'"},
      {{"help", variant}, "unknown command '" + excerpt(variant, 60) + "'"},
      {{"compare", "--" + variant}, "unknown option '" + excerpt("--" + variant, 60) + "'"},
      // A config's error keeps its file:line:key first.
      {{"run", config, "--db", dir.file("run.db"), "--name", kNames[0]},
       config + ":5: variants." + variant + ": unknown key 'polciy' (did you mean 'policy'?)"},
  };
  for (const auto& [args, says] : refusals) {
    INFO(fmt::format("{}", fmt::join(args, " ")));
    const auto r = test::schedlab_cmd(args);
    INFO(r.err);
    CHECK_FALSE(r.ok());
    check_fits(r.err);
    CHECK_THAT(test::one_line(r.err), Contains(says));
  }
}

TEST_CASE("long names: a run's stderr, its closing hints and its dry runs fit 100 columns", "[host]") {
  test::TempDir dir;
  const std::string variant = long_name("variant"), run = kNames[0];
  const std::string db = dir.file("runs.db");
  // A real run: the progress lines (--progress without a terminal: a line
  // per iteration) name the variant; the monitors' notes (schedstat is
  // unavailable on a kernel without CONFIG_SCHEDSTATS, perf's events on a
  // machine without a PMU); the run's closing line names the run.
  const std::string config = dir.file("run.yaml");
  test::write_text(config, fmt::format(R"(iterations: 2
workloads:
  - hackbench: {{modes: [process-pipes], groups: [1], loops: 10, monitors: [schedstat, perf-stat]}}
variants:
  default: {{}}
  {}: {{policy: batch}}
)",
                                       variant));
  const auto r = ok({"run", config, "--db", db, "--name", run, "--progress", "--quiet"});
  check_fits(r.err);
  CHECK_THAT(test::one_line(r.err), Contains("variant=" + variant + " iter 2") &&
                                        Contains("run 1 '" + run + "' finished"));
  if (!std::filesystem::exists("/proc/schedstat"))
    CHECK_THAT(test::one_line(r.err), Contains("monitor schedstat is unavailable on local"));

  // A plan of two kernels, booted in turn: its dry run names the group and
  // each kernel's run (lines of 150 columns before).
  const auto plan = [&](const std::string& more) {
    return fmt::format(R"(hosts:
  sut: {{lab: {{kernels: [debian:6.1, debian:6.12]}}}}
workloads:
  - hackbench: {{groups: [1], loops: 10{}}}
variants:
  default: {{}}
  {}: {{policy: batch}}
)",
                       more, variant);
  };
  const std::string kernels = dir.file("kernels.yaml");
  test::write_text(kernels, plan(""));
  auto dry = ok({"run", kernels, "--db", db, "--name", kNames[1], "--dry-run"});
  check_fits(dry.out);
  check_fits(dry.err);
  CHECK_THAT(test::one_line(dry.out),
             Contains("kernel debian:6.12 as run '" + kNames[1] + "@6.12': default " + variant));
  // The kernels as columns of one run (a sequential stop): its columns.
  const std::string columns = dir.file("columns.yaml");
  test::write_text(columns, plan(", iterations: {stop: sequential, min: 3, max: 6}"));
  dry = ok({"run", columns, "--db", db, "--name", kNames[1], "--dry-run"});
  check_fits(dry.out);
  CHECK_THAT(test::one_line(dry.out), Contains("columns (the first the baseline): "));

  // A plan whose name is taken: the sentence wraps, and the command that
  // continues it stays whole on a line of its own, pasteable as it is.
  ok({"import", "hackbench", "--db", db, "--name", kNames[2],
      "base=" + hackbench("process-pipes-g2-l200.run1.txt")});
  const auto taken = test::schedlab_cmd({"run", kernels, "--db", db, "--name", kNames[2]});
  INFO(taken.err);
  CHECK(taken.exit_code == 2);
  const std::string resume = "schedlab run --resume " + kNames[2] + " --db " + db;
  std::string rest;
  for (const auto& line : lines_of(taken.err))
    if (line != "  " + resume) rest += line + "\n";
  CHECK_THAT(taken.err, Contains("continue it with:\n  " + resume + "\n"));
  check_fits(rest);
}

TEST_CASE("long names: a slurm task's header and slurm status fit 100 columns") {
  // Formatted as the task and `slurm status` print them (both need a Slurm
  // cluster to run; tests/e2e/slurm_test.cc runs them on one, long tier).
  test::TempDir dir;
  slurm::Submission s{.dir = dir.file(kNames[0]), .name = kNames[0], .partition = "debug"};
  s.jobs = {"1234567"};
  Config config = parse_config(
      "hosts: {sut: 'ssh://root@host', loadgen: local}\nworkloads: [hackbench]\n", "fleet.yaml");
  const std::string node = long_name("node");
  config.pairs = {slurm::task_pair(config, {{node, "10.231.0.1"}})};
  const std::string header = slurm::task_header(s, 0, config, {node});
  check_fits(header);
  CHECK_THAT(test::one_line(header),
             Contains("schedlab slurm task 0 of " + kNames[0] + ": pair ") &&
                 Contains(" (sut ssh://root@10.231.0.1, loadgen local)"));
  const Config lab = parse_config(
      "hosts: {sut: {lab: {kernel: debian:6.12}}}\nworkloads: [hackbench]\n", "lab.yaml");
  check_fits(slurm::task_header(s, 3, lab, {node}));

  // Task 0 running on n1, task 1 never started: each row's database path
  // (under the run's name) is the one thing wider than 100 columns, and
  // stays whole; so does the command that resubmits, on its own line.
  s.pairs = 2;
  const std::string status =
      slurm::status_text(s, {{0, {.task = 0, .state = "RUNNING", .nodes = "n1"}}});
  INFO(status);
  const std::string resubmit = "schedlab slurm submit --resume " + s.dir;
  std::string rest;
  for (const auto& line : lines_of(status))
    if (line != "  " + resubmit)
      rest += (line.ends_with(".db") ? line.substr(0, line.rfind(' ')) : line) + "\n";
  check_fits(rest);
  CHECK(rest.find("   0  RUNNING      n1") != std::string::npos);
  CHECK_THAT(test::one_line(status), Contains("run '" + kNames[0] + "': 2 task(s)"));
  CHECK_THAT(status, Contains("neither queued nor finished:\n  " + resubmit + "\n"));
}
