// `schedlab schedstat` on real fixture files, through the real binary.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/one_line.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using schedlab::test::fixture;

using schedlab::test::kSchedstatV15;
using schedlab::test::kSchedstatV17;

namespace {

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr
};

Result schedlab_cmd(const std::string& args) {
  Result r;
  FILE* p = ::popen((std::string(SCHEDLAB_BINARY) + " " + args + " 2>&1").c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string f(const std::string& rel) {
  return fixture(rel).string();
}

}  // namespace

TEST_CASE("schedlab schedstat diff and show", "[cli][schedstat]") {
  if (!std::filesystem::exists(SCHEDLAB_BINARY)) {
    SCHEDLAB_SKIP("the schedlab binary is not built");
  }
  const auto one =
      schedlab_cmd("schedstat diff " + f(kSchedstatV15 + "before.txt") + " " + f(kSchedstatV15 + "after.txt"));
  CHECK(one.code == 0);
  CHECK(one.out.find("Affine wakeups on same MC (% of all wakeups)") != std::string::npos);

  const auto ab = schedlab_cmd("schedstat diff --delta --format json " + f(kSchedstatV15 + "before.txt") +
                               " " + f(kSchedstatV15 + "after.txt") + " " + f(kSchedstatV17 + "before.txt") + " " +
                               f(kSchedstatV17 + "after.txt"));
  REQUIRE(ab.code == 0);
  const auto j = nlohmann::json::parse(ab.out);
  CHECK(j["kind"] == "schedstat-compare");
  bool found = false;
  for (const auto& r : j["rows"])
    if (r["section"] == "MC" && r["name"] == "lb_count_newidle") {
      found = true;
      CHECK(r["a"] == 154'946);
      CHECK(r["b"] == 22'461'482);
    }
  CHECK(found);

  const auto show = schedlab_cmd("schedstat show --per-cpu " + f("guest/6.12/schedstat.boot.txt"));
  CHECK(show.code == 0);
  CHECK(show.out.find("schedstat version 16 (domain layout v16), 2 CPUs") != std::string::npos);

  const auto topo = schedlab_cmd("schedstat diff " + f(kSchedstatV15 + "before.txt") + " " +
                                 f("guest/6.1/schedstat.boot.txt"));
  CHECK(topo.code == 2);
  CHECK(test::one_line(topo.out).find(
            test::one_line("schedstat topology changed between the snapshots (16 CPUs -> 2)")) !=
        std::string::npos);

  const auto bad = schedlab_cmd("schedstat show " + f("proc/stat.before-hackbench.txt"));
  CHECK(bad.code == 2);
  CHECK(test::message_count(bad.out) == 1);
  CHECK(test::one_line(bad.out) ==
        test::one_line("schedlab schedstat show: " + f("proc/stat.before-hackbench.txt") +
                       ":1: expected 'version <number>', found 'cpu  14767 0 15749 49136 248 0 "
                       "2595 25 1 0'\n"));

  CHECK(schedlab_cmd("schedstat diff --delta a b").code == 2);
  CHECK(schedlab_cmd("schedstat show /nonexistent").code == 2);
}

TEST_CASE("schedlab schedstat diff --style perf", "[cli][schedstat][perf]") {
  if (!std::filesystem::exists(SCHEDLAB_BINARY)) {
    SCHEDLAB_SKIP("the schedlab binary is not built");
  }
  const std::string a = f(kSchedstatV15 + "before.txt") + " " + f(kSchedstatV15 + "after.txt");
  const auto two = schedlab_cmd("schedstat diff --delta --style perf " + a + " " + a);
  CHECK(two.code == 0);
  CHECK(two.out.find("schedule() called                                                :   "
                     "728102431,  728102431  |     0.00% |\n") != std::string::npos);
  const auto one = schedlab_cmd("schedstat diff --style perf " + a);
  CHECK(one.code == 0);
  CHECK(one.out.find("schedule() left the processor idle                               :   "
                     "346330879  (    47.57% )\n") != std::string::npos);
  const auto json = schedlab_cmd("schedstat diff --style perf --format json " + a);
  CHECK(json.code == 2);
  CHECK(json.out ==
        "schedlab schedstat diff: --style perf does nothing with --format json: it "
        "applies to --format text\n");
  const auto per_cpu = schedlab_cmd("schedstat diff --style perf --per-cpu " + a);
  CHECK(per_cpu.code == 2);
  const auto mixed =
      schedlab_cmd("schedstat diff --delta --style perf " + a + " " +
                   f(kSchedstatV17 + "before.txt") + " " + f(kSchedstatV17 + "after.txt"));
  CHECK(mixed.code == 2);
  CHECK(mixed.out.find("schedlab schedstat diff: --style perf: the sides' domain lines differ in "
                       "layout (v15 against v17)") != std::string::npos);
}

TEST_CASE(
    "schedstat diff: a domain name that is no kernel's is refused, from a file or --level-names",
    "[cli][schedstat]") {
  // Hostile pass 4: a right-to-left override or a 3000-byte name was printed
  // as a domain's level, an ESC too when given with --level-names.
  if (!std::filesystem::exists(SCHEDLAB_BINARY)) SCHEDLAB_SKIP("the schedlab binary is not built");
  const std::string v15 = f(kSchedstatV15 + "before.txt") + " " + f(kSchedstatV15 + "after.txt");
  auto r =
      schedlab_cmd("schedstat diff --style perf --level-names \"$(printf '\\033[2J')\",PKG " + v15);
  CHECK(r.code == 2);
  CHECK(test::one_line(r.out).find(test::one_line(
            "'\\x1b[2J' is not a domain name (ASCII letters, digits and _, at most 16)")) !=
        std::string::npos);
  r = schedlab_cmd("schedstat diff " + v15 + " --level-names MC,PKG");
  CHECK(r.code == 0);
  // A v17 file whose first domain is named with a right-to-left override.
  schedlab::test::TempDir dir;
  std::string text = schedlab::test::read_text(fixture(kSchedstatV17 + "after.txt"));
  const auto at = text.find("domain0 ");
  REQUIRE(at != std::string::npos);
  const auto name_end = text.find(' ', at + 8);
  text.replace(at + 8, name_end - at - 8, "\xe2\x80\xaeMC");
  schedlab::test::write_text(dir.file("after.txt"), text);
  r = schedlab_cmd("schedstat diff --style perf " + f(kSchedstatV17 + "before.txt") + " " +
                   dir.file("after.txt"));
  CHECK(r.code == 2);
  CHECK(r.out.find("'\\u202eMC' is not a domain name") != std::string::npos);
}
