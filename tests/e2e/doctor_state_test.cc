// End to end with the real binary: `schedlab doctor` on this machine, the
// SUT state around a real run, and compare's differences header.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "base/text.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/config/config.h"
#include "runner/hosts/local_host.h"
#include "runner/knobs/knobs.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

using test::schedlab_cmd;

const std::string kKnob = "kernel.sched_autogroup_enabled";

bool can_write_knob() { return ::access(sysctl_path(kKnob).c_str(), W_OK) == 0; }

// Puts the sysctl back whatever a test did to it.
struct KnobGuard {
  LocalHost host;
  std::string original = read_sysctl(host, kKnob);
  ~KnobGuard() {
    try {
      host.write_file(sysctl_path(kKnob), original + "\n");
    } catch (...) {
    }
  }
};

}  // namespace

TEST_CASE("doctor on this machine: tools found or missing with their Debian package") {
  const auto r = schedlab_cmd({"doctor", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.ok());
  const auto j = nlohmann::json::parse(r.out);
  LocalHost host;
  CHECK(j["kernel_release"] == host.read_file("/proc/sys/kernel/osrelease").value().substr(0, j["kernel_release"].get<std::string>().size()));
  // Every program a workload declares, with its package (or the
  // workload's), and the tools no workload declares.
  std::map<std::string, std::string> packages = {
      {"stress-ng", "stress-ng"},
      // The lab's boards (board.h): their qemu, dtc for the exynos4210's
      // DTB, its cross compiler.
      {"qemu-system-x86_64", "qemu-system-x86"}, {"qemu-system-arm", "qemu-system-arm"},
      {"dtc", "device-tree-compiler"}, {"arm-linux-gnueabihf-gcc", "gcc-arm-linux-gnueabihf"},
      // What lab kernel builds need (kernel_build.h); headers by path.
      {"make", "make"}, {"gcc", "gcc"}, {"bc", "bc"}, {"bison", "bison"}, {"flex", "flex"},
      {"git", "git"}, {"/usr/include/libelf.h", "libelf-dev"},
      {"/usr/include/openssl/opensslv.h", "libssl-dev"}};
  for (const Workload* w : all_workloads())
    for (const ProgramSpec& p : w->programs())
      packages.emplace(p.name, p.package.empty() ? w->package() : p.package);
  // Spot checks of the rows the loop above takes as declared.
  CHECK(packages.at("hackbench") == "rt-tests");
  CHECK(packages.at("initdb") == "postgresql");
  CHECK(packages.at("netserver") == "netperf");
  CHECK(packages.at("schedlab-seccomp-notify") ==
        "schedlab itself (build/runner/, or cmake --install)");
  REQUIRE(j["tools"].size() == packages.size());
  const auto text = schedlab_cmd({"doctor"});
  REQUIRE(text.ok());
  for (const auto& t : j["tools"]) {
    const std::string tool = t["tool"];
    INFO(tool);
    CHECK(t["package"] == packages.at(tool));
    if (tool == "initdb") continue;  // also looked for under /usr/lib/postgresql
    // schedlab's own program, found next to the binary (not on this test's PATH).
    if (tool == "schedlab-seccomp-notify") {
      CHECK(t["path"] == SCHEDLAB_SECCOMP_NOTIFY);
      continue;
    }
    const auto found = tool.starts_with("/")
                           ? (std::filesystem::exists(tool) ? std::optional<std::string>(tool) : std::nullopt)
                           : host.find_program(tool);
    CHECK(t["path"].is_null() == !found.has_value());
    const std::string p = packages.at(tool);
    const std::string want =
        found ? *found
              : p.starts_with("not packaged") ? "missing (" + p + ")" : "missing (Debian package " + p + ")";
    // One line per tool: the name, padded to the longest name, then where it
    // is; a status longer than 100 columns take goes on under itself.
    const auto at = text.out.find("\n  " + tool + " ");
    REQUIRE(at != std::string::npos);
    auto line_end = text.out.find('\n', at + 1);
    std::string line = text.out.substr(at + 1, line_end - at - 1);
    const std::size_t column = line.find_first_not_of(' ', 2 + tool.size());
    while (line_end + 1 + column < text.out.size() &&
           text.out.compare(line_end + 1, column, std::string(column, ' ')) == 0) {
      const auto next = text.out.find('\n', line_end + 1);
      line += " " + std::string(trim(text.out.substr(line_end + 1, next - line_end - 1)));
      line_end = next;
    }
    CHECK(std::string(trim(line.substr(2 + tool.size()))) == want);
  }
  // This machine: no /proc/schedstat, and its debugfs is not mounted.
  if (!host.read_file("/proc/schedstat")) {
    CHECK(j["schedstat"] == "absent");
    CHECK(text.out.find("schedstat          absent\n") != std::string::npos);
  }
  if (!host.read_file("/proc/sys/kernel/sched_schedstats")) CHECK(j["sched_schedstats"] == "absent");
  bool has_knob = false;
  for (const auto& s : j["sysctls"])
    if (s["name"] == kKnob) {
      has_knob = true;
      CHECK(s["value"] == read_sysctl(host, kKnob));
      CHECK(s["writable"] == can_write_knob());
    }
  CHECK(has_knob);
  if (j["sched_features"].is_null()) {
    CHECK(j["features_writable"]["writable"].is_null());
    CHECK(text.out.find("features writable  unknown (not tested: ") != std::string::npos);
  }
}

// An older schedlab-seccomp-notify installed earlier on PATH (cmake --install
// into /usr/local/bin) must not stand in for the one built with this binary.
TEST_CASE("doctor: schedlab's own program comes from next to the binary, before PATH") {
  test::TempDir dir;
  const auto decoy = dir.path() / "schedlab-seccomp-notify";
  LocalHost().write_file(decoy.string(), "#!/bin/sh\necho decoy\n");
  std::filesystem::permissions(decoy, std::filesystem::perms::owner_all);
  const char* path = std::getenv("PATH");
  const auto r = schedlab_cmd({"doctor", "--format", "json"},
                              {{"PATH", dir.path().string() + ":" + (path ? path : "/usr/bin:/bin")}});
  INFO(r.err);
  REQUIRE(r.ok());
  const auto j = nlohmann::json::parse(r.out);
  bool seen = false;
  for (const auto& t : j["tools"])
    if (t["tool"] == "schedlab-seccomp-notify") {
      seen = true;
      CHECK(t["path"] == SCHEDLAB_SECCOMP_NOTIFY);
    }
  CHECK(seen);
}

TEST_CASE("doctor: a SUT that cannot be reached exits 1") {
  const auto r = schedlab_cmd({"doctor", "--sut", "ssh://nobody@127.0.0.1:1"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.starts_with("schedlab doctor: cannot reach ssh://nobody@127.0.0.1:1: "));
  CHECK(r.out.empty());
}

TEST_CASE("a run stores the SUT state before and after, and compare starts with what differs") {
  if (!can_write_knob()) {
    SCHEDLAB_SKIP(sysctl_path(kKnob) << " is not writable here (needs root)");
  }
  KnobGuard guard;
  const std::string flipped = guard.original == "0" ? "1" : "0";
  test::TempDir dir;
  const std::string db = dir.file("state.db");
  const std::string cfg = dir.file("state.yaml");
  test::write_text(cfg, R"(
iterations: 2
workloads:
  - hackbench:
      groups: [1]
      loops: 20
      timeout: 30s
variants:
  default: {}
  autogroup-flipped:
    sysctl:
      kernel.sched_autogroup_enabled: )" + flipped + "\n");
  const auto run = schedlab_cmd({"run", cfg, "--db", db, "--name", "knobbed"});
  INFO(run.err);
  REQUIRE(run.ok());
  CHECK(run.err.find("not left as found") == std::string::npos);

  Store store(db);
  const auto r = store.runs_table().find_run_by_name("knobbed");
  REQUIRE(r);
  const auto m = nlohmann::json::parse(r->manifest_json);
  REQUIRE(m["state_before"].is_object());
  REQUIRE(m["state_after"].is_object());
  CHECK(m["state_before"]["sysctls"][kKnob] == guard.original);
  CHECK(m["state_after"]["sysctls"] == m["state_before"]["sysctls"]);  // restored

  const auto text = schedlab_cmd({"compare", "knobbed", "--db", db});
  INFO(text.err);
  REQUIRE(text.ok());
  CHECK(text.out.starts_with(
      "What differs between the columns:\n"
      "                                              default  autogroup-flipped\n"
      "  knob sysctl kernel.sched_autogroup_enabled  -        " + flipped + "\n"
      "\n"
      "run 1 knobbed:"));
  const auto json = schedlab_cmd({"compare", "knobbed", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["differences"] == nlohmann::json::parse(R"([{"kind": "knob", "name": "sysctl kernel.sched_autogroup_enabled", "values": [null, ")" + flipped + R"("]}])"));

  // A second run whose workload itself changes the sysctl: the SUT is not
  // left as found, which run end reports; compare shows the two runs'
  // starting states differ.
  const std::string cfg2 = dir.file("meddler.yaml");
  test::write_text(cfg2, R"(
iterations: 1
workloads:
  - command:
      name: meddler
      package: dash
      argv: [sh, -c, "echo )" + flipped + R"( > /proc/sys/kernel/sched_autogroup_enabled; echo 'value: 1'"]
      metrics:
        value:
          regex: '^value: (?<value>[0-9]+)$'
          direction: higher
variants:
  default: {}
)");
  const auto meddled = schedlab_cmd({"run", cfg2, "--db", db, "--name", "meddler"});
  INFO(meddled.err);
  REQUIRE(meddled.ok());
  CHECK(test::one_line(meddled.err)
            .find(test::one_line("schedlab: warning: the SUT was not left as found: sysctl " +
                                 kKnob + ": " + guard.original + " -> " + flipped + "\n")) !=
        std::string::npos);
  // The next run starts from the changed value.
  const auto again = schedlab_cmd({"run", cfg2, "--db", db, "--name", "meddler2"});
  REQUIRE(again.ok());
  const auto both = schedlab_cmd({"compare", "meddler", "meddler2", "--db", db});
  REQUIRE(both.ok());
  CHECK(both.out.starts_with("What differs between the columns:\n"
                             "                                         meddler  meddler2\n"
                             "  sysctl kernel.sched_autogroup_enabled  " + guard.original + "        " +
                             flipped + "\n\n"));
}
