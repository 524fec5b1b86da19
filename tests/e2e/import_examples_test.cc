// The import examples of README.md run as written, through bash, on real
// hackbench outputs (the fixtures): a glob after VARIANT= that bash leaves
// as it is expands in schedlab, sorted; one that matches nothing is an
// error naming it.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "runner/hosts/local_host.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
namespace fs = std::filesystem;

namespace {

std::string hackbench_output(const std::string& p) {
  return test::fixture("hackbench/" + p).string();
}

void copy_to(const std::string& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// What the examples name: imp/base-N.txt and imp/patched-N.txt (three
// iterations of hackbench, processes and threads), hackbench-2.txt and
// hackbench-4.txt (a sweep), and an mmtests tree work/log of two runs.
void lay_out(const fs::path& dir) {
  for (int i = 1; i <= 3; ++i) {
    copy_to(hackbench_output(fmt::format("process-pipes-g2-l200.run{}.txt", i)),
            dir / fmt::format("imp/base-{}.txt", i));
    copy_to(hackbench_output(fmt::format("thread-pipes-g2-l200.run{}.txt", i)),
            dir / fmt::format("imp/patched-{}.txt", i));
    for (const char* run : {"baseline", "patched"})
      copy_to(hackbench_output(fmt::format("process-pipes-g2-l200.run{}.txt", i)),
              dir / "work/log" / run / "iter-0/hackbench-process-pipes/logs" /
                  fmt::format("hackbench-2-{}", i));
  }
  copy_to(hackbench_output("process-pipes-g2-l200.run1.txt"), dir / "hackbench-2.txt");
  copy_to(hackbench_output("process-pipes-g4-l1000.txt"), dir / "hackbench-4.txt");
}

// The lines of README.md's sh blocks that run `schedlab COMMAND` (import,
// export) with no placeholder (WORKLOAD, FILE..., [--param k=v]) left to
// fill in.
std::vector<std::string> readme_examples(const std::string& command) {
  std::istringstream readme(test::read_text(SCHEDLAB_SOURCE_DIR "/README.md"));
  const std::regex placeholder(R"((^|\s)(\[|[A-Z][A-Z_]*(\s|=|$))|\.\.\.)");
  std::vector<std::string> out;
  bool in_block = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.starts_with("```")) {
      in_block = !in_block;
      continue;
    }
    if (!in_block || !line.starts_with("schedlab " + command + " ")) continue;
    if (const auto comment = line.find("  #"); comment != std::string::npos) line.resize(comment);
    while (line.ends_with(' ')) line.pop_back();
    if (!std::regex_search(line, placeholder)) out.push_back(line);
  }
  return out;
}

// LINE run by bash in DIR, `schedlab` the binary under test, into DB.
ExecResult bash_in(const fs::path& dir, const std::string& line, const std::string& db) {
  LocalHost host;
  Command cmd;
  cmd.argv = {
      "bash", "-c",         "cd \"$1\" && bin=\"$2\" && schedlab() { \"$bin\" \"$@\"; } && " + line,
      "bash", dir.string(), SCHEDLAB_BINARY};
  cmd.env = {{"SCHEDLAB_DB", db}};
  cmd.timeout = std::chrono::seconds(120);
  return host.run(cmd);
}

}  // namespace

TEST_CASE("import: README.md's examples run as written on real outputs") {
  const auto examples = readme_examples("import");
  REQUIRE(examples.size() >= 5);
  const std::string glob =
      "schedlab import hackbench base=imp/base-*.txt patched=imp/patched-*.txt --name patch-v2";
  const auto at = std::find(examples.begin(), examples.end(), glob);
  REQUIRE(at != examples.end());
  test::TempDir dir;
  lay_out(dir.path());
  for (std::size_t i = 0; i < examples.size(); ++i) {
    INFO(examples[i]);
    const std::string db = dir.file(fmt::format("example-{}.db", i));
    const auto r = bash_in(dir.path(), examples[i], db);
    INFO(r.out << r.err);
    CHECK(r.ok());
    CHECK(r.err.find("imported run 1 '") != std::string::npos);
  }
  // The glob after VARIANT=: every file of each variant, in sorted order.
  Store store(dir.file(fmt::format("example-{}.db", at - examples.begin())),
              Store::Access::kReadOnly);
  const auto run = store.runs_table().find_run_by_name("patch-v2");
  REQUIRE(run);
  const auto source = nlohmann::json::parse(run->config_text);
  CHECK(source["inputs"] == nlohmann::json{"base=imp/base-1.txt", "base=imp/base-2.txt",
                                           "base=imp/base-3.txt", "patched=imp/patched-1.txt",
                                           "patched=imp/patched-2.txt",
                                           "patched=imp/patched-3.txt"});
  CHECK(store.iterations_table().iterations(run->id, true).size() == 6);
}

