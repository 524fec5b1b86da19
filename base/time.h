// Wall-clock timestamps as schedlab writes them everywhere (the store,
// manifests, lab stamps): UTC, to the second; and durations in the whole
// seconds tools take.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace schedlab {

// Now as "2026-11-29T18:30:00Z".
std::string utc_now_iso8601();

// A duration for a tool that takes whole seconds (tbench -t, pgbench -T,
// sysbench --time): rounded up, and at least one.
inline std::int64_t whole_seconds(std::chrono::milliseconds d) {
  return d.count() <= 0 ? 1 : (d.count() + 999) / 1000;
}

}  // namespace schedlab
