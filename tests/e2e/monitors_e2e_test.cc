// Monitors end to end through the real binary: a real local run with every
// monitor (schedstat is unavailable on a kernel without CONFIG_SCHEDSTATS:
// reported once, the run succeeds), compare --monitors, and `schedstat diff`
// over run selections of a database holding real fixture snapshots.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "results/iterations_table.h"
#include "results/knob_journal_table.h"
#include "results/monitor_rows.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "tests/support/config_run.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/schedstat_fixtures.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using namespace std::chrono_literals;
using schedlab::test::fixture;
using schedlab::test::read_text;

using schedlab::test::kSchedstatV15;
using schedlab::test::kSchedstatV17;

namespace {

using test::schedlab_cmd;

// The line of `text` that starts with `prefix`, or "".
std::string line_starting(const std::string& text, const std::string& prefix) {
  const auto at = text.find("\n" + prefix);
  if (at == std::string::npos) return "";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kConfig = R"(
iterations: 2
workloads:
  - hackbench:
      modes: [process-pipes]
      groups: [1, 2]
      loops: 100
      timeout: 30s
      monitors: [stat, interrupts, softirqs, pressure, schedstat]
)" + test::kDefaultAndBatchVariants;

}  // namespace

TEST_CASE("a real run with every monitor, then compare --monitors", "[e2e][monitors]") {
  test::TempDir dir;
  const std::string db = dir.file("mon.db");
  const std::string cfg = dir.file("mon.yaml");
  test::write_text(cfg, kConfig);
  const bool has_schedstat = std::filesystem::exists("/proc/schedstat");

  const auto run = schedlab_cmd({"run", cfg, "--db", db, "--name", "mon"});
  INFO(run.err);
  REQUIRE(run.ok());
  CHECK(run.err.find("8 iterations measured (0 failed)") != std::string::npos);
  if (!has_schedstat)
    CHECK(count(run.err, "monitor schedstat is unavailable on local: no /proc/schedstat") == 1);

  Store store(db);
  const auto r = store.runs_table().find_run_by_name("mon");
  REQUIRE(r);
  CHECK(to_string(r->status) == "finished");
  const auto manifest = nlohmann::json::parse(r->manifest_json);
  if (!has_schedstat) CHECK(manifest["monitors_unavailable"]["schedstat"] == "no /proc/schedstat");
  CHECK(!manifest["monitors_unavailable"].contains("stat"));
  CHECK(store.journal().unrestored("local").empty());

  const auto its = store.iterations_table().iterations(r->id);
  REQUIRE(its.size() == 8);
  std::map<std::int64_t, double> ctxt;
  for (const auto& d : store.monitor_rows().monitor_deltas(r->id, "stat"))
    if (d.counter == "ctxt") ctxt[d.iteration_id] = d.value;
  for (const auto& it : its) {
    CHECK(to_string(it.status) == "ok");
    REQUIRE(ctxt.count(it.id) == 1);
    CHECK(ctxt[it.id] > 0);
  }
  // Raw texts: one before and one after per path and iteration.
  CHECK(store.monitor_rows().monitor_snapshots(r->id, "stat").size() == 16);
  CHECK(store.monitor_rows().monitor_snapshots(r->id, "interrupts").size() == 16);
  CHECK(store.monitor_rows().monitor_snapshots(r->id, "softirqs").size() == 16);
  if (std::filesystem::exists("/proc/pressure/cpu"))
    CHECK(store.monitor_rows().monitor_snapshots(r->id, "pressure").size() == 48);
  CHECK(!store.monitor_rows().monitor_deltas(r->id, "softirqs").empty());
  if (!has_schedstat) CHECK(store.monitor_rows().monitor_snapshots(r->id, "schedstat").empty());

  const auto text = schedlab_cmd({"compare", "mon", "--db", db, "--monitors"});
  INFO(text.err);
  REQUIRE(text.ok());
  INFO(text.out);
  CHECK(text.out.find("hackbench-process-pipes monitors (per iteration") != std::string::npos);
  CHECK(count(text.out, "\nCtxsw/s   ") == 2);  // rows 1 and 2
  CHECK(line_starting(text.out, "Intr/s    1").find("n/a") == std::string::npos);
  if (!has_schedstat) {
    // n/a in both columns.
    CHECK(count(line_starting(text.out, "Migr/s    1"), " n/a") == 2);
    CHECK(count(line_starting(text.out, "WakeLoc%  2"), " n/a") == 2);
  }

  const auto json = schedlab_cmd({"compare", "mon", "--db", db, "--monitors", "--format", "json"});
  REQUIRE(json.ok());
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["format_version"] == 1);
  REQUIRE(j["monitors"].size() == 1);
  const auto& m = j["monitors"][0];
  CHECK(m["block"] == "hackbench-process-pipes");
  REQUIRE(m["rows"].size() == 2);
  for (const auto& row : m["rows"]) {
    REQUIRE(row["cells"].size() == 2);
    for (const auto& cell : row["cells"]) {
      CHECK(cell["n"] == 2);
      CHECK(cell["ctxt_per_s"].get<double>() > 0);
      CHECK(cell["interrupts_per_s"].is_number());
      if (!has_schedstat) {
        CHECK(cell["migrations_per_s"].is_null());
        CHECK(cell["ttwu_local_pct"].is_null());
      }
    }
  }
  const auto plain = schedlab_cmd({"compare", "mon", "--db", db, "--format", "json"});
  REQUIRE(plain.ok());
  CHECK(!nlohmann::json::parse(plain.out).contains("monitors"));
}

