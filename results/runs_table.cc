#include "results/runs_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/text.h"
#include "base/time.h"
#include "results/run_row.h"
#include "results/sqlite_stmt.h"
#include "results/store_error.h"

namespace schedlab {
std::int64_t RunsTable::create_run(const RunInfo& run) {
  sql::Stmt s(
      db_,
      "INSERT INTO runs (name, config_path, config_text, config_sha256, manifest_json, status, "
      "started_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run.name).bind(2, run.config_path).bind(3, run.config_text).bind(4, run.config_sha256);
  s.bind(5, run.manifest_json.empty() ? std::string("{}") : run.manifest_json);
  s.bind(6, sql::word(run.status));
  s.bind(7, run.started_at.empty() ? utc_now_iso8601() : run.started_at);
  try {
    s.run();
  } catch (const StoreError& e) {
    if (find_run_by_name(run.name))
      throw StoreError(fmt::format("a run named '{}' already exists in", run.name), path_);
    throw;
  }
  return sqlite3_last_insert_rowid(db_);
}

void RunsTable::set_run_status(std::int64_t run_id, RunStatus status, bool ended) {
  sql::Stmt s(db_, "UPDATE runs SET status = ?, ended_at = ? WHERE id = ?");
  s.bind(1, sql::word(status));
  if (ended)
    s.bind(2, utc_now_iso8601());
  else
    s.bind_null(2);
  s.bind(3, run_id).run();
}

void RunsTable::set_run_manifest(std::int64_t run_id, const std::string& manifest_json) {
  sql::Stmt(db_, "UPDATE runs SET manifest_json = ? WHERE id = ?")
      .bind(1, manifest_json)
      .bind(2, run_id)
      .run();
}

namespace {

// SQLite's JSON path of a manifest member, from plain key names.
std::string manifest_path(const std::vector<std::string>& keys) {
  std::string path = "$";
  for (const auto& k : keys) {
    const bool plain = !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_' || c == '-';
    });
    if (!plain) throw StoreError(fmt::format("manifest key '{}' is not a plain name", k));
    path += fmt::format(".\"{}\"", k);
  }
  return path;
}

}  // namespace

void RunsTable::set_manifest_member(std::int64_t run_id, const std::vector<std::string>& keys,
                                    const std::string& value_json) {
  const std::string path = manifest_path(keys);
  sql::Stmt(db_, "UPDATE runs SET manifest_json = json_set(manifest_json, ?, json(?)) WHERE id = ?")
      .bind(1, path)
      .bind(2, value_json)
      .bind(3, run_id)
      .run();
}

std::optional<RunInfo> RunsTable::find_run(std::int64_t id) const {
  sql::Stmt s(db_, fmt::format("SELECT {} FROM runs WHERE id = ?", kRunColumns).c_str());
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::optional<RunInfo> RunsTable::find_run_by_name(const std::string& name) const {
  sql::Stmt s(db_, fmt::format("SELECT {} FROM runs WHERE name = ?", kRunColumns).c_str());
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return read_run(s);
}

std::vector<RunInfo> RunsTable::list_runs() const {
  return sql::rows(db_, fmt::format("SELECT {} FROM runs ORDER BY id", kRunColumns),
                   [](const sql::Stmt& s) { return read_run(s); });
}

std::vector<RunLabel> RunsTable::run_labels() const {
  return sql::rows(
      db_,
      "SELECT r.id, r.name, r.started_at, coalesce(k.kernel_release, ''), r.status FROM runs r "
      "LEFT JOIN run_kernel_releases k ON k.run_id = r.id ORDER BY r.id",
      [](const sql::Stmt& s) {
        return RunLabel{s.i64(0), s.text(1), s.text(2), s.text(3),
                        sql::known(run_status_from_string(s.view(4)), s.view(4), "run status")};
      });
}

std::map<std::int64_t, RunOverview> RunsTable::run_overviews() const {
  std::map<std::int64_t, RunOverview> out;
  sql::Stmt v(db_, "SELECT run_id, name FROM variants ORDER BY run_id, position");
  while (v.step()) out[v.i64(0)].variants.push_back(v.text(1));
  // iterations_by_status (migration 8) answers this from the index alone.
  sql::Stmt n(db_, "SELECT run_id, status, count(*) FROM iterations GROUP BY run_id, status");
  while (n.step()) {
    const auto status =
        sql::known(iteration_status_from_string(n.view(1)), n.view(1), "iteration status");
    if (status == IterationStatus::kOk)
      out[n.i64(0)].iterations_ok = n.i64(2);
    else if (status != IterationStatus::kUnsupported)
      out[n.i64(0)].iterations_failed += n.i64(2);
  }
  sql::Stmt p(
      db_,
      "SELECT id, json_extract(manifest_json, '$.planned_iterations.min'), "
      "json_extract(manifest_json, '$.planned_iterations.max') FROM runs "
      "WHERE json_valid(manifest_json) AND json_type(manifest_json, '$.planned_iterations.max') "
      "= 'integer'");
  while (p.step()) {
    if (!p.is_null(1)) out[p.i64(0)].planned_min = p.i64(1);
    out[p.i64(0)].planned_max = p.i64(2);
  }
  return out;
}

std::optional<std::string> run_name_problem(std::string_view name) {
  if (auto problem = name_problem(name)) return problem;
  if (all_digits(name)) return "it is all digits, which a RUN argument takes for a run's id";
  return std::nullopt;
}

std::optional<RunInfo> RunsTable::find_run_arg(const std::string& arg) const {
  // Digits are an id when they fit one: from_chars refuses the rest (20
  // digits), which then can only be a name.
  std::optional<RunInfo> by_id;
  if (all_digits(arg)) {
    std::int64_t id = 0;
    const char* end = arg.data() + arg.size();
    if (const auto [ptr, ec] = std::from_chars(arg.data(), end, id);
        ec == std::errc() && ptr == end)
      by_id = find_run(id);
  }
  auto by_name = find_run_by_name(arg);
  // A database made elsewhere (or before names were checked) may hold a
  // run named like another's id: which one is meant is the user's to say.
  if (by_id && by_name && by_id->id != by_name->id)
    throw StoreError(
        fmt::format("'{}' names two runs in {}: run {} '{}' by its id and run {} by its name; give "
                    "the id of the one you "
                    "mean",
                    terminal_safe(arg), path_, by_id->id, terminal_safe(by_id->name), by_name->id));
  return by_id ? by_id : by_name;
}

}  // namespace schedlab
