// schedlab export on real imports of the fixtures' hackbench outputs, each
// format read by what its tool reads it with: the KCIDB report validated
// against kcidb-io's schema and the BMF file against Bencher's
// (tests/export/*.schema.json, Debian's python3-jsonschema), the Otava CSV
// read as Otava's CsvImporter reads it (csv, dateparser, float()); every
// number checked against compare --format json of the same runs.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kChecker = SCHEDLAB_SOURCE_DIR "/tests/export/check_export.py";
const std::string kKcidbSchema = SCHEDLAB_SOURCE_DIR "/tests/export/kcidb-v5.3.schema.json";
const std::string kBmfSchema = SCHEDLAB_SOURCE_DIR "/tests/export/bmf.schema.json";

std::string export_fixture(const std::string& name) {
  return test::fixture("hackbench/" + name).string();
}

ExecResult export_python(const std::vector<std::string>& args) { return test::debian_python(args); }

bool export_has_module(const std::string& module) {
  return export_python({"-c", "import " + module}).ok();
}

ExecResult export_cli(const std::string& db, std::vector<std::string> args) {
  args.insert(args.end(), {"--db", db});
  return test::schedlab_cmd(args);
}

// Two imports of real outputs: "patch-v2" (base: three process-pipes runs;
// patched: two thread-pipes runs and one whose hackbench failed, a FAIL
// cell), then "later" (base: three thread-pipes runs).
void export_import_runs(const std::string& db) {
  const auto first = export_cli(
      db, {"import", "hackbench", "base=" + export_fixture("process-pipes-g2-l200.run1.txt"),
           export_fixture("process-pipes-g2-l200.run2.txt"),
           export_fixture("process-pipes-g2-l200.run3.txt"),
           "patched=" + export_fixture("thread-pipes-g2-l200.run1.txt"),
           export_fixture("thread-pipes-g2-l200.run2.txt"), export_fixture("error-g0.txt"),
           "--name", "patch-v2"});
  INFO(first.err);
  REQUIRE(first.exit_code == 3);  // imported, one iteration failed
  const auto second = export_cli(
      db, {"import", "hackbench", "base=" + export_fixture("thread-pipes-g2-l200.run1.txt"),
           export_fixture("thread-pipes-g2-l200.run2.txt"),
           export_fixture("thread-pipes-g2-l200.run3.txt"), "--name", "later"});
  INFO(second.err);
  REQUIRE(second.ok());
}

// compare --format json's cells of RUN, by "variant/block/row".
std::map<std::string, Json> export_compare_cells(const std::string& db, const std::string& run) {
  const auto r = export_cli(db, {"compare", run, "--format", "json"});
  REQUIRE(r.ok());
  const Json c = Json::parse(r.out);
  std::map<std::string, Json> out;
  for (const auto& b : c["blocks"])
    for (const auto& row : b["rows"])
      for (const auto& cell : row["cells"]) {
        if (cell["not_measured"].get<bool>()) continue;
        const std::string variant = c["columns"][cell["column"].get<std::size_t>()]["variant"];
        out[variant + "/" + b["block"].get<std::string>() + "/" + row["label"].get<std::string>()] =
            cell;
      }
  return out;
}

}  // namespace