namespace {


// An iteration carrying a stored schedstat pair, as the runner writes it.
void add(Store& s, std::int64_t run, std::int64_t variant, const std::string& row, int index,
         const std::string& pair, IterationStatus status = IterationStatus::kOk) {
  IterationRow it{.run_id = run, .variant_id = variant, .workload = "hackbench",
                  .block = "hackbench-process-pipes", .row = row, .params_json = "{\"r\":" + row + "}",
                  .iteration = index, .status = status, .started_at = "t", .duration_s = 1};
  it.monitor_snapshots = {
      {0, "schedstat", "before", "/proc/schedstat", read_text(fixture(pair + "before.txt"))},
      {0, "schedstat", "after", "/proc/schedstat", read_text(fixture(pair + "after.txt"))}};
  s.iterations_table().add_iteration(it);
}

// MC + PKG newly-idle load_balance() calls of A and B.
std::pair<double, double> newidle_lb_count(const nlohmann::json& j) {
  double a = 0, b = 0;
  for (const auto& r : j["rows"])
    if (r["name"] == "lb_count_newidle" && (r["section"] == "MC" || r["section"] == "PKG")) {
      a += r["a"].get<double>();
      b += r["b"].get<double>();
    }
  return {a, b};
}

}  // namespace

TEST_CASE("schedstat diff over run selections sums stored deltas", "[e2e][monitors][schedstat]") {
  test::TempDir dir;
  const std::string db = dir.file("fx.db");
  {
    Store s(db);
    const auto run = s.runs_table().create_run(
        {.name = "fx", .config_path = "x", .config_text = "", .config_sha256 = ""});
    const auto base = s.variants_table().add_variant(
        {.run_id = run, .name = "base", .position = 0, .knobs_json = "{}"});
    const auto patched = s.variants_table().add_variant(
        {.run_id = run, .name = "patched", .position = 1, .knobs_json = "{}"});
    add(s, run, base, "1", 0, kSchedstatV15);
    add(s, run, base, "1", 1, kSchedstatV15, IterationStatus::kFailed);  // not counted
    add(s, run, patched, "1", 0, kSchedstatV15);
    add(s, run, patched, "2", 0, kSchedstatV15);
    const auto mixed = s.runs_table().create_run(
        {.name = "mixed", .config_path = "x", .config_text = "", .config_sha256 = ""});
    const auto v = s.variants_table().add_variant(
        {.run_id = mixed, .name = "default", .position = 0, .knobs_json = "{}"});
    add(s, mixed, v, "1", 0, kSchedstatV15);
    add(s, mixed, v, "1", 1, kSchedstatV17);
    s.runs_table().create_run(
        {.name = "empty",
         .config_path = "x",
         .config_text = "",
         .config_sha256 = "",
         .manifest_json = R"({"monitors_unavailable": {"schedstat": "no /proc/schedstat"}})"});
  }
  auto diff = [&](const std::string& a, const std::string& b) {
    return schedlab_cmd({"schedstat", "diff", "--db", db, "--format", "json", a, b});
  };

  const auto ab = diff("fx:base", "fx:patched");
  INFO(ab.err);
  REQUIRE(ab.ok());
  const auto j = nlohmann::json::parse(ab.out);
  CHECK(j["kind"] == "schedstat-compare");
  CHECK(j["a"]["label"] == "fx:base (1 iteration)");
  CHECK(j["b"]["label"] == "fx:patched (2 iterations)");
  CHECK(newidle_lb_count(j) == std::pair<double, double>{255'783, 2 * 255'783});
  // 1 iteration against 2 (the base's failed one left out): said, in both forms.
  CHECK(j["warning"] == "the sides summed different numbers of iterations (1 against 2: failed or unfinished "
                        "iterations are left out); compare rates and percentages, not counts");

  // By run id and whole run; by row label and BLOCK/ROW.
  const auto whole = diff("1", "fx:patched:hackbench-process-pipes/2");
  REQUIRE(whole.ok());
  CHECK(newidle_lb_count(nlohmann::json::parse(whole.out)) ==
        std::pair<double, double>{3 * 255'783, 255'783});
  const auto rows = diff("fx::1", "fx:patched:2");
  REQUIRE(rows.ok());
  CHECK(newidle_lb_count(nlohmann::json::parse(rows.out)) ==
        std::pair<double, double>{2 * 255'783, 255'783});

  // Text form, like --delta.
  const auto text = schedlab_cmd({"schedstat", "diff", "--db", db, "fx:base", "fx:patched"});
  REQUIRE(text.ok());
  CHECK(text.out.find("fx:base (1 iteration)") != std::string::npos);
  CHECK(text.out.starts_with("warning: the sides summed different numbers of iterations (1 against 2"));
  // Equal numbers: no warning.
  CHECK(nlohmann::json::parse(diff("fx:base", "fx:patched:1").out).count("warning") == 0);

  // The file forms still work.
  const auto files = schedlab_cmd({"schedstat", "diff", fixture(kSchedstatV15 + "before.txt").string(),
                                   fixture(kSchedstatV15 + "after.txt").string()});
  CHECK(files.ok());

  // Errors: exit 2 with a reason.
  const auto typo = diff("fx:bsae", "fx");
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("run fx has no variant 'bsae' (did you mean 'base'?); it has: base, patched") !=
        std::string::npos);
  const auto none = diff("nope", "fx");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("has no run 'nope'") != std::string::npos);
  const auto unavailable = diff("empty", "fx");
  CHECK(unavailable.exit_code == 2);
  CHECK(test::one_line(unavailable.err)
            .find(test::one_line(
                "empty: no stored schedstat snapshots of ok iterations (the schedstat "
                "monitor was unavailable: no /proc/schedstat)")) != std::string::npos);
  const auto norow = diff("fx::9", "fx");
  CHECK(norow.exit_code == 2);
  CHECK(test::one_line(norow.err).find(test::one_line(
            "(no row '9'; rows: hackbench-process-pipes/1, hackbench-process-pipes/2)")) !=
        std::string::npos);
  const auto topo = diff("mixed", "fx");
  CHECK(topo.exit_code == 2);
  CHECK(topo.err.find("mixed iteration") != std::string::npos);
  const auto half = diff(fixture(kSchedstatV15 + "before.txt").string(), "fx");
  CHECK(half.exit_code == 2);
  CHECK(half.err.find("is a file but 'fx' is not") != std::string::npos);
}

