// The nightly file parser: a full file, and bad inputs with their exact
// file:line:key messages.
#include "runner/nightly/nightly_config.h"

#include <catch2/catch.hpp>

#include "runner/config/config.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;

namespace {

// A folder with the config file the nightly files name.
struct Dir {
  test::TempDir dir;
  Dir() { test::write_text(dir.file("c.yaml"), "iterations: 1\n"); }
  NightlyConfig parse(const std::string& text) const {
    return parse_nightly(text, dir.file("n.yaml"));
  }
  std::string error(const std::string& text) const {
    try {
      parse(text);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "no error";
  }
  std::string at(int line, const std::string& rest) const {
    return dir.file("n.yaml") + ":" + std::to_string(line) + ": " + rest;
  }
};

}  // namespace

TEST_CASE("a nightly file with every kind of target parses") {
  Dir d;
  const auto n = d.parse(R"(baseline: debian:6.1
targets:
  - debian:6.1
  - name: stable
    kernel: debian:6.12
  - name: v6.13-rc1
    sut: ssh://root@sut:2222
    hook: [./install-kernel.sh, "{kernel}", "--sut={sut}"]
    hook_timeout: 20m
    ssh_timeout: 5m
    reboots: true
    uname: 6.13.0-rc1
    sha: 1a2b3c4d
    sha_command: [cat, /boot/sha]
  - name: build-b
    hook: [make, -C, src, "OUT={name}"]
    hook_cwd: src
configs: [c.yaml]
rule: {test: mwu, alpha: 0.01, min_effect_pct: 3, per_metric: {hackbench/time: {min_effect_pct: 5}, ops: {alpha: 0.1}}}
)");
  CHECK(n.name == "n");
  REQUIRE(n.targets.size() == 4);
  CHECK(n.baseline == 0);
  CHECK(n.targets[0].lab_kernel == "debian:6.1");
  CHECK(n.targets[1].lab_kernel == "debian:6.12");
  const auto& rc = n.targets[2];
  CHECK(rc.sut == "ssh://root@sut:2222");
  REQUIRE(rc.hook);
  CHECK(rc.hook->timeout == 20min);
  CHECK(rc.hook->cwd == d.dir.path().string());
  CHECK(rc.ssh_timeout == 5min);
  CHECK(rc.reboots);
  CHECK(rc.expect.release == "6.13.0-rc1");
  CHECK(rc.expect.sha_command == std::vector<std::string>{"cat", "/boot/sha"});
  CHECK(hook_values(rc) == HookValues{{"name", "v6.13-rc1"},
                                      {"kernel", "6.13.0-rc1"},
                                      {"uname", "6.13.0-rc1"},
                                      {"sha", "1a2b3c4d"},
                                      {"sut", "ssh://root@sut:2222"}});
  CHECK(n.targets[3].hook->cwd == d.dir.file("src"));
  CHECK(hook_values(n.targets[3]).at("kernel") == "build-b");
  REQUIRE(n.configs.size() == 1);
  CHECK(n.configs[0].path == d.dir.file("c.yaml"));
  CHECK(n.rule.test == "mwu");
  CHECK(n.rule.alpha == 0.01);
  CHECK(n.rule.min_effect_for("hackbench", "time") == 5);
  CHECK(n.rule.min_effect_for("tbench", "time") == 3);
  CHECK(n.rule.alpha_for("pgbench", "ops") == 0.1);
  CHECK(n.per_metric_lines.at("hackbench/time") == 19);
}

TEST_CASE("bad nightly files are rejected with file, line and key") {
  Dir d;
  const std::string head = "baseline: a\ntargets:\n";
  const std::string tail = "configs: [c.yaml]\n";
  CHECK(d.error(head + "  - name: a\n    hok: [x]\n" + tail) ==
        d.at(4, "targets[0]: unknown key 'hok' (did you mean 'hook'?)"));
  CHECK(d.error(head + "  - debian:6.2\n" + tail) ==
        d.at(3,
             "targets[0]: 'debian:6.2' is not a lab kernel (did you mean 'debian:6.1'?) (known: "
             "debian:6.1, "
             "debian:6.12, linux-image-..., or a vmlinuz path); another kind of target is a "
             "mapping with name: "
             "and sut: or hook:"));
  CHECK(d.error(head + "  - name: a\n    hook: ./install.sh {kernel}\n" + tail) ==
        d.at(4,
             "targets[0] (a).hook: expected a list: the program and its arguments, one per element "
             "(never a "
             "shell string)"));
  CHECK(d.error(head + "  - name: a\n    hook: [x, '{kernal}']\n" + tail) ==
        d.at(4,
             "targets[0] (a).hook: unknown placeholder {kernal} (did you mean 'kernel'?); this "
             "target has: "
             "{kernel}, {name}"));
  CHECK(d.error(head + "  - name: a\n    hook: [x, '{kernel']\n" + tail) ==
        d.at(4, "targets[0] (a).hook: argv '{kernel': '{' without '}'"));
  CHECK(d.error(head + "  - name: a\n    sut: root@sut\n" + tail) ==
        d.at(4, "targets[0] (a).sut: expected ssh://[user@]host[:port], got 'root@sut'"));
  CHECK(d.error(head + "  - name: a\n    hook: [x]\n    hook_timeout: soon\n" + tail) ==
        d.at(5, "targets[0] (a).hook_timeout: expected a duration from 1ms to 168h, such as 30m or 90s, "
                 "got 'soon'"));
  CHECK(d.error(head + "  - name: a\n    reboots: true\n" + tail) ==
        d.at(4, "targets[0] (a).reboots: only for an ssh:// sut"));
  CHECK(d.error(head + "  - name: a\n    sha: xyz\n" + tail) ==
        d.at(4, "targets[0] (a).sha: expected a git sha of 7 to 40 hex digits, got 'xyz'"));
  CHECK(d.error(head + "  - name: a\n  - name: a\n" + tail) ==
        d.at(4, "targets[1]: target 'a' is listed twice"));
  CHECK(d.error("baseline: b\ntargets: [{name: a}]\n" + tail) ==
        d.at(1, "baseline: 'b' is not one of the targets (did you mean 'a'?); they are: a"));
  CHECK(d.error("targets: [{name: a}]\n" + tail) ==
        d.at(1, "baseline: missing 'baseline': the target every other one is compared with"));
  CHECK(d.error(head + "  - name: a\nconfigs: [c.yaml, nope.yaml]\n") ==
        d.at(4, "configs[1]: no such config file: " + d.dir.file("nope.yaml")));
  CHECK(d.error(head + "  - name: a\n" + tail + "rule: {alpha: 0.7}\n") ==
        d.at(5, "rule.alpha: expected a number in (0, 0.5], got '0.7'"));
  CHECK(d.error(head + "  - name: a\n" + tail + "rule: {test: ttest}\n") ==
        d.at(5, "rule.test: expected welch or mwu, got 'ttest'"));
  CHECK(d.error(head + "  - name: a\n" + tail + "rule: {test: welsh}\n") ==
        d.at(5, "rule.test: expected welch or mwu, got 'welsh' (did you mean 'welch'?)"));
  CHECK(d.error(head + "  - name: a\n" + tail +
                "rule:\n  per_metric:\n    time: {min_effct_pct: 5}\n") ==
        d.at(7,
             "rule.per_metric.time: unknown key 'min_effct_pct' (did you mean 'min_effect_pct'?)"));
  CHECK(d.error(head + "  - name: a\n" + tail + "target: []\n") ==
        d.at(5, "unknown key 'target' (did you mean 'targets'?)"));
}
