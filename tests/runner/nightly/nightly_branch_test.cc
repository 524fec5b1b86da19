// Nightly over a branch: a git:PATH@BRANCH target resolves the branch when
// the nightly starts and reuses a measurement only for the same commit. A
// real git repository made here, a real store in a temporary directory; no
// kernel is built: a reused cell needs none, and a new head is seen through
// the target's hook (a real `false`), which runs only when the target is
// measured again.
#include <catch2/catch.hpp>

#include "base/hash.h"
#include "base/text.h"
#include "results/nightly_log.h"
#include "results/runs_table.h"
#include "runner/hosts/local_host.h"
#include "runner/nightly/nightly.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

std::string git(const std::string& repo, std::vector<std::string> args) {
  LocalHost host;
  Command c{.argv = {"git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.org"}};
  c.argv.insert(c.argv.end(), args.begin(), args.end());
  const ExecResult r = host.run(c);
  REQUIRE(r.ok());
  return std::string(trim(r.out));
}

struct Branch {
  test::TempDir dir;
  std::string repo = dir.file("linux");
  std::string config = dir.file("c.yaml");
  std::string config_text =
      "hosts: {sut: local, loadgen: local}\n"
      "iterations: 2\n"
      "workloads:\n"
      "  - command:\n"
      "      name: t\n"
      "      argv: [\"true\"]\n"
      "      metrics:\n"
      "        x: {regex: '^x (?<value>[0-9.]+)$', direction: lower}\n";
  Store store{dir.file("n.db")};
  Branch() {
    test::write_text(config, config_text);
    LocalHost host;
    REQUIRE(host.run({.argv = {"git", "init", "-q", "-b", "main", repo}}).ok());
    commit("one");
  }
  std::string commit(const std::string& what) {
    git(repo, {"commit", "-q", "--allow-empty", "-m", what});
    return git(repo, {"rev-parse", "HEAD"});
  }
  NightlyConfig nightly(std::vector<NightlyTarget> targets) const {
    return {.path = dir.file("n.yaml"),
            .name = "n",
            .targets = std::move(targets),
            .configs = {{.path = config}}};
  }
  NightlyTarget target(const std::string& name, const std::string& ref) const {
    return {.name = name, .lab_kernel = "git:" + repo + "@" + ref};
  }
  // A finished run measured at `commit` by an earlier night.
  std::int64_t measured(const std::string& target, const std::string& commit) {
    const auto run = store.runs_table().create_run({.name = target + " " + commit,
                                                    .config_path = config,
                                                    .config_text = config_text,
                                                    .config_sha256 = sha256_hex(config_text),
                                                    .status = RunStatus::kFinished});
    store.nightly_log().add_nightly_measurement({.nightly = "n",
                                                 .target = target,
                                                 .config_path = config,
                                                 .config_sha256 = sha256_hex(config_text),
                                                 .run_id = run,
                                                 .status = NightlyStatus::kMeasured,
                                                 .kernel_commit = commit,
                                                 .ended_at = "2026-12-01T00:00:00Z"});
    return run;
  }
};

}  // namespace

TEST_CASE("a git:PATH@BRANCH lab kernel resolves to the branch's commit") {
  Branch b;
  const std::string head = b.commit("two");
  const ResolvedKernel k = resolve_lab_kernel("git:" + b.repo + "@main");
  CHECK(k.error.empty());
  CHECK(k.commit == head);
  CHECK(k.repo == b.repo);
  CHECK(k.lab_kernel == "git:" + b.repo + "@" + head);
  // The target's config builds exactly that commit.
  NightlyTarget t = b.target("branch", "main");
  t.lab_kernel = k.lab_kernel;
  const Config c = config_for_target(load_config_file(b.config), t);
  REQUIRE(c.sut_lab);
  CHECK(c.sut_lab->kernel == "git:" + b.repo + "@" + head);

  SECTION("other kernels and the work tree keep no commit") {
    for (const std::string& spec : {std::string("debian:6.12"), "git:" + b.repo}) {
      const ResolvedKernel o = resolve_lab_kernel(spec);
      CHECK(o.lab_kernel == spec);
      CHECK(o.commit.empty());
      CHECK(o.error.empty());
    }
  }
  SECTION("an unknown ref is a one-line error") {
    const ResolvedKernel u = resolve_lab_kernel("git:" + b.repo + "@nosuch");
    CHECK_THAT(u.error, Contains("unknown ref 'nosuch'"));
    CHECK(u.error.find('\n') == std::string::npos);
    CHECK(u.commit.empty());
  }
}

TEST_CASE("a branch target reuses its measurement only while the branch stays at that commit") {
  Branch b;
  const std::string one = git(b.repo, {"rev-parse", "main"});
  const auto run = b.measured("branch", one);
  NightlyTarget t = b.target("branch", "main");
  t.hook = Hook{.argv = {"false"}};  // runs only if the target is measured again
  const NightlyConfig n = b.nightly({t});

  const NightlyRun same = run_nightly(b.store, n, {});
  REQUIRE(same.cells.size() == 1);
  CHECK(same.cells[0].status == CellStatus::kMeasured);
  CHECK_FALSE(same.cells[0].new_now);
  CHECK(same.cells[0].run_id == run);
  CHECK(same.cells[0].kernel_commit == one);
  CHECK(same.cells[0].kernel_repo == b.repo);

  // A new head: measured again (its hook runs, and fails here), not reused.
  const std::string two = b.commit("two");
  const NightlyRun moved = run_nightly(b.store, n, {});
  REQUIRE(moved.cells.size() == 1);
  CHECK(moved.cells[0].new_now);
  CHECK(moved.cells[0].status == CellStatus::kFailed);
  CHECK(moved.cells[0].kernel_commit == two);
  const auto rows = b.store.nightly_log().nightly_measurements();
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].kernel_commit == two);
  CHECK(rows[1].status == NightlyStatus::kFailed);
  // The store finds each night by its commit.
  CHECK(b.store.nightly_log()
            .latest_nightly_measurement("branch", sha256_hex(b.config_text), one)
            ->run_id == run);
  CHECK(b.store.nightly_log()
            .latest_nightly_measurement("branch", sha256_hex(b.config_text), two)
            ->status == NightlyStatus::kFailed);
  CHECK_FALSE(
      b.store.nightly_log().latest_nightly_measurement("branch", sha256_hex(b.config_text)));
}

TEST_CASE("a branch that does not resolve fails its target and the others go on") {
  Branch b;
  const auto run = b.measured("branch", git(b.repo, {"rev-parse", "main"}));
  const NightlyConfig n = b.nightly({b.target("branch", "main"), b.target("ghost", "nosuch")});
  std::vector<std::string> notes;
  const NightlyRun r =
      run_nightly(b.store, n, {.note = [&](const std::string& line) { notes.push_back(line); }});
  REQUIRE(r.cells.size() == 2);
  CHECK(r.cells[0].status == CellStatus::kMeasured);
  CHECK(r.cells[0].run_id == run);
  CHECK(r.cells[1].target == "ghost");
  CHECK(r.cells[1].status == CellStatus::kFailed);
  CHECK_THAT(r.cells[1].error, Contains("unknown ref 'nosuch'"));
  CHECK(r.cells[1].error.find('\n') == std::string::npos);
  CHECK(std::count_if(notes.begin(), notes.end(), [](const std::string& l) {
          return l.find("ghost: not measured") != std::string::npos;
        }) == 1);
}
