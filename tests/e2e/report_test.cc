// schedlab report and compare --format markdown|csv, end to end: the real
// binary over databases written by bench/report_db (edge cases: failed
// cells, a single iteration, a constant cell, 64 points), read back by
// independent parsers (Python's csv, Debian's python3-markdown, headless
// Chromium through tests/browser/check_report.py).
#include <fmt/format.h>
#include <sqlite3.h>

#include <boost/regex.hpp>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "base/file.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/variants_table.h"
#include "runner/hosts/local_host.h"
#include "tests/support/one_line.h"
#include "tests/support/run_schedlab.h"
#include "tests/support/skip.h"
#include "tests/support/sweep_db.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

namespace {

std::string edge_db(test::TempDir& dir) {
  const std::string db = dir.file("edge.db");
  LocalHost host;
  Command cmd;
  cmd.argv = {SCHEDLAB_REPORT_DB, "edge", db};
  const auto r = host.run(cmd);
  INFO(r.err);
  REQUIRE(r.ok());
  return db;
}

ExecResult python(const std::vector<std::string>& args) { return test::debian_python(args); }

// A finished run NAME declaring hackbench's time in UNIT (lower is better).
std::int64_t hackbench_time_run(Store& store, const std::string& name, const std::string& unit) {
  const auto run = store.runs_table().create_run({.name = name,
                                                  .config_path = "c.yaml",
                                                  .config_text = "",
                                                  .config_sha256 = "0",
                                                  .manifest_json = "{}",
                                                  .status = RunStatus::kFinished,
                                                  .started_at = "2026-12-01T10:00:00Z"});
  store.metrics_table().add_metric(
      run, {"hackbench", "time", unit, Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  return run;
}

// hackbench iterations of one variant at one point, a `time` sample each.
void add_time_iterations(Store& store, std::int64_t run, std::int64_t variant,
                         const std::string& block, const std::string& row,
                         const std::string& params, const std::vector<double>& times) {
  for (std::size_t i = 0; i < times.size(); ++i) {
    IterationRow it;
    it.run_id = run;
    it.variant_id = variant;
    it.workload = "hackbench";
    it.block = block;
    it.row = row;
    it.params_json = params;
    it.iteration = static_cast<int>(i);
    it.samples = {{"time", times[i], std::nullopt}};
    store.iterations_table().add_iteration(it);
  }
}

long long stored_samples(const std::string& db) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM samples", -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const long long n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

}  // namespace

TEST_CASE("compare --format csv: one line per stored sample, loaded by Python's csv") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const auto csv = test::schedlab_cmd({"compare", "--db", db, "--format", "csv"});
  INFO(csv.err);
  REQUIRE(csv.ok());
  const std::string file = dir.file("out.csv");
  test::write_text(file, csv.out);
  const auto py = python({"-c",
                          "import csv,sys\n"
                          "rows=list(csv.DictReader(open(sys.argv[1],newline='')))\n"
                          "print(len(rows))\n"
                          "print(sorted(rows[0].keys()))\n"
                          "print(sum(1 for r in rows if r['variant']=='sched-batch' and r['groups']=='6'))\n"
                          "print(sum(float(r['value']) for r in rows if r['groups']=='7'))\n",
                          file});
  INFO(py.err);
  REQUIRE(py.ok());
  std::istringstream lines(py.out);
  std::string n, keys, batch6, sum7;
  std::getline(lines, n);
  std::getline(lines, keys);
  std::getline(lines, batch6);
  std::getline(lines, sum7);
  CHECK(std::stoll(n) == stored_samples(db));
  CHECK(keys ==
        "['block', 'groups', 'iteration', 'kernel', 'loops', 'metric', 'mode', 'pair', 'row', "
        "'run', 'run_id', 'unit', 'value', 'variant', 'workload']");
  CHECK(batch6 == "1");  // the point measured once
  // The stored values themselves, as the compare JSON has them.
  const auto json = test::schedlab_cmd({"compare", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  double sum = 0;
  const auto doc = nlohmann::json::parse(json.out);  // kept: the loop refers into it
  for (const auto& cell : doc["blocks"][0]["rows"][6]["cells"])
    for (double v : cell["samples"]) sum += v;
  CHECK(std::stod(sum7) == Approx(sum).epsilon(1e-12));
}

TEST_CASE("compare --format csv: formula cells neutralised, numbers kept, names back in pandas") {
  if (!python({"-c", "import pandas"}).ok())
    SCHEDLAB_SKIP("Debian's python3-pandas is not installed");
  test::TempDir dir;
  const std::string db = dir.file("csv.db");
  // Cells a spreadsheet would run (OWASP's CSV injection examples), one
  // already quoted, a name that is a plain number, and negative samples.
  // (Ending in a right-to-left override: issue 44.)
  const std::string run_name = "=HYPERLINK(\"http://x\",\"y\")\xe2\x80\xae";
  const std::vector<std::string> variants = {
      "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "'quoted", "\tTab", "\rCR", "-5",
      // Issue 44: terminal control and a right-to-left override, escaped
      // (and a name that looks escaped already: read back as it is).
      "\x1b]0;pwned\x07", "a\\x1bb", "\xe2\x80\xaetxt.exe"};
  {
    Store store(db);
    const auto run = hackbench_time_run(store, run_name, "=unit");
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const auto v =
          store.variants_table().add_variant({0, run, variants[k], static_cast<int>(k), "{}"});
      add_time_iterations(store, run, v, "-block", "-1", R"({"mode":"=1+1","groups":-1})",
                          {-0.25 * double(k + 1), -0.25 * double(k + 1) - 1e-5});
    }
  }
  const auto csv = test::schedlab_cmd({"compare", "--db", db, "--format", "csv"});
  const auto raw = test::schedlab_cmd({"compare", "--db", db, "--format", "csv", "--csv-raw"});
  INFO(csv.err << raw.err);
  REQUIRE(csv.ok());
  REQUIRE(raw.ok());
  const std::string file = dir.file("out.csv"), raw_file = dir.file("raw.csv");
  test::write_text(file, csv.out);
  test::write_text(raw_file, raw.out);
  // Every cell as a spreadsheet sees it (Python's csv): none begins a
  // formula unless it is a plain number. Then pandas, with the README's
  // line that takes the ' back off.
  const auto py = python({"-c", R"py(
import csv, json, sys
import pandas as pd
bad = [c for row in csv.reader(open(sys.argv[1], newline=''))
       for c in row if c[:1] in ('=', '+', '-', '@', '\t', '\r')
       and not c.lstrip('+-').replace('.', '', 1).replace('e-', '', 1).isdigit()]
df = pd.read_csv(sys.argv[1])
dtypes = {c: str(df[c].dtype) for c in ('value', 'groups', 'run_id')}
t = df.select_dtypes("object").columns; df[t] = df[t].apply(lambda c: c.str.removeprefix("'").str.encode("latin-1", "backslashreplace").str.decode("unicode_escape"))
raw = pd.read_csv(sys.argv[2], dtype=str, keep_default_na=False)
print(json.dumps({'bad': bad, 'dtypes': dtypes,
  'values': df['value'].tolist(), 'variants': df['variant'].astype(str).tolist(),
  'runs': sorted(set(df['run'])), 'modes': sorted(set(df['mode'])),
  'units': sorted(set(df['unit'])), 'blocks': sorted(set(df['block'])),
  'raw_variants': raw['variant'].tolist(), 'raw_runs': sorted(set(raw['run']))}))
)py",
                          file, raw_file});
  INFO(py.out << py.err);
  REQUIRE(py.ok());
  const auto got = nlohmann::json::parse(py.out);
  CHECK(got["bad"].empty());
  CHECK(got["dtypes"]["value"] == "float64");
  CHECK(got["dtypes"]["groups"] == "int64");
  CHECK(got["dtypes"]["run_id"] == "int64");
  std::vector<double> want_values;
  std::vector<std::string> want_variants;
  for (std::size_t k = 0; k < variants.size(); ++k)
    for (int i = 0; i < 2; ++i) {
      want_values.push_back(-0.25 * double(k + 1) - 1e-5 * i);
      want_variants.push_back(variants[k]);
    }
  CHECK(got["values"].get<std::vector<double>>() == want_values);
  CHECK(got["variants"].get<std::vector<std::string>>() == want_variants);
  CHECK(got["runs"] == nlohmann::json::array({run_name}));
  CHECK(got["modes"] == nlohmann::json::array({"=1+1"}));
  CHECK(got["units"] == nlohmann::json::array({"=unit"}));
  CHECK(got["blocks"] == nlohmann::json::array({"-block"}));
  // --csv-raw: the cells as stored.
  CHECK(got["raw_variants"].get<std::vector<std::string>>() == want_variants);
  CHECK(got["raw_runs"] == nlohmann::json::array({run_name}));
  CHECK(csv.out.find("\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\\u202e\",") != std::string::npos);
  CHECK(csv.out.find(",-5,") != std::string::npos);  // a plain number stays one
  // No terminal control or bidi character reaches the default CSV.
  for (const char* raw_char : {"\x1b", "\x07", "\r", "\t", "\xe2\x80\xae"})
    CHECK(csv.out.find(raw_char) == std::string::npos);
  CHECK(csv.out.find(R"(\x1b]0;pwned\x07)") != std::string::npos);
  CHECK(csv.out.find(R"(\u202etxt.exe)") != std::string::npos);
  // Nor the text table, list, or the report's title (the run's name).
  const auto text = test::schedlab_cmd({"compare", "--db", db, "--wide"});
  const auto list = test::schedlab_cmd({"list", "--db", db});
  REQUIRE(test::schedlab_cmd({"report", "--db", db, "-o", dir.file("r.html")}).ok());
  const std::string title = read_file(dir.file("r.html")).substr(0, 400);
  for (const std::string& out : {text.out, list.out, title})
    for (const char* raw_char : {"\x1b", "\x07", "\xe2\x80\xae"})
      CHECK(out.find(raw_char) == std::string::npos);
  CHECK(text.out.find(R"(\u202etxt.exe)") != std::string::npos);
  CHECK(title.find(R"(\u202e</title>)") != std::string::npos);
  // Every cell of the page, as the title (issue 44: the tables' cells were
  // HTML-escaped only), and the plots' names: the page but its vendored
  // scripts has none raw.
  std::string page = read_file(dir.file("r.html"));
  for (std::size_t at; (at = page.find("<script>")) != std::string::npos;) {
    const auto end = page.find("</script>", at);
    const std::string body = page.substr(at + 8, end - at - 8);
    // Vega's own library is left out, the plots' data (JSON) kept.
    page.replace(at, end + 9 - at,
                 body.starts_with("!function") || body.size() > 200'000 ? "" : body);
  }
  for (const char* raw_char : {"\x1b", "\x07", "\xe2\x80\xae"})
    CHECK(page.find(raw_char) == std::string::npos);
  CHECK(page.find(R"(<th>\x1b]0;pwned\x07)") != std::string::npos);
}

TEST_CASE("compare --format markdown renders as tables (python3-markdown)") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const auto md = test::schedlab_cmd({"compare", "--db", db, "--format", "markdown"});
  INFO(md.err);
  REQUIRE(md.ok());
  const std::string file = dir.file("out.md");
  test::write_text(file, md.out);
  const auto py = python({"-c",
                          "import markdown,sys\n"
                          "print(markdown.markdown(open(sys.argv[1]).read(), extensions=['tables']))\n",
                          file});
  INFO(py.err);
  REQUIRE(py.ok());
  INFO(py.out.substr(0, 3000));
  CHECK(py.out.find("<table>") != std::string::npos);
  CHECK(py.out.find("<th style=\"text-align: right;\">sched-batch</th>") != std::string::npos);
  CHECK(py.out.find("<td style=\"text-align: right;\">FAIL</td>") != std::string::npos);
  // The * marker stays text, not emphasis.
  CHECK(py.out.find("<em>") == std::string::npos);
  CHECK(py.out.find("failed iterations:") != std::string::npos);
  // The same numbers as the text table: its first row's cells.
  const auto text = test::schedlab_cmd({"compare", "--db", db});
  REQUIRE(text.ok());
  boost::smatch m;
  const std::string t = text.out;
  REQUIRE(boost::regex_search(t, m, boost::regex(R"(Amean\s+1\s+(\d+\.\d+) \(\s*0\.00%\)\s+(\d+\.\d+))")));
  CHECK(md.out.find(fmt::format("| Amean | 1 | {} (0.00%) | {} ", m[1].str(), m[2].str())) !=
        std::string::npos);
}

TEST_CASE("report: the HTML tables hold compare --format json's numbers, and say why no interval") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const std::string html_file = dir.file("edge.html");
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", html_file});
  INFO(rep.err);
  REQUIRE(rep.ok());
  const auto json = test::schedlab_cmd({"compare", "--db", db, "--format", "json"});
  REQUIRE(json.ok());
  const auto doc = nlohmann::json::parse(json.out);
  const std::string html = read_file(html_file);
  // No network: nothing is fetched from anywhere.
  CHECK(html.find("src=\"http") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);

