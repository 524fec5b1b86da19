// The monitor registry the runner walks: names, files, flat rows.
#include "analysis/counters/monitors.h"

#include <catch2/catch.hpp>
#include <map>

#include "analysis/counters/proc_text.h"
#include "tests/support/temp_dir.h"

using schedlab::CounterParseError;
using schedlab::find_monitor;
using schedlab::MonitorDelta;
using schedlab::test::fixture;
using schedlab::test::read_text;

namespace {

std::map<std::string, double> rows(const MonitorDelta& d) {
  std::map<std::string, double> m;
  for (const auto& r : d.rows) REQUIRE(m.emplace(r.counter, r.value).second);  // names unique
  return m;
}

std::vector<std::string> texts(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(read_text(fixture(f)));
  return out;
}

}  // namespace

TEST_CASE("the registry", "[monitors]") {
  std::vector<std::string> names;
  for (const auto& m : schedlab::monitors()) {
    names.emplace_back(m.name);
    CHECK(m.check);
    CHECK(m.diff);
    CHECK(!m.paths.empty());
  }
  CHECK(names == std::vector<std::string>{"schedstat", "stat", "interrupts", "softirqs", "pressure",
                                          "vmstat", "sched-debug", "cpuidle", "cpufreq"});
  // The monitors that run a process during the iteration are named too.
  const auto all = schedlab::monitor_names();
  CHECK(std::vector<std::string>(all.end() - 3, all.end()) ==
        std::vector<std::string>{"tasks", "perf-stat", "perf-profile"});
  CHECK(find_monitor("nope") == nullptr);
  REQUIRE(find_monitor("schedstat"));
  CHECK(find_monitor("schedstat")->sysctls.at(0).first == "kernel.sched_schedstats");
  CHECK(find_monitor("pressure")->paths.size() == 3);
  // Read elsewhere on older kernels, or by one script.
  CHECK(find_monitor("sched-debug")->older_paths ==
        std::vector<std::string_view>{"/proc/sched_debug"});
  CHECK(find_monitor("stat")->script.empty());
  CHECK(find_monitor("cpufreq")->script.starts_with("grep -H . /sys/devices/system/cpu/"));
}

TEST_CASE("schedstat rows", "[monitors]") {
  const std::string p = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu.";
  const auto* m = find_monitor("schedstat");
  const auto d = m->diff(texts({p + "before.txt"}), texts({p + "after.txt"}));
  const auto r = rows(d);
  CHECK(r.at("jiffies") == 208'988);
  CHECK(r.at("all.ttwu_count") == 380'433'516);
  CHECK(r.at("all.ttwu_local_pct") == Approx(100.0 * 48'047'460 / 380'433'516));
  CHECK(r.at("MC.lb_count_newidle") + r.at("PKG.lb_count_newidle") == 255'783);
  CHECK(r.at("cpu3.domain1.ttwu_move_affine") == 13'820'197);
  CHECK(r.at("cpu0.ttwu_local") == 16'108);
  CHECK(r.count("MC.lb_imbalance_load_newidle") == 0);  // not in v15: no row, not 0
  CHECK(r.count("cpu0.domain0.sbe_count") == 0);        // per-CPU rows are sparse
  CHECK(r.at("MC.sbe_count") == 0);                     // level rows are not
  CHECK(d.json["kind"] == "schedstat");
  CHECK(d.json["per_cpu"].size() == 16);
}

TEST_CASE("procfs rows", "[monitors]") {
  const auto stat = rows(find_monitor("stat")->diff(texts({"proc/stat.before-hackbench.txt"}),
                                                    texts({"proc/stat.after-hackbench.txt"})));
  CHECK(stat.at("ctxt") == 176'535);
  CHECK(stat.at("processes") == 301);
  CHECK(stat.at("cpu.system") == 959);
  CHECK(stat.at("cpu0.system") == 484);
  CHECK(stat.count("cpu0.nice") == 0);
  CHECK(stat.at("cpu.nice") == 0);

  const auto irq = rows(find_monitor("interrupts")
                            ->diff(texts({"proc/interrupts.before-hackbench.txt"}),
                                   texts({"proc/interrupts.after-hackbench.txt"})));
  CHECK(irq.at("LOC") == 2'869);
  CHECK(irq.at("LOC.cpu0") == 1'478);
  CHECK(irq.at("ERR") == 0);
  CHECK(irq.count("ERR.cpu0") == 0);

  const auto soft = rows(find_monitor("softirqs")
                             ->diff(texts({"proc/softirqs.before-hackbench.txt"}),
                                    texts({"proc/softirqs.after-hackbench.txt"})));
  CHECK(soft.at("TIMER.cpu1") == 201);

  const auto* pressure = find_monitor("pressure");
  const auto pr = rows(pressure->diff(
      texts({"proc/pressure-cpu.before-hackbench.txt", "proc/pressure-memory.before-hackbench.txt",
             "proc/pressure-io.before-hackbench.txt"}),
      texts({"proc/pressure-cpu.after-hackbench.txt", "proc/pressure-memory.after-hackbench.txt",
             "proc/pressure-io.after-hackbench.txt"})));
  CHECK(pr.at("cpu.some.total_us") == 4'844'429);
  CHECK(pr.at("io.full.total_us") == 3'050);
  CHECK(pr.at("cpu.some.avg10") == 44.40);
}

TEST_CASE("monitor errors name the file and line", "[monitors]") {
  const auto* m = find_monitor("schedstat");
  CHECK_THROWS_WITH(m->check({"version 15\ntimestamp 1\ncpu0 1 2\n"}),
                    "/proc/schedstat:3: cpu line has 2 counters; expected 9 (more are out-of-tree "
                    "additions, e.g. mmtests' select_idle_sibling counters)");
  CHECK_THROWS_AS(m->check({}), std::invalid_argument);
  CHECK_THROWS_WITH(find_monitor("pressure")->check({"some x\n", "", ""}),
                    "/proc/pressure/cpu:1: expected 'some|full avg10=X avg60=X avg300=X "
                    "total=N', found 'some x'");
  CHECK_NOTHROW(find_monitor("stat")->check(texts({"proc/stat.before-hackbench.txt"})));
}
