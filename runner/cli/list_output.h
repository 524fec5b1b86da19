// `schedlab list`'s outputs: each run's overview read once, the runs as
// JSON (every field, full names) and as text (100 columns: a long name
// becomes its run's short label with the name in a key under the list).
#pragma once

#include <cstdint>
#include <map>

#include "results/runs_table.h"
#include "results/store.h"

namespace schedlab::cli {

// Each run's overview (variants, iterations ok and failed, planned), read
// once for the whole list.
class Overviews {
 public:
  explicit Overviews(const Store& store) : all_(store.runs_table().run_overviews()) {}
  const RunOverview& operator()(std::int64_t id) const {
    const auto it = all_.find(id);
    return it == all_.end() ? none_ : it->second;
  }

 private:
  std::map<std::int64_t, RunOverview> all_;
  RunOverview none_;
};

void list_json(const Store& store, const Overviews& overview);
// `wide`: full names, however wide the lines.
void list_text(const Store& store, const Overviews& overview, bool wide);

}  // namespace schedlab::cli
