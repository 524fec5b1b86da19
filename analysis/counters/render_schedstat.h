// Renderers of schedstat summaries and comparisons (schedstat_diff.h). They
// only format: every number is already computed. Text is for people and may
// change; JSON is stable (format_version 1; a change of meaning bumps it):
// unavailable counters and undefined ratios are null, never 0.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/counters/schedstat_diff.h"

namespace schedlab::schedstat {

struct RenderOptions {
  std::string title;                  // first line, e.g. "delta a.txt -> b.txt"
  const Snapshot* per_cpu = nullptr;  // when set, also one row per CPU (and domain in JSON)
};

// An all-CPU table, one table per domain level (idle types as columns),
// then the ratios. Ends with a newline.
std::string render_text(const Summary& s, const RenderOptions& o = {});
nlohmann::json to_json(const Summary& s, const RenderOptions& o = {});

// One row per counter and ratio: A, B and the change; "n/a" for a zero base.
std::string render_text(const Comparison& c);
nlohmann::json to_json(const Comparison& c);

}  // namespace schedlab::schedstat
