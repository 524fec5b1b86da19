// The runs of a multi-kernel plan in a real store: names, the group in the
// manifest, columns labelled kernel/variant.
#include "runner/run/run_group.h"

#include <catch2/catch.hpp>

#include "analysis/compare/compare.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "runner/lab/kernel.h"
#include "tests/support/temp_dir.h"

using namespace schedlab;

TEST_CASE("kernel labels and run names are short and slash-free") {
  CHECK(lab::kernel_label("debian:6.12") == "6.12");
  CHECK(lab::kernel_label("linux-image-6.12.9+bpo-amd64-unsigned") == "6.12.9+bpo-amd64");
  CHECK(lab::kernel_label("/srv/k/vmlinuz-6.5.0-rc1") == "6.5.0-rc1");
  CHECK(kernel_run_name("eevdf", "debian:6.1") == "eevdf@6.1");
}

TEST_CASE("group runs: found by the manifest's group, columns labelled kernel/variant") {
  test::TempDir dir;
  Store store(dir.file("k.db"));
  const auto run = [&](const std::string& name, const std::string& manifest,
                       std::vector<std::string> variants) {
    const auto id = store.runs_table().create_run({.name = name,
                                                   .config_path = "k.yaml",
                                                   .config_text = "x",
                                                   .config_sha256 = "x",
                                                   .manifest_json = manifest,
                                                   .status = RunStatus::kFinished});
    for (std::size_t i = 0; i < variants.size(); ++i)
      store.variants_table().add_variant(
          {.run_id = id, .name = variants[i], .position = static_cast<int>(i), .knobs_json = "{}"});
    return id;
  };
  const auto a = run("eevdf@6.1", R"({"group":"eevdf","lab":{"kernel_spec":"debian:6.1"}})",
                     {"default", "batch"});
  run("other", R"({"lab":{"kernel_spec":"debian:6.1"}})", {"default"});
  const auto b = run("eevdf@6.12", R"({"group":"eevdf","lab":{"kernel_spec":"debian:6.12"}})",
                     {"default", "eevdf-nolag", "batch"});
  const auto runs = group_runs(store.runs_table(), "eevdf");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].id == a);
  CHECK(runs[1].id == b);
  CHECK(run_group(runs[0]) == "eevdf");
  CHECK_FALSE(run_group(*store.runs_table().find_run_by_name("other")));
  std::vector<std::string> labels;
  for (const auto& col : group_columns(store.variants_table(), runs)) labels.push_back(col.label);
  CHECK(labels == std::vector<std::string>{"6.1/default", "6.1/batch", "6.12/default",
                                           "6.12/eevdf-nolag", "6.12/batch"});
  CHECK(group_runs(store.runs_table(), "nope").empty());
}
