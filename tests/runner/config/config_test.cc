#include "runner/config/config.h"
#include "runner/knobs/knob_kind.h"
#include "tests/support/config_error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {
std::string error_of(const std::string& yaml) { return test::config_error_of(yaml); }
}  // namespace

TEST_CASE("a valid config fills every parameter, with defaults") {
  const Config c = parse_config(R"(
description: demo
iterations: 3
workloads:
  - hackbench:
      modes: [process-pipes, thread-sockets]
      groups: [1, 4]
      loops: 200
      timeout: 30s
variants:
  default: {}
  sched-batch:
    policy: batch
  autogroup-off:
    sysctl:
      kernel.sched_autogroup_enabled: 0
  niced:
    nice: 5
)",
                                "exp.yaml");
  CHECK(c.description == "demo");
  CHECK(c.iterations.max == 3);
  CHECK_FALSE(c.iterations.adaptive());
  REQUIRE(c.workloads.size() == 1);
  const auto& w = c.workloads[0];
  CHECK(w.iterations.min == 3);
  CHECK(w.values.at("groups").size() == 2);
  CHECK(std::get<std::int64_t>(w.values.at("loops")[0]) == 200);
  CHECK(std::get<std::int64_t>(w.values.at("fds")[0]) == 20);  // default
  CHECK(std::get<std::chrono::milliseconds>(w.values.at("timeout")[0]) == std::chrono::seconds(30));
  REQUIRE(c.variants.size() == 4);
  CHECK(c.variants[0].name == "default");
  CHECK(process_knobs(c.variants[1].knobs).policy->describe() == "SCHED_BATCH");
  const auto& sysctls = c.variants[2].knobs.of("sysctl");
  REQUIRE(sysctls.size() == 1);
  CHECK(sysctls[0].name == "kernel.sched_autogroup_enabled");
  CHECK(sysctls[0].value == "0");
  CHECK(sysctls[0].line == 16);
  CHECK(process_knobs(c.variants[3].knobs).policy->describe() == "SCHED_OTHER nice 5");
}

TEST_CASE("no variants means one default variant") {
  const Config c = parse_config("workloads: [hackbench]\n", "x.yaml");
  REQUIRE(c.variants.size() == 1);
  CHECK(c.variants[0].name == "default");
  CHECK(c.iterations.max == 5);
  CHECK(c.order == Order::kInterleaved);
}

