#include "runner/import/import_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

#include "base/message.h"
#include "base/text.h"
#include "base/time.h"
#include "results/iterations_table.h"
#include "results/runs_table.h"
#include "results/store.h"
#include "results/store_error.h"
#include "results/variants_table.h"
#include "runner/input/file_glob.h"
#include "runner/run/iteration_output.h"
#include "runner/run/run_record.h"

namespace schedlab {
namespace {

// Records one run of the inputs (all checked already).
ImportedRun store_run(Store& store, const std::string& name, const nlohmann::json& source,
                      const nlohmann::json& manifest, const std::vector<ImportInput>& inputs) {
  std::vector<std::string> variants;
  std::vector<const Workload*> workloads;
  for (const auto& in : inputs) {
    if (std::find(variants.begin(), variants.end(), in.variant) == variants.end())
      variants.push_back(in.variant);
    if (std::find(workloads.begin(), workloads.end(), in.workload) == workloads.end())
      workloads.push_back(in.workload);
  }
  // Paths from elsewhere may not be UTF-8: kept, with U+FFFD for what is not.
  const std::string text = source.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  RunRecord record{
      .name = name,
      .config_path = "(import)",
      .config_text = text,
      .manifest_json = manifest.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
      .workloads = workloads};
  for (const auto& v : variants) record.variants.emplace_back(v, "{}");
  const auto run = create_run_record(store, record);
  std::map<std::string, std::int64_t> ids;
  for (const auto& v : store.variants_table().variants(run)) ids[v.name] = v.id;
  // variant, workload, point -> next iteration
  std::map<std::tuple<std::string, std::string, std::string>, int> next;
  int failed = 0;
  for (const auto& in : inputs) {
    const Workload& w = *in.workload;
    IterationRow row{.run_id = run,
                     .variant_id = ids[in.variant],
                     .workload = w.name(),
                     .block = in.block,
                     .row = in.row,
                     .row_order = in.row_order,
                     .params_json = in.params_json,
                     .iteration = next[{in.variant, w.name(), in.params_json}]++,
                     .status = IterationStatus::kOk,
                     .started_at = utc_now_iso8601()};
    row.stdout_text = in.text ? *in.text : read_input_file(in.file);
    // Judged as `run` judges the same output: parse (or mmtests' extractor
    // rules), unsupported, the workload's own verdict.
    judge_into(row, w, in.point, row.stdout_text, "", in.extracted ? &*in.extracted : nullptr);
    if (row.status != IterationStatus::kOk) {
      row.error = fmt::format("{}: {}", in.file, row.error);
      print_message(fmt::format("schedlab: {}\n", terminal_safe(row.error)));
      ++failed;
    }
    // A sample the store refuses (past its range: a parser without a
    // bound of its own) ends the import's one transaction: say which file.
    try {
      store.iterations_table().add_iteration(row);
    } catch (const StoreError& e) {
      throw StoreError(fmt::format("{}: {}; nothing imported", in.file, e.what()));
    }
  }
  store.runs_table().set_run_status(run, RunStatus::kFinished, true);
  return {run, inputs.size(), failed};
}

}  // namespace

ImportedRun import_files(const std::string& db, const Workload& w, const std::string& name,
                         const ImportFiles& files) {
  // Every input is checked before anything is written.
  const std::vector<ImportInput> inputs = read_import_files(w, files);
  // What was imported, as the run's "config": reproducible provenance
  // (each file as VARIANT=FILE, whichever way it was given).
  nlohmann::json paths = nlohmann::json::array();
  for (const auto& in : inputs) paths.push_back(in.variant + "=" + in.file);
  nlohmann::json source = {
      {"imported", true}, {"workload", w.name()}, {"params", files.params}, {"inputs", paths}};
  if (!files.param_from_name.empty()) source["param_from_name"] = files.param_from_name;
  check_import_run_name(name);
  Store store(db);
  if (store.runs_table().find_run_by_name(name))
    throw std::invalid_argument(
        fmt::format("{} already has a run named '{}'; nothing imported", store.path(), name));
  // One transaction: a killed or failed import leaves nothing behind.
  Store::WriteBatch batch(store);
  nlohmann::json manifest = {{"imported", true}};
  if (!files.kernel.empty()) manifest["kernel_release"] = files.kernel;  // check_kernel_release'd
  const auto r = store_run(store, name, source, manifest, inputs);
  batch.commit();
  return r;
}

ImportedTree import_mmtests(const std::string& db, const std::string& dir,
                            const MmtestsLimits& limits, const std::string& kernel) {
  auto runs = read_mmtests_tree(dir, limits);
  std::vector<std::vector<ImportInput>> inputs;
  for (auto& run : runs) inputs.push_back(mmtests_inputs(run));
  for (auto& run : runs) {
    check_import_run_name(run.name);
    // The tree's record is data: a release uname -r could not print is none.
    if (const auto problem = run.kernel_release.empty()
                                 ? std::nullopt
                                 : kernel_release_problem(run.kernel_release)) {
      fmt::print(
          stderr, "{}",
          wrap_words(fmt::format("schedlab: {}: kernel.version's release '{}' ignored: {}\n",
                                 terminal_safe(run.name),
                                 terminal_safe(run.kernel_release.substr(0, 80)), *problem)));
      run.kernel_release.clear();
    }
    // --kernel names the kernel of the runs whose tree does not; a tree
    // that records another is an error, said before anything is written.
    if (kernel.empty()) continue;
    if (run.kernel_release.empty())
      run.kernel_release = kernel;
    else if (run.kernel_release != kernel)
      throw std::invalid_argument(
          fmt::format("--kernel {}: the tree's run '{}' records kernel {} (iter-0/kernel.version); "
                      "nothing imported",
                      kernel, terminal_safe(run.name), terminal_safe(run.kernel_release)));
  }
  Store store(db);
  for (const auto& run : runs)
    if (store.runs_table().find_run_by_name(run.name))
      throw std::invalid_argument(fmt::format(
          "{} already has a run named '{}'; nothing imported (import into another --db)",
          store.path(), run.name));
  ImportedTree tree;
  // Every run of the tree in one transaction: all of it or nothing.
  Store::WriteBatch batch(store);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto& run = runs[r];
    for (const auto& why : run.skipped)
      print_message(fmt::format("schedlab: {}: skipped {}\n", run.name, why));
    if (inputs[r].empty()) {
      print_message(fmt::format("schedlab: {}: nothing schedlab reads; no run stored\n", run.name));
      continue;
    }
    const nlohmann::json source = {{"imported", true}, {"mmtests", run.dir}};
    nlohmann::json manifest = {{"imported", true},
                               {"mmtests",
                                {{"dir", run.dir},
                                 {"iterations", run.iterations},
                                 {"kernel_versions", run.kernel_versions},
                                 {"skipped", run.skipped}}}};
    if (!run.kernel_release.empty()) manifest["kernel_release"] = run.kernel_release;
    const auto stored = store_run(store, run.name, source, manifest, inputs[r]);
    tree.lines.push_back(wrap_words(
        fmt::format("imported run {} '{}' ({}): {} from {}, {} failed", stored.run, run.name,
                    run.kernel_release.empty() ? "kernel unknown" : run.kernel_release,
                    count_of(inputs[r].size(), "output"), count_of(run.iterations, "iteration"),
                    stored.failed)));
    tree.failed += stored.failed;
  }
  batch.commit();
  return tree;
}

}  // namespace schedlab
