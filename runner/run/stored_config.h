// Whether a run's stored config may be run again (`run --resume`): a
// database from elsewhere is data, never instructions (hostile11: a crafted
// interrupted run's config ran its command at --resume).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "results/runs_table.h"

namespace schedlab {

// The tag a run's manifest carries as "config_tag": the config's path and
// text under this user's local secret (base/local_secret.h).
std::int64_t config_tag(const std::string& path, const std::string& text);

// Why RUN's stored config is not run here, or nothing when it may be: its
// manifest's config_tag is this user's for its path and text, or the file
// at its path (a run from before the tag) holds that text.
std::optional<std::string> stored_config_refusal(const RunInfo& run);

}  // namespace schedlab
