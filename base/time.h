// Wall-clock timestamps as schedlab writes them everywhere (the store,
// manifests, lab stamps): UTC, to the second.
#pragma once

#include <string>

namespace schedlab {

// Now as "2026-11-29T18:30:00Z".
std::string utc_now_iso8601();

}  // namespace schedlab