TEST_CASE("config errors name file, line and key, with a suggestion") {
  // A config, and the whole error it gets.
  const std::pair<const char*, const char*> cases[] = {
      {"workloads:\n  - hackbench:\n      grups: [1]\n",
       "exp.yaml:3: workloads[0].hackbench: unknown key 'grups' (did you mean 'groups'?)"},
      {"iteratons: 5\nworkloads: [hackbench]\n",
       "exp.yaml:1: unknown key 'iteratons' (did you mean 'iterations'?)"},
      {"workloads:\n  - hackbench:\n      modes: [process-pipe]\n",
       "exp.yaml:3: workloads[0].hackbench.modes: 'process-pipe' is not one of: "
       "process-pipes, process-sockets, thread-pipes, thread-sockets (did you mean "
       "'process-pipes'?)"},
      {"workloads:\n  - hackbench:\n      groups: [1, zero]\n",
       "exp.yaml:3: workloads[0].hackbench.groups: expected a whole number from 1 to 2147483647, "
       "got 'zero'"},
      {"workloads:\n  - hackbench:\n      groups: [0]\n",
       "exp.yaml:3: workloads[0].hackbench.groups: 0 is out of range: expected a whole number "
       "from 1 to 2147483647"},
      {"workloads:\n  - hackbench:\n      loops: [1, 2]\n",
       "exp.yaml:3: workloads[0].hackbench.loops: takes a single value, not a list (only swept "
       "parameters take lists)"},
      {"workloads:\n  - hackbench:\n      timeout: soon\n",
       "exp.yaml:3: workloads[0].hackbench.timeout: expected a duration from 0s to 168h such as "
       "30s or 500ms, got 'soon'"},
      {"workloads: [hackbench]\nvariants:\n  b:\n    polcy: batch\n",
       "exp.yaml:4: variants.b: unknown key 'polcy' (did you mean 'policy'?)"},
      {"workloads: [hackbench]\nvariants:\n  b:\n    policy: fifo\n",
       "exp.yaml:4: variants.b.policy: unknown scheduling policy 'fifo'; known: other, batch, "
       "idle"},
      {"workloads: [hackbench]\nvariants:\n  b:\n    sysctl:\n      net.core.somaxconn: 5\n",
       "exp.yaml:5: variants.b.sysctl.net.core.somaxconn: 'net.core.somaxconn' is not a sysctl "
       "schedlab may change (kernel.sched_*, kernel.numa_balancing, kernel.numa_balancing_*, "
       "kernel.timer_migration, "
       "kernel.msgmax, vm.stat_interval, vm.swappiness)"},
      {"workloads: [hackbench]\nvariants:\n  b:\n    nice: 40\n",
       "exp.yaml:4: variants.b.nice: 40 is out of range: expected a whole number from -20 to 19"},
      {"workloads: [hackbench]\nhosts:\n  sut: sut1\n",
       "exp.yaml:3: hosts.sut: 'sut1' is not a host: use local or ssh://[user@]host[:port]"},
      {"workloads: [hackbench]\nssh:\n  host_key_policy: yolo\n",
       "exp.yaml:3: ssh.host_key_policy: expected strict or accept-new, got 'yolo'"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n",
       "exp.yaml:3: workloads[0].command.metrics: expected at least one metric with a regex"},
      {"description: x\n", "exp.yaml: workloads: missing: a config runs at least one workload"},
      {"workloads:\n  - hackbench:\n      groups: [1, 1]\n",
       "exp.yaml:3: workloads[0].hackbench.groups: value '1' is listed twice"},
      {"iterations: 0\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations: 0 is out of range: expected a whole number from 1 to 1000000"},
      {"iterations: {min: 3, max: 30}\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations: a mapping makes iterations adaptive: give ci_width_pct (and min, "
       "max), or stop: sequential"},
      {"iterations: {min: 5, max: 3, ci_width_pct: 2}\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations.max: max (3) is below min (5)"},
      {"iterations: {mni: 5, ci_width_pct: 2}\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations: unknown key 'mni' (did you mean 'min'?)"},
      {"iterations: {ci_width_pct: 200}\nworkloads: [hackbench]\n",
       "exp.yaml:1: iterations.ci_width_pct: expected a percentage between 0 and 100, got '200'"},
      {"order: interleave\nworkloads: [hackbench]\n",
       "exp.yaml:1: order: expected interleaved or sequential, got 'interleave' (did you mean "
       "'interleaved'?)"},
      // Every key with a fixed set of choices names them and the nearest.
      {"workloads: [hackbench]\nssh:\n  host_key_policy: accept_new\n",
       "exp.yaml:3: ssh.host_key_policy: expected strict or accept-new, got 'accept_new' (did you "
       "mean "
       "'accept-new'?)"},
      {"workloads:\n  - command:\n      name: x\n      role: sutt\n      argv: [true]\n",
       "exp.yaml:4: workloads[0].command.role: expected sut or loadgen, got 'sutt' (did you mean "
       "'sut'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: higer}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.direction: expected higher or lower, got "
       "'higer' (did "
       "you mean 'higher'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, centre: hmaen}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.centre: expected amean, hmean, gmean or median, "
       "got "
       "'hmaen' (did you mean 'hmean'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, kind: intervals}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.kind: expected run or interval, got 'intervals' "
       "(did "
       "you mean 'interval'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, match: eech}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.match: expected one, each or last, got 'eech' "
       "(did you "
       "mean 'each'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, stream: stdrr}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.stream: expected stdout, stderr or both, got "
       "'stdrr' "
       "(did you mean 'stderr'?)"},
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, domain: nonnegtive}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.domain: expected unbounded or nonnegative, got "
       "'nonnegtive' (did you mean 'nonnegative'?)"},
      // A word far from every choice gets the list alone.
      {"workloads:\n  - command:\n      name: x\n      argv: [true]\n"
       "      metrics: {m: {regex: '(?<value>\\d+)', direction: lower, stream: network}}\n",
       "exp.yaml:5: workloads[0].command.metrics.m.stream: expected stdout, stderr or both, got "
       "'network'"},
  };
  for (const auto& [yaml, error] : cases) {
    INFO(yaml);
    CHECK(error_of(yaml) == error);
  }
  // Every workload is named, the registry's in its order.
  CHECK(error_of("workloads:\n  - hackbenhc: {}\n") ==
        fmt::format("exp.yaml:2: workloads[0]: unknown workload 'hackbenhc' (did you mean "
                    "'hackbench'?); known: command, {}",
                    fmt::join(workload_names(), ", ")));
  CHECK(error_of("workloads:\n  - command:\n      name: x\n      argv: [\"{thraeds}\"]\n      "
                 "params: {threads: [1]}\n"
                 "      metrics: {m: {regex: '(?<value>\\d+)', direction: higher}}\n")
            .starts_with("exp.yaml:3: workloads[0].command: "));
  CHECK(error_of("workloads: [hackbench\n").starts_with("exp.yaml:2: YAML syntax error"));
}

