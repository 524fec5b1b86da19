// The executor alone: plans run on a SUT/loadgen pair of FakeHosts (the
// test double of tests/support/fake_host.h: no root, no real process) into
// a real Store on a temporary SQLite file. The same paths on real processes
// and kernels are the e2e, netns and lab tests.
#include "runner/run/executor.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <csignal>
#include <set>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/monitor_rows.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "runner/config/config.h"
#include "runner/config/host_specs.h"
#include "runner/hosts/interrupt.h"
#include "runner/lab/host_set.h"
#include "runner/run/preflight.h"
#include "tests/support/fake_host.h"
#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;
using test::Event;
using test::FakeHost;
using test::Reply;

namespace {

using Kind = Event::Kind;
using Lines = std::vector<std::string>;

// A workload with a step in every phase, on both roles: what the executor
// runs where and when is then visible in the hosts' log.
class Lifecycle final : public Workload {
 public:
  std::string name() const override { return "lc"; }
  std::string description() const override { return "every phase, both roles"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "lc-tools"; }
  std::vector<Step> setup_steps(const Point&, const StepContext&) const override {
    return {{.role = Role::kSut, .argv = {"lc-setup", "sut"}, .measured = false},
            {.role = Role::kLoadgen, .argv = {"lc-setup", "loadgen"}, .measured = false}};
  }
  std::vector<Step> point_setup_steps(const Point& p, const StepContext& ctx) const override {
    return {{.role = Role::kSut,
             .argv = {"lc-server", n(p)},
             .measured = false,
             .background = true,
             .ready = ReadyCheck{.tcp_port = ctx.port}},
            {.role = Role::kLoadgen, .argv = {"lc-warm", n(p)}, .measured = false}};
  }
  std::vector<Step> iteration_steps(const Point& p, const StepContext&) const override {
    return {
        {.role = Role::kLoadgen, .argv = {"lc-client", n(p)}, .timeout = std::chrono::seconds(30)}};
  }
  std::vector<Step> point_teardown_steps(const Point& p, const StepContext&) const override {
    return {{.role = Role::kLoadgen,
             .argv = {"lc-drain", n(p)},
             .measured = false,
             .ignore_failure = true}};
  }
  std::vector<Step> teardown_steps(const Point&, const StepContext&) const override {
    return {{.role = Role::kSut, .argv = {"lc-cleanup"}, .measured = false},
            {.role = Role::kLoadgen, .argv = {"lc-cleanup"}, .measured = false}};
  }
  std::vector<Sample> parse(const Point&, const std::string& out,
                            const std::string&) const override {
    const auto at = out.find("score: ");
    if (at == std::string::npos) throw ParseError("lc", 0, "no score line");
    return {{.metric = "score", .value = std::stod(out.substr(at + 7))}};
  }
  // Its own verdict, as dmatest's failure count: a negative score parsed
  // fine and still fails the iteration.
  std::string judge(const Point&, const std::vector<Sample>& samples) const override {
    return !samples.empty() && samples.front().value < 0 ? "a negative score" : "";
  }

 private:
  static std::string n(const Point& p) { return std::to_string(std::get<std::int64_t>(p.at("n"))); }
  std::vector<ParamSpec> params_ = {
      {.name = "n", .type = ParamType::kInt, .axis = Axis::kRow, .default_value = std::int64_t{1}}};
  std::vector<MetricSpec> metrics_ = {{.name = "score",
                                       .unit = "ops/s",
                                       .direction = Direction::kHigherIsBetter,
                                       .centre = Centre::kAmean}};
};

const Lifecycle kLifecycle;

constexpr const char* kAutogroup = "/proc/sys/kernel/sched_autogroup_enabled";
constexpr const char* kSlice = "/sys/kernel/debug/sched/base_slice_ns";

Reply score(double v) {
  return {.out = fmt::format("score: {}\n", v)};
}

// A config's plan on a fake pair; the config's first workload becomes the
// Lifecycle workload (its YAML entry only gives the values of `n`).
struct Rig {
  explicit Rig(const std::string& yaml, bool lifecycle = true)
      : config(parse_config(yaml, "e.yaml")) {
    if (lifecycle) {
      config.workloads.at(0).workload = &kLifecycle;
      config.workloads.at(0).owned.reset();
    }
    plan = expand_plan(config);
    hosts = hosts_of(config);
    sut.files[kAutogroup] = "1\n";
    sut.files[kSlice] = "3000000\n";
    sut.files["/sys/devices/system/cpu/online"] = "0-3\n";
    sut.features = {{"PLACE_LAG", true}, {"RUN_TO_PARITY", true}};
    loadgen.files["/sys/devices/system/cpu/online"] = "0-7\n";
    loadgen.on({"lc-client"}, {score(100)});
  }

  RunSummary run(const ExecOptions& options) {
    const RunContext ctx{.store = store,
                         .pair = pair,
                         .hosts = hosts,
                         .config = config,
                         .plan = plan,
                         .options = options,
                         .clock = clock};
    preflight(ctx);
    return execute(ctx);
  }
  RunSummary run() { return run(ExecOptions{.name = "r"}); }

  // What the workload's programs were asked to do (runs, starts, stops), in order.
  Lines steps() const {
    Lines out;
    for (const auto& e : log->events())
      if ((e.kind == Kind::kRun || e.kind == Kind::kStart || e.kind == Kind::kStop) &&
          e.argv.front().starts_with("lc-"))
        out.push_back(e.str());
    return out;
  }
  std::vector<IterationRow> iterations(std::int64_t run_id) const {
    return store.iterations_table().iterations(run_id, true);
  }
  std::string variant_of(const IterationRow& it) const {
    for (const auto& v : store.variants_table().variants(it.run_id))
      if (v.id == it.variant_id) return v.name;
    return "?";
  }

