// The procfs monitor parsers on this VM's real snapshots around one
// hackbench run (fixtures/proc), deltas computed by hand from the files.
#include <catch2/catch.hpp>

#include "analysis/counters/procfs_interrupts.h"
#include "analysis/counters/procfs_pressure.h"
#include "analysis/counters/procfs_stat.h"
#include "tests/support/temp_dir.h"

namespace pf = schedlab::procfs;
using schedlab::CounterMismatchError;
using schedlab::CounterParseError;
using schedlab::test::fixture;
using schedlab::test::read_text;

namespace {
std::string proc(const std::string& name) {
  return read_text(fixture("proc/" + name));
}
}  // namespace

TEST_CASE("/proc/stat delta", "[procfs]") {
  const auto b = pf::parse_stat(proc("stat.before-hackbench.txt"));
  const auto a = pf::parse_stat(proc("stat.after-hackbench.txt"));
  CHECK(b.cpus.size() == 2);
  CHECK(b.total.fields == 10);
  CHECK(b.btime == 1795973839);
  const auto d = pf::diff(b, a);
  CHECK(d.ctxt == 26'342'870 - 26'166'335);
  CHECK(d.processes == 16'457 - 16'156);
  CHECK(d.softirq == 10'615'571 - 10'612'480);
  CHECK(d.total.v[0] == 14'818 - 14'767);  // user
  CHECK(d.total.v[2] == 16'708 - 15'749);  // system
  CHECK(d.cpus[0].v[2] == 8'130 - 7'646);
  CHECK(d.cpus[1].v[7] == 1);   // steal
  CHECK(d.procs_running == 3);  // a gauge: the value after
  CHECK(pf::cpu_time_name(7) == "steal");
  CHECK(pf::diff(a, a).ctxt == 0);

  auto rebooted = a;
  rebooted.btime += 100;
  CHECK_THROWS_WITH(pf::diff(b, rebooted),
                    "/proc/stat btime changed (1795973839 -> 1795973939): the machine rebooted "
                    "between the snapshots");
  auto hotplug = a;
  hotplug.cpus.pop_back();
  CHECK_THROWS_AS(pf::diff(b, hotplug), CounterMismatchError);
  CHECK_THROWS_WITH(pf::parse_stat("cpu  1 2 3 4\nctxt x\n"), "line 2: ctxt: 'x' is not a counter");
  CHECK_THROWS_WITH(pf::parse_stat("intr 5\n"), "not a /proc/stat text: no 'cpu' or 'ctxt' line");
  CHECK_THROWS_WITH(pf::parse_stat("cpu 1 2\nctxt 1\n"),
                    "line 1: cpu has 2 times; expected 4 to 10");
}

