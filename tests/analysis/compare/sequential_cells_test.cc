// compare over a real temporary store holding a stop: sequential run: the
// stored test is attached to the cell it decided (its adjusted p and
// interval replace the fixed-n ones, its decision the `*`), and shown in
// every format; another comparison of the same samples keeps fixed-n.
#include "analysis/compare/sequential_cells.h"

#include <catch2/catch.hpp>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>

#include "analysis/render/render.h"
#include "results/iterations_table.h"
#include "results/metrics_table.h"
#include "results/point_stops_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;
using Catch::Matchers::Contains;

namespace {

// The text with each wrapped line joined to the one before it (render_text
// keeps notes within 100 columns: a continuation starts with spaces).
std::string unwrapped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size() && text[i + 1] == ' ' &&
        text.compare(i + 1, 2, "  ") == 0 && i > 0 && text[i - 1] != '\n') {
      std::size_t j = i + 1;
      while (j < text.size() && text[j] == ' ') ++j;
      out += ' ';
      i = j - 1;
      continue;
    }
    out += text[i];
  }
  return out;
}

struct SeqCellsDb {
  test::TempDir dir;
  Store store{dir.file("s.db")};
  std::int64_t run_id = 0, base = 0, fast = 0, same = 0;
  const std::string params = R"({"groups":4})";

  // same_design: the `same` variant's stored design.
  explicit SeqCellsDb(const std::string& same_design =
                          R"({"alpha":0.05,"power":0.8,"min_effect_pct":3,"min":3,"max":60})") {
    run_id = store.runs_table().create_run({.name = "seq", .config_path = "c.yaml", .config_text = "x", .config_sha256 = "s",
                               .manifest_json = R"({"kernel_release":"6.12.0"})", .status = RunStatus::kFinished});
    base = store.variants_table().add_variant({.run_id = run_id, .name = "base", .position = 0, .knobs_json = "{}"});
    fast = store.variants_table().add_variant({.run_id = run_id, .name = "fast", .position = 1, .knobs_json = "{}"});
    same = store.variants_table().add_variant({.run_id = run_id, .name = "same", .position = 2, .knobs_json = "{}"});
    store.metrics_table().add_metric(run_id, {"hackbench", "time", "s", Direction::kLowerIsBetter, "amean",
                              SampleKind::kRun, 4});
    add(base, {1.00, 1.02, 0.98, 1.01, 0.99, 1.00});
    add(fast, {0.90, 0.91, 0.89});
    add(same, {1.01, 0.99, 1.00, 1.00, 1.02, 0.98});
    stop(base, 6, "tests_stopped", std::nullopt);
    stop(fast, 3, "decided",
         SequentialRecord{.metric = "time", .decision = "different", .looks = 1, .n_baseline = 3, .n = 3,
                          .p_value = 0.0021, .estimate_pct = 10.1, .ci_low = 6.2, .ci_high = 13.9,
                          .level = 0.95,
                          .design_json = R"({"alpha":0.05,"power":0.8,"min_effect_pct":3,"min":3,"max":60})",
                          .looks_json = R"([{"n":3,"fraction":0.3,"needed_n":10}])"});
    stop(same, 6, "decided",
         SequentialRecord{.metric = "time",
                          .decision = "same",
                          .looks = 2,
                          .n_baseline = 6,
                          .n = 6,
                          .p_value = 0.71,
                          .estimate_pct = -0.2,
                          .ci_low = -1.9,
                          .ci_high = 1.5,
                          .level = 0.95,
                          .design_json = same_design,
                          .looks_json = "[]"});
  }
  void add(std::int64_t variant, const std::vector<double>& values) {
    int i = 0;
    for (double v : values) {
      IterationRow it{.run_id = run_id, .variant_id = variant, .workload = "hackbench",
                      .block = "hackbench-process-pipes", .row = "4", .params_json = params, .iteration = i++,
                      .status = IterationStatus::kOk, .started_at = "2026-01-01T00:00:00Z"};
      it.samples = {{"time", v, std::nullopt}};
      store.iterations_table().add_iteration(it);
    }
  }
  void stop(std::int64_t variant, int iterations, const std::string& reason, std::optional<SequentialRecord> r) {
    store.point_stops_table().record_point_stop({.run_id = run_id,
                                                 .variant_id = variant,
                                                 .workload = "hackbench",
                                                 .params_json = params,
                                                 .iterations = iterations,
                                                 .reason = reason,
                                                 .sequential = std::move(r)});
  }
};

}  // namespace

