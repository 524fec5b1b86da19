// A monitor delta's row by counter name, for the monitor parser tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "analysis/counters/monitors.h"

namespace schedlab::test {

inline bool delta_has_row(const MonitorDelta& d, const std::string& counter) {
  for (const auto& r : d.rows)
    if (r.counter == counter) return true;
  return false;
}

// The row's value; fails the test when there is none.
inline double delta_row(const MonitorDelta& d, const std::string& counter) {
  for (const auto& r : d.rows)
    if (r.counter == counter) return r.value;
  FAIL("no row " << counter);
  return 0;
}

}  // namespace schedlab::test