  test::TempDir dir;
  Store store{dir.file("e.db")};
  test::FakeClock clock;
  std::shared_ptr<test::EventLog> log = std::make_shared<test::EventLog>();
  FakeHost sut{"sut", log, &clock};
  FakeHost loadgen{"loadgen", log, &clock};
  Pair pair{sut, loadgen, "10.0.0.1"};
  Config config;
  Plan plan;
  HostSpec hosts;
};

std::string lc_config(const std::string& n, const std::string& rest) {
  return fmt::format(
      "workloads:\n"
      "  - command:\n"
      "      name: lc\n"
      "      argv: [lc-client, '{{n}}']\n"
      "      params: {{n: {}}}\n"
      "      metrics: {{score: {{regex: 'score: (?<value>[0-9.]+)', direction: higher}}}}\n"
      "{}",
      n, rest);
}

}  // namespace

TEST_CASE("executor: the steps of each phase run in order on their role's host") {
  Rig rig(lc_config("[1, 2]", "iterations: 2\norder: sequential\nmonitors: [stat]\n"));
  rig.sut.files["/proc/stat"] = test::read_text(test::fixture("proc/stat.before-hackbench.txt"));
  const RunSummary s = rig.run();
  CHECK(to_string(s.status) == "finished");
  CHECK(s.measured == 4);
  CHECK(s.failed == 0);
  // Monitors read right around each iteration's measured step.
  Lines order;
  for (const auto& e : rig.log->events())
    if (e.kind == Kind::kRead && e.path == "/proc/stat")
      order.push_back(e.str());
    else if (e.kind != Kind::kRead && e.kind != Kind::kPoll && e.kind != Kind::kPort &&
             !e.argv.empty() && e.argv.front().starts_with("lc-"))
      order.push_back(e.str());
  CHECK(order ==
        Lines{
            "sut: read /proc/stat",  // the monitor probed at run start
            "sut: run lc-setup sut",    "loadgen: run lc-setup loadgen", "sut: start lc-server 1",
            "loadgen: run lc-warm 1",   "sut: read /proc/stat",          "loadgen: run lc-client 1",
            "sut: read /proc/stat",     "sut: read /proc/stat",          "loadgen: run lc-client 1",
            "sut: read /proc/stat",     "loadgen: run lc-drain 1",       "sut: stop lc-server 1",
            "sut: start lc-server 2",   "loadgen: run lc-warm 2",        "sut: read /proc/stat",
            "loadgen: run lc-client 2", "sut: read /proc/stat",          "sut: read /proc/stat",
            "loadgen: run lc-client 2", "sut: read /proc/stat",          "loadgen: run lc-drain 2",
            "sut: stop lc-server 2",    "sut: run lc-cleanup",           "loadgen: run lc-cleanup",
        });
  // The port was free before each server started (no listener of someone
  // else's), and the server ready (its port polled) before the iteration.
  const Lines polled = rig.log->grep("sut: port 40000");
  CHECK(polled.size() == 4);
  // The work directory goes after the teardown.
  const Lines runs = rig.log->lines({Kind::kRun});
  // (made by mkdir, which fails on a name already there; a random name)
  const auto mkdir = std::find_if(runs.begin(), runs.end(), [](const std::string& l) {
    return l.starts_with("sut: run mkdir -m 0755 -- /tmp/schedlab-run1-w0-");
  });
  REQUIRE(mkdir != runs.end());
  const std::string dir = mkdir->substr(mkdir->rfind(' ') + 1);
  CHECK(dir.size() == std::string("/tmp/schedlab-run1-w0-").size() + 8);
  const auto rm = std::find(runs.begin(), runs.end(), "sut: run rm -rf -- " + dir);
  const auto cleanup = std::find(runs.begin(), runs.end(), "loadgen: run lc-cleanup");
  CHECK(rm != runs.end());
  CHECK(cleanup < rm);

  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 4);
  for (std::size_t i = 0; i < its.size(); ++i) {
    CHECK(to_string(its[i].status) == "ok");
    CHECK(its[i].iteration == static_cast<int>(i % 2));
    CHECK(its[i].row == (i < 2 ? "1" : "2"));
    REQUIRE(its[i].samples.size() == 1);
    CHECK(its[i].samples[0].value == 100);
    CHECK(its[i].stdout_text == "score: 100\n");
    CHECK(its[i].duration_s == Approx(0.010).margin(1e-9));  // the client's 10 ms, nothing else
  }
  CHECK(rig.store.monitor_rows().monitor_snapshots(s.run_id, "stat").size() ==
        8);  // before and after, x4
  CHECK(to_string(rig.store.runs_table().find_run(s.run_id)->status) == "finished");
}

namespace {
// The commands each lifecycle program (lc-*) was run or started with, in
// order: argv[0] -> commands.
std::map<std::string, std::vector<Command>> commands_by_program(const Rig& rig) {
  std::map<std::string, std::vector<Command>> seen;
  for (const auto& e : rig.log->events())
    if ((e.kind == Kind::kRun || e.kind == Kind::kStart) && e.argv.front().starts_with("lc-"))
      seen[e.argv.front()].push_back(e.command);
  return seen;
}

// commands_by_program of one iteration at groups 1 under the variants
// `default: {}` and VARIANTS (lines of the config's variants map).
std::map<std::string, std::vector<Command>> commands_with_variants(const std::string& variants) {
  Rig rig(lc_config("[1]", "iterations: 1\nvariants:\n  default: {}\n" + variants));
  rig.run();
  return commands_by_program(rig);
}
}  // namespace

