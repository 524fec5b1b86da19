// The KCIDB report's kernel facts come from the run's manifest and nowhere
// else: a kernel built from a tree gives its commit, describe and build; a
// commit that is not a full sha1 is not passed off as one.
#include "analysis/export/kcidb.h"

#include <catch2/catch.hpp>

#include "tests/support/sweep_db.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

std::vector<ExportRun> exported(const std::string& db) {
  Store store(db, Store::Access::kReadOnly);
  const std::vector<std::int64_t> ids = {1, 2};
  return export_runs(store, ids, "", {});
}

}  // namespace

TEST_CASE("kcidb: a tree-built kernel is its checkout's commit and a PASS build, nothing else is") {
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  test::write_sweep_db(db, {.runs = {"built", "other"}, .groups = {1, 2}});
  {
    Store store(db);
    store.runs_table().set_manifest_member(1, {"kernel_release"}, R"("6.1.192+")");
    store.runs_table().set_manifest_member(
        1, {"lab"},
        R"({"build": {"commit": "0123456789abcdef0123456789abcdef01234567", "describe": "v6.1-12-g0123456",
                      "seconds": 312.5}})");
    // A commit that is no full sha1 (a database made elsewhere).
    store.runs_table().set_manifest_member(2, {"lab"}, R"({"build": {"commit": "HEAD~1"}})");
  }
  const auto runs = exported(db);
  const nlohmann::json k = kcidb_report(runs, "schedlab");
  REQUIRE(k["checkouts"].size() == 2);
  const auto& built = k["checkouts"][0];
  CHECK(built["id"] == "schedlab:built@20261201T100000Z");
  CHECK(built["comment"] == "kernel 6.1.192+");
  CHECK(built["git_commit_hash"] == "0123456789abcdef0123456789abcdef01234567");
  CHECK(built["git_commit_name"] == "v6.1-12-g0123456");
  CHECK(k["builds"][0]["status"] == "PASS");
  CHECK(k["builds"][0]["duration"] == 312.5);
  CHECK(k["builds"][0]["misc"]["kernel_release"] == "6.1.192+");
  // The other run records no release and a commit that is no sha1.
  CHECK_FALSE(k["checkouts"][1].contains("comment"));
  CHECK_FALSE(k["checkouts"][1].contains("git_commit_hash"));
  CHECK_FALSE(k["builds"][1].contains("status"));
  // A test per cell: 2 rows of each run, DONE with the centre.
  REQUIRE(k["tests"].size() == 4);
  CHECK(k["tests"][0]["path"] == "schedlab.hackbench-process-pipes.time.1");
  CHECK(k["tests"][0]["status"] == "DONE");
  CHECK(k["tests"][0]["number"]["value"] == Approx(0.05));
  CHECK(k["tests"][0]["id"] ==
        "schedlab:built@20261201T100000Z:default:hackbench-process-pipes:time:1");
}

TEST_CASE("kcidb: path parts and origins as the schema takes them") {
  CHECK(kcidb_path_part("hackbench-process-pipes") == "hackbench-process-pipes");
  CHECK(kcidb_path_part("hackbench-?") == "hackbench-_");
  CHECK(kcidb_path_part("0.5") == "0_5");
  CHECK(kcidb_path_part("") == "_");
  CHECK(kcidb_path_part("t\xc3\xa9") == "t__");  // each byte of a UTF-8 character
  CHECK_FALSE(kcidb_origin_problem("schedlab"));
  CHECK_FALSE(kcidb_origin_problem("lab_7"));
  CHECK(kcidb_origin_problem("Lab"));
  CHECK(kcidb_origin_problem(""));
  CHECK(kcidb_origin_problem("a:b"));
  CHECK_FALSE(kcidb_origin_problem(std::string(32, 'a')));
  CHECK(*kcidb_origin_problem(std::string(33, 'a')) ==
        "a KCIDB origin names a CI system in at most 32 characters, not 33");
}

