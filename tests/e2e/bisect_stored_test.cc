// bisect status (text and page) on crafted and hostile stored bisections:
// hostile6 (issue 44) 13-19 and 21. A row that does not hold is an error
// naming the session and the field (never a crash or a read past a vector);
// stored text reaches the terminal escaped.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/bisect_log.h"
#include "results/store.h"
#include "tests/support/one_line.h"
#include "tests/support/raw_sql.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/temp_dir.h"
#include "tests/support/value_config.h"

using namespace schedlab;
using namespace schedlab::test;
using nlohmann::json;

namespace {

// hostile6's SPEC with CANDIDATES and LABELS.
std::string spec(const json& candidates, const json& labels) {
  return json{{"mode", "kernels"},
              {"candidates", candidates},
              {"labels", labels},
              {"config_path", "c"},
              {"config_text", ""},
              {"metric", "t"},
              {"params", json::object()},
              {"repo", ""},
              {"hook_reboots", false},
              {"reboot_timeout_s", 1},
              {"uname", ""},
              {"test", "welch"},
              {"alpha", 0.05},
              {"min_effect_pct", 0},
              {"max_iterations", 30},
              {"hook", {{"argv", json::array()}, {"cwd", ""}, {"timeout_ms", 1}}}}
      .dump();
}

const json kThree = {"a", "b", "c"};
const std::string kDone =
    R"({"first_bad":2,"last_good":1,"skipped_between":[],"measured_candidates":1,"skipped_candidates":0})";

// A database holding one bisection of STATUS with SPEC_JSON and RESULT, and
// the decisions SQL inserts (session 1).
std::string crafted(const TempDir& dir, const std::string& spec_json, BisectStatus status,
                    const std::string& result, const std::string& decisions_sql = "") {
  const std::string path = dir.file("b.db");
  {
    Store store(path);
    const auto id = store.bisect_log().create_bisect({.status = status, .spec_json = spec_json});
    store.bisect_log().set_bisect_status(id, status, result);
  }
  if (!decisions_sql.empty()) REQUIRE(exec_raw(path, decisions_sql));
  return path;
}

// One decision at POSITION with the given column values (SQL text).
std::string decision(int position,
                     const std::string& values = "5, 100, 0.5, 0.001, '[]', '', 0.05, 0.05",
                     const std::string& decided_by = "welch") {
  return fmt::format(
      "INSERT INTO bisect_decisions (session_id, position, candidate, verdict, decided_by, n, "
      "centre, p_good, p_bad, run_ids_json, note, level_good, level_bad, decided_at) VALUES "
      "(1, {}, 'b', 'GOOD', '{}', {}, 'x');",
      position, decided_by, values);
}

// `bisect status` as text and as a page both refuse the database with
// MESSAGE, after "bisection 1: " when it is about the stored session itself.
void both_refuse(const std::string& db, const std::string& message,
                 const std::string& session = "bisection 1: ") {
  for (const std::vector<std::string>& format :
       {std::vector<std::string>{}, {"--format", "html"}}) {
    std::vector<std::string> args = {"bisect", "status", "--db", db};
    args.insert(args.end(), format.begin(), format.end());
    const auto r = schedlab_cmd(args);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(one_line(r.err) == "schedlab: " + session + message + " ");
  }
}

}  // namespace

TEST_CASE(
    "bisect status refuses a stored spec without its candidates or labels (hostile6 14, 15)") {
  TempDir dir;
  both_refuse(
      crafted(dir, spec(json::array(), json::array()), BisectStatus::kRunning, "{}"),
      "its stored spec has 0 candidates; a bisection has 2 at least (the good and the bad)");
  TempDir dir2;
  both_refuse(crafted(dir2, spec(kThree, {"a"}), BisectStatus::kRunning, "{}"),
              "its stored spec has 1 label for 3 candidates");
  TempDir dir3;
  both_refuse(crafted(dir3, R"({"mode":"kernels","candidates":"x"})", BisectStatus::kRunning, "{}"),
              "its stored spec's candidates is not of the right type");
}