TEST_CASE("/proc/interrupts delta", "[procfs]") {
  const auto b = pf::parse_interrupts(proc("interrupts.before-hackbench.txt"));
  const auto a = pf::parse_interrupts(proc("interrupts.after-hackbench.txt"));
  CHECK(b.cpus == std::vector<int>{0, 1});
  REQUIRE(b.find("24"));
  CHECK(b.find("24")->description == "IO-APIC 5-edge ACPI:Ged");
  CHECK(b.find("LOC")->description == "Local timer interrupts");
  CHECK(b.find("ERR")->total_only);
  const auto d = pf::diff(b, a);
  CHECK(d.find("LOC")->per_cpu == std::vector<std::uint64_t>{61'952 - 60'474, 62'169 - 60'778});
  CHECK(d.find("LOC")->total() == 2'869);
  CHECK(d.find("RES")->per_cpu == std::vector<std::uint64_t>{201'386 - 194'171, 170'203 - 161'682});
  CHECK(d.find("36")->per_cpu[1] == 125);
  CHECK(d.find("ERR")->total() == 0);
  CHECK(d.rows.size() == b.rows.size());

  // An IRQ registered during the iteration counts from zero.
  auto fewer = b;
  fewer.rows.erase(fewer.rows.begin());
  CHECK(pf::diff(fewer, a).find("24")->total() == 1);
}

TEST_CASE("/proc/interrupts shapes", "[procfs]") {
  // Extra numbers after the CPU columns belong to the description (ARM GIC).
  const auto t = pf::parse_interrupts("  CPU0 CPU1\n 11:  5  6  GICv3  27 Level  arch_timer\n");
  CHECK(t.rows[0].per_cpu == std::vector<std::uint64_t>{5, 6});
  CHECK(t.rows[0].description == "GICv3 27 Level arch_timer");
  CHECK_THROWS_WITH(pf::parse_interrupts("  CPU0 CPU1 CPU2\n LOC: 1 2 Local\n"),
                    "line 2: /proc/interrupts: LOC has 2 counters for 3 CPU columns");
  CHECK_THROWS_WITH(pf::parse_interrupts("  CPU0 CPU1\n LOC 1 2\n"),
                    "line 2: /proc/interrupts: expected 'NAME:' then counters, found ' LOC 1 2'");
  CHECK_THROWS_WITH(pf::parse_interrupts("  CPU0 CPU1\n FOO:\n"),
                    "line 2: /proc/interrupts: FOO has no counters");
  CHECK_THROWS_WITH(
      pf::parse_softirqs("HI: 1 2\n"),
      "line 1: /proc/softirqs header: expected CPU columns (CPU0 CPU1 ...), found 'HI:'");
  CHECK_THROWS_WITH(pf::diff(t, pf::parse_interrupts("  CPU0\n 11: 1\n")),
                    "interrupt table CPU columns changed (2 -> 1 CPUs)");
}

TEST_CASE("/proc/softirqs delta", "[procfs]") {
  const auto b = pf::parse_softirqs(proc("softirqs.before-hackbench.txt"));
  const auto a = pf::parse_softirqs(proc("softirqs.after-hackbench.txt"));
  REQUIRE(b.rows.size() == 10);
  const auto d = pf::diff(b, a);
  CHECK(d.find("TIMER")->per_cpu == std::vector<std::uint64_t>{13'024 - 12'848, 13'799 - 13'598});
  CHECK(d.find("BLOCK")->per_cpu == std::vector<std::uint64_t>{0, 95'116 - 94'991});
  CHECK(d.find("RCU")->total() == (27'500 - 26'285) + (29'003 - 27'937));
  CHECK(d.find("NET_RX")->total() == 0);
  CHECK(d.find("HI")->description.empty());
}

TEST_CASE("/proc/pressure deltas", "[procfs]") {
  const auto cb = pf::parse_pressure(proc("pressure-cpu.before-hackbench.txt"));
  const auto ca = pf::parse_pressure(proc("pressure-cpu.after-hackbench.txt"));
  const auto cpu = pf::diff(cb, ca);
  CHECK(cpu.some->total_us == 79'824'898 - 74'980'469);
  CHECK(cpu.some->avg10 == 44.40);  // the value after
  CHECK(cpu.full->total_us == 0);
  const auto io = pf::diff(pf::parse_pressure(proc("pressure-io.before-hackbench.txt")),
                           pf::parse_pressure(proc("pressure-io.after-hackbench.txt")));
  CHECK(io.some->total_us == 2'868'897 - 2'763'976);
  CHECK(io.full->total_us == 1'985'387 - 1'982'337);
  CHECK(io.full->avg300 == 0.23);
  const auto mem = pf::diff(pf::parse_pressure(proc("pressure-memory.before-hackbench.txt")),
                            pf::parse_pressure(proc("pressure-memory.after-hackbench.txt")));
  CHECK(mem.some->total_us == 0);
  // Pre-5.13 cpu files have no "full" line.
  const auto old = pf::parse_pressure("some avg10=1.00 avg60=0.50 avg300=0.10 total=10\n");
  CHECK_FALSE(old.full);
  CHECK_THROWS_AS(pf::diff(old, ca), CounterMismatchError);
  CHECK_THROWS_WITH(pf::parse_pressure("some avg10=1 avg60=2 total=3\n"),
                    "line 1: expected 'some|full avg10=X avg60=X avg300=X total=N', found 'some "
                    "avg10=1 avg60=2 total=3'");
  CHECK_THROWS_WITH(pf::parse_pressure(""), "no 'some' line: not a /proc/pressure file");
}
