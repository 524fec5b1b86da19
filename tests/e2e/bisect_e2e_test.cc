// schedlab bisect end to end on real processes: a git repository of a small
// C program (a pipe ping-pong between two processes, N round trips, printing
// its time relative to a calibration block), built per commit by a hook with the real `cc`, measured
// by the `command` workload on this machine with its real timing noise.
//
// In the main history of 30 commits, rev 19 makes every 5th round trip a
// double one (20% more round trips, ~20% slower) and rev 15 does not
// compile. Bisect judges with Mann-Whitney (ranks, robust to the outliers
// this box throws in) by default; 12 iterations a batch give an exact p of
// 7.4e-7 when the two sides separate, and an UNKNOWN candidate gets up to
// two more batches.
#include <fmt/format.h>
#include <signal.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "results/bisect_log.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

using test::schedlab_cmd;

// The program; SLOW doubles every 5th round trip. This VM's speed drifts:
// unpinned, the time of 10000 round trips is bimodal (0.027 s or 0.034 s:
// both ends on one CPU or on two), and even pinned it moved from 0.038 s to
// 0.027 s within minutes, more than the 20% to find. So the program pins
// itself and its child to CPU 0 and, block by block (50 round trips),
// times a calibration block that no commit changes next to the measured
// one, and prints the ratio of the fastest of each: drift cancels. Measured
// here, batches of 12 at nice -15: 0.996-1.003 for fast commits, 1.196-1.207
// for SLOW (one outlier batch 1.13-1.29).
const char* const kProgram = R"c(#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SLOW @SLOW@
/* rev @REV@ */
@BROKEN@
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000, block = 50;
  int a[2], b[2];
  char c = 'x';
  cpu_set_t one; /* both ends on CPU 0: the child inherits it */
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  if (sched_setaffinity(0, sizeof one, &one)) return 1;
  if (pipe(a) || pipe(b)) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    close(a[1]);
    close(b[0]);
    while (read(a[0], &c, 1) == 1) write(b[1], &c, 1);
    _exit(0);
  }
  close(a[0]);
  close(b[1]);
  double best = 1e9, best_cal = 1e9;
  for (long done = 0; done < n; done += block) {
    double t0 = now();
    for (long i = 0; i < block; i++) { /* calibration: the same in every commit */
      write(a[1], &c, 1);
      read(b[0], &c, 1);
    }
    double t1 = now();
    for (long i = 0; i < block; i++) {
      write(a[1], &c, 1);
      read(b[0], &c, 1);
      if (SLOW && i % 5 == 0) {
        write(a[1], &c, 1);
        read(b[0], &c, 1);
      }
    }
    double t2 = now();
    if (t1 - t0 < best_cal) best_cal = t1 - t0;
    if (t2 - t1 < best) best = t2 - t1;
  }
  close(a[1]);
  waitpid(pid, 0, 0);
  printf("relative: %.6f\n", best / best_cal);
  return 0;
}
)c";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at; (at = s.find(from)) != std::string::npos;) s.replace(at, from.size(), to);
  return s;
}

ExecResult run(const std::vector<std::string>& argv, const std::string& cwd = "") {
  LocalHost host;
  Command cmd;
  cmd.argv = argv;
  cmd.cwd = cwd;
  cmd.timeout = std::chrono::seconds(60);
  return host.run(cmd);
}

void git(const std::string& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"});
  const auto r = run(args);
  INFO(r.err);
  REQUIRE(r.ok());
}

struct Rev {
  bool slow = false;
  bool broken = false;
  std::string build_sh;  // build.sh of the commit (empty: a plain cc)
};

