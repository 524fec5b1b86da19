// The runner side of monitors against a fake SUT whose files are real
// fixtures: probing, the schedstat sysctl through the journal (and its order
// with a variant's journal), snapshots and deltas on the iteration row, a
// missing monitor reported once, a bad delta keeping the raw texts.
#include "runner/monitors/monitor_runner.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/runs_table.h"
#include "runner/hosts/local_host.h"
#include "runner/run/plan.h"
#include "tests/support/plain_iteration.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::read_text;

using schedlab::test::kSchedstatV15;

namespace {

// A SUT that is a map of files; nothing runs.
class FileHost final : public Host {
 public:
  std::map<std::string, std::string> files;
  std::string name() const override { return "fake"; }
  // The cpuidle and cpufreq monitors' script: `script_out` (empty: no such files).
  std::string script_out;
  ExecResult run(const Command& c) override {
    ExecResult r;
    if (!c.argv.empty() && c.argv[0] == "sh") {
      r.outcome = ExecResult::Outcome::kExited;
      r.exit_code = 0;
      r.out = script_out;
    }
    return r;
  }
  std::optional<std::string> find_program(const std::string&) override { return std::nullopt; }
  std::optional<std::string> read_file(const std::string& path) override {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
  void write_file(const std::string& path, const std::string& content) override {
    if (!files.count(path)) throw HostError(path + ": No such file or directory");
    files[path] = content;
  }
  std::vector<std::string> list_dir(const std::string&) override { return {}; }
  BackgroundId start_background(const Command&) override { return 0; }
  std::optional<ExecResult> poll_background(BackgroundId) override { return std::nullopt; }
  ExecResult stop_background(BackgroundId) override { return {}; }
  bool port_accepts(int) override { return false; }
  int free_port() override { return 1; }
};

const std::string kSysctl = "/proc/sys/kernel/sched_schedstats";

double delta(const IterationRow& row, const std::string& monitor, const std::string& counter) {
  for (const auto& d : row.monitor_deltas)
    if (d.monitor == monitor && d.counter == counter) return d.value;
  FAIL("no delta " << monitor << " " << counter);
  return 0;
}

}  // namespace

TEST_CASE("monitors around an iteration on a fake SUT", "[monitors][runner]") {
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = test::plain_run(store, "m");
  FileHost sut;
  sut.files["/proc/schedstat"] = read_text(fixture(kSchedstatV15 + "before.txt"));
  sut.files["/proc/stat"] = read_text(fixture("proc/stat.before-hackbench.txt"));
  sut.files[kSysctl] = "0\n";
  // No /proc/pressure/*: that monitor is unavailable.

  Config config;
  config.workloads.resize(2);
  config.workloads[0].monitors = {"schedstat", "stat", "pressure"};
  config.workloads[1].monitors = {"pressure"};
  std::vector<std::string> notes;
  MonitorRunner m(store.runs_table(), store.journal(), sut, run,
                  [&](const std::string& s) { notes.push_back(s); });
  m.start(config);

  // schedstat's sysctl is on, journaled with the value found.
  CHECK(sut.files[kSysctl] == "1\n");
  auto pending = store.journal().unrestored("fake");
  REQUIRE(pending.size() == 1);
  CHECK(pending[0].name == "kernel.sched_schedstats");
  CHECK(pending[0].original == "0");
  // Reported once, recorded in the manifest.
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "schedlab: monitor pressure is unavailable on fake: no /proc/pressure/cpu, "
        "/proc/pressure/memory, /proc/pressure/io; the run goes on without it");
  auto manifest = nlohmann::json::parse(store.runs_table().find_run(run)->manifest_json);
  CHECK(manifest["monitors_unavailable"]["pressure"] ==
        "no /proc/pressure/cpu, /proc/pressure/memory, /proc/pressure/io");
  CHECK(m.unavailable().count("pressure") == 1);