TEST_CASE("executor: a variant's process knobs reach its measured steps and servers only") {
  auto seen = commands_with_variants(
      "  batch: {policy: batch, nice: 5, affinity: {server: '1', client: 2-3}}\n");
  REQUIRE(seen["lc-client"].size() == 2);
  CHECK_FALSE(seen["lc-client"][0].policy);
  REQUIRE(seen["lc-client"][1].policy);
  CHECK(seen["lc-client"][1].policy->describe() == "SCHED_BATCH nice 5");
  CHECK(seen["lc-client"][1].cpus == std::vector<int>{2, 3});
  REQUIRE(seen["lc-server"].size() == 2);
  CHECK_FALSE(seen["lc-server"][1].policy);  // not measured
  CHECK(seen["lc-server"][1].cpus == std::vector<int>{1});
  CHECK(seen["lc-warm"][1].cpus.empty());
  CHECK_FALSE(seen["lc-warm"][1].policy);
  CHECK_FALSE(seen["lc-setup"].back().policy);
}

TEST_CASE("executor: a server policy reaches the servers at spawn, the clients keep their own") {
  auto seen = commands_with_variants(
      "  server: {policy: {server: batch}, nice: {server: 3}}\n"
      "  both: {policy: {server: idle, client: batch}}\n");
  REQUIRE(seen["lc-server"].size() == 3);
  REQUIRE(seen["lc-client"].size() == 3);
  CHECK_FALSE(seen["lc-server"][0].policy);
  REQUIRE(seen["lc-server"][1].policy);
  CHECK(seen["lc-server"][1].policy->describe() == "SCHED_BATCH nice 3");
  CHECK_FALSE(seen["lc-client"][1].policy);
  REQUIRE(seen["lc-server"][2].policy);
  CHECK(seen["lc-server"][2].policy->describe() == "SCHED_IDLE");
  REQUIRE(seen["lc-client"][2].policy);
  CHECK(seen["lc-client"][2].policy->describe() == "SCHED_BATCH");
  CHECK_FALSE(seen["lc-warm"][1].policy);  // neither a server nor measured
}

TEST_CASE("executor: an iteration whose tasks lack the claimed policy fails naming them") {
  Rig rig(lc_config("[1]", "iterations: 1\nvariants:\n  default: {}\n  batch: {policy: batch}\n"));
  // What the policy check reads on the loadgen (a fake host names no
  // process group: its clients are found by name): the client under
  // SCHED_OTHER, a real stat line but for its name.
  std::string line = test::read_text(test::fixture("proc/pid-stat.hackbench-child.during.txt"));
  line = line.substr(0, line.find('\n'));
  line.replace(line.find("(hackbench)"), 11, "(lc-client)");
  rig.loadgen.on(
      [](const Command& c) { return c.argv.size() > 3 && c.argv[3] == "schedlab-task-stats"; },
      {Reply{.out = "16165 " + line + "\nE\n"}});
  const RunSummary s = rig.run();
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 2);
  // The baseline claims nothing: its tasks are counted, not judged.
  CHECK(to_string(its[0].status) == "ok");
  CHECK(to_string(its[1].status) == "failed");
  CHECK(its[1].error ==
        "policy check: 1 of the workload's tasks did not have the claimed policy: lc-client (pid "
        "16165, tid 16165): SCHED_OTHER, claimed SCHED_BATCH (client)");
  CHECK(its[1].samples.empty());
  CHECK(its[1].stdout_text == "score: 100\n");  // the output is kept
  const auto manifest =
      nlohmann::json::parse(rig.store.runs_table().find_run(s.run_id)->manifest_json);
  CHECK(manifest["policy_checks"] == nlohmann::json::parse(R"({
    "default": {"claimed": {}, "iterations": 1, "failed_iterations": 0,
                "tasks_checked": {"client": 1, "server": 0}},
    "batch": {"claimed": {"client": "SCHED_BATCH"}, "iterations": 1, "failed_iterations": 1,
              "tasks_checked": {"client": 1, "server": 0}}})"));
}

TEST_CASE(
    "executor: a server policy for a workload that starts no server is refused before the run") {
  Rig rig("workloads: [hackbench]\nvariants:\n  s: {policy: {server: batch}}\n", false);
  CHECK_THROWS_WITH(rig.run(),
                    "e.yaml:3: variants.s: a server policy, but hackbench starts no server of its "
                    "own for a variant (a server it does not start is named by its threads: "
                    "policy: {tasks: {comm: NAME, policy: batch}})");
}

TEST_CASE("executor: no policy claimed, nothing watched") {
  Rig rig(
      lc_config("[1]", "iterations: 1\nvariants:\n  default: {}\n  b: {nice: 0, policy: other}\n"));
  Rig plain(lc_config("[1]",
                      "iterations: 1\nvariants:\n  default: {}\n  a: {sysctl: "
                      "{kernel.sched_autogroup_enabled: 0}}\n"));
  rig.run();
  const RunSummary s = plain.run();
  CHECK(rig.loadgen.count({"sh", "-c"}) > 0);  // a claim, even of the default policy, is checked
  CHECK(plain.loadgen.count({"sh", "-c"}) == 0);
  // (but the SUT's facts, read once as the run starts)
  CHECK(plain.sut.count({"sh", "-c"}) ==
        plain.sut.count({"sh", "-c", "id -u && exec cat /proc/meminfo"}));
  CHECK_FALSE(nlohmann::json::parse(plain.store.runs_table().find_run(s.run_id)->manifest_json)
                  .contains("policy_checks"));
}

