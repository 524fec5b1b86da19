// "What changed" (compare --changed, issue 46) where it is a section of
// another output: the nightly report and `bisect status`, end to end on this
// machine. A hook installs what each kernel (target, candidate) stands for:
// how many children a real Python program forks and how long each sleeps
// (12 for 0.1 s, or 30 for 0.2 s); the tasks monitor counts the workload's
// tasks each iteration, so the table has a real monitor row (tasks.tasks)
// beside the benchmark's own (forks.seconds). Without monitors the section
// says that no monitor counter was stored. A nightly of three targets or a
// bisection of three kernels takes a few seconds. Both use Welch's t-test
// for the counters whatever their rule's or bisection's test (Mann-Whitney
// here).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

const char* const kForksProgram = R"py(import os, sys, time
n, sleep = open(sys.argv[1]).read().split()
t0 = time.monotonic()
kids = []
for _ in range(int(n)):
    pid = os.fork()
    if pid == 0:
        time.sleep(float(sleep))
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
print("seconds: %f" % (time.monotonic() - t0))
)py";

// Three kernels: the first good (12 children, 0.1 s), the others bad. Half
// the sleeps they had (the test took a minute); at a quarter it failed once
// on a busy machine, its output not kept.
struct ForksSetup {
  test::TempDir dir;
  std::vector<std::string> kernels{"good-1", "bad-2", "bad-3"};
  ForksSetup() {
    test::write_text(dir.file("forks.py"), kForksProgram);
    test::write_text(dir.file("good-1.val"), "12 0.1\n");
    test::write_text(dir.file("bad-2.val"), "30 0.2\n");
    test::write_text(dir.file("bad-3.val"), "30 0.2\n");
  }
  // The experiment, with the tasks monitor or none.
  std::string config(bool monitors) const {
    const std::string path = dir.file(monitors ? "forks.yaml" : "plain.yaml");
    test::write_text(path, fmt::format(R"(description: forks as many children as the hook says
hosts: {{sut: local, loadgen: local}}
iterations: 6
workloads:
  - command:
      name: forks
      argv: [python3, {}, {}]
      metrics:
        seconds: {{regex: '^seconds: (?<value>[0-9.]+)$', direction: lower}}
{})",
                                       dir.file("forks.py"), dir.file("current.val"),
                                       monitors ? "      monitors: [tasks]\n"
                                                  "      task_monitor: {interval: 20ms}\n"
                                                : ""));
    return path;
  }
  ExecResult nightly(bool monitors, const std::string& db) const {
    std::string targets;
    for (const auto& k : kernels)
      targets += fmt::format("  - name: {}\n    hook: [cp, {}.val, current.val]\n", k, k);
    const std::string file = dir.file(monitors ? "n.yaml" : "n-plain.yaml");
    test::write_text(file, fmt::format("baseline: good-1\ntargets:\n{}configs: [{}]\n"
                                       "rule: {{test: mwu, alpha: 0.05, min_effect_pct: 5}}\n",
                                       targets, config(monitors)));
    return test::schedlab_cmd(
        {"nightly", file, "--db", db, "--report-md", db + ".md", "--report-json", db + ".json"});
  }
  ExecResult bisect(bool monitors, const std::string& db) const {
    return test::schedlab_cmd({"bisect",       "start",
                               "--db",         db,
                               "--good",       "good-1",
                               "--bad",        "bad-3",
                               "--kernels",    "good-1,bad-2,bad-3",
                               "--config",     config(monitors),
                               "--metric",     "seconds",
                               "--hook-cwd",   dir.path().string(),
                               "--",           "cp",
                               "{kernel}.val", "current.val"});
  }
};

// The "what changed" section of a text: from its title to its last line.
std::string changed_section_of(const std::string& text) {
  const auto at = text.find("what changed, ");
  if (at == std::string::npos) return "";
  const auto end = text.find("untestable (too few iterations", at);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

}  // namespace

TEST_CASE("the nightly report's comparisons say what else changed, with real monitor rows",
          "[e2e][changed][long]") {
  ForksSetup s;
  const std::string db = s.dir.file("n.db");
  const auto r = s.nightly(true, db);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 1);  // the bad targets regressed
  const std::string md = test::read_text(db + ".md");
  INFO(md);
  // bad-2 against good-1 (the baseline): the section in the comparison's text.
  const std::string section = changed_section_of(md.substr(md.find("## Comparisons")));
  REQUIRE_FALSE(section.empty());
  CHECK_THAT(section, Contains("  forks.seconds\n") && Contains("  tasks.tasks\n"));
  CHECK_THAT(section, !Contains("no monitor counters"));
  // The JSON report's comparison: the rows by the issue's field names.
  const auto j = nlohmann::json::parse(test::read_text(db + ".json"));
  const auto& compare = j["comparisons"][0]["compare"];
  REQUIRE(compare.contains("changed"));
  const nlohmann::json* tasks = nullptr;
  for (const auto& row : compare["changed"])
    if (row["counter"] == "tasks.tasks") tasks = &row;
  REQUIRE(tasks != nullptr);
  CHECK((*tasks)["benchmark"] == false);
  CHECK((*tasks)["mean"].get<double>() > (*tasks)["base_mean"].get<double>());
  CHECK((*tasks)["change_pct"].get<double>() > 0);
  for (const char* key : {"base_stddev_pct", "stddev_pct", "p", "q"}) CHECK(tasks->contains(key));
  CHECK((*tasks)["q"].get<double>() <= 0.05);
  CHECK(compare["changed_test"]["monitor_counters"].get<int>() >= 1);
  // Welch for the counters though the rule's test is Mann-Whitney: no floor.
  CHECK(compare["changed_test"]["test"] == "welch");
  CHECK(compare["changed_test"]["p_floor"].is_null());

  // Without monitors: the section says there was nothing but the benchmark.
  const std::string plain_db = s.dir.file("plain.db");
  const auto p = s.nightly(false, plain_db);
  INFO(p.out << p.err);
  REQUIRE(p.exit_code == 1);
  const std::string plain = changed_section_of(test::read_text(plain_db + ".md"));
  CHECK_THAT(plain, Contains("no monitor counters stored in either column") &&
                        Contains("  forks.seconds\n") && !Contains("tasks.tasks"));
}

TEST_CASE("bisect status says what else changed between the last good and the first bad",
          "[e2e][changed][long]") {
  ForksSetup s;
  const std::string db = s.dir.file("b.db");
  const auto r = s.bisect(true, db);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto status = test::schedlab_cmd({"bisect", "status", "--db", db});
  INFO(status.out << status.err);
  REQUIRE(status.ok());
  CHECK_THAT(status.out, Contains("first bad: bad-2\nlast good: good-1\n"));
  const std::string section = changed_section_of(status.out);
  CHECK_THAT(section, Contains("what changed, last-good -> first-bad\n(Welch's t-test per") &&
                          Contains("  forks.seconds\n") && Contains("  tasks.tasks\n"));

  const std::string plain_db = s.dir.file("plain.db");
  const auto p = s.bisect(false, plain_db);
  INFO(p.out << p.err);
  REQUIRE(p.exit_code == 0);
  const auto plain = test::schedlab_cmd({"bisect", "status", "--db", plain_db});
  CHECK_THAT(changed_section_of(plain.out),
             Contains("no monitor counters stored in either column") && !Contains("tasks.tasks"));
}
