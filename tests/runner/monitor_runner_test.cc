// The runner side of monitors against a fake SUT whose files are real
// fixtures: probing, the schedstat sysctl through the journal (and its order
// with a variant's journal), snapshots and deltas on the iteration row, a
// missing monitor reported once, a bad delta keeping the raw texts.
#include "runner/monitor_runner.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.h"

using namespace schedlab;
using schedlab::test::fixture;
using schedlab::test::read_text;

namespace {

// A SUT that is a map of files; nothing runs.
class FileHost final : public Host {
 public:
  std::map<std::string, std::string> files;
  std::string name() const override { return "fake"; }
  ExecResult run(const Command&) override { return {}; }
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

const std::string kV15 = "schedstat/v15.aws-repro-collection-al2023-6.1.150-epyc9r14-16cpu.";
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
  const auto run = store.create_run(
      {.name = "m", .config_path = "x", .config_text = "", .config_sha256 = "", .manifest_json = "{}"});
  FileHost sut;
  sut.files["/proc/schedstat"] = read_text(fixture(kV15 + "before.txt"));
  sut.files["/proc/stat"] = read_text(fixture("proc/stat.before-hackbench.txt"));
  sut.files[kSysctl] = "0\n";
  // No /proc/pressure/*: that monitor is unavailable.

  Config config;
  config.workloads.resize(2);
  config.workloads[0].monitors = {"schedstat", "stat", "pressure"};
  config.workloads[1].monitors = {"pressure"};
  std::vector<std::string> notes;
  MonitorRunner m(store, sut, run, [&](const std::string& s) { notes.push_back(s); });
  m.start(config);

  // schedstat's sysctl is on, journaled with the value found.
  CHECK(sut.files[kSysctl] == "1\n");
  auto pending = store.unrestored("fake");
  REQUIRE(pending.size() == 1);
  CHECK(pending[0].name == "kernel.sched_schedstats");
  CHECK(pending[0].original == "0");
  // Reported once, recorded in the manifest.
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "schedlab: monitor pressure is unavailable on fake: no /proc/pressure/cpu, "
        "/proc/pressure/memory, /proc/pressure/io; the run goes on without it");
  auto manifest = nlohmann::json::parse(store.find_run(run)->manifest_json);
  CHECK(manifest["monitors_unavailable"]["pressure"] ==
        "no /proc/pressure/cpu, /proc/pressure/memory, /proc/pressure/io");
  CHECK(m.unavailable().count("pressure") == 1);

  SECTION("snapshots and deltas go on the row") {
    const auto before = m.before(config.workloads[0].monitors);
    REQUIRE(before.size() == 2);
    sut.files["/proc/schedstat"] = read_text(fixture(kV15 + "after.txt"));
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
    sut.files["/proc/schedstat"] = read_text(fixture(kV15 + "after.txt"));
    for (int i = 0; i < 2; ++i) {
      const auto before = m.before({"schedstat"});
      sut.files["/proc/schedstat"] = read_text(fixture(kV15 + "before.txt"));
      IterationRow row;
      m.after(before, row);
      CHECK(row.monitor_snapshots.size() == 2);
      CHECK(row.monitor_deltas.empty());
      sut.files["/proc/schedstat"] = read_text(fixture(kV15 + "after.txt"));
    }
    REQUIRE(notes.size() == 2);
    CHECK(notes[1].starts_with("schedlab: monitor schedstat: "));
    manifest = nlohmann::json::parse(store.find_run(run)->manifest_json);
    CHECK(manifest["monitor_errors"]["schedstat"].is_string());
  }

  SECTION("a variant setting the same sysctl nests inside the monitor's journal") {
    {
      KnobJournal variant(store, sut, run);
      variant.apply_sysctl({"kernel.sched_schedstats", "0", 1});
      CHECK(sut.files[kSysctl] == "0\n");
      variant.restore_all();
    }
    CHECK(sut.files[kSysctl] == "1\n");  // the monitor's value again
  }

  m.stop();
  CHECK(sut.files[kSysctl] == "0\n");  // as found before the run
  CHECK(store.unrestored("fake").empty());
}

TEST_CASE("a kernel without schedstats: no file, no sysctl, reported once", "[monitors][runner]") {
  test::TempDir dir;
  Store store(dir.file("m.db"));
  const auto run = store.create_run({.name = "m", .config_path = "x", .config_text = "", .config_sha256 = ""});
  FileHost sut;
  Config config;
  config.workloads.resize(1);
  config.workloads[0].monitors = {"schedstat"};
  std::vector<std::string> notes;
  MonitorRunner m(store, sut, run, [&](const std::string& s) { notes.push_back(s); });
  m.start(config);
  CHECK(notes == std::vector<std::string>{"schedlab: monitor schedstat is unavailable on fake: no "
                                          "/proc/schedstat; the run goes on without it"});
  CHECK(m.before({"schedstat"}).empty());
  CHECK(store.unrestored("fake").empty());
  m.stop();
}
