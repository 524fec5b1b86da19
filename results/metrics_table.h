// The metrics table: each metric of a workload as a run declared it (unit,
// direction, centre, sample kind, precision, domain).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/metric_vocabulary.h"

namespace schedlab {

// A metric as its workload declared it, stored per run so a database
// stays self-describing for workloads a later binary no longer knows.
struct MetricInfo {
  std::string workload;
  std::string name;
  std::string unit;
  Direction direction = Direction::kLowerIsBetter;
  std::string centre;  // amean | hmean | gmean | median
  SampleKind kind = SampleKind::kRun;
  int precision = 4;
  // The values the metric can take (its intervals are cut to them); empty
  // for a run stored before schema 17, which did not record it.
  std::optional<ValueDomain> domain;
};

// How a metric's samples read: its unit, which way is better and what one
// sample is. Runs declaring one metric otherwise (a command workload's unit
// edited from ms to us, or its direction) hold two scales that no table or
// series may show as one.
bool same_scale(const MetricInfo& a, const MetricInfo& b);
// "in ms, lower is better, a sample per run" ("with no unit"); not escaped.
std::string scale_text(const MetricInfo& m);

class MetricsTable {
 public:
  explicit MetricsTable(sqlite3* db) : db_(db) {}

  // A run's metrics as its workloads declared them, in declaration order.
  // Reading a direction or kind that is none of base/metric_vocabulary.h's
  // words is a StoreError naming the run, the metric and the word.
  void add_metric(std::int64_t run_id, const MetricInfo& m);  // idempotent
  std::vector<MetricInfo> metrics(std::int64_t run_id) const;
  // How the latest run (by start) declaring a metric of a workload declares it.
  std::optional<MetricInfo> latest_metric(const std::string& workload,
                                          const std::string& name) const;
  // The runs that declare one metric of a workload, ascending.
  std::vector<std::int64_t> runs_declaring(const std::string& workload,
                                           const std::string& name) const;
  // Each workload the database holds runs of, with its metrics' names in
  // the order runs first declared them: what a mistyped name is offered from.
  std::map<std::string, std::vector<std::string>> metric_names() const;
  // The runs that declare one metric of a workload, and how.
  std::map<std::int64_t, MetricInfo> metric_by_run(const std::string& workload,
                                                   const std::string& name) const;

 private:
  sqlite3* db_;
};

}  // namespace schedlab