TEST_CASE("a stored sequential test decides its cell: adjusted p and interval, decision for *") {
  SeqCellsDb db;
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}));
  REQUIRE(c.blocks.size() == 1);
  const Row& row = c.blocks[0].rows[0];
  CHECK_FALSE(row.cells[0].sequential);
  REQUIRE(row.cells[1].sequential);
  const Cell& fast = row.cells[1];
  CHECK(fast.sequential->decision == "different");
  CHECK(fast.sequential->method() == "stage-wise ordering, 1 look");
  CHECK(*fast.p_value == 0.0021);
  CHECK(fast.pct_ci->low == 6.2);
  CHECK(fast.pct_ci->high == 13.9);
  CHECK(fast.significant);
  const Cell& same = row.cells[2];
  CHECK(same.sequential->decision == "same");
  CHECK(same.sequential->method() == "stage-wise ordering, 2 looks");
  // A spending function other than the default is named.
  SequentialCell pocock = *same.sequential;
  pocock.spending = "pocock";
  CHECK(pocock.method() == "stage-wise ordering, pocock spending, 2 looks");
  CHECK(*same.p_value == 0.71);
  CHECK_FALSE(same.significant);
  CHECK(same.sequential->max == 60);

  const std::string text = unwrapped(render_text(c));
  INFO(text);
  CHECK_THAT(text, Contains("D") && Contains("S   ") &&
                       Contains("stop: sequential (alpha 0.05, power 0.8, min effect 3%, at most 60 iterations): D "
                                "= different, S = same within +-min effect, ? = undecided") &&
                       Contains("hackbench-process-pipes 4 fast time: different (decided) after 1 look, n 3 vs 3, "
                                "p 0.0021, 95% interval [+6.20%, +13.90%] (stage-wise ordering, 1 look)") &&
                       Contains("hackbench-process-pipes 4 same time: same (decided) after 2 looks, n 6 vs 6, p 0.71, "
                                "95% interval [-1.90%, +1.50%] (stage-wise ordering, 2 looks)"));
  // The cell's marker stands where ( ) or * * would.
  CHECK(text.find("D  10.00%D") != std::string::npos);

  const auto j = nlohmann::json::parse(render_json(c));
  const auto& cells = j["blocks"][0]["rows"][0]["cells"];
  CHECK(cells[0]["sequential"].is_null());
  CHECK(cells[1]["sequential"]["decision"] == "different");
  CHECK(cells[1]["sequential"]["looks"] == 1);
  CHECK(cells[1]["sequential"]["n"] == 3);
  CHECK(cells[1]["sequential"]["p_value"] == 0.0021);
  CHECK(cells[1]["sequential"]["ci_low"] == 6.2);
  CHECK(cells[1]["sequential"]["ci_high"] == 13.9);
  CHECK(cells[1]["sequential"]["method"] == "stage-wise ordering, 1 look");
  CHECK(cells[1]["p_value"] == 0.0021);
  CHECK(cells[1]["pct_ci_low"] == 6.2);
  CHECK(cells[2]["sequential"]["decision"] == "same");

  CHECK_THAT(render_markdown(c), Contains("(10.00%) D") && Contains("stop: sequential (alpha 0.05"));
}

TEST_CASE("another comparison of the same samples keeps its fixed-n numbers") {
  SeqCellsDb db;
  // Against the same run's other variant as the baseline: not the test's comparison.
  auto cols = default_columns(db.store, {db.run_id});
  std::swap(cols[0], cols[2]);
  const Comparison swapped = compare(db.store, cols);
  for (const auto& cell : swapped.blocks[0].rows[0].cells) CHECK_FALSE(cell.sequential);
  // The baseline and one variant, both of the run: still the test's comparison.
  const Comparison pair = compare(db.store, {cols[2], cols[1]});
  REQUIRE(pair.blocks[0].rows[0].cells[1].sequential);
  CHECK(render_text(swapped).find("stop: sequential") == std::string::npos);
}

TEST_CASE("a test still looking when the run stopped is shown undecided, and says so") {
  SeqCellsDb db;
  db.stop(db.same, 4, "looking",
          SequentialRecord{.metric = "time", .decision = "undecided", .looks = 1, .n_baseline = 4, .n = 4,
                           .p_value = 0.4, .level = 0.95, .design_json = "{}", .looks_json = "[]"});
  const Comparison c = compare(db.store, default_columns(db.store, {db.run_id}));
  const Cell& cell = c.blocks[0].rows[0].cells[2];
  REQUIRE(cell.sequential);
  CHECK_FALSE(cell.sequential->finished);
  CHECK_FALSE(cell.pct_ci);
  CHECK(cell.pct_ci_reason == "the sequential test has no adjusted interval");
  CHECK_THAT(
      unwrapped(render_text(c)),
      Contains(
          "same time: undecided, still looking when the run stopped (1 look), n 4 vs 4, p 0.4"));
  CHECK(nlohmann::json::parse(render_json(c))["blocks"][0]["rows"][0]["cells"][2]["sequential"]["finished"] == false);
}

