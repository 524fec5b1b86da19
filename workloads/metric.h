// What one measured quantity means: declared once per workload, read by the
// store, the analysis and the renderers. Nothing decides direction elsewhere.
#pragma once

#include <string>
#include <utility>

#include "base/metric_vocabulary.h"

namespace schedlab {

struct MetricSpec {
  std::string name;
  std::string unit;
  Direction direction;
  // The values it can take: times, latencies, rates and counts are
  // kNonNegative; its intervals are cut to them.
  ValueDomain domain = ValueDomain::kUnbounded;
  Centre centre;
  SampleKind kind = SampleKind::kRun;
  int precision = 4;  // digits after the point in tables
  std::string help;
};

// The two kinds every built-in metric is, values never below 0. A rate
// (throughput, transactions, requests per second): higher is better, its
// centre the harmonic mean.
inline MetricSpec rate_metric(std::string name, std::string unit, int precision, std::string help,
                              SampleKind kind = SampleKind::kRun) {
  return {.name = std::move(name),
          .unit = std::move(unit),
          .direction = Direction::kHigherIsBetter,
          .domain = ValueDomain::kNonNegative,
          .centre = Centre::kHmean,
          .kind = kind,
          .precision = precision,
          .help = std::move(help)};
}

// A cost (a time, a latency, failures, a share of a CPU): lower is better,
// its centre the arithmetic mean.
inline MetricSpec cost_metric(std::string name, std::string unit, int precision, std::string help,
                              SampleKind kind = SampleKind::kRun) {
  return {.name = std::move(name),
          .unit = std::move(unit),
          .direction = Direction::kLowerIsBetter,
          .domain = ValueDomain::kNonNegative,
          .centre = Centre::kAmean,
          .kind = kind,
          .precision = precision,
          .help = std::move(help)};
}

}  // namespace schedlab