// hostile9: a run of kernels as columns (HEAD and @WORKTREE on their own
// guests) was one checkout and build, HEAD's: the edited kernel's numbers
// were reported as the clean commit's. Each kernel is its own checkout and
// build, the edits its patchset, each test under its column's build.
TEST_CASE("kcidb: a run of kernels as columns gives each kernel its own checkout and build") {
  const std::string commit = "334d98fc6ec52d6f32cbb283919265172863c733";
  const std::string edits = std::string(64, 'e');
  const nlohmann::json head = {{"commit", commit}, {"describe", "v6.1-1-g334d98f"}};
  nlohmann::json tree = head;
  tree["describe"] = "v6.1-1-g334d98f-dirty-eeeeeee";
  tree["edits_sha256"] = edits;
  const nlohmann::json manifest = {
      {"kernel_release", "6.1.0"},
      {"lab", {{"release", "6.1.0"}, {"build", head}}},
      {"kernel_columns",
       {{{"column", "HEAD"}, {"lab", {{"release", "6.1.0"}, {"build", head}}}},
        {{"column", "WORKTREE"}, {"lab", {{"release", "6.1.0+"}, {"build", tree}}}}}}};
  ExportRun r;
  r.run.id = 1;
  r.run.name = "try1";
  r.run.started_at = "2026-12-07T01:00:00Z";
  r.run.manifest_json = manifest.dump();
  r.kernel_release = "6.1.0";
  r.commit = commit;
  for (const std::string v : {"HEAD/default", "WORKTREE/default"})
    r.cells.push_back({.block = "b",
                       .row = "1",
                       .swept = "groups",
                       .variant = v,
                       .n = 1,
                       .samples = {1.0},
                       .centre = 1.0});
  const nlohmann::json k = kcidb_report(std::vector<ExportRun>{r}, "schedlab");
  REQUIRE(k["checkouts"].size() == 2);
  REQUIRE(k["builds"].size() == 2);
  CHECK(k["checkouts"][0]["id"] == "schedlab:try1@20261207T010000Z:HEAD");
  CHECK(k["checkouts"][0]["git_commit_name"] == "v6.1-1-g334d98f");
  CHECK_FALSE(k["checkouts"][0].contains("patchset_hash"));
  CHECK(k["checkouts"][1]["id"] == "schedlab:try1@20261207T010000Z:WORKTREE");
  CHECK(k["checkouts"][1]["git_commit_hash"] == commit);
  CHECK(k["checkouts"][1]["git_commit_name"] == "v6.1-1-g334d98f-dirty-eeeeeee");
  CHECK(k["checkouts"][1]["patchset_hash"] == edits);
  CHECK(k["builds"][1]["misc"]["kernel_release"] == "6.1.0+");
  CHECK(k["builds"][1]["misc"]["kernel_column"] == "WORKTREE");
  REQUIRE(k["tests"].size() == 2);
  CHECK(k["tests"][0]["build_id"] == "schedlab:try1@20261207T010000Z:HEAD");
  CHECK(k["tests"][1]["build_id"] == "schedlab:try1@20261207T010000Z:WORKTREE");
  CHECK(k["tests"][1]["misc"]["variant"] == "WORKTREE/default");
  // A cell of no column's kernel (a crafted manifest): the run as one, no cell lost.
  r.cells.back().variant = "default";
  const nlohmann::json one = kcidb_report(std::vector<ExportRun>{r}, "schedlab");
  CHECK(one["checkouts"].size() == 1);
  CHECK(one["tests"].size() == 2);
  // Labels that overlap (a crafted manifest: HEAD and HEAD/x): the cell
  // HEAD/x/default matches both and the cell c/default neither, so the
  // counts agree; still the run as one, each cell once (hostile10).
  nlohmann::json overlapping = manifest;
  overlapping["kernel_columns"][1]["column"] = "HEAD/x";
  r.run.manifest_json = overlapping.dump();
  r.cells.front().variant = "HEAD/x/default";
  r.cells.back().variant = "c/default";
  const nlohmann::json whole = kcidb_report(std::vector<ExportRun>{r}, "schedlab");
  CHECK(whole["checkouts"].size() == 1);
  REQUIRE(whole["tests"].size() == 2);
  CHECK(whole["tests"][0]["misc"]["variant"] == "HEAD/x/default");
  CHECK(whole["tests"][1]["misc"]["variant"] == "c/default");
}
