// What `schedlab run` starts, from a real store: a new run's name and
// smoke-run count, and what `--resume` continues (one run, or a
// multi-kernel plan as a whole by its name or a member's), with the whole
// message of each refusal.
#include "runner/run/run_start.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "results/runs_table.h"
#include "results/store.h"
#include "runner/run/stored_config.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

const char* const kOne = "workloads: [hackbench]\nvariants:\n  default: {}\n";
const char* const kGroup = R"(hosts:
  sut: {lab: {kernels: [debian:6.1, debian:6.12], cpus: 2}}
workloads: [hackbench]
variants:
  default: {}
)";

std::int64_t add_run(Store& store, const std::string& name, const std::string& config_path,
                     const std::string& config_text, RunStatus status,
                     const std::string& manifest = "{}") {
  return store.runs_table().create_run({.name = name,
                                        .config_path = config_path,
                                        .config_text = config_text,
                                        .config_sha256 = "x",
                                        .manifest_json = manifest,
                                        .status = status});
}

std::string refusal(const RunsTable& runs, const std::string& arg) {
  try {
    resume_start(runs, "t.db", arg);
  } catch (const RunRefused& e) {
    return e.what();
  }
  return "(not refused)";
}

}  // namespace

TEST_CASE("run start: a new run keeps its name and smoke count; a bad name is refused") {
  const RunStart s = new_run_start(parse_config(kOne, "c.yaml"), "smoke", 2);
  CHECK(s.exec.name == "smoke");
  CHECK_FALSE(s.exec.resume_run);
  CHECK(s.group.empty());
  CHECK(s.iterations == 2);
  CHECK(s.plan_options.iterations == 2);
  CHECK(s.exec.manifest["iterations_override"] == 2);
  // Without --iterations the manifest says nothing of it.
  CHECK_FALSE(new_run_start(parse_config(kOne, "c.yaml"), "full", 0)
                  .exec.manifest.contains("iterations_override"));
  // A multi-kernel config is a group of that name.
  CHECK(new_run_start(parse_config(kGroup, "k.yaml"), "eevdf", 0).group == "eevdf");
  try {
    new_run_start(parse_config(kOne, "c.yaml"), "42", 0);
    FAIL("a name of digits only is an id");
  } catch (const RunRefused& e) {
    CHECK(std::string(e.what()).starts_with("run name '42': "));
    CHECK(std::string(e.what()).ends_with("; give another --name"));
  }
}

TEST_CASE("run start: --resume continues one run with its config and smoke count") {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  // Tagged as a run of this user here (run/stored_config.h).
  const auto id = add_run(
      store, "half", "c.yaml", kOne, RunStatus::kInterrupted,
      fmt::format(R"({{"iterations_override":3,"config_tag":{}}})", config_tag("c.yaml", kOne)));
  for (const std::string& arg : std::vector<std::string>{"half", std::to_string(id)}) {
    const RunStart s = resume_start(store.runs_table(), "t.db", arg);
    CHECK(s.exec.resume_run == id);
    CHECK(s.group.empty());
    CHECK(s.config.path == "c.yaml");
    CHECK(s.iterations == 3);
    CHECK(s.exec.manifest["iterations_override"] == 3);
  }
}

TEST_CASE("run start: --resume refuses what there is nothing to resume of, saying why") {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const auto done = add_run(store, "done", "c.yaml", kOne, RunStatus::kFinished);
  const auto imp = add_run(store, "imp", "(import)", "{}", RunStatus::kFinished);
  CHECK(refusal(store.runs_table(), "nope") == "no run 'nope' in t.db");
  CHECK(refusal(store.runs_table(), "done") ==
        "run " + std::to_string(done) + " 'done' is already finished");
  CHECK(refusal(store.runs_table(), "imp") ==
        "run " + std::to_string(imp) + " 'imp' was imported, not run: there is nothing to resume " +
            "(schedlab rm " + std::to_string(imp) + " removes it)");
}

TEST_CASE("run start: a multi-kernel plan resumes as a whole, by its name or a member's") {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const Config config = parse_config(kGroup, "k.yaml");
  CHECK_FALSE(group_name_taken(store.runs_table(), config, "eevdf"));
  const std::string member =
      fmt::format(R"({{"group":"eevdf","config_tag":{}}})", config_tag("k.yaml", kGroup));
  add_run(store, "eevdf@6.1", "k.yaml", kGroup, RunStatus::kFinished, member);
  CHECK(group_name_taken(store.runs_table(), config, "eevdf"));
  CHECK_FALSE(group_name_taken(store.runs_table(), config, "other"));
  for (const std::string arg : {"eevdf", "eevdf@6.1"}) {
    const RunStart s = resume_start(store.runs_table(), "t.db", arg);
    CHECK(s.group == "eevdf");
    CHECK_FALSE(s.exec.resume_run);
  }
  add_run(store, "eevdf@6.12", "k.yaml", kGroup, RunStatus::kFinished, member);
  CHECK(refusal(store.runs_table(), "eevdf") == "'eevdf' is already finished on every kernel");
}