TEST_CASE(
    "executor: knobs are journaled before each write, read back, restored at variant end and run "
    "end") {
  Rig rig(lc_config("[1]",
                    "iterations: 2\n"
                    "variants:\n"
                    "  default: {}\n"
                    "  tuned:\n"
                    "    sysctl: {kernel.sched_autogroup_enabled: 0}\n"
                    "    sched_features: [NO_PLACE_LAG]\n"
                    "  slice:\n"
                    "    debugfs: {sched/base_slice_ns: 1000000}\n"));
  // At each write: is the knob in the journal, not yet restored?
  std::vector<std::string> unjournaled;
  rig.sut.on_write = [&](const std::string& path, const std::string& content) {
    const auto pending = rig.store.journal().unrestored("sut");
    if (std::none_of(pending.begin(), pending.end(),
                     [&](const JournalEntry& e) { return e.path == path; }))
      unjournaled.push_back(path + "=" + content);
  };
  // The SUT's knobs as each iteration's client finds them.
  Lines states;
  rig.loadgen.on({"lc-client"},
                 {Reply{.out = "score: 1\n", .action = [&] {
                          states.push_back(fmt::format(
                              "{} {} {}", rig.sut.files[kAutogroup].substr(0, 1),
                              rig.sut.feature("PLACE_LAG") ? "PLACE_LAG" : "NO_PLACE_LAG",
                              rig.sut.files[kSlice].substr(0, 7)));
                        }}});
  const RunSummary s = rig.run();
  CHECK(to_string(s.status) == "finished");
  CHECK(states == Lines{"1 PLACE_LAG 3000000", "0 NO_PLACE_LAG 3000000", "1 PLACE_LAG 1000000",
                        "1 PLACE_LAG 3000000", "0 NO_PLACE_LAG 3000000", "1 PLACE_LAG 1000000"});
  CHECK(unjournaled.empty());
  const std::string features = FakeHost::kFeatures;
  const std::string autogroup = kAutogroup, slice = kSlice;
  const Lines one_round = {
      autogroup + "=0\n",      features + "=NO_PLACE_LAG",  // tuned, in config order
      features + "=PLACE_LAG", autogroup + "=1\n",          // restored newest first, before slice
      slice + "=1000000\n",
      slice + "=3000000\n",  // restored when default runs again, and at run end
  };
  // Before anything is measured, each knob is tried: written, read back,
  // put back (preflight.h: try_knobs).
  Lines both = {autogroup + "=0\n",      autogroup + "=1\n",   features + "=NO_PLACE_LAG",
                features + "=PLACE_LAG", slice + "=1000000\n", slice + "=3000000\n"};
  both.insert(both.end(), one_round.begin(), one_round.end());
  both.insert(both.end(), one_round.begin(), one_round.end());
  CHECK(rig.sut.writes == both);
  // Each write is read back at once; an apply reads the original first.
  Lines knob_io;
  for (const auto& e : rig.log->events())
    if ((e.kind == Kind::kRead || e.kind == Kind::kWrite) && e.host == "sut" && e.path == autogroup)
      knob_io.push_back(e.str());
  const auto first_write =
      std::find(knob_io.begin(), knob_io.end(), "sut: write " + autogroup + "=0");
  REQUIRE(first_write != knob_io.end());
  REQUIRE(first_write - knob_io.begin() >= 1);
  CHECK(*(first_write - 1) == "sut: read " + autogroup);
  CHECK(*(first_write + 1) == "sut: read " + autogroup);
  CHECK(*(first_write + 2) == "sut: write " + autogroup + "=1");
  CHECK(*(first_write + 3) == "sut: read " + autogroup);
  // Nothing left to restore; the SUT is as found.
  CHECK(rig.store.journal().unrestored("sut").empty());
  CHECK(rig.sut.files[kAutogroup] == "1\n");
  CHECK(rig.sut.feature("PLACE_LAG"));
  CHECK(rig.sut.files[kSlice] == "3000000\n");
  // The variants' knobs as stored with the run.
  const auto variants = rig.store.variants_table().variants(s.run_id);
  REQUIRE(variants.size() == 3);
  CHECK(variants[1].knobs_json ==
        R"({"sched_features":["NO_PLACE_LAG"],"sysctl":{"kernel.sched_autogroup_enabled":"0"}})");
  CHECK(variants[2].knobs_json == R"({"debugfs":{"sched/base_slice_ns":"1000000"}})");
}

TEST_CASE(
    "executor: a knob that does not read back fails the run before anything is measured, with what "
    "was "
    "applied restored") {
  Rig rig(lc_config("[1]",
                    "iterations: 2\n"
                    "variants:\n"
                    "  tuned: {sysctl: {kernel.sched_autogroup_enabled: 0}}\n"
                    "  slice: {debugfs: {sched/base_slice_ns: 1000000}}\n"));
  rig.sut.ignored_writes = {kSlice};  // the kernel keeps its value
  CHECK_THROWS_WITH(
      rig.run(),
      "e.yaml:10: variants.slice.debugfs: debugfs sched/base_slice_ns = 1000000: wrote "
      "'1000000' but it reads back as '3000000'; restored '3000000'; nothing was measured");
  const auto runs = rig.store.runs_table().list_runs();
  REQUIRE(runs.size() == 1);
  CHECK(to_string(runs[0].status) == "failed");
  CHECK(rig.iterations(runs[0].id).empty());  // not even tuned's first iteration
  CHECK(rig.loadgen.count({"lc-client"}) == 0);
  CHECK(rig.store.journal().unrestored("sut").empty());
  CHECK(rig.sut.files[kAutogroup] == "1\n");
  CHECK(rig.sut.writes == Lines{"/proc/sys/kernel/sched_autogroup_enabled=0\n",
                                "/proc/sys/kernel/sched_autogroup_enabled=1\n",
                                "/sys/kernel/debug/sched/base_slice_ns=1000000\n",
                                "/sys/kernel/debug/sched/base_slice_ns=3000000\n"});
}

