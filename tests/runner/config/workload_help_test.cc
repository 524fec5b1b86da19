// `schedlab workloads`: each form read from the spec rows, and the README's
// generated section agreeing with them.
#include "runner/config/workload_help.h"

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/temp_dir.h"
#include "workloads/registry.h"

using namespace schedlab;

namespace {

// A test double: a workload made of spec rows only, to see a row change
// reach the output.
class RowsOnly final : public Workload {
 public:
  std::string name() const override { return "rows"; }
  std::string description() const override { return "rows only (x, lower is better)"; }
  const std::vector<ParamSpec>& params() const override { return params_; }
  const std::vector<MetricSpec>& metrics() const override { return metrics_; }
  std::string package() const override { return "rows-pkg"; }
  std::vector<ProgramSpec> programs() const override {
    return {{.name = "rows"}, {.name = "helper", .package = "other-pkg", .guest = true}};
  }
  std::vector<Step> iteration_steps(const Point&, const StepContext&) const override { return {}; }
  std::vector<Sample> parse(const Point&, const std::string&, const std::string&) const override {
    return {};
  }

  std::vector<ParamSpec> params_ = {
      {.name = "mode",
       .type = ParamType::kString,
       .axis = Axis::kBlock,
       .default_value = std::string("a"),
       .help = "a or b|c",
       .choices = {"a", "b|c"}},
      {.name = "n",
       .type = ParamType::kInt,
       .axis = Axis::kRow,
       .default_value = std::int64_t{2},
       .help = "how many",
       .unit = "tasks",
       .min = 1},
      {.name = "wait",
       .type = ParamType::kDuration,
       .default_value = std::chrono::milliseconds(90'000),
       .help = "how long",
       .unit = "duration"},
      {.name = "script",
       .type = ParamType::kString,
       .default_value = std::string(),
       .help = "a file"},
  };
  std::vector<MetricSpec> metrics_ = {{.name = "x",
                                       .unit = "s",
                                       .direction = Direction::kLowerIsBetter,
                                       .centre = Centre::kAmean,
                                       .help = "the time"},
                                      {.name = "rate",
                                       .unit = "MB/s",
                                       .direction = Direction::kHigherIsBetter,
                                       .centre = Centre::kHmean,
                                       .kind = SampleKind::kInterval,
                                       .precision = 2,
                                       .help = "per second"}};
};

}  // namespace

TEST_CASE("workloads text: one line per row, like fio --enghelp") {
  const RowsOnly w;
  CHECK(workloads_text({&w}) ==
        "rows: rows only (x, lower is better)\n"
        "  package: rows-pkg; runs rows, helper (other-pkg)\n"
        "  parameters:\n"
        "    mode: string; default a; one of a, b|c; a list: one table per value\n"
        "        a or b|c\n"
        "    n: int (tasks); default 2; at least 1; a list: one row per value\n"
        "        how many\n"
        "    wait: duration; default 90s\n"
        "        how long\n"
        "    script: string; default (empty)\n"
        "        a file\n"
        "  metrics:\n"
        "    x: s; lower is better; amean; one sample per iteration\n"
        "        the time\n"
        "    rate: MB/s; higher is better; hmean; interval samples (time slices of one run)\n"
        "        per second\n");
}

TEST_CASE("workloads markdown: a table of parameters and one of metrics, pipes escaped") {
  const RowsOnly w;
  CHECK(workloads_markdown({&w}) ==
        "### rows\n\n"
        "rows only (x, lower is better). Package: rows-pkg; runs `rows`, `helper` (other-pkg).\n\n"
        "| parameter | type | default | unit | values | a list | meaning |\n"
        "|---|---|---|---|---|---|---|\n"
        "| `mode` | string | a |  | one of a, b\\|c | one table per value | a or b\\|c |\n"
        "| `n` | int | 2 | tasks | at least 1 | one row per value | how many |\n"
        "| `wait` | duration | 90s |  |  |  | how long |\n"
        "| `script` | string | (empty) |  |  |  | a file |\n"
        "\n| metric | unit | better | centre | samples | meaning |\n"
        "|---|---|---|---|---|---|\n"
        "| `x` | s | lower | amean | run | the time |\n"
        "| `rate` | MB/s | higher | hmean | interval | per second |\n");
  // A spec row that changes changes the section (so the README check below
  // fails until the README is regenerated).
  RowsOnly changed;
  changed.params_[1].default_value = std::int64_t{4};
  CHECK(workloads_markdown({&changed}) != workloads_markdown({&w}));
}

TEST_CASE("workloads json: typed defaults, the program packages filled in") {
  const RowsOnly w;
  const auto j = workloads_json({&w});
  REQUIRE(j.size() == 1);
  CHECK(j[0]["name"] == "rows");
  CHECK(j[0]["package"] == "rows-pkg");
  CHECK(j[0]["programs"] == nlohmann::ordered_json::parse(
                                R"([{"name": "rows", "package": "rows-pkg", "guest": false},
                                    {"name": "helper", "package": "other-pkg", "guest": true}])"));
  CHECK(j[0]["params"][1] == nlohmann::ordered_json::parse(
                                 R"({"name": "n", "type": "int", "default": 2, "unit": "tasks",
                                     "choices": [], "min": 1, "axis": "row", "help": "how many"})"));
  CHECK(j[0]["params"][0]["choices"] == nlohmann::ordered_json::parse(R"(["a", "b|c"])"));
  CHECK(j[0]["params"][0]["min"].is_null());
  CHECK(j[0]["params"][2]["default"] == "90s");
  CHECK(j[0]["params"][3]["default"] == "");
  CHECK(j[0]["metrics"][1] == nlohmann::ordered_json::parse(
                                  R"({"name": "rate", "unit": "MB/s", "direction": "higher",
                                      "centre": "hmean", "kind": "interval", "precision": 2,
                                      "help": "per second"})"));
}

TEST_CASE("every registered workload's rows are in the output") {
  const auto md = workloads_markdown(all_workloads());
  const auto j = workloads_json(all_workloads());
  REQUIRE(j.size() == all_workloads().size());
  for (std::size_t i = 0; i < all_workloads().size(); ++i) {
    const Workload& w = *all_workloads()[i];
    INFO(w.name());
    CHECK(md.find("### " + w.name() + "\n") != std::string::npos);
    CHECK(j[i]["params"].size() == w.params().size());
    CHECK(j[i]["metrics"].size() == w.metrics().size());
    for (const auto& p : w.params()) CHECK(md.find("| `" + p.name + "` |") != std::string::npos);
    for (const auto& m : w.metrics()) CHECK(md.find("| `" + m.name + "` |") != std::string::npos);
  }
  // hackbench's rows, as written in workloads/hackbench.cc.
  CHECK(md.find("| `groups` | int | 1 | groups | at least 1 | one row per value | number of "
                "sender/receiver groups (-g); one table row per value |\n") != std::string::npos);
  CHECK(md.find("| `timeout` | duration | 5m |  |  |  |") != std::string::npos);
  CHECK(md.find("| `time` | s | lower | amean | run |") != std::string::npos);
}

TEST_CASE("README.md's workload section is `schedlab workloads --format markdown`") {
  const std::string readme = test::read_text(std::string(SCHEDLAB_SOURCE_DIR) + "/README.md");
  const auto begin = readme.find(kWorkloadsBegin);
  const auto end = readme.find(kWorkloadsEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  REQUIRE(begin < end);
  const std::size_t from = begin + std::string(kWorkloadsBegin).size();
  const std::string section = readme.substr(from, end - from);
  INFO(
      "README.md is out of date: paste the output of `schedlab workloads --format markdown` "
      "between its markers (one blank line on each side)");
  CHECK(section == "\n\n" + all_workloads_markdown() + "\n");
}
