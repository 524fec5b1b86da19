// The runs table: one row per run (name, config text and sha256, manifest,
// status, start and end), and what `list` and `history` read of every run.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/status.h"

namespace schedlab {

struct RunInfo {
  std::int64_t id = 0;
  std::string name;
  std::string config_path;
  std::string config_text;
  std::string config_sha256;
  std::string manifest_json;  // kernel, cmdline, hostname, cpu, version...
  RunStatus status = RunStatus::kRunning;
  std::string started_at;  // ISO 8601 UTC
  std::string ended_at;    // empty while running
};

// Every run's id, name, start, kernel release (its manifest's
// "kernel_release" when that is a string, else empty) and status, by id:
// what a line of `list` or `history` names.
struct RunLabel {
  std::int64_t id = 0;
  std::string name, started_at, kernel_release;
  RunStatus status = RunStatus::kRunning;
};

// Every run's variant names (in position order) and iterations that
// finished ok, by run id, in two queries whatever the number of runs
// (`schedlab list` of a year of nightlies).
struct RunOverview {
  std::vector<std::string> variants;
  std::int64_t iterations_ok = 0;
  // Stored with any other status but unsupported (failed, timeout,
  // parse_error, ...): what `list` must not hide.
  std::int64_t iterations_failed = 0;
  // The manifest's planned_iterations (runs made since schedlab records
  // it; absent for imports and older runs).
  std::optional<std::int64_t> planned_min, planned_max;
};

// Why a new run may not be called NAME: not text a name may be
// (base/text.h: name_problem), or all digits, which a RUN argument reads as
// an id (a run named "02" would be reached as run 2, one named "1" never
// by its name). Run, import and slurm check their names by it.
std::optional<std::string> run_name_problem(std::string_view name);

// A run as a command line names it is found here only (find_run_arg).
class RunsTable {
 public:
  RunsTable(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

  std::int64_t create_run(const RunInfo& run);
  void set_run_status(std::int64_t run_id, RunStatus status, bool ended);
  void set_run_manifest(std::int64_t run_id, const std::string& manifest_json);
  // Sets one member of the manifest, by its keys from the top (objects are
  // created on the way), in one statement: the threads of a pairs: run
  // write their parts ({"pairs", NAME}) without overwriting each other's.
  // Keys are plain names ([A-Za-z0-9_-]); value_json must be JSON.
  void set_manifest_member(std::int64_t run_id, const std::vector<std::string>& keys,
                           const std::string& value_json);
  std::optional<RunInfo> find_run(std::int64_t id) const;
  std::optional<RunInfo> find_run_by_name(const std::string& name) const;
  std::vector<RunInfo> list_runs() const;
  std::vector<RunLabel> run_labels() const;
  std::map<std::int64_t, RunOverview> run_overviews() const;
  // A run as a command line names it: its id (digits) or its name; nothing
  // when neither names one (a 20-digit id is no run, not an error). Throws
  // StoreError, naming both, when ARG is one run's id and another's name
  // (a database made elsewhere: run_name_problem keeps new names apart).
  std::optional<RunInfo> find_run_arg(const std::string& arg) const;

 private:
  sqlite3* db_;
  std::string path_;  // what errors name
};

}  // namespace schedlab