// A repository with one commit per entry; returns the commit ids, oldest first.
std::vector<std::string> make_repo(const std::string& repo, const std::vector<Rev>& revs) {
  REQUIRE(run({"git", "init", "-q", repo}).ok());
  std::vector<std::string> shas;
  for (std::size_t i = 0; i < revs.size(); ++i) {
    std::string src = replace(kProgram, "@SLOW@", revs[i].slow ? "1" : "0");
    src = replace(src, "@REV@", std::to_string(i + 1));
    src = replace(src, "@BROKEN@", revs[i].broken ? "this does not compile;" : "");
    test::write_text(repo + "/pingpong.c", src);
    test::write_text(repo + "/build.sh", revs[i].build_sh.empty()
                                            ? "exec cc -O2 -o \"$1\" pingpong.c\n"
                                            : revs[i].build_sh);
    git(repo, {"add", "pingpong.c", "build.sh"});
    git(repo, {"commit", "-q", "-m", "rev " + std::to_string(i + 1)});
    shas.push_back(replace(run({"git", "-C", repo, "rev-parse", "HEAD"}).out, "\n", ""));
  }
  return shas;
}

// The config: the built program, N round trips, 8 iterations a batch.
std::string make_config(const test::TempDir& dir, const std::string& binary) {
  const std::string path = dir.file("pingpong.yaml");
  test::write_text(path, R"(description: pipe ping-pong of the commit under test
hosts: {sut: local, loadgen: local}
iterations: 12
workloads:
  - command:
      name: pingpong
      description: pipe ping-pong between two processes
      argv: [")" + binary + R"(", "{round_trips}"]
      params: {round_trips: 10000}
      metrics:
        relative:
          regex: '^relative: (?<value>[0-9.]+)$'
          unit: x
          direction: lower
      timeout: 30s
variants:
  niced:
    nice: -15   # ahead of the other jobs' CPU hogs sharing this box
)");
  return path;
}