TEST_CASE(
    "export --format kcidb: a real import as a KCIDB v5.3 report, valid by kcidb-io's schema") {
  if (!export_has_module("jsonschema"))
    SCHEDLAB_SKIP("Debian's python3-jsonschema is not installed");
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  export_import_runs(db);
  const std::string file = dir.file("runs.kcidb.json");
  const auto r = export_cli(db, {"export", "--format", "kcidb", "patch-v2", "later", "-o", file});
  INFO(r.err);
  REQUIRE(r.ok());
  CHECK(r.err == "schedlab export: wrote " + file + " (4 cells of 2 runs)\n");

  const auto valid = export_python({kChecker, "schema", kKcidbSchema, file});
  INFO(valid.out << valid.err);
  CHECK(valid.ok());
  CHECK(valid.out.empty());

  const Json k = Json::parse(test::read_text(file));
  CHECK(k["version"] == Json{{"major", 5}, {"minor", 3}});
  REQUIRE(k["checkouts"].size() == 2);
  REQUIRE(k["builds"].size() == 2);
  // An import records no kernel: the checkout and build state none.
  for (const auto& part : {k["checkouts"][0], k["builds"][0]}) {
    CHECK_FALSE(part.contains("comment"));
    CHECK_FALSE(part.contains("git_commit_hash"));
    CHECK_FALSE(part.contains("status"));
  }
  const std::string run_id = k["checkouts"][0]["id"];
  CHECK(std::regex_match(run_id, std::regex("schedlab:patch-v2@[0-9]{8}T[0-9]{6}Z")));
  CHECK(k["builds"][0]["checkout_id"] == run_id);

  // A test per measured cell of each run, ids all different.
  const auto patch = export_compare_cells(db, "patch-v2");
  const auto later = export_compare_cells(db, "later");
  REQUIRE(k["tests"].size() == patch.size() + later.size());
  std::set<std::string> ids;
  for (const auto& t : k["tests"]) ids.insert(t["id"].get<std::string>());
  CHECK(ids.size() == k["tests"].size());

  std::size_t done = 0, failed = 0;
  for (const auto& t : k["tests"]) {
    INFO(t.dump());
    const Json& misc = t["misc"];
    const auto& cells = misc["run"] == "patch-v2" ? patch : later;
    const Json& cell =
        cells.at(misc["variant"].get<std::string>() + "/" + misc["block"].get<std::string>() + "/" +
                 misc["row"].get<std::string>());
    CHECK(t["origin"] == "schedlab");
    CHECK(t["path"] == "schedlab.hackbench-_.time." + std::string(misc["row"] == "?" ? "_" : "2"));
    CHECK(misc["samples"] == cell["samples"]);
    CHECK(misc["n"] == cell["n"]);
    CHECK(misc["failed"] == cell["failed"]);
    if (t["status"] == "DONE") {
      ++done;
      // A parameter the output did not state is named, never given a value.
      CHECK(misc["unknown_params"] == Json{"modes", "timeout"});
      CHECK(misc["params"]["loops"] == "200");
      CHECK_FALSE(misc["params"].contains("modes"));
      CHECK(t["number"]["value"] == cell["centre"]);
      CHECK(t["number"]["unit"] == "s");
      CHECK(misc["interval"]["low"] == cell["ci_low"]);
      CHECK(misc["interval"]["high"] == cell["ci_high"]);
      CHECK(misc["interval"]["level"] == 0.95);
    } else {
      ++failed;
      CHECK(t["status"] == "FAIL");
      CHECK(misc["variant"] == "patched");
      CHECK(misc["failed"] == 1);
      CHECK_FALSE(t.contains("number"));
      CHECK(misc["centre_reason"] == "no samples");
    }
  }
  CHECK(done == 3);
  CHECK(failed == 1);

  // The check can fail: a test path the schema does not take, a status
  // it does not know, a minor version past 3.
  Json broken = k;
  broken["tests"][0]["path"] = "schedlab..time";
  broken["tests"][1]["status"] = "OK";
  broken["version"]["minor"] = 4;
  test::write_text(dir.file("broken.json"), broken.dump());
  const auto invalid = export_python({kChecker, "schema", kKcidbSchema, dir.file("broken.json")});
  CHECK(invalid.exit_code == 1);
  CHECK(invalid.out.find("tests/0/path: 'schedlab..time' does not match") != std::string::npos);
  CHECK(invalid.out.find("tests/1/status: 'OK' is not one of") != std::string::npos);
  CHECK(invalid.out.find("version/minor: 4 is greater than the maximum of 3") != std::string::npos);

  // --origin names the CI system; one the schema refuses is refused here.
  const auto origin = export_cli(db, {"export", "--format", "kcidb", "later", "--origin", "lab_7"});
  REQUIRE(origin.ok());
  CHECK(Json::parse(origin.out)["tests"][0]["id"].template get<std::string>().starts_with(
      "lab_7:later@"));
  const auto bad = export_cli(db, {"export", "--format", "kcidb", "--origin", "Lab-7"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err ==
        "schedlab export: --origin 'Lab-7': a KCIDB origin is lower-case letters, digits and _ "
        "([a-z0-9_]+)\n");
  // 100 KB of letters is valid by the pattern, copied into every id (issue
  // 44): refused by length, shown cut.
  const auto huge =
      export_cli(db, {"export", "--format", "kcidb", "--origin", std::string(100'000, 'a')});
  CHECK(huge.exit_code == 2);
  CHECK(huge.out.empty());
  CHECK(huge.err.find("a KCIDB origin names a CI system in at most 32 characters, not 100000\n") !=
        std::string::npos);
  CHECK(huge.err.size() < 300);
}

TEST_CASE("export --format bmf: a run as Bencher Metric Format, valid by Bencher's schema") {
  if (!export_has_module("jsonschema"))
    SCHEDLAB_SKIP("Debian's python3-jsonschema is not installed");
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  export_import_runs(db);
  const std::string file = dir.file("patch-v2.bmf.json");
  const auto r = export_cli(db, {"export", "--format", "bmf", "patch-v2", "-o", file});
  INFO(r.err);
  REQUIRE(r.ok());
  // BMF has no failure: the failed cell is named, not written.
  CHECK(r.err ==
        "schedlab export: --format bmf cannot state 1 cell, left out:\n"
        "  hackbench-?/groups=?/patched time: 1 failed iteration, no sample\n"
        "schedlab export: wrote " +
            file + " (3 cells of 1 run)\n");
  const auto valid = export_python({kChecker, "schema", kBmfSchema, file});
  INFO(valid.out << valid.err);
  CHECK(valid.ok());

  const Json b = Json::parse(test::read_text(file));
  const auto cells = export_compare_cells(db, "patch-v2");
  REQUIRE(b.size() == 2);
  for (const char* variant : {"base", "patched"}) {
    INFO(variant);
    const std::string benchmark = fmt::format("hackbench-?/groups=2/{}", variant);
    REQUIRE(b.contains(benchmark));
    const Json& m = b[benchmark]["time (s)"];
    const Json& cell = cells.at(fmt::format("{}/hackbench-?/2", variant));
    CHECK(m["value"] == cell["centre"]);
    CHECK(m["lower_value"] == cell["ci_low"]);
    CHECK(m["upper_value"] == cell["ci_high"]);
    // Within Bencher's limits (its BMF reference): 1024 and 64 characters.
    CHECK(benchmark.size() <= 1024);
  }

  // --level: the interval compare --level gives.
  const auto narrow = export_cli(db, {"export", "--format", "bmf", "patch-v2", "--level", "0.8"});
  REQUIRE(narrow.ok());
  const auto at80 = export_cli(db, {"compare", "patch-v2", "--level", "0.8", "--format", "json"});
  REQUIRE(at80.ok());
  const Json base80 = Json::parse(at80.out)["blocks"][0]["rows"][0]["cells"][0];
  const Json m80 = Json::parse(narrow.out)["hackbench-?/groups=2/base"]["time (s)"];
  CHECK(m80["lower_value"] == base80["ci_low"]);
  CHECK(m80["upper_value"] == base80["ci_high"]);
  CHECK(m80["lower_value"].get<double>() >
        b["hackbench-?/groups=2/base"]["time (s)"]["lower_value"].get<double>());

  // A Bencher report is one run.
  const auto two = export_cli(db, {"export", "--format", "bmf", "patch-v2", "later"});
  CHECK(two.exit_code == 2);
  CHECK(two.err.starts_with("schedlab export: --format bmf takes one run"));
  // Without RUN: the latest run, as compare.
  const auto latest = export_cli(db, {"export", "--format", "bmf"});
  REQUIRE(latest.ok());
  CHECK(Json::parse(latest.out).contains("hackbench-?/groups=2/base"));
  CHECK(Json::parse(latest.out).size() == 1);
}

TEST_CASE(
    "export --format otava: every run as the CSV Otava reads, oldest first, numbers from compare") {
  if (!export_has_module("dateparser"))
    SCHEDLAB_SKIP("Debian's python3-dateparser is not installed");
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  export_import_runs(db);
  const std::string file = dir.file("hackbench.csv");
  const auto r =
      export_cli(db, {"export", "--format", "otava", "--workload", "hackbench", "-o", file});
  INFO(r.err);
  REQUIRE(r.ok());
  // Only "later"'s base and patch-v2's base share a series with a centre in
  // each run; Otava's reader takes no empty cell, so the others are named.
  CHECK(r.err ==
        "schedlab export: --format otava cannot state 2 series, left out:\n"
        "  hackbench-?/groups=2/patched/time: no centre in 1 of 2 runs\n"
        "  hackbench-?/groups=?/patched/time: no centre in 2 of 2 runs\n"
        "schedlab export: wrote " +
            file + " (4 cells of 2 runs)\n");
  const std::string series = "hackbench-?/groups=2/base/time";
  CHECK(test::read_text(file).starts_with("time,run,kernel,commit," + series + "\n"));
  const auto read = export_python({kChecker, "otava", file, series});
  INFO(read.out << read.err);
  REQUIRE(read.ok());
  const Json o = Json::parse(read.out);
  CHECK(o["attributes"]["run"] == Json{"patch-v2", "later"});
  CHECK(o["attributes"]["kernel"] == Json{"", ""});  // imports record none: empty, not a guess
  CHECK(o["attributes"]["commit"] == Json{"", ""});
  CHECK(o["data"][series][0] ==
        export_compare_cells(db, "patch-v2").at("base/hackbench-?/2")["centre"]);
  CHECK(o["data"][series][1] ==
        export_compare_cells(db, "later").at("base/hackbench-?/2")["centre"]);
  // time: each run's start, as list --format json states it.
  const Json runs = Json::parse(export_cli(db, {"list", "--format", "json"}).out);
  INFO(runs.dump());
  const auto start =
      export_python({"-c",
                     "import sys, dateparser; print(int(dateparser.parse(sys.argv[1], settings="
                     "{'RETURN_AS_TIMEZONE_AWARE': True}).timestamp()))",
                     runs[0]["started_at"].get<std::string>()});
  REQUIRE(start.ok());
  CHECK(o["time"][0] == std::stoll(start.out));
  CHECK(o["time"][0] <= o["time"][1]);

  // No series at all: an error, not a file Otava cannot use.
  const auto none = export_cli(db, {"export", "--format", "otava", "--workload", "tbench"});
  CHECK(none.exit_code == 2);
  CHECK(none.err == "schedlab export: the runs exported have no cell of workload 'tbench'\n");
}

TEST_CASE(
    "export: the kernel an mmtests tree records is stated, and none is invented where it records "
    "none") {
  if (!export_has_module("jsonschema") || !export_has_module("dateparser"))
    SCHEDLAB_SKIP("Debian's python3-jsonschema or python3-dateparser is not installed");
  test::TempDir dir;
  // mmtests' layout: RUN/iter-0/kernel.version (uname -a), the hackbench
  // logs hackbench-GROUPS-I (the fixtures' real rt-tests outputs).
  const fs::path log = dir.path() / "work/log";
  const std::map<std::string, std::string> runs = {{"baseline", "6.1.0-18-amd64"},
                                                   {"patched", "6.1.0-rc1-patched"}};
  for (const auto& [run, release] : runs) {
    const fs::path iter = log / run / "iter-0";
    fs::create_directories(iter / "hackbench-process-pipes/logs");
    test::write_text(
        iter / "kernel.version",
        "Linux sut " + release + " #1 SMP PREEMPT_DYNAMIC Debian (2024-01-01) x86_64 GNU/Linux\n");
    for (int i = run == "baseline" ? 1 : 2; i <= 3; ++i)
      fs::copy_file(export_fixture(fmt::format("process-pipes-g2-l200.run{}.txt", i)),
                    iter / fmt::format("hackbench-process-pipes/logs/hackbench-2-{}", i));
  }
  const std::string db = dir.file("t.db");
  const auto imp = export_cli(db, {"import", "--mmtests", log.string()});
  INFO(imp.err);
  REQUIRE(imp.ok());
  const auto k = export_cli(
      db, {"export", "--format", "kcidb", "baseline", "patched", "-o", dir.file("k.json")});
  REQUIRE(k.ok());
  const auto valid = export_python({kChecker, "schema", kKcidbSchema, dir.file("k.json")});
  INFO(valid.out);
  CHECK(valid.ok());
  const Json report = Json::parse(test::read_text(dir.file("k.json")));
  REQUIRE(report["checkouts"].size() == 2);
  CHECK(report["checkouts"][0]["comment"] == "kernel 6.1.0-18-amd64");
  CHECK(report["builds"][1]["comment"] == "kernel 6.1.0-rc1-patched");
  CHECK(report["builds"][1]["misc"]["kernel_release"] == "6.1.0-rc1-patched");
  // Not built from a tree by schedlab: no commit, no build status.
  CHECK_FALSE(report["checkouts"][0].contains("git_commit_hash"));
  CHECK_FALSE(report["builds"][0].contains("status"));

  const auto o = export_cli(db, {"export", "--format", "otava", "-o", dir.file("o.csv")});
  REQUIRE(o.ok());
  const std::string header =
      test::read_text(dir.file("o.csv")).substr(0, test::read_text(dir.file("o.csv")).find('\n'));
  const std::string series = header.substr(header.rfind(',') + 1);
  const auto read = export_python({kChecker, "otava", dir.file("o.csv"), series});
  INFO(read.out << read.err);
  REQUIRE(read.ok());
  CHECK(Json::parse(read.out)["attributes"]["kernel"] ==
        Json{"6.1.0-18-amd64", "6.1.0-rc1-patched"});
  CHECK(Json::parse(read.out)["attributes"]["commit"] == Json{"", ""});
}

TEST_CASE(
    "export: -o writes what stdout shows through AtomicFile, and bad input is exit 2, by name") {
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  export_import_runs(db);
  const auto shown = export_cli(db, {"export", "--format", "kcidb"});
  REQUIRE(shown.ok());
  // A link at the name is replaced by the file, its target left alone.
  const std::string target = dir.file("target");
  test::write_text(target, "kept\n");
  fs::create_symlink(target, dir.file("out.json"));
  REQUIRE(export_cli(db, {"export", "--format", "kcidb", "-o", dir.file("out.json")}).ok());
  CHECK(test::read_text(dir.file("out.json")) == shown.out);
  CHECK_FALSE(fs::is_symlink(dir.file("out.json")));
  CHECK(test::read_text(target) == "kept\n");
  // A failed export leaves no file.
  const auto missing =
      export_cli(db, {"export", "--format", "kcidb", "nosuch", "-o", dir.file("none.json")});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "schedlab export: no run 'nosuch' in " + db + "\n");
  CHECK_FALSE(fs::exists(dir.file("none.json")));

  const auto typo = export_cli(db, {"export", "--format", "kcidb", "--workload", "hackbnch"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.starts_with(
      "schedlab export: unknown workload 'hackbnch' (did you mean 'hackbench'?)"));
  const auto origin = export_cli(db, {"export", "--format", "otava", "--origin", "lab"});
  CHECK(origin.exit_code == 2);
  CHECK(
      origin.err ==
      "schedlab export: --origin does nothing with --format otava: it applies to --format kcidb\n");
  const auto format = export_cli(db, {"export", "--format", "kcdb"});
  CHECK(format.exit_code == 2);
  CHECK(test::one_line(format.err)
            .find(test::one_line(
                "unknown format 'kcdb' (did you mean 'kcidb'?); known: kcidb, bmf, otava")) !=
        std::string::npos);
  const auto no_format = export_cli(db, {"export"});
  CHECK(no_format.exit_code == 2);
}

TEST_CASE("export: hostile names stay valid KCIDB and Otava, and stderr stays terminal-safe") {
  if (!export_has_module("jsonschema") || !export_has_module("dateparser"))
    SCHEDLAB_SKIP("Debian's python3-jsonschema or python3-dateparser is not installed");
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  // A right-to-left override, a comma and a quote in a variant and a run
  // name (control characters are refused at import), a failed cell of a
  // variant named with a colon and a percent sign.
  const std::string variant = "r\u202el,\"q";
  const auto imp = export_cli(
      db, {"import", "hackbench", variant + "=" + export_fixture("process-pipes-g2-l200.run1.txt"),
           export_fixture("process-pipes-g2-l200.run2.txt"),
           "a:b%=" + export_fixture("error-g0.txt"), "--name", "h,\"z"});
  INFO(imp.err);
  REQUIRE(imp.exit_code == 3);
  const auto k = export_cli(db, {"export", "--format", "kcidb", "-o", dir.file("k.json")});
  REQUIRE(k.ok());
  const auto valid = export_python({kChecker, "schema", kKcidbSchema, dir.file("k.json")});
  INFO(valid.out);
  CHECK(valid.ok());
  const Json report = Json::parse(test::read_text(dir.file("k.json")));
  CHECK(report["tests"][0]["misc"]["variant"] == variant);  // JSON keeps names as stored
  CHECK(report["tests"][1]["id"].get<std::string>().ends_with(":a%3Ab%25:hackbench-?:time:?"));

  const auto o = export_cli(db, {"export", "--format", "otava", "-o", dir.file("o.csv")});
  REQUIRE(o.ok());
  // stderr names the left-out series escaped, as a terminal may show it.
  CHECK(o.err.find("hackbench-?/groups=?/a:b%/time: no centre in 1 of 1 runs") !=
        std::string::npos);
  const std::string series = "hackbench-?/groups=2/r\\u202el,\"q/time";
  const auto read = export_python({kChecker, "otava", dir.file("o.csv"), series});
  INFO(read.out << read.err);
  REQUIRE(read.ok());
  CHECK(Json::parse(read.out)["attributes"]["run"] == Json{"h,\"z"});

  // A name longer than Bencher takes is an error naming it, not a cut name.
  const std::string long_variant(1100, 'v');
  REQUIRE(export_cli(db, {"import", "hackbench",
                          long_variant + "=" + export_fixture("process-pipes-g2-l200.run1.txt"),
                          "--name", "long"})
              .ok());
  const auto bmf = export_cli(db, {"export", "--format", "bmf", "long"});
  CHECK(bmf.exit_code == 2);
  CHECK(test::one_line(bmf.err).starts_with(test::one_line(
      "schedlab export: --format bmf: the benchmark name 'hackbench-?/groups=2/vvv")));
  CHECK(test::one_line(bmf.err).find(test::one_line("is over Bencher's 1024 characters")) !=
        std::string::npos);
}

TEST_CASE("export: its man page and bash completion come from its option table") {
  test::TempDir dir;
  const auto docs = test::schedlab_cmd({"generate-docs", "--man-dir", dir.file("man1"),
                                        "--bash-completion", dir.file("schedlab.bash")});
  REQUIRE(docs.ok());
  const std::string page = test::read_text(dir.file("man1/schedlab-export.1"));
  CHECK(page.find("KCIDB") != std::string::npos);
  CHECK(page.find("EXAMPLES") != std::string::npos);
  const std::string script = R"(
source "$1"
c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _schedlab; echo "${COMPREPLY[*]}"; }
c schedlab exp
c schedlab export --format ''
c schedlab export --workload hack
c schedlab export --origin ''
)";
  LocalHost host;
  Command cmd;
  cmd.argv = {"bash", "-c", script, "bash", dir.file("schedlab.bash")};
  const auto bash = host.run(cmd);
  INFO(bash.out << bash.err);
  REQUIRE(bash.ok());
  CHECK(bash.out == "export\nkcidb bmf otava\nhackbench\n\n");
}

TEST_CASE("export --format otava and list name every kernel of a run of kernels as columns") {
  // hostile9: a run measuring HEAD and @WORKTREE on their own guests was
  // listed and exported under the first guest's release (and commit) alone.
  test::TempDir dir;
  const std::string db = dir.file("k.db");
  const auto imported =
      export_cli(db, {"import", "hackbench", "--name", "cols", "--kernel", "6.1.0",
                      "HEAD/default=" + export_fixture("process-pipes-g2-l200.run1.txt"),
                      export_fixture("process-pipes-g2-l200.run2.txt"),
                      "WORKTREE/default=" + export_fixture("process-pipes-g2-l200.run3.txt"),
                      export_fixture("process-pipes-g2-l200.run1.txt")});
  REQUIRE(imported.ok());
  const std::string commit = "334d98fc6ec52d6f32cbb283919265172863c733";
  {
    Store store(db);
    store.runs_table().set_manifest_member(
        1, {"kernel_columns"},
        Json::array(
            {{{"column", "HEAD"}, {"lab", {{"release", "6.1.0"}, {"build", {{"commit", commit}}}}}},
             {{"column", "WORKTREE"},
              {"lab", {{"release", "6.1.0+"}, {"build", {{"commit", commit}}}}}}})
            .dump());
  }
  const auto list = export_cli(db, {"list"});
  REQUIRE(list.ok());
  CHECK(list.out.find(" HEAD 6.1.0, WORKTREE 6.1.0+ ") != std::string::npos);
  const auto o = export_cli(db, {"export", "--format", "otava"});
  INFO(o.err);
  REQUIRE(o.ok());
  CHECK(o.out.find(fmt::format(",cols,\"HEAD 6.1.0, WORKTREE 6.1.0+\",\"HEAD {0}, WORKTREE {0}\",",
                               commit)) != std::string::npos);
  // A run of one kernel keeps its release alone.
  const auto one = export_cli(db, {"import", "hackbench", "--name", "one", "--kernel", "6.12.0",
                                   "base=" + export_fixture("process-pipes-g2-l200.run1.txt")});
  REQUIRE(one.ok());
  const auto both = export_cli(db, {"list"});
  CHECK(both.out.find(" 6.12.0 ") != std::string::npos);
}