  std::map<std::tuple<int, int, int>, std::string> cells;
  std::map<std::tuple<int, int, int>, int> ns;  // each cell's n, on the cell
  const boost::regex td(
      R"re(<td class="[a-z]*" data-block="(\d+)" data-row="(\d+)" data-col="(\d+)" data-n="(\d+)">(.*?)</td>)re");
  for (auto it = boost::sregex_iterator(html.begin(), html.end(), td); it != boost::sregex_iterator(); ++it) {
    const std::tuple key{std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])};
    cells[key] = (*it)[5];
    ns[key] = std::stoi((*it)[4]);
  }
  std::size_t checked = 0, no_interval = 0;
  const auto& blocks = doc["blocks"];
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const int precision = blocks[b]["metric"]["precision"];
    const auto& rows = blocks[b]["rows"];
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (const auto& cell : rows[r]["cells"]) {
        const int col = cell["column"];
        INFO("block " << b << " row " << r << " column " << col);
        auto found = cells.find({int(b), int(r), col});
        REQUIRE(found != cells.end());
        CHECK(ns[{int(b), int(r), col}] == cell["n"].get<int>());
        const std::string& text = found->second;
        boost::smatch m;
        REQUIRE(boost::regex_search(text, m, boost::regex(R"re(<span class="centre">([^<]*)</span>)re")));
        if (cell["n"] == 0) {
          CHECK(m[1] == "FAIL");
          ++checked;
          continue;
        }
        CHECK(m[1] == (cell["centre"].is_null() ? std::string("n/a")
                                                : fmt::format("{:.{}f}", cell["centre"].get<double>(), precision)));
        if (!cell["pct"].is_null())
          CHECK(text.find(fmt::format("{:.2f}%", cell["pct"].get<double>())) != std::string::npos);
        if (cell["significant"].get<bool>()) CHECK(text.find("*") != std::string::npos);
        if (cell["ci_low"].is_null()) {
          ++no_interval;
          const std::string why = cell["null_reasons"]["ci"];
          CHECK(text.find("no interval: " + why) != std::string::npos);
        } else {
          CHECK(text.find(fmt::format("[{:.{}f}, {:.{}f}]", cell["ci_low"].get<double>(), precision,
                                      cell["ci_high"].get<double>(), precision)) != std::string::npos);
        }
        ++checked;
      }
  }
  CHECK(checked == 128);  // 64 points x 2 columns
  CHECK(no_interval >= 2);  // the single iteration's cells at least
}