// Whether a process is gone or a zombie, waiting up to 5 s.
bool dead(int pid) {
  for (int i = 0; i < 50; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text)) return true;
    const auto paren = text.rfind(')');
    if (paren != std::string::npos && text.size() > paren + 2 && text[paren + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

nlohmann::json result_of(const std::string& db) {
  Store store(db);
  const auto s = store.bisect_log().latest_bisect();
  REQUIRE(s);
  return nlohmann::json::parse(s->result_json);
}

}  // namespace

TEST_CASE("bisect names the slow commit of a real program and skips the one that does not compile",
          "[long]") {
  test::TempDir dir;
  const std::string repo = dir.file("repo"), binary = dir.file("pingpong"), db = dir.file("b.db");
  std::vector<Rev> revs(30);
  for (std::size_t i = 18; i < revs.size(); ++i) revs[i].slow = true;  // rev 19 on
  revs[14].broken = true;  // rev 15: the first midpoint, so bisect must step around it
  const auto shas = make_repo(repo, revs);
  const std::string config = make_config(dir, binary);
  const std::vector<std::string> start = {
      "bisect", "start", "--db", db, "--good", shas.front(), "--bad", shas.back(),
      "--config", config, "--metric", "relative", "--min-effect", "5", "--alpha", "0.01", "--repo", repo, "--hook-timeout", "30s",
      "--max-candidates", "2", "--", "cc", "-O2", "-o", binary, "pingpong.c"};

  // Two candidates, then stop: the state is in the database only.
  auto r = schedlab_cmd(start);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("stopped as asked") != std::string::npos);
  auto status = schedlab_cmd({"bisect", "status", "--db", db});
  REQUIRE(status.ok());
  CHECK(status.out.find("(running)") != std::string::npos);
  CHECK(status.out.find("REF-GOOD") != std::string::npos);
  CHECK(status.out.find("REF-BAD") != std::string::npos);
  CHECK(status.out.find("next: ") != std::string::npos);

  // A second start is refused while one is running.
  CHECK(schedlab_cmd(start).exit_code == 2);

  r = schedlab_cmd({"bisect", "continue", "--db", db});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto res = result_of(db);
  CHECK(res["first_bad_candidate"] == shas[18]);
  CHECK(res["last_good_candidate"] == shas[17]);
  CHECK(res["skipped_between"].empty());
  // 28 candidates between the references: at most log2(28) + 4.
  CHECK(res["measured_candidates"].get<int>() <= static_cast<int>(std::log2(28.0) + 4));
  CHECK(r.out.find("first bad: " + shas[18].substr(0, 7) + " rev 19") != std::string::npos);
  CHECK(r.out.find("last-good") != std::string::npos);  // the comparison table
  CHECK(r.out.find("first-bad") != std::string::npos);

  // The broken commit was skipped with the compiler's failure, not measured.
  Store store(db);
  bool skipped_broken = false;
  for (const auto& d :
       store.bisect_log().bisect_decisions(store.bisect_log().latest_bisect()->id)) {
    if (d.candidate == shas[14]) {
      CHECK(d.verdict == "SKIP");
      CHECK(d.run_ids_json == "[]");
      CHECK(d.note.find("exit 1") != std::string::npos);
      skipped_broken = true;
    }
    if (d.verdict == "GOOD" || d.verdict == "BAD") {
      CHECK(d.p_good.has_value());
      CHECK(d.p_bad.has_value());
      CHECK(d.n >= 12);
    }
  }
  CHECK(skipped_broken);
  status = schedlab_cmd({"bisect", "status", "--db", db});
  CHECK(status.out.find("(done)") != std::string::npos);
  CHECK(status.out.find("SKIP") != std::string::npos);
  // The same as one page: a row per decided candidate with its verdict and
  // centre as stored, the skip among them, and a plot that renders.
  const auto page = schedlab_cmd({"bisect", "status", "--db", db, "--format", "html"});
  REQUIRE(page.ok());
  std::map<int, const BisectDecision*> last;
  const auto decisions =
      store.bisect_log().bisect_decisions(store.bisect_log().latest_bisect()->id);
  for (const auto& d : decisions) last[d.position] = &d;
  for (const auto& [pos, d] : last) {
    INFO(pos << " " << d->verdict);
    const std::string row = fmt::format("<tr class=\"{}\"><td>{}</td>", d->verdict, pos);
    const auto at = page.out.find(row);
    REQUIRE(at != std::string::npos);
    if (d->centre)
      CHECK(page.out.find(fmt::format("<td class=\"centre\">{:.4g}</td>", *d->centre), at) <
            page.out.find("</tr>", at));
  }
  CHECK(page.out.find("<tr class=\"SKIP\">") != std::string::npos);
  const std::string html = dir.file("bisect.html");
  test::write_text(html, page.out);
  const auto check = test::check_page_in_chromium(html, SCHEDLAB_BUILD_DIR "/bisect.png");
  INFO(check.out << check.err);
  CHECK(check.ok());
  CHECK(check.out.find("plot b0 (bisect): ") != std::string::npos);
  CHECK(schedlab_cmd({"bisect", "reset", "--db", db}).ok());
}

