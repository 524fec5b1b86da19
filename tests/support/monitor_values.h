// A stored run's monitor rows by iteration, and counting a note in
// schedlab's stderr: the checks of the monitor end-to-end tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "results/monitor_rows.h"
#include "results/store.h"

namespace schedlab::test {

// iteration -> value of MONITOR's COUNTER, for every iteration of the run that has it.
inline std::map<std::int64_t, double> monitor_values(Store& store, std::int64_t run,
                                                     const std::string& monitor,
                                                     const std::string& counter) {
  std::map<std::int64_t, double> out;
  for (const auto& d : store.monitor_rows().monitor_deltas(run, monitor, false))
    if (d.counter == counter) out[d.iteration_id] = d.value;
  return out;
}

// How many times `what` occurs in `text` (a note reported once is there once).
inline std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace schedlab::test