TEST_CASE("report: without Debian's libjs-vega it says which package is missing") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", dir.file("x.html")},
                                      {{"SCHEDLAB_VEGA_DIR", dir.file("no-vega")}});
  CHECK(rep.exit_code == 1);
  CHECK(test::one_line(rep.err).find(test::one_line("install Debian's libjs-vega")) !=
        std::string::npos);
}

TEST_CASE("report: the edge-case page renders in headless Chromium, every plot with marks") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const std::string html = dir.file("edge.html");
  REQUIRE(test::schedlab_cmd({"report", "--db", db, "-o", html}).ok());
  const auto check = test::check_page_in_chromium(html, SCHEDLAB_BUILD_DIR "/report-edge.png");
  INFO(check.out << check.err);
  CHECK(check.ok());
  CHECK(check.out.find("(scaling)") != std::string::npos);
  CHECK(check.out.find("FAIL") == std::string::npos);
}

namespace {

// Names that break out of a <script> block: "<!--<script>" puts the HTML
// parser in "script data double escaped" (the plots' JSON then swallows the
// page's own script, and no plot is drawn); "</script>" ends the block.
const std::string kRunName = "evil<!--<script>";
const std::vector<std::string> kVariantNames = {"</script><script>alert(1)</script>",
                                                "<!--<SCRIPT>b"};

// One run of two hostile variants over three points, three samples each,
// and its nightly's target a hostile name too.
std::string hostile_db(test::TempDir& dir) {
  const std::string db = dir.file("hostile.db");
  Store store(db);
  const auto run =
      store.runs_table().create_run({.name = kRunName,
                                     .config_path = "<!--<script>.yaml",
                                     .config_text = "",
                                     .config_sha256 = "0",
                                     .manifest_json = R"({"kernel_release":"6.1.0<!--<script>"})",
                                     .status = RunStatus::kFinished,
                                     .started_at = "2026-12-01T10:00:00Z"});
  std::vector<std::int64_t> v;
  for (std::size_t k = 0; k < kVariantNames.size(); ++k)
    v.push_back(store.variants_table().add_variant({0, run, kVariantNames[k], static_cast<int>(k), "{}"}));
  store.metrics_table().add_metric(
      run, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  for (int p = 0; p < 3; ++p)
    for (int s = 0; s < 3; ++s)
      for (std::size_t k = 0; k < v.size(); ++k) {
        IterationRow it;
        it.run_id = run;
        it.variant_id = v[k];
        it.workload = "hackbench";
        it.block = "hackbench-process-pipes";
        it.row = std::to_string(1 << p);
        it.row_order = p;
        it.params_json =
            fmt::format(R"({{"mode":"process-pipes","groups":{},"loops":100}})", 1 << p);
        it.iteration = s;
        it.samples = {{"time", 0.1 * (p + 1) + 0.01 * s + 0.03 * double(k), std::nullopt}};
        store.iterations_table().add_iteration(it);
      }
  return db;
}

void collect_strings(const nlohmann::json& j, std::set<std::string>& out) {
  if (j.is_string()) out.insert(j.get<std::string>());
  if (j.is_structured())
    for (const auto& x : j) collect_strings(x, out);
}

// The page in Chromium: every plot drawn, no dialog or error, the parser
// made exactly the page's three scripts, and what the browser read back
// (the plots' data, the visible text) holds the names unchanged.
void check_hostile_page(test::TempDir& dir, const std::string& page, const std::string& shot,
                        const std::vector<std::string>& names) {
  const std::string dump = dir.file(shot + ".json");
  const auto check =
      test::check_page_in_chromium(page, SCHEDLAB_BUILD_DIR "/" + shot + ".png", {"--dump", dump});
  INFO(check.out << check.err);
  REQUIRE(check.ok());
  const auto seen = nlohmann::json::parse(read_file(dump));
  CHECK(seen["scripts"] == 3);
  std::set<std::string> strings;
  collect_strings(seen["plots"], strings);
  const std::string text = seen["text"];
  for (const auto& name : names) {
    INFO(name);
    CHECK(strings.count(name) == 1);
    CHECK(text.find(name) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("report and history pages: names that open or close a <script> leave every plot drawn") {
  test::TempDir dir;
  const std::string db = hostile_db(dir);
  const std::string report = dir.file("report.html");
  const auto rep = test::schedlab_cmd({"report", "--db", db, "-o", report});
  INFO(rep.err);
  REQUIRE(rep.ok());
  // Nothing of a name ends up as markup or script outside its block.
  const std::string html = read_file(report);
  for (const auto& name : kVariantNames) CHECK(html.find(name) == std::string::npos);
  check_hostile_page(dir, report, "report-hostile", kVariantNames);

  const auto h = test::schedlab_cmd({"history", "--db", db, "--workload", "hackbench", "--metric",
                                     "time", "--param", "2", "--format", "html"});
  INFO(h.err);
  REQUIRE(h.ok());
  const std::string history = dir.file("history.html");
  test::write_text(history, h.out);
  check_hostile_page(dir, history, "history-hostile", kVariantNames);
}

TEST_CASE("history --format html: history --format json's numbers, one plot per row, in Chromium",
          "[heavy]") {
  test::TempDir dir;
  const std::string db = dir.file("big.db");
  LocalHost host;
  Command make;
  make.argv = {SCHEDLAB_REPORT_DB, "big", db};
  REQUIRE(host.run(make).ok());
  const std::vector<std::string> args = {"history", "--db", db, "--workload", "hackbench",
                                         "--metric", "time", "--param", "4"};
  auto json_args = args, html_args = args;
  json_args.insert(json_args.end(), {"--format", "json"});
  html_args.insert(html_args.end(), {"--format", "html"});
  const auto j = test::schedlab_cmd(json_args);
  const auto h = test::schedlab_cmd(html_args);
  REQUIRE(j.ok());
  REQUIRE(h.ok());
  const auto doc = nlohmann::json::parse(j.out);
  // The metric's decimals, as compare prints it (four here, not six
  // significant digits).
  const int precision = doc["precision"];
  CHECK(precision == 4);
  std::vector<std::string> want;
  for (const auto& p : doc["points"]) want.push_back(fmt::format("{:.{}f}", p["centre"].get<double>(), precision));
  REQUIRE(want.size() == 10);
  std::vector<std::string> got;
  static const boost::regex centre(R"(<td class="centre">([^<]*)</td>)");
  for (boost::sregex_iterator it(h.out.begin(), h.out.end(), centre), end; it != end; ++it)
    got.push_back((*it)[1].str());
  CHECK(got == want);
  const std::string page = dir.file("history.html");
  test::write_text(page, h.out);
  const auto check = test::check_page_in_chromium(page, SCHEDLAB_BUILD_DIR "/history.png");
  INFO(check.out << check.err);
  CHECK(check.ok());
  // 10 points, each a symbol, a vertex of the line and one of the band.
  CHECK(check.out.find("plot h0 (history): 30 marks") != std::string::npos);
}

TEST_CASE("report: the demo run's page renders in headless Chromium, screenshot under build/",
          "[heavy][long]") {
  // The README's first command's run (configs/demo-local.yaml: real
  // hackbench here, SCHED_OTHER vs SCHED_BATCH), two iterations.
  test::TempDir dir;
  const std::string db = dir.file("demo.db"), page = dir.file("demo.html");
  const auto run = test::schedlab_cmd({"run", SCHEDLAB_SOURCE_DIR "/configs/demo-local.yaml", "--db", db,
                                       "--name", "demo", "--iterations", "2"});
  INFO(run.err);
  REQUIRE(run.ok());
  REQUIRE(test::schedlab_cmd({"report", "demo", "--db", db, "-o", page}).ok());
  const std::string html = test::read_text(page);
  CHECK(html.find("hackbench-process-pipes") != std::string::npos);
  CHECK(html.find("hackbench-thread-sockets") != std::string::npos);
  const auto check = test::check_page_in_chromium(page, SCHEDLAB_BUILD_DIR "/report-demo.png");
  INFO(check.out << check.err);
  CHECK(check.ok());
  // Two tables, three plots each.
  CHECK(check.out.find("plot p1-order (order): ") != std::string::npos);
}

TEST_CASE("report -o - writes the page on stdout; history -o FILE; history of a row there is not exits 2") {
  test::TempDir dir;
  const std::string db = edge_db(dir);
  const auto page = test::schedlab_cmd({"report", "--db", db, "-o", "-"});
  INFO(page.err);
  REQUIRE(page.ok());
  CHECK(page.out.starts_with("<!DOCTYPE html>"));
  CHECK(page.err.empty());
  CHECK_FALSE(std::filesystem::exists("-"));
  const std::string file = dir.file("edge.html");
  REQUIRE(test::schedlab_cmd({"report", "--db", db, "-o", file}).ok());
  CHECK(read_file(file) == page.out);

  const std::vector<std::string> history = {"history", "--db", db, "--workload", "hackbench", "--metric", "time"};
  auto args = history;
  args.insert(args.end(), {"--param", "3"});
  const auto text = test::schedlab_cmd(args);
  REQUIRE(text.ok());
  const std::string out = dir.file("history.txt");
  args.insert(args.end(), {"-o", out});
  const auto to_file = test::schedlab_cmd(args);
  REQUIRE(to_file.ok());
  CHECK(to_file.out.empty());
  CHECK(read_file(out) == text.out);
  // A row no run has: exit 2 like an unknown metric, naming the rows
  // there are, nothing on stdout and no file written.
  auto none = history;
  const std::string none_file = dir.file("none.txt");
  none.insert(none.end(), {"--param", "300", "-o", none_file});
  const auto missing = test::schedlab_cmd(none);
  CHECK(missing.exit_code == 2);
  CHECK(test::one_line(missing.err)
            .starts_with(test::one_line(
                "schedlab history: no row '300' of hackbench time in " + db +
                "; its rows: hackbench-process-pipes/1, hackbench-process-pipes/2, ")));
  CHECK(missing.out.empty());
  CHECK_FALSE(std::filesystem::exists(none_file));
  auto json = history;
  json.insert(json.end(), {"--param", "300", "--format", "json"});
  CHECK(test::schedlab_cmd(json).exit_code == 2);
}

TEST_CASE("report: two runs of 32 rows whose names share 40 characters, drawn as SVG in Chromium") {
  // Legends must not cut the names at about 26 characters (two runs would
  // read alike), an integer sweep has no tick at 1.5, a box plot stays on
  // the page.
  test::TempDir dir;
  const std::string db = dir.file("prefix.db"), page = dir.file("prefix.html");
  const std::string prefix = "nightly-v6.13-rc1-eevdf-sched-batch-2026-";  // 41 characters
  std::vector<int> groups;
  for (int g = 1; g <= 32; ++g) groups.push_back(g);
  test::write_sweep_db(db, {.runs = {prefix + "12-04T220811Z", prefix + "12-05T220811Z"}, .groups = groups});
  const auto rep = test::schedlab_cmd({"report", "--db", db, "1", "2", "-o", page});
  INFO(rep.err);
  REQUIRE(rep.ok());
  const std::string dump = dir.file("prefix.json");
  const auto check = test::check_page_in_chromium(page, SCHEDLAB_BUILD_DIR "/report-prefix.png",
                                                  {"--renderer", "svg", "--dump", dump});
  INFO(check.out << check.err);
  REQUIRE(check.ok());
  const auto seen = nlohmann::json::parse(read_file(dump));
  // No wider than the window: nothing to scroll sideways.
  CHECK(seen["page"]["scroll_width"].get<int>() <= seen["page"]["window_width"].get<int>());
  std::size_t checked = 0;
  for (const auto& [id, svg] : seen["svg"].items()) {
    INFO(id);
    // Every legend names both columns, distinctly; the % change chart's
    // only the column with bars (the baseline has none).
    const auto labels = svg["legend"].get<std::vector<std::string>>();
    if (id.ends_with("-change")) {
      CHECK(labels == std::vector<std::string>{"r2"});
      continue;
    }
    CHECK(labels.size() == 2);
    CHECK(std::set<std::string>(labels.begin(), labels.end()).size() == labels.size());
    if (id.ends_with("-scaling")) {
      // The integer sweep's x axis: whole numbers only.
      const auto ticks = svg["x_labels"].get<std::vector<std::string>>();
      CHECK(ticks.size() >= 4);
      for (const auto& t : ticks) {
        INFO(t);
        CHECK(boost::regex_match(t, boost::regex("[0-9]+")));
      }
      ++checked;
    }
  }
  CHECK(checked == 1);
  // The centre-and-interval plot draws each column beside the other at a
  // point (3 px either side), so the baseline's interval shows.
  std::size_t offset = 0;
  for (const auto& p : seen["plots"]) {
    if (!p["id"].get<std::string>().ends_with("-scaling")) continue;
    for (const auto& scale : p["spec"]["scales"])
      if (scale["name"] == "xoff") {
        CHECK(scale["range"] == nlohmann::json::array({-3.0, 3.0}));
        ++offset;
      }
    for (const auto& mark : p["spec"]["marks"])
      if (mark["type"] == "rule") CHECK(mark["encode"]["enter"]["x"]["offset"]["scale"] == "xoff");
  }
  CHECK(offset == 1);
  // The full names are on the page, in the key.
  const std::string text = seen["text"];
  CHECK(text.find("r1 = " + prefix + "12-04T220811Z") != std::string::npos);
  CHECK(text.find("r2 = " + prefix + "12-05T220811Z") != std::string::npos);
}

// Issue 44: -o naming a link (or a dangling one) replaces the link with
// the page; what it pointed at is never written.
TEST_CASE("report -o and history -o replace a link at the name, never write through it") {
  namespace fs = std::filesystem;
  test::TempDir dir;
  const std::string db = edge_db(dir);
  test::write_text(dir.file("victim"), "precious\n");
  for (const std::string name : {"r.html", "h.txt"})
    fs::create_symlink(dir.file("victim"), dir.file(name));
  fs::create_symlink(dir.file("nowhere"), dir.file("d.html"));
  REQUIRE(test::schedlab_cmd({"report", "--db", db, "-o", dir.file("r.html")}).ok());
  REQUIRE(test::schedlab_cmd({"report", "--db", db, "-o", dir.file("d.html")}).ok());
  REQUIRE(test::schedlab_cmd({"history", "--db", db, "--workload", "hackbench", "--metric", "time",
                              "-o", dir.file("h.txt")})
              .ok());
  CHECK(read_file(dir.file("victim")) == "precious\n");
  CHECK_FALSE(fs::exists(dir.file("nowhere")));
  for (const std::string name : {"r.html", "d.html", "h.txt"}) {
    INFO(name);
    CHECK_FALSE(fs::is_symlink(dir.file(name)));
    CHECK(fs::file_size(dir.file(name)) > 100);
  }
  CHECK(read_file(dir.file("r.html")).starts_with("<!DOCTYPE html>"));
}

namespace {

// A run of two variants whose hackbench times are near the top of the
// sample range (1e150): squares of them overflow a double.
std::string extreme_db(test::TempDir& dir) {
  const std::string db = dir.file("extreme.db");
  Store store(db);
  const auto run = hackbench_time_run(store, "extreme", "s");
  for (int k = 0; k < 2; ++k) {
    const auto v =
        store.variants_table().add_variant({0, run, k == 0 ? "default" : "other", k, "{}"});
    std::vector<double> times;
    for (int i = 0; i < 4; ++i) times.push_back((1 - 0.1 * k - 0.01 * i) * 1e150);
    add_time_iterations(store, run, v, "hackbench-process-pipes", "1", R"({"groups":1})", times);
  }
  return db;
}

}  // namespace

// Issue 44: samples whose squares overflow made compare, report,
// --summary, --style amd and stats exit 1 with Boost's "Degrees of freedom
// argument is -nan"; a crafted 1e308 is now refused on read, naming the row.
TEST_CASE("samples near 1e150 are compared by every output; a stored 1e308 is refused naming it") {
  test::TempDir dir;
  const std::string db = extreme_db(dir);
  const std::vector<std::vector<std::string>> commands = {
      {"compare", "--db", db},
      {"compare", "--db", db, "--summary", "time"},
      {"compare", "--db", db, "--style", "amd"},
      {"compare", "--db", db, "--format", "json"},
      {"report", "--db", db, "-o", dir.file("r.html")},
  };
  for (const auto& args : commands) {
    const auto r = test::schedlab_cmd(args);
    INFO(args[0] << " " << (args.size() > 3 ? args[3] : "") << ": " << r.err);
    CHECK(r.ok());
    CHECK(r.out.find("nan") == std::string::npos);
    CHECK(r.out.find("inf") == std::string::npos);
  }
  // other is 10% faster, a difference Welch's test sees: the `*`.
  CHECK_THAT(test::schedlab_cmd({"compare", "--db", db}).out, Catch::Contains("*"));
  test::write_text(dir.file("a.txt"), "1e150\n0.99e150\n0.98e150\n");
  test::write_text(dir.file("b.txt"), "0.9e150\n0.89e150\n0.88e150\n");
  const auto stats = test::schedlab_cmd({"stats", dir.file("a.txt"), dir.file("b.txt")});
  INFO(stats.err);
  CHECK(stats.ok());
  test::write_text(dir.file("c.txt"), "1\n1e308\n");
  const auto refused = test::schedlab_cmd({"stats", dir.file("a.txt"), dir.file("c.txt")});
  CHECK_FALSE(refused.ok());
  CHECK_THAT(test::one_line(refused.err),
             Catch::Contains(test::one_line(dir.file("c.txt") +
                                            ":2: not a sample: 1e+308 is outside +-1e+150")));

  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  REQUIRE(sqlite3_exec(h, "UPDATE samples SET value = 1e308 WHERE rowid = 3", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(h);
  for (const auto& args : commands) {
    const auto r = test::schedlab_cmd(args);
    INFO(args[0] << " " << (args.size() > 3 ? args[3] : ""));
    CHECK_FALSE(r.ok());
    CHECK_THAT(test::one_line(r.err), Catch::Contains(test::one_line(
                                          "run 1 iteration 2 (id 3) of hackbench: sample of time: "
                                          "1e+308 is outside +-1e+150 (a damaged or crafted "
                                          "database)")));
    CHECK_THAT(r.err, !Catch::Contains("Boost"));
  }
}