TEST_CASE("bisect refuses references that do not differ and prints their numbers", "[long]") {
  test::TempDir dir;
  const std::string repo = dir.file("repo"), binary = dir.file("pingpong"), db = dir.file("b.db");
  const auto shas = make_repo(repo, std::vector<Rev>(4));  // all equally fast
  const auto r = schedlab_cmd({"bisect", "start", "--db", db, "--good", shas.front(), "--bad",
                               shas.back(), "--config", make_config(dir, binary), "--metric",
                               "relative", "--min-effect", "5", "--alpha", "0.01", "--repo", repo, "--", "cc", "-O2", "-o", binary,
                               "pingpong.c"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("not significantly different") != std::string::npos);
  CHECK(r.err.find("(n=36)") != std::string::npos);  // refused only at the cap
  CHECK(r.err.find("p = 0.") != std::string::npos);
  const auto status = schedlab_cmd({"bisect", "status", "--db", db});
  CHECK(status.out.find("(refused)") != std::string::npos);
  // Nothing to continue.
  CHECK(schedlab_cmd({"bisect", "continue", "--db", db}).exit_code == 2);
}

TEST_CASE("a refused bisect whose centres are undefined stores null and prints n/a, not 0") {
  // Every sample is 0 on both sides: a higher-is-better metric's hmean is
  // undefined there, and the references cannot differ.
  test::TempDir dir;
  const std::string repo = dir.file("repo"), db = dir.file("b.db"), cfg = dir.file("zero.yaml");
  const auto shas = make_repo(repo, std::vector<Rev>(2));
  test::write_text(cfg, R"(hosts: {sut: local, loadgen: local}
iterations: 3
workloads:
  - command:
      name: zero
      argv: [sh, -c, "echo 'rate: 0'"]
      metrics:
        rate:
          regex: '^rate: (?<value>[0-9.]+)$'
          direction: higher
variants:
  default: {}
)");
  const auto r = schedlab_cmd({"bisect", "start", "--db", db, "--good", shas.front(), "--bad",
                               shas.back(), "--config", cfg, "--metric", "rate", "--max-iterations",
                               "3", "--repo", repo, "--", "true"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("good n/a (n=3), bad n/a (n=3)") != std::string::npos);
  const auto res = result_of(db);
  CHECK(res["reason"] == "references not different");
  CHECK(res["good_centre"].is_null());
  CHECK(res["bad_centre"].is_null());
  CHECK(res["n_good"] == 3);
  const auto status = schedlab_cmd({"bisect", "status", "--db", db});
  INFO(status.out);
  CHECK(status.out.find("refused: the references are not significantly different: good n/a (n=3), "
                        "bad n/a (n=3), p = ") != std::string::npos);
}

TEST_CASE("bisect kills a hanging hook at its timeout and skips the candidate", "[long]") {
  test::TempDir dir;
  const std::string repo = dir.file("repo"), binary = dir.file("pingpong"), db = dir.file("b.db");
  const std::string pidfile = dir.file("sleep.pid");
  std::vector<Rev> revs(8);
  for (std::size_t i = 5; i < revs.size(); ++i) revs[i].slow = true;  // rev 6 on
  // rev 4 (position 3, the first midpoint) hangs in its build script.
  revs[3].build_sh = "sleep 120 &\necho $! > " + pidfile + "\nwait\n";
  const auto shas = make_repo(repo, revs);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = schedlab_cmd({"bisect", "start", "--db", db, "--good", shas.front(), "--bad",
                               shas.back(), "--config", make_config(dir, binary), "--metric",
                               "relative", "--min-effect", "5", "--alpha", "0.01", "--repo", repo, "--hook-timeout", "15s", "--", "sh",
                               "build.sh", binary});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // The timeout leaves room for a real build on a busy machine (a 2 s timeout
  // killed cc itself at a load average of 17); the whole bisection still ends
  // well before the hanging build's 120 s would.
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(110));
  const auto res = result_of(db);
  CHECK(res["first_bad_candidate"] == shas[5]);
  Store store(db);
  bool skipped = false;
  for (const auto& d : store.bisect_log().bisect_decisions(store.bisect_log().latest_bisect()->id))
    if (d.candidate == shas[3]) {
      CHECK(d.verdict == "SKIP");
      CHECK(d.note.find("timeout") != std::string::npos);
      skipped = true;
    }
  CHECK(skipped);
  // The hook's whole process group went, its background sleep included
  // (dead: gone, or a zombie until whoever inherited it reaps it).
  const auto pid = std::stoi(test::read_text(pidfile));
  CHECK(dead(pid));
}

TEST_CASE(
    "bisect refuses a bad reference that is better than the good one, unless --direction either",
    "[heavy]") {
  test::TempDir dir;
  const std::string repo = dir.file("repo"), binary = dir.file("pingpong"), db = dir.file("b.db");
  std::vector<Rev> revs(4);
  revs[0].slow = true;  // the "good" reference is the slow one: the later kernels got faster
  const auto shas = make_repo(repo, revs);
  std::vector<std::string> start = {"bisect", "start", "--db", db, "--good", shas.front(), "--bad", shas.back(),
                                    "--config", make_config(dir, binary), "--metric", "relative", "--min-effect",
                                    "5", "--alpha", "0.01", "--repo", repo, "--max-candidates", "0", "--",
                                    "cc", "-O2", "-o", binary, "pingpong.c"};
  const auto r = schedlab_cmd(start);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("the bad reference is better than the good one (lower is better: good 1.") != std::string::npos);
  CHECK(r.err.find("--direction either bisects a change either way") != std::string::npos);
  const auto res = result_of(db);
  CHECK(res["reason"] == "bad reference better than good");
  CHECK(res["good_centre"].get<double>() > res["bad_centre"].get<double>());
  const auto status = schedlab_cmd({"bisect", "status", "--db", db});
  CHECK(status.out.find("refused: the bad reference is better than the good one (lower is better)") !=
        std::string::npos);
  // Either way: the references are accepted and the search starts.
  CHECK(schedlab_cmd({"bisect", "reset", "--db", db}).ok());
  start.insert(start.begin() + 2, {"--direction", "either"});
  const auto either = schedlab_cmd(start);
  INFO(either.err);
  CHECK(either.exit_code == 0);
  CHECK(either.err.find("stopped as asked") != std::string::npos);
}

