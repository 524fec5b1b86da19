// A row of the runs table as a RunInfo: the columns every reader selects,
// in their order, and the one reader of them (the store's own reads and
// merge's read of another database).
#pragma once

#include <fmt/format.h>

#include <optional>

#include "results/sqlite_stmt.h"
#include "results/status.h"
#include "results/runs_table.h"
#include "results/store_error.h"

namespace schedlab {

inline constexpr const char* kRunColumns =
    "id, name, config_path, config_text, config_sha256, manifest_json, status, started_at, "
    "ended_at";

// The row S stands on, selected as kRunColumns. A status word that is none
// of ours is a StoreError, unless UNKNOWN_STATUS says what it becomes (merge
// keeps another database's run as failed).
inline RunInfo read_run(const sql::Stmt& s,
                        std::optional<RunStatus> unknown_status = std::nullopt) {
  RunInfo r;
  r.id = s.i64(0);
  r.name = s.text(1);
  r.config_path = s.text(2);
  r.config_text = s.text(3);
  r.config_sha256 = s.text(4);
  r.manifest_json = s.text(5);
  const auto status = run_status_from_string(s.view(6));
  if (!status && !unknown_status)
    throw StoreError(fmt::format("unknown run status '{}' in the database", s.view(6)));
  r.status = status ? *status : *unknown_status;
  r.started_at = s.text(7);
  r.ended_at = s.text(8);
  return r;
}

}  // namespace schedlab
