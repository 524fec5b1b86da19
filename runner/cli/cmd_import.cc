// schedlab import: saved outputs of a workload's tool recorded as a run, to
// compare with schedlab's own.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "base/hash.h"
#include "base/time.h"
#include "results/store.h"
#include "runner/cli/common.h"
#include "runner/config/param_values.h"
#include "runner/run/manifest.h"

namespace schedlab::cli {
namespace {

struct ImportOptions {
  std::string workload;
  std::string name;
  // "variant=FILE": each file is one iteration of that variant.
  std::vector<std::string> inputs;
  std::vector<std::string> params;
  DbOption db;
};

int import_command(const ImportOptions& o) {
  return guarded<std::invalid_argument>({.prefix = "schedlab import"}, [&] {
    const Workload& w = workload_arg(o.workload);
    const Point p = point_from_overrides(w, o.params);
    std::vector<std::pair<std::string, std::string>> inputs;  // variant, file
    std::vector<std::string> variants;
    for (const auto& in : o.inputs) {
      const auto eq = in.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(fmt::format("'{}': expected VARIANT=FILE", in));
      inputs.emplace_back(in.substr(0, eq), in.substr(eq + 1));
      if (std::find(variants.begin(), variants.end(), inputs.back().first) == variants.end())
        variants.push_back(inputs.back().first);
    }
    // What was imported, as the run's "config": reproducible provenance.
    nlohmann::json source = {
        {"imported", true}, {"workload", w.name()}, {"params", o.params}, {"inputs", o.inputs}};
    Store store(o.db.resolve());
    const std::string text = source.dump(2);
    const auto run = store.create_run({.name = o.name,
                                       .config_path = "(import)",
                                       .config_text = text,
                                       .config_sha256 = sha256_hex(text),
                                       .manifest_json = nlohmann::json{{"imported", true}}.dump(),
                                       .status = RunStatus::kRunning});
    std::map<std::string, std::int64_t> ids;
    for (std::size_t i = 0; i < variants.size(); ++i)
      ids[variants[i]] = store.add_variant({.run_id = run,
                                            .name = variants[i],
                                            .position = static_cast<int>(i),
                                            .knobs_json = "{}"});
    for (const auto& m : w.metrics())
      store.add_metric(
          run, {w.name(), m.name, m.unit, std::string(to_string(m.direction)),
                std::string(to_string(m.centre)), std::string(to_string(m.kind)), m.precision});
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [k, v] : p.values) params[k] = format_param(v);
    std::map<std::string, int> next;
    int failed = 0;
    for (const auto& [variant, file] : inputs) {
      IterationRow row{.run_id = run,
                       .variant_id = ids[variant],
                       .workload = w.name(),
                       .block = w.block_label(p),
                       .row = w.row_label(p),
                       .params_json = params.dump(),
                       .iteration = next[variant]++,
                       .status = IterationStatus::kOk,
                       .started_at = utc_now_iso8601()};
      row.stdout_text = read_input_file(file);
      try {
        auto samples = parse_output(w, p, row.stdout_text, "");
        row.samples.reserve(samples.size());
        for (auto& s : samples) row.samples.push_back({std::move(s.metric), s.value, s.offset_s});
      } catch (const ParseError& e) {
        row.status = IterationStatus::kParseError;
        row.error = fmt::format("{}: {}", file, e.what());
        fmt::print(stderr, "schedlab: {}: {} output did not parse: {}\n", file, w.name(), e.what());
        ++failed;
      }
      store.add_iteration(row);
    }
    store.set_run_status(run, RunStatus::kFinished, true);
    fmt::print(stderr, "imported run {} '{}': {} files, {} did not parse\n", run, o.name,
               inputs.size(), failed);
    return failed ? kIterationsFailed : kOk;
  });
}

}  // namespace

void register_import(CLI::App& app, int& exit_code) {
  auto io = std::make_shared<ImportOptions>();
  auto* imp =
      app.add_subcommand("import", "record saved outputs as a run, to compare with schedlab's");
  imp->add_option("workload", io->workload, "workload name")->required();
  imp->add_option("inputs", io->inputs,
                  "VARIANT=FILE, one iteration each; the first variant is the baseline")
      ->required();
  imp->add_option("--name", io->name, "run name")->required();
  imp->add_option("--param", io->params,
                  "name=value: the parameters the outputs were made with (repeat)")
      ->allow_extra_args(false);
  add_db_option(*imp, io->db);
  imp->callback([io, &exit_code] { exit_code = import_command(*io); });
}

}  // namespace schedlab::cli