TEST_CASE("executor: variants interleave per iteration, or run in sequence per point") {
  const std::string variants = "iterations: 3\nvariants:\n  A: {}\n  B: {}\n";
  auto order_of = [](Rig& rig, std::int64_t run) {
    std::string out;
    for (const auto& it : rig.iterations(run)) out += rig.variant_of(it);
    return out;
  };
  SECTION("interleaved: A B A B, the point set up for each iteration") {
    Rig rig(lc_config("[1]", variants));
    const auto s = rig.run();
    CHECK(order_of(rig, s.run_id) == "ABABAB");
    CHECK(rig.sut.count({"lc-server"}) == 6);
    CHECK(rig.loadgen.count({"lc-drain"}) == 6);
  }
  SECTION("sequential: A A A B B B, the point set up once per variant") {
    Rig rig(lc_config("[1]", variants + "order: sequential\n"));
    const auto s = rig.run();
    CHECK(order_of(rig, s.run_id) == "AAABBB");
    CHECK(rig.sut.count({"lc-server"}) == 2);
    CHECK(rig.loadgen.count({"lc-drain"}) == 2);
  }
}

TEST_CASE("executor: an output the workload judges failed is a failed iteration with its samples") {
  Rig rig(lc_config("[1]", "iterations: 2\n"));
  rig.loadgen.on({"lc-client"}, {score(10), score(-3)});
  const RunSummary s = rig.run();
  CHECK(s.failed == 1);
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 2);
  CHECK(to_string(its[0].status) == "ok");
  CHECK(to_string(its[1].status) == "failed");
  // The same words import and parse store (judge_output).
  CHECK(its[1].error == "lc: a negative score");
  REQUIRE(its[1].samples.size() == 1);  // kept: the evidence
  CHECK(its[1].samples[0].value == -3);
}

TEST_CASE("executor: a failed iteration keeps its raw output and status; the run goes on") {
  Rig rig(lc_config("[1]", "iterations: 3\nvariants:\n  good: {}\n  bad: {}\n"));
  rig.loadgen.on({"lc-client"},
                 {score(10),
                  {.exit_code = 1, .out = "partial\n", .err = "lc-client: connection refused\n"},
                  score(12),
                  {.out = "segfault? no score here\n", .err = "oops\n"},
                  score(11),
                  {.ends = Reply::Ends::kSignal, .out = "half\n", .signal = 11}});
  const RunSummary s = rig.run();
  CHECK(to_string(s.status) == "finished");
  CHECK(s.measured == 6);
  CHECK(s.failed == 3);
  REQUIRE(s.errors.size() == 3);
  CHECK(s.errors[0] ==
        "lc n=1 variant=bad iteration 1: lc-client: exit 1: lc-client: connection refused");
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 6);
  const IterationRow& failed = its[1];
  CHECK(to_string(failed.status) == "failed");
  CHECK(failed.exit_code == 1);
  CHECK(failed.stdout_text == "partial\n");
  CHECK(failed.stderr_text == "lc-client: connection refused\n");
  CHECK(failed.samples.empty());
  const IterationRow& unparsed = its[3];
  CHECK(to_string(unparsed.status) == "parse_error");
  CHECK(unparsed.exit_code == 0);
  CHECK(unparsed.error == "lc output did not parse: no score line");
  CHECK(unparsed.stdout_text == "segfault? no score here\n");
  CHECK(unparsed.stderr_text == "oops\n");
  CHECK(unparsed.samples.empty());
  const IterationRow& killed = its[5];
  CHECK(to_string(killed.status) == "failed");
  CHECK_FALSE(killed.exit_code);
  CHECK(killed.error == "lc-client: killed by signal 11 (Segmentation fault): half");
  CHECK(killed.stdout_text == "half\n");
  // What compare counts (and prints as FAIL for bad, which has none).
  CHECK(rig.store.iterations_table().count_iterations(s.run_id, IterationStatus::kOk) == 3);
}

TEST_CASE("executor: an iteration that outlives its timeout is killed and stored as timeout") {
  Rig rig(lc_config("[1]", "iterations: 2\n"));
  rig.loadgen.on({"lc-client"}, {{.ends = Reply::Ends::kTimeout, .out = "score: 5\n"}, score(7)});
  const RunSummary s = rig.run();
  CHECK(s.failed == 1);
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 2);
  CHECK(to_string(its[0].status) == "timeout");
  CHECK(its[0].error == "lc-client: killed at its timeout after 30.0s: score: 5");
  CHECK(its[0].samples.empty());  // its output is not parsed
  CHECK(its[0].stdout_text == "score: 5\n");
  CHECK(its[0].duration_s == Approx(30.0));  // the step's own timeout, on the fake clock
  CHECK(to_string(its[1].status) == "ok");
}

TEST_CASE("executor: setup that fails is recorded for every point and variant, nothing measured") {
  Rig rig(lc_config("[1, 2]", "iterations: 2\nvariants:\n  A: {}\n  B: {}\n"));
  rig.sut.on({"lc-setup", "sut"},
             {{.exit_code = 2, .out = "checking\n", .err = "lc-setup: no disk\n"}});
  const RunSummary s = rig.run();
  CHECK(to_string(s.status) == "finished");
  CHECK(s.failed == 4);
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 4);
  std::set<std::pair<std::string, std::string>> points;
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "setup_error");
    CHECK(it.error == "setup: lc-setup: exit 2: lc-setup: no disk");
    CHECK(it.stdout_text == "checking\n");  // a failing setup step's output is the evidence
    CHECK(it.stderr_text == "lc-setup: no disk\n");
    points.insert({rig.variant_of(it), it.row});
  }
  CHECK(points == std::set<std::pair<std::string, std::string>>{
                      {"A", "1"}, {"A", "2"}, {"B", "1"}, {"B", "2"}});
  CHECK(rig.sut.count({"lc-server"}) == 0);
  CHECK(rig.loadgen.count({"lc-client"}) == 0);
  CHECK(rig.loadgen.count({"lc-setup"}) == 0);             // stopped at the first failure
  CHECK(rig.steps().back() == "loadgen: run lc-cleanup");  // teardown all the same
}