// A machine that drifts: every run of the benchmark is 0.3% slower than the
// one before it (a counter outside the repository), on top of +-3% noise;
// rev 7 on is 20% slower. Measured once at the start, the references are
// left behind after a few candidates (a good commit measured 70 runs later
// is as slow as the bad reference was) and the search ends on the wrong
// commit. Measured beside each candidate, they drift with it.
TEST_CASE(
    "bisect under a scripted drift names the slow commit: references are measured beside each "
    "candidate",
    "[heavy]") {
  test::TempDir dir;
  const std::string repo = dir.file("repo"), bench = dir.file("bench.sh"), counter = dir.file("runs");
  const std::string db = dir.file("b.db");
  REQUIRE(run({"git", "init", "-q", repo}).ok());
  std::vector<std::string> shas;
  for (int rev = 1; rev <= 10; ++rev) {
    test::write_text(repo + "/bench.sh", fmt::format(R"(# rev {}
n=$(cat "$1" 2>/dev/null || echo 0)
echo $((n + 1)) > "$1"
awk -v n="$n" 'BEGIN {{ srand(n * 7919 + 13); printf "relative: %.6f\n", {} * (1 + 0.003 * n) * (1 + 0.06 * (rand() - 0.5)) }}'
)",
                                                      rev, rev >= 7 ? "1.2" : "1.0"));
    git(repo, {"add", "bench.sh"});
    git(repo, {"commit", "-q", "-m", "rev " + std::to_string(rev)});
    shas.push_back(replace(run({"git", "-C", repo, "rev-parse", "HEAD"}).out, "\n", ""));
  }
  const std::string cfg = dir.file("drift.yaml");
  test::write_text(cfg, fmt::format(R"(hosts: {{sut: local, loadgen: local}}
iterations: 12
workloads:
  - command:
      name: drift
      argv: [sh, "{}", "{}"]
      metrics:
        relative:
          regex: '^relative: (?<value>[0-9.]+)$'
          direction: lower
variants:
  default: {{}}
)",
                                    bench, counter));
  const auto r = schedlab_cmd({"bisect", "start", "--db", db, "--good", shas.front(), "--bad", shas.back(),
                               "--config", cfg, "--metric", "relative", "--min-effect", "8", "--alpha", "0.01",
                               "--repo", repo, "--", "cp", "bench.sh", bench});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto res = result_of(db);
  CHECK(res["first_bad_candidate"] == shas[6]);
  CHECK(res["last_good_candidate"] == shas[5]);
  // Every candidate batch had a reference batch on each side.
  Store store(db);
  const auto id = store.bisect_log().latest_bisect()->id;
  for (const auto& d : store.bisect_log().bisect_decisions(id)) {
    if (d.verdict != "GOOD" && d.verdict != "BAD") continue;
    for (int ref : {0, 9})
      CHECK(store.runs_table().find_run_by_name(
          fmt::format("bisect{}-c{}-b1-ref{}", id, d.position, ref)));
  }
}
