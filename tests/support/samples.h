// A metric's values among a parser's samples, for the workload tests.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "workloads/metric.h"

namespace schedlab::test {

// Every value of `metric`, in the samples' order.
inline std::vector<double> metric_values(const std::vector<Sample>& samples,
                                         const std::string& metric) {
  std::vector<double> v;
  for (const auto& s : samples)
    if (s.metric == metric) v.push_back(s.value);
  return v;
}

// The first value of `metric`; the test fails when there is none.
inline double metric_value(const std::vector<Sample>& samples, const std::string& metric) {
  for (const auto& s : samples)
    if (s.metric == metric) return s.value;
  FAIL("no " << metric);
  return 0;
}

}  // namespace schedlab::test