TEST_CASE("bisect status refuses a result whose ends are not candidates (hostile6 16)") {
  for (const auto& [first_bad, message] :
       {std::pair{"1000", "its result's first_bad is not one of the 3 candidates' positions"},
        {"-1", "its result's first_bad is not one of the 3 candidates' positions"},
        {"1", "its result's last_good is not before its first_bad"}}) {
    TempDir dir;
    const std::string result = fmt::format(
        R"({{"first_bad":{},"last_good":1,"skipped_between":[],"measured_candidates":1,"skipped_candidates":0}})",
        first_bad);
    both_refuse(crafted(dir, spec(kThree, kThree), BisectStatus::kDone, result), message);
  }
}

TEST_CASE(
    "bisect status refuses a decision's non-finite or out-of-range numbers (hostile6 17, 18)") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {decision(1, "5, 9e999, 9e999, -1, '[]', '', 7, -1"),
       "decision 1 (position 1): centre inf is not a finite number"},
      {decision(1, "5, 100, 9e999, 0.5, '[]', '', 0.05, 0.05"),
       "decision 1 (position 1): p_good inf is not in [0, 1]"},
      {decision(1, "5, 100, 0.5, -1, '[]', '', 0.05, 0.05"),
       "decision 1 (position 1): p_bad -1 is not in [0, 1]"},
      {decision(1, "5, 100, 0.5, 0.5, '[]', '', 7, 0.05"),
       "decision 1 (position 1): level_good 7 is not in (0, 1)"},
      {decision(1, "5, 100, 0.5, 0.5, '[]', '', 0.05, -1"),
       "decision 1 (position 1): level_bad -1 is not in (0, 1)"},
      {decision(1, "5, 100, 0.5, 0.5, '[\"x\"]', '', 0.05, 0.05"),
       "decision 1 (position 1): run ids '[\"x\"]' are not a list of ids"},
      {decision(99), "decision 1: position 99 is not one of the 3 candidates"},
      {decision(-1), "decision 1: position -1 is not one of the 3 candidates"},
  };
  for (const auto& [sql, message] : cases) {
    TempDir dir;
    both_refuse(crafted(dir, spec(kThree, kThree), BisectStatus::kRunning, "{}", sql), message);
  }
}

TEST_CASE("bisect status escapes stored text and cuts labels by character (hostile6 13, 19, 21)") {
  TempDir dir;
  // 13: ESC, OSC and a right-to-left override in labels, note, decided_by,
  // error rates; 19: a label whose é straddles byte 24; 21: 200 KB of 0x80.
  const json labels = {"good\x1b[2Jk", "1234567 abcdefghijklmno\xc3\xa9 utf8 cut", "bad\x07k"};
  const std::string zero_width(200'000, '\x80');
  const std::string db = crafted(
      dir, spec({"g", "m", "b"}, labels), BisectStatus::kDone,
      R"({"first_bad":2,"last_good":1,"skipped_between":[],"measured_candidates":1,"skipped_candidates":0,"error_rates":"r\u001b]0;x\u0007"})",
      decision(1, "5, 101, 0.5, 0.001, '[]', 'n\xe2\x80\xaeote\x1b]0;pwned\x07', 0.05, 0.05",
               "welch\x1b[31m") +
          decision(2, "5, 120, 0.5, 0.5, '[]', '', 0.05, 0.05",
                   zero_width + " x " + std::string(150, 'a')));
  const auto text = schedlab_cmd({"bisect", "status", "--db", db});
  INFO(text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find('\x1b') == std::string::npos);
  CHECK(text.out.find('\x07') == std::string::npos);
  CHECK(text.out.find("\xe2\x80\xae") == std::string::npos);
  CHECK(text.out.find('\x80') == std::string::npos);
  const std::string flat = one_line(text.out);
  CHECK(flat.find("between good\\x1b[2Jk and bad\\x07k") != std::string::npos);
  CHECK(flat.find("n\\u202eote\\x1b]0;pwned\\x07") != std::string::npos);
  CHECK(flat.find("welch\\x1b[31m") != std::string::npos);
  CHECK(flat.find("first bad: bad\\x07k") != std::string::npos);
  CHECK(flat.find("error rates: r\\x1b]0;x\\x07") != std::string::npos);
  // The 33-column label is cut to 10 + "..." + 11 characters, é whole.
  CHECK(flat.find("1234567 ab...o\xc3\xa9 utf8 cut") != std::string::npos);
  const auto page = schedlab_cmd({"bisect", "status", "--db", db, "--format", "html"});
  INFO(page.err);
  CHECK(page.exit_code == 0);
  CHECK(page.out.find("abcdefghijklmno\xc3\xa9 utf8 cut") != std::string::npos);
}