TEST_CASE("scheduler features and debugfs tunables in a variant") {
  const Config c = parse_config(
      "workloads: [hackbench]\nvariants:\n  default: {}\n  no-pl:\n"
      "    sched_features: [NO_PLACE_LAG, NO_RUN_TO_PARITY]\n"
      "    debugfs: {sched/base_slice_ns: 3000000}\n",
      "f.yaml");
  const auto& features = c.variants[1].knobs.of("sched_feature");
  REQUIRE(features.size() == 2);
  CHECK(features[1].value == "NO_RUN_TO_PARITY");
  CHECK(features[0].line == 5);
  CHECK(c.variants[1].knobs.of("debugfs")[0].name == "sched/base_slice_ns");
  CHECK(error_of("workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [no_place_lag]\n") ==
        "exp.yaml:4: variants.v.sched_features: 'no_place_lag' is not a feature name such as "
        "NO_PLACE_LAG");
  CHECK(error_of("workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [PLACE_LAG, NO_PLACE_LAG]\n") ==
        "exp.yaml:4: variants.v.sched_features: PLACE_LAG is set twice");
  CHECK(error_of("workloads: [hackbench]\nvariants:\n  v:\n    debugfs: {../../etc/passwd: 1}\n") ==
        "exp.yaml:4: variants.v.debugfs.../../etc/passwd: '../../etc/passwd' is not a debugfs "
        "scheduler tunable such as sched/base_slice_ns (only sched/ is writable)");
}

TEST_CASE("ssh hosts and their options") {
  const Config c = parse_config(
      "hosts: {sut: 'ssh://root@10.0.0.1:2222', loadgen: local}\n"
      "ssh: {identity: /k, known_hosts: /kh, connect_timeout: 5s}\nworkloads: [hackbench]\n",
      "s.yaml");
  CHECK(c.sut == "ssh://root@10.0.0.1:2222");
  CHECK(c.ssh.identity == "/k");
  CHECK(c.ssh.known_hosts == "/kh");
  CHECK(c.ssh.connect_timeout == std::chrono::seconds(5));
  CHECK(c.ssh.host_key_policy == "strict");
  // A host or user named like an option never reaches ssh.
  CHECK(error_of("hosts: {sut: 'ssh://-V'}\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: hosts.sut: 'ssh://-V' is not a host: use local or ssh://[user@]host[:port] "
        "(the host '-V' "
        "starts with '-': ssh would take it for an option)");
  CHECK(error_of("hosts: {sut: local, loadgen: 'ssh://-Fevil.conf'}\nworkloads: [hackbench]\n") ==
        "exp.yaml:1: hosts.loadgen: 'ssh://-Fevil.conf' is not a host: use local or "
        "ssh://[user@]host[:port] (the "
        "host '-Fevil.conf' starts with '-': ssh would take it for an option)");
  CHECK(error_of("pairs:\n  - {sut: 'ssh://-oX@sut1'}\nworkloads: [hackbench]\n") ==
        "exp.yaml:2: pairs[0].sut: 'ssh://-oX@sut1' is not a host: use local or "
        "ssh://[user@]host[:port] (the "
        "user '-oX' starts with '-': ssh would take it for an option)");
}

TEST_CASE("a command workload is made from the config, its params swept like any") {
  const Config c = parse_config(R"(
workloads:
  - command:
      name: sysbench-cpu
      argv: [sysbench, cpu, "--threads={threads}", "--time={time}", run]
      params: {threads: [1, 2], time: 3}
      metrics:
        eps: {regex: '^\s*events per second:\s+(?<value>[0-9.]+)', unit: events/s, direction: higher}
      iterations: 2
)",
                                "c.yaml");
  REQUIRE(c.workloads.size() == 1);
  const auto& w = c.workloads[0];
  REQUIRE(w.owned);
  CHECK(w.workload->name() == "sysbench-cpu");
  CHECK(w.values.at("threads").size() == 2);
  CHECK(w.iterations.max == 2);
  CHECK(w.workload->metrics()[0].centre == Centre::kHmean);
  CHECK(w.workload->metrics()[0].domain == ValueDomain::kUnbounded);  // said nothing: nothing known
}