// The tasks monitor samples hackbench's own processes during each
// iteration; hackbench's children live under a second, so only sampling
// during the run sees them.
TEST_CASE("a real run with the tasks monitor, then compare --monitors", "[e2e][monitors][tasks]") {
  if (!std::filesystem::exists("/proc/self/sched")) {
    SCHEDLAB_SKIP("this kernel has no /proc/PID/sched (CONFIG_SCHED_DEBUG)");
  }
  test::TempDir dir;
  std::string err;
  const auto tasks = test::run_config(dir, "tasks", R"(
iterations: 2
workloads:
  - hackbench:
      groups: [2]
      loops: 1000
      timeout: 60s
      monitors: [tasks]
      task_monitor: {interval: 20ms}
)",
                                      240s, &err);
  CHECK(err.find("monitor tasks") == std::string::npos);  // neither unavailable nor failing

  Store store(tasks.db);
  const auto& r = tasks.run;
  const auto its = store.iterations_table().iterations(r.id);
  REQUIRE(its.size() == 2);
  const long cpus = sysconf(_SC_NPROCESSORS_CONF);
  std::map<std::int64_t, std::map<std::string, double>> rows;
  for (const auto& d : store.monitor_rows().monitor_deltas(r.id, "tasks"))
    rows[d.iteration_id][d.counter] = d.value;
  for (const auto& it : its) {
    INFO("iteration " << it.iteration);
    CHECK(to_string(it.status) == "ok");
    const auto& d = rows[it.id];
    CHECK(d.at("polls") >= 3);
    CHECK(d.at("tasks") > 0);
    CHECK(d.at("tasks") <= 81);  // 2 groups x (20 senders + 20 receivers) and the parent
    CHECK(d.at("comm.hackbench.tasks") == d.at("tasks"));
    CHECK(d.at("migrations") >= 0);
    CHECK(d.at("switches") > 0);
    double hits = 0;
    for (const auto& [counter, v] : d)
      if (counter.starts_with("cpu_hits.")) {
        CHECK(std::stol(counter.substr(9)) < cpus);  // only CPUs that exist
        hits += v;
      }
    CHECK(hits > 0);
    CHECK(hits == d.at("samples"));
  }
  CHECK(store.monitor_rows().monitor_snapshots(r.id, "tasks").size() ==
        2);  // the raw output, per iteration

  const auto text = schedlab_cmd({"compare", "tasks", "--db", tasks.db, "--monitors"});
  INFO(text.out);
  REQUIRE(text.ok());
  CHECK(line_starting(text.out, "TaskMigr  2").find("n/a") == std::string::npos);
  CHECK(!line_starting(text.out, "Tasks     2").empty());
  // CPUs hit, summed over both iterations: "  2  default  #0:417 #1:583".
  CHECK(!line_starting(text.out, "  2  default  #").empty());

  const auto json =
      schedlab_cmd({"compare", "tasks", "--db", tasks.db, "--monitors", "--format", "json"});
  REQUIRE(json.ok());
  const auto cell = nlohmann::json::parse(json.out)["monitors"][0]["rows"][0]["cells"][0];
  CHECK(cell["tasks"].get<double>() > 0);
  CHECK(cell["task_migrations"].get<double>() >= 0);
  CHECK(cell["cpu_hits"].is_object());
}
