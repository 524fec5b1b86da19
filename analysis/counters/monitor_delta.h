// What a monitor's diff gives for one iteration: its whole delta as JSON
// and flat (counter, value) rows for storage (monitors.h says how rows are
// named). Its own header so that a counter parser returns a delta without
// including the registry that lists the parser.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace schedlab {

struct CounterRow {
  std::string counter;
  double value = 0;
};

struct MonitorDelta {
  nlohmann::json
      json;  // the whole delta (for schedstat: what `schedstat diff --format json` prints)
  std::vector<CounterRow> rows;  // flat, for storage and `compare --monitors`
};

}  // namespace schedlab