TEST_CASE("executor: a server that dies before it is ready fails that segment as not_ready") {
  Rig rig(lc_config("[1]", "iterations: 2\n"));
  rig.sut.on({"lc-server"},
             {{.ends = Reply::Ends::kEarlyExit, .exit_code = 3, .err = "bind: in use\n"}, {}});
  const RunSummary s = rig.run();
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 2);
  CHECK(to_string(its[0].status) == "not_ready");
  CHECK(its[0].error == "point setup: lc-server exited before it was ready (exit 3): bind: in use");
  CHECK(to_string(its[1].status) == "ok");      // the next segment starts it again
  CHECK(rig.loadgen.count({"lc-drain"}) == 2);  // point teardown after the failed setup too
}

TEST_CASE(
    "executor: an interrupt stores no partial iteration, restores knobs, and resume continues") {
  install_interrupt_handlers();
  reset_interrupted();
  Rig rig(lc_config("[1]",
                    "iterations: 3\n"
                    "variants:\n"
                    "  default: {}\n"
                    "  off: {sysctl: {kernel.sched_autogroup_enabled: 0}}\n"));
  // The fourth client runs until Ctrl-C: off's second iteration.
  rig.loadgen.on({"lc-client"},
                 {score(1), score(2), score(3), {.ends = Reply::Ends::kHang, .action = [] {
                                                   std::raise(SIGINT);
                                                 }}});
  const RunSummary s = rig.run();
  CHECK(interrupted());
  CHECK(to_string(s.status) == "interrupted");
  CHECK(s.measured == 3);
  CHECK(to_string(rig.store.runs_table().find_run(s.run_id)->status) == "interrupted");
  const auto before = rig.iterations(s.run_id);
  REQUIRE(before.size() == 3);
  CHECK(rig.variant_of(before[2]) == "default");
  CHECK(rig.store.journal().unrestored("sut").empty());
  CHECK(rig.sut.files[kAutogroup] == "1\n");
  // Teardowns run to the end after Ctrl-C.
  const Lines steps = rig.steps();
  const auto hung = std::find(steps.rbegin(), steps.rend(), "loadgen: run lc-client 1");
  CHECK(Lines(hung.base(), steps.end()) == Lines{"loadgen: run lc-drain 1", "sut: stop lc-server 1",
                                                 "sut: run lc-cleanup", "loadgen: run lc-cleanup"});

  reset_interrupted();
  rig.loadgen.on({"lc-client"}, {score(4)});
  const RunSummary resumed = rig.run(ExecOptions{.resume_run = s.run_id});
  CHECK(resumed.run_id == s.run_id);
  CHECK(to_string(resumed.status) == "finished");
  CHECK(resumed.measured == 3);  // off 1, default 2, off 2
  CHECK(rig.store.runs_table().list_runs().size() == 1);
  CHECK(to_string(rig.store.runs_table().find_run(s.run_id)->status) == "finished");
  const auto all = rig.iterations(s.run_id);
  REQUIRE(all.size() == 6);
  std::set<std::pair<std::string, int>> seen;
  for (const auto& it : all) {
    CHECK(to_string(it.status) == "ok");
    CHECK(seen.insert({rig.variant_of(it), it.iteration}).second);  // nothing twice
  }
  CHECK(seen.size() == 6);
  CHECK(rig.store.journal().unrestored("sut").empty());

  // Resuming a complete run measures nothing more.
  const RunSummary again = rig.run(ExecOptions{.resume_run = s.run_id});
  CHECK(again.measured == 0);
  CHECK(again.skipped == 1);
  CHECK(rig.iterations(s.run_id).size() == 6);
}

TEST_CASE("executor: preflight refuses a missing tool, a missing knob, an offline CPU") {
  SECTION("a tool") {
    Rig rig(lc_config("[1]", ""));
    rig.loadgen.missing_programs = {"lc-client"};
    CHECK_THROWS_WITH(rig.run(),
                      "lc: 'lc-client' is not installed on loadgen (install the Debian "
                      "package lc-tools)");
  }
  SECTION("a knob") {
    Rig rig(lc_config("[1]", "variants:\n  x: {sysctl: {kernel.sched_nope: 1}}\n"));
    CHECK_THROWS_WITH(rig.run(), Catch::StartsWith("e.yaml:8: variants.x.sysctl: sysctl "
                                                   "kernel.sched_nope: does not exist on sut"));
  }
  SECTION("a CPU") {
    Rig rig(lc_config("[1]", "variants:\n  x: {affinity: {server: '9'}}\n"));
    CHECK_THROWS_WITH(rig.run(),
                      "e.yaml:8: variants.x.affinity.server: CPU 9 is not online on "
                      "sut (online: 0-3)");
  }
  // Nothing was run or written.
  Rig rig(lc_config("[1]", "variants:\n  x: {sysctl: {kernel.sched_nope: 1}}\n"));
  CHECK_THROWS(rig.run());
  CHECK(rig.store.runs_table().list_runs().empty());
  CHECK(rig.log->lines({Kind::kRun, Kind::kStart, Kind::kWrite}).empty());
}