// A crafted database's design or numbers: refused with the run and the
// row, never a raw json type_error.302 nor a NaN in the notes.
TEST_CASE("a stored design that is no design is refused naming run and row (issue 44)") {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"alpha":"nan","power":0.8})", "has alpha \"nan\": not a number"},
      {R"({"alpha":1e-300})", "is refused: alpha must be in [1e-06, 0.5), not 1e-300"},
      {R"({"power":2})", "is refused: power must be in (0.5, 0.999999], not 2"},
      {R"({"max":-1})", "has max -1: not an iteration count"},
      // hostile8 A18: read by compare, copied by merge.
      {R"({"min":30,"max":12})", "has min 30 above its max 12: no iteration count is both"},
      {R"({"min":2.5})", "has min 2.5: not an iteration count"},
      {R"j({"spending":"kd(99)"})j", "has spending \"kd(99)\": no spending function"},
      {R"([1])", "is not a JSON object"},
      {"p-value", "has p-value 9: not in [0, 1]"},
      {"ci_low", "has ci_low inf: not finite"},
  };
  for (const auto& [design, why] : cases) {
    INFO(design);
    SeqCellsDb db;
    SequentialRecord r{.metric = "time", .decision = "different", .looks = 1,
                       .design_json = design, .looks_json = "[]"};
    // Two rows whose design is sound and whose numbers are not.
    if (std::string_view(design) == "p-value") r.design_json = "{}", r.p_value = 9;
    if (std::string_view(design) == "ci_low")
      r.design_json = "{}", r.ci_low = std::numeric_limits<double>::infinity();
    db.stop(db.fast, 3, "decided", r);
    // A figure that is not finite is refused by the store as it reads the
    // row (point_stops_table.cc), before compare sees it.
    const std::string expected =
        std::string_view(design) == "ci_low"
            ? std::string("run 1: the stop of hackbench has seq_ci_low inf: not a finite number "
                          "(a damaged or crafted database)")
            : std::string("run 1: the stored sequential test of variant id 2 at "
                          "hackbench {\"groups\":4} ") +
                  why;
    CHECK_THROWS_WITH(compare(db.store, default_columns(db.store, {db.run_id})), expected);
  }
}

TEST_CASE("a stored design nested 300,000 deep is no design: an error, not a crash in dump()") {
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  for (const std::string& design :
       {R"({"alpha":0.05,"spending":)" + deep + "}", R"({"max":)" + deep + "}"}) {
    SeqCellsDb db;
    db.stop(db.fast, 3, "decided",
            SequentialRecord{.metric = "time",
                             .decision = "different",
                             .looks = 1,
                             .design_json = design,
                             .looks_json = "[]"});
    CHECK_THROWS_WITH(compare(db.store, default_columns(db.store, {db.run_id})),
                      "run 1: the stored sequential test of variant id 2 at hackbench "
                      "{\"groups\":4} is not a JSON object");
  }
}

// plan_cv_pct: the stated CV is recorded and said with the verdict; samples
// whose CV is clearly elsewhere (99% interval) add a note, the verdict kept.
TEST_CASE(
    "a test whose looks were planned from a stated CV says so, and when the samples miss it") {
  const auto design = [](const char* cv) {
    return std::string(
               R"({"alpha":0.05,"power":0.8,"min_effect_pct":3,"min":3,"max":60,"plan_cv_pct":)") +
           cv + "}";
  };
  // The samples' CV is about 1.3% (base and same, 6 each): 20% is far off.
  SeqCellsDb far(design("20"));
  const Comparison c = compare(far.store, default_columns(far.store, {far.run_id}));
  const Cell& same = c.blocks[0].rows[0].cells[2];
  REQUIRE(same.sequential);
  CHECK(same.sequential->plan_cv_pct == 20);
  CHECK(same.sequential->decision == "same");
  CHECK_THAT(same.sequential->plan_cv_note,
             Contains("the samples' CV is 1.") &&
                 Contains("not the 20% the looks were planned from: the decision and "
                          "its alpha stand, the power at min effect the design states "
                          "does not (more iterations than it needed)"));
  CHECK_FALSE(c.blocks[0].rows[0].cells[1].sequential->plan_cv_pct);  // its own design has none
  const std::string text = unwrapped(render_text(c));
  INFO(text);
  CHECK_THAT(text,
             Contains("looks planned from a stated CV of 20%: the power holds only near it") &&
                 Contains("note: same at 4: the samples' CV is 1."));
  const auto j = nlohmann::json::parse(render_json(c));
  const auto& cells = j["blocks"][0]["rows"][0]["cells"];
  CHECK(cells[2]["sequential"]["plan_cv_pct"] == 20);
  CHECK(cells[2]["sequential"]["plan_cv_note"].get<std::string>().starts_with(
      "the samples' CV is 1."));
  CHECK(cells[1]["sequential"]["plan_cv_pct"].is_null());
  CHECK(cells[1]["sequential"]["plan_cv_note"].is_null());

  // Near the stated CV: recorded and said, no note. Far below it: the other way.
  SeqCellsDb near(design("1.5"));
  const Comparison n = compare(near.store, default_columns(near.store, {near.run_id}));
  CHECK(n.blocks[0].rows[0].cells[2].sequential->plan_cv_note.empty());
  SeqCellsDb low(design("0.2"));
  const Comparison l = compare(low.store, default_columns(low.store, {low.run_id}));
  CHECK_THAT(l.blocks[0].rows[0].cells[2].sequential->plan_cv_note,
             Contains("(fewer iterations than the CV needs)"));
  // A stored plan_cv_pct that is no CV is refused like any bad design.
  SeqCellsDb bad(design("-3"));
  CHECK_THROWS_WITH(compare(bad.store, default_columns(bad.store, {bad.run_id})),
                    Contains("is refused: plan_cv_pct must be from 0.01 to under 1000"));
}