TEST_CASE("import: a glob that matches nothing is an error naming it, and nothing is imported") {
  test::TempDir dir;
  lay_out(dir.path());
  const std::string db = dir.file("none.db");
  const auto r = bash_in(
      dir.path(), "schedlab import hackbench base=imp/base-*.txt patched=imp/patchd-*.txt --name x",
      db);
  CHECK(r.exit_code == 2);
  CHECK(r.err == "schedlab import: 'imp/patchd-*.txt': the glob matches no file\n");
  CHECK_FALSE(fs::exists(db));
  // A file whose own name holds glob characters is that file.
  copy_to(hackbench_output("process-pipes-g2-l200.run1.txt"), dir.path() / "imp/run[1].txt");
  const auto literal =
      bash_in(dir.path(), "schedlab import hackbench 'base=imp/run[1].txt' --name y", db);
  INFO(literal.err);
  CHECK(literal.ok());
  // A glob quoted after --variant is expanded too.
  const auto quoted =
      bash_in(dir.path(), "schedlab import hackbench --variant base 'imp/base-*.txt' --name z", db);
  INFO(quoted.err);
  CHECK(quoted.ok());
  CHECK(quoted.err.find("imported run 2 'z': 3 files") != std::string::npos);
}

// Debian's python3 reading what an export wrote as its tool would
// (tests/export/check_export.py).
static ExecResult read_export_file(const std::vector<std::string>& args) {
  std::vector<std::string> all = {SCHEDLAB_SOURCE_DIR "/tests/export/check_export.py"};
  all.insert(all.end(), args.begin(), args.end());
  return test::debian_python(all);
}

TEST_CASE(
    "export: README.md's examples run as written after its import, each file read by its tool's "
    "rules") {
  LocalHost host;
  if (!host.run({.argv = {"/usr/bin/python3", "-c", "import jsonschema, dateparser"}}).ok())
    SCHEDLAB_SKIP("Debian's python3-jsonschema or python3-dateparser is not installed");
  const auto examples = readme_examples("export");
  REQUIRE(examples.size() == 3);
  test::TempDir dir;
  lay_out(dir.path());
  const std::string db = dir.file("exports.db");
  REQUIRE(
      bash_in(
          dir.path(),
          "schedlab import hackbench base=imp/base-*.txt patched=imp/patched-*.txt --name patch-v2",
          db)
          .ok());
  for (const auto& line : examples) {
    INFO(line);
    const auto r = bash_in(dir.path(), line, db);
    INFO(r.out << r.err);
    CHECK(r.ok());
    CHECK(r.err.find("schedlab export: wrote ") != std::string::npos);
  }
  const std::string schemas = SCHEDLAB_SOURCE_DIR "/tests/export/";
  const auto kcidb = read_export_file(
      {"schema", schemas + "kcidb-v5.3.schema.json", dir.file("patch-v2.kcidb.json")});
  INFO(kcidb.out << kcidb.err);
  CHECK(kcidb.ok());
  const auto bmf =
      read_export_file({"schema", schemas + "bmf.schema.json", dir.file("patch-v2.bmf.json")});
  INFO(bmf.out << bmf.err);
  CHECK(bmf.ok());
  // Otava: the series the header names after time, run, kernel, commit.
  const std::string csv = test::read_text(dir.file("hackbench.csv"));
  const std::string header = csv.substr(0, csv.find('\n'));
  REQUIRE(
      header ==
      "time,run,kernel,commit,hackbench-?/groups=2/base/time,hackbench-?/groups=2/patched/time");
  const auto otava =
      read_export_file({"otava", dir.file("hackbench.csv"), "hackbench-?/groups=2/base/time",
                        "hackbench-?/groups=2/patched/time"});
  INFO(otava.out << otava.err);
  REQUIRE(otava.ok());
  CHECK(nlohmann::json::parse(otava.out)["attributes"]["run"] == nlohmann::json{"patch-v2"});
}