TEST_CASE("executor: a real workload's fixture outputs are stored as it parses them") {
  Rig rig(
      "workloads:\n  - hackbench: {modes: [process-pipes], groups: [2], loops: 200}\n"
      "iterations: 3\n",
      false);
  std::vector<Reply> replies;
  std::vector<std::string> texts;
  for (int i = 1; i <= 3; ++i) {
    texts.push_back(test::read_text(
        test::fixture(fmt::format("hackbench/process-pipes-g2-l200.run{}.txt", i))));
    replies.push_back({.out = texts.back()});
  }
  rig.sut.on({"hackbench"}, replies);
  const RunSummary s = rig.run();
  CHECK(s.failed == 0);
  const Workload& hackbench = *find_workload("hackbench");
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(its[i].stdout_text == texts[i]);
    const auto parsed = hackbench.parse(rig.plan.points[0].point, texts[i], "");
    REQUIRE(its[i].samples.size() == parsed.size());
    CHECK(its[i].samples[0].value == parsed[0].value);
  }
  const Lines ran = rig.log->grep("sut: run hackbench", {Kind::kRun});
  REQUIRE(ran.size() == 3);
  CHECK(ran[0] == "sut: run hackbench --pipe --groups 2 --fds 20 --datasize 100 --loops 200");
}

namespace {

// Seeded values, CV 2% (the same draws as sequential_stop_test.cc's first
// 30): a baseline, a variant 10% better, and one like the baseline.
const std::vector<double> kSeqBase = {97.29,  105.03, 104.33, 98.87,  101.01, 96.05,  102.81, 100.01,
                                      100.05, 103.24, 97.66,  101.06, 97.47,  99.3,   102.64, 95.0,
                                      97.95,  102.99, 101.53, 98.72,  101.67, 101.64, 100.22, 97.57,
                                      101.25, 102.87, 98.12,  103.72, 101.32, 102.34};
const std::vector<double> kSeqTenPct = {109.87, 109.08, 109.11, 108.78, 109.24, 108.08, 110.73, 110.97,
                                        110.72, 107.35, 114.1,  112.45, 109.7,  111.76, 111.86, 110.03,
                                        105.63, 108.27, 109.22, 112.46, 112.94, 111.61, 109.34, 112.03,
                                        109.47, 114.03, 111.19, 109.85, 109.0,  110.32};
const std::vector<double> kSeqSame = {95.35,  99.5,  99.54,  97.04,  98.63,  97.17,  97.8,   100.76,
                                      99.61,  99.92, 97.91,  99.86,  97.69,  101.13, 98.85,  98.38,
                                      98.69,  99.34, 102.92, 99.56,  98.99,  96.89,  101.23, 100.21,
                                      98.44,  101.49, 98.06, 101.45, 97.69,  97.62};

std::vector<Reply> scores(const std::vector<double>& v) {
  std::vector<Reply> out;
  for (double x : v) out.push_back(score(x));
  return out;
}

// Each variant's client is told apart by its scheduling policy: none for
// the baseline, batch, idle.
void script_variants(Rig& rig, const std::vector<std::pair<std::string, std::vector<double>>>& by_policy) {
  for (const auto& [name, values] : by_policy)
    rig.loadgen.on(
        [policy = name](const Command& c) {
          return c.argv.front() == "lc-client" &&
                 (policy.empty() ? !c.policy : c.policy && c.policy->describe().starts_with(policy));
        },
        scores(values));
}

std::map<std::string, PointStop> stops_by_variant(Rig& rig, std::int64_t run) {
  std::map<std::string, PointStop> out;
  for (const auto& s : rig.store.point_stops_table().point_stops(run))
    for (const auto& v : rig.store.variants_table().variants(run))
      if (v.id == s.variant_id) out[v.name] = s;
  return out;
}

}  // namespace

TEST_CASE("executor: stop: sequential stops a planted 10% change as different and an A/A variant as same") {
  Rig rig(lc_config("[1]",
                    "iterations: {min: 3, max: 30, stop: sequential}\n"
                    "variants:\n  base: {}\n  faster: {policy: batch}\n  same: {policy: idle}\n"));
  script_variants(rig, {{"", kSeqBase}, {"SCHED_BATCH", kSeqTenPct}, {"SCHED_IDLE", kSeqSame}});
  const RunSummary s = rig.run();
  CHECK(to_string(s.status) == "finished");
  auto stops = stops_by_variant(rig, s.run_id);
  REQUIRE(stops.size() == 3);
  const PointStop& faster = stops["faster"];
  const PointStop& same = stops["same"];
  REQUIRE(faster.sequential);
  REQUIRE(same.sequential);
  INFO("faster after " << faster.iterations << ", same after " << same.iterations);
  CHECK(faster.reason == "decided");
  CHECK(faster.sequential->decision == "different");
  CHECK(faster.iterations <= 10);  // about the fixed n for 3% (9 a side), far before the cap of 30
  CHECK(*faster.sequential->ci_low > 0);
  CHECK(same.reason == "decided");
  CHECK(same.sequential->decision == "same");
  CHECK(same.iterations < 30);
  // Decided on the repeated 80% interval inside +-3%; the adjusted 95%
  // interval stored is wider, and holds no change.
  CHECK(*same.sequential->ci_low < 0);
  CHECK(*same.sequential->ci_high > 0);
  CHECK(std::fabs(*same.sequential->estimate_pct) < 3);
  // The baseline ran as long as the last variant still undecided; nothing more.
  CHECK(stops["base"].reason == "tests_stopped");
  CHECK_FALSE(stops["base"].sequential);
  CHECK(stops["base"].iterations == same.iterations);
  CHECK(rig.iterations(s.run_id).size() ==
        static_cast<std::size_t>(stops["base"].iterations + faster.iterations + same.iterations));
  // Rounds stay interleaved: the first iterations go base, faster, same.
  const auto its = rig.iterations(s.run_id);
  CHECK(rig.variant_of(its[0]) + rig.variant_of(its[1]) + rig.variant_of(its[2]) == "basefastersame");
}