TEST_CASE("bisect status, continue and reset create no database at a mistyped --db (hostile7)") {
  // They made a 150 KB database there and said "no bisection in" it; merge
  // then took the new file as an input.
  TempDir dir;
  for (const char* what : {"status", "continue", "reset"}) {
    const std::string db = dir.file(std::string("nx-") + what + ".db");
    const auto r = schedlab_cmd({"bisect", what, "--db", db});
    INFO(what << ": " << r.err);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.err, Catch::Contains("no database at " + db));
    CHECK_FALSE(std::filesystem::exists(db));
  }
}

TEST_CASE("bisect start refuses a --param given twice, naming both values (hostile16)") {
  TempDir dir;
  const std::string db = dir.file("b.db");
  const auto r = schedlab_cmd({"bisect", "start", "--db", db, "--good", "a", "--bad", "b",
                               "--kernels", "a,b", "--config", dir.file("none.yaml"), "--metric",
                               "time", "--param", "groups=2", "--param", "groups=3"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.err, Catch::Contains("--param groups=2 and --param groups=3: 'groups' is given "
                                    "twice; give it once"));
  CHECK_FALSE(std::filesystem::exists(db));
}

TEST_CASE(
    "bisect status: a spec selecting several points of its runs is refused as text and page "
    "(hostile8 A16)") {
  // A crafted done session whose metric (no params) is measured at two
  // points of the runs behind a decision: the page refused (it reads the
  // samples), the text printed the decisions. Both refuse now, alike.
  TempDir dir;
  const std::string db = dir.file("b.db");
  two_value_runs(dir, db);
  REQUIRE(exec_raw(db, "UPDATE iterations SET row = 'other' WHERE run_id = 1 AND iteration = 0"));
  crafted(dir, spec(kThree, kThree), BisectStatus::kDone, kDone,
          decision(1, "5, 100, 0.5, 0.001, '[1]', '', 0.05, 0.05"));
  both_refuse(db,
              "metric 't' is measured at several points (reader/other, reader/); pick one with "
              "--param NAME=VALUE",
              "");
}

TEST_CASE("bisect continue runs no hook or config of a bisection started elsewhere (hostile11)") {
  // hostile11: a crafted running bisection's hook (touch FILE) and config
  // ran at `bisect continue --db crafted.db`.
  TempDir dir;
  const std::string touched = dir.file("PWNED");
  json s = json::parse(spec(kThree, kThree));
  s["hook"]["argv"] = {"touch", touched};
  s["hook"]["timeout_ms"] = 10000;
  const std::string db = crafted(dir, s.dump(), BisectStatus::kRunning, "{}");
  auto r = schedlab_cmd({"bisect", "continue", "--db", db});
  CHECK(r.exit_code == 2);
  CHECK(one_line(r.err) ==
        one_line("schedlab bisect: bisection 1 was not started by this user on this machine (a "
                 "database from elsewhere, or a schedlab before such bisections were marked): its "
                 "hook and config are not run; `schedlab bisect status` shows it, `schedlab "
                 "bisect start` begins one here\n"));
  CHECK_FALSE(std::filesystem::exists(touched));
  // A tag copied from another spec does not cover this one.
  s["local_tag"] = 12345;
  const std::string tagged = crafted(dir, s.dump(), BisectStatus::kRunning, "{}");
  CHECK(schedlab_cmd({"bisect", "continue", "--db", tagged}).exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(touched));
}