  SECTION("snapshots and deltas go on the row") {
    const auto before = m.before(config.workloads[0].monitors);
    REQUIRE(before.size() == 2);
    sut.files["/proc/schedstat"] = read_text(fixture(kSchedstatV15 + "after.txt"));
    sut.files["/proc/stat"] = read_text(fixture("proc/stat.after-hackbench.txt"));
    IterationRow row;
    m.after(before, row);
    REQUIRE(row.monitor_snapshots.size() == 4);
    CHECK(row.monitor_snapshots[0].monitor == "schedstat");
    CHECK(row.monitor_snapshots[0].phase == "before");
    CHECK(row.monitor_snapshots[0].path == "/proc/schedstat");
    CHECK(row.monitor_snapshots[1].phase == "after");
    CHECK(row.monitor_snapshots[1].text == sut.files["/proc/schedstat"]);
    CHECK(delta(row, "schedstat", "MC.lb_count_newidle") +
              delta(row, "schedstat", "PKG.lb_count_newidle") ==
          255'783);
    CHECK(delta(row, "stat", "ctxt") == 176'535);
    CHECK(m.before(config.workloads[1].monitors).empty());
    CHECK(notes.size() == 1);  // still once
  }

  SECTION("a counter that went backwards keeps the raw texts, reported once") {
    sut.files["/proc/schedstat"] = read_text(fixture(kSchedstatV15 + "after.txt"));
    for (int i = 0; i < 2; ++i) {
      const auto before = m.before({"schedstat"});
      sut.files["/proc/schedstat"] = read_text(fixture(kSchedstatV15 + "before.txt"));
      IterationRow row;
      m.after(before, row);
      CHECK(row.monitor_snapshots.size() == 2);
      CHECK(row.monitor_deltas.empty());
      sut.files["/proc/schedstat"] = read_text(fixture(kSchedstatV15 + "after.txt"));
    }
    REQUIRE(notes.size() == 2);
    CHECK(notes[1].starts_with("schedlab: monitor schedstat: "));
    manifest = nlohmann::json::parse(store.runs_table().find_run(run)->manifest_json);
    CHECK(manifest["monitor_errors"]["schedstat"].is_string());
  }

  SECTION("a variant setting the same sysctl nests inside the monitor's journal") {
    {
      KnobJournal variant(store.journal(), sut, run);
      variant.apply_sysctl({"kernel.sched_schedstats", "0", 1});
      CHECK(sut.files[kSysctl] == "0\n");
      variant.restore_all();
    }
    CHECK(sut.files[kSysctl] == "1\n");  // the monitor's value again
  }

  m.stop();
  CHECK(sut.files[kSysctl] == "0\n");  // as found before the run
  CHECK(store.journal().unrestored("fake").empty());
  // Not this machine: its CPU is not known here.
  manifest = nlohmann::json::parse(store.runs_table().find_run(run)->manifest_json);
  CHECK_FALSE(manifest.contains("monitor_cpu_s"));
}

TEST_CASE("monitor CPU on this machine: per monitor in the manifest, added up over resumes",
          "[monitors][runner]") {
  LocalHost local;
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = test::plain_run(store, "m");
  Config config;
  config.workloads.resize(1);
  config.workloads[0].monitors = {"stat", "interrupts"};
  const auto cpu = [&] {
    return nlohmann::json::parse(store.runs_table().find_run(run)->manifest_json)["monitor_cpu_s"];
  };
  const auto monitored_run = [&] {
    MonitorRunner m(store.runs_table(), store.journal(), local, run, [](const std::string&) {});
    m.start(config);
    for (int i = 0; i < 3; ++i) {
      const auto before = m.before(config.workloads[0].monitors);
      IterationRow row;
      m.after(before, row);
      REQUIRE(row.monitor_snapshots.size() == 4);
    }
    m.stop();
    m.stop();  // recorded once
  };
  monitored_run();
  const auto first = cpu();
  REQUIRE(first.is_object());
  CHECK(first.size() == 2);
  CHECK(first["stat"].get<double>() > 0);  // reading and parsing /proc/stat 7 times
  CHECK(first["interrupts"].get<double>() > 0);
  monitored_run();  // as a resumed run: added
  CHECK(cpu()["stat"].get<double>() > first["stat"].get<double>());
}

TEST_CASE("a kernel without schedstats: no file, no sysctl, reported once", "[monitors][runner]") {
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = store.runs_table().create_run(
      {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
  FileHost sut;
  Config config;
  config.workloads.resize(1);
  config.workloads[0].monitors = {"schedstat"};
  std::vector<std::string> notes;
  MonitorRunner m(store.runs_table(), store.journal(), sut, run,
                  [&](const std::string& s) { notes.push_back(s); });
  m.start(config);
  CHECK(notes == std::vector<std::string>{"schedlab: monitor schedstat is unavailable on fake: no "
                                          "/proc/schedstat; the run goes on without it"});
  CHECK(m.before({"schedstat"}).empty());
  CHECK(store.journal().unrestored("fake").empty());
  m.stop();
}

TEST_CASE("tasks: a kernel without /proc/PID/sched, reported once", "[monitors][runner][tasks]") {
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = store.runs_table().create_run(
      {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
  FileHost sut;  // no files at all
  const Config config = parse_config("monitors: [tasks]\nworkloads: [hackbench]\n", "t.yaml");
  std::vector<std::string> notes;
  MonitorRunner m(store.runs_table(), store.journal(), sut, run,
                  [&](const std::string& s) { notes.push_back(s); });
  m.start(config);
  CHECK(notes == std::vector<std::string>{
                     "schedlab: monitor tasks is unavailable on fake: no /proc/PID/sched (a kernel "
                     "without CONFIG_SCHED_DEBUG); the run goes on without it"});
  const Plan plan = expand_plan(config);
  const auto before = m.before(config.workloads[0], plan.points.at(0).point, {});
  IterationRow row;
  m.after(before, row);
  CHECK(row.monitor_deltas.empty());
  CHECK(notes.size() == 1);
  m.stop();
}

TEST_CASE("tasks: the workloads' process names", "[monitors][runner][tasks]") {
  const Config c = parse_config(R"(
workloads:
  - hackbench: {}
  - tbench: {clients: [1]}
  - pgbench: {}
  - command:
      name: c
      argv: [/usr/local/bin/a-very-long-program-name, "{n}"]
      params: {n: 1}
      metrics:
        x: {regex: '(?<value>[0-9]+)', direction: higher}
)",
                                "n.yaml");
  const Plan plan = expand_plan(c);
  auto names = [&](std::size_t w) {
    for (const auto& p : plan.points)
      if (p.workload == &c.workloads[w]) return p.workload->workload->task_names(p.point, {});
    FAIL("no point");
    return std::vector<std::string>{};
  };
  CHECK(names(0) == std::vector<std::string>{"hackbench"});
  CHECK(names(1) == std::vector<std::string>{"tbench", "tbench_srv"});
  CHECK(names(2) == std::vector<std::string>{"pgbench", "postgres"});
  CHECK(names(3) == std::vector<std::string>{"a-very-long-program-name"});
  // The kernel keeps 15 bytes of a name.
  CHECK(comm_names(names(3)) == std::vector<std::string>{"a-very-long-pro"});
}

// Real: this machine's /proc, a real process started while the sampler runs.
TEST_CASE("tasks: a process started during the iteration is sampled here",
          "[monitors][runner][tasks]") {
  LocalHost local;
  if (!local.read_file("/proc/self/sched")) SCHEDLAB_SKIP("this kernel has no /proc/PID/sched");
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = store.runs_table().create_run(
      {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
  // A program name of its own: the sampler sleeps between polls too.
  const std::string nap = dir.file("schedlab-nap");
  std::filesystem::copy_file("/bin/sleep", nap);
  std::filesystem::permissions(nap, std::filesystem::perms::owner_all);
  const Config config = parse_config(R"(
monitors: [tasks]
task_monitor: {interval: 20ms, comm: [schedlab-nap]}
workloads:
  - command:
      name: s
      argv: [sleep, "0.3"]
      metrics:
        x: {regex: '(?<value>[0-9]+)', direction: higher}
)",
                                     "t.yaml");
  std::vector<std::string> notes;
  MonitorRunner m(store.runs_table(), store.journal(), local, run,
                  [&](const std::string& s) { notes.push_back(s); });
  m.start(config);
  REQUIRE(notes.empty());
  const auto before = m.before(config.workloads[0], {}, {});
  REQUIRE(local.run({.argv = {nap, "0.3"}}).ok());
  IterationRow row;
  m.after(before, row);
  INFO((row.monitor_snapshots.empty() ? "" : row.monitor_snapshots[0].text));
  REQUIRE(row.monitor_snapshots.size() == 1);
  CHECK(row.monitor_snapshots[0].monitor == "tasks");
  CHECK(row.monitor_snapshots[0].text.starts_with("# schedlab-tasks 1\nP "));
  std::map<std::string, double> d;
  for (const auto& x : row.monitor_deltas) d[x.counter] = x.value;
  CHECK(d.at("polls") >= 3);  // first, some in the background, last
  CHECK(d.at("tasks") == 1);
  CHECK(d.at("comm.schedlab-nap.tasks") == 1);
  CHECK(d.at("comm.schedlab-nap.samples") >= 1);
  CHECK(d.at("migrations") >= 0);
  double hits = 0;
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  for (const auto& [counter, v] : d)
    if (counter.starts_with("cpu_hits.")) {
      CHECK(std::stol(counter.substr(9)) < cpus);
      hits += v;
    }
  CHECK(hits == d.at("samples"));
  CHECK(notes.empty());
  m.stop();
}

namespace {

// A run with one workload using MONITORS on a FileHost; the notes kept.
struct OneMonitorRun {
  explicit OneMonitorRun(std::vector<std::string> monitors) {
    config.workloads.resize(1);
    config.workloads[0].monitors = std::move(monitors);
  }
  test::TempDir dir;
  Store store{dir.file("m.db")};
  std::int64_t run = test::plain_run(store, "m");
  FileHost sut;
  Config config;
  std::vector<std::string> notes;
  MonitorRunner m{store.runs_table(), store.journal(), sut, run,
                  [this](const std::string& s) { notes.push_back(s); }};
  // Starts, snapshots, sets the SUT's texts to `after` and reads again.
  IterationRow iteration(const std::function<void()>& after) {
    const auto before = m.before(config.workloads[0].monitors);
    REQUIRE(before.size() == 1);
    after();
    IterationRow row;
    m.after(before, row);
    return row;
  }
};

}  // namespace

// /proc/sched_debug is the text debugfs's sched/debug holds since 5.13 (the
// file moved, its printer did not): a kernel with only the older path is
// read there, and the snapshots name it.
TEST_CASE("sched-debug: /proc/sched_debug where debugfs has no sched/debug", "[monitors][runner]") {
  OneMonitorRun t({"sched-debug"});
  SECTION("the older path") {
    t.sut.files["/proc/sched_debug"] = test::own_fixture("sched_debug/6.18-before.txt");
    t.m.start(t.config);
    CHECK(t.notes.empty());
    const auto row = t.iteration([&] {
      t.sut.files["/proc/sched_debug"] = test::own_fixture("sched_debug/6.18-after.txt");
    });
    REQUIRE(row.monitor_snapshots.size() == 2);
    CHECK(row.monitor_snapshots[0].path == "/proc/sched_debug");
    CHECK(delta(row, "sched-debug", "all.nr_switches") > 0);
  }
  SECTION("neither: unavailable, both named, once") {
    t.m.start(t.config);
    CHECK(t.notes == std::vector<std::string>{
                         "schedlab: monitor sched-debug is unavailable on fake: no "
                         "/sys/kernel/debug/sched/debug, /proc/sched_debug; the run goes on "
                         "without it"});
    CHECK(t.m.before({"sched-debug"}).empty());
  }
  t.m.stop();
}

TEST_CASE("cpuidle and cpufreq: read by one script, absent ones reported once",
          "[monitors][runner]") {
  SECTION("absent (this VM has no cpufreq, TCG guests neither)") {
    OneMonitorRun t({"cpufreq"});
    t.m.start(t.config);
    CHECK(t.notes == std::vector<std::string>{
                         "schedlab: monitor cpufreq is unavailable on fake: no "
                         "/sys/devices/system/cpu/cpu*/cpufreq/stats/time_in_state; the run goes "
                         "on without it"});
    CHECK(t.m.before({"cpufreq"}).empty());
    t.m.stop();
  }
  SECTION("present") {
    OneMonitorRun t({"cpuidle"});
    t.sut.script_out = test::own_fixture("cpuidle/6.18-haltpoll-before.txt");
    t.m.start(t.config);
    CHECK(t.notes.empty());
    const auto row = t.iteration(
        [&] { t.sut.script_out = test::own_fixture("cpuidle/6.18-haltpoll-after.txt"); });
    REQUIRE(row.monitor_snapshots.size() == 2);
    CHECK(row.monitor_snapshots[1].text == t.sut.script_out);
    CHECK(delta(row, "cpuidle", "all.haltpoll_idle.usage") == 571);
    t.m.stop();
  }
}
