#include "analysis/render/column_labels.h"

#include <catch2/catch.hpp>

#include "analysis/render/render.h"

using namespace schedlab;

namespace {

Comparison columns(std::vector<ColumnRef> cols) {
  Comparison c;
  c.columns = std::move(cols);
  return c;
}

}  // namespace

TEST_CASE("column labels: default run names become run ids with a key; short ones stay") {
  // Two demo runs of one variant each: labelled by their run names.
  auto c = columns({{.run_id = 3, .run_name = "demo-local-20261204T220811Z", .variant = "default",
                     .label = "demo-local-20261204T220811Z"},
                    {.run_id = 4, .run_name = "demo-local-20261205T090000Z", .variant = "default",
                     .label = "demo-local-20261205T090000Z"}});
  shorten_column_labels(c);
  CHECK(c.columns[0].label == "r3");
  CHECK(c.columns[1].label == "r4");
  CHECK(c.columns[0].full_label == "demo-local-20261204T220811Z");
  CHECK(c.columns[1].name() == "demo-local-20261205T090000Z");
  CHECK(column_key_text(c) == "columns: r3 = demo-local-20261204T220811Z; r4 = demo-local-20261205T090000Z\n");

  // run/variant: the run part short, the variant kept.
  auto rv = columns({{.run_id = 3, .run_name = "demo-local-20261204T220811Z", .variant = "default",
                      .label = "demo-local-20261204T220811Z/default"},
                     {.run_id = 3, .run_name = "demo-local-20261204T220811Z", .variant = "sched-batch",
                      .label = "demo-local-20261204T220811Z/sched-batch"}});
  shorten_column_labels(rv);
  CHECK(rv.columns[0].label == "r3/default");
  CHECK(rv.columns[1].label == "r3/sched-batch");
  CHECK(rv.column_key == std::vector<std::pair<std::string, std::string>>{{"r3", "demo-local-20261204T220811Z"}});

  // Nothing long: nothing changes, no key.
  auto plain = columns({{.run_id = 1, .variant = "default", .label = "default"},
                        {.run_id = 1, .variant = "sched-batch", .label = "sched-batch"}});
  shorten_column_labels(plain);
  CHECK(plain.columns[1].label == "sched-batch");
  CHECK(plain.columns[1].full_label.empty());
  CHECK(plain.column_key.empty());
  CHECK(column_key_text(plain).empty());
}

TEST_CASE("column labels: long variants and pairs are numbered; a clash falls back to c1, c2") {
  auto c = columns({{.run_id = 7, .run_name = "r", .variant = "no-place-lag-no-run-to-parity",
                     .label = "no-place-lag-no-run-to-parity", .pair = std::nullopt},
                    {.run_id = 7, .run_name = "r", .variant = "no-place-lag-with-batch-policy",
                     .label = "no-place-lag-with-batch-policy@rack-one-long-name", .pair = "rack-one-long-name"}});
  shorten_column_labels(c);
  CHECK(c.columns[0].label == "v1");
  CHECK(c.columns[1].label == "v2@p1");
  CHECK(c.column_key.size() == 3);
  // A run named like another's short form: labels would clash.
  auto clash = columns({{.run_id = 4, .run_name = "a-very-long-run-name-of-thirty", .variant = "v",
                         .label = "a-very-long-run-name-of-thirty"},
                        {.run_id = 9, .run_name = "r4", .variant = "v", .label = "r4"}});
  shorten_column_labels(clash);
  CHECK(clash.columns[0].label == "c1");
  CHECK(clash.columns[1].label == "c2");
  CHECK(clash.column_key[1] == std::pair<std::string, std::string>{"c2", "r4"});
}

TEST_CASE("column labels: a two-run compare of the demo is 102 columns, not 162; the key under the table") {
  // Default names (demo-local-20261204T220811Z/default) as full labels
  // would make a two-run compare of the demo's two variants about 150
  // columns wide.
  const std::string run3 = "demo-local-20261204T220811Z", run4 = "demo-local-20261205T101112Z";
  std::vector<SampleColumn> cols;
  for (const auto& run : {run3, run4})
    for (const auto* variant : {"default", "sched-batch"})
      cols.push_back({run + "/" + variant, {0.128, 0.131, 0.127}});
  Comparison c = compare_samples(
      cols, MetricInfo{"", "time", "s", Direction::kLowerIsBetter, "amean", SampleKind::kRun, 4});
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    auto& col = c.columns[i];
    col.run_id = i < 2 ? 3 : 4;
    col.run_name = i < 2 ? run3 : run4;
    col.variant = i % 2 ? "sched-batch" : "default";
  }
  // The header line: the one naming the columns.
  const auto header = [](const std::string& text, const std::string& label) {
    const auto at = text.find(label);
    const auto begin = text.rfind('\n', at) + 1;
    return text.substr(begin, text.find('\n', at) - begin);
  };
  const std::string wide = render_text(c);
  shorten_column_labels(c);
  const std::string text = render_text(c);
  INFO(wide << text);
  // Four columns are 102 wide even with short labels, 162 with full ones:
  // the table comes in pieces within 100 columns, the baseline first in each.
  CHECK(header(wide, run3 + "/default").size() == 10 + 36 + 40);
  CHECK(header(wide, run4 + "/sched-batch") ==
        std::string(10, ' ') + " " + run3 + "/default " + run4 + "/sched-batch");
  CHECK(header(text, "r3/default").size() == 10 + 3 * 23);
  CHECK(header(text, "r3/default") ==
        std::string(10, ' ') +
            "             r3/default         r3/sched-batch             r4/default");
  CHECK(header(text, "r4/sched-batch") ==
        std::string(10, ' ') + "             r3/default         r4/sched-batch");
  CHECK(text.find("columns: r3 = demo-local-20261204T220811Z; r4 = demo-local-20261205T101112Z\n") !=
        std::string::npos);
}