TEST_CASE("executor: an interrupted stop: sequential point resumes its tests and ends as an uninterrupted one") {
  const std::string yaml = lc_config("[1]",
                                     "iterations: {min: 3, max: 30, stop: sequential}\n"
                                     "variants:\n  base: {}\n  same: {policy: idle}\n");
  Rig whole(yaml);
  script_variants(whole, {{"", kSeqBase}, {"SCHED_IDLE", kSeqSame}});
  const RunSummary all = whole.run();
  auto want = stops_by_variant(whole, all.run_id);
  REQUIRE(want["same"].reason == "decided");

  install_interrupt_handlers();
  reset_interrupted();
  Rig rig(yaml);
  // Ctrl-C during the variant's 5th iteration: four rounds (and looks) done.
  std::vector<Reply> head = scores(std::vector<double>(kSeqSame.begin(), kSeqSame.begin() + 4));
  head.push_back({.ends = Reply::Ends::kHang, .action = [] { std::raise(SIGINT); }});
  script_variants(rig, {{"", kSeqBase}});
  rig.loadgen.on([](const Command& c) { return c.argv.front() == "lc-client" && c.policy; }, head);
  const RunSummary first = rig.run();
  CHECK(to_string(first.status) == "interrupted");
  auto mid = stops_by_variant(rig, first.run_id);
  REQUIRE(mid.count("same"));
  CHECK(mid["same"].reason == "looking");
  CHECK_FALSE(mid.count("base"));

  reset_interrupted();
  // The rest of the variant's values, from its 5th on.
  rig.loadgen.on([](const Command& c) { return c.argv.front() == "lc-client" && c.policy; },
                 scores(std::vector<double>(kSeqSame.begin() + 4, kSeqSame.end())));
  // The baseline ran its 5th iteration before the interrupt; its replies go on
  // from its 6th. The resumed run first completes the interrupted round (the
  // variant's 5th), so the looks come where they came without the interrupt.
  const RunSummary resumed = rig.run(ExecOptions{.resume_run = first.run_id});
  CHECK(to_string(resumed.status) == "finished");
  auto got = stops_by_variant(rig, first.run_id);
  CHECK(got["same"].reason == want["same"].reason);
  CHECK(got["same"].iterations == want["same"].iterations);
  CHECK(got["same"].sequential->decision == want["same"].sequential->decision);
  CHECK(got["same"].sequential->looks_json == want["same"].sequential->looks_json);
  CHECK(*got["same"].sequential->p_value == Approx(*want["same"].sequential->p_value));
  CHECK(got["base"].reason == "tests_stopped");
  // Resuming a finished sequential point measures nothing more.
  CHECK(rig.run(ExecOptions{.resume_run = first.run_id}).measured == 0);
}

// netperf through the executor: two reserved ports (netserver's and the data
// connection's), the confidence warning kept as the iteration's note, and
// adaptive iterations following transactions, the metric an RR test has.
TEST_CASE("executor: a workload's ports, notes and primary metric (netperf on fixture outputs)") {
  Rig rig(
      "workloads:\n"
      "  - netperf: {test: [UDP_STREAM], message_size: [65507], confidence: 95, confidence_max: 5}\n"
      "  - netperf: {test: [TCP_RR], iterations: {min: 2, max: 4, ci_width_pct: 50}}\n"
      "iterations: 2\n",
      false);
  const std::string udp = test::read_text(test::fixture("netperf/udp_stream-l3-i5-I95.txt"));
  const std::string rr = test::read_text(test::fixture("netperf/tcp_rr-l3.txt"));
  rig.loadgen.on({"netperf", "-H", "10.0.0.1", "-p", "40000", "-t", "UDP_STREAM"}, {{.out = udp}});
  rig.loadgen.on({"netperf", "-H", "10.0.0.1", "-p", "40000", "-t", "TCP_RR"}, {{.out = rr}});
  const RunSummary s = rig.run();
  CHECK(s.failed == 0);
  const auto its = rig.iterations(s.run_id);
  REQUIRE(its.size() == 4);
  for (const auto& it : its) {
    INFO(it.block << " " << it.error);
    CHECK(it.status == IterationStatus::kOk);
    if (it.block == "netperf-UDP_STREAM")
      CHECK(it.notes ==
            "netperf: desired confidence not achieved (+/-2.500% @ 95% conf. wanted); confidence intervals: "
            "Throughput 333.562%, Local CPU util 0.000%, Remote CPU util 0.000%");
    else
      CHECK(it.notes.empty());
  }
  const Lines servers = rig.log->grep("sut: start netserver", {Kind::kStart});
  REQUIRE(servers.size() == 4);  // a server per segment: interleaved, one per iteration
  for (const auto& line : servers) CHECK(line == "sut: start netserver -D -4 -p 40000");
  const Lines clients = rig.log->grep("loadgen: run netperf", {Kind::kRun});
  REQUIRE(clients.size() == 4);
  CHECK(clients[0] ==
        "loadgen: run netperf -H 10.0.0.1 -p 40000 -t UDP_STREAM -l 10 -i 5,3 -I 95,5 -- -P ,40001 -m 65507,65507");
  // Two equal transaction rates: the interval is reached at the minimum.
  // With the first metric (throughput, absent from RR output) the rule
  // would have seen no samples and stopped as "failed".
  bool rr_stop = false;
  for (const auto& stop : rig.store.point_stops_table().point_stops(s.run_id))
    if (stop.workload == "netperf" && stop.params_json.find("TCP_RR") != std::string::npos) {
      rr_stop = true;
      CHECK(stop.reason == "ci_reached");
      CHECK(stop.iterations == 2);
    }
  CHECK(rr_stop);
}