TEST_CASE("a command metric may declare its domain") {
  const Config c = parse_config(R"(
workloads:
  - command:
      name: sysbench-cpu
      argv: [sysbench, cpu, run]
      metrics:
        eps: {regex: '^\s*events per second:\s+(?<value>[0-9.]+)', direction: higher, domain: nonnegative}
        drift: {regex: '^drift: (?<value>-?[0-9.]+)', direction: lower, domain: unbounded}
)",
                                "c.yaml");
  REQUIRE(c.workloads.size() == 1);
  const auto& metrics = c.workloads[0].workload->metrics();
  CHECK(metrics.at(0).domain == ValueDomain::kNonNegative);
  CHECK(metrics.at(1).domain == ValueDomain::kUnbounded);
}

TEST_CASE("a missing config file is a clear error") {
  try {
    load_config_file("/nonexistent/exp.yaml");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) == "/nonexistent/exp.yaml: cannot read the file: No such file or directory");
  }
}

TEST_CASE("sysctl names map to /proc/sys paths") {
  CHECK(sysctl_path("kernel.sched_autogroup_enabled") == "/proc/sys/kernel/sched_autogroup_enabled");
  CHECK(sysctl_path("vm.stat_interval") == "/proc/sys/vm/stat_interval");
  CHECK(sysctl_name_problem("kernel.sched_autogroup_enabled") == std::nullopt);
  CHECK(sysctl_name_problem("kernel/../../etc/passwd").has_value());
}

TEST_CASE("every shipped config validates") {
  int n = 0;
  // configs/threads/ holds one config per seed thread.
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(SCHEDLAB_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    INFO(e.path());
    CHECK_NOTHROW(load_config_file(e.path().string()));
    ++n;
  }
  CHECK(n >= 1);
}

// std::regex recursed per character and overflowed the stack at about 30,000
// characters; the name checks now use Boost.Regex, whose matcher does not.
TEST_CASE("a 1 MiB name in a config is an error, not a crash") {
  const std::string long_name(1 << 20, 'a');
  // An explicit key (`? KEY`): YAML limits implicit keys to 1024 characters.
  CHECK_THAT(error_of("workloads: [hackbench]\nvariants:\n  ? " + long_name + "!\n  : {}\n"),
             Catch::Matchers::Contains("variants"));
  CHECK_THAT(error_of("workloads: [hackbench]\nvariants:\n  v:\n    sysctl:\n      ? kernel." +
                      long_name + "!\n      : 1\n"),
             Catch::Matchers::Contains("sysctl"));
  CHECK_THAT(error_of("workloads: [hackbench]\nvariants:\n  v:\n    sched_features: [" +
                      std::string(1 << 20, 'A') + "a]\n"),
             Catch::Matchers::Contains("sched_features"));
}

// A workload's own keys and the keys every workload takes share one map: a
// parameter named like a common key would be set by it too (dmatest's
// "iterations: 100" transfers once also asked for 100 measured iterations).
TEST_CASE("no workload parameter is named like a key every workload takes") {
  for (const Workload* w : all_workloads())
    for (const auto& spec : w->params()) {
      INFO(w->name() << "." << spec.name);
      CHECK(spec.name != "iterations");
      CHECK(spec.name != "monitors");
      CHECK(spec.name != "task_monitor");
    }
  const Config c = parse_config(R"(
iterations: 2
workloads:
  - dmatest: {tests: 100, channel: dma0chan0}
)",
                                "dmatest.yaml");
  REQUIRE(c.workloads.size() == 1);
  CHECK(c.workloads[0].iterations.min == 2);
  CHECK(std::get<std::int64_t>(c.workloads[0].values.at("tests").front()) == 100);
}
