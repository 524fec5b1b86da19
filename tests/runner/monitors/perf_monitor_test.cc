// The perf monitors' probe on a fake SUT replaying real perf outputs
// (tests/fixtures/perf/): perf missing, perf refused by the paranoid
// setting, events the machine cannot count; each reported once, the run
// going on. The real perf runs in tests/e2e/perf_e2e_test.cc.
#include "runner/monitors/perf_monitor.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/counters/perf_stat.h"
#include "runner/monitors/monitor_runner.h"
#include "tests/support/fake_host.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

std::vector<std::string> dry(const std::vector<std::string>& events) {
  std::string list;
  for (const auto& e : events) list += (list.empty() ? "" : ",") + e;
  return {"perf", "stat", "-a", "-x,", "-e", list, "--", "true"};
}

struct Fixture {
  test::TempDir dir;
  Store store{dir.file("m.db")};
  std::int64_t run = store.runs_table().create_run(
      {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
  test::FakeHost sut{"fake"};
  std::vector<std::string> notes;
  nlohmann::json manifest() {
    return nlohmann::json::parse(store.runs_table().find_run(run)->manifest_json);
  }
};

}  // namespace

TEST_CASE("perf-stat: perf not installed on the SUT, reported once", "[perf][monitors][runner]") {
  Fixture f;
  f.sut.missing_programs.insert("perf");
  const Config config = parse_config("monitors: [perf-stat]\nworkloads: [hackbench]\n", "t.yaml");
  MonitorRunner m(f.store.runs_table(), f.store.journal(), f.sut, f.run, [&](const std::string& s) { f.notes.push_back(s); });
  m.start(config);
  CHECK(f.notes ==
        std::vector<std::string>{
            "schedlab: monitor perf-stat is unavailable on fake: perf is not installed: "
            "install it (Debian: apt-get install linux-perf); the run goes on without it"});
  CHECK(f.manifest()["monitors_unavailable"]["perf-stat"] ==
        "perf is not installed: install it (Debian: apt-get install linux-perf)");
  m.stop();
}

TEST_CASE("perf-stat: perf refused by kernel.perf_event_paranoid, reported once",
          "[perf][monitors][runner]") {
  Fixture f;
  f.sut.on(dry({"task-clock"}),
           {{.exit_code = 255, .err = test::own_fixture("perf/stat-paranoid-2-nobody.err")}});
  const Config config = parse_config("monitors: [perf-stat]\nworkloads: [hackbench]\n", "t.yaml");
  MonitorRunner m(f.store.runs_table(), f.store.journal(), f.sut, f.run, [&](const std::string& s) { f.notes.push_back(s); });
  m.start(config);
  REQUIRE(f.notes.size() == 1);
  CHECK(
      f.notes[0] ==
      "schedlab: monitor perf-stat is unavailable on fake: perf stat cannot run: Error: Access to "
      "performance monitoring and observability operations is limited. "
      "(kernel.perf_event_paranoid is 2) (exit 255); the run goes on without it");
  m.stop();
}

TEST_CASE("perf-stat: events without a PMU dropped, named once, the rest go on",
          "[perf][monitors][runner]") {
  Fixture f;
  f.sut.on(dry({"task-clock"}), {{.err = "1.00,msec,task-clock,1000,100.00,1.0,CPUs utilized\n"}});
  f.sut.on(dry(perf_stat::default_events()),
           {{.err = test::own_fixture("perf/stat-hackbench-g2.csv")}});
  PerfMonitor p(f.sut, PerfMonitor::Kind::kStat, PerfConfig{});
  std::map<std::string, std::string> dropped;
  CHECK_FALSE(p.probe(dropped));
  CHECK(dropped == std::map<std::string, std::string>{
                       {"cycles", "not supported on this machine (no PMU?)"},
                       {"instructions", "not supported on this machine (no PMU?)"}});
  CHECK(p.events().size() == 7);
  CHECK(p.events().back() == "sched:sched_migrate_task");
}

TEST_CASE("perf-stat: an event the kernel lacks is dropped, the rest go on",
          "[perf][monitors][runner]") {
  Fixture f;
  const std::string unknown = test::own_fixture("perf/stat-unknown-event.err");
  f.sut.on(dry({"task-clock"}), {{.err = "1.00,msec,task-clock,1000,100.00,1.0,CPUs utilized\n"}});
  f.sut.on(dry({"task-clock", "nosuch:event"}), {{.exit_code = 129, .err = unknown}});
  f.sut.on(dry({"nosuch:event"}), {{.exit_code = 129, .err = unknown}});
  PerfMonitor p(f.sut, PerfMonitor::Kind::kStat,
                PerfConfig{.events = {"task-clock", "nosuch:event"}, .event_lines = {3, 4}});
  std::map<std::string, std::string> dropped;
  CHECK_FALSE(p.probe(dropped));
  REQUIRE(dropped.count("nosuch:event"));
  CHECK(dropped["nosuch:event"] ==
        "perf cannot count it: event syntax error: 'nosuch:event' \\___ unknown tracepoint (exit "
        "129)");
  CHECK(p.events() == std::vector<std::string>{"task-clock"});
}

TEST_CASE("perf_stat: and perf_profile: in a config", "[perf][config]") {
  const Config c = parse_config(R"(
monitors: [perf-stat, perf-profile]
perf_stat: {events: [context-switches, "sched:sched_switch"]}
perf_profile: {frequency: 199}
workloads: [hackbench]
)",
                                "t.yaml");
  CHECK(c.perf.events == std::vector<std::string>{"context-switches", "sched:sched_switch"});
  CHECK(c.perf.event_lines == std::vector<int>{3, 3});
  CHECK(c.perf.frequency == 199);
  CHECK_THROWS_WITH(parse_config("perf_stat: {events: [a]}\nworkloads: [hackbench]\n", "t.yaml"),
                    "t.yaml:1: perf_stat: no workload uses the perf-stat monitor: add it "
                    "(monitors: [perf-stat])");
  CHECK_THROWS_WITH(parse_config("monitors: [perf-stat]\nperf_stat: {events: [a, a]}\n"
                                 "workloads: [hackbench]\n",
                                 "t.yaml"),
                    "t.yaml:2: perf_stat.events: event 'a' is listed twice");
  // perf's list syntax, two events as one item (hostile8 A11): refused, each
  // named; a PMU event's terms keep their commas.
  CHECK_THROWS_WITH(parse_config("monitors: [perf-stat]\nperf_stat:\n  events:\n    - a\n"
                                 "    - cycles,instructions\nworkloads: [hackbench]\n",
                                 "t.yaml"),
                    "t.yaml:5: perf_stat.events: 'cycles,instructions' is 2 events: list each "
                    "as its own item ([cycles, instructions])");
  CHECK_THROWS_WITH(parse_config("monitors: [perf-stat]\nperf_stat: {events: "
                                 "['{cycles,cpu/event=0x3c,umask=0/}']}\nworkloads: [hackbench]\n",
                                 "t.yaml"),
                    Catch::EndsWith("([{cycles, cpu/event=0x3c,umask=0/}])"));
  CHECK(parse_config("monitors: [perf-stat]\nperf_stat: {events: ['cpu/event=0x3c,umask=0/']}\n"
                     "workloads: [hackbench]\n",
                     "t.yaml")
            .perf.events == std::vector<std::string>{"cpu/event=0x3c,umask=0/"});
  // A value holding a newline is quoted escaped (hostile8 A11): every config
  // error escapes its message whole.
  CHECK_THROWS_WITH(
      parse_config("monitors: [perf-stat]\nperf_stat: {events: [\"sched:sched_switch\\n\"]}\n"
                   "workloads: [hackbench]\n",
                   "t.yaml"),
      "t.yaml:2: perf_stat.events: 'sched:sched_switch\\x0a' is not a perf event "
      "name (see perf list)");
  CHECK_THROWS_WITH(parse_config("monitors: [perf-profile]\nperf_profile: {frequency: \"9\\n9\"}\n"
                                 "workloads: [hackbench]\n",
                                 "t.yaml"),
                    Catch::StartsWith("t.yaml:2: perf_profile.frequency: ") &&
                        Catch::Contains("9\\x0a9") && !Catch::Contains("\n"));
  CHECK_THROWS_WITH(parse_config("monitors: [perf-profile]\nperf_profile: {frequency: 0}\n"
                                 "workloads: [hackbench]\n",
                                 "t.yaml"),
                    Catch::StartsWith("t.yaml:2: perf_profile.frequency: "));
  CHECK_THROWS_WITH(parse_config("monitors: [perf-stats]\nworkloads: [hackbench]\n", "t.yaml"),
                    Catch::Contains("unknown monitor 'perf-stats' (did you mean 'perf-stat'?)"));
}
