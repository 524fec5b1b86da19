// perf-profile's folding and shares on real `perf script -F
// comm,tid,ip,sym,dso` output recorded here (tests/fixtures/perf/README.md).
// Expected shares were computed by tests/fixtures/perf/reference.py, plain
// Python sharing no code with schedlab.
#include "analysis/counters/perf_profile.h"

#include <catch2/catch.hpp>

#include "base/base64.h"
#include "base/compression.h"
#include "tests/support/delta_rows.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

std::uint64_t folded_samples(const perf_profile::Folded& f) {
  std::uint64_t n = 0;
  for (const auto& [stack, c] : f) n += c;
  return n;
}

}  // namespace

TEST_CASE("a real profile of a program with a hot function", "[perf][monitors]") {
  const auto f = perf_profile::fold(test::own_fixture("perf/script-hot.txt"));
  CHECK(folded_samples(f) == 83);
  CHECK(f.size() == 28);
  CHECK(f.at("hot;__libc_start_call_main;hot_loop") == 21);
  const MonitorDelta d = perf_profile::shares(f);
  CHECK(test::delta_row(d, "self.hot_loop") == Approx(25.301205));
  CHECK(test::delta_row(d, "children.hot_loop") == Approx(26.506024));
  CHECK(test::delta_row(d, "self.cold_loop") == Approx(3.614458));
  CHECK(test::delta_row(d, "children.__libc_start_call_main") == Approx(30.120482));
  CHECK_FALSE(test::delta_has_row(d, "self.__libc_start_call_main"));  // never a leaf: no self row
  CHECK(test::delta_row(d, "self.[git]") == Approx(36.144578));  // unresolved: named by its DSO
  CHECK(d.json["samples"] == 83);
  CHECK(d.json["top_self"][0]["symbol"] == "[git]");
  CHECK(d.json["top_self"][1]["symbol"] == "hot_loop");
}

TEST_CASE("a real system-wide profile of hackbench", "[perf][monitors]") {
  const auto f = perf_profile::fold(test::own_fixture("perf/script-hackbench-g2.txt"));
  CHECK(folded_samples(f) == 50);
  CHECK(f.size() == 33);
  const MonitorDelta d = perf_profile::shares(f);
  CHECK(test::delta_row(d, "self._raw_spin_lock") == Approx(10.0));
  CHECK(test::delta_row(d, "children.[git]") == Approx(8.0));
  // Every share is a percentage of the samples.
  for (const auto& r : d.rows) {
    CHECK(r.value > 0);
    CHECK(r.value <= 100);
  }
}

TEST_CASE("a sample of an exited task (perf's ':-1 -1') is folded, not refused",
          "[perf][monitors]") {
  // hostile8: a real system-wide recording whose sample at line 40 caught
  // a task in do_exit; perf script names its thread ":-1" with TID -1. The
  // whole iteration's profile was refused ("expected a sample header").
  const auto f = perf_profile::fold(test::own_fixture("perf/script-exited-task.txt"));
  CHECK(folded_samples(f) == 18);
  CHECK(f.at(":-1;entry_SYSCALL_64_after_hwframe;do_syscall_64;x64_sys_call;__x64_sys_exit_group;"
             "do_group_exit;do_exit;_raw_write_unlock_irq") == 1);
  CHECK_THROWS_WITH(perf_profile::fold("hot -2\n"),
                    "line 1: expected a sample header 'COMM TID', found 'hot -2'");
}

TEST_CASE("folded stacks round-trip through text and the stored form", "[perf][monitors]") {
  const auto f = perf_profile::fold(test::own_fixture("perf/script-hackbench-g2.txt"));
  CHECK(perf_profile::parse_folded(perf_profile::folded_text(f)) == f);
  const std::string stored = perf_profile::store(f);
  CHECK(perf_profile::load(stored, "iteration 7") == f);
  CHECK(gunzip(*base64_decode(stored), "x") == perf_profile::folded_text(f));
}

TEST_CASE("a corrupt stored profile is an error naming the iteration", "[perf][monitors]") {
  CHECK_THROWS_WITH(perf_profile::load("not base64!", "iteration 12"),
                    "iteration 12: the stored profile is not base64");
  CHECK_THROWS_WITH(perf_profile::load(base64_encode("plain text"), "iteration 12"),
                    "iteration 12: the stored profile is not gzip data");
  // Truncated gzip.
  std::string z = gzip("a;b 3\n");
  z.resize(z.size() - 6);
  CHECK_THROWS_WITH(perf_profile::load(base64_encode(z), "iteration 12"),
                    Catch::Contains("iteration 12"));
  CHECK_THROWS_WITH(perf_profile::load(base64_encode(gzip("a;b 3\nbroken\n")), "iteration 12"),
                    "iteration 12: stored profile:2: expected 'STACK COUNT', found 'broken'");
}

TEST_CASE("a stored profile whose counts overflow or whose line is huge is refused",
          "[perf][monitors]") {
  // Hostile pass 4: counts summing past 2^64 wrapped the total, and every
  // share printed above 100%.
  const std::string big = "18446744073709551615";  // 2^64 - 1
  CHECK_THROWS_WITH(
      perf_profile::load(base64_encode(gzip("a;b " + big + "\na;c 2\n")), "iteration 3"),
      "iteration 3: stored profile:2: the samples in all overflow a 64-bit count");
  CHECK(perf_profile::parse_folded("a;b " + big + "\n").at("a;b") == 18446744073709551615ULL);
  const std::string huge = "a;" + std::string(std::size_t{1} << 20, 'x') + " 1\n";
  CHECK_THROWS_WITH(perf_profile::parse_folded(huge),
                    "line 1: a stack line of 1048580 bytes: more than 1048576");
  // A broken line is quoted cut and terminal-safe.
  CHECK_THROWS_WITH(
      perf_profile::parse_folded(std::string(200, 'y') + "\x1b]0;pwned\x07\n"),
      "line 1: expected 'STACK COUNT', found '" + std::string(80, 'y') + "... (210 characters)'");
  CHECK_THROWS_WITH(perf_profile::parse_folded("\x1b]0;x\x07\n"),
                    "line 1: expected 'STACK COUNT', found '\\x1b]0;x\\x07'");
}

TEST_CASE("perf script text that is not perf script's is refused with its line",
          "[perf][monitors]") {
  CHECK_THROWS_WITH(perf_profile::fold("\t  1234 foo (/bin/x)\n"),
                    "line 1: a frame before any sample header: '1234 foo (/bin/x)'");
  CHECK_THROWS_WITH(perf_profile::fold("hot 12\n\t  1234 foo\n"),
                    "line 2: expected a frame 'ADDR SYM (DSO)', found '1234 foo'");
  CHECK_THROWS_WITH(perf_profile::fold("hot twelve\n"),
                    "line 1: expected a sample header 'COMM TID', found 'hot twelve'");
  // A comm with spaces, a C++ symbol with spaces and parentheses, an offset.
  const auto f = perf_profile::fold(
      "Web Content 77\n\t 1 foo(int, char) (/usr/lib/x.so)\n\t 2 main+0x1b (/bin/x)\n");
  CHECK(f.at("Web Content;main;foo(int, char)") == 1);
}
