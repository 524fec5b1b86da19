// The tasks monitor's parser and reducer on real sampler output captured
// here (tests/fixtures/tasks/: `schedlab run` with monitors: [tasks], the
// raw text stored for one iteration). Expected values were counted from
// the files by hand-written Python, independently of this code.
#include "analysis/counters/task_samples.h"

#include <catch2/catch.hpp>

#include "analysis/counters/proc_text.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::read_text;

namespace {

double row(const MonitorDelta& d, const std::string& counter) {
  for (const auto& r : d.rows)
    if (r.counter == counter) return r.value;
  FAIL("no row " << counter);
  return 0;
}

bool has_row(const MonitorDelta& d, const std::string& counter) {
  for (const auto& r : d.rows)
    if (r.counter == counter) return true;
  return false;
}

}  // namespace

TEST_CASE("tasks: hackbench children appear after the first poll and count whole", "[tasks]") {
  const auto s = tasks::parse(test::own_fixture("tasks/hackbench-process-pipes-g2.txt"));
  REQUIRE(s.polls.size() == 12);
  CHECK(s.cut == 0);
  CHECK(s.polls.front().tasks.empty());  // the synchronous poll before hackbench started
  CHECK(s.polls.back().tasks.empty());   // and the one after it ended
  const auto& t = s.polls[1].tasks.at(0);
  CHECK(t.tid == 29410);
  CHECK(t.starttime == 1164056);
  CHECK(t.cpu == 1);
  CHECK(t.comm == "hackbench");

  const auto r = tasks::reduce(s);
  CHECK(r.all.tasks == 81);  // 2 groups x 20 senders + 20 receivers, and the parent
  REQUIRE(r.all.migrations);
  CHECK(*r.all.migrations == 143);
  CHECK(*r.all.switches == 116688);
  CHECK(r.all.cpu_hits == std::map<int, std::uint64_t>{{0, 352}, {1, 220}});
  CHECK(r.all.samples() == 572);
  CHECK(tasks::format_cpu_hits(r.all.cpu_hits) == "#0:352 #1:220");
  REQUIRE(r.by_comm.size() == 1);
  CHECK(r.by_comm.at("hackbench").tasks == 81);

  const auto d = tasks::delta(r);
  CHECK(row(d, "polls") == 12);
  CHECK(row(d, "tasks") == 81);
  CHECK(row(d, "migrations") == 143);
  CHECK(row(d, "cpu_hits.0") == 352);
  CHECK(row(d, "cpu_hits.1") == 220);
  CHECK(row(d, "comm.hackbench.samples") == 572);
  CHECK_FALSE(has_row(d, "cpu_hits.2"));
  CHECK(d.json["by_comm"]["hackbench"]["migrations"] == 143);
}

TEST_CASE("tasks: a server in the first poll counts from there, its children whole", "[tasks]") {
  const auto r = tasks::reduce(tasks::parse(test::own_fixture("tasks/tbench-2clients.txt")));
  CHECK(r.polls == 28);
  const auto& srv = r.by_comm.at("tbench_srv");
  // tbench_srv 29664 was up before the iteration (switches 3 -> 5: 2); its
  // children 29673 and 29674 started during it (133514 and 148680).
  CHECK(srv.tasks == 3);
  CHECK(*srv.switches == 2 + 133514 + 148680);
  CHECK(*srv.migrations == 0 + 5 + 1);
  CHECK(srv.cpu_hits == std::map<int, std::uint64_t>{{0, 47}, {1, 31}});
  const auto& cli = r.by_comm.at("tbench");
  CHECK(cli.tasks == 3);
  CHECK(*cli.migrations == 10);
  CHECK(*cli.switches == 288470);
  CHECK(*r.all.migrations == 16);
  CHECK(r.all.tasks == 6);
}

TEST_CASE("tasks: a poll cut by the sampler's stop is dropped, a malformed line is an error",
          "[tasks]") {
  const std::string text = test::own_fixture("tasks/tbench-2clients.txt");
  // The background poller stopped mid-line: everything after the cut is
  // the last synchronous poll.
  const auto last_sampler = text.rfind("# schedlab-tasks 1");
  const auto cut_at = text.rfind(" tbench", last_sampler - 20);
  const std::string cut = text.substr(0, cut_at) + "\n" + text.substr(last_sampler);
  const auto s = tasks::parse(cut);
  CHECK(s.cut == 1);
  CHECK(s.polls.size() == 27);

  CHECK_THROWS_WITH(tasks::parse("# schedlab-tasks 1\nP 1.00\n12 34 x 0 1 1 0 hackbench\nE\n"),
                    "line 3: cpu: 'x' is not a counter");
  CHECK_THROWS_WITH(tasks::parse("# schedlab-tasks 1\nP 1.00\n12 34 1 0 hackbench\nE\n"),
                    Catch::Contains("line 3: expected 'tid starttime cpu migrations"));
  CHECK_THROWS_WITH(tasks::parse("12 34 1 0 1 1 0 hackbench\n"),
                    Catch::Contains("line 1: '12 34 1 0 1 1 0 hackbench' is outside a poll"));
  CHECK_THROWS_WITH(tasks::parse("# schedlab-tasks 2\n"),
                    Catch::Contains("line 1: sampler output version '2'"));
  // Spaces in a comm, and a kernel without the switch counters.
  const auto odd = tasks::parse("P 5.5\n7 8 3 2 - - - my prog\nE\n");
  REQUIRE(odd.polls.at(0).tasks.size() == 1);
  CHECK(odd.polls[0].tasks[0].comm == "my prog");
  CHECK_FALSE(odd.polls[0].tasks[0].switches);
  const auto d = tasks::delta(tasks::reduce(odd));
  CHECK(row(d, "migrations") == 0);  // in the first poll: counted from there
  CHECK_FALSE(has_row(d, "switches"));
}

TEST_CASE("tasks: a reused tid is another task, a counter going backwards is an error", "[tasks]") {
  const auto r = tasks::reduce(tasks::parse(
      "P 1\n5 100 0 3 10 - - a\nE\nP 2\n5 100 1 4 12 - - a\nE\nP 3\n5 200 1 1 1 - - a\nE\n"));
  CHECK(r.all.tasks == 2);
  CHECK(*r.all.migrations == (4 - 3) + 1);
  CHECK(*r.all.switches == (12 - 10) + 1);
  CHECK(r.all.cpu_hits == std::map<int, std::uint64_t>{{0, 1}, {1, 2}});
  CHECK_THROWS_WITH(
      tasks::reduce(tasks::parse("P 1\n5 100 0 3 - - - a\nE\nP 2\n5 100 0 2 - - - a\nE\n")),
      "task 5 (a): nr_migrations went from 3 to 2");
}

TEST_CASE("tasks: busybox sh and awk in a lab guest print the same format", "[tasks]") {
  // Debian 6.12 under qemu (TCG, 2 CPUs), hackbench -g 1 -l 100 with a 50ms
  // interval: starting the poller over SSH took 0.6 s of emulated time.
  const auto r = tasks::reduce(tasks::parse(test::own_fixture("tasks/lab-debian-6.12-busybox-hackbench.txt")));
  CHECK(r.polls == 11);
  CHECK(r.cut == 0);
  CHECK(r.all.tasks == 37);
  CHECK(*r.all.migrations == 73);
  CHECK(tasks::format_cpu_hits(r.all.cpu_hits) == "#0:59 #1:11");
}
