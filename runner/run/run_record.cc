#include "runner/run/run_record.h"

#include <nlohmann/json.hpp>

#include "base/hash.h"
#include "base/json_data.h"
#include "results/metrics_table.h"
#include "results/runs_table.h"
#include "results/variants_table.h"
#include "runner/knobs/knobs.h"
#include "runner/run/stored_config.h"

namespace schedlab {

std::int64_t create_run_record(Store& store, const RunRecord& record) {
  const std::int64_t run_id =
      store.runs_table().create_run({.name = record.name,
                                     .config_path = record.config_path,
                                     .config_text = record.config_text,
                                     .config_sha256 = sha256_hex(record.config_text),
                                     .manifest_json = record.manifest_json,
                                     .status = RunStatus::kRunning});
  for (std::size_t i = 0; i < record.variants.size(); ++i)
    store.variants_table().add_variant({.run_id = run_id,
                                        .name = record.variants[i].first,
                                        .position = static_cast<int>(i),
                                        .knobs_json = record.variants[i].second});
  for (const Workload* w : record.workloads)
    for (const auto& m : w->metrics())
      store.metrics_table().add_metric(
          run_id, {w->name(), m.name, m.unit, m.direction, std::string(to_string(m.centre)), m.kind,
                   m.precision, m.domain});
  return run_id;
}

std::int64_t create_run_record(Store& store, const Config& config, const Plan& plan,
                               const std::string& name, const std::string& manifest_json,
                               std::size_t pairs) {
  auto manifest = parse_json_data(manifest_json);
  if (manifest.is_object()) {
    manifest["planned_iterations"] = {{"min", plan.min_iterations() * pairs},
                                      {"max", plan.max_iterations() * pairs}};
    // Only what this user ran here is resumed (run/stored_config.h).
    manifest["config_tag"] = config_tag(config.path, config.text);
  }
  RunRecord record{.name = name,
                   .config_path = config.path,
                   .config_text = config.text,
                   .manifest_json = manifest.is_object() ? manifest.dump() : manifest_json};
  for (const VariantConfig* v : plan.variants)
    record.variants.emplace_back(v->name, knobs_json(v->knobs).dump());
  for (const auto& wc : config.workloads) record.workloads.push_back(wc.workload);
  return create_run_record(store, record);
}

}  // namespace schedlab
