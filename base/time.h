// Wall-clock timestamps as schedlab writes them everywhere (the store,
// manifests, lab stamps): UTC, to the second; and durations in the whole
// seconds tools take.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace schedlab {

// Now as "2026-11-29T18:30:00Z".
std::string utc_now_iso8601();

// Whether s is a time as utc_now_iso8601 writes it (a valid date and time
// of day), for a time read from a database made elsewhere: a run's start
// orders history and Otava's series, and merge keeps the earlier of two.
bool is_utc_iso8601(std::string_view s);

// A duration for a tool that takes whole seconds (tbench -t, pgbench -T,
// sysbench --time): rounded up, and at least one.
inline std::int64_t whole_seconds(std::chrono::milliseconds d) {
  return d.count() <= 0 ? 1 : (d.count() + 999) / 1000;
}

}  // namespace schedlab
