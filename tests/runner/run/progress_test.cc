#include "runner/run/progress.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

using namespace schedlab;

namespace {

// What a Progress wrote, read back from a temporary file.
std::string written(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out += static_cast<char>(c);
  return out;
}

}  // namespace

TEST_CASE("progress: the ETA counts each point at its own workload's time (hackbench's 0.2 s, then tbench's 13 s)") {
  // hackbench: 3 points x 6 iterations; then tbench: 2 points x 6.
  Progress p(ProgressStyle::kNone, {{0, 6}, {0, 6}, {0, 6}, {1, 6}, {1, 6}}, nullptr);
  CHECK_FALSE(p.eta());  // nothing timed yet
  for (int i = 0; i < 6; ++i) p.measured(0, 0.2);
  p.point_done(0);
  // hackbench's other points at 0.2 s; tbench not timed yet: a lower bound.
  auto e = p.eta();
  REQUIRE(e);
  CHECK(e->seconds == Approx(12 * 0.2));
  CHECK(e->lower_bound);
  for (int point : {1, 2}) {
    for (int i = 0; i < 6; ++i) p.measured(point, 0.2);
    p.point_done(point);
  }
  // The first tbench iteration took 13 s: the eleven left of its point and
  // the six of the next are 13 s each, not hackbench's 0.2 s.
  p.measured(3, 13);
  e = p.eta();
  REQUIRE(e);
  CHECK_FALSE(e->lower_bound);
  CHECK(e->seconds == Approx(11 * 13.0));
  CHECK(p.line("tbench clients=1 variant=batch iter 2") == "[20/30] tbench clients=1 variant=batch iter 2  ETA 2m23s");
  // A point measured at its own time: clients=2 takes 20 s.
  for (int i = 0; i < 5; ++i) p.measured(3, 13);
  p.point_done(3);
  p.measured(4, 20);
  CHECK(p.eta()->seconds == Approx(5 * 20.0));
}

TEST_CASE("progress: an untimed iteration (a failed setup) counts as done but not in the times") {
  Progress p(ProgressStyle::kNone, {{0, 4}}, nullptr);
  p.measured(0, 0);
  p.measured(0, 2);
  CHECK(p.eta()->seconds == Approx(2 * 2.0));
  CHECK(p.line("x") == "[3/4] x  ETA 4s");
  // A resumed run: what it has already counts as done.
  Progress resumed(ProgressStyle::kNone, {{0, 4}, {0, 4}}, nullptr);
  resumed.already_done(0, 3);
  CHECK(resumed.line("x") == "[4/8] x");
}

TEST_CASE("progress: the line is cut to the terminal's width, plain lines where it cannot be rewritten") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    Progress p(ProgressStyle::kLine, {{0, 2}}, [] { return std::size_t{20}; }, f);
    p.show("hackbench-process-pipes groups=4 variant=sched-batch iter 1");
  }
  // Erased and rewritten in place, 19 columns at most, erased at the end.
  CHECK(written(f) == "\r\033[K[1/2] hackbench-pro\r\033[K");
  std::fclose(f);

  f = std::tmpfile();
  REQUIRE(f);
  {
    Progress p(ProgressStyle::kPlain, {{0, 2}}, [] { return std::size_t{20}; }, f);
    p.show("a");
    p.measured(0, 1);
    p.show("b");
  }
  CHECK(written(f) == "[1/2] a\n[2/2] b  ETA 1s\n");
  std::fclose(f);
}

TEST_CASE("progress: style from --progress, --no-progress, the terminal and TERM") {
  CHECK(progress_style(std::nullopt, true, "xterm") == ProgressStyle::kLine);
  CHECK(progress_style(std::nullopt, true, nullptr) == ProgressStyle::kLine);
  CHECK(progress_style(std::nullopt, false, "xterm") == ProgressStyle::kNone);
  CHECK(progress_style(std::nullopt, true, "dumb") == ProgressStyle::kNone);
  CHECK(progress_style(true, false, "xterm") == ProgressStyle::kPlain);
  CHECK(progress_style(true, true, "dumb") == ProgressStyle::kPlain);
  CHECK(progress_style(true, true, "xterm") == ProgressStyle::kLine);
  CHECK(progress_style(false, true, "xterm") == ProgressStyle::kNone);
}

TEST_CASE("progress: cut by characters, not bytes; ETA units") {
  CHECK(cut_to_width("variant=ünïcode", 10) == "variant=ün");
  CHECK(cut_to_width("short", 10) == "short");
  CHECK(format_eta(16) == "16s");
  CHECK(format_eta(156) == "2m36s");
  CHECK(format_eta(3900) == "1h05m");
}
